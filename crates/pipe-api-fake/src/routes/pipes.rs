//! `.../services/{serviceId}/pipes`: list, get, create, update, delete and state changes, and
//! the life a created pipe lives on the fake's clock.
//!
//! A pipe's lifecycle is a plan: the states it still moves through on its own, each with the
//! time it is due ([`State::pipe_plans`]). Every management call first settles the plans against
//! the clock, so a test moves a pipe along with `Fake::advance` (or `advance_per_request`) and never
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

use pipe_api_proto::{ChangePipeState, CreatePipe, DeletePipe, GetPipe, ListPipes, UpdatePipe};
use pipe_api_types::{PipeId, ServiceId};
use serde_json::{Map, Value, json};

use super::{Call, Served};
use crate::permissions::Resource::Pipes;
use crate::reply::{self, Answer, Refusal};
use crate::state::{Record, State, date_time, text};

/// The rows answered here.
pub(super) const HANDLERS: &[Served] = &[
    (ListPipes::OPERATION, Pipes, |call, path| list(call, path.id("service_id")?)),
    (CreatePipe::OPERATION, Pipes, |call, path| create(call, path.id("service_id")?)),
    (GetPipe::OPERATION, Pipes, |call, path| get(call, path.id("service_id")?, path.id("pipe_id")?)),
    (UpdatePipe::OPERATION, Pipes, |call, path| update(call, path.id("service_id")?, path.id("pipe_id")?)),
    (DeletePipe::OPERATION, Pipes, |call, path| delete(call, path.id("service_id")?, path.id("pipe_id")?)),
    (ChangePipeState::OPERATION, Pipes, |call, path| change_state(call, path.id("service_id")?, path.id("pipe_id")?)),
];

fn list(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    Ok(reply::management_ok(request_id, &stored.pipes))
}

fn get(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let found = call.stored_pipe(service, pipe)?;
    Ok(reply::management_ok(request_id, found))
}

/// The members of the contract's `Pipe` a create copies from its body (`PipePostRequest`);
/// the rest of a `Pipe` (`id`, `serviceId`, `state`, `createdAt`, `updatedAt`) is the server's.
const CREATED_FROM_BODY: &[&str] = &["name", "scaling", "source", "destination", "fieldMappings", "settings"];

/// What each source kind of a `Pipe` answers (`PipeKafkaSource`, `PipeObjectStorageSource`,
/// `PipeKinesisSource`, `PipePostgresSource`, `PipePubSubSource`, `PipeMySQLSource`,
/// `PipeMongoDBSource`, `PipeBigQuerySource`): its `PipePost*Source` less the credentials.
/// Anything else sent is not kept, as a server reading into its own schema drops it.
const SOURCE_FIELDS: &[(&str, &[&str])] = &[
    (
        "kafka",
        &[
            "type",
            "format",
            "brokers",
            "topics",
            "consumerGroup",
            "authentication",
            "iamRole",
            "offset",
            "schemaRegistry",
            "caCertificate",
            "reversePrivateEndpointIds",
            "exactlyOnce",
        ],
    ),
    (
        "objectStorage",
        &[
            "type",
            "format",
            "url",
            "delimiter",
            "compression",
            "isContinuous",
            "queueUrl",
            "skipInitialLoad",
            "startAfter",
            "authentication",
            "iamRole",
            "path",
            "azureContainerName",
        ],
    ),
    (
        "kinesis",
        &[
            "format",
            "streamName",
            "region",
            "useEnhancedFanOut",
            "iteratorType",
            "timestamp",
            "authentication",
            "iamRole",
        ],
    ),
    (
        "postgres",
        &[
            "type",
            "host",
            "port",
            "database",
            "authentication",
            "iamRole",
            "tlsHost",
            "caCertificate",
            "disableTls",
            "skipCertVerification",
            "settings",
            "tableMappings",
        ],
    ),
    (
        "pubsub",
        &[
            "format",
            "projectId",
            "topic",
            "authentication",
            "seekType",
            "seekTimestamp",
            "filter",
            "enableOrdering",
            "ackDeadline",
        ],
    ),
    (
        "mysql",
        &[
            "type",
            "host",
            "port",
            "authentication",
            "iamRole",
            "tlsHost",
            "caCertificate",
            "disableTls",
            "skipCertVerification",
            "serverId",
            "settings",
            "tableMappings",
        ],
    ),
    (
        "mongodb",
        &[
            "uri",
            "readPreference",
            "tlsHost",
            "disableTls",
            "skipCertVerification",
            "caCertificate",
            "settings",
            "tableMappings",
        ],
    ),
    ("bigquery", &["snapshotStagingPath", "settings", "tableMappings"]),
];

/// `PipeDestination`: `PipeMutateDestination` less `roles`, which a create uses and no answer shows.
const DESTINATION_FIELDS: &[&str] = &["database", "table", "managedTable", "tableDefinition", "columns"];

/// `PipeScaling`.
const SCALING_FIELDS: &[&str] = &["replicas", "concurrency", "replicaCpuMillicores", "replicaMemoryGb"];

/// `POST .../pipes`: the pipe's record is built here from the checked body, member by member
/// in the contract's names, with what the server owns added; credentials are never kept where
/// an answer would show them (service notes, "Credentials are never echoed back in responses").
fn create(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: Record = call.body(crate::checks::pipes::create_pipe)?;
    call.running_service(service)?;
    let now = date_time(call.state.now);
    let id = call.state.sequence.uuid().to_string();
    let mut pipe = Record::new();
    pipe.insert("id".to_owned(), json!(id));
    pipe.insert("serviceId".to_owned(), json!(service));
    for name in CREATED_FROM_BODY {
        let Some(value) = body.get(*name).filter(|value| !value.is_null()) else { continue };
        let kept = match (*name, value) {
            ("source", Value::Object(source)) => Value::Object(stored_source(source)),
            ("destination", Value::Object(destination)) => Value::Object(only(destination, DESTINATION_FIELDS)),
            ("scaling", Value::Object(scaling)) => Value::Object(only(scaling, SCALING_FIELDS)),
            _ => value.clone(),
        };
        pipe.insert((*name).to_owned(), kept);
    }
    pipe.insert("state".to_owned(), json!("Provisioning"));
    pipe.insert("createdAt".to_owned(), now.clone());
    pipe.insert("updatedAt".to_owned(), now);
    let plan = match Flow::of(&pipe) {
        Flow::Streaming => vec!["Running"],
        Flow::Cdc => vec!["Setup", "Snapshot", "Running"],
        Flow::CdcOnly => vec!["Setup", "Running"],
        Flow::SnapshotOnly => vec!["Setup", "Snapshot", "Completed"],
    };
    schedule(call.state, &id, plan);

    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    stored.pipes.push(pipe);
    Ok(reply::management_ok(request_id, stored.pipes.last().expect("just pushed")))
}

/// The members of `object` named in `fields`, `null`s left out.
fn only(object: &Map<String, Value>, fields: &[&str]) -> Map<String, Value> {
    let kept = object.iter().filter(|(name, value)| fields.contains(&name.as_str()) && !value.is_null());
    kept.map(|(name, value)| (name.clone(), value.clone())).collect()
}

/// A `PipePostSource` as the `PipeSource` the pipe keeps: the one kind sent, with the members
/// its answer has; `validateSamples` (a create option) and credentials are not kept.
fn stored_source(source: &Map<String, Value>) -> Map<String, Value> {
    let mut kept = Map::new();
    for (kind, fields) in SOURCE_FIELDS {
        if let Some(Value::Object(sent)) = source.get(*kind) {
            let mut members = only(sent, fields);
            // The schema registry's credentials (`PipeKafkaSchemaRegistryCredentials`) are
            // not in `PipeKafkaSchemaRegistry`.
            if let Some(Value::Object(registry)) = members.get_mut("schemaRegistry") {
                registry.remove("credentials");
            }
            kept.insert((*kind).to_owned(), Value::Object(members));
        }
    }
    kept
}

fn delete(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let id = pipe.to_string();
    let stored = call.running_service(service)?;
    let before = stored.pipes.len();
    stored.pipes.retain(|p| text(p, "id") != Some(id.as_str()));
    if stored.pipes.len() == before {
        return Err(Refusal::not_found(pipe));
    }
    call.state.pipe_plans.remove(&id);
    Ok(reply::management_ok_empty(call.request_id))
}

/// `PATCH .../pipes/{pipeId}/state` with `{"command": "start" | "stop" | "resync"}`, by the
/// pipe states of the notes (PascalCase; one the fake does not know is taken as `Unknown`).
fn change_state(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::pipes::change_pipe_state)?;
    let command = body["command"].as_str().unwrap_or_default().to_owned();
    let now = call.state.now;
    let request_id = call.request_id;
    let found = call.stored_pipe(service, pipe)?;
    let flow = Flow::of(found);
    let current = text(found, "state").unwrap_or("Unknown").to_owned();
    let (at_once, plan): (&str, Vec<&'static str>) = match command.as_str() {
        "stop" => match current.as_str() {
            "Completed" => return Err(Refusal::bad_request("a completed pipe can only be resynced")),
            // Already at rest: nothing to do.
            "Stopped" | "Paused" => (current.as_str(), Vec::new()),
            _ if flow.is_database() => ("Pausing", vec!["Paused"]),
            _ => ("Stopping", vec!["Stopped"]),
        },
        "start" => match current.as_str() {
            "Stopped" | "Paused" | "Failed" => match flow {
                Flow::SnapshotOnly => ("Provisioning", vec!["Snapshot", "Completed"]),
                _ => ("Provisioning", vec!["Running"]),
            },
            "Running" | "Degraded" => return Err(Refusal::bad_request("pipe is already running")),
            "Completed" => return Err(Refusal::bad_request("a completed pipe can only be resynced")),
            _ => return Err(Refusal::conflict(format!("pipe is {current}: a state transition is in progress"))),
        },
        // The checks let nothing else through; resync is the only command left.
        _ => match flow {
            Flow::SnapshotOnly => ("Resync", vec!["Snapshot", "Completed"]),
            Flow::Cdc | Flow::CdcOnly => ("Resync", vec!["Snapshot", "Running"]),
            Flow::Streaming => return Err(Refusal::bad_request("resync is only supported for database pipes")),
        },
    };
    if text(found, "state") != Some(at_once) {
        found.insert("state".to_owned(), json!(at_once));
        found.insert("updatedAt".to_owned(), date_time(now));
    }
    let answer = reply::management_ok(request_id, found);
    schedule(call.state, &pipe.to_string(), plan);
    Ok(answer)
}

/// `PATCH .../pipes/{pipeId}` (`PipePatchRequest`): applied to the pipe as JSON, with the wire
/// names written here, so a client model with a wrong name changes nothing and a test notices.
fn update(call: &mut Call<'_>, service: ServiceId, pipe: PipeId) -> Result<Answer, Refusal> {
    let patch: Value = call.body(crate::checks::pipes::update_pipe)?;
    let now = call.state.now;
    let request_id = call.request_id;
    let found = call.stored_pipe(service, pipe)?;
    // Changed on a copy, so a refused patch leaves the pipe as it was.
    let mut changed = found.clone();
    let root = &mut changed;
    let state = text(found, "state").map(str::to_owned);

    if let Some(name) = patch.get("name").filter(|v| !v.is_null()) {
        root.insert("name".to_owned(), name.clone());
    }
    if let Some(source) = patch.get("source").and_then(Value::as_object) {
        patch_source(root, source, state.as_deref())?;
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
    changed.insert("updatedAt".to_owned(), date_time(now));
    *found = changed;
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
    ("pubsub", &["authentication", "ackDeadline"]),
    (
        "mysql",
        &[
            "host",
            "port",
            "authentication",
            "iamRole",
            "tlsHost",
            "caCertificate",
            "disableTls",
            "skipCertVerification",
            "serverId",
        ],
    ),
    ("mongodb", &["uri", "readPreference", "tlsHost", "disableTls", "skipCertVerification", "caCertificate"]),
];

/// The settings an update changes in each database kind (`PipePatch*PipeSettings`).
const PATCHABLE_SETTINGS: &[(&str, &[&str])] = &[
    ("postgres", &["syncIntervalSeconds", "pullBatchSize"]),
    ("mysql", &["syncIntervalSeconds", "pullBatchSize", "useCompression"]),
    ("mongodb", &["syncIntervalSeconds", "pullBatchSize"]),
];

/// Applies `source` (a `PipePatchSource`) to the pipe's JSON: only the kind the pipe has.
fn patch_source(
    pipe: &mut Map<String, Value>,
    source: &Map<String, Value>,
    state: Option<&str>,
) -> Result<(), Refusal> {
    for (kind, patch) in source.iter().filter(|(_, v)| v.is_object()) {
        let Some((_, fields)) = PATCHABLE.iter().find(|(name, ..)| name == kind) else { continue };
        if !pipe.get("source").and_then(|s| s.get(kind)).is_some_and(Value::is_object) {
            return Err(Refusal::bad_request(format!("source.{kind}: the pipe has no {kind} source")));
        }
        let patch = patch.as_object().expect("filtered on objects");
        let target = member(member(pipe, "source"), kind);
        crate::checks::pipes::patched_authentication(kind, target.get("type"), patch)
            .map_err(|problem| Refusal::bad_request(format!("invalid request: {}", problem.0)))?;
        merge(target, patch, fields);
        if let Some((_, settings)) = PATCHABLE_SETTINGS.iter().find(|(name, _)| name == kind) {
            patch_tables(kind, target, patch, settings, state)?;
        }
    }
    Ok(())
}

/// A database pipe's settings, and its tables, which change only while it is paused.
fn patch_tables(
    kind: &str,
    database: &mut Map<String, Value>,
    patch: &Map<String, Value>,
    settings_fields: &[&str],
    state: Option<&str>,
) -> Result<(), Refusal> {
    if let Some(settings) = patch.get("settings").and_then(Value::as_object) {
        merge(member(database, "settings"), settings, settings_fields);
    }
    let listed = |name: &str| patch.get(name).and_then(Value::as_array).cloned().unwrap_or_default();
    let (added, removed) = (listed("tableMappingsToAdd"), listed("tableMappingsToRemove"));
    if added.is_empty() && removed.is_empty() {
        return Ok(());
    }
    if !matches!(state, Some("Paused" | "Stopped" | "Failed")) {
        return Err(Refusal::bad_request("pipe must be paused to edit table mappings"));
    }
    let Some((_, keys)) = crate::checks::pipes::TABLE_MAPPING_NAMES.iter().find(|(name, _)| *name == kind) else {
        return Ok(());
    };
    let names = |m: &Value| keys.map(|k| m.get(k).cloned());
    let tables = database.entry("tableMappings").or_insert_with(|| Value::Array(Vec::new()));
    if let Some(tables) = tables.as_array_mut() {
        tables.retain(|t| !removed.iter().any(|r| names(r) == names(t)));
        tables.extend(added);
    }
    Ok(())
}

/// What a `null` in a patch leaves as it is: how a pipe reaches and authenticates to its
/// source, which it cannot go without. (The contract lets them be `null` and does not say what
/// that does; the name, and the source, destination and settings objects, are kept too.)
const KEPT_ON_NULL: &[&str] = &["host", "port", "database", "uri", "readPreference", "authentication"];

/// Copies `patch`'s members named in `fields` (all, when `fields` is empty) into `target`; a
/// `null` clears the member (returns it to its default), but those in [`KEPT_ON_NULL`].
fn merge(target: &mut Map<String, Value>, patch: &Map<String, Value>, fields: &[&str]) {
    for (name, value) in patch {
        if !(fields.is_empty() || fields.contains(&name.as_str())) {
            continue;
        }
        match value {
            Value::Null if KEPT_ON_NULL.contains(&name.as_str()) => {}
            Value::Null => {
                target.remove(name);
            }
            _ => {
                target.insert(name.clone(), value.clone());
            }
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
    /// A pipe is a database pipe when its source is one of [`checks::pipes::DATABASE_KINDS`]; its
    /// `settings.replicationMode` (`cdc`, `snapshot`, `cdc_only`; `cdc` when absent, and
    /// always `snapshot` for BigQuery, which only snapshots) says which.
    ///
    /// [`checks::pipes::DATABASE_KINDS`]: crate::checks::pipes::DATABASE_KINDS
    fn of(pipe: &Record) -> Flow {
        let source = pipe.get("source");
        let Some((kind, database)) = crate::checks::pipes::DATABASE_KINDS
            .iter()
            .find_map(|kind| source.and_then(|source| source.get(*kind)).map(|database| (*kind, database)))
        else {
            return Flow::Streaming;
        };
        let mode = database.get("settings").and_then(|settings| settings.get("replicationMode"));
        match mode.and_then(Value::as_str) {
            _ if kind == "bigquery" => Flow::SnapshotOnly,
            Some("snapshot") => Flow::SnapshotOnly,
            Some("cdc_only") => Flow::CdcOnly,
            _ => Flow::Cdc,
        }
    }

    fn is_database(self) -> bool {
        !matches!(self, Flow::Streaming)
    }
}

/// Plans `states` for the pipe `id`, one every transition time from now, replacing what was
/// planned.
fn schedule(state: &mut State, id: &str, states: Vec<&'static str>) {
    if states.is_empty() {
        state.pipe_plans.remove(id);
        return;
    }
    let (now, step) = (state.now, state.pipe_transition_time);
    let plan = states.into_iter().zip(1u32..).map(|(next, n)| (now + step * n, next)).collect();
    state.pipe_plans.insert(id.to_owned(), plan);
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
        let Some(id) = text(pipe, "id").map(str::to_owned) else { continue };
        let Some(plan) = pipe_plans.get_mut(&id) else { continue };
        let due = plan.iter().take_while(|(at, _)| *at <= now).count();
        if let Some((at, next)) = plan.drain(..due).next_back() {
            pipe.insert("state".to_owned(), json!(next));
            pipe.insert("updatedAt".to_owned(), date_time(at));
        }
        if plan.is_empty() {
            pipe_plans.remove(&id);
        }
    }
}

/// Forgets what was planned for the pipe `id`, so a state a test sets stays.
pub(crate) fn unplan(state: &mut State, id: &str) {
    state.pipe_plans.remove(id);
}
