//! Tuning pipes: `PATCH .../pipes/{pipeId}/scaling`, `GET|PUT .../pipes/{pipeId}/settings`,
//! `POST .../pipes/schemaDiscovery`, and `GET|PATCH .../pipesCdcScaling`.
//!
//! Stored pipes are records in the wire names written here, so a wrong name in a client model
//! shows as a missing value, not as a change the fake agreed with.

use pipe_api_proto::{
    DiscoverPipeSchema, GetPipeSettings, GetPipesCdcScaling, UpdatePipeScaling, UpdatePipeSettings,
    UpdatePipesCdcScaling,
};
use pipe_api_types::{PipeId, ServiceId};
use serde_json::{Map, Value, json};

use super::{Call, Served};
use crate::checks;
use crate::permissions::Resource::Pipes;
use crate::reply::{self, Answer, Refusal};
use crate::state::{Record, date_time, text};

/// The rows answered here.
pub(super) const HANDLERS: &[Served] = &[
    (DiscoverPipeSchema::OPERATION, Pipes, |call, path| discover_schema(call, path.id("service_id")?)),
    (UpdatePipeScaling::OPERATION, Pipes, |call, path| scale(call, path.id("service_id")?, path.id("pipe_id")?)),
    (GetPipeSettings::OPERATION, Pipes, |call, path| settings(call, path.id("service_id")?, path.id("pipe_id")?)),
    (UpdatePipeSettings::OPERATION, Pipes, |call, path| {
        replace_settings(call, path.id("service_id")?, path.id("pipe_id")?)
    }),
    (GetPipesCdcScaling::OPERATION, Pipes, |call, path| cdc_scaling(call, path.id("service_id")?, None)),
    (UpdatePipesCdcScaling::OPERATION, Pipes, |call, path| {
        let service = path.id("service_id")?;
        call.body(checks::pipe_settings::cdc_scaling).and_then(|patch| cdc_scaling(call, service, Some(patch)))
    }),
];

/// Database (CDC) pipes ([`checks::pipes::DATABASE_KINDS`]) scale together and have no ingestion
/// settings (management OpenAPI, `pipeCdcScalingGet`).
fn is_database(pipe: &Record) -> bool {
    let source = pipe.get("source").and_then(Value::as_object);
    source.is_some_and(|source| checks::pipes::DATABASE_KINDS.iter().any(|kind| source.contains_key(*kind)))
}

/// Database pipes have no ingestion settings: the service answers as if there were none
/// (observed: `NOT_FOUND: ingestion for pipe "<id>" not found`).
fn no_ingestion(id: PipeId) -> Refusal {
    Refusal::Error { status: 404, code: "NOT_FOUND", text: format!("ingestion for pipe \"{id}\" not found") }
}

fn scale(call: &mut Call<'_>, service: ServiceId, id: PipeId) -> Result<Answer, Refusal> {
    let patch: Map<String, Value> = call.body(checks::pipe_settings::scale_pipe)?;
    let (now, request_id) = (date_time(call.state.now), call.request_id);
    let pipe = call.stored_pipe(service, id)?;
    if is_database(pipe) {
        return Err(Refusal::bad_request(
            "database pipes are scaled together for the service: use PATCH .../pipesCdcScaling",
        ));
    }
    let scaling = pipe.entry("scaling").or_insert_with(|| json!({}));
    if let Value::Object(scaling) = scaling {
        // `null` returns a member to its default (`PipeScalingPatchRequest`: each member
        // `["integer", "null"]`): the pipe is read without it.
        for (name, value) in patch {
            if value.is_null() {
                scaling.remove(&name);
            } else {
                scaling.insert(name, value);
            }
        }
    }
    pipe.insert("updatedAt".to_owned(), now);
    Ok(reply::management_ok(request_id, pipe))
}

fn settings(call: &mut Call<'_>, service: ServiceId, id: PipeId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let pipe = call.stored_pipe(service, id)?;
    if is_database(pipe) {
        return Err(no_ingestion(id));
    }
    Ok(reply::management_ok(request_id, pipe.get("settings").unwrap_or(&json!({}))))
}

fn replace_settings(call: &mut Call<'_>, service: ServiceId, id: PipeId) -> Result<Answer, Refusal> {
    let settings: Map<String, Value> = call.body(checks::pipe_settings::pipe_settings)?;
    let (now, request_id) = (date_time(call.state.now), call.request_id);
    let pipe = call.stored_pipe(service, id)?;
    if is_database(pipe) {
        return Err(no_ingestion(id));
    }
    // A full replace: the whole object as sent, fields the fake does not know included; a
    // `null` setting is one returned to its default, and is read without it.
    let settings: Map<String, Value> = settings.into_iter().filter(|(_, value)| !value.is_null()).collect();
    pipe.insert("settings".to_owned(), Value::Object(settings.clone()));
    pipe.insert("updatedAt".to_owned(), now);
    Ok(reply::management_ok(request_id, &settings))
}

/// `GET` (no patch) or `PATCH` the service's CDC scaling, which exists once a database pipe
/// left `Provisioning` (the contract: "available once at least one database Pipe was
/// provisioned"); before, a `404` naming what is missing. It starts at the contract's example,
/// 2 cores and 8 GiB.
fn cdc_scaling(call: &mut Call<'_>, service: ServiceId, patch: Option<Map<String, Value>>) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    if stored.cdc_scaling.is_none() {
        let provisioned = stored.pipes.iter().any(|pipe| {
            let state = text(pipe, "state");
            is_database(pipe) && !matches!(state, None | Some("Provisioning"))
        });
        if provisioned {
            let initial = json!({ "replicaCpuMillicores": 2000, "replicaMemoryGb": 8 });
            stored.cdc_scaling = initial.as_object().cloned();
        }
    }
    let Some(scaling) = stored.cdc_scaling.as_mut() else {
        return Err(Refusal::Error {
            status: 404,
            code: "NOT_FOUND",
            text: format!("CDC scaling of service {service}: no database pipe was provisioned"),
        });
    };
    if let Some(patch) = patch {
        let mut next = scaling.clone();
        next.extend(patch.into_iter().filter(|(_, value)| !value.is_null()));
        checks::pipe_settings::cdc_memory_per_core(&next)
            .map_err(|problem| Refusal::bad_request(format!("invalid request: {}", problem.0)))?;
        *scaling = next;
    }
    Ok(reply::management_ok(request_id, scaling))
}

/// Infers a plausible schema from the request: the fields a sample of the source would show in
/// its format (JSON gives only JSON's types, Avro and Protobuf their declared ones), and what
/// was read (topic or stream) in `meta`.
fn discover_schema(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let body: Value = call.body(checks::pipes::schema_discovery)?;
    let request_id = call.request_id;
    call.running_service(service)?;
    let source = &body["source"];
    let (kind, spec) = match source.get("kafka") {
        Some(kafka) => ("kafka", kafka),
        None => ("kinesis", &source["kinesis"]),
    };
    let format = spec["format"].as_str().unwrap_or_default();
    let fields = match format {
        "JSONEachRow" => json!([
            { "name": "id", "type": "Int64", "optional": false },
            { "name": "event", "type": "String", "optional": false },
            { "name": "amount", "type": "Float64", "optional": true },
            { "name": "at", "type": "String", "optional": false },
        ]),
        "Protobuf" => json!([
            { "name": "id", "type": "UInt64", "optional": false },
            { "name": "event", "type": "String", "optional": false },
            { "name": "amount", "type": "Float32", "optional": false },
            { "name": "at", "type": "DateTime64(9)", "optional": false },
        ]),
        // Avro and AvroConfluent.
        _ => json!([
            { "name": "id", "type": "Int64", "optional": false },
            { "name": "event", "type": "String", "optional": false },
            { "name": "amount", "type": "Nullable(Float64)", "optional": true },
            { "name": "at", "type": "DateTime64(3)", "optional": false },
        ]),
    };
    let mut meta = Map::new();
    meta.insert("format".to_owned(), json!(format));
    if kind == "kafka" {
        let topics = spec["topics"].as_str().unwrap_or_default();
        meta.insert("topic".to_owned(), json!(topics.split(',').next().unwrap_or_default().trim()));
        // A Confluent schema URL ends in the schema's id: `.../schemas/ids/100004`.
        let registry = spec["schemaRegistry"]["url"].as_str().unwrap_or_default();
        if let Some((_, id)) = registry.rsplit_once("/ids/") {
            meta.insert("schemaId".to_owned(), json!(id));
        }
    } else {
        meta.insert("streamName".to_owned(), spec["streamName"].clone());
        meta.insert("region".to_owned(), spec["region"].clone());
    }
    Ok(reply::management_ok(request_id, &json!({ "fields": fields, "meta": meta })))
}
