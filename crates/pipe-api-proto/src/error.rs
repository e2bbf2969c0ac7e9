//! Every way a call can fail, and the one place that reads an error response.

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

use http::{HeaderMap, Method, StatusCode};
use pipe_api_types::ValidationErrors;

use crate::attempts::Attempts;
use crate::redact::SentSecrets;
use crate::retry::RetryHints;
pub use crate::transport::{TransportError, TransportErrorKind};

/// Every way a call can fail.
///
/// Transparent: its `Display` is the inner error's, and its [`source`](StdError::source) is
/// the inner error's source, so that a report walking the chain (anyhow's `{:#}`, eyre's
/// reports) shows every message once. Each error below says only its own part, starting with
/// the operation, and leaves the cause to `source()`.
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
    /// The call ended before an attempt that could not have finished before its deadline;
    /// nothing was sent.
    NotSent(NotSent),
}

impl Error {
    /// The operation that failed, such as `create_pipe`.
    pub fn operation(&self) -> &'static str {
        match self {
            Error::Build(e) => e.operation,
            Error::Transport(e) => e.operation,
            Error::Api(e) => e.operation,
            Error::Decode(e) => e.operation,
            Error::NotSent(e) => e.operation(),
        }
    }

    /// The server's `requestId`, when a response carried one.
    pub fn request_id(&self) -> Option<&str> {
        match self {
            Error::Api(e) => e.request_id(),
            Error::Decode(e) => e.request_id(),
            Error::Build(_) | Error::Transport(_) | Error::NotSent(_) => None,
        }
    }

    /// The HTTP status, when a response came back.
    pub fn status(&self) -> Option<StatusCode> {
        match self {
            Error::Api(e) => Some(e.status),
            Error::Decode(e) => Some(e.status),
            Error::Build(_) | Error::Transport(_) | Error::NotSent(_) => None,
        }
    }

    /// The server's answer, when it answered with a status other than 2xx.
    pub fn as_api(&self) -> Option<&ApiError> {
        match self {
            Error::Api(e) => Some(e),
            _ => None,
        }
    }

    /// Whether the server answered 404 Not Found.
    pub fn is_not_found(&self) -> bool {
        self.as_api().is_some_and(|e| e.status == StatusCode::NOT_FOUND)
    }

    /// Whether the server answered 429 Too Many Requests.
    pub fn is_rate_limited(&self) -> bool {
        self.as_api().is_some_and(|e| e.status == StatusCode::TOO_MANY_REQUESTS)
    }

    /// How long the server asked to wait before trying again (`Retry-After`,
    /// `X-RateLimit-Reset`, `RateLimit-Reset`; the longest when several are given), on any
    /// non-2xx answer that carried one.
    ///
    /// Takes `now` because this crate reads no clock: a `Retry-After` given as a date is a
    /// delay only from some instant. Pass [`SystemTime::now()`](std::time::SystemTime::now);
    /// a date in the past is a zero delay.
    pub fn retry_after(&self, now: std::time::SystemTime) -> Option<std::time::Duration> {
        self.as_api()?.hints.requested_delay(now.into())
    }

    /// Whether a request that changes something (`POST`, `PATCH`) may have been carried out by
    /// the server although the call failed: a transport failure after sending, or a gateway
    /// 502, 503 or 504. It is never re-sent automatically; list before creating again.
    pub fn outcome_unknown(&self) -> bool {
        match self {
            Error::Transport(e) => e.outcome_unknown(),
            Error::Api(e) => e.outcome_unknown(),
            Error::Build(_) | Error::Decode(_) | Error::NotSent(_) => false,
        }
    }

    /// The rules the request broke, when that is why nothing was sent: each violation's wire
    /// path and rule.
    pub fn validation(&self) -> Option<&ValidationErrors> {
        match self {
            Error::Build(error) => error.validation(),
            _ => None,
        }
    }

    /// How many attempts were made (1 unless a driver retried).
    pub fn attempts(&self) -> u32 {
        self.history().map_or(0, Attempts::count)
    }

    /// The attempts behind this error, each recorded by the [`Call`](crate::call::Call) that
    /// made it (none for an answer parsed on its own), and why the call stopped retrying.
    pub fn history(&self) -> Option<&Attempts> {
        match self {
            Error::Build(_) | Error::NotSent(_) => None,
            Error::Transport(e) => Some(&e.attempts),
            Error::Api(e) => Some(&e.attempts),
            Error::Decode(e) => Some(&e.attempts),
        }
    }

    /// Records the attempts a driver made before giving up with this error.
    pub fn with_attempts(mut self, attempts: Attempts) -> Self {
        match &mut self {
            Error::Build(_) | Error::NotSent(_) => {}
            Error::Transport(e) => *e.attempts = attempts,
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
            Error::NotSent(e) => e.fmt(f),
        }
    }
}

/// Reads as a message, as `main() -> Result<(), Error>` prints it: the error's `Display`, then
/// each cause after `caused by:`, at most [`ERROR_TEXT_MAX`] bytes in all.
impl fmt::Debug for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut text = self.to_string();
        let mut cause = StdError::source(self);
        while let Some(error) = cause {
            text.push_str("; caused by: ");
            text.push_str(&error.to_string());
            cause = error.source();
        }
        f.write_str(&crate::redact::truncate(&text, ERROR_TEXT_MAX))
    }
}

/// The most any error's `Display` or `Debug` shows.
pub const ERROR_TEXT_MAX: usize = 4096;

impl StdError for Error {
    /// The inner error's source (not the inner error, whose text `Display` already shows).
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match self {
            Error::Build(e) => e.source(),
            Error::Transport(e) => e.source(),
            Error::Api(e) => e.source(),
            Error::Decode(e) => e.source(),
            Error::NotSent(e) => e.source(),
        }
    }
}

impl From<BuildError> for Error {
    fn from(e: BuildError) -> Self {
        Error::Build(e)
    }
}

/// The request could not be built; nothing was sent.
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

/// Says what failed; the violations, or serde's or http's error, are the [`source`](StdError::source).
impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: nothing was sent", self.operation)?;
        match &self.kind {
            // Each violation with its wire path and rule, so that `{error}` says what to fix.
            BuildErrorKind::Invalid(errors) => {
                write!(f, ": {}", crate::redact::truncate(&errors.to_string(), ERROR_TEXT_MAX / 2))
            }
            BuildErrorKind::Serialize(_) => f.write_str(": the body could not be serialized"),
            BuildErrorKind::InvalidPath(why) => write!(f, ": the path {why}"),
            BuildErrorKind::Uri(_) => f.write_str(": the URI could not be built"),
            BuildErrorKind::NotConfigured(api) => write!(f, ": no {api} interface is configured"),
        }
    }
}

/// Reads as its message.
impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The violations are the message itself (see [`BuildError::validation`]), so not a source.
impl StdError for BuildError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.kind {
            BuildErrorKind::Invalid(_) => None,
            BuildErrorKind::Serialize(e) => Some(e),
            BuildErrorKind::Uri(e) => Some(e),
            BuildErrorKind::InvalidPath(_) | BuildErrorKind::NotConfigured(_) => None,
        }
    }
}

/// A transport failure during one operation.
#[derive(Debug)]
pub struct TransportFailure {
    operation: &'static str,
    method: Method,
    /// Boxed: an error passes through every result, and the transport's is not.
    attempts: Box<Attempts>,
    error: TransportError,
}

impl TransportFailure {
    /// A failure of `operation` (sent with `method`): for drivers that call the transport
    /// themselves, such as a retrying client.
    pub fn new(operation: &'static str, method: Method, error: TransportError) -> Self {
        TransportFailure { operation, method, attempts: Box::default(), error }
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

/// Says the operation, the kind of failure and its cause in one line (`get_service: the
/// connection failed: peer disconnected (after 4 attempts)`), the cause bounded and without
/// user info; the [`source`](StdError::source) is what lies below that cause.
impl fmt::Display for TransportFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {}", self.operation, self.error)?;
        if let Some(cause) = self.error.source() {
            let cause = cause.to_string();
            let cause = crate::redact::without_userinfo(&cause);
            write!(f, ": {}", crate::redact::truncate(&cause, TRANSPORT_CAUSE_SHOWN))?;
        }
        write_attempts(f, &self.attempts)?;
        if self.outcome_unknown() {
            f.write_str(OUTCOME_UNKNOWN)?;
        }
        Ok(())
    }
}

/// What lies below the cause the one line already shows, so that a report prints nothing twice;
/// the transport's own error is [`TransportFailure::error`], its cause that error's source.
impl StdError for TransportFailure {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.error.source().and_then(StdError::source)
    }
}

/// The most of a transport's own error a failure's one line shows.
const TRANSPORT_CAUSE_SHOWN: usize = 200;

const OUTCOME_UNKNOWN: &str = "; the outcome is unknown: the server may have carried out the request, which is \
     never re-sent automatically; list before creating again";

fn write_attempts(f: &mut fmt::Formatter<'_>, attempts: &Attempts) -> fmt::Result {
    write!(f, "{attempts}")
}

/// The server answered with a status other than 2xx (3xx included: redirects are never
/// followed, so that credentials never travel to another host).
///
/// Whatever the server sends, it stays small: the texts it keeps are cut to a few hundred
/// bytes, the body to its first [`BODY_KEPT`] bytes, and `Display` and `Debug` stay under a
/// few KiB.
#[derive(Clone)]
pub struct ApiError {
    operation: &'static str,
    method: Method,
    status: StatusCode,
    attempts: Attempts,
    request_id: Option<String>,
    code: Option<String>,
    message: Option<String>,
    hints: RetryHints,
    location: Option<String>,
    body: KeptBody,
    body_is_json: bool,
}

/// The longest request id an error keeps.
const REQUEST_ID_MAX: usize = 128;
/// The longest error code an error keeps.
const CODE_MAX: usize = 64;
/// The longest server message an error keeps.
const MESSAGE_MAX: usize = 1024;
/// The longest redirect location an error keeps.
const LOCATION_MAX: usize = 256;

impl ApiError {
    /// Reads an error response: the management shape `{status, error: "CODE: text",
    /// requestId}` (each part optional), the alerting shape `{message}`, a JSON array of
    /// validation issues, or any non-JSON body (kept raw). Only those fields are read; the
    /// rest of the body is skipped, never held as a tree. Every text kept (the body's fields,
    /// `x-request-id`, `Location`, the body's kept bytes and preview) is scrubbed of what the
    /// call sent (`secrets`) before it is cut or kept.
    pub(crate) fn from_response(
        operation: &'static str,
        method: Method,
        status: StatusCode,
        headers: &HeaderMap,
        body: Vec<u8>,
        secrets: &SentSecrets,
    ) -> Self {
        let fields = crate::error_body::parse(&body, secrets);
        let (mut request_id, mut code, mut message) = (None, None, None);
        if let Some(fields) = &fields {
            request_id = fields.request_id.clone();
            (code, message) = split_error_text(fields.text.as_deref());
            code = code.or_else(|| fields.code.clone());
            message = message.or_else(|| fields.issues.clone());
        }
        let header_text = |name: &str| headers.get(name).and_then(|v| v.to_str().ok());
        let request_id =
            request_id.as_deref().or_else(|| header_text("x-request-id")).map(|id| secrets.kept(id, REQUEST_ID_MAX));
        let location = status
            .is_redirection()
            .then(|| header_text("location"))
            .flatten()
            .map(|url| secrets.kept(&crate::redact::without_userinfo(url), LOCATION_MAX));
        ApiError {
            operation,
            method,
            status,
            attempts: Attempts::default(),
            request_id,
            code: code.map(|c| cut(&c, CODE_MAX)),
            message: message.map(|m| cut(&m, MESSAGE_MAX)),
            hints: RetryHints::from_headers(headers),
            location,
            body_is_json: fields.is_some(),
            body: KeptBody::new(body, secrets),
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

    /// The server's `requestId` (from the body, else the `X-Request-Id` header), cut to 128
    /// bytes.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// The upper-case error code (`NOT_FOUND`, `FAILED_DEPENDENCY`, ...), when the body has one.
    pub fn code(&self) -> Option<&str> {
        self.code.as_deref()
    }

    /// The server's message, without the code, cut to 1 KiB.
    pub fn message(&self) -> Option<&str> {
        self.message.as_deref()
    }

    /// The server's retry hints (`Retry-After`, `X-RateLimit-Reset`, `RateLimit-Reset`).
    pub fn retry_hints(&self) -> &RetryHints {
        &self.hints
    }

    /// Where a 3xx pointed (not followed), without any user info, cut to 256 bytes.
    pub fn location(&self) -> Option<&str> {
        self.location.as_deref()
    }

    /// The body's first [`BODY_KEPT`] bytes (all of it when it is no longer).
    pub fn body(&self) -> &[u8] {
        &self.body.bytes
    }

    /// The body's full length in bytes, of which [`ApiError::body`] holds the first
    /// [`BODY_KEPT`].
    pub fn body_len(&self) -> usize {
        self.body.len
    }

    /// The kept body as text, when it is not JSON (the plain-text 401, an HTML 502).
    pub fn raw_text(&self) -> Option<Cow<'_, str>> {
        (!self.body_is_json && !self.body.bytes.is_empty()).then(|| String::from_utf8_lossy(&self.body.bytes))
    }

    /// Whether the server may have carried out a non-idempotent request (a gateway 502, 503
    /// or 504 answered instead of the service).
    pub fn outcome_unknown(&self) -> bool {
        !crate::retry::is_idempotent(&self.method) && matches!(self.status.as_u16(), 502..=504)
    }

    /// How many attempts were made.
    pub fn attempts(&self) -> u32 {
        self.attempts.count()
    }
}

/// [`crate::redact::truncate`], owned.
fn cut(text: &str, max: usize) -> String {
    crate::redact::truncate(text, max).into_owned()
}

/// How much of a body an [`ApiError`] or a [`DecodeError`] keeps: its first 64 KiB.
pub const BODY_KEPT: usize = 64 * 1024;

/// The part of a body an error keeps, its full length, and its preview, made once.
#[derive(Clone)]
struct KeptBody {
    bytes: Vec<u8>,
    len: usize,
    preview: String,
}

impl KeptBody {
    /// Keeps `body`'s first [`BODY_KEPT`] bytes and its preview, scrubbed of `secrets` before
    /// they are cut.
    fn new(mut body: Vec<u8>, secrets: &SentSecrets) -> Self {
        let preview = body_preview(&body, secrets);
        let len = body.len();
        // A form that the cut would split is still found whole.
        body.truncate(BODY_KEPT.saturating_add(secrets.longest()));
        if let Some(scrubbed) = secrets.scrubbed_bytes(&body) {
            body = scrubbed;
        }
        if body.len() > BODY_KEPT {
            body.truncate(BODY_KEPT);
        }
        body.shrink_to_fit();
        KeptBody { bytes: body, len, preview }
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
        if self.code.is_none() && self.message.is_none() && self.body.len > 0 {
            write!(f, "; body: {}", self.body.preview)?;
        }
        write_attempts(f, &self.attempts)?;
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
            .field("attempts", &self.attempts.count())
            .field("location", &self.location)
            .field("body", &self.body.preview)
            .finish()
    }
}

impl StdError for ApiError {}

/// A 2xx response whose body does not decode.
#[derive(Clone)]
pub struct DecodeError {
    operation: &'static str,
    status: StatusCode,
    attempts: Attempts,
    request_id: Option<String>,
    path: String,
    message: String,
    body: KeptBody,
}

impl DecodeError {
    pub(crate) fn new(
        operation: &'static str,
        status: StatusCode,
        request_id: Option<String>,
        path: String,
        message: String,
        body: Vec<u8>,
        secrets: &SentSecrets,
    ) -> Self {
        // The one place a decode failure's text is made safe: serde quotes the value it could
        // not read, which may be a secret, and any text may be huge. (The reader scrubbed every
        // text it read of what the call sent; serde's own words are scrubbed here.)
        let message = secrets.kept(&crate::redact::decode_message(&path, &message), DECODE_MESSAGE_MAX);
        let path = secrets.kept(&path, PATH_MAX);
        let request_id = request_id.map(|id| secrets.kept(&id, REQUEST_ID_MAX));
        DecodeError {
            operation,
            status,
            attempts: Attempts::default(),
            request_id,
            path,
            message,
            body: KeptBody::new(body, secrets),
        }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// The JSON path that failed (`result[3].source.kafka.offset.timestamp`); `.` for the root.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong there: serde's message, with any text quoted from the body shortened
    /// (replaced when the path names a secret), cut to 512 bytes.
    pub fn message(&self) -> &str {
        &self.message
    }

    /// The `requestId`, when the envelope could be read that far.
    pub fn request_id(&self) -> Option<&str> {
        self.request_id.as_deref()
    }

    /// The body's first [`BODY_KEPT`] bytes (all of it when it is no longer).
    pub fn body(&self) -> &[u8] {
        &self.body.bytes
    }

    /// The body's full length in bytes.
    pub fn body_len(&self) -> usize {
        self.body.len
    }
}

/// The longest JSON path a decode error keeps.
const PATH_MAX: usize = 256;

/// The longest message a decode error keeps (what `decode_message` leaves, and room for a
/// `[redacted]` or two).
const DECODE_MESSAGE_MAX: usize = 600;

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
        write!(f, "; body: {}", self.body.preview)
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
            .field("body", &self.body.preview)
            .finish()
    }
}

impl StdError for DecodeError {}

/// The longest body excerpt an error shows, in characters.
const PREVIEW_CHARS: usize = 300;

/// Bodies up to this size are previewed as redacted JSON; longer ones by their first bytes
/// only, so that previewing never reads a whole hostile body into a tree.
const PREVIEW_PARSE_MAX: usize = 16 * 1024;

/// A short, safe excerpt of a body: secret-bearing JSON fields replaced by `[redacted]`,
/// truncated to a few hundred characters with the full size given, and scrubbed of what the
/// call sent (`secrets`) before it is cut. Made once, when the error is.
fn body_preview(body: &[u8], secrets: &SentSecrets) -> String {
    if body.is_empty() {
        return "(empty)".to_owned();
    }
    // Read by the one budgeted reader, as every response body is (which scrubs its texts).
    let json = (body.len() <= PREVIEW_PARSE_MAX).then(|| crate::decode::scrubbed_json_value(body, secrets)).flatten();
    let mut text = match json {
        Some(mut value) => {
            crate::redact::redact_json(&mut value);
            value.to_string()
        }
        None => {
            // A character is at most four bytes: this prefix holds every character shown, and
            // every form that starts among them.
            let head = &body[..body.len().min(PREVIEW_CHARS * 4 + secrets.longest())];
            let head = String::from_utf8_lossy(head);
            let head = secrets.scrubbed(&head).map_or(head, Cow::Owned);
            let head: String = head.chars().take(PREVIEW_CHARS + 1).collect();
            crate::redact::redact_text(&head)
        }
    };
    secrets.scrub(&mut text);
    let mut preview: String = text.chars().take(PREVIEW_CHARS).collect();
    if preview.len() < text.len() || body.len() > PREVIEW_CHARS * 4 {
        preview.push_str(&format!("… ({} bytes in all)", body.len()));
    }
    preview
}

/// A call ended before an attempt because the attempt could not have finished before the
/// deadline. Nothing (more) was sent: safe to try again later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotSent {
    operation: &'static str,
    waited: Duration,
    deadline: Duration,
}

impl NotSent {
    pub(crate) fn new(operation: &'static str, waited: Duration, deadline: Duration) -> Self {
        NotSent { operation, waited, deadline }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// How long after the call's start the attempt could have started (pacing or a server's
    /// hint made it wait).
    pub fn waited(&self) -> Duration {
        self.waited
    }
}

impl fmt::Display for NotSent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: deadline reached before sending: the request could start only {:.1} s into a {:.1} s deadline, \
             too late to finish; nothing was sent",
            self.operation,
            self.waited.as_secs_f64(),
            self.deadline.as_secs_f64()
        )
    }
}

impl StdError for NotSent {}
