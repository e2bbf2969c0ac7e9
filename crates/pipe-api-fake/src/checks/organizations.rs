//! The check of the organization's patch body (`OrganizationPatchRequest`).

use serde_json::Value;

use super::{Checked, fail, object, one_of};

/// `PATCH /v1/organizations/{organizationId}` (`OrganizationPatchRequest`): a name a string,
/// `enableCoreDumps` a boolean, `privateEndpoints` `{add, remove}` lists of endpoints, each with
/// an `id` and the contract's provider and region values.
pub(crate) fn update_organization(body: &Value) -> Checked {
    let members = object(body, "body")?;
    if members.get("name").is_some_and(|name| name.as_str().is_none_or(|name| name.trim().is_empty())) {
        return fail("name", "must be a non-empty string");
    }
    if members.get("enableCoreDumps").is_some_and(|on| !on.is_boolean()) {
        return fail("enableCoreDumps", "must be a boolean");
    }
    let Some(patch) = members.get("privateEndpoints") else { return Ok(()) };
    let patch = object(patch, "privateEndpoints")?;
    for name in ["add", "remove"] {
        let Some(list) = patch.get(name) else { continue };
        let path = format!("privateEndpoints.{name}");
        let list = list.as_array().ok_or_else(|| super::Problem(format!("{path}: must be an array")))?;
        for (i, endpoint) in list.iter().enumerate() {
            let at = format!("{path}[{i}]");
            let endpoint = object(endpoint, &at)?;
            if !endpoint.get("id").is_some_and(Value::is_string) {
                return fail(&format!("{at}.id"), "is required");
            }
            one_of(endpoint, &format!("{at}."), "cloudProvider", &["gcp", "aws", "azure"], false)?;
        }
    }
    Ok(())
}
