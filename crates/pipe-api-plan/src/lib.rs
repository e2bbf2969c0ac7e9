//! Pipes as code for the pipe management and alerting interfaces: declare what a service
//! should have ([`DesiredState`], or [`export()`] what it has), [`plan()`] the requests that
//! would make it so from what the list operations returned ([`Current`]), review the [`Plan`]
//! as a snapshot (and keep it, [`SavedPlan`]), and [`Apply`] it: a sans-IO machine that the
//! same driver loop as a [`Call`](pipe_api_proto::call::Call) runs.
//! Applying the same desired state twice makes the second plan empty. Each step is a row of
//! `pipe-api-proto`'s table of operations ([`OPERATIONS`]); `pipe-api-ureq`, with its feature
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
mod planner;
mod read;
mod saved;

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::sync::Arc;

use pipe_api_proto::PathBuilder;
use pipe_api_proto::http::Method;
use pipe_api_proto::operations::{Interface, OPERATIONS, Operation};
use serde::Serialize;
use serde_json::Value;

pub use apply::{Apply, ApplyOptions};
pub use current::{Change, Current};
pub use desired::{DesiredPipe, DesiredPipeState, DesiredState, DesiredStateError, Problem};
pub use export::{ExportError, ExportOptions, Exported, SecretReference, export};
pub use outcome::{Applied, ApplyError, ApplyFailure, Effect, ResourceId, StepOutcome, WaitFailure};
pub use planner::{PlanError, PlanOptions, Unchangeable, plan};
pub use read::{MAX_ALERT_LISTING_BYTES, ReadCurrent, ReadOptions};
pub use saved::{SavedPlan, SavedPlanError};

/// The models, re-exported so one dependency is enough.
pub use pipe_api_proto::types;

/// The values a desired state's lookup gave, to be taken out of everything the desired state,
/// its plan and its apply show: each as written, and as `Debug` and JSON escape it (a text is
/// shown either way). Never printed; shared by the plan's steps.
#[derive(Clone, Default, PartialEq)]
// An `Arc` of a `Vec` (one pointer, not two): an apply's error holds one and stays small.
pub(crate) struct Resolved(Arc<Vec<String>>);

impl Resolved {
    /// The values `values` (an empty one is nothing to take out).
    pub(crate) fn new(values: impl IntoIterator<Item = String>) -> Self {
        let mut forms = Vec::new();
        for value in values.into_iter().filter(|value| !value.is_empty()) {
            let debug = format!("{value:?}");
            let json = serde_json::to_string(&value).expect("a string serializes");
            forms.push(debug[1..debug.len() - 1].to_owned());
            forms.push(json[1..json.len() - 1].to_owned());
            forms.push(value);
        }
        // Longest first, so that a value inside another is not left half-replaced.
        forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
        forms.dedup();
        Resolved(Arc::new(forms))
    }

    /// The values and their escaped forms, for a [`Call`](pipe_api_proto::call::Call) to take
    /// out of its error ([`Call::scrubbing`](pipe_api_proto::call::Call::scrubbing)).
    pub(crate) fn forms(&self) -> impl Iterator<Item = String> + '_ {
        self.0.iter().cloned()
    }

    /// The one rule of what a plan shows: `text` with every resolved value `[redacted]`.
    pub(crate) fn scrub(&self, text: &str) -> String {
        // Every value, however short: unlike a call's answers (proto leaves texts under 6 bytes
        // there), a plan is text this crate writes, where a false match costs nothing.
        let mut text = text.to_owned();
        for form in self.0.iter() {
            if text.contains(form.as_str()) {
                text = text.replace(form.as_str(), pipe_api_proto::REDACTED);
            }
        }
        text
    }

    /// [`Resolved::scrub`] on every text of `value`, keys included.
    pub(crate) fn scrub_json(&self, value: &mut Value) {
        if self.0.is_empty() {
            return;
        }
        match value {
            Value::String(text) => *text = self.scrub(text),
            Value::Array(items) => items.iter_mut().for_each(|item| self.scrub_json(item)),
            Value::Object(map) => {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(key, mut child)| {
                        self.scrub_json(&mut child);
                        (self.scrub(&key), child)
                    })
                    .collect();
            }
            _ => {}
        }
    }

    /// Writes what `render` writes (with `f`'s `#` flag), through [`Resolved::scrub`]: a
    /// document (a plan, a desired state's `Debug`), shown whole.
    pub(crate) fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        self.write_within(f, usize::MAX, render)
    }

    /// Writes what `render` writes through [`Resolved::scrub`], cut at [`MAX_SHOWN`] bytes: the
    /// one rule of every message pipes as code shows (an error, a refusal, a stale change),
    /// whatever the server or the file held.
    pub(crate) fn shown(
        &self,
        f: &mut fmt::Formatter<'_>,
        render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        self.write_within(f, MAX_SHOWN, render)
    }

    fn write_within(
        &self,
        f: &mut fmt::Formatter<'_>,
        max: usize,
        render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        struct Render<F>(F);
        impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Render<F> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                (self.0)(f)
            }
        }
        // Rendering stops a little past `max`: far enough that a value to redact which starts
        // before the cut is there whole to be found (the forms are sorted longest first).
        let longest = self.0.first().map_or(0, String::len);
        let mut capped = Capped { text: String::new(), room: max.saturating_add(longest).saturating_add(8) };
        // An error here is the cap reached: what was rendered until then is shown.
        let _ =
            if f.alternate() { write!(capped, "{:#}", Render(render)) } else { write!(capped, "{}", Render(render)) };
        f.write_str(&truncate(&self.scrub(&capped.text), max))
    }
}

/// The most bytes a message of pipes as code shows: an error's, a
/// refusal's, a stale change's, a note's. What a server or a file holds can be any size.
pub const MAX_SHOWN: usize = 4096;

/// A message as [`Resolved::shown`] shows it, for one with no resolved value in it.
pub(crate) fn shown(
    f: &mut fmt::Formatter<'_>,
    render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
) -> fmt::Result {
    Resolved::default().shown(f, render)
}

/// `text`, cut as a message shows it ([`MAX_SHOWN`]): for a message kept as a text (a note, a
/// stale change) rather than rendered.
pub(crate) fn cut(text: String) -> String {
    match truncate(&text, MAX_SHOWN) {
        Cow::Borrowed(_) => text,
        Cow::Owned(cut) => cut,
    }
}

/// A text that takes what is written until it holds `room` bytes, then refuses the rest.
struct Capped {
    text: String,
    room: usize,
}

impl fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let left = self.room.saturating_sub(self.text.len());
        if s.len() <= left {
            self.text.push_str(s);
            return Ok(());
        }
        let end = (0..=left).rev().find(|&at| s.is_char_boundary(at)).unwrap_or(0);
        self.text.push_str(&s[..end]);
        Err(fmt::Error)
    }
}

/// Never shows a value.
impl fmt::Debug for Resolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resolved({} forms, redacted)", self.0.len())
    }
}

/// The kind of a resource a plan manages.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Kind {
    /// A reverse private endpoint, named by its `description`.
    ReversePrivateEndpoint,
    /// A pipe, named by its `name`.
    Pipe,
    /// An alert, named by its `name`.
    Alert,
}

impl Kind {
    /// Every kind, in the order a plan takes them.
    pub(crate) const ALL: [Kind; 3] = [Kind::ReversePrivateEndpoint, Kind::Pipe, Kind::Alert];

    /// How the kind reads in text.
    pub fn as_str(self) -> &'static str {
        match self {
            Kind::ReversePrivateEndpoint => "reverse private endpoint",
            Kind::Pipe => "pipe",
            Kind::Alert => "alert",
        }
    }
}

impl fmt::Display for Kind {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

/// A resource, by kind and name. `Debug` cuts the name as `Display` does.
#[derive(Clone, PartialEq, Eq, Hash)]
pub struct Resource {
    /// Its kind.
    pub kind: Kind,
    /// Its name.
    pub name: String,
}

/// The most of a name a message shows (a server's names are not bounded).
pub(crate) const NAME_SHOWN: usize = 128;

impl fmt::Debug for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let name = truncate(&self.name, NAME_SHOWN);
        f.debug_struct("Resource").field("kind", &self.kind).field("name", &name).finish()
    }
}

impl fmt::Display for Resource {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {:?}", self.kind, truncate(&self.name, NAME_SHOWN))
    }
}

/// An id in a planned request: known, or that of a resource an earlier step creates.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) enum Id {
    Known(String),
    CreatedBy(Resource),
}

impl Id {
    /// How the id reads in a rendered plan.
    fn shown(&self) -> String {
        match self {
            Id::Known(id) => id.clone(),
            Id::CreatedBy(resource) => placeholder(resource),
        }
    }
}

/// What stands for the id of a resource created by an earlier step, in a path or a body.
pub(crate) fn placeholder(resource: &Resource) -> String {
    format!("{{id of {resource}}}")
}

/// One request of the table of operations, planned: its row, the ids of its path, and its
/// body (already checked as the typed request model it was made from). `Debug` shows the body
/// redacted: it holds the secrets it sends.
#[derive(Clone, PartialEq)]
pub struct PlannedRequest {
    operation: &'static Operation,
    ids: Vec<(&'static str, Id)>,
    body: Option<Value>,
    /// The desired state's resolved values, redacted wherever the request is shown.
    resolved: Resolved,
}

impl PlannedRequest {
    /// The operation (its row of [`OPERATIONS`]).
    pub fn operation(&self) -> &'static Operation {
        self.operation
    }

    /// The encoded path, ids filled in by `id` (which answers for those created by earlier
    /// steps); `None` while one is not known.
    pub(crate) fn path(&self, id: impl Fn(&Id) -> Option<String>) -> Option<String> {
        let mut path = PathBuilder::new();
        for segment in self.operation.path.split('/').skip(1) {
            path = match segment.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
                Some(name) => path.segment(&id(&self.ids.iter().find(|(field, _)| *field == name)?.1)?),
                None => path.segment(segment),
            };
        }
        Some(path.finish())
    }

    /// The body as sent, the ids of earlier steps' resources put in by `created`.
    pub(crate) fn body(&self, created: impl Fn(&str) -> Option<String>) -> Option<Value> {
        let mut body = self.body.clone()?;
        bind_ids(&mut body, &created);
        Some(body)
    }

    /// The body with its secrets redacted: its secret-bearing fields, and every value the
    /// desired state's lookup gave.
    pub fn redacted_body(&self) -> Option<Value> {
        let mut body = pipe_api_proto::redacted_json(self.body.as_ref()?).expect("a JSON value serializes");
        self.resolved.scrub_json(&mut body);
        Some(body)
    }

    /// The method of the request.
    pub fn method(&self) -> &Method {
        &self.operation.method
    }

    /// The path with its ids (`/v1/organizations/{id}/services/{id}/pipes/{id}`); an id an
    /// earlier step creates stands as its placeholder (`{id of pipe "orders"}`). It holds ids,
    /// never secrets, and no value the desired state's lookup gave. An apply's
    /// [`StepOutcome::path`] is the path as sent.
    pub fn resolved_path(&self) -> String {
        self.resolved.scrub(&self.rendered_path())
    }

    /// The path as a reader sees it: an id an earlier step creates stands as its placeholder.
    fn rendered_path(&self) -> String {
        self.resolved_path_with(|_| None)
    }

    /// The path with the ids `id` knows filled in, encoded as sent when it knows them all;
    /// placeholders for the others.
    pub(crate) fn resolved_path_with(&self, id: impl Fn(&Id) -> Option<String>) -> String {
        if let Some(path) = self.path(&id) {
            return path;
        }
        let mut path = self.operation.path.to_owned();
        for (name, known) in &self.ids {
            path = path.replace(&format!("{{{name}}}"), &id(known).unwrap_or_else(|| known.shown()));
        }
        path
    }
}

impl fmt::Debug for PlannedRequest {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.write(f, |f| {
            f.debug_struct("PlannedRequest")
                .field("operation", &self.operation.name)
                .field("path", &self.rendered_path())
                .field("body", &self.redacted_body())
                .finish()
        })
    }
}

/// Replaces each placeholder string of `body` with the id `created` gives for it.
fn bind_ids(body: &mut Value, created: &impl Fn(&str) -> Option<String>) {
    match body {
        Value::String(text) => {
            if let Some(id) = created(text) {
                *text = id;
            }
        }
        Value::Array(items) => items.iter_mut().for_each(|item| bind_ids(item, created)),
        Value::Object(map) => map.values_mut().for_each(|child| bind_ids(child, created)),
        _ => {}
    }
}

/// What a step waits for once its request succeeded.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Awaited {
    /// The reverse private endpoint is `Ready` (pipes use it next).
    ReversePrivateEndpointReady,
    /// The pipe is `Stopped` or `Paused` (it is updated next).
    PipeStopped,
}

impl fmt::Display for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Awaited::ReversePrivateEndpointReady => "wait until it is Ready",
            Awaited::PipeStopped => "wait until it is Stopped or Paused",
        })
    }
}

/// One step of a plan: one request, on one resource, with its reason in words. `Debug` and
/// [`PlanStep::summary`] show no value the desired state's lookup gave.
#[derive(Clone, PartialEq)]
pub struct PlanStep {
    resource: Resource,
    request: PlannedRequest,
    reason: String,
    destructive: Option<String>,
    then: Option<Awaited>,
}

impl PlanStep {
    /// The resource it acts on.
    pub fn resource(&self) -> &Resource {
        &self.resource
    }

    /// The request.
    pub fn request(&self) -> &PlannedRequest {
        &self.request
    }

    /// Why it is needed.
    pub fn reason(&self) -> &str {
        &self.reason
    }

    /// What it destroys, if it does (a delete, or a replacement's cost).
    pub fn destructive(&self) -> Option<&str> {
        self.destructive.as_deref()
    }

    /// What it waits for after its request, if anything.
    pub fn then(&self) -> Option<Awaited> {
        self.then
    }

    /// Whether it creates its resource (its outcome, when unknown, is checked by listing): its
    /// row is a `POST` to a collection, the path a list row of the table reads.
    pub fn creates(&self) -> bool {
        let row = self.request.operation;
        row.method == Method::POST
            && OPERATIONS.iter().any(|list| list.method == Method::GET && list.is_list() && list.path == row.path)
    }

    /// The operation and the resource: `create_pipe pipe "orders"`.
    pub fn summary(&self) -> String {
        self.request.resolved.scrub(&format!("{} {}", self.request.operation.name, self.resource))
    }

    /// One line: `3. update_pipe pipe "orders": fieldMappings differ`.
    fn headline(&self, f: &mut fmt::Formatter<'_>, number: usize) -> fmt::Result {
        write!(f, "{number}. {} {}: {}", self.request.operation.name, self.resource, self.reason)?;
        if let Some(then) = self.then {
            write!(f, "; then {then}")?;
        }
        if let Some(cost) = &self.destructive {
            write!(f, "\n   DESTRUCTIVE: {cost}")?;
        }
        Ok(())
    }
}

impl fmt::Debug for PlanStep {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.request.resolved.write(f, |f| {
            f.debug_struct("PlanStep")
                .field("resource", &self.resource)
                .field("request", &self.request)
                .field("reason", &self.reason)
                .field("destructive", &self.destructive)
                .field("then", &self.then)
                .finish()
        })
    }
}

/// An ordered list of steps that makes a service what a [`DesiredState`] says, made by
/// [`plan()`]. `Display` renders it as stable text, secrets redacted, for
/// `insta::assert_snapshot!`; [`Plan::to_json`] as JSON. An empty plan says "no changes".
/// Every output (text, JSON, `Debug`) passes one redaction: no value the desired state's
/// lookup gave is shown.
#[derive(Clone, PartialEq)]
pub struct Plan {
    organization_id: pipe_api_types::OrganizationId,
    service_id: pipe_api_types::ServiceId,
    steps: Vec<PlanStep>,
    notes: Vec<String>,
    /// The desired state's resolved values (its steps share them).
    resolved: Resolved,
    /// The options it was made with, which a saved plan is made again with.
    options: planner::PlanOptions,
    /// Each resource the steps touch, as the server had it: what a saved plan checks.
    seen: Vec<current::Seen>,
}

impl Plan {
    /// The steps, in the order they are applied.
    pub fn steps(&self) -> &[PlanStep] {
        &self.steps
    }

    /// What was noticed and left alone (resources not named without pruning, a `Completed`
    /// pipe that is not updated), with no value the desired state's lookup gave.
    pub fn notes(&self) -> &[String] {
        &self.notes
    }

    /// The resources it touches that changed in `current` since it was planned, each named
    /// (as [`SavedPlan::confirm`] names them): what an [`Apply`] checks before its first
    /// step. Without `service_read`, only the alerts were read, and only they are checked.
    pub(crate) fn changes_since(&self, current: &Current, service_read: bool) -> Vec<Change> {
        self.seen
            .iter()
            .filter(|seen| service_read || seen.resource.kind == Kind::Alert)
            .filter_map(|seen| seen.change(current))
            .collect()
    }

    /// Whether checking it needs every alert read: it touches one, or prunes them.
    pub(crate) fn touches_alerts(&self) -> bool {
        self.options.prune_alerts || self.seen.iter().any(|seen| seen.resource.kind == Kind::Alert)
    }

    /// Whether there is nothing to do.
    pub fn is_empty(&self) -> bool {
        self.steps.is_empty()
    }

    /// The organization of the service.
    pub fn organization_id(&self) -> pipe_api_types::OrganizationId {
        self.organization_id
    }

    /// The service the plan is for.
    pub fn service_id(&self) -> pipe_api_types::ServiceId {
        self.service_id
    }

    /// Whether any step needs the alerting interface.
    pub fn needs_alerting(&self) -> bool {
        self.steps.iter().any(|step| step.request.operation.interface == Interface::Alerting)
    }

    /// The plan as JSON, secrets redacted (and every value the desired state's lookup gave),
    /// a resource's name cut to 128 bytes as the text cuts it:
    /// `{"steps": [{"operation", "method", "path", "resource", "reason", "destructive", "then",
    /// "body"}], "notes": [...]}`.
    pub fn to_json(&self) -> Value {
        // Cut as the text cuts it: a name a server sent may be of any size.
        let steps: Vec<Value> =
            self.steps.iter().map(|step| step_json(step, &truncate(&step.resource.name, NAME_SHOWN))).collect();
        let mut json = serde_json::json!({"steps": steps, "notes": self.notes});
        self.resolved.scrub_json(&mut json);
        json
    }

    /// The text `Display` shows, before the redaction of resolved values.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.steps.is_empty() {
            f.write_str("no changes\n")?;
        } else {
            let destructive = self.steps.iter().filter(|step| step.destructive.is_some()).count();
            writeln!(f, "{}, {destructive} destructive", steps(self.steps.len()))?;
        }
        for (index, step) in self.steps.iter().enumerate() {
            f.write_str("\n")?;
            step.headline(f, index + 1)?;
            writeln!(f, "\n   {} {}", step.request.operation.method, step.request.rendered_path())?;
            if let Some(body) = step.request.redacted_body() {
                let text = serde_json::to_string_pretty(&Sorted(&body)).expect("a JSON value serializes");
                for line in text.lines() {
                    writeln!(f, "   {line}")?;
                }
            }
        }
        if !self.notes.is_empty() {
            f.write_str("\nleft alone:\n")?;
            for note in &self.notes {
                writeln!(f, "- {note}")?;
            }
        }
        Ok(())
    }
}

impl fmt::Display for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.write(f, |f| self.render(f))
    }
}

impl fmt::Debug for Plan {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.write(f, |f| {
            f.debug_struct("Plan")
                .field("organization_id", &self.organization_id)
                .field("service_id", &self.service_id)
                .field("steps", &self.steps)
                .field("notes", &self.notes)
                .finish_non_exhaustive()
        })
    }
}

/// A step as a plan's JSON writes it, its resource named `name`, its body redacted (not yet of
/// the resolved values: the plan's JSON takes them out of the whole).
pub(crate) fn step_json(step: &PlanStep, name: &str) -> Value {
    serde_json::json!({
        "operation": step.request.operation.name,
        "method": step.request.operation.method.as_str(),
        "path": step.request.rendered_path(),
        "resource": {"kind": step.resource.kind.as_str(), "name": name},
        "reason": step.reason,
        "destructive": step.destructive,
        "then": step.then.map(|then| then.to_string()),
        "body": step.request.redacted_body(),
    })
}

/// `1 step`, `3 steps`.
pub(crate) fn steps(count: usize) -> String {
    format!("{count} step{}", if count == 1 { "" } else { "s" })
}

/// `text` cut to at most `max` bytes at a character boundary, the cut marked with `…`: a name
/// or message a server sent may be of any size.
pub(crate) fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let room = max.saturating_sub('…'.len_utf8());
    let end = (0..=room).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
    Cow::Owned(format!("{}…", &text[..end]))
}

/// A JSON value whose objects serialize their members in key order, whatever map type
/// serde_json was built with, so that a rendered plan is stable.
struct Sorted<'v>(&'v Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut members: Vec<_> = map.iter().collect();
                members.sort_by_key(|(key, _)| *key);
                serializer.collect_map(members.into_iter().map(|(key, value)| (key, Sorted(value))))
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            scalar => scalar.serialize(serializer),
        }
    }
}

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
