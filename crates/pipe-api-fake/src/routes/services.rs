//! `/v1/organizations/{organizationId}/services/{serviceId}`: get, update, delete, and the
//! lifecycle commands of `.../state`, driven by the fake's clock.

use pipe_api_proto::{
    DeleteService, GetService, UpdateService, UpdateServicePassword, UpdateServiceReplicaScaling, UpdateServiceState,
};
use pipe_api_types::ServiceId;
use serde_json::{Value, json};

use super::{Call, Served};
use crate::permissions::Resource::Services;
use crate::reply::{self, Answer, Refusal};
use crate::state::StoredService;

/// The rows answered here.
pub(super) const HANDLERS: &[Served] = &[
    (GetService::OPERATION, Services, |call, path| get(call, path.id("service_id")?)),
    (UpdateService::OPERATION, Services, |call, path| update(call, path.id("service_id")?)),
    (DeleteService::OPERATION, Services, |call, path| delete(call, path.id("service_id")?)),
    (UpdateServiceState::OPERATION, Services, |call, path| change_state(call, path.id("service_id")?)),
    (UpdateServiceReplicaScaling::OPERATION, Services, |call, path| scale(call, path.id("service_id")?)),
    (UpdateServicePassword::OPERATION, Services, |call, path| set_password(call, path.id("service_id")?)),
];

fn found<'c>(call: &'c mut Call<'_>, service: ServiceId) -> Result<&'c mut StoredService, Refusal> {
    call.state.service_mut(call.organization, service).ok_or_else(|| Refusal::not_found(service))
}

fn get(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    // Reading the service itself works in any state; only pipe calls need it running.
    let request_id = call.request_id;
    let stored = found(call, service)?;
    Ok(reply::management_ok(request_id, &stored.record))
}

/// What identifies an element of a list patch.
type Identity = fn(&Value) -> Value;

/// Applies a `ServicePatchRequest` by the wire names written here, to the service's record.
fn update(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::services::update_service)?;
    let request_id = call.request_id;
    let stored = found(call, service)?;
    let mut json = Value::Object(std::mem::take(&mut stored.record));
    for name in ["name", "releaseChannel", "transparentDataEncryptionKeyId", "enableCoreDumps"] {
        if let Some(value) = body.get(name).filter(|value| !value.is_null()) {
            json[name] = value.clone();
        }
    }
    // Each list patch removes first, then adds (the contract); an IP entry is matched by
    // source, a tag by key, a private endpoint by id.
    let patches: [(&str, Identity); 3] = [
        ("ipAccessList", |entry| entry["source"].clone()),
        ("tags", |tag| tag["key"].clone()),
        ("privateEndpointIds", Value::clone),
    ];
    for (name, identity) in patches {
        let Some(patch) = body.get(name) else { continue };
        let mut list = json[name].as_array().cloned().unwrap_or_default();
        for removed in patch["remove"].as_array().into_iter().flatten() {
            list.retain(|item| identity(item) != identity(removed));
        }
        for added in patch["add"].as_array().into_iter().flatten() {
            list.retain(|item| identity(item) != identity(added));
            list.push(added.clone());
        }
        json[name] = Value::Array(list);
    }
    for change in body["endpoints"].as_array().into_iter().flatten() {
        // Only the MySQL endpoint can be turned on or off; it shares the HTTPS endpoint's host.
        let mut endpoints = json["endpoints"].as_array().cloned().unwrap_or_default();
        endpoints.retain(|endpoint| endpoint["protocol"] != "mysql");
        if change["enabled"] == true {
            let host = endpoints.iter().find_map(|endpoint| endpoint["host"].as_str()).unwrap_or_default().to_owned();
            endpoints.push(json!({ "protocol": "mysql", "host": host, "port": 3306, "username": null }));
        }
        json["endpoints"] = Value::Array(endpoints);
    }
    if let Value::Object(record) = json {
        stored.record = record;
    }
    Ok(reply::management_ok(request_id, &stored.record))
}

/// `DELETE` (the service notes): accepted only for a `stopped` service, which is then
/// `terminating` for the fake's transition time, then gone (404). Any other state is refused
/// with a 400 naming it, as the state commands refuse what their state does not allow.
fn delete(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let (now, takes, request_id) = (call.state.now, call.state.service_transition_time, call.request_id);
    let stored = found(call, service)?;
    match stored.state() {
        "stopped" => stored.begin("terminating", crate::state::TERMINATED, now, takes),
        state => {
            let why = format!("cannot delete the service: it must be stopped first. Current state: {state}");
            return Err(Refusal::bad_request(why));
        }
    }
    Ok(reply::management_ok_empty(request_id))
}

/// `start`, `stop`, `awake`: the service passes through `starting`, `stopping` or `awaking`
/// for the fake's transition time, then settles in `running` or `stopped`. A command that
/// asks for what is already so changes nothing; one against a transition under way is a 409;
/// a stopped service is started, not woken.
fn change_state(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::services::service_state)?;
    let (now, takes, request_id) = (call.state.now, call.state.service_transition_time, call.request_id);
    let stored = found(call, service)?;
    let command = body["command"].as_str().unwrap_or_default();
    let state = stored.state().to_owned();
    let refused =
        |why: &str| Err(Refusal::bad_request(format!("cannot {command} the service: {why}. Current state: {state}")));
    // The service states of the notes ("Service `state` values").
    match (command, state.as_str()) {
        ("start", "running" | "starting") | ("awake", "running" | "awaking") | ("stop", "stopped" | "stopping") => {}
        (_, "starting" | "stopping" | "awaking") => {
            return Err(Refusal::conflict(format!("a state transition is in progress. Current state: {state}")));
        }
        ("start", "stopped" | "idle") => stored.begin("starting", "running", now, takes),
        ("awake", "idle") => stored.begin("awaking", "running", now, takes),
        ("awake", "stopped") => return refused("a stopped service is started, not woken"),
        ("stop", "running" | "idle") => stored.begin("stopping", "stopped", now, takes),
        _ => return refused("not from this state"),
    }
    Ok(reply::management_ok(request_id, &stored.record))
}

/// `PATCH .../replicaScaling` (`instanceReplicaScalingUpdate`): the change is applied
/// asynchronously, after the fake's service transition time (a second change before then joins
/// the first and restarts its time); the answer is the service as it is, with the scaling in
/// effect (`currentScaling`), which a read shows changed once the change is applied.
fn scale(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: crate::state::Record = call.body(crate::checks::services::replica_scaling)?;
    let (now, takes, request_id) = (call.state.now, call.state.service_transition_time, call.request_id);
    let stored = found(call, service)?;
    let mut change = stored.scaling_change.take().map(|(change, _)| change).unwrap_or_default();
    change.extend(body.into_iter().filter(|(_, value)| !value.is_null()));
    stored.scaling_change = Some((change, now + takes));
    let current = crate::state::current_scaling(&stored.record);
    stored.record.insert("currentScaling".to_owned(), current);
    Ok(reply::management_ok(request_id, &stored.record))
}

/// `PATCH .../password` (`instancePasswordUpdate`): with `newPasswordHash` the hashes are kept
/// and nothing secret is answered (`{}`); without, a password is generated and answered this
/// once (the fake keeps only its hash).
fn set_password(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: crate::state::Record = call.body(crate::checks::services::service_password)?;
    let hash = body.get("newPasswordHash").and_then(Value::as_str).map(str::to_owned);
    let (answer, hash) = match hash {
        Some(hash) => (json!({}), hash),
        None => {
            let password = call.state.sequence.text(24, crate::state::KEY_SECRET_ALPHABET);
            let hash = crate::state::sha256_base64(&password);
            (json!({ "password": password }), hash)
        }
    };
    let request_id = call.request_id;
    let stored = found(call, service)?;
    stored.password_hash = Some(hash);
    Ok(reply::management_ok(request_id, &answer))
}
