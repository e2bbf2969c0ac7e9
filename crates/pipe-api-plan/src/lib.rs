//! Pipes as code for the pipe management and alerting interfaces: declare what a service
//! should have ([`DesiredState`], or [`export()`] what it has), [`plan()`] the requests that
//! would make it so from what the list operations returned ([`Current`]), review the [`Plan`]
//! as a snapshot (and keep it, [`SavedPlan`]), and [`Apply`] it: a sans-IO machine that the
//! same driver loop as a [`Call`](pipe_api_proto::call::Call) runs.
//! Applying the same desired state twice makes the second plan empty. Each step is a row of
//! `pipe-api-proto`'s table of operations ([`OPERATIONS`](pipe_api_proto::operations::OPERATIONS)); `pipe-api-ureq`, with its feature
//! `plan`, reads, plans and applies on a service handle.
//!
//! ```
//! use pipe_api_plan::{Current, DesiredState, PlanOptions, plan};
//! use pipe_api_plan::types::{OrganizationId, ServiceId};
//!
//! let desired = DesiredState::from_json(
//!     r#"{"pipes": [{"name": "orders",
//!         "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092",
//!             "topics": "orders", "authentication": "PLAIN",
//!             "credentials": {"username": "ingest", "password": {"env": "KAFKA_PASSWORD"}}}},
//!         "destination": {"table": "orders", "managedTable": true,
//!             "columns": [{"name": "id", "type": "UInt64"}]}}]}"#,
//!     |name| (name == "KAFKA_PASSWORD").then(|| "from the vault".to_owned()),
//! )?;
//! let org: OrganizationId = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?;
//! let service: ServiceId = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?;
//! let plan = plan(org, service, &desired, &Current::default(), &PlanOptions::default())?;
//! assert_eq!(plan.steps().len(), 1);
//! let text = plan.to_string(); // what a snapshot test keeps
//! assert!(text.contains("create_pipe pipe \"orders\": not on the server"));
//! assert!(text.contains(r#""password": "[redacted]""#));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # The steps, what each does and what it never does
//! - [`export()`] writes what a service has ([`Current`]) as a desired-state document that
//!   plans to no changes on it once its secret references are filled. It leaves out what the
//!   server fills itself; a resource a desired state cannot hold refuses it, or is left out
//!   with a note when asked ([`ExportOptions::leave_out_unreadable`]); it never writes a
//!   secret (each is a reference it lists, [`Exported::secrets`]), and exports alerts, which
//!   name no service, only when asked ([`ExportOptions::alerts`]).
//! - [`ReadCurrent`] reads what a service has ([`Current`]) as a sans-IO machine: its
//!   listings, an idle service woken, a deadline of its own ([`ReadOptions`]), and no more of
//!   the alert listing than one answer may hold.
//! - [`DesiredState::from_json`] reads a file strictly, its references through a lookup; it
//!   never takes a secret written in clear.
//! - [`plan()`] is a pure function of a desired state and what the lists returned; it never
//!   sends anything, and what it shows ([`Plan`]'s text, JSON, `Debug`) never holds a secret.
//! - [`Plan::saved`] keeps a plan as a file to review and apply later ([`SavedPlan`]); it holds
//!   no secret, and with each resource the plan touches a fingerprint of it as planned.
//! - [`SavedPlan::confirm`] plans again from the same desired state (its lookup answering now)
//!   and what the service has now; it refuses, before anything is sent, a stale plan (a
//!   touched resource changed, each named) or one that is no longer the plan made now.
//! - [`Apply`] first reads the service and refuses, before anything is sent, a plan whose
//!   resources changed since it was planned (so a plan applied twice does nothing the second
//!   time); then it sends the steps in order and waits where a step needs a state; it never
//!   sends a create twice, and stops at the first failure saying what was done.
//! - Every message it shows (an error, a refusal, a note) is cut at [`MAX_SHOWN`] bytes and
//!   holds no value the lookup gave, whatever the server or the file held.
//!
//! # What a plan does, in order
//! 1. Reverse private endpoints: create what is missing (then wait until it is `Ready`, since
//!    pipes use it), replace what no update can change, update the private DNS mappings.
//! 2. Pipes, in the desired state's order: create what is missing (then stop it if it should be
//!    stopped: a pipe starts running when created); otherwise update only the fields that
//!    differ and that the contract's patch schemas can change, then scaling, then the state. A
//!    database pipe whose tables change is paused first (and waited for), updated, and started
//!    again. A pipe in `Completed` is not updated (only a resync changes it).
//! 3. With [`PlanOptions::prune`]: delete the pipes, then the endpoints, that the desired state
//!    does not name; with [`PlanOptions::prune_alerts`], the alerts (which are a whole team's,
//!    not the service's). Without them they are left alone, and the plan says so.
//! 4. Alerts: create what is missing, replace (`PUT`) what differs, keeping what the desired
//!    state does not name.
//!
//! # An environment: services as code
//! A desired state may declare the organization's services, each with its endpoints, pipes
//! and alerts under it ([`DesiredState`]); it is read with
//! [`ReadCurrent::of_organization`] and planned with [`plan_organization`]: each service
//! created (then waited for until it runs, then its declared password set by its hashes) or
//! updated in place (IP access list, tags and endpoints by `update_service`; scaling and
//! idling by `update_service_replica_scaling`, then waited for until the service reports
//! them), then its endpoints and pipes as above; with [`PlanOptions::prune`], each service
//! the file does not declare stopped, waited for, and deleted. A service's `provider` and
//! `region` never change: a plan that needs them to is refused. A service created at a
//! gateway that lost the answer is found by its name and adopted; two of a name are a
//! conflict to resolve by hand.
//!
//! A field that differs and that no update can change (a source's kind, its brokers, a Kafka
//! schema registry, the destination table) makes the step a replacement: delete, then create.
//! It is refused ([`PlanError::ReplacementRefused`]) unless [`PlanOptions::allow_replacement`]
//! is set, and is shown as destructive with what it costs.
//!
//! Secrets are never compared: the services never echo them. A plan never sends a secret to
//! an existing resource; a changed password is set with an update request of its own.
//!
//! Every value the desired state's lookup gave (each `{"env": "NAME"}` resolved, wherever it
//! stands: a password, brokers, a name) travels with the [`DesiredState`] into its [`Plan`] and
//! is `[redacted]` wherever either is shown: the plan's text, JSON and `Debug`, its steps',
//! the desired state's `Debug`, and an apply's error (each request of an [`Apply`] takes them
//! out of what its answer's error shows). A plan is a snapshot to commit.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

mod apply;
mod current;
mod desired;
mod export;
mod json;
mod outcome;
mod planned;
mod planner;
mod read;
mod resource;
mod saved;
mod shown;

pub use apply::{Apply, ApplyOptions};
pub use current::{Change, Current, CurrentService};
pub use desired::{DesiredPipe, DesiredPipeState, DesiredService, DesiredState, DesiredStateError, Problem};
pub use export::{ExportError, ExportOptions, Exported, SecretReference, export};
pub use outcome::{Applied, ApplyError, ApplyFailure, Effect, ResourceId, StepOutcome, WaitFailure};
pub use planned::{Awaited, Plan, PlanOptions, PlanStep, PlannedRequest};
pub use planner::{PlanError, Unchangeable, plan, plan_organization};
pub use read::{MAX_ALERT_LISTING_BYTES, ReadCurrent, ReadOptions, ReadServices};
pub use resource::{Kind, Resource};
pub use saved::{SavedPlan, SavedPlanError};
pub use shown::MAX_SHOWN;

/// The models, re-exported so one dependency is enough.
pub use pipe_api_proto::types;

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
