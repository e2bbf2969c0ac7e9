//! A transport failure during one operation (the transport's own error is
//! [`TransportError`], in `crate::transport`).

use std::error::Error as StdError;
use std::fmt;

use http::Method;

use super::{OUTCOME_UNKNOWN, write_attempts};
use crate::attempts::Attempts;
use crate::transport::TransportError;

/// A transport failure during one operation.
#[derive(Debug)]
pub struct TransportFailure {
    pub(super) operation: &'static str,
    method: Method,
    /// Boxed: an error passes through every result, and the transport's is not.
    pub(super) attempts: Box<Attempts>,
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
