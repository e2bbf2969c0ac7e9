//! Shared set-up of the proto tests: the two interfaces, fixed ids, and responses.
#![allow(dead_code)]

use http::Response;
use pipe_api_proto::Management;
// The sample ids and interfaces have one home, the `test-util` feature's.
pub use crate::every_operation::{ORG, PIPE, SERVICE, alerting, management};
use pipe_api_types::{OrganizationId, PipeId, ServiceId};

pub fn org() -> OrganizationId {
    ORG.parse().unwrap()
}

pub fn service() -> ServiceId {
    SERVICE.parse().unwrap()
}

pub fn pipe() -> PipeId {
    PIPE.parse().unwrap()
}

pub fn response(status: u16, body: &[u8]) -> Response<Vec<u8>> {
    Response::builder().status(status).body(body.to_vec()).unwrap()
}

pub fn response_with(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Response<Vec<u8>> {
    let mut builder = Response::builder().status(status);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(body.to_vec()).unwrap()
}

/// The API error of parsing a `status` answer with `body` with a management `endpoint`; panics
/// on anything else.
pub fn api_error<E: pipe_api_proto::EndpointExt<Api = Management>>(
    endpoint: &E,
    status: u16,
    body: &[u8],
) -> Box<pipe_api_proto::ApiError> {
    match endpoint.parse_response(&management(), response(status, body)) {
        Err(pipe_api_proto::Error::Api(error)) => error,
        Err(other) => panic!("expected an API error, got {other}"),
        Ok(_) => panic!("expected an API error, got a success"),
    }
}
