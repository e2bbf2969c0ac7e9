//! A [`Plan`]: its steps, each a request of the table of operations ([`PlannedRequest`]), and
//! how it is shown (text, JSON, `Debug`), every value the lookup gave redacted.

use std::fmt;

use pipe_api_proto::PathBuilder;
use pipe_api_proto::http::Method;
use pipe_api_proto::operations::{Interface, OPERATIONS, Operation};
use serde_json::Value;

use crate::current::{Change, Current, Seen};
use crate::resource::{Id, Kind, NAME_SHOWN, Resource};
use crate::shown::{Resolved, Sorted, truncate};

/// What a plan may do beyond creating and updating.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PlanOptions {
    /// Replace (delete, then create) a resource whose differing field no update can change.
    pub allow_replacement: bool,
    /// Delete the pipes and reverse private endpoints of the service that the desired state
    /// does not name; in a plan for the organization, its services too (each stopped first).
    pub prune: bool,
    /// Delete the alerts the desired state does not name. Apart from `prune`, as alerts are
    /// not the service's: the alerting interface holds every alert of a team.
    pub prune_alerts: bool,
}

impl PlanOptions {
    /// Allows replacements.
    #[must_use]
    pub fn allow_replacement(mut self, allow: bool) -> Self {
        self.allow_replacement = allow;
        self
    }

    /// Deletes the pipes and endpoints the desired state does not name.
    #[must_use]
    pub fn prune(mut self, prune: bool) -> Self {
        self.prune = prune;
        self
    }

    /// Deletes the alerts the desired state does not name (every other alert of the team).
    #[must_use]
    pub fn prune_alerts(mut self, prune: bool) -> Self {
        self.prune_alerts = prune;
        self
    }
}

/// One request of the table of operations, planned: its row, the ids of its path, and its
/// body (already checked as the typed request model it was made from). `Debug` shows the body
/// redacted: it holds the secrets it sends.
#[derive(Clone, PartialEq)]
pub struct PlannedRequest {
    pub(crate) operation: &'static Operation,
    pub(crate) ids: Vec<(&'static str, Id)>,
    pub(crate) body: Option<Value>,
    /// The desired state's resolved values, redacted wherever the request is shown.
    pub(crate) resolved: Resolved,
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
    /// [`StepOutcome::path`](crate::outcome::StepOutcome::path) is the path as sent.
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
    /// The service is `running` (its endpoints and pipes are created next).
    ServiceRunning,
    /// The service reports the scaling and idling its request asked for (the change is
    /// applied asynchronously).
    ServiceScaled,
    /// The service is `stopped` (it is deleted next: a service is deleted only stopped).
    ServiceStopped,
}

impl fmt::Display for Awaited {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            Awaited::ReversePrivateEndpointReady => "wait until it is Ready",
            Awaited::PipeStopped => "wait until it is Stopped or Paused",
            Awaited::ServiceRunning => "wait until it is running",
            Awaited::ServiceScaled => "wait until it reports the new scaling",
            Awaited::ServiceStopped => "wait until it is stopped",
        })
    }
}

/// One step of a plan: one request, on one resource, with its reason in words. `Debug` and
/// [`PlanStep::summary`] show no value the desired state's lookup gave.
#[derive(Clone, PartialEq)]
pub struct PlanStep {
    pub(crate) resource: Resource,
    pub(crate) request: PlannedRequest,
    pub(crate) reason: String,
    pub(crate) destructive: Option<String>,
    pub(crate) then: Option<Awaited>,
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

/// An ordered list of steps that makes a service what a [`DesiredState`](crate::desired::DesiredState) says, made by
/// [`plan()`](crate::planner::plan()). `Display` renders it as stable text, secrets redacted, for
/// `insta::assert_snapshot!`; [`Plan::to_json`] as JSON. An empty plan says "no changes".
/// Every output (text, JSON, `Debug`) passes one redaction: no value the desired state's
/// lookup gave is shown.
#[derive(Clone, PartialEq)]
pub struct Plan {
    pub(crate) organization_id: pipe_api_types::OrganizationId,
    /// The service it is for; `None` for a plan of the organization's services.
    pub(crate) service_id: Option<pipe_api_types::ServiceId>,
    /// In a plan of the organization's services, the names of those the desired state
    /// declares: what an apply reads the resources of, to check them.
    pub(crate) services: Vec<String>,
    pub(crate) steps: Vec<PlanStep>,
    pub(crate) notes: Vec<String>,
    /// The desired state's resolved values (its steps share them).
    pub(crate) resolved: Resolved,
    /// The options it was made with, which a saved plan is made again with.
    pub(crate) options: PlanOptions,
    /// Each resource the steps touch, as the server had it: what a saved plan checks.
    pub(crate) seen: Vec<Seen>,
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

    /// The service the plan is for; `None` for a plan of the organization's services
    /// ([`plan_organization`](crate::planner::plan_organization)).
    pub fn service_id(&self) -> Option<pipe_api_types::ServiceId> {
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
    let mut resource = serde_json::json!({"kind": step.resource.kind.as_str(), "name": name});
    if let Some(service) = &step.resource.service {
        resource["service"] = Value::String(service.clone());
    }
    serde_json::json!({
        "operation": step.request.operation.name,
        "method": step.request.operation.method.as_str(),
        "path": step.request.rendered_path(),
        "resource": resource,
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
