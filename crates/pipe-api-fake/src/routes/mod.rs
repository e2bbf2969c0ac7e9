//! Routing: which handler answers a request, after the checks every call shares (credentials,
//! organization, service). One file per resource family below.

mod alerts;
mod keys;
mod organizations;
mod pipe_settings;
mod pipes;
mod reverse_private_endpoints;
mod services;

use base64::Engine as _;
use http::{Request, header};
use pipe_api_types::{OrganizationId, ServiceId};
use serde::de::DeserializeOwned;

use crate::permissions;
use crate::reply::{self, Answer, Refusal};
use crate::state::{State, StoredService};

pub(crate) use alerts::alert_record;
pub(crate) use keys::insert_key;
pub(crate) use pipes::{settle as settle_pipes, unplan as unplan_pipe};

/// What a resource's `route` answers: `None` when the fake does not model the operation (the
/// caller then answers [`Refusal::not_modelled`]), otherwise the handler's answer.
pub(crate) type Routed = Option<Result<Answer, Refusal>>;

/// Answers any request the way the real services would.
pub(crate) fn route(state: &mut State, request: &Request<Vec<u8>>) -> Answer {
    let path = request.uri().path();
    if let Some(rest) = path.strip_prefix("/v1/") {
        let request_id = state.sequence.uuid().to_string();
        management(state, request, rest, &request_id).unwrap_or_else(|refusal| refusal.into_answer(&request_id))
    } else if let Some(rest) = path.strip_prefix("/api/v2/") {
        alerting(state, request, rest)
    } else {
        reply::with_body(404, "text/plain", b"Not Found".to_vec())
    }
}

/// One management call: who calls, on which organization, with which body.
pub(crate) struct Call<'a> {
    pub state: &'a mut State,
    pub organization: OrganizationId,
    /// The management id of the key making the call, as its record writes it (a key cannot
    /// delete itself).
    pub caller: String,
    pub request_id: &'a str,
    pub body: &'a [u8],
}

impl Call<'_> {
    /// Reads the body as JSON, applies the service's own checks (`check`, from
    /// [`crate::checks`]), then hands it over as JSON (a `Value`, or an object's members).
    pub fn body<T: DeserializeOwned>(
        &self,
        check: fn(&serde_json::Value) -> Result<(), crate::checks::Problem>,
    ) -> Result<T, Refusal> {
        let json: serde_json::Value = serde_json::from_slice(self.body)
            .map_err(|error| Refusal::bad_request(format!("invalid body: {}", error)))?;
        check(&json).map_err(|problem| Refusal::bad_request(format!("invalid request: {}", problem.0)))?;
        serde_path_to_error::deserialize(&json).map_err(|error| {
            let at = error.path().to_string();
            Refusal::bad_request(format!("invalid body at {at}: {}", error.into_inner()))
        })
    }

    /// The service, if it exists and is running; pipe calls on a service in any other state
    /// (idle, stopped, awaking, ...) fail as they really do.
    pub fn running_service(&mut self, service: ServiceId) -> Result<&mut StoredService, Refusal> {
        let stored = self.state.service_mut(self.organization, service).ok_or_else(|| Refusal::not_found(service))?;
        let state = stored.state();
        if state != crate::state::RUNNING {
            return Err(Refusal::failed_dependency(format!("Service is not running. Current state: {state}")));
        }
        Ok(stored)
    }

    /// The pipe of a running service, or the service's refusal, or `404 NOT_FOUND: <pipe id>`.
    pub fn stored_pipe(
        &mut self,
        service: ServiceId,
        pipe: pipe_api_types::PipeId,
    ) -> Result<&mut crate::state::Record, Refusal> {
        let stored = self.running_service(service)?;
        stored.pipe_mut(&pipe.to_string()).ok_or_else(|| Refusal::not_found(pipe))
    }
}

fn management(state: &mut State, request: &Request<Vec<u8>>, rest: &str, request_id: &str) -> Result<Answer, Refusal> {
    let (key_id, key_secret) = basic_credentials(request).ok_or(Refusal::Unauthorized)?;
    let (key_organization, stored) = state.key_for(&key_id, &key_secret).ok_or(Refusal::Unauthorized)?;
    if !stored.usable(state.now) {
        return Err(Refusal::Unauthorized);
    }
    let (caller, roles) = (stored.id().unwrap_or_default().to_owned(), stored.roles());

    let segments: Vec<String> = rest.split('/').map(|s| percent_decode(s).unwrap_or_else(|| s.to_owned())).collect();
    let segments: Vec<&str> = segments.iter().map(String::as_str).collect();
    let method = request.method();
    // Only what a row of the table names is served, and only to a role its grant allows.
    let row = permissions::row(method, &segments).ok_or_else(|| Refusal::not_modelled(method, request.uri().path()))?;
    if segments == ["organizations"] {
        if !permissions::may(&roles, row) {
            return Err(Refusal::forbidden("the key's roles do not allow this call"));
        }
        return Ok(organizations::list(state, key_organization, request_id));
    }
    let ["organizations", organization, tail @ ..] = segments.as_slice() else {
        return Err(Refusal::not_found(request.uri().path()));
    };
    let organization: OrganizationId = parse_id(organization, "organization")?;
    if !state.organizations.contains_key(&organization) {
        return Err(Refusal::not_found(organization));
    }
    if organization != key_organization {
        return Err(Refusal::forbidden(format!("the key has no access to organization {organization}")));
    }
    if !permissions::may(&roles, row) {
        return Err(Refusal::forbidden("the key's roles do not allow this call"));
    }
    let query = request.uri().query();
    let mut call = Call { state, organization, caller, request_id, body: request.body() };
    let answer = match tail {
        [] | ["services"] => organizations::route(&mut call, method, tail, query),
        ["keys", rest @ ..] => keys::route(&mut call, method, rest),
        ["services", service, rest @ ..] => {
            let service = parse_id(service, "service")?;
            match rest {
                ["pipes" | "pipesCdcScaling", ..] => pipes::route(&mut call, method, service, rest),
                ["pipesReversePrivateEndpoints", rest @ ..] => {
                    reverse_private_endpoints::route(&mut call, method, service, rest)
                }
                _ => services::route(&mut call, method, service, rest),
            }
        }
        _ => None,
    };
    answer.unwrap_or_else(|| Err(Refusal::not_modelled(method, request.uri().path())))
}

/// An id from the path; the real service refuses a malformed one as a bad request.
fn parse_id<T: std::str::FromStr>(text: &str, what: &str) -> Result<T, Refusal> {
    text.parse().map_err(|_| Refusal::bad_request(format!("invalid {what} id: {text}")))
}

/// The key id and secret of `Authorization: Basic ...`.
fn basic_credentials(request: &Request<Vec<u8>>) -> Option<(String, String)> {
    let value = request.headers().get(header::AUTHORIZATION)?.to_str().ok()?;
    let (scheme, encoded) = value.split_once(' ')?;
    if !scheme.eq_ignore_ascii_case("basic") {
        return None;
    }
    let decoded = base64::engine::general_purpose::STANDARD.decode(encoded.trim()).ok()?;
    let (key_id, key_secret) = std::str::from_utf8(&decoded).ok()?.split_once(':')?;
    Some((key_id.to_owned(), key_secret.to_owned()))
}

fn alerting(state: &mut State, request: &Request<Vec<u8>>, rest: &str) -> Answer {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if !token.is_some_and(|token| state.alert_tokens.iter().any(|known| known == token)) {
        return reply::unauthorized();
    }
    let segments: Vec<&str> = rest.split('/').collect();
    alerts::route(state, request, &segments)
        .unwrap_or_else(|| reply::not_modelled(request.method(), request.uri().path()))
}

/// Decodes a percent-encoded path segment or query value: an invalid escape stays as it is;
/// `None` when the decoded bytes are not UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    percent_encoding::percent_decode_str(text).decode_utf8().ok().map(std::borrow::Cow::into_owned)
}
