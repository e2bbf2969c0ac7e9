//! The seam users plug their HTTP client into.

use std::time::Duration;

use http::{Request, Response};

use crate::error::TransportError;

/// Sends one request and brings back its whole response, or says how it failed. Any HTTP
/// client can be one; a closure `FnMut(Request<Vec<u8>>) -> Result<Response<Vec<u8>>,
/// TransportError>` is one.
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
    fn send(&mut self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError>;

    /// Sends `request`, ending the exchange within `timeout` (what is left of a call's
    /// deadline, as [`Step::Send`](crate::call::Next::Send) gives it). A transport that can
    /// bound one exchange overrides this; the default sends with the transport's own timeouts.
    fn send_within(
        &mut self,
        request: Request<Vec<u8>>,
        timeout: Duration,
    ) -> Result<Response<Vec<u8>>, TransportError> {
        let _ = timeout;
        self.send(request)
    }
}

impl<F> Transport for F
where
    F: FnMut(Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError>,
{
    fn send(&mut self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        self(request)
    }
}
