//! A 2xx answer whose body does not decode.

use std::error::Error as StdError;
use std::fmt;

use http::StatusCode;

use super::kept::{KeptBody, REQUEST_ID_MAX};
use crate::attempts::Attempts;
use crate::redact::SentSecrets;

/// A 2xx response whose body does not decode.
#[derive(Clone)]
pub struct DecodeError {
    pub(super) operation: &'static str,
    pub(super) status: StatusCode,
    pub(super) attempts: Attempts,
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

    /// The body's first [`BODY_KEPT`](super::BODY_KEPT) bytes (all of it when it is no longer).
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
