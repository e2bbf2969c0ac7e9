//! The checks of a service's patch and state bodies (`ServicePatchRequest`,
//! `ServiceStatePatchRequest`).

use serde_json::Value;

use super::{Checked, Problem, fail, ip_access_entries, object, one_of};

/// `PATCH /services/{serviceId}` (`ServicePatchRequest`): a name of 1 to 50 characters; the
/// list patches `{add, remove}`, IP entries an address or a block, tags (at most 50 each way)
/// with a key of 1 to 128 and a value of up to 256 letters, digits, `.`, `_`, `-`; the release
/// channel and an endpoint's protocol (only `mysql`) from the contract's values.
pub(crate) fn update_service(body: &Value) -> Checked {
    let members = object(body, "body")?;
    match members.get("name") {
        None => {}
        Some(Value::String(name)) if (1..=50).contains(&name.chars().count()) => {}
        Some(_) => return fail("name", "must be a string of 1 to 50 characters"),
    }
    if let Some(patch) = members.get("ipAccessList") {
        list_patch(patch, "ipAccessList", ip_access_entries)?;
    }
    if let Some(patch) = members.get("privateEndpointIds") {
        list_patch(patch, "privateEndpointIds", |ids, path| {
            let ids = ids.as_array().ok_or_else(|| Problem(format!("{path}: must be an array")))?;
            match ids.iter().position(|id| !id.is_string()) {
                Some(i) => fail(&format!("{path}[{i}]"), "must be a string"),
                None => Ok(()),
            }
        })?;
    }
    one_of(members, "", "releaseChannel", &["slow", "default", "fast"], false)?;
    if let Some(endpoints) = members.get("endpoints") {
        let endpoints = endpoints.as_array().ok_or_else(|| Problem("endpoints: must be an array".to_owned()))?;
        for (i, endpoint) in endpoints.iter().enumerate() {
            let path = format!("endpoints[{i}].");
            let endpoint = object(endpoint, &format!("endpoints[{i}]"))?;
            one_of(endpoint, &path, "protocol", &["mysql"], false)?;
            if endpoint.get("enabled").is_some_and(|enabled| !enabled.is_boolean()) {
                return fail(&format!("{path}enabled"), "must be a boolean");
            }
        }
    }
    if members.get("transparentDataEncryptionKeyId").is_some_and(|id| !id.is_string()) {
        return fail("transparentDataEncryptionKeyId", "must be a string");
    }
    if let Some(patch) = members.get("tags") {
        list_patch(patch, "tags", |tags, path| {
            let tags = tags.as_array().ok_or_else(|| Problem(format!("{path}: must be an array")))?;
            if tags.len() > 50 {
                return fail(path, "must have at most 50 elements");
            }
            for (i, tag) in tags.iter().enumerate() {
                let tag = object(tag, &format!("{path}[{i}]"))?;
                match tag.get("key").and_then(Value::as_str) {
                    Some(key) if key.len() <= 128 && is_tag_text(key) => {}
                    _ => return fail(&format!("{path}[{i}].key"), "must be 1 to 128 letters, digits, '.', '_' or '-'"),
                }
                match tag.get("value") {
                    None => {}
                    Some(Value::String(value)) if value.len() <= 256 && is_tag_text(value) => {}
                    Some(_) => {
                        return fail(
                            &format!("{path}[{i}].value"),
                            "must be up to 256 letters, digits, '.', '_' or '-'",
                        );
                    }
                }
            }
            Ok(())
        })?;
    }
    if members.get("enableCoreDumps").is_some_and(|on| !on.is_boolean()) {
        return fail("enableCoreDumps", "must be a boolean");
    }
    Ok(())
}

/// `ResourceTagsV1`'s pattern `^[a-zA-Z0-9._-]+$`.
fn is_tag_text(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// An `{add, remove}` object, each list checked by `items`.
fn list_patch(patch: &Value, path: &str, items: impl Fn(&Value, &str) -> Checked) -> Checked {
    let patch = object(patch, path)?;
    for name in ["add", "remove"] {
        if let Some(list) = patch.get(name) {
            items(list, &format!("{path}.{name}"))?;
        }
    }
    Ok(())
}

/// `PATCH /services/{serviceId}/state` (`ServiceStatePatchRequest`): one of the three commands.
pub(crate) fn service_state(body: &Value) -> Checked {
    let members = object(body, "body")?;
    one_of(members, "", "command", &["start", "stop", "awake"], true)
}
