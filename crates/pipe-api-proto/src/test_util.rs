//! Transports for users' own tests (feature `test-util`): [`ExpectTransport`] asserts each
//! expected request and answers a canned response; [`RecordingTransport`] records every
//! request and replays a sequence of responses.

use std::collections::VecDeque;

use http::{Method, Request, Response, StatusCode};

use crate::error::{TransportError, TransportErrorKind};
use crate::transport::Transport;

/// A response with `status` and `body`, `Content-Type: application/json` when the body is JSON.
pub fn response(status: u16, body: impl Into<Vec<u8>>) -> Response<Vec<u8>> {
    let body = body.into();
    let mut builder = Response::builder().status(StatusCode::from_u16(status).unwrap_or(StatusCode::OK));
    if serde_json::from_slice::<serde::de::IgnoredAny>(&body).is_ok() {
        builder = builder.header(http::header::CONTENT_TYPE, "application/json");
    }
    builder.body(body).unwrap_or_default()
}

/// A response with `status`, these headers and `body`, nothing added: a header value that is
/// none (a test's random bytes) is left out.
pub fn response_with<V: AsRef<str>>(status: u16, headers: &[(&str, V)], body: impl Into<Vec<u8>>) -> Response<Vec<u8>> {
    let mut builder = Response::builder().status(StatusCode::from_u16(status).unwrap_or(StatusCode::OK));
    for (name, value) in headers {
        if let Ok(value) = http::HeaderValue::from_str(value.as_ref()) {
            builder = builder.header(*name, value);
        }
    }
    builder.body(body.into()).unwrap_or_default()
}

/// A management success body: `{"status": 200, "requestId": ..., "result": result}`.
pub fn management_envelope(result: serde_json::Value) -> Vec<u8> {
    let body = serde_json::json!({
        "status": 200,
        "requestId": "00000000-0000-4000-8000-000000000000",
        "result": result,
    });
    body.to_string().into_bytes()
}

/// One expected request and the response to answer it with.
#[derive(Debug)]
pub struct Expectation {
    method: Method,
    path: String,
    query: Option<Vec<(String, String)>>,
    body: Option<serde_json::Value>,
    response: Response<Vec<u8>>,
}

impl Expectation {
    /// Expects `method` on the URI path `path` (as sent, base URL prefix included), answered
    /// by an empty 200 until [`respond`](Expectation::respond) says otherwise.
    pub fn new(method: Method, path: impl Into<String>) -> Self {
        Expectation { method, path: path.into(), query: None, body: None, response: response(200, Vec::new()) }
    }

    /// Expects exactly these query parameters (decoded), in this order.
    pub fn query(mut self, pairs: &[(&str, &str)]) -> Self {
        self.query = Some(pairs.iter().map(|(k, v)| ((*k).to_owned(), (*v).to_owned())).collect());
        self
    }

    /// Expects this JSON body (compared as JSON values, so key order does not matter).
    pub fn json_body(mut self, body: serde_json::Value) -> Self {
        self.body = Some(body);
        self
    }

    /// Answers with `status` and `body`.
    pub fn respond(mut self, status: u16, body: impl Into<Vec<u8>>) -> Self {
        self.response = response(status, body);
        self
    }

    /// Answers with this response.
    pub fn respond_with(mut self, response: Response<Vec<u8>>) -> Self {
        self.response = response;
        self
    }

    fn check(self, request: &Request<Vec<u8>>, index: usize) -> Response<Vec<u8>> {
        let seen = format!("{} {}", request.method(), request.uri());
        assert_eq!(request.method(), self.method, "request #{index} ({seen}): method");
        assert_eq!(request.uri().path(), self.path, "request #{index} ({seen}): path");
        if let Some(expected) = &self.query {
            let actual = decode_query(request.uri().query().unwrap_or(""));
            assert_eq!(&actual, expected, "request #{index} ({seen}): query");
        }
        match &self.body {
            Some(expected) => {
                let actual: serde_json::Value = serde_json::from_slice(request.body())
                    .unwrap_or_else(|e| panic!("request #{index} ({seen}): the body is not JSON: {e}"));
                assert_eq!(&actual, expected, "request #{index} ({seen}): body");
            }
            None => assert!(request.body().is_empty(), "request #{index} ({seen}): expected no body"),
        }
        self.response
    }
}

/// Splits and decodes a query string into pairs.
pub fn decode_query(query: &str) -> Vec<(String, String)> {
    query
        .split('&')
        .filter(|pair| !pair.is_empty())
        .map(|pair| {
            let (name, value) = pair.split_once('=').unwrap_or((pair, ""));
            let decode = |s: &str| {
                percent_encoding::percent_decode_str(s)
                    .decode_utf8()
                    .map_or_else(|_| s.to_owned(), std::borrow::Cow::into_owned)
            };
            (decode(name), decode(value))
        })
        .collect()
}

/// Answers each request with the next [`Expectation`]'s response after asserting that the
/// request is the expected one; panics on an unexpected request, and when dropped with
/// expectations left (unless already panicking).
#[derive(Debug, Default)]
pub struct ExpectTransport {
    /// The expectations left, and how many requests came.
    state: std::sync::Mutex<(VecDeque<Expectation>, usize)>,
}

impl ExpectTransport {
    /// No expectations yet.
    pub fn new() -> Self {
        ExpectTransport::default()
    }

    /// Adds an expectation after the others.
    pub fn expect(self, expectation: Expectation) -> Self {
        self.state().0.push_back(expectation);
        self
    }

    /// How many expected requests have not come yet.
    pub fn remaining(&self) -> usize {
        self.state().0.len()
    }

    fn state(&self) -> std::sync::MutexGuard<'_, (VecDeque<Expectation>, usize)> {
        self.state.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Transport for ExpectTransport {
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        let (expectation, seen) = {
            let mut state = self.state();
            state.1 += 1;
            (state.0.pop_front(), state.1)
        };
        let Some(expectation) = expectation else {
            panic!("unexpected request #{seen}: {} {}", request.method(), request.uri());
        };
        Ok(expectation.check(&request, seen))
    }
}

impl Drop for ExpectTransport {
    fn drop(&mut self) {
        let state = self.state();
        if !std::thread::panicking() && !state.0.is_empty() {
            let left: Vec<String> = state.0.iter().map(|e| format!("{} {}", e.method, e.path)).collect();
            panic!("{} expected request(s) never came: {}", left.len(), left.join(", "));
        }
    }
}

/// Records every request and answers with the queued responses in order; once they run out,
/// every request fails with a transport error. A clone is a handle on the same recording, so a
/// test can keep one while a client owns another:
///
/// ```
/// use pipe_api_proto::test_util::{RecordingTransport, response};
///
/// let recording = RecordingTransport::new().respond(response(200, r#"{"status":200,"result":[]}"#));
/// let transport = recording.clone(); // what the client would own
/// # use pipe_api_proto::Transport as _;
/// # transport.send(pipe_api_proto::http::Request::new(Vec::new()))?;
/// assert_eq!(recording.requests().len(), 1);
/// # Ok::<(), pipe_api_proto::TransportError>(())
/// ```
#[derive(Clone, Debug, Default)]
pub struct RecordingTransport {
    shared: std::sync::Arc<std::sync::Mutex<Recording>>,
}

#[derive(Debug, Default)]
struct Recording {
    replies: VecDeque<Result<Response<Vec<u8>>, TransportError>>,
    requests: Vec<Request<Vec<u8>>>,
}

impl RecordingTransport {
    /// No responses queued.
    pub fn new() -> Self {
        RecordingTransport::default()
    }

    /// Queues a response.
    pub fn respond(self, response: Response<Vec<u8>>) -> Self {
        self.recording().replies.push_back(Ok(response));
        self
    }

    /// Queues a transport failure.
    pub fn fail(self, error: TransportError) -> Self {
        self.recording().replies.push_back(Err(error));
        self
    }

    /// Every request received so far, in order (by any clone).
    pub fn requests(&self) -> Vec<Request<Vec<u8>>> {
        self.recording().requests.clone()
    }

    fn recording(&self) -> std::sync::MutexGuard<'_, Recording> {
        self.shared.lock().unwrap_or_else(std::sync::PoisonError::into_inner)
    }
}

impl Transport for RecordingTransport {
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        let mut recording = self.recording();
        recording.requests.push(request);
        recording.replies.pop_front().unwrap_or_else(|| {
            Err(TransportError::new(TransportErrorKind::Other, "RecordingTransport has no more responses queued"))
        })
    }
}
