//! The requests the fake received, for tests to assert on (how many, and what they carried).

use std::fmt;

use http::{HeaderMap, Method};

/// One request the fake received, faulted or not, in arrival order.
#[derive(Clone)]
#[non_exhaustive]
pub struct SeenRequest {
    /// The method.
    pub method: Method,
    /// The path, without the query.
    pub path: String,
    /// The query string, if any.
    pub query: Option<String>,
    /// Every header as received.
    pub headers: HeaderMap,
    /// The body as received.
    pub body: Vec<u8>,
}

impl SeenRequest {
    /// The value of a header, if present and text.
    pub fn header(&self, name: &str) -> Option<&str> {
        self.headers.get(name).and_then(|value| value.to_str().ok())
    }

    /// The body as JSON, if it is JSON.
    pub fn json(&self) -> Option<serde_json::Value> {
        serde_json::from_slice(&self.body).ok()
    }
}

/// Shows the request without its credentials or body: a `Debug` of test state must not leak what
/// the client sent as secrets.
impl fmt::Debug for SeenRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let headers: Vec<&str> = self.headers.keys().map(|name| name.as_str()).collect();
        f.debug_struct("SeenRequest")
            .field("method", &self.method)
            .field("path", &self.path)
            .field("query", &self.query)
            .field("header_names", &headers)
            .field("body_len", &self.body.len())
            .finish()
    }
}
