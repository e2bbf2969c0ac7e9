//! The checks of reverse private endpoint bodies (`CreateReversePrivateEndpoint`,
//! `UpdateReversePrivateEndpoint`).

use serde_json::Value;

use super::{Checked, Problem, fail, object, one_of, required_text};

const ENDPOINT_TYPES: &[&str] =
    &["VPC_ENDPOINT_SERVICE", "VPC_RESOURCE", "MSK_MULTI_VPC", "GCP_PSC_SERVICE_ATTACHMENT"];

/// `POST .../pipesReversePrivateEndpoints` (`CreateReversePrivateEndpoint`): a type, what that
/// type requires ("Required for ... type"), a description of at most 255 characters, and
/// mappings only where they are supported (not for MSK multi-VPC).
pub(crate) fn create_reverse_private_endpoint(body: &Value) -> Checked {
    let members = object(body, "body")?;
    one_of(members, "", "type", ENDPOINT_TYPES, true)?;
    match members.get("description") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) if text.chars().count() <= 255 => {}
        Some(_) => return fail("description", "must be a string of at most 255 characters"),
    }
    match members.get("type").and_then(Value::as_str) {
        Some("VPC_ENDPOINT_SERVICE") => required_text(members, "", "vpcEndpointServiceName")?,
        Some("VPC_RESOURCE") => {
            required_text(members, "", "vpcResourceConfigurationId")?;
            required_text(members, "", "vpcResourceShareArn")?;
        }
        Some("MSK_MULTI_VPC") => {
            required_text(members, "", "mskClusterArn")?;
            one_of(members, "", "mskAuthentication", &["SASL_IAM", "SASL_SCRAM"], true)?;
            if members.get("customPrivateDnsMappings").and_then(Value::as_array).is_some_and(|m| !m.is_empty()) {
                return fail("customPrivateDnsMappings", "is not supported for MSK_MULTI_VPC");
            }
        }
        _ => {
            required_text(members, "", "gcpServiceAttachment")?;
            let uri = members.get("gcpServiceAttachment").and_then(Value::as_str).unwrap_or_default();
            let parts: Vec<&str> = uri.split('/').collect();
            let well_formed = parts.len() == 6
                && parts[0] == "projects"
                && parts[2] == "regions"
                && parts[4] == "serviceAttachments"
                && [parts[1], parts[3], parts[5]].iter().all(|part| !part.is_empty());
            if !well_formed {
                return fail(
                    "gcpServiceAttachment",
                    "must be projects/{project}/regions/{region}/serviceAttachments/{name}",
                );
            }
        }
    }
    match members.get("customPrivateDnsMappings") {
        None | Some(Value::Null) => Ok(()),
        Some(mappings) => dns_mappings(mappings),
    }
}

/// `PATCH .../pipesReversePrivateEndpoints/{id}` (`UpdateReversePrivateEndpoint`): the mappings,
/// a full replacement list.
pub(crate) fn update_reverse_private_endpoint(body: &Value) -> Checked {
    let members = object(body, "body")?;
    match members.get("customPrivateDnsMappings") {
        Some(mappings) => dns_mappings(mappings),
        None => fail("customPrivateDnsMappings", "is required"),
    }
}

/// Each mapping a `{privateDnsName}` with an exact name or a leading wildcard, none twice.
fn dns_mappings(mappings: &Value) -> Checked {
    let mappings =
        mappings.as_array().ok_or_else(|| Problem("customPrivateDnsMappings: must be an array".to_owned()))?;
    let mut names = Vec::new();
    for (i, mapping) in mappings.iter().enumerate() {
        let path = format!("customPrivateDnsMappings[{i}]");
        let mapping = object(mapping, &path)?;
        required_text(mapping, &format!("{path}."), "privateDnsName")?;
        let name = mapping.get("privateDnsName").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        if name.trim_start_matches("*.").contains('*') {
            return fail(&format!("{path}.privateDnsName"), "only a leading wildcard (*.) is supported");
        }
        if names.contains(&name) {
            return fail(&format!("{path}.privateDnsName"), "must be unique");
        }
        names.push(name);
    }
    Ok(())
}
