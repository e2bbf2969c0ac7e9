//! `GET|POST .../services/{serviceId}/pipes` and `GET .../pipes/{pipeId}`.

use http::Method;
use pipe_api_types::{CreatePipeRequest, Pipe, PipeId, PipeSource, PipeState, ServiceId};

use super::{Call, Routed};
use crate::reply::{self, Answer, Refusal};

/// `.../services/{serviceId}/pipes` and below, and `.../pipesCdcScaling` (`rest` starts with
/// either name).
pub(super) fn route(call: &mut Call<'_>, method: &Method, service: ServiceId, rest: &[&str]) -> Routed {
    Some(match (method, rest) {
        (&Method::GET, ["pipes"]) => list(call, service),
        (&Method::POST, ["pipes"]) => create(call, service),
        (&Method::GET, ["pipes", pipe]) => match super::parse_id(pipe, "pipe") {
            Ok(pipe) => get(call, service, pipe),
            Err(refusal) => Err(refusal),
        },
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
    let stored = call.running_service(service)?;
    let found = stored.pipes.iter().find(|p| p.id == pipe).ok_or_else(|| Refusal::not_found(pipe))?;
    Ok(reply::management_ok(request_id, found))
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

    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    stored.pipes.push(pipe);
    Ok(reply::management_ok(request_id, stored.pipes.last().expect("just pushed")))
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
