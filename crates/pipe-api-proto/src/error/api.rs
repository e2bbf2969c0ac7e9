//! A non-2xx answer, read once from the response.

use std::borrow::Cow;
use std::error::Error as StdError;
use std::fmt;

use http::{HeaderMap, Method, StatusCode};

use super::kept::{KeptBody, REQUEST_ID_MAX};
use super::{OUTCOME_UNKNOWN, write_attempts};
use crate::attempts::Attempts;
use crate::redact::SentSecrets;
use crate::retry::RetryHints;

/// The server answered with a status other than 2xx (3xx included: redirects are never
/// followed, so that credentials never travel to another host).
///
/// Whatever the server sends, it stays small: the texts it keeps are cut to a few hundred
/// bytes, the body to its first [`BODY_KEPT`](super::BODY_KEPT) bytes, and `Display` and `Debug` stay under a
/// few KiB.
#[derive(Clone)]
pub struct ApiError {
    pub(super) operation: &'static str,
    method: Method,
    pub(super) status: StatusCode,
    pub(super) attempts: Attempts,
    request_id: Option<String>,
    code: Option<String>,
    message: Option<String>,
    pub(super) hints: RetryHints,
    location: Option<String>,
    body: KeptBody,
    body_is_json: bool,
}

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
        let fields = super::body::parse(&body, secrets);
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

    /// The body's first [`BODY_KEPT`](super::BODY_KEPT) bytes (all of it when it is no longer).
    pub fn body(&self) -> &[u8] {
        &self.body.bytes
    }

    /// The body's full length in bytes, of which [`ApiError::body`] holds the first
    /// [`BODY_KEPT`](super::BODY_KEPT).
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
