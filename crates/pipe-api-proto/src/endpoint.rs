//! The [`Endpoint`] trait (what is particular to one operation) and [`EndpointExt`] (the shared
//! work: building, status routing, decoding), implemented once for every endpoint so that
//! policy cannot drift from one operation to another.

use std::sync::Arc;

use http::{HeaderMap, Request, Response, StatusCode};
use serde::Serialize;

use pipe_api_types::{Validate, ValidationErrors};

use crate::api::Api;
use crate::api::sealed::Interface as _;
use crate::attempts::Attempts;
use crate::decode::sealed::DecodeBody as _;
use crate::decode::{Decode, Shape, SuccessDecodeError, says_nothing};
use crate::error::{ApiError, BuildError, BuildErrorKind, DecodeError, Error, TransportFailure};
use crate::operation::{Operation, SuccessBody};
use crate::redact::SentSecrets;
use crate::transport::Transport;
use crate::url::BaseUrl;

/// One operation of an interface: its metadata, path, query, body and result type. Nothing
/// else: base URL joining, headers, authentication and response handling are shared.
pub trait Endpoint {
    /// The interface the operation belongs to.
    type Api: Api;
    /// What a success decodes to (for the management interface, the envelope's `result`).
    type Output: Decode;

    /// The operation as data: its name in errors, method, path template and success shape. An
    /// endpoint of the table of operations has its row here; [`OPERATIONS`](crate::operations::OPERATIONS)
    /// lists them. A user's own endpoint writes its own with [`Operation::new`].
    const METADATA: Operation;

    /// The metadata of this request: [`METADATA`](Endpoint::METADATA), unless the endpoint's
    /// operation is known only at run time (the escape hatch's method, a plan's request).
    fn metadata(&self) -> Operation {
        Self::METADATA
    }

    /// The encoded path under the base URL, starting with `/`.
    fn path(&self) -> String;

    /// Query parameters, unencoded.
    fn query(&self) -> Vec<(String, String)> {
        Vec::new()
    }

    /// Checks what is not a request model (query parameters' bounds). Request models are
    /// checked by the body itself.
    fn validate(&self) -> Result<(), ValidationErrors> {
        Ok(())
    }

    /// The JSON body, validated first; `None` for none.
    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        Ok(None)
    }

    /// Completes the output with what the headers say (such as a total count).
    fn complete(&self, output: &mut Self::Output, headers: &HeaderMap) {
        let _ = (output, headers);
    }

    /// Decodes a success body into the output and the request id (see [`Decode`]). Not for
    /// implementing: a row of the table implements it to decode its output in its one shape,
    /// compiled in this crate, as the row's endpoint is not generic (and [`Raw`](crate::Raw),
    /// for its JSON value); any other endpoint keeps this, generic, compiled in its own crate.
    #[doc(hidden)]
    fn decode_output(
        body: &[u8],
        shape: Option<Shape>,
        secrets: &SentSecrets,
    ) -> Result<(Self::Output, Option<String>), SuccessDecodeError> {
        Self::Output::decode_body(body, shape, secrets)
    }

    /// The state the output is in, for a model that has one ([`HasState`](pipe_api_types::HasState)):
    /// what a wait names at each poll and when it stops. Not for implementing: a row of the
    /// table implements it for its output; any other endpoint's output has none.
    #[doc(hidden)]
    fn output_state(output: &Self::Output) -> Option<&str> {
        let _ = output;
        None
    }
}

/// The query of a row that has one (`filter: ServiceFilter as query`): its parameters,
/// unencoded, a name repeated for each value.
pub(crate) trait Query {
    /// The parameters, in order.
    fn parameters(&self) -> Vec<(String, String)>;
}

/// `filter=tag:Key=Value`, once per tag (service notes: repeated `filter` parameters).
impl Query for pipe_api_types::ServiceFilter {
    fn parameters(&self) -> Vec<(String, String)> {
        self.values().into_iter().map(|value| ("filter".to_owned(), value)).collect()
    }
}

/// The shape a success body of an operation comes in: `None` for one that says nothing where
/// the operation may answer nothing (not generic: compiled once, not per endpoint).
fn success_shape(envelope: bool, success: SuccessBody, body: &[u8]) -> Option<Shape> {
    if success == SuccessBody::Nothing && says_nothing(body) {
        return None;
    }
    Some(match (envelope, success) {
        (true, _) => Shape::Envelope,
        (false, SuccessBody::InData) => Shape::Data,
        (false, _) => Shape::Bare,
    })
}

/// A validated request model serialized as a JSON body: the one way a body is made.
pub(crate) fn json_body<T: Validate + Serialize>(model: &T) -> Result<Option<Vec<u8>>, BuildErrorKind> {
    model.validate().map_err(BuildErrorKind::Invalid)?;
    // Sized for a create request (the hand-written contract fixtures in tests/tests/it/fixtures
    // are 430 to 980 bytes), so the buffer does not grow and move three or four times from 128
    // bytes as `serde_json::to_vec`'s does; a larger body grows once. No larger than 1 KiB: the
    // allocator's per-thread cache (glibc's tcache) serves blocks up to about 1 KiB, and a 2 KiB
    // one cost about 140 more instructions per request to take and give back.
    let mut body = Vec::with_capacity(BODY_CAPACITY);
    serde_json::to_writer(&mut body, model).map_err(BuildErrorKind::Serialize)?;
    Ok(Some(body))
}

/// The starting size of a request body's buffer.
const BODY_CAPACITY: usize = 1024;

/// A successful result, with what the server said about it.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct Reply<T> {
    /// The decoded result.
    pub value: T,
    /// The server's `requestId` (management interface).
    pub request_id: Option<String>,
    /// The HTTP status (a 2xx).
    pub status: StatusCode,
    /// The attempts it took, when a [`Call`](crate::call::Call) made them (none when parsed on
    /// its own).
    pub attempts: Attempts,
}

impl<T> Reply<T> {
    /// The result, dropping the rest.
    pub fn into_value(self) -> T {
        self.value
    }
}

/// The shared work of every [`Endpoint`]: build the request, parse the response, or both over
/// a [`Transport`]. Implemented for every endpoint; not meant to be implemented by hand.
pub trait EndpointExt: Endpoint {
    /// Builds the request: validates the body first (an invalid model builds nothing), joins
    /// the base URL, and sets `Authorization` (sensitive), `Accept`, `User-Agent`, and
    /// `Content-Type` when there is a body.
    fn build_request(&self, api: &Self::Api) -> Result<Request<Vec<u8>>, BuildError> {
        build(&Parts(self), &InterfaceParts::of(api))
    }

    /// Parses the response to a request built on `api`: 2xx decodes (a failure names the JSON
    /// path), anything else is an [`ApiError`] (3xx included: redirects are never followed).
    /// Nothing it gives back (an error, the request id, the value) shows what the request
    /// sends, whatever the server echoed: the credentials `api` sends, in any form (that is
    /// why it takes `api`), and the secrets of this endpoint's body.
    fn parse_response(&self, api: &Self::Api, response: Response<Vec<u8>>) -> Result<Reply<Self::Output>, Error> {
        let body = self.body().ok().flatten().unwrap_or_default();
        parse(self, response, &SentSecrets::of(api.sent_secrets(), &body))
    }

    /// Builds, sends over `transport` once, and parses. Retrying is the driver's choice: see
    /// [`crate::retry`].
    fn send<T: Transport + ?Sized>(&self, api: &Self::Api, transport: &T) -> Result<Reply<Self::Output>, Error> {
        let request = self.build_request(api)?;
        let method = request.method().clone();
        let secrets = SentSecrets::of(api.sent_secrets(), request.body());
        let response = transport
            .send(request)
            .map_err(|e| Error::Transport(TransportFailure::new(self.metadata().name, method, e)))?;
        parse(self, response, &secrets)
    }
}

impl<E: Endpoint + ?Sized> EndpointExt for E {}

/// What building a request needs of an endpoint, without its output type or interface: each
/// endpoint brings only these few calls, and building is compiled once ([`build`]), not once
/// per endpoint in every crate that calls one.
pub(crate) trait RequestParts {
    fn metadata(&self) -> Operation;
    fn validate(&self) -> Result<(), ValidationErrors>;
    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind>;
    fn path(&self) -> String;
    fn query(&self) -> Vec<(String, String)>;
}

/// An endpoint seen as its [`RequestParts`] (a reference, so that an unsized endpoint has one).
pub(crate) struct Parts<'e, E: ?Sized>(pub(crate) &'e E);

impl<E: Endpoint + ?Sized> RequestParts for Parts<'_, E> {
    fn metadata(&self) -> Operation {
        self.0.metadata()
    }

    fn validate(&self) -> Result<(), ValidationErrors> {
        self.0.validate()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        self.0.body()
    }

    fn path(&self) -> String {
        self.0.path()
    }

    fn query(&self) -> Vec<(String, String)> {
        self.0.query()
    }
}

/// What building a request and scrubbing its answers need of its interface, without its type.
pub(crate) struct InterfaceParts<'a> {
    base_url: &'a BaseUrl,
    /// The common headers without a body and with one.
    headers: [&'a HeaderMap; 2],
    /// What every request to the interface sends that no output may show.
    pub(crate) sent_secrets: &'a Arc<SentSecrets>,
}

impl<'a> InterfaceParts<'a> {
    pub(crate) fn of<A: Api>(api: &'a A) -> Self {
        let headers = [api.common_headers(false), api.common_headers(true)];
        InterfaceParts { base_url: api.base_url(), headers, sent_secrets: api.sent_secrets() }
    }
}

/// Builds the request of `endpoint` on `interface` (see [`EndpointExt::build_request`]).
pub(crate) fn build(
    endpoint: &dyn RequestParts,
    interface: &InterfaceParts<'_>,
) -> Result<Request<Vec<u8>>, BuildError> {
    let Operation { name: operation, method, .. } = endpoint.metadata();
    endpoint.validate().map_err(|errors| BuildError::new(operation, BuildErrorKind::Invalid(errors)))?;
    let body = endpoint.body().map_err(|kind| BuildError::new(operation, kind))?;
    let headers = interface.headers[usize::from(body.is_some())];
    assemble(operation, method, interface.base_url, endpoint.path(), &endpoint.query(), body, headers)
}

/// The request of `operation` from its parts (not generic: compiled once, not per endpoint).
fn assemble(
    operation: &'static str,
    method: http::Method,
    base_url: &BaseUrl,
    path: String,
    query: &[(String, String)],
    body: Option<Vec<u8>>,
    headers: &HeaderMap,
) -> Result<Request<Vec<u8>>, BuildError> {
    let uri = base_url.join(path, query).map_err(|e| BuildError::new(operation, BuildErrorKind::Uri(e)))?;
    // Set part by part rather than through `Request::builder`, whose checks this request (a
    // known method, a parsed URI) does not need.
    let mut request = Request::new(body.unwrap_or_default());
    *request.method_mut() = method;
    *request.uri_mut() = uri;
    *request.headers_mut() = headers.clone();
    Ok(request)
}

/// Parses a response of `endpoint`: the one place a response's texts enter. Every text it
/// brings (a request id, a message, a name, a value, the kept body, a header) is scrubbed of
/// `secrets`, what the call sent, before it is cut and before anything made of it (an error,
/// a [`Reply`], an attempt's record, a log line, an observer) exists.
pub(crate) fn parse<E: Endpoint + ?Sized>(
    endpoint: &E,
    response: Response<Vec<u8>>,
    secrets: &SentSecrets,
) -> Result<Reply<E::Output>, Error> {
    let operation = endpoint.metadata();
    let (parts, body, shape) =
        success(&operation, <E::Api as crate::api::sealed::Interface>::ENVELOPE, response, secrets)?;
    match E::decode_output(&body, shape, secrets) {
        Ok((mut value, request_id)) => {
            endpoint.complete(&mut value, &parts.headers);
            Ok(Reply { value, request_id, status: parts.status, attempts: Attempts::default() })
        }
        Err(e) => Err(undecodable(operation, parts.status, e, body, secrets)),
    }
}

/// A success's parts, body and shape ([`success_shape`]), or the error of any other answer.
fn success(
    operation: &Operation,
    envelope: bool,
    response: Response<Vec<u8>>,
    secrets: &SentSecrets,
) -> Result<(http::response::Parts, Vec<u8>, Option<Shape>), Error> {
    let (parts, body) = response.into_parts();
    if !parts.status.is_success() {
        return Err(failed(operation, parts, body, secrets));
    }
    let shape = success_shape(envelope, operation.success, &body);
    Ok((parts, body, shape))
}

/// The error of an answer that is not a success (not generic, as the rest of this file's
/// helpers: compiled once, not per endpoint).
fn failed(operation: &Operation, parts: http::response::Parts, body: Vec<u8>, secrets: &SentSecrets) -> Error {
    let Operation { name, method, .. } = operation;
    Error::Api(Box::new(ApiError::from_response(name, method.clone(), parts.status, &parts.headers, body, secrets)))
}

/// The error of a success whose body does not decode.
fn undecodable(
    operation: Operation,
    status: StatusCode,
    e: SuccessDecodeError,
    body: Vec<u8>,
    secrets: &SentSecrets,
) -> Error {
    Error::Decode(Box::new(DecodeError::new(operation.name, status, e.request_id, e.path, e.message, body, secrets)))
}
