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
//! * Connect timeout 10 s; each exchange 30 s; response bodies capped at 16 MiB.
//! * Redirects are never followed; 4xx and 5xx are typed errors, not transport errors.
//! * Plain `http` only to loopback ([`is_loopback_host`](pipe_api_proto::is_loopback_host):
//!   `localhost`, 127.0.0.0/8, `::1`), unless [`ClientBuilder::allow_insecure_http`]; refused
//!   when the client is built, and by the transport (never retried) when used on its own.
//! * Retries per [`RetryPolicy::default`](pipe_api_proto::retry::RetryPolicy): up to 4 attempts within
//!   60 s; a `POST` that may have reached the server is never re-sent.
//! * No pacing unless asked ([`ClientBuilder::pacing`]).
//!
//! # Features
//! * `rustls` (default): TLS with rustls and the webpki roots, through ureq's `rustls`.
//! * `native-tls`: TLS with the platform's library, through ureq's `native-tls` (OpenSSL's
//!   headers on Linux). The agent asks for it when `rustls` is off; with both on, rustls is used.
//! * `gzip` (default): accepts gzip-compressed responses, through ureq's `gzip`.
//!
//! With neither TLS feature the client speaks plain `http` only (to loopback, or where allowed):
//! enough for tests against a local server.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod client;
mod clock;
mod config;
mod operations;
mod transport;

pub use client::{AlertPages, Client, ClientApi};
pub use clock::{Clock, SystemClock, VirtualClock};
pub use config::{
    ClientBuilder, ConfigError, ENV_ALERTS_TOKEN, ENV_ALERTS_URL, ENV_API_KEY_ID, ENV_API_KEY_SECRET, ENV_API_URL,
};
pub use pipe_api_proto::wait::reverse_private_endpoint_settled;
pub use pipe_api_proto::wait::{
    Condition, IdleRecovery, Verdict, WaitError, WaitPolicy, pipe_settled, pipe_stopped, service_running,
};
pub use transport::{TransportConfig, UreqTransport};

// What the client's methods take and return, so that a client user depends on this crate alone.
pub use pipe_api_proto::retry::{Pacer, RetryPolicy};
pub use pipe_api_proto::{
    AlertPage, Alerting, ApiError, BaseUrlError, BuildError, CredentialsError, DecodeError, Endpoint, Error,
    ListAlerts, Management, Raw, Reply, TransportFailure,
};
pub use pipe_api_types::{
    CreateKeyRequest, CreateKeyResponse, CreatePipeRequest, OrganizationId, Pipe, PipeCommand, PipeId,
    ReversePrivateEndpoint, Secret, Service, ServiceId, UpdatePipeRequest,
};
pub use pipe_api_types::{
    EndpointProtocol, IpAccessEntry, IpAccessListPatch, Key, KeyExpiry, KeyId, KeyRole, KeyState, ListPatch,
    PrivateEndpointIdsPatch, ReleaseChannel, ResourceTag, RoleId, ServiceCommand, ServiceEndpointChange, ServiceState,
    TagsPatch, UpdateKeyRequest, UpdateServiceRequest, UpdateServiceStateRequest,
};
pub use pipe_api_types::{
    PipeSchemaDiscoveryRequest, PipeSchemaDiscoveryResponse, PipeSettings, PipesCdcScaling, Scaling,
};

pub use pipe_api_proto::{
    CreateAlert, CreateReversePrivateEndpoint, DeleteAlert, DeleteReversePrivateEndpoint, GetAlert,
    GetReversePrivateEndpoint, ListReversePrivateEndpoints, UpdateAlert, UpdateReversePrivateEndpoint,
};
pub use pipe_api_types::{
    Alert, AlertChannel, AlertId, AlertInterval, AlertRequest, AlertSource, AlertState, ChannelType,
    CreateReversePrivateEndpointRequest, CustomPrivateDnsMapping, MskAuthentication, ReversePrivateEndpointId,
    ReversePrivateEndpointStatus, ReversePrivateEndpointType, ThresholdType, UpdateReversePrivateEndpointRequest,
};

pub use pipe_api_proto as proto;
pub use pipe_api_types as types;

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
