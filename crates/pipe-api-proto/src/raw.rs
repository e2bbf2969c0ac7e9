//! The escape hatch: an operation this crate does not model yet, sent with the same base URL,
//! authentication, envelope and error handling, its result as JSON.

use std::marker::PhantomData;

use http::Method;

use crate::api::Api;
use crate::decode::{Shape, SuccessDecodeError};
use crate::endpoint::Endpoint;
use crate::error::{BuildError, BuildErrorKind};
use crate::operation::Operation;
use crate::redact::SentSecrets;

/// Any request under an interface's base URL. The result is the management envelope's
/// `result` (or the alerting body) as a JSON value; `null` when there is none (a delete).
///
/// ```
/// use pipe_api_proto::{EndpointExt, Management, Raw, http};
/// # fn demo(management: &Management) -> Result<(), pipe_api_proto::BuildError> {
/// let state = Raw::<Management>::new(http::Method::PATCH, "/v1/organizations/o/services/s/pipes/p/state")?
///     .json(&std::collections::HashMap::from([("command", "stop")]))?;
/// let request = state.build_request(management)?;
/// assert_eq!(request.method(), http::Method::PATCH);
/// # Ok(()) }
/// ```
#[derive(Clone, Debug)]
pub struct Raw<A> {
    method: Method,
    path: String,
    query: Vec<(String, String)>,
    body: Option<Vec<u8>>,
    /// The row of the table it sends, if it was made as one ([`for_operation`](Raw::for_operation)).
    row: Option<&'static Operation>,
    api: PhantomData<fn() -> A>,
}

impl<A: Api> Raw<A> {
    /// A request `method path`, where `path` starts with `/`, is already percent-encoded, and
    /// holds no query, fragment, whitespace or control character.
    pub fn new(method: Method, path: impl Into<String>) -> Result<Self, BuildError> {
        Raw::checked(method, path.into(), None)
    }

    /// A request of a row of the table (`operation`, of this interface), its path template
    /// filled in as `path` (checked as [`new`](Raw::new)'s): its result a JSON value, as any
    /// raw request's, but its success read as the row's are (the alerting `{"data": ...}`, a
    /// delete's nothing) and the row named in its errors and records. What a saved plan sends,
    /// its requests kept as JSON.
    pub fn for_operation(operation: &'static Operation, path: impl Into<String>) -> Result<Self, BuildError> {
        Raw::checked(operation.method.clone(), path.into(), Some(operation))
    }

    fn checked(method: Method, path: String, row: Option<&'static Operation>) -> Result<Self, BuildError> {
        let name = row.map_or(Self::METADATA.name, |row| row.name);
        let fail = |why| Err(BuildError::new(name, BuildErrorKind::InvalidPath(why)));
        if !path.starts_with('/') {
            return fail("must start with '/'");
        }
        if path.contains(['?', '#']) {
            return fail("must not hold a query or fragment (use `query`)");
        }
        if path.chars().any(|c| c.is_whitespace() || c.is_control()) {
            return fail("must not hold whitespace or control characters");
        }
        if path.split('/').any(|segment| segment == "..") {
            return fail("must not hold `..` segments");
        }
        Ok(Raw { method, path, query: Vec::new(), body: None, row, api: PhantomData })
    }

    /// Adds a query parameter (encoded when sent).
    pub fn query(mut self, name: impl Into<String>, value: impl Into<String>) -> Self {
        self.query.push((name.into(), value.into()));
        self
    }

    /// Sets a JSON body.
    pub fn json(mut self, body: &impl serde::Serialize) -> Result<Self, BuildError> {
        let bytes = serde_json::to_vec(body)
            .map_err(|e| BuildError::new(self.metadata().name, BuildErrorKind::Serialize(e)))?;
        self.body = Some(bytes);
        Ok(self)
    }
}

impl<A: Api> Endpoint for Raw<A> {
    type Api = A;
    type Output = serde_json::Value;

    /// Named `raw` in errors; a raw path may hold ids, so a record shows none of it.
    const METADATA: Operation = Operation::new("raw", A::INTERFACE, Method::GET, "(raw)");

    /// The row it was made for; else the method is the one given to [`new`](Raw::new), not the
    /// const's.
    fn metadata(&self) -> Operation {
        match self.row {
            Some(row) => row.clone(),
            None => Operation { method: self.method.clone(), ..Self::METADATA },
        }
    }

    fn path(&self) -> String {
        self.path.clone()
    }

    fn query(&self) -> Vec<(String, String)> {
        self.query.clone()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        Ok(self.body.clone())
    }

    // A JSON value's decode, compiled here once, not in every crate that sends a `Raw`.
    fn decode_output(
        body: &[u8],
        shape: Option<Shape>,
        secrets: &SentSecrets,
    ) -> Result<(serde_json::Value, Option<String>), SuccessDecodeError> {
        crate::decode::json_value(body, shape, secrets)
    }
}
