//! `.../services/{serviceId}/pipes`: list, get, create, update, delete and state changes, and
//! the life a created pipe lives on the fake's clock.
//!
//! A pipe's lifecycle is a plan: the states it still moves through on its own, each with the
//! time it is due ([`State::pipe_plans`]). Every pipe call first settles the plans against the
//! clock, so a test moves a pipe along with `Fake::advance` (or `advance_per_request`) and never
//! sleeps. Each step takes `State::pipe_transition_time`:
//!
//! * create: `Provisioning`, then `Running` (streaming pipes); `Setup`, `Snapshot`, `Running`
//!   (CDC); `Setup`, `Running` (`cdc_only`); `Setup`, `Snapshot`, `Completed` (`snapshot`);
//! * stop, from any state but `Completed`: `Stopping` then `Stopped`, or for a database pipe
//!   `Pausing` then `Paused`;
//! * start, from `Stopped`, `Paused` or `Failed`: `Provisioning` then `Running` (`Snapshot`
//!   then `Completed` for a snapshot-only pipe);
//! * resync, database pipes only, from any state: `Resync`, `Snapshot`, then `Running` (or
//!   `Completed`).

use http::Method;
use pipe_api_types::{CreatePipeRequest, Pipe, PipeId, PipeSource, PipeState, ReplicationMode, ServiceId};
use serde_json::{Map, Value};

use super::{Call, Routed};
use crate::reply::{self, Answer, Refusal};
use crate::state::State;

/// `.../services/{serviceId}/pipes` and below, and `.../pipesCdcScaling` (`rest` starts with
/// either name).
pub(super) fn route(call: &mut Call<'_>, method: &Method, service: ServiceId, rest: &[&str]) -> Routed {
    settle(call.state);
    let pipe_id = |pipe: &str| super::parse_id::<PipeId>(pipe, "pipe");
    Some(match (method, rest) {
        (&Method::GET, ["pipes"]) => list(call, service),
        (&Method::POST, ["pipes"]) => create(call, service),
        (&Method::GET, ["pipes", pipe]) => pipe_id(pipe).and_then(|pipe| get(call, service, pipe)),
        (&Method::PATCH, ["pipes", pipe]) => pipe_id(pipe).and_then(|pipe| update(call, service, pipe)),
        (&Method::DELETE, ["pipes", pipe]) => pipe_id(pipe).and_then(|pipe| delete(call, service, pipe)),
        (&Method::PATCH, ["pipes", pipe, "state"]) => pipe_id(pipe).and_then(|pipe| change_state(call, service, pipe)),
        _ => return super::pipe_settings::route(call, method, service, rest),
    })
}

fn list(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    Ok(reply::management_ok(request_id, &stored.pipes))
}

fn get(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let found = stored_pipe(call, service, pipe)?;
    Ok(reply::management_ok(request_id, found))
}

/// The pipe of a running service, or the service's refusal, or `404 NOT_FOUND: <pipe id>`.
fn stored_pipe<'c>(call: &'c mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<&'c mut Pipe, Refusal> {
    let stored = call.running_service(service)?;
    stored.pipes.iter_mut().find(|p| p.id == pipe).ok_or_else(|| Refusal::not_found(pipe))
}

fn create(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let request: CreatePipeRequest = call.body(crate::checks::create_pipe)?;
    call.running_service(service)?;
    let now = call.state.now;
    let mut pipe = Pipe::new(PipeId::from_uuid(call.state.sequence.uuid()));
    pipe.service_id = Some(service);
    pipe.name = request.name;
    pipe.state = Some(PipeState::Provisioning);
    pipe.scaling = request.scaling;
    pipe.source = request.source.map(without_credentials);
    pipe.destination = request.destination;
    pipe.field_mappings = request.field_mappings;
    pipe.settings = request.settings;
    pipe.created_at = Some(now);
    pipe.updated_at = Some(now);
    let plan = match Flow::of(&pipe) {
        Flow::Streaming => vec![PipeState::Running],
        Flow::Cdc => vec![PipeState::Setup, PipeState::Snapshot, PipeState::Running],
        Flow::CdcOnly => vec![PipeState::Setup, PipeState::Running],
        Flow::SnapshotOnly => vec![PipeState::Setup, PipeState::Snapshot, PipeState::Completed],
    };
    schedule(call.state, pipe.id, plan);

    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    stored.pipes.push(pipe);
    Ok(reply::management_ok(request_id, stored.pipes.last().expect("just pushed")))
}

fn delete(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let stored = call.running_service(service)?;
    let before = stored.pipes.len();
    stored.pipes.retain(|p| p.id != pipe);
    if stored.pipes.len() == before {
        return Err(Refusal::not_found(pipe));
    }
    call.state.pipe_plans.remove(&pipe);
    Ok(reply::management_ok_empty(call.request_id))
}

/// `PATCH .../pipes/{pipeId}/state` with `{"command": "start" | "stop" | "resync"}`.
fn change_state(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::change_pipe_state)?;
    let command = body["command"].as_str().unwrap_or_default().to_owned();
    let now = call.state.now;
    let request_id = call.request_id;
    let found = stored_pipe(call, service, pipe)?;
    let flow = Flow::of(found);
    let current = found.state.clone().unwrap_or(PipeState::Unknown);
    let (at_once, plan) = match command.as_str() {
        "stop" => match current {
            PipeState::Completed => return Err(Refusal::bad_request("a completed pipe can only be resynced")),
            // Already at rest: nothing to do.
            PipeState::Stopped | PipeState::Paused => (current, Vec::new()),
            _ if flow.is_database() => (PipeState::Pausing, vec![PipeState::Paused]),
            _ => (PipeState::Stopping, vec![PipeState::Stopped]),
        },
        "start" => match current {
            PipeState::Stopped | PipeState::Paused | PipeState::Failed => match flow {
                Flow::SnapshotOnly => (PipeState::Provisioning, vec![PipeState::Snapshot, PipeState::Completed]),
                _ => (PipeState::Provisioning, vec![PipeState::Running]),
            },
            PipeState::Running | PipeState::Degraded => return Err(Refusal::bad_request("pipe is already running")),
            PipeState::Completed => return Err(Refusal::bad_request("a completed pipe can only be resynced")),
            _ => return Err(Refusal::conflict(format!("pipe is {current}: a state transition is in progress"))),
        },
        // The checks let nothing else through; resync is the only command left.
        _ => match flow {
            Flow::SnapshotOnly => (PipeState::Resync, vec![PipeState::Snapshot, PipeState::Completed]),
            Flow::Cdc | Flow::CdcOnly => (PipeState::Resync, vec![PipeState::Snapshot, PipeState::Running]),
            Flow::Streaming => return Err(Refusal::bad_request("resync is only supported for database pipes")),
        },
    };
    if found.state.as_ref() != Some(&at_once) {
        found.state = Some(at_once);
        found.updated_at = Some(now);
    }
    let answer = reply::management_ok(request_id, found);
    schedule(call.state, pipe, plan);
    Ok(answer)
}

/// `PATCH .../pipes/{pipeId}` (`PipePatchRequest`): applied to the pipe as JSON, with the wire
/// names written here, so a client model with a wrong name changes nothing and a test notices.
fn update(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let patch: Value = call.body(crate::checks::update_pipe)?;
    let now = call.state.now;
    let request_id = call.request_id;
    let found = stored_pipe(call, service, pipe)?;
    let mut json = serde_json::to_value(&*found).expect("a stored pipe serializes");
    let root = json.as_object_mut().expect("a pipe is an object");

    if let Some(name) = patch.get("name").filter(|v| !v.is_null()) {
        root.insert("name".to_owned(), name.clone());
    }
    if let Some(source) = patch.get("source").and_then(Value::as_object) {
        patch_source(root, source, found.state.as_ref())?;
    }
    if let Some(columns) = patch.get("destination").and_then(|d| d.get("columns")).filter(|v| !v.is_null()) {
        member(root, "destination").insert("columns".to_owned(), columns.clone());
    }
    if let Some(mappings) = patch.get("fieldMappings").filter(|v| !v.is_null()) {
        root.insert("fieldMappings".to_owned(), mappings.clone());
    }
    if let Some(settings) = patch.get("settings").and_then(Value::as_object) {
        merge(member(root, "settings"), settings, &[]);
    }
    *found = serde_json::from_value(json).map_err(|e| Refusal::bad_request(format!("invalid request: {e}")))?;
    found.updated_at = Some(now);
    Ok(reply::management_ok(request_id, found))
}

/// What an update changes in each source kind, after `PipePatch*Source`. Credentials
/// (`credentials`, `accessKey`, `connectionString`, `serviceAccountKey`) are accepted but never
/// kept where an answer would echo them.
const PATCHABLE: &[(&str, &[&str])] = &[
    ("kafka", &["authentication", "iamRole", "caCertificate", "reversePrivateEndpointIds"]),
    ("objectStorage", &["skipInitialLoad", "startAfter", "authentication", "iamRole", "path", "azureContainerName"]),
    ("kinesis", &["authentication", "iamRole"]),
    ("postgres", &["host", "port", "database", "tlsHost", "caCertificate", "disableTls", "skipCertVerification"]),
];

/// Applies `source` (a `PipePatchSource`) to the pipe's JSON: only the kind the pipe has.
fn patch_source(
    pipe: &mut Map<String, Value>,
    source: &Map<String, Value>,
    state: Option<&PipeState>,
) -> Result<(), Refusal> {
    for (kind, patch) in source.iter().filter(|(_, v)| v.is_object()) {
        let Some((_, fields)) = PATCHABLE.iter().find(|(name, ..)| name == kind) else { continue };
        if !pipe.get("source").and_then(|s| s.get(kind)).is_some_and(Value::is_object) {
            return Err(Refusal::bad_request(format!("source.{kind}: the pipe has no {kind} source")));
        }
        let patch = patch.as_object().expect("filtered on objects");
        let target = member(member(pipe, "source"), kind);
        merge(target, patch, fields);
        if *kind == "postgres" {
            patch_tables(target, patch, state)?;
        }
    }
    Ok(())
}

/// A database pipe's settings, and its tables, which change only while it is paused.
fn patch_tables(
    postgres: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    state: Option<&PipeState>,
) -> Result<(), Refusal> {
    if let Some(settings) = patch.get("settings").and_then(Value::as_object) {
        merge(member(postgres, "settings"), settings, &["syncIntervalSeconds", "pullBatchSize"]);
    }
    let listed = |name: &str| patch.get(name).and_then(Value::as_array).cloned().unwrap_or_default();
    let (added, removed) = (listed("tableMappingsToAdd"), listed("tableMappingsToRemove"));
    if added.is_empty() && removed.is_empty() {
        return Ok(());
    }
    if !matches!(state, Some(PipeState::Paused | PipeState::Stopped | PipeState::Failed)) {
        return Err(Refusal::bad_request("pipe must be paused to edit table mappings"));
    }
    let names = |m: &Value| ["sourceSchemaName", "sourceTable", "targetTable"].map(|k| m.get(k).cloned());
    let tables = postgres.entry("tableMappings").or_insert_with(|| Value::Array(Vec::new()));
    if let Some(tables) = tables.as_array_mut() {
        tables.retain(|t| !removed.iter().any(|r| names(r) == names(t)));
        tables.extend(added);
    }
    Ok(())
}

/// Copies `patch`'s members named in `fields` (all, when `fields` is empty) into `target`; a
/// `null` changes nothing.
fn merge(target: &mut Map<String, Value>, patch: &Map<String, Value>, fields: &[&str]) {
    for (name, value) in patch {
        if !value.is_null() && (fields.is_empty() || fields.contains(&name.as_str())) {
            target.insert(name.clone(), value.clone());
        }
    }
}

/// The object member `name` of `object`, made an object if it is absent or not one.
fn member<'j>(object: &'j mut Map<String, Value>, name: &str) -> &'j mut Map<String, Value> {
    let slot = object.entry(name).or_insert_with(|| Value::Object(Map::new()));
    if !slot.is_object() {
        *slot = Value::Object(Map::new());
    }
    slot.as_object_mut().expect("just made an object")
}

/// How a pipe moves: streaming (Kafka, Kinesis, object storage) or a database pipe in one of
/// its replication modes.
#[derive(Clone, Copy)]
enum Flow {
    Streaming,
    Cdc,
    CdcOnly,
    SnapshotOnly,
}

impl Flow {
    fn of(pipe: &Pipe) -> Flow {
        let Some(postgres) = pipe.source.as_ref().and_then(|s| s.postgres.as_ref()) else {
            return Flow::Streaming;
        };
        match postgres.settings.as_ref().and_then(|s| s.replication_mode.as_ref()) {
            Some(ReplicationMode::Snapshot) => Flow::SnapshotOnly,
            Some(ReplicationMode::CdcOnly) => Flow::CdcOnly,
            _ => Flow::Cdc,
        }
    }

    fn is_database(self) -> bool {
        !matches!(self, Flow::Streaming)
    }
}

/// Plans `states` for `pipe`, one every transition time from now, replacing what was planned.
fn schedule(state: &mut State, pipe: PipeId, states: Vec<PipeState>) {
    if states.is_empty() {
        state.pipe_plans.remove(&pipe);
        return;
    }
    let (now, step) = (state.now, state.pipe_transition_time);
    let plan = states.into_iter().zip(1u32..).map(|(next, n)| (now + step * n, next)).collect();
    state.pipe_plans.insert(pipe, plan);
}

/// Moves every planned pipe to the last state due by now, stamping `updatedAt` with the time
/// it was due.
pub(crate) fn settle(state: &mut State) {
    if state.pipe_plans.is_empty() {
        return;
    }
    let State { now, organizations, pipe_plans, .. } = state;
    let now = *now;
    let pipes = organizations.values_mut().flat_map(|o| o.services.values_mut()).flat_map(|s| s.pipes.iter_mut());
    for pipe in pipes {
        let Some(plan) = pipe_plans.get_mut(&pipe.id) else { continue };
        let due = plan.iter().take_while(|(at, _)| *at <= now).count();
        if let Some((at, next)) = plan.drain(..due).next_back() {
            pipe.state = Some(next);
            pipe.updated_at = Some(at);
        }
        if plan.is_empty() {
            pipe_plans.remove(&pipe.id);
        }
    }
}

/// Forgets what was planned for `pipe`, so a state a test sets stays.
pub(crate) fn unplan(state: &mut State, pipe: PipeId) {
    state.pipe_plans.remove(&pipe);
}

/// Credentials are never echoed back in responses.
fn without_credentials(mut source: PipeSource) -> PipeSource {
    if let Some(kafka) = source.kafka.as_mut() {
        kafka.credentials = None;
        if let Some(registry) = kafka.schema_registry.as_mut() {
            registry.credentials = None;
        }
    }
    if let Some(storage) = source.object_storage.as_mut() {
        storage.access_key = None;
        storage.connection_string = None;
        storage.service_account_key = None;
    }
    if let Some(kinesis) = source.kinesis.as_mut() {
        kinesis.access_key = None;
    }
    if let Some(postgres) = source.postgres.as_mut() {
        postgres.credentials = None;
    }
    source
}
