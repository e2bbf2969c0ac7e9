//! Shared set-up of the proto tests: the two interfaces, fixed ids, and responses.
#![allow(dead_code)]

use http::Response;
use pipe_api_proto::{Alerting, BaseUrl, BearerToken, Management, ManagementCredentials};
use pipe_api_types::{OrganizationId, PipeId, ServiceId};

pub const ORG: &str = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";
pub const SERVICE: &str = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002";
pub const PIPE: &str = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e";

pub fn org() -> OrganizationId {
    ORG.parse().unwrap()
}

pub fn service() -> ServiceId {
    SERVICE.parse().unwrap()
}

pub fn pipe() -> PipeId {
    PIPE.parse().unwrap()
}

pub fn management() -> Management {
    Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new("kZ3pQ8wV1xY2", "s3cr3t-v4lue").unwrap(),
    )
}

pub fn alerting() -> Alerting {
    Alerting::new(
        BaseUrl::parse("https://alerts.example.com").unwrap(),
        BearerToken::new("0c4e9a7e-7f51-4a8c-b0a5-9b3d2e1f0a11").unwrap(),
    )
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
