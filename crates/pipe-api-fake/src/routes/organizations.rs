//! `/v1/organizations`, `/v1/organizations/{organizationId}` and the organization's service
//! list (`.../services`, narrowed by repeated `filter=tag:Key[=Value]` parameters): how a key
//! finds the ids every other call needs.

use pipe_api_proto::{CreateService, GetOrganization, ListOrganizations, ListServices, UpdateOrganization};
use pipe_api_types::OrganizationId;
use serde_json::{Map, Value, json};

use super::{Call, Served, percent_decode};
use crate::permissions::Resource::Organization;
use crate::reply::{self, Answer, Refusal};
use crate::state::{KEY_SECRET_ALPHABET, State, StoredService, date_time};

/// The organization as the contract's `Organization`: what the fake keeps of it (seeded or
/// not), over the fields every organization has.
fn record(state: &State, organization: OrganizationId) -> Value {
    let mut record = json!({
        "id": organization,
        "name": format!("organization {}", &organization.to_string()[..8]),
        "createdAt": "2025-01-01T00:00:00Z",
        "privateEndpoints": [],
        "byocConfig": [],
        "enableCoreDumps": true,
    });
    if let Some(kept) = state.organizations.get(&organization).map(|org| &org.record) {
        record.as_object_mut().into_iter().for_each(|fields| fields.extend(kept.clone()));
    }
    record
}

/// The rows answered here.
pub(super) const HANDLERS: &[Served] = &[
    (ListOrganizations::OPERATION, Organization, |call, _| Ok(list(call))),
    (GetOrganization::OPERATION, Organization, |call, _| {
        Ok(reply::management_ok(call.request_id, &record(call.state, call.organization)))
    }),
    (ListServices::OPERATION, Organization, |call, _| list_services(call)),
    (CreateService::OPERATION, Organization, |call, _| create_service(call)),
    (UpdateOrganization::OPERATION, Organization, |call, _| update(call)),
];

/// `GET /v1/organizations`: the one organization the key belongs to (service notes); the
/// call's organization is the key's.
fn list(call: &Call<'_>) -> Answer {
    reply::management_ok(call.request_id, &[record(call.state, call.organization)])
}

/// Every service of the organization, or those carrying every tag the filters name.
fn list_services(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let mut wanted = Vec::new();
    for (name, value) in call.query.unwrap_or("").split('&').filter_map(|pair| pair.split_once('=')) {
        if name != "filter" {
            continue;
        }
        let value = percent_decode(&value.replace('+', " ")).ok_or_else(|| Refusal::bad_request("invalid filter"))?;
        // The contract: only resource tags are supported, `tag:Key` or `tag:Key=Value`.
        let Some(tag) = value.strip_prefix("tag:") else {
            return Err(Refusal::bad_request(format!("unsupported filter: {value}")));
        };
        let (key, value) = match tag.split_once('=') {
            Some((key, value)) => (key.to_owned(), Some(value.to_owned())),
            None => (tag.to_owned(), None),
        };
        wanted.push((key, value));
    }
    let carries = |record: &Map<String, Value>, (key, value): &(String, Option<String>)| {
        record.get("tags").and_then(Value::as_array).into_iter().flatten().any(|tag| {
            tag["key"].as_str() == Some(key) && value.as_ref().is_none_or(|value| tag["value"].as_str() == Some(value))
        })
    };
    // Each service as a read of it would show it now (its lifecycle moved on with the clock).
    let organization =
        call.state.services_settled(call.organization).ok_or_else(|| Refusal::not_found(call.organization))?;
    let services: Vec<&Map<String, Value>> = organization
        .services
        .values()
        .map(|service| &service.record)
        .filter(|record| wanted.iter().all(|tag| carries(record, tag)))
        .collect();
    Ok(reply::management_ok(call.request_id, &services))
}

/// The members of a create that the new service's record keeps as sent (the contract's
/// `ServicePostRequest` members that `Service` also has).
const KEPT_ON_CREATE: &[&str] = &[
    "name",
    "provider",
    "region",
    "tier",
    "ipAccessList",
    "autoscalingMode",
    "minReplicaMemoryGb",
    "maxReplicaMemoryGb",
    "numReplicas",
    "minReplicas",
    "maxReplicas",
    "idleScaling",
    "idleTimeoutMinutes",
    "isReadonly",
    "dataWarehouseId",
    "encryptionKey",
    "encryptionAssumedRoleIdentifier",
    "privateEndpointIds",
    "releaseChannel",
    "byocId",
    "hasTransparentDataEncryption",
    "profile",
    "complianceType",
    "tags",
    "enableCoreDumps",
];

/// `POST .../services` (`instanceCreate`): the new service starts `provisioning` and reaches
/// `running` after the fake's service transition time; the answer is `{service, password}`,
/// the default user's password shown this once (the fake keeps no copy to show again).
fn create_service(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let body: Map<String, Value> = call.body(crate::checks::services::create_service)?;
    let organization = call.organization;
    let (now, takes) = (call.state.now, call.state.service_transition_time);
    let id = call.state.sequence.uuid();
    let host = format!(
        "{}.{}.{}.example.invalid",
        &id.to_string()[..8],
        body["region"].as_str().unwrap_or_default(),
        body["provider"].as_str().unwrap_or_default()
    );
    let mut record = Map::new();
    record.insert("id".to_owned(), json!(id));
    for name in KEPT_ON_CREATE {
        if let Some(value) = body.get(*name).filter(|value| !value.is_null()) {
            record.insert((*name).to_owned(), value.clone());
        }
    }
    let mut endpoints = vec![
        json!({ "protocol": "https", "host": host, "port": 8443, "username": null }),
        json!({ "protocol": "nativesecure", "host": host, "port": 9440, "username": null }),
    ];
    let mysql = body.get("endpoints").and_then(Value::as_array).into_iter().flatten();
    if mysql.into_iter().any(|change| change["protocol"] == "mysql" && change["enabled"] == true) {
        endpoints.push(json!({ "protocol": "mysql", "host": host, "port": 3306, "username": null }));
    }
    record.insert("endpoints".to_owned(), Value::Array(endpoints));
    record.insert("createdAt".to_owned(), date_time(now));
    let mut stored = StoredService::new(record);
    stored.begin("provisioning", "running", now, takes);
    let service = Value::Object(stored.record.clone());
    let password = call.state.sequence.text(24, KEY_SECRET_ALPHABET);
    stored.password_hash = Some(crate::state::sha256_base64(&password));
    let org = call.state.organizations.get_mut(&organization).ok_or_else(|| Refusal::not_found(organization))?;
    org.services.insert(pipe_api_types::ServiceId::from_uuid(id), stored);
    Ok(reply::management_ok(call.request_id, &json!({ "service": service, "password": password })))
}

/// `PATCH /v1/organizations/{org}` (`organizationUpdate`, admin keys only: `permissions.rs`):
/// `name` and `enableCoreDumps` as sent; `privateEndpoints` removes by id, then adds.
fn update(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let body: Map<String, Value> = call.body(crate::checks::organizations::update_organization)?;
    let organization = call.organization;
    let mut current = record(call.state, organization);
    for name in ["name", "enableCoreDumps"] {
        if let Some(value) = body.get(name).filter(|value| !value.is_null()) {
            current[name] = value.clone();
        }
    }
    if let Some(patch) = body.get("privateEndpoints") {
        let mut endpoints = current["privateEndpoints"].as_array().cloned().unwrap_or_default();
        for removed in patch["remove"].as_array().into_iter().flatten() {
            endpoints.retain(|endpoint| endpoint["id"] != removed["id"]);
        }
        for added in patch["add"].as_array().into_iter().flatten() {
            endpoints.retain(|endpoint| endpoint["id"] != added["id"]);
            endpoints.push(added.clone());
        }
        current["privateEndpoints"] = Value::Array(endpoints);
    }
    let org = call.state.organizations.get_mut(&organization).ok_or_else(|| Refusal::not_found(organization))?;
    if let Value::Object(fields) = &current {
        org.record = fields.clone();
    }
    Ok(reply::management_ok(call.request_id, &current))
}
