//! A small blocking client for the pipe management and alerting interfaces, on `ureq`.
//! The protocol (requests, responses, errors, retry decisions) is `pipe-api-proto`'s; this
//! crate sends, sleeps between retries, and paces.
//!
//! ```
//! use pipe_api_fake::Fake;
//! use pipe_api_ureq::Client;
//!
//! // The built-in fake of the services, served on 127.0.0.1.
//! let server = Fake::demo().serve()?;
//! let client = Client::management(&server.base_url(), pipe_api_fake::DEMO_KEY_ID, pipe_api_fake::DEMO_KEY_SECRET)?;
//! let pipes = client.list_pipes(pipe_api_fake::DEMO_ORGANIZATION_ID, pipe_api_fake::DEMO_SERVICE_ID)?;
//! assert!(!pipes.is_empty());
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! The README shows the other ways in: proto with your own HTTP client, and the fake in your tests.
//!
//! # Defaults
//!
//! | what | default | set with |
//! |---|---|---|
//! | connect timeout | 10 s | [`ClientBuilder::connect_timeout`] |
//! | one exchange, request to last byte of body | 30 s, or what is left of the retry deadline when nearer; a server that never answers ends it then, within a few milliseconds | [`ClientBuilder::timeout`] |
//! | response body | 16 MiB; a larger body stops being read and is an error | [`ClientBuilder::body_limit`] |
//! | redirects | never followed: a 3xx is an error, so credentials never travel to another host | |
//! | plain `http` | only to loopback ([`BaseUrl::is_loopback`](proto::BaseUrl::is_loopback): `localhost`, 127.0.0.0/8, `::1`); refused when the client is built, and by the transport (never retried) when used on its own | [`ClientBuilder::allow_insecure_http`] |
//! | retries | per [`RetryPolicy::default`]: up to 4 attempts within 60 s, each started only with 5 s left; full-jitter backoff from 250 ms capped at 8 s; server hints honoured up to 30 s; a `POST` or `PATCH` that may have reached the server is never re-sent | [`ClientBuilder::retry_policy`], [`ClientBuilder::no_retries`] |
//! | pacing | off; [`Pacer::management`] keeps a key under 10 requests per 10 s (with a 1 s margin) | [`ClientBuilder::pacing`] |
//!
//! 4xx and 5xx are typed errors, not transport errors. What is retried and why, the deadline,
//! the decode limits and the measured bounds are proto's:
//! [`proto::reliability`].
//!
//! # Waiting for a pipe
//!
//! ```no_run
//! use pipe_api_ureq::{Client, WaitError, WaitPolicy, pipe_running};
//! use pipe_api_ureq::types::PipeCommand;
//! # let (org, service, pipe) = ("6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?, "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?, "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e".parse()?);
//! let client = Client::from_env()?;
//! let service = client.service(org, service); // the ids, once
//! let pipe = service.pipe(pipe);
//! pipe.change_pipe_state(PipeCommand::Start)?;
//! // Polls after 1 s, 1.5 s, ... up to 10 s apart, for at most 10 minutes; wakes an idle service.
//! let policy = service.idle_recovery(WaitPolicy::default());
//! match pipe.wait(pipe_running, policy) {
//!     Ok(pipe) => println!("running: {:?}", pipe.state),
//!     // Says the rule that stopped it, the polls, the time and the last state.
//!     Err(error @ WaitError::Failed { .. }) => eprintln!("{error}"),
//!     Err(error) => return Err(error.into()),
//! }
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Client::wait_for_pipe`], [`Client::wait_for_service`] and
//! [`Client::wait_for_reverse_private_endpoint`] are the same without a scope, and
//! [`Client::wait`] polls any endpoint until any condition holds.
//!
//! # Pipes as code (feature `plan`)
//!
//! With the feature `plan`, the service handle reads what a service has and plans what a
//! desired state asks for (`ServiceScope::plan`), then applies the plan
//! (`ServiceScope::apply`): see the `plan` module (`pipe-api-plan`) and the example
//! `pipes_as_code`. `ServiceScope::export` writes what a service has as a desired state, and
//! `ServiceScope::apply_saved` applies a plan kept as a file only if the service has not
//! changed since. Off by default: a client that only calls the API does not compile it.
//!
//! # Tests that do not sleep
//!
//! Tests of code that retries, paces or waits need not sleep: give the client a
//! [`VirtualClock`] ([`ClientBuilder::clock`]) and the fake as its transport. Every wait the
//! client makes then moves the virtual clock at once, and the fake's manual clock along with
//! it, so a test of a 429 back-off or of a wait that times out after ten minutes runs in
//! microseconds, with the same times on every run (the workspace's
//! `tests/tests/it/virtual_clock.rs`):
//!
//! ```
//! use std::time::Duration;
//! use pipe_api_fake::{Fake, Fault, FaultRule, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID};
//! use pipe_api_ureq::{Client, Clock, VirtualClock};
//!
//! let fake = Fake::demo();
//! let follower = fake.clone();
//! let clock = VirtualClock::new(fake.now()).follow_with(move |step| follower.advance(step));
//! let client = Client::builder()
//!     .management("https://api.example.com", DEMO_KEY_ID, DEMO_KEY_SECRET)
//!     .transport(fake.clone())
//!     .clock(clock.clone())
//!     .build()?;
//! fake.inject(FaultRule::next(1, Fault::rate_limited("20")));
//! client.get_service(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID)?; // waits out the 429's 20 s, virtually
//! assert!(clock.elapsed() >= Duration::from_secs(20));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # Logging and secrets
//!
//! No `Debug`, `Display` or log record shows a credential (the workspace's
//! `tests/tests/it/secret_hygiene.rs` checks them all, at every level; see
//! [`proto::reliability`]), with one exception, in a dependency: at TRACE level,
//! `ureq-proto` hex-dumps the raw bytes it sends, `Authorization` header included. Never enable
//! TRACE logging for `ureq_proto` outside a debugger.
//!
//! # Features
//! * `rustls` (default): TLS with rustls and the webpki roots, through ureq's `rustls`.
//! * `native-tls`: TLS with the platform's library, through ureq's `native-tls` (OpenSSL's
//!   headers on Linux). The agent asks for it when `rustls` is off; with both on, rustls is used.
//! * `gzip` (default): accepts gzip-compressed responses, through ureq's `gzip`.
//! * `platform-verifier`: [`TransportConfig`]'s `with_platform_verifier` (a method only this
//!   feature adds) verifies servers with the platform's store and verifier, through ureq's
//!   `platform-verifier`.
//! * `plan`: pipes as code, `pipe-api-plan`, as the module `plan`, and `current_state`, `plan`,
//!   `apply`, `apply_with`, `export` and `apply_saved` on [`ServiceScope`].
//!
//! With neither TLS feature the client speaks plain `http` only (to loopback, or where allowed):
//! enough for tests against a local server.
//!
//! # TLS roots and proxies
//! Behind a company's TLS inspection, or against a server signed by a private authority, trust
//! its root too: `TransportConfig::default().with_root_certificates_pem(pem)?`, given to
//! [`ClientBuilder::transport_config`] (the bundled Mozilla roots stay trusted). A refused
//! certificate is a [`TransportErrorKind::Connect`](proto::TransportErrorKind::Connect) failure: nothing was sent. The proxy comes
//! from the environment as ureq reads it (`ALL_PROXY`, `HTTPS_PROXY`, `HTTP_PROXY`, less
//! `NO_PROXY`), or from [`TransportConfig::with_proxy`]; ureq tunnels through it with `CONNECT`.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod client;
mod clock;
mod config;
mod methods;
#[cfg(feature = "plan")]
mod plans;
mod scopes;
mod sockets;
mod transport;

// The root holds what a client user reaches for: the client, its builder and configuration,
// its scoped handles, its errors, and what its methods take (the wait policy and conditions,
// the retry policy, the pacer, the attempt record). Everything else has one path, under
// `types` (the models, ids and enums) or `proto` (the protocol), as `aws_sdk_s3::types` does.
// No glob: a new public item of proto or types is not part of this crate's root. The test
// workspace's `tests/tests/it/ureq_root.rs` keeps the root to at most 40 names.
pub use client::{AlertPages, Client, ClientApi};
pub use clock::{Clock, SystemClock, VirtualClock};
pub use config::{
    ClientBuilder, ConfigError, ENV_ALERTS_TOKEN, ENV_ALERTS_URL, ENV_API_KEY_ID, ENV_API_KEY_SECRET, ENV_API_URL,
};
pub use pipe_api_proto::Error;
pub use pipe_api_proto::attempts::AttemptRecord;
pub use pipe_api_proto::retry::{Pacer, RetryPolicy};
pub use pipe_api_proto::wait::{
    Verdict, WaitError, WaitPolicy, pipe_running, pipe_settled, pipe_stopped, reverse_private_endpoint_ready,
    reverse_private_endpoint_settled, service_running,
};
pub use scopes::{
    AlertScope, AlertsScope, KeyScope, OrganizationScope, OrganizationsScope, PipeScope, ReversePrivateEndpointScope,
    ServiceScope, ServicesScope,
};
pub use transport::{TransportConfig, UreqTransport};

/// Pipes as code, `pipe-api-plan` (feature `plan`): a desired state, the plan that makes a
/// service so, and its apply, which the service handle runs ([`ServiceScope::plan`],
/// [`ServiceScope::apply`]).
#[cfg(feature = "plan")]
pub use pipe_api_plan as plan;
/// The protocol, `pipe-api-proto`: its endpoints, errors, retry and wait machinery, and the
/// `http` and `time` crates it speaks ([`proto::http`], [`proto::time`]).
pub use pipe_api_proto as proto;
/// The models, `pipe-api-types`: every request and response body, id and enum
/// (`pipe_api_ureq::types::Pipe`).
pub use pipe_api_types as types;

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
