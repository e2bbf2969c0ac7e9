//! Every way a call can fail: [`Error`], and one file for each of its kinds. `api` is the one
//! place that reads an error response (with `body`, which reads its few fields).

use std::error::Error as StdError;
use std::fmt;

use http::StatusCode;
use pipe_api_types::ValidationErrors;

use crate::attempts::Attempts;

mod api;
pub(crate) mod body;
mod build;
mod decode;
mod kept;
mod not_sent;
mod transport;

pub use crate::transport::{TransportError, TransportErrorKind};
pub use api::ApiError;
pub use build::{BuildError, BuildErrorKind};
pub use decode::DecodeError;
pub use kept::BODY_KEPT;
pub use not_sent::NotSent;
pub use transport::TransportFailure;

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

/// What an error adds when a request that changes something may have been carried out.
const OUTCOME_UNKNOWN: &str = "; the outcome is unknown: the server may have carried out the request, which is \
     never re-sent automatically; list before creating again";

/// The attempts behind an error, at the end of its line.
fn write_attempts(f: &mut fmt::Formatter<'_>, attempts: &Attempts) -> fmt::Result {
    attempts.write_suffix(f)
}
