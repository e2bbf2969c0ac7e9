//! The seam users plug their HTTP client into.

use std::time::Duration;

use http::{Request, Response};

use std::error::Error as StdError;
use std::fmt;

/// The socket timeout to ask for so that an exchange ends within `timeout`: eight ninths of it.
/// Linux fires a socket timeout of `t` up to `t / 8` late (its timer wheel keeps longer timers
/// coarser: a read with a 10 s timeout was measured returning after 10.24 s, a call with a 60 s
/// deadline ending after 61.9 s), so even the latest firing of what this asks for is within
/// `timeout`.
///
/// ```
/// use std::time::Duration;
/// let asked = pipe_api_proto::socket_timeout_within(Duration::from_secs(9));
/// assert_eq!(asked, Duration::from_secs(8));
/// assert!(asked + asked / 8 <= Duration::from_secs(9));
/// ```
pub fn socket_timeout_within(timeout: Duration) -> Duration {
    // In whole nanoseconds, rounded down, so that the bound holds exactly.
    timeout.checked_mul(8).map_or_else(|| timeout / 9 * 8, |eight| eight / 9)
}

/// Sends one request and brings back its whole response, or says how it failed. Any HTTP
/// client can be one; a closure `Fn(Request<Vec<u8>>) -> Result<Response<Vec<u8>>,
/// TransportError>` is one. It takes `&self`, as oauth2-rs's does, so that one transport
/// serves every thread of a shared client at once (keep mutable state behind a lock or an
/// atomic).
///
/// A transport must not follow redirects (credentials must never go to another host) and
/// should report a failure before the request left as [`TransportErrorKind::Connect`]
/// (safe to retry for every method), a request it will not send at all (its own configuration
/// forbids it) as [`TransportErrorKind::Refused`] (never retried), and every other failure as a
/// kind that may have reached the server.
///
/// [`TransportErrorKind::Connect`]: crate::TransportErrorKind::Connect
/// [`TransportErrorKind::Refused`]: crate::TransportErrorKind::Refused
pub trait Transport {
    /// Sends `request` and returns the response, whatever its status.
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError>;

    /// Sends `request`, ending the exchange within `timeout` (what is left of a call's
    /// deadline, as [`Step::Send`](crate::call::Next::Send) gives it). A transport that can
    /// bound one exchange overrides this; the default sends with the transport's own timeouts.
    /// A socket read timeout is not exact: a transport that waits on one asks for no more
    /// than [`socket_timeout_within`] of what is left each time it waits (`pipe-api-ureq`'s
    /// waits a second at a time, so that it ends at `timeout`, not a ninth before).
    fn send_within(&self, request: Request<Vec<u8>>, timeout: Duration) -> Result<Response<Vec<u8>>, TransportError> {
        let _ = timeout;
        self.send(request)
    }
}

impl<F> Transport for F
where
    F: Fn(Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError>,
{
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        self(request)
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

impl TransportErrorKind {
    fn describe(self) -> &'static str {
        match self {
            TransportErrorKind::Connect => "could not connect",
            TransportErrorKind::Timeout => "timed out",
            TransportErrorKind::Io => "the connection failed",
            TransportErrorKind::BodyTooLarge => "the response body is over the size limit",
            TransportErrorKind::Other => "the transport failed",
            TransportErrorKind::Refused => "the transport refused to send",
        }
    }
}

/// Says the kind of failure only; the transport's own error is the [`source`](StdError::source).
impl fmt::Display for TransportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.kind.describe())
    }
}

impl StdError for TransportError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        self.source.as_deref().map(|e| e as &(dyn StdError + 'static))
    }
}
