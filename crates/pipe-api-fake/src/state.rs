//! What the fake remembers: organizations with their keys and services, each service's pipes and
//! reverse private endpoints, the alerting side's tokens and alerts, a manual clock and a
//! deterministic source of ids and secrets.

use std::collections::BTreeMap;

use std::time::Duration;

use pipe_api_proto::retry::SeededJitter;
use pipe_api_types::{OrganizationId, ServiceId};
use serde_json::{Map, Value};
use time::OffsetDateTime;
use uuid::Uuid;

use crate::faults::FaultRule;
use crate::seen::SeenRequest;

/// Which alerting server the fake behaves like.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum AlertingVersion {
    /// Servers from mid-2026: `limit` and `offset` are honoured, and the answer has `meta` and an
    /// `X-Total-Count` header.
    #[default]
    Newer,
    /// Older servers: both parameters are ignored and every alert comes back as `{"data": [...]}`.
    Older,
}

/// How a stored key is checked: by its plain key id and secret, or by the SHA-256 hashes the
/// client sent in `hashData` (then the server never saw the plain values).
#[derive(Clone)]
pub(crate) enum KeyCredential {
    Plain { key_id: String, key_secret: String },
    Hashed { key_id_hash: String, key_secret_hash: String },
}

/// A resource as the service keeps it: a JSON object in the service's own wire names (the
/// contract's, written in the fake), answered as it is.
pub(crate) type Record = Map<String, Value>;

/// The text member `name` of a record.
pub(crate) fn text<'r>(record: &'r Record, name: &str) -> Option<&'r str> {
    record.get(name).and_then(Value::as_str)
}

/// A date-time as the service writes it (RFC 3339, UTC as `Z`).
pub(crate) fn date_time(at: OffsetDateTime) -> Value {
    Value::String(at.format(&time::format_description::well_known::Rfc3339).unwrap_or_default())
}

#[derive(Clone)]
pub(crate) struct StoredKey {
    /// The key as the contract's `ApiKey`: `id`, `name`, `state`, `roles`, `keySuffix`, ...
    pub record: Record,
    pub credential: KeyCredential,
}

impl StoredKey {
    /// The key's management id, as its record says.
    pub fn id(&self) -> Option<&str> {
        text(&self.record, "id")
    }

    /// Whether the key may be used at `now`: `enabled` (or no state), and not past `expireAt`
    /// (absent, `null` or `""` all mean never, per the contract's `ApiKey.expireAt`). An
    /// `expireAt` that is no date-time is treated as expired: a key nobody can read the
    /// expiry of opens nothing.
    pub fn usable(&self, now: OffsetDateTime) -> bool {
        let enabled = self.record.get("state").is_none_or(|state| state == "enabled");
        let unexpired = match self.record.get("expireAt") {
            None | Some(Value::Null) => true,
            Some(Value::String(at)) if at.is_empty() => true,
            Some(Value::String(at)) => OffsetDateTime::parse(at, &time::format_description::well_known::Rfc3339)
                .is_ok_and(|expiry| expiry > now),
            Some(_) => false,
        };
        enabled && unexpired
    }

    /// The role names in `roles`.
    pub fn roles(&self) -> Vec<String> {
        let roles = self.record.get("roles").and_then(Value::as_array);
        roles.into_iter().flatten().filter_map(Value::as_str).map(str::to_owned).collect()
    }
}

#[derive(Clone)]
pub(crate) struct StoredService {
    /// The service as the contract's `Service`; its `state` is where its lifecycle is (a
    /// service seeded without one runs).
    pub record: Record,
    /// Where a passing state (`awaking`, `starting`, `stopping`, `provisioning`,
    /// `terminating`) leads, and when, on the fake's clock.
    pub transition: Option<(&'static str, OffsetDateTime)>,
    /// A replica-scaling change not applied yet: the members to write into the record, and when
    /// (the change is asynchronous, `instanceReplicaScalingUpdate`).
    pub scaling_change: Option<(Record, OffsetDateTime)>,
    /// The SHA-256 (base64) of the default user's password, as last set by the password call
    /// (never answered; `Fake::service_password_hash` shows it to tests).
    pub password_hash: Option<String>,
    /// The pipes as the contract's `Pipe`.
    pub pipes: Vec<Record>,
    pub reverse_private_endpoints: Vec<StoredEndpoint>,
    /// The scaling shared by the database pipes (`pipesCdcScaling`), as JSON; `None` until a
    /// database pipe was provisioned.
    pub cdc_scaling: Option<serde_json::Map<String, serde_json::Value>>,
}

/// A reverse private endpoint as the service keeps it: its record in the service's own wire
/// names, and when its pending transition ends. Transitions settle lazily, when the endpoint is
/// next read, against the manual clock.
#[derive(Clone)]
pub(crate) struct StoredEndpoint {
    pub record: Record,
    /// When `Provisioning` becomes `Ready`.
    pub ready_at: Option<OffsetDateTime>,
    /// When `Deleting` ends and the endpoint is gone.
    pub gone_at: Option<OffsetDateTime>,
}

impl StoredEndpoint {
    /// The endpoint's id, as its record says.
    pub fn id(&self) -> Option<&str> {
        self.record.get("id").and_then(Value::as_str)
    }

    /// Applies the transitions due by `now`: `Provisioning` to `Ready`. Whether the endpoint is
    /// still there (a deleted one is gone once its `Deleting` time has passed).
    pub fn settle(&mut self, now: OffsetDateTime) -> bool {
        if self.ready_at.is_some_and(|at| at <= now) {
            self.ready_at = None;
            if self.record.get("status").and_then(Value::as_str) == Some("Provisioning") {
                self.record.insert("status".to_owned(), Value::from("Ready"));
            }
        }
        self.gone_at.is_none_or(|at| at > now)
    }
}

/// How long the fake's reverse private endpoints take to provision and to be deleted.
#[derive(Clone, Copy)]
pub(crate) struct EndpointTimings {
    pub provisioning: std::time::Duration,
    pub deleting: std::time::Duration,
}

impl Default for EndpointTimings {
    fn default() -> Self {
        EndpointTimings {
            provisioning: std::time::Duration::from_secs(60),
            deleting: std::time::Duration::from_secs(30),
        }
    }
}

#[derive(Clone, Default)]
pub(crate) struct Organization {
    /// What was seeded of the organization's own record (`Fake::seed_organization_json`),
    /// over the fields every organization has (`routes::organizations::record`).
    pub record: Map<String, Value>,
    pub keys: Vec<StoredKey>,
    pub services: BTreeMap<ServiceId, StoredService>,
}

pub(crate) struct State {
    pub now: OffsetDateTime,
    /// How long a service takes to wake, start or stop (`Fake::set_service_transition_time`).
    pub service_transition_time: std::time::Duration,
    /// How far the clock moves after each request (`Fake::advance_per_request`).
    pub advance_per_request: std::time::Duration,
    pub sequence: Sequence,
    pub organizations: BTreeMap<OrganizationId, Organization>,
    pub alert_tokens: Vec<String>,
    /// Alerts as the alerting server keeps them: records in the newer servers' wire names,
    /// shown in the names of the generation the fake plays (`routes::alerts`).
    pub alerts: Vec<Map<String, Value>>,
    /// Fields the alerting server knows beyond its contract (`Fake::set_alert_fields_beyond_contract`).
    pub alert_fields_beyond_contract: Vec<String>,
    pub alerting_version: AlertingVersion,
    pub endpoint_timings: EndpointTimings,
    pub faults: Vec<FaultRule>,
    pub seen: Vec<SeenRequest>,
    /// How long each step of a pipe's lifecycle takes (`Fake::set_pipe_transition_time`).
    pub pipe_transition_time: std::time::Duration,
    /// The states each pipe still moves through on its own, each with the time it is due, in
    /// order; settled whenever pipes are read (see `routes::pipes::settle`). A pipe without an
    /// entry stays as it is (a seeded pipe, or one whose state a test set).
    /// Keyed by the pipe's id as its record writes it.
    pub pipe_plans: BTreeMap<String, Vec<(OffsetDateTime, &'static str)>>,
}

impl State {
    pub fn new(seed: u64) -> State {
        State {
            // A fixed start, so every run of a test sees the same timestamps.
            now: time::macros::datetime!(2026-01-01 00:00:00 UTC),
            advance_per_request: std::time::Duration::ZERO,
            service_transition_time: DEFAULT_SERVICE_TRANSITION_TIME,
            sequence: Sequence::new(seed),
            organizations: BTreeMap::new(),
            alert_tokens: Vec::new(),
            alerts: Vec::new(),
            alert_fields_beyond_contract: Vec::new(),
            alerting_version: AlertingVersion::Newer,
            endpoint_timings: EndpointTimings::default(),
            faults: Vec::new(),
            seen: Vec::new(),
            pipe_transition_time: std::time::Duration::from_secs(30),
            pipe_plans: BTreeMap::new(),
        }
    }

    /// The service, if the organization and the service exist, its lifecycle brought up to the
    /// clock.
    pub fn service_mut(&mut self, organization: OrganizationId, service: ServiceId) -> Option<&mut StoredService> {
        self.services_settled(organization)?.services.get_mut(&service)
    }

    /// The organization, each of its services brought up to the clock, and those whose
    /// deletion has ended forgotten (from then on they answer 404).
    pub fn services_settled(&mut self, organization: OrganizationId) -> Option<&mut Organization> {
        let now = self.now;
        let organization = self.organizations.get_mut(&organization)?;
        organization.services.retain(|_, stored| {
            stored.settle(now);
            stored.state() != TERMINATED
        });
        Some(organization)
    }

    /// The key whose credentials these are, and its organization.
    pub fn key_for(&self, key_id: &str, key_secret: &str) -> Option<(OrganizationId, &StoredKey)> {
        // Hashed only when a key made from `hashData` is met: most fakes hold none.
        let hashes = std::cell::OnceCell::new();
        self.organizations.iter().find_map(|(organization, org)| {
            org.keys
                .iter()
                .find(|stored| match &stored.credential {
                    KeyCredential::Plain { key_id: id, key_secret: secret } => {
                        constant_time_eq(id, key_id) & constant_time_eq(secret, key_secret)
                    }
                    KeyCredential::Hashed { key_id_hash, key_secret_hash } => {
                        let (id_hash, secret_hash) =
                            hashes.get_or_init(|| (sha256_base64(key_id), sha256_base64(key_secret)));
                        constant_time_eq(key_id_hash, id_hash) & constant_time_eq(key_secret_hash, secret_hash)
                    }
                })
                .map(|stored| (*organization, stored))
        })
    }
}

/// How long a service takes to wake, start or stop unless a test says otherwise: about what
/// a small real service takes to wake.
pub(crate) const DEFAULT_SERVICE_TRANSITION_TIME: std::time::Duration = std::time::Duration::from_secs(30);

impl StoredService {
    /// A service as seeded: running unless its record says otherwise.
    pub fn new(mut record: Record) -> StoredService {
        if !record.get("state").is_some_and(Value::is_string) {
            record.insert("state".to_owned(), Value::from(RUNNING));
        }
        StoredService {
            record,
            transition: None,
            scaling_change: None,
            password_hash: None,
            pipes: Vec::new(),
            reverse_private_endpoints: Vec::new(),
            cdc_scaling: None,
        }
    }

    /// The service's state now, in the contract's words (`running`, `idle`, ...).
    pub fn state(&self) -> &str {
        text(&self.record, "state").unwrap_or(RUNNING)
    }

    /// Moves to `passing` now, and on to `settled` after `takes`.
    pub fn begin(&mut self, passing: &'static str, settled: &'static str, now: OffsetDateTime, takes: Duration) {
        self.record.insert("state".to_owned(), Value::from(passing));
        self.transition = Some((settled, now + takes));
    }

    /// Puts the service in `state` at once, ending any transition.
    pub fn set_state(&mut self, state: &str) {
        self.record.insert("state".to_owned(), Value::from(state));
        self.transition = None;
    }

    /// The pipe with id `id` (as its record writes it).
    pub fn pipe_mut(&mut self, id: &str) -> Option<&mut Record> {
        self.pipes.iter_mut().find(|pipe| text(pipe, "id") == Some(id))
    }

    /// Ends a transition whose time has come, and applies a scaling change that is due.
    fn settle(&mut self, now: OffsetDateTime) {
        if self.scaling_change.as_ref().is_some_and(|(_, at)| now >= *at) {
            if let Some((change, _)) = self.scaling_change.take() {
                apply_scaling(&mut self.record, change);
            }
        }
        if let Some((settled, at)) = self.transition {
            if now >= at {
                self.record.insert("state".to_owned(), Value::from(settled));
                self.transition = None;
            }
        }
    }
}

/// Writes a replica-scaling change into a service's record (`ServiceReplicaScalingPatchRequest`
/// members, in the contract's names): a switch to horizontal drops `numReplicas` and fixes
/// `replicaMemoryGb`; one to vertical drops the replica band. `currentScaling` follows.
pub(crate) fn apply_scaling(record: &mut Record, change: Record) {
    let mode = change.get("autoscalingMode").cloned();
    if change.contains_key("numReplicas") || mode.as_ref().is_some_and(|mode| mode == "vertical") {
        for name in ["minReplicas", "maxReplicas", "replicaMemoryGb"] {
            record.remove(name);
        }
    }
    if change.contains_key("minReplicas") && mode.as_ref().is_some_and(|mode| mode == "horizontal") {
        record.remove("numReplicas");
    }
    record.extend(change);
    if record.get("autoscalingMode").is_some_and(|mode| mode == "horizontal") {
        if let Some(memory) = record.get("minReplicaMemoryGb").cloned() {
            record.insert("replicaMemoryGb".to_owned(), memory);
        }
    }
    let current = current_scaling(record);
    record.insert("currentScaling".to_owned(), current);
}

/// The contract's `CurrentScaling` of a record with no schedule: its baseline.
pub(crate) fn current_scaling(record: &Record) -> Value {
    let get = |name: &str| record.get(name).cloned().unwrap_or(Value::Null);
    let mode = record.get("autoscalingMode").cloned().unwrap_or_else(|| Value::from("vertical"));
    let (min, max) = if mode == "horizontal" {
        (get("minReplicas"), get("maxReplicas"))
    } else {
        (get("numReplicas"), get("numReplicas"))
    };
    let mut current = Map::new();
    for (name, value) in [
        ("effectiveAutoscalingMode", mode),
        ("effectiveMinReplicaMemoryGb", get("minReplicaMemoryGb")),
        ("effectiveMaxReplicaMemoryGb", get("maxReplicaMemoryGb")),
        ("effectiveMinReplicas", min),
        ("effectiveMaxReplicas", max),
        ("effectiveIdleScaling", get("idleScaling")),
        ("effectiveIdleTimeoutMinutes", get("idleTimeoutMinutes")),
    ] {
        if !value.is_null() {
            current.insert(name.to_owned(), value);
        }
    }
    Value::Object(current)
}

/// The one service state in which pipe calls are served (`Service.state`).
pub(crate) const RUNNING: &str = "running";

/// Where a deleted service's `terminating` leads: then it is gone.
pub(crate) const TERMINATED: &str = "terminated";

/// The base64 of a SHA-256, the form of every `hashData` field.
pub(crate) fn sha256_base64(text: &str) -> String {
    use base64::Engine as _;
    use sha2::Digest as _;
    base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()))
}

/// Compares without an early exit, as a real credential check must.
fn constant_time_eq(a: &str, b: &str) -> bool {
    a.len() == b.len() && a.bytes().zip(b.bytes()).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}

/// Deterministic ids and secrets: the same seed gives the same sequence, so snapshot tests of
/// what the fake answers are stable.
pub(crate) struct Sequence {
    /// The client's own SplitMix64, so the workspace writes the generator once.
    source: SeededJitter,
}

impl Sequence {
    fn new(seed: u64) -> Sequence {
        Sequence { source: SeededJitter::new(seed ^ 0x005e_ed0f_fa4e_0001) }
    }

    fn next_u64(&mut self) -> u64 {
        self.source.next_u64()
    }

    /// A version-4-shaped UUID.
    pub fn uuid(&mut self) -> Uuid {
        let mut bytes = [0u8; 16];
        bytes[..8].copy_from_slice(&self.next_u64().to_le_bytes());
        bytes[8..].copy_from_slice(&self.next_u64().to_le_bytes());
        uuid::Builder::from_random_bytes(bytes).into_uuid()
    }

    /// Text from an alphabet, like the real key ids (letters and digits) and secrets.
    pub fn text(&mut self, len: usize, alphabet: &[u8]) -> String {
        (0..len).map(|_| alphabet[(self.next_u64() % alphabet.len() as u64) as usize] as char).collect()
    }
}

pub(crate) const KEY_ID_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789";
pub(crate) const KEY_SECRET_ALPHABET: &[u8] = b"ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789_";
