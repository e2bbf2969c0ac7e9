//! A working fake of the pipe management interface (`/v1`) and the alerting interface
//! (`/api/v2`), for tests and demos: stateful, deterministic, and usable either as a
//! [`Transport`](pipe_api_proto::Transport) with no sockets or served over HTTP on 127.0.0.1.
//!
//! ```
//! use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake};
//! use pipe_api_proto::{BaseUrl, EndpointExt, ListPipes, Management, ManagementCredentials};
//!
//! let mut fake = Fake::demo();
//! let api = Management::new(
//!     BaseUrl::parse("http://fake.invalid")?,
//!     ManagementCredentials::new(DEMO_KEY_ID, DEMO_KEY_SECRET)?,
//! );
//! // No socket: the fake answers as a transport.
//! let pipes = ListPipes::new(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID).send(&api, &fake)?;
//! assert_eq!(pipes.value.len(), 2);
//! assert_eq!(fake.request_count(), 1);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! Served over HTTP, for a real client ([`Fake::serve`]); dropping the server stops it:
//!
//! ```
//! let server = pipe_api_fake::Fake::demo().serve()?;
//! assert!(server.base_url().starts_with("http://127.0.0.1:"));
//! # Ok::<(), std::io::Error>(())
//! ```
//!
//! # What it does like the real services
//! * Credentials are checked: management keys by key id and secret (or by the SHA-256 hashes of
//!   a key created with `hashData`), their `state`, `expireAt` (against the fake's clock) and
//!   roles (one table: `admin` does everything, `developer` only reads services and keys,
//!   `query_endpoints` alone manages nothing; else 403); alerting by bearer token. Wrong or missing
//!   credentials get the plain-text `401 Unauthorized`; a key used on another organization 403.
//! * A created key gets an id, a key id and a secret, and those credentials work at once. A
//!   created pipe is in state `Provisioning` and appears in list and get, without its credentials.
//! * A created pipe lives its life on the fake's clock: `Running` after
//!   [`Fake::set_pipe_transition_time`] (30 s by default; a database pipe through `Setup` and
//!   `Snapshot`, a snapshot-only one ending `Completed`); `stop` goes `Stopping` to `Stopped`
//!   (`Pausing` to `Paused` for database pipes), `start` only from `Stopped`, `Paused` or
//!   `Failed`, `resync` only for database pipes; an update shows in the next get, a database
//!   pipe's tables change only while paused, and a deleted pipe is `404`. Move the clock with
//!   [`Fake::advance`] or [`Fake::advance_per_request`]; nothing sleeps.
//! * An unknown id gets `404` with `NOT_FOUND: <id>`, an invalid body `400` with
//!   `BAD_REQUEST: ...` naming the field, a call on an idle service `424 FAILED_DEPENDENCY`, all
//!   in the real `{status, error, requestId}` envelope.
//! * A service has a lifecycle on the manual clock: `awake`, `stop` and `start`
//!   (`PATCH .../state`) pass through `awaking`, `stopping` or `starting` for
//!   [`Fake::set_service_transition_time`] and settle in `running` or `stopped`; pipe calls answer
//!   `424 ... Current state: <state>` until it runs. Keys are listed, read, updated and deleted
//!   (a key cannot delete itself).
//! * Every resource is kept as the fake's own JSON record, in the contract's wire names written
//!   in the fake: a create builds it from the checked body (what the contract's answer has no
//!   place for, credentials included, is not kept) and adds what the server owns (`id`,
//!   `createdAt`, `state`, ...); an update changes it; an answer is the record. A client model
//!   with a wrong wire name therefore disagrees with the fake, as it would with the service.
//! * Alerts answer as newer servers (`limit`, `offset`, `meta`, `X-Total-Count`) or older ones.
//! * A pipe's scaling (`PATCH .../scaling`) and settings (`PUT .../settings`, a full replace
//!   that stores settings the fake does not know as sent) show in the next get; schema discovery
//!   infers fields from the source's kind and format; the CDC scaling of a service exists once
//!   a database pipe left `Provisioning`, and must keep 4 GiB per core.
//!
//! # What it adds for tests
//! * Seeding from the server's JSON ([`Fake::seed_service_json`], [`Fake::seed_pipe_json`], ...)
//!   or from the client's models ([`Fake::seed_service`], [`Fake::seed_pipe`], ..., written as
//!   JSON once), inspection as JSON ([`Fake::pipes_json`], [`Fake::keys_json`]), a manual
//!   clock, deterministic ids and secrets ([`Fake::with_seed`]).
//! * Faults ([`Fault`], [`FaultRule`]): the next N requests, or those on a path, answer a given
//!   status, headers and body, or answer late, or take effect and then fail.
//! * Every request is recorded ([`Fake::requests`]), so a test can prove what was sent, or that
//!   nothing was.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod checks;
mod demo;
mod fake;
mod faults;
mod permissions;
mod reply;
mod routes;
mod seen;
mod server;
mod state;

pub use demo::{DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID};
pub use fake::Fake;
pub use faults::{Fault, FaultResponse, FaultRule};
pub use seen::SeenRequest;
pub use server::FakeServer;
pub use state::AlertingVersion;

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
