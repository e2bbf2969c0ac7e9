//! `.../services/{serviceId}/pipesReversePrivateEndpoints`: list, create, get, update (`PATCH`),
//! delete. An endpoint is `Provisioning` after create and `Ready` once its provisioning time has
//! passed on the fake's clock; after delete it is `Deleting` until its deleting time has passed,
//! then gone (`404 NOT_FOUND: <id>`). Transitions settle when the endpoint is next read.

use pipe_api_proto::{
    CreateReversePrivateEndpoint, DeleteReversePrivateEndpoint, GetReversePrivateEndpoint, ListReversePrivateEndpoints,
    UpdateReversePrivateEndpoint,
};
use pipe_api_types::{ReversePrivateEndpointId, ServiceId};
use serde_json::{Map, Value, json};

use super::{Call, Served};
use crate::permissions::Resource::Pipes;
use crate::reply::{self, Answer, Refusal};
use crate::state::{StoredEndpoint, StoredService};

/// The fields a create copies from its body, per the contract's `CreateReversePrivateEndpoint`.
const CREATE_FIELDS: &[&str] = &[
    "description",
    "type",
    "vpcEndpointServiceName",
    "vpcResourceConfigurationId",
    "vpcResourceShareArn",
    "mskClusterArn",
    "mskAuthentication",
    "gcpServiceAttachment",
    "customPrivateDnsMappings",
];

/// The rows answered here.
pub(super) const HANDLERS: &[Served] = &[
    (ListReversePrivateEndpoints::OPERATION, Pipes, |call, path| list(call, path.id("service_id")?)),
    (CreateReversePrivateEndpoint::OPERATION, Pipes, |call, path| create(call, path.id("service_id")?)),
    (GetReversePrivateEndpoint::OPERATION, Pipes, |call, path| {
        get(call, path.id("service_id")?, path.id("endpoint_id")?)
    }),
    (UpdateReversePrivateEndpoint::OPERATION, Pipes, |call, path| {
        update(call, path.id("service_id")?, path.id("endpoint_id")?)
    }),
    (DeleteReversePrivateEndpoint::OPERATION, Pipes, |call, path| {
        delete(call, path.id("service_id")?, path.id("endpoint_id")?)
    }),
];

/// The service's endpoints with every transition due by now applied, the gone ones removed.
fn settled<'s>(call: &'s mut Call<'_>, service: ServiceId) -> Result<&'s mut StoredService, Refusal> {
    let now = call.state.now;
    let stored = call.running_service(service)?;
    stored.reverse_private_endpoints.retain_mut(|endpoint| endpoint.settle(now));
    Ok(stored)
}

fn list(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = settled(call, service)?;
    let records: Vec<&Map<String, Value>> = stored.reverse_private_endpoints.iter().map(|e| &e.record).collect();
    Ok(reply::management_ok(request_id, &records))
}

fn get(call: &mut Call<'_>, service: ServiceId, id: ReversePrivateEndpointId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let endpoint = find(settled(call, service)?, id)?;
    Ok(reply::management_ok(request_id, &endpoint.record))
}

fn find(stored: &mut StoredService, id: ReversePrivateEndpointId) -> Result<&mut StoredEndpoint, Refusal> {
    let text = id.to_string();
    stored.reverse_private_endpoints.iter_mut().find(|e| e.id() == Some(text.as_str())).ok_or(Refusal::not_found(id))
}

fn create(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::reverse_private_endpoints::create_reverse_private_endpoint)?;
    let id = call.state.sequence.uuid();
    let endpoint_number = call.state.sequence.text(17, b"0123456789abcdef");
    let (now, timings) = (call.state.now, call.state.endpoint_timings);
    let mut record = Map::new();
    record.insert("id".to_owned(), json!(id));
    record.insert("serviceId".to_owned(), json!(service));
    for name in CREATE_FIELDS {
        if let Some(value) = body.get(*name).filter(|value| !value.is_null()) {
            record.insert((*name).to_owned(), value.clone());
        }
    }
    let gcp = body.get("type").and_then(Value::as_str) == Some("GCP_PSC_SERVICE_ATTACHMENT");
    let endpoint_id = if gcp { format!("psc-{endpoint_number}") } else { format!("vpce-{endpoint_number}") };
    record.insert("endpointId".to_owned(), json!(endpoint_id));
    record.insert("dnsNames".to_owned(), json!([format!("{endpoint_id}.endpoints.example.invalid")]));
    record.insert("privateDnsNames".to_owned(), json!([]));
    record.entry("customPrivateDnsMappings").or_insert_with(|| json!([]));
    record.insert("status".to_owned(), json!("Provisioning"));

    let request_id = call.request_id;
    let stored = settled(call, service)?;
    unique_across_service(stored, record.get("customPrivateDnsMappings"), None)?;
    stored.reverse_private_endpoints.push(StoredEndpoint {
        record,
        ready_at: Some(now + timings.provisioning),
        gone_at: None,
    });
    let created = stored.reverse_private_endpoints.last().map(|e| &e.record);
    Ok(reply::management_ok(request_id, &created))
}

fn update(call: &mut Call<'_>, service: ServiceId, id: ReversePrivateEndpointId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::reverse_private_endpoints::update_reverse_private_endpoint)?;
    let request_id = call.request_id;
    let stored = settled(call, service)?;
    let endpoint = find(stored, id)?;
    if endpoint.record.get("type").and_then(Value::as_str) == Some("MSK_MULTI_VPC") {
        return Err(Refusal::bad_request("customPrivateDnsMappings is not supported for MSK_MULTI_VPC"));
    }
    unique_across_service(stored, body.get("customPrivateDnsMappings"), Some(id))?;
    let endpoint = find(stored, id)?;
    // A full replacement list: what was there before is gone, an empty list clears it.
    endpoint.record.insert("customPrivateDnsMappings".to_owned(), body["customPrivateDnsMappings"].clone());
    Ok(reply::management_ok(request_id, &endpoint.record))
}

fn delete(call: &mut Call<'_>, service: ServiceId, id: ReversePrivateEndpointId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let deleting = call.state.now + call.state.endpoint_timings.deleting;
    let endpoint = find(settled(call, service)?, id)?;
    endpoint.record.insert("status".to_owned(), json!("Deleting"));
    endpoint.ready_at = None;
    // Deleting again does not put the end further off.
    endpoint.gone_at = Some(endpoint.gone_at.map_or(deleting, |at| at.min(deleting)));
    Ok(reply::management_ok_empty(request_id))
}

/// The contract: private DNS names "Must be unique across the ClickHouse service".
fn unique_across_service(
    stored: &StoredService,
    wanted: Option<&Value>,
    except: Option<ReversePrivateEndpointId>,
) -> Result<(), Refusal> {
    let except = except.map(|id| id.to_string());
    let names = |mappings: Option<&Value>| -> Vec<String> {
        mappings
            .and_then(Value::as_array)
            .into_iter()
            .flatten()
            .filter_map(|m| m.get("privateDnsName")?.as_str().map(str::to_ascii_lowercase))
            .collect()
    };
    let wanted = names(wanted);
    for other in stored.reverse_private_endpoints.iter().filter(|e| e.id() != except.as_deref()) {
        if let Some(taken) =
            names(other.record.get("customPrivateDnsMappings")).into_iter().find(|n| wanted.contains(n))
        {
            return Err(Refusal::bad_request(format!("private DNS name {taken} is already used in this service")));
        }
    }
    Ok(())
}
