//! Sans-IO requests and responses for the pipe management interface (`/v1`) and the alerting
//! interface (`/api/v2`): an operation becomes an `http::Request<Vec<u8>>`, and an
//! `http::Response<Vec<u8>>` becomes a typed result or a typed error. No IO, no sleeping, no
//! clock: bring any HTTP client.
//!
//! ```
//! use pipe_api_proto::types::{OrganizationId, ServiceId};
//! use pipe_api_proto::{BaseUrl, EndpointExt, ListPipes, Management, ManagementCredentials, http};
//!
//! let api = Management::new(
//!     BaseUrl::parse("https://api.example.com")?,
//!     ManagementCredentials::new("key-id", "key-secret")?,
//! );
//! let org: OrganizationId = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?;
//! let service: ServiceId = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?;
//! let list = ListPipes::new(org, service);
//!
//! // 1. Build the request.
//! let request = list.build_request(&api)?;
//! assert_eq!(request.uri().path(), format!("/v1/organizations/{org}/services/{service}/pipes"));
//!
//! // 2. Send it with your own HTTP client (here: a canned answer).
//! let response = http::Response::builder()
//!     .status(200)
//!     .body(br#"{"status":200,"requestId":"r-1","result":[{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","state":"Running"}]}"#.to_vec())?;
//!
//! // 3. Parse the response.
//! // Taking `api`, it keeps any credential a server echoes out of an error.
//! let reply = list.parse_response(&api, response)?;
//! assert_eq!(reply.value.len(), 1);
//! assert_eq!(reply.request_id.as_deref(), Some("r-1"));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Or hand [`EndpointExt::send`] any [`Transport`] (a closure is one) to do all three.
//!
//! # Where things live
//! * [`Endpoint`]: what is particular to an operation; one file per resource in `endpoints`.
//!   Every operation, with its method, path and endpoint type: [`operations`].
//! * [`EndpointExt`]: the shared work (headers, auth, envelope, status routing, errors).
//! * [`Raw`]: the escape hatch for operations not modelled yet.
//! * [`call`], [`wait`], [`pages`]: a call's whole policy, waiting and paging as state machines.
//! * [`retry`]: retry and rate-limit decisions as pure functions.
//! * [`reliability`]: what a call promises, what is retried, the timeouts, limits and measured
//!   bounds, pacing, secrets, fuzzing.
//! * [`render_request`]: a stable text rendering of a request for snapshot tests.
//! * `test_util` (feature `test-util`): transports for users' own tests.
//!
//! # Retries, pacing and the deadline with your own client
//!
//! [`call::Call`] carries one operation's whole policy (pacing, server hints, the 429 back-off,
//! the deadline, never re-sending a `POST` or `PATCH` that may have reached the server) as a
//! state machine with no IO and no clock: your loop sends, sleeps and tells it the time.
//!
//! ```
//! use std::time::{Duration, Instant};
//! use pipe_api_proto::call::{Call, Step};
//! use pipe_api_proto::retry::RetryPolicy;
//! use pipe_api_proto::{BaseUrl, GetService, Management, ManagementCredentials, TransportError, http, time};
//! # // Stands in for your HTTP client: the service as the server would answer.
//! # fn my_http_client_send(_: http::Request<Vec<u8>>, _: Duration) -> Result<http::Response<Vec<u8>>, TransportError> {
//! #     Ok(http::Response::new(br#"{"status":200,"result":{"id":"4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002","name":"analytics"}}"#.to_vec()))
//! # }
//! # let (org, service) = ("6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?, "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?);
//!
//! let api = Management::new(BaseUrl::parse("https://api.example.com")?, ManagementCredentials::new("key-id", "key-secret")?);
//! let operation = GetService::new(org, service);
//! let origin = Instant::now();
//! let mut call = Call::new(&operation, &api, &RetryPolicy::default(), 42, origin.elapsed())?;
//! let service = loop {
//!     match call.next(origin.elapsed(), None) {
//!         Step::Send { request, timeout } => {
//!             let outcome = my_http_client_send(request, timeout);
//!             call.receive(outcome, origin.elapsed(), time::OffsetDateTime::now_utc(), None);
//!         }
//!         Step::Wait { until } => std::thread::sleep(until.saturating_sub(origin.elapsed())),
//!         Step::Done(result) => break result?,
//!     }
//! };
//! println!("{:?}", service.value.name);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Pass a shared [`Pacer`](retry::Pacer) (`Some(&mut pacer)`, locked only for the call to
//! `next` or `receive`) to keep every call of one key under the rate limit.
//!
//! [`Call`](call::Call), the waiter [`wait::Wait`] and the alert pager [`pages::Pages`] are all
//! [`call::Machine`]s: the loop above, written once, runs any of them. From async code, await
//! the send and the sleep in that same loop; the workspace's `tests/examples/async_call.rs` does
//! it on tokio's current-thread runtime (a dev-dependency of the tests only; nothing async is in
//! the library).

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod api;
pub mod attempts;
mod auth;
mod budget;
pub mod call;
mod decode;
mod endpoint;
mod error;
mod operation;
pub mod operations;
pub mod pages;
mod raw;
mod redact;
pub mod reliability;
pub mod retry;
mod server_text;
mod snapshot;
#[cfg(feature = "test-util")]
pub mod test_util;
mod transport;
mod url;
pub mod wait;
mod words;

pub use api::{Alerting, Api, Management, USER_AGENT_VALUE};
pub use auth::{BearerToken, CredentialsError, ManagementCredentials};
pub use budget::{DECODE_ALLOWANCE, DECODED_BYTES_PER_BODY_BYTE};
pub use decode::{Decode, Decoded, DocumentError, read_json_document};
pub use endpoint::{Endpoint, EndpointExt, Reply};
pub use operations::SuccessBody;
// Every endpoint of the table of operations (and the alert list's limit), and the escape hatch.
pub use error::{
    ApiError, BODY_KEPT, BuildError, BuildErrorKind, DecodeError, ERROR_TEXT_MAX, Error, TransportError,
    TransportErrorKind, TransportFailure,
};
pub use operations::endpoints::*;
/// The alert list's output, a model of `pipe_api_types`, re-exported beside its endpoint.
pub use pipe_api_types::AlertPage;
pub use raw::Raw;
pub use redact::{REDACTED, is_secret_field};
pub use snapshot::{redacted_json, render_request};
pub use transport::{Transport, socket_timeout_within};
pub use url::{BaseUrl, BaseUrlError, PathBuilder};

/// The models, re-exported so one dependency is enough.
pub use pipe_api_types as types;

/// The `http` crate, whose `Request` and `Response` a transport handles.
pub use http;
/// The `time` crate, whose `OffsetDateTime` a driver passes to [`Call::receive`](call::Call::receive).
pub use time;

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
