//! [`Current`]: what a service has, as its list operations returned it, and the fingerprints
//! a plan keeps of the resources it touches, so that a saved plan applied later can say what
//! changed since ([`SavedPlan`](crate::saved::SavedPlan)).

use std::borrow::Cow;
use std::fmt;

use pipe_api_types::{
    Alert, AlertRequest, CreateReversePrivateEndpointRequest, Pipe, ReversePrivateEndpoint,
    ReversePrivateEndpointStatus, Service, ServiceState, UpdateReversePrivateEndpointRequest,
};
use serde_json::{Map, Value, json};

use crate::json::{compared, only, to_json};
use crate::resource::{Kind, Resource};
use crate::shown::Sorted;

/// What the service has: what its list operations returned.
#[derive(Clone, Debug, Default)]
#[non_exhaustive]
pub struct Current {
    /// `list_reverse_private_endpoints`.
    pub reverse_private_endpoints: Vec<ReversePrivateEndpoint>,
    /// `list_pipes`.
    pub pipes: Vec<Pipe>,
    /// Every alert (`list_alerts`, all pages), or `None` when alerts were not read (or not
    /// every one was): then the plan neither creates, changes nor prunes any.
    pub alerts: Option<Vec<Alert>>,
    /// The organization's services (`list_services`), each with what it has when that was
    /// read, or `None` when they were not read (a service's own reading): what a desired state
    /// that declares services is planned against.
    pub services: Option<Vec<CurrentService>>,
}

impl Current {
    /// What the lists returned.
    pub fn new(
        reverse_private_endpoints: Vec<ReversePrivateEndpoint>,
        pipes: Vec<Pipe>,
        alerts: Option<Vec<Alert>>,
    ) -> Self {
        Current { reverse_private_endpoints, pipes, alerts, services: None }
    }

    /// What an organization has: its services (each with what it has, when read) and the
    /// alerts (`None` when not read whole).
    pub fn of_organization(services: Vec<CurrentService>, alerts: Option<Vec<Alert>>) -> Self {
        Current { alerts, services: Some(services), ..Current::default() }
    }

    /// The services not being deleted, which a plan acts on (a deleted one answers
    /// `terminating` until it is gone).
    pub(crate) fn live_services(&self) -> impl Iterator<Item = &CurrentService> {
        self.services.iter().flatten().filter(|current| !is_service_deleted(&current.service))
    }

    /// What the live service named `name` has, when it is the only one of its name and its
    /// resources were read.
    pub(crate) fn of_service(&self, name: &str) -> Option<&Current> {
        let mut named = self.live_services().filter(|current| current.service.name.as_deref() == Some(name));
        match (named.next(), named.next()) {
            (Some(only), None) => only.resources.as_ref(),
            _ => None,
        }
    }
}

/// A service of the organization as `list_services` returned it, and what it has (its
/// reverse private endpoints and pipes) when that was read: for a service a desired state
/// names that runs (or idles).
#[derive(Clone, Debug)]
#[non_exhaustive]
pub struct CurrentService {
    /// The service.
    pub service: Service,
    /// Its reverse private endpoints and pipes, or `None` when they were not read (a service
    /// the desired state does not name, or one that does not run, whose pipes cannot be read).
    pub resources: Option<Current>,
}

impl CurrentService {
    /// The service, and what it has when read.
    pub fn new(service: Service, resources: Option<Current>) -> Self {
        CurrentService { service, resources }
    }
}

/// Whether a service is being deleted, or is gone: for pipes as code, gone already.
pub(crate) fn is_service_deleted(service: &Service) -> bool {
    matches!(
        service.state,
        Some(
            ServiceState::Terminating
                | ServiceState::Terminated
                | ServiceState::Softdeleting
                | ServiceState::Softdeleted
        )
    )
}

/// Whether an endpoint is being deleted: it answers `Deleting` until it is gone, and is gone
/// already for pipes as code (planned, exported, fingerprinted, adopted after a lost create).
pub(crate) fn is_being_deleted(endpoint: &ReversePrivateEndpoint) -> bool {
    endpoint.status == Some(ReversePrivateEndpointStatus::Deleting)
}

/// What the server changes on its own with every write, left out of a fingerprint: the rest
/// of the resource says what changed.
const VOLATILE: &[&str] = &["createdAt", "updatedAt"];

/// The member kept in clear in a fingerprint, to say how a resource moved: a pipe's `state`,
/// an endpoint's `status`.
const LIFECYCLE: &[&str] = &["state", "status"];

/// One resource of the server as a plan saw it: its id, its lifecycle state in clear, and a
/// digest of each other member (FNV-1a, 64 bits, of the member's JSON with keys in order and
/// secrets redacted). Digests, not values: the plan stays short, and a member's change is
/// still named.
///
/// Two records are the same resource unchanged when their ids and digests are equal and their
/// states are in one [`phase`]: a service moves a pipe from `Provisioning` or `Snapshot` to
/// `Running`, or an endpoint to `Ready`, on its own, and the plan acts alike on either.
#[derive(Clone, Debug)]
pub(crate) struct Record {
    pub(crate) id: String,
    pub(crate) lifecycle: Option<String>,
    pub(crate) digests: Map<String, Value>,
}

impl PartialEq for Record {
    fn eq(&self, other: &Record) -> bool {
        self.id == other.id
            && self.lifecycle.as_deref().map(phase) == other.lifecycle.as_deref().map(phase)
            && self.digests == other.digests
    }
}

/// The phase of a state that a plan acts on: stopped (or paused), on the way there, failed,
/// completed, or active (running, provisioning, a snapshot, degraded, ready, and the other
/// states the contracts name). A plan's steps differ between phases, never within one. A
/// state the contracts do not name is a phase of its own: what a plan does in it is not known,
/// so a change to or from it is named.
fn phase(state: &str) -> Cow<'_, str> {
    let phase = match state.to_ascii_lowercase().as_str() {
        "stopped" | "paused" => "stopped",
        "stopping" | "pausing" => "stopping",
        "failed" => "failed",
        "completed" => "completed",
        "running" | "provisioning" | "setup" | "snapshot" | "degraded" | "unknown" | "internalerror" | "ready"
        | "pendingacceptance" | "rejected" | "expired" | "deleting" => "active",
        // A service idles when unused and wakes when used, on its own: the plan acts alike.
        "idle" | "awaking" | "starting" | "partially_running" => "active",
        _ => return Cow::Borrowed(state),
    };
    Cow::Borrowed(phase)
}

/// What the server had under one name of one kind when planned (none: the plan creates it).
#[derive(Clone, Debug, PartialEq)]
pub(crate) struct Seen {
    pub(crate) resource: Resource,
    pub(crate) records: Vec<Record>,
}

/// The fingerprints of the resources a plan `touched`, in `current` (a step on an alert means the
/// alerts were read: the planner makes none otherwise).
pub(crate) fn seen<'r>(touched: impl IntoIterator<Item = &'r Resource>, current: &Current) -> Vec<Seen> {
    let mut seen: Vec<Seen> = Vec::new();
    for resource in touched {
        if seen.iter().all(|s| s.resource != *resource) {
            let records = records(current, resource).unwrap_or_default();
            seen.push(Seen { resource: resource.clone(), records });
        }
    }
    seen
}

/// Every resource of `current` named like `resource`, as the planner sees them (an endpoint
/// being deleted is gone), fingerprinted; `None` when its kind was not read.
fn records(current: &Current, resource: &Resource) -> Option<Vec<Record>> {
    let name = Some(resource.name.as_str());
    // What a declared service has is under it; one not there yet has nothing.
    let current = match (&resource.service, resource.kind) {
        (Some(service), Kind::ReversePrivateEndpoint | Kind::Pipe) => match current.of_service(service) {
            Some(resources) => resources,
            None => return Some(Vec::new()),
        },
        _ => current,
    };
    let records = match resource.kind {
        // The service as configured: what it reports in effect (`currentScaling`, which a
        // schedule changes) and its endpoints' hosts are the server's.
        Kind::Service => current
            .live_services()
            .filter(|s| s.service.name.as_deref() == name)
            .map(|s| record(only(to_json(&s.service), |name| name != "currentScaling" && name != "scalingSchedule")))
            .collect(),
        Kind::ReversePrivateEndpoint => current
            .reverse_private_endpoints
            .iter()
            .filter(|e| e.description.as_deref() == name)
            .filter(|e| !is_being_deleted(e))
            .map(|e| record(only_requested(to_json(e))))
            .collect(),
        Kind::Pipe => current.pipes.iter().filter(|p| p.name.as_deref() == name).map(|p| record(compared(p))).collect(),
        // An alert's definition, as a `PUT` replaces it: its firing state and errors change
        // with every evaluation and are no change to it.
        Kind::Alert => current
            .alerts
            .as_ref()?
            .iter()
            .filter(|a| a.name.as_deref() == name)
            .map(|a| {
                let mut json = to_json(&AlertRequest::from(a.clone()));
                json["id"] = json!(a.id.to_string());
                record(json)
            })
            .collect(),
    };
    Some(records)
}

/// An endpoint's members that a create or an update sets: what the server fills in itself
/// while provisioning (its DNS names, its endpoint id) changes nothing a plan does.
fn only_requested(json: Value) -> Value {
    only(json, |name| {
        name == "id"
            || LIFECYCLE.contains(&name)
            || CreateReversePrivateEndpointRequest::FIELDS.contains(&name)
            || UpdateReversePrivateEndpointRequest::FIELDS.contains(&name)
    })
}

fn record(json: Value) -> Record {
    let json = pipe_api_proto::redacted_json(&json).expect("a JSON value serializes");
    let mut record = Record { id: String::new(), lifecycle: None, digests: Map::new() };
    for (name, value) in json.as_object().into_iter().flatten() {
        match (name.as_str(), value) {
            ("id", Value::String(id)) => record.id = id.clone(),
            (name, Value::String(state)) if LIFECYCLE.contains(&name) => record.lifecycle = Some(state.clone()),
            (name, _) if VOLATILE.contains(&name) || value.is_null() => {}
            _ => _ = record.digests.insert(name.clone(), json!(digest(value))),
        }
    }
    record
}

/// FNV-1a of `value`'s JSON, keys in order, in hex: stable across builds and platforms (a
/// fingerprint, not a defence: whoever can change the service need not forge one).
fn digest(value: &Value) -> String {
    let text = serde_json::to_string(&Sorted(value)).expect("a JSON value serializes");
    let hash = text
        .bytes()
        .fold(0xcbf2_9ce4_8422_2325_u64, |hash, byte| (hash ^ u64::from(byte)).wrapping_mul(0x0000_0100_0000_01b3));
    format!("{hash:016x}")
}

impl Seen {
    /// How the resource differs from when it was planned, if it does.
    pub(crate) fn change(&self, current: &Current) -> Option<Change> {
        let resource = self.resource.clone();
        let Some(now) = records(current, &self.resource) else {
            return Some(Change {
                resource,
                what: "was not read now (alerts), so whether it changed is unknown".into(),
            });
        };
        let what = match (self.records.as_slice(), now.as_slice()) {
            (was, now) if was == now => return None,
            ([], _) => "exists now, and the plan creates it".to_owned(),
            (_, []) => "is gone since the plan".to_owned(),
            ([was], [now]) => format!("changed since the plan ({})", was.moved(now)),
            (was, now) => format!("changed since the plan ({} on the server, {} when planned)", now.len(), was.len()),
        };
        Some(Change { resource, what: crate::shown::cut(what) })
    }
}

impl Record {
    /// `state Running -> Stopped; scaling, source changed`.
    fn moved(&self, now: &Record) -> String {
        let mut parts = Vec::new();
        // What a server holds can be any size: each value shown is cut.
        let value = |text: &str| crate::shown::truncate(text, VALUE_SHOWN).into_owned();
        if self.id != now.id {
            parts.push(format!("deleted and created again: id {} -> {}", value(&self.id), value(&now.id)));
        }
        if self.lifecycle != now.lifecycle {
            let shown = |state: &Option<String>| state.as_deref().map_or_else(|| "none".to_owned(), value);
            parts.push(format!("state {} -> {}", shown(&self.lifecycle), shown(&now.lifecycle)));
        }
        let mut members: Vec<&String> = self.digests.keys().chain(now.digests.keys()).collect();
        members.sort();
        members.dedup();
        let changed: Vec<String> = members
            .into_iter()
            .filter(|member| self.digests.get(*member) != now.digests.get(*member))
            .map(|member| value(member))
            .collect();
        if !changed.is_empty() {
            parts.push(format!("{} changed", changed.join(", ")));
        }
        parts.join("; ")
    }
}

/// The most of a value (a state, an id, a member's name) a stale change shows.
const VALUE_SHOWN: usize = 128;

/// A resource a saved plan touches that changed since it was planned.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Change {
    /// The resource.
    pub resource: Resource,
    /// How (`changed since the plan (state Running -> Stopped)`, `is gone since the plan`),
    /// cut as every message is ([`MAX_SHOWN`](crate::shown::MAX_SHOWN)).
    pub what: String,
}

/// `pipe "orders" changed since the plan (state Running -> Stopped)`.
impl fmt::Display for Change {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::shown::shown(f, |f| write!(f, "{} {}", self.resource, self.what))
    }
}
