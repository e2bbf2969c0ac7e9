//! Shared set-up of the proto tests: the two interfaces, fixed ids, and responses.
#![allow(dead_code)]

use pipe_api_proto::Management;
// The sample ids, interfaces and answers have one home each: the workspace's helpers and the
// `test-util` feature's.
pub use pipe_api_proto::test_util::{response, response_with};
pub use pipe_api_tests::every_operation::{ORG, PIPE, SERVICE, alerting, management};
pub use pipe_api_tests::fixtures::{fixture, operation_fixture};
pub use pipe_api_tests::{org, pipe, service};

/// The API error of parsing a `status` answer with `body` with a management `endpoint`; panics
/// on anything else.
pub fn api_error<E: pipe_api_proto::EndpointExt<Api = Management>>(
    endpoint: &E,
    status: u16,
    body: impl Into<Vec<u8>>,
) -> Box<pipe_api_proto::ApiError> {
    api_error_of(endpoint, response(status, body))
}

/// The API error of parsing `answer` with a management `endpoint`; panics on anything else.
pub fn api_error_of<E: pipe_api_proto::EndpointExt<Api = Management>>(
    endpoint: &E,
    answer: http::Response<Vec<u8>>,
) -> Box<pipe_api_proto::ApiError> {
    match endpoint.parse_response(&management(), answer) {
        Err(pipe_api_proto::Error::Api(error)) => error,
        Err(other) => panic!("expected an API error, got {other}"),
        Ok(_) => panic!("expected an API error, got a success"),
    }
}
