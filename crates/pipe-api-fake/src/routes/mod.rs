//! Routing: a request is first found in the table of operations (`pipe_api_proto::operations`),
//! by its method and path, on either interface; a path no row has is not served (the fake
//! answers its `NOT_MODELLED` 404). After the checks every call shares (credentials,
//! organization, grant) the row's handler answers: each resource file below lists its handlers
//! by the row's endpoint type (`GetPipe::OPERATION`, so a misspelt or removed row breaks the
//! build) in its `HANDLERS`, and a row with none is not served either.

mod alerts;
mod keys;
mod organizations;
mod pipe_settings;
mod pipes;
mod reverse_private_endpoints;
mod services;

use base64::Engine as _;
use http::{Method, Request, header};
use pipe_api_proto::operations::{Interface, OPERATIONS, Operation};
use pipe_api_types::{OrganizationId, ServiceId};
use serde::de::DeserializeOwned;

use crate::permissions::{self, Resource};
use crate::reply::{self, Answer, Refusal};
use crate::state::{State, StoredService};

pub(crate) use alerts::alert_record;
pub(crate) use keys::insert_key;
pub(crate) use pipes::{settle as settle_pipes, unplan as unplan_pipe};

/// What answers a management row: the call, and the request's path parameters.
pub(crate) type Handler = fn(&mut Call<'_>, &Params) -> Result<Answer, Refusal>;

/// A management row the fake serves: the row (by its endpoint type, `GetPipe::OPERATION`), what
/// it touches as permissions are granted, and its handler.
pub(crate) type Served = (&'static Operation, Resource, Handler);

/// What answers an alerting row: the state, the request, and its path parameters.
pub(crate) type AlertingHandler = fn(&mut State, &Request<Vec<u8>>, &Params) -> Answer;

/// Every management handler, by the name of the row it answers.
const HANDLERS: &[&[Served]] = &[
    organizations::HANDLERS,
    keys::HANDLERS,
    services::HANDLERS,
    pipes::HANDLERS,
    pipe_settings::HANDLERS,
    reverse_private_endpoints::HANDLERS,
];

/// What a management row touches and its handler, if the fake serves it.
fn served(row: &Operation) -> Option<(Resource, Handler)> {
    HANDLERS
        .iter()
        .flat_map(|handlers| handlers.iter())
        .find(|(served, _, _)| served.name == row.name)
        .map(|(_, resource, handler)| (*resource, *handler))
}

/// The handler of an alerting row, if the fake serves it.
fn alerting_handler(row: &Operation) -> Option<AlertingHandler> {
    alerts::HANDLERS.iter().find(|(handled, _)| handled.name == row.name).map(|(_, handler)| *handler)
}

/// A request's path parameters, decoded, by the names its row gives them (`service_id`).
pub(crate) struct Params {
    values: Vec<(&'static str, String)>,
}

impl Params {
    /// The parameter `name` as sent (decoded); empty if the row has none of that name.
    pub fn text(&self, name: &str) -> &str {
        self.values.iter().find(|(named, _)| *named == name).map_or("", |(_, value)| value)
    }

    /// The id `name` (`pipe_id`); the real service refuses a malformed one as a bad request,
    /// naming what it is (`invalid pipe id: ...`).
    pub fn id<T: std::str::FromStr>(&self, name: &str) -> Result<T, Refusal> {
        let what = match name {
            "endpoint_id" => "reverse private endpoint",
            _ => name.trim_end_matches("_id"),
        };
        parse_id(self.text(name), what)
    }
}

/// The row of the call `method` on `path` on `interface`, if the table has one, with the path's
/// parameters: each literal segment equal, each `{parameter}` any one segment (decoded).
fn matched(interface: Interface, method: &Method, path: &str) -> Option<(&'static Operation, Params)> {
    let segments: Vec<String> = path.split('/').map(|s| percent_decode(s).unwrap_or_else(|| s.to_owned())).collect();
    OPERATIONS.iter().filter(|row| row.interface == interface && row.method == *method).find_map(|row| {
        let template: Vec<&'static str> = row.path.split('/').collect();
        if template.len() != segments.len() {
            return None;
        }
        let mut values = Vec::new();
        for (part, segment) in template.into_iter().zip(&segments) {
            match part.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
                Some(name) => values.push((name, segment.clone())),
                None if part == segment => {}
                None => return None,
            }
        }
        Some((row, Params { values }))
    })
}

/// Answers any request the way the real services would.
pub(crate) fn route(state: &mut State, request: &Request<Vec<u8>>) -> Answer {
    let path = request.uri().path();
    if path.starts_with("/v1/") {
        let request_id = state.sequence.uuid().to_string();
        management(state, request, &request_id).unwrap_or_else(|refusal| refusal.into_answer(&request_id))
    } else if path.starts_with("/api/v2/") {
        alerting(state, request)
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
    /// The request's query, as sent.
    pub query: Option<&'a str>,
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

fn management(state: &mut State, request: &Request<Vec<u8>>, request_id: &str) -> Result<Answer, Refusal> {
    let (key_id, key_secret) = basic_credentials(request).ok_or(Refusal::Unauthorized)?;
    let (key_organization, stored) = state.key_for(&key_id, &key_secret).ok_or(Refusal::Unauthorized)?;
    if !stored.usable(state.now) {
        return Err(Refusal::Unauthorized);
    }
    let (caller, roles) = (stored.id().unwrap_or_default().to_owned(), stored.roles());

    let (method, path) = (request.method(), request.uri().path());
    // Only what a row of the table names is served, and only to a role its grant allows.
    let (row, params) =
        matched(Interface::Management, method, path).ok_or_else(|| Refusal::not_modelled(method, path))?;
    // A call under an organization is on the key's own; the list of organizations is the key's.
    let organization = if row.path.contains("{organization_id}") {
        let organization: OrganizationId = params.id("organization_id")?;
        if !state.organizations.contains_key(&organization) {
            return Err(Refusal::not_found(organization));
        }
        if organization != key_organization {
            return Err(Refusal::forbidden(format!("the key has no access to organization {organization}")));
        }
        organization
    } else {
        key_organization
    };
    let (resource, handler) = served(row).ok_or_else(|| Refusal::not_modelled(method, path))?;
    if !permissions::may(&roles, row, resource) {
        return Err(Refusal::forbidden("the key's roles do not allow this call"));
    }
    // Pipes move on their own, on the fake's clock: settled before any call can read them.
    pipes::settle(state);
    let query = request.uri().query();
    let mut call = Call { state, organization, caller, request_id, body: request.body(), query };
    handler(&mut call, &params)
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

fn alerting(state: &mut State, request: &Request<Vec<u8>>) -> Answer {
    let token = request
        .headers()
        .get(header::AUTHORIZATION)
        .and_then(|value| value.to_str().ok())
        .and_then(|value| value.strip_prefix("Bearer "));
    if !token.is_some_and(|token| state.alert_tokens.iter().any(|known| known == token)) {
        return reply::unauthorized();
    }
    let (method, path) = (request.method(), request.uri().path());
    let Some((row, params)) = matched(Interface::Alerting, method, path) else {
        return reply::not_modelled(method, path);
    };
    // There are no roles: the token grants every row the fake serves.
    match alerting_handler(row) {
        Some(handler) => handler(state, request, &params),
        None => reply::not_modelled(method, path),
    }
}

/// Decodes a percent-encoded path segment or query value: an invalid escape stays as it is;
/// `None` when the decoded bytes are not UTF-8.
pub(crate) fn percent_decode(text: &str) -> Option<String> {
    percent_encoding::percent_decode_str(text).decode_utf8().ok().map(std::borrow::Cow::into_owned)
}

#[cfg(test)]
mod tests {
    //! The fake against the table of operations: a new row is served only once it has a handler
    //! (which says what the row touches, for the grants), and the test names the rows without.

    use super::*;
    use pipe_api_proto::operations::OPERATIONS;

    /// How many handlers `row` has: one, or it is not served, or a later one is never reached.
    fn handlers(row: &Operation) -> usize {
        let management = HANDLERS.iter().flat_map(|handlers| handlers.iter()).map(|(served, _, _)| *served);
        let served = management.chain(alerts::HANDLERS.iter().map(|(served, _)| *served));
        served.filter(|served| served.name == row.name).count()
    }

    #[test]
    fn every_row_has_one_handler() {
        let wrong: Vec<String> = OPERATIONS
            .iter()
            .filter_map(|row| match handlers(row) {
                1 => None,
                0 => Some(format!("{}: no handler in the fake's routes (pipe-api-fake/src/routes/)", row.name)),
                n => Some(format!("{}: {n} handlers in the fake's routes, one is ever reached", row.name)),
            })
            .collect();
        assert!(wrong.is_empty(), "rows of the table the fake does not serve as one:\n{}", wrong.join("\n"));
    }
}
