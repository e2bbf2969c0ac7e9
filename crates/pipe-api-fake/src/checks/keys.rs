//! The checks of `/keys` bodies (`KeyPostRequest`, `ApiKeyPatchRequest`).

use serde_json::{Map, Value};

use super::{Checked, Problem, fail, ip_access_entries, object, one_of};

/// `POST /keys` (`KeyPostRequest`): roles from the three the service knows, at least one (the
/// spec's own rule); state enabled or disabled; `expireAt` a date-time, or `null` or `""` for
/// never; IP access entries an address or a block.
pub(crate) fn create_key(body: &Value) -> Checked {
    let members = object(body, "body")?;
    roles(members)?;
    one_of(members, "", "state", &["enabled", "disabled"], false)?;
    expire_at(members)?;
    ip_access_list(members)
}

/// `PATCH /keys/{keyId}` (`ApiKeyPatchRequest`): what is sent follows the create rules (roles,
/// when sent, at least one); `expireAt` a date-time, or `null` or `""` for never;
/// `assignedRoleIds` UUIDs.
pub(crate) fn update_key(body: &Value) -> Checked {
    let members = object(body, "body")?;
    if members.get("name").is_some_and(|name| !name.is_string()) {
        return fail("name", "must be a string");
    }
    roles(members)?;
    one_of(members, "", "state", &["enabled", "disabled"], false)?;
    ip_access_list(members)?;
    expire_at(members)?;
    if let Some(ids) = members.get("assignedRoleIds") {
        let ids = ids.as_array().ok_or_else(|| Problem("assignedRoleIds: must be an array".to_owned()))?;
        for (i, id) in ids.iter().enumerate() {
            if id.as_str().is_none_or(|id| uuid::Uuid::try_parse(id).is_err()) {
                return fail(&format!("assignedRoleIds[{i}]"), "must be a UUID");
            }
        }
    }
    Ok(())
}

/// `expireAt`, when sent: the notes say absent, `null` or `""` all mean "never expires".
fn expire_at(members: &Map<String, Value>) -> Checked {
    match members.get("expireAt") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(text)) if text.is_empty() || is_date_time(text) => Ok(()),
        Some(_) => fail("expireAt", "must be an RFC 3339 date-time, null or empty"),
    }
}

/// An RFC 3339 date-time, checked with `time`'s own parser (the fake does not reuse the
/// client's codecs).
fn is_date_time(text: &str) -> bool {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok()
}

/// `roles`, when sent: an array of at least one of the three roles the service knows.
fn roles(members: &Map<String, Value>) -> Checked {
    if let Some(roles) = members.get("roles") {
        let roles = roles.as_array().ok_or_else(|| Problem("roles: must be an array".to_owned()))?;
        if roles.is_empty() {
            return fail("roles", "must have at least 1 element");
        }
        for (i, role) in roles.iter().enumerate() {
            if !matches!(role.as_str(), Some("admin" | "developer" | "query_endpoints")) {
                return fail(&format!("roles[{i}]"), "must be one of admin, developer, query_endpoints");
            }
        }
    }
    Ok(())
}

/// `ipAccessList`, when sent: entries whose `source` is an address or a block.
fn ip_access_list(members: &Map<String, Value>) -> Checked {
    match members.get("ipAccessList") {
        Some(entries) => ip_access_entries(entries, "ipAccessList"),
        None => Ok(()),
    }
}
