//! The shapes of the fake's answers, each written once: the management envelope and its error
//! body, the alerting interface's bodies, and the plain-text 401 both services send.

use http::{Method, Response, StatusCode, header};
use serde::Serialize;

/// An answer of the fake.
pub(crate) type Answer = Response<Vec<u8>>;

/// A JSON answer.
pub(crate) fn json(status: u16, value: &impl Serialize) -> Answer {
    // The fake's own models always serialize; an error here is a bug in the fake.
    let body = serde_json::to_vec(value).expect("the fake's answers serialize");
    with_body(status, "application/json", body)
}

/// An answer with a status and a body, nothing else; a status outside 100..=999 becomes 500.
pub(crate) fn with_status(status: u16, body: Vec<u8>) -> Answer {
    let mut answer = Response::new(body);
    *answer.status_mut() = StatusCode::from_u16(status).unwrap_or(StatusCode::INTERNAL_SERVER_ERROR);
    answer
}

/// A text answer with a content type.
pub(crate) fn with_body(status: u16, content_type: &str, body: Vec<u8>) -> Answer {
    let mut answer = with_status(status, body);
    if let Ok(value) = content_type.parse() {
        answer.headers_mut().insert(header::CONTENT_TYPE, value);
    }
    answer
}

/// The plain-text 401 of both services.
pub(crate) fn unauthorized() -> Answer {
    with_body(401, "text/plain", b"Unauthorized".to_vec())
}

/// `{"status": 200, "requestId": ..., "result": ...}`.
pub(crate) fn management_ok(request_id: &str, result: &impl Serialize) -> Answer {
    #[derive(Serialize)]
    #[serde(rename_all = "camelCase")]
    struct Envelope<'a, T> {
        status: u16,
        request_id: &'a str,
        result: &'a T,
    }
    json(200, &Envelope { status: 200, request_id, result })
}

/// `{"status": 200, "requestId": ...}` with no `result`: what a delete answers.
pub(crate) fn management_ok_without_result(request_id: &str) -> Answer {
    json(200, &serde_json::json!({ "status": 200, "requestId": request_id }))
}

/// Why the management interface refused a call.
#[derive(Debug)]
pub(crate) enum Refusal {
    /// Wrong or missing credentials.
    Unauthorized,
    /// `{"status", "error": "<CODE>: <text>", "requestId"}`.
    Error { status: u16, code: &'static str, text: String },
}

impl Refusal {
    pub fn bad_request(text: impl Into<String>) -> Refusal {
        Refusal::Error { status: 400, code: "BAD_REQUEST", text: text.into() }
    }

    pub fn forbidden(text: impl Into<String>) -> Refusal {
        Refusal::Error { status: 403, code: "FORBIDDEN", text: text.into() }
    }

    /// The real service names the missing id and nothing else.
    pub fn not_found(id: impl ToString) -> Refusal {
        Refusal::Error { status: 404, code: "NOT_FOUND", text: id.to_string() }
    }

    /// An operation this fake does not serve: a 404 whose code is not the real service's
    /// `NOT_FOUND`, so a test cannot mistake it for a missing resource.
    pub fn not_modelled(method: &Method, path: &str) -> Refusal {
        Refusal::Error {
            status: 404,
            code: NOT_MODELLED,
            text: format!("{method} {path} is not an operation of this fake"),
        }
    }

    pub fn failed_dependency(text: impl Into<String>) -> Refusal {
        Refusal::Error { status: 424, code: "FAILED_DEPENDENCY", text: text.into() }
    }

    pub fn into_answer(self, request_id: &str) -> Answer {
        match self {
            Refusal::Unauthorized => unauthorized(),
            Refusal::Error { status, code, text } => json(
                status,
                &serde_json::json!({ "status": status, "error": format!("{code}: {text}"), "requestId": request_id }),
            ),
        }
    }
}

/// The error code of an operation the fake does not serve, on both interfaces.
pub(crate) const NOT_MODELLED: &str = "NOT_MODELLED_BY_FAKE";

/// The alerting interface's answer to an operation the fake does not serve (see
/// [`Refusal::not_modelled`]).
pub(crate) fn not_modelled(method: &Method, path: &str) -> Answer {
    alerting_error(404, &format!("{NOT_MODELLED}: {method} {path} is not an operation of this fake"))
}

/// `{"message": ...}`, the newer alerting servers' error body.
pub(crate) fn alerting_error(status: u16, message: &str) -> Answer {
    json(status, &serde_json::json!({ "message": message }))
}
