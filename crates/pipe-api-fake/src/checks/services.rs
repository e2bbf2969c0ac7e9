//! The checks of a service's patch and state bodies (`ServicePatchRequest`,
//! `ServiceStatePatchRequest`).

use serde_json::Value;

use super::{Checked, Problem, fail, integer_in, ip_access_entries, multiple_of, number_in, object, one_of};

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

/// The regions of the contract's `ServicePostRequest.region`.
const REGIONS: &[&str] = &[
    "ap-northeast-1",
    "ap-northeast-2",
    "ap-south-1",
    "ap-southeast-1",
    "ap-southeast-2",
    "ca-central-1",
    "eu-central-1",
    "eu-west-1",
    "eu-west-2",
    "il-central-1",
    "us-east-1",
    "us-east-2",
    "us-west-2",
    "us-east1",
    "us-central1",
    "europe-west2",
    "europe-west4",
    "asia-southeast1",
    "asia-northeast1",
    "eastus",
    "eastus2",
    "westus3",
    "germanywestcentral",
    "centralus",
];

/// `POST /services` (`ServicePostRequest`, and the service notes): a name of 1 to 50
/// characters, a provider and a region from the contract's values, and the scaling rules.
pub(crate) fn create_service(body: &Value) -> Checked {
    let members = object(body, "body")?;
    match members.get("name") {
        Some(Value::String(name)) if (1..=50).contains(&name.chars().count()) => {}
        None => return fail("name", "is required"),
        Some(_) => return fail("name", "must be a string of 1 to 50 characters"),
    }
    one_of(members, "", "provider", &["aws", "gcp", "azure"], true)?;
    one_of(members, "", "region", REGIONS, true)?;
    one_of(members, "", "releaseChannel", &["slow", "default", "fast"], false)?;
    if let Some(entries) = members.get("ipAccessList") {
        ip_access_entries(entries, "ipAccessList")?;
    }
    if members.get("tags").and_then(Value::as_array).is_some_and(|tags| tags.len() > 50) {
        return fail("tags", "must have at most 50 elements");
    }
    scaling(members)
}

/// `PATCH /services/{serviceId}/replicaScaling` (`ServiceReplicaScalingPatchRequest`): the
/// scaling rules alone.
pub(crate) fn replica_scaling(body: &Value) -> Checked {
    scaling(object(body, "body")?)
}

/// The scaling members a create and a replica-scaling change share: memory per replica 8 to
/// 356 in steps of 4, replica counts 1 to 20, `numReplicas` apart from `minReplicas` and
/// `maxReplicas` (which come together), an idle timeout of at least 5 minutes.
fn scaling(members: &serde_json::Map<String, Value>) -> Checked {
    one_of(members, "", "autoscalingMode", &["vertical", "horizontal"], false)?;
    for name in ["minReplicaMemoryGb", "maxReplicaMemoryGb"] {
        number_in(members, "", name, 8.0, 356.0)?;
        multiple_of(members, name, 4.0)?;
    }
    for name in ["numReplicas", "minReplicas", "maxReplicas"] {
        integer_in(members, "", name, 1, 20)?;
    }
    let has = |name: &str| members.get(name).is_some_and(|value| !value.is_null());
    if has("numReplicas") && (has("minReplicas") || has("maxReplicas")) {
        return fail("numReplicas", "is mutually exclusive with minReplicas and maxReplicas");
    }
    if has("minReplicas") != has("maxReplicas") {
        return fail("minReplicas", "must be provided together with maxReplicas");
    }
    if members.get("idleTimeoutMinutes").and_then(Value::as_f64).is_some_and(|minutes| minutes < 5.0) {
        return fail("idleTimeoutMinutes", "must be >= 5 minutes");
    }
    Ok(())
}

/// `PATCH /services/{serviceId}/password` (`ServicePasswordPatchRequest`): `newPasswordHash`,
/// if sent, the base64 of a SHA-256 (32 bytes); `newDoubleSha1Hash` a SHA-1 in hex.
pub(crate) fn service_password(body: &Value) -> Checked {
    use base64::Engine as _;
    let members = object(body, "body")?;
    match members.get("newPasswordHash") {
        None | Some(Value::Null) => {}
        Some(Value::String(hash))
            if base64::engine::general_purpose::STANDARD.decode(hash).is_ok_and(|bytes| bytes.len() == 32) => {}
        Some(_) => return fail("newPasswordHash", "must be the base64 of a SHA-256 digest"),
    }
    match members.get("newDoubleSha1Hash") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(hash)) if hash.len() == 40 && hash.bytes().all(|b| b.is_ascii_hexdigit()) => Ok(()),
        Some(_) => fail("newDoubleSha1Hash", "must be a SHA-1 digest in hex"),
    }
}
