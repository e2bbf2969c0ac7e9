//! Every way a call can fail, and the one place that reads an error response.

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use http::{HeaderMap, Method, StatusCode};
use pipe_api_types::ValidationErrors;

use crate::retry::RetryHints;

/// Every way a call can fail.
#[derive(Debug)]
#[non_exhaustive]
pub enum Error {
    /// The request was not built (invalid input); nothing was sent.
    Build(BuildError),
    /// The transport failed to deliver the request or to bring back a response.
    Transport(TransportFailure),
    /// The server answered with a status other than 2xx.
    Api(Box<ApiError>),
    /// The server answered 2xx with a body that does not decode.
    Decode(Box<DecodeError>),
}

impl Error {
    /// The operation that failed, such as `create_pipe`.
    pub fn operation(&self) -> &'static str {
        match self {
            Error::Build(e) => e.operation,
            Error::Transport(e) => e.operation,
            Error::Api(e) => e.operation,
            Error::Decode(e) => e.operation,
        }
    }

    /// The server's `requestId`, when a response carried one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.request_id(),
            Error::Decode(e) => e.request_id(),
            Error::Build(_) | Error::Transport(_) => None,
        }
    }

    /// The HTTP status, when a response came back.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Error::Api(e) => Some(e.status),
            Error::Decode(e) => Some(e.status),
            Error::Build(_) | Error::Transport(_) => None,
        }
    }

    /// Whether a request that changes something (`POST`, `PATCH`) may have been carried out by
    /// the server although the call failed: a transport failure after sending, or a gateway
    /// 502, 503 or 504. It is never re-sent automatically; list before creating again.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            Error::Transport(e) => e.outcome_unknown(),
            Error::Api(e) => e.outcome_unknown(),
            Error::Build(_) | Error::Decode(_) => false,
        }
    }

    /// How many attempts were made (1 unless a driver retried).
    pub fn attempts(&self) -> u32 {
        match self {
            Error::Build(_) => 0,
            Error::Transport(e) => e.attempts,
            Error::Api(e) => e.attempts,
            Error::Decode(e) => e.attempts,
        }
    }

    /// Records how many attempts a driver made before giving up with this error.
    pub fn with_attempts(mut self, attempts: u32) -> Self {
        match &mut self {
            Error::Build(_) => {}
            Error::Transport(e) => e.attempts = attempts,
            Error::Api(e) => e.attempts = attempts,
            Error::Decode(e) => e.attempts = attempts,
        }
        self
    }
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Build(e) => e.fmt(f),
            Error::Transport(e) => e.fmt(f),
            Error::Api(e) => e.fmt(f),
            Error::Decode(e) => e.fmt(f),
        }
    }
}

impl StdError for Error {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Error::Build(e) => Some(e),
            Error::Transport(e) => Some(e),
            Error::Api(e) => Some(&**e),
            Error::Decode(e) => Some(&**e),
        }
    }
}

impl From<BuildError> for Error {
    fn from(e: BuildError) -> Self {
        Error::Build(e)
    }
}

/// The request could not be built; nothing was sent.
#[derive(Debug)]
pub struct BuildError {
    operation: &'static str,
    kind: BuildErrorKind,
}

/// Why a request could not be built.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// The request model breaks rules (every violation, each with its field path).
    Invalid(ValidationErrors),
    /// The body could not be serialized.
    Serialize(serde_json::Error),
    /// The path or query of an escape-hatch request is not acceptable.
    InvalidPath(&'static str),
    /// The URI could not be assembled.
    Uri(http::Error),
    /// The client has no such interface configured (named here).
    NotConfigured(&'static str),
}

impl BuildError {
    /// A failure to build `operation`'s request.
    pub fn new(operation: &'static str, kind: BuildErrorKind) -> Self {
        BuildError { operation, kind }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// Why the request was not built.
    pub fn kind(&self) -> &BuildErrorKind {
        &self.kind
    }

    /// The validation errors, when that is why.
    pub fn validation(&self) -> Option<&ValidationErrors> {
        match &self.kind {
            BuildErrorKind::Invalid(errors) => Some(errors),
            _ => None,
        }
    }
}

impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: nothing was sent: ", self.operation)?;
        match &self.kind {
            BuildErrorKind::Invalid(errors) => errors.fmt(f),
            BuildErrorKind::Serialize(e) => write!(f, "the body could not be serialized: {e}"),
            BuildErrorKind::InvalidPath(why) => write!(f, "the path {why}"),
            BuildErrorKind::Uri(e) => write!(f, "the URI could not be built: {e}"),
            BuildErrorKind::NotConfigured(api) => write!(f, "no {api} interface is configured"),
        }
    }
}

impl StdError for BuildError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.kind {
            BuildErrorKind::Invalid(e) => Some(e),
            BuildErrorKind::Serialize(e) => Some(e),
            BuildErrorKind::Uri(e) => Some(e),
            BuildErrorKind::InvalidPath(_) | BuildErrorKind::NotConfigured(_) => None,
        }
    }
}

/// What a transport reports when it could not complete an exchange.
#[derive(Debug)]
pub struct TransportError {
    kind: TransportErrorKind,
    source: Option<Box<dyn StdError + Send + Sync>>,
}

/// The kind of transport failure, as far as retries are concerned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum TransportErrorKind {
    /// No connection was made (refused, DNS, connect timeout): the request never left.
    Connect,
    /// The request may have been sent, but the response did not arrive in time.
    Timeout,
    /// The connection failed after the request may have been sent (reset, truncated body).
    Io,
    /// The response body is larger than the transport's limit.
    BodyTooLarge,
    /// Anything else; treated as "may have been sent".
    Other,
    /// The transport refused to send (such as plain `http` off loopback without opting in):
    /// nothing left the machine, and the same request would be refused again, so it is never
    /// retried.
    Refused,
}

impl TransportError {
    /// A failure of `kind`, caused by `source`.
    pub fn new(kind: TransportErrorKind, source: impl Into<Box<dyn StdError + Send + Sync>>) -> Self {
        TransportError { kind, source: Some(source.into()) }
    }

    /// A failure of `kind` with no underlying error.
    pub fn from_kind(kind: TransportErrorKind) -> Self {
        TransportError { kind, source: None }
    }

    /// The kind of failure.
    pub fn kind(&self) -> TransportErrorKind {
        self.kind
    }

    /// Whether the request may have reached the server (everything but a connect failure or a
    /// refusal to send).
    pub fn may_have_reached_server(&self) -> bool {
        !matches!(self.kind, TransportErrorKind::Connect | TransportErrorKind::Refused)
    }
}

impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let what = match self.kind {
            TransportErrorKind::Connect => "could not connect",
            TransportErrorKind::Timeout => "timed out",
            TransportErrorKind::Io => "the connection failed",
            TransportErrorKind::BodyTooLarge => "the response body is over the size limit",
            TransportErrorKind::Other => "the transport failed",
            TransportErrorKind::Refused => "the transport refused to send",
        };
        match &self.source {
            Some(source) => write!(f, "{what}: {source}"),
            None => f.write_str(what),
        }
    }
}

impl StdError for TransportError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn StdError + 'static))
    }
}

/// A transport failure during one operation.
#[derive(Debug)]
pub struct TransportFailure {
    operation: &'static str,
    method: Method,
    attempts: u32,
    error: TransportError,
}

impl TransportFailure {
    /// A failure of `operation` (sent with `method`): for drivers that call the transport
    /// themselves, such as a retrying client.
    pub fn new(operation: &'static str, method: Method, error: TransportError) -> Self {
        TransportFailure { operation, method, attempts: 1, error }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// The transport's error.
    pub fn error(&self) -> &TransportError {
        &self.error
    }

    /// Whether the server may have carried out a non-idempotent request.
    pub fn outcome_unknown(&self) -> bool {
        !crate::retry::is_idempotent(&self.method) && self.error.may_have_reached_server()
    }
}

impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.operation, self.error)?;
        write_attempts(f, self.attempts)?;
        if self.outcome_unknown() {
            f.write_str(OUTCOME_UNKNOWN)?;
        }
        Ok(())
    }
}

impl StdError for TransportFailure {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        Some(&self.error)
    }
}

const OUTCOME_UNKNOWN: &str = "; the outcome is unknown: the server may have carried out the request, which is \
     never re-sent automatically; list before creating again";

fn write_attempts(f: &mut fmt::Formatter<'_>, attempts: u32) -> fmt::Result {
    if attempts > 1 { write!(f, " (after {attempts} attempts)") } else { Ok(()) }
}

/// The server answered with a status other than 2xx (3xx included: redirects are never
/// followed, so that credentials never travel to another host).
#[derive(Clone)]
pub struct ApiError {
    operation: &'static str,
    method: Method,
    status: StatusCode,
    attempts: u32,
    request_id: Option<String>,
    code: Option<String>,
    message: Option<String>,
    hints: RetryHints,
    location: Option<String>,
    body: Vec<u8>,
    body_is_json: bool,
}

impl ApiError {
    /// Reads an error response: the management shape `{status, error: "CODE: text",
    /// requestId}` (each part optional), the alerting shape `{message}`, a JSON array of
    /// validation issues, or any non-JSON body (kept raw).
    pub(crate) fn from_response(
        operation: &'static str,
        method: Method,
        status: StatusCode,
        headers: &HeaderMap,
        body: Vec<u8>,
    ) -> Self {
        let json = serde_json::from_slice::<serde_json::Value>(&body).ok();
        let text_of = |value: Option<&serde_json::Value>| value.and_then(|v| v.as_str()).map(str::to_owned);
        let (mut request_id, mut code, mut message) = (None, None, None);
        match &json {
            Some(serde_json::Value::Object(object)) => {
                request_id = text_of(object.get("requestId"));
                let text = text_of(object.get("error")).or_else(|| text_of(object.get("message")));
                (code, message) = split_error_text(text.as_deref());
                code = code.or_else(|| text_of(object.get("code")));
            }
            Some(serde_json::Value::Array(issues)) => {
                // Very old alerting servers: a list of validation issues.
                let texts: Vec<String> = issues
                    .iter()
                    .filter_map(|issue| issue.get("message").and_then(|m| m.as_str()).map(str::to_owned))
                    .collect();
                message = (!texts.is_empty()).then(|| texts.join("; "));
            }
            Some(serde_json::Value::String(text)) => (code, message) = split_error_text(Some(text)),
            _ => {}
        }
        let header_text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok()).map(str::to_owned);
        request_id = request_id.or_else(|| header_text("x-request-id"));
        ApiError {
            operation,
            method,
            status,
            attempts: 1,
            request_id,
            code,
            message,
            hints: RetryHints::from_headers(headers),
            location: status.is_redirection().then(|| header_text("location")).flatten(),
            body_is_json: json.is_some(),
            body,
        }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// The HTTP status.
    pub fn status(&self) -> StatusCode {
        self.status
    }

    /// The server's `requestId` (from the body, else the `X-Request-Id` header).
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// The upper-case error code (`NOT_FOUND`, `FAILED_DEPENDENCY`, ...), when the body has one.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// The server's message, without the code.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The server's retry hints (`Retry-After`, `X-RateLimit-Reset`, `RateLimit-Reset`).
    pub fn retry_hints(&self) -> &RetryHints {
        &self.hints
    }

    /// Where a 3xx pointed (not followed).
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }

    /// The raw body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }

    /// The raw body as text, when it is not JSON (the plain-text 401, an HTML 502).
    pub fn raw_text(&self) -> Option<Cow<'_, str>> {
        (!self.body_is_json && !self.body.is_empty()).then(|| String::from_utf8_lossy(&self.body))
    }

    /// Whether the server may have carried out a non-idempotent request (a gateway 502, 503
    /// or 504 answered instead of the service).
    pub fn outcome_unknown(&self) -> bool {
        !crate::retry::is_idempotent(&self.method) && matches!(self.status.as_u16(), 502..=504)
    }

    /// How many attempts were made.
    pub fn attempts(&self) -> u32 {
        self.attempts
    }
}

/// Splits `"NOT_FOUND: text"` into the upper-case code and the text.
fn split_error_text(text: Option<&str>) -> (Option<String>, Option<String>) {
    let Some(text) = text else {
        return (None, None);
    };
    let is_code = |s: &str| {
        s.len() >= 2
            && s.bytes().all(|b| b.is_ascii_uppercase() || b.is_ascii_digit() || b == b'_')
            && s.bytes().next().is_some_and(|b| b.is_ascii_uppercase())
    };
    match text.split_once(':') {
        Some((code, rest)) if is_code(code) => {
            let rest = rest.trim();
            (Some(code.to_owned()), (!rest.is_empty()).then(|| rest.to_owned()))
        }
        _ if is_code(text.trim()) => (Some(text.trim().to_owned()), None),
        _ => (None, (!text.is_empty()).then(|| text.to_owned())),
    }
}

impl fmt::Display for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: HTTP {}", self.operation, self.status)?;
        if let Some(code) = &self.code {
            write!(f, " {code}")?;
        }
        if let Some(message) = &self.message {
            write!(f, ": {message}")?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " (request id {id})")?;
        }
        if let Some(location) = &self.location {
            write!(f, "; redirect to {location} not followed")?;
        }
        if self.code.is_none() && self.message.is_none() && !self.body.is_empty() {
            write!(f, "; body: {}", body_preview(&self.body))?;
        }
        write_attempts(f, self.attempts)?;
        if self.outcome_unknown() {
            f.write_str(OUTCOME_UNKNOWN)?;
        }
        Ok(())
    }
}

impl fmt::Debug for ApiError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ApiError")
            .field("operation", &self.operation)
            .field("status", &self.status)
            .field("request_id", &self.request_id)
            .field("code", &self.code)
            .field("message", &self.message)
            .field("hints", &self.hints)
            .field("attempts", &self.attempts)
            .field("body", &body_preview(&self.body))
            .finish()
    }
}

impl StdError for ApiError {}

/// A 2xx response whose body does not decode.
#[derive(Clone)]
pub struct DecodeError {
    operation: &'static str,
    status: StatusCode,
    attempts: u32,
    request_id: Option<String>,
    path: String,
    message: String,
    body: Vec<u8>,
}

impl DecodeError {
    pub(crate) fn new(
        operation: &'static str,
        status: StatusCode,
        request_id: Option<String>,
        path: String,
        message: String,
        body: Vec<u8>,
    ) -> Self {
        DecodeError { operation, status, attempts: 1, request_id, path, message, body }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// The JSON path that failed (`result[3].source.kafka.offset.timestamp`); `.` for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong there.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `requestId`, when the envelope could be read that far.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// The raw body.
    pub fn body(&self) -> &[u8] {
        &self.body
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: the HTTP {} response does not decode at `{}`: {}",
            self.operation, self.status, self.path, self.message
        )?;
        if let Some(id) = &self.request_id {
            write!(f, " (request id {id})")?;
        }
        write!(f, "; body: {}", body_preview(&self.body))
    }
}

impl fmt::Debug for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DecodeError")
            .field("operation", &self.operation)
            .field("status", &self.status)
            .field("request_id", &self.request_id)
            .field("path", &self.path)
            .field("message", &self.message)
            .field("body", &body_preview(&self.body))
            .finish()
    }
}

impl StdError for DecodeError {}

/// The longest body excerpt an error shows.
const PREVIEW_CHARS: usize = 300;

/// A short, safe excerpt of a body: secret-bearing JSON fields replaced by `[redacted]`,
/// truncated to a few hundred characters with the full size given.
pub(crate) fn body_preview(body: &[u8]) -> String {
    if body.is_empty() {
        return "(empty)".to_owned();
    }
    let text = match serde_json::from_slice::<serde_json::Value>(body) {
        Ok(mut value) => {
            crate::redact::redact_json(&mut value);
            value.to_string()
        }
        Err(_) => crate::redact::redact_text(&String::from_utf8_lossy(body)),
    };
    let mut preview: String = text.chars().take(PREVIEW_CHARS).collect();
    if preview.len() < text.len() {
        preview.push_str(&format!("… ({} bytes in all)", body.len()));
    }
    preview
}
