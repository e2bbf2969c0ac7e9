//! What the fake's tests share: requests sent to [`Fake::handle`] as a key or token, and what
//! its answers hold. Sample ids are the workspace's ([`ORG`], [`SERVICE`]).

use base64::Engine as _;
use http::{Method, Request, Response};
use pipe_api_fake::Fake;
use pipe_api_types::{KeyRole, Service};
use serde_json::Value;

pub use pipe_api_tests::{ORG, PIPE, SERVICE, org, service};

/// The id and secret of the admin key [`with_admin`] seeds.
pub const ADMIN_KEY: (&str, &str) = ("admin-id", "admin-secret");

/// A fake with [`ADMIN_KEY`] in [`ORG`] and a service `svc` ([`SERVICE`]) there.
pub fn fake() -> Fake {
    with_admin(Service::new(service()).name("svc"))
}

/// A fake with [`ADMIN_KEY`] in [`ORG`] and `service` there.
pub fn with_admin(service: Service) -> Fake {
    let fake = Fake::new();
    fake.seed_key(org(), ADMIN_KEY.0, ADMIN_KEY.1, [KeyRole::Admin]);
    fake.seed_service(org(), service);
    fake
}

/// The `Authorization` of a management key.
pub fn basic(id: &str, secret: &str) -> String {
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{id}:{secret}")))
}

/// A request body: text as written (a body that is not JSON included), or JSON; empty or `null`
/// for none.
pub trait Body {
    /// The bytes sent.
    fn bytes(self) -> Vec<u8>;
}

impl Body for &str {
    fn bytes(self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
}

impl Body for &String {
    fn bytes(self) -> Vec<u8> {
        self.as_bytes().to_vec()
    }
}

impl Body for Value {
    fn bytes(self) -> Vec<u8> {
        if self.is_null() { Vec::new() } else { self.to_string().into_bytes() }
    }
}

impl Body for Option<Value> {
    fn bytes(self) -> Vec<u8> {
        self.map(Body::bytes).unwrap_or_default()
    }
}

/// Sends `method path` with `authorization`, if any, and `body` to the fake.
pub fn call(
    fake: &Fake,
    method: Method,
    path: &str,
    authorization: Option<&str>,
    body: impl Body,
) -> Response<Vec<u8>> {
    let mut request = Request::builder().method(method).uri(path);
    if let Some(value) = authorization {
        request = request.header("authorization", value);
    }
    fake.handle(request.body(body.bytes()).unwrap())
}

/// Sends `method path` with `body` as [`ADMIN_KEY`].
pub fn admin(fake: &Fake, method: Method, path: &str, body: impl Body) -> Response<Vec<u8>> {
    call(fake, method, path, Some(&basic(ADMIN_KEY.0, ADMIN_KEY.1)), body)
}

/// The answer's body as text.
pub fn text(response: &Response<Vec<u8>>) -> String {
    String::from_utf8_lossy(response.body()).into_owned()
}

/// The answer's body as JSON; panics showing it when it is not.
pub fn json_of(response: &Response<Vec<u8>>) -> Value {
    serde_json::from_slice(response.body()).unwrap_or_else(|_| panic!("not JSON: {}", text(response)))
}

/// A management success's `result`, after checking its status and envelope.
pub fn ok(response: Response<Vec<u8>>) -> Value {
    let body = json_of(&response);
    assert_eq!(response.status(), 200, "{body}");
    assert_eq!(body["status"], 200);
    body["result"].clone()
}

/// The management error envelope: `status`, the exact `CODE: text` and a request id.
pub fn assert_error(response: &Response<Vec<u8>>, status: u16, error: &str) {
    let body = json_of(response);
    assert_eq!(response.status(), status, "{body}");
    assert_eq!(body["status"], status);
    assert_eq!(body["error"], error);
    assert!(body["requestId"].as_str().is_some_and(|id| id.len() == 36), "{body}");
}
