//! The handle tests hold: seeding, the clock, faults, what was seen, and answering a request.

use std::sync::{Arc, Mutex, MutexGuard, PoisonError};
use std::time::Duration;

use http::{Request, Response};
use pipe_api_proto::{Transport, TransportError};
use pipe_api_types::{
    Alert, Key, KeyRole, OrganizationId, Pipe, PipeId, PipeState, ReversePrivateEndpoint, Service, ServiceId,
    ServiceState,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};
use time::OffsetDateTime;

use crate::faults::{self, FaultRule};
use crate::routes::{self, insert_key, settle_pipes, unplan_pipe};
use crate::seen::SeenRequest;
use crate::state::{AlertingVersion, KeyCredential, Record, State, StoredEndpoint, StoredService, date_time, text};

/// A stateful fake of the management and alerting interfaces.
///
/// Cloning gives another handle to the same fake, so a test can keep one while a server or a
/// transport uses another. Ids, secrets and request ids come from a seeded sequence and times
/// from a manual clock, so the same test always sees the same answers.
#[derive(Clone)]
pub struct Fake {
    state: Arc<Mutex<State>>,
}

impl Default for Fake {
    fn default() -> Self {
        Fake::new()
    }
}

impl std::fmt::Debug for Fake {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let state = self.lock();
        f.debug_struct("Fake")
            .field("now", &state.now)
            .field("organizations", &state.organizations.len())
            .field("alerts", &state.alerts.len())
            .field("faults", &state.faults.len())
            .field("requests_seen", &state.seen.len())
            .finish_non_exhaustive()
    }
}

impl Fake {
    /// An empty fake: no organization, key, service, token or alert. Seed what the test needs.
    pub fn new() -> Fake {
        Fake::with_seed(0)
    }

    /// An empty fake whose generated ids and secrets follow `seed`.
    pub fn with_seed(seed: u64) -> Fake {
        Fake { state: Arc::new(Mutex::new(State::new(seed))) }
    }

    /// Answers a request as the real services would (or as an injected fault says), and records
    /// it. A [`Fault::drop_connection`](crate::Fault::drop_connection) answers status 444 with
    /// no body here (nginx's code for "closed without an answer"); the transport and the server
    /// drop the connection instead.
    pub fn handle(&self, request: Request<Vec<u8>>) -> Response<Vec<u8>> {
        self.respond(request).unwrap_or_else(|| crate::reply::with_status(444, Vec::new()))
    }

    /// [`Fake::handle`]'s answer, `None` when the connection is to drop: what both the
    /// transport and the HTTP server call.
    pub(crate) fn respond(&self, request: Request<Vec<u8>>) -> Option<Response<Vec<u8>>> {
        let fault = {
            let mut state = self.lock();
            state.seen.push(SeenRequest {
                method: request.method().clone(),
                path: request.uri().path().to_owned(),
                query: request.uri().query().map(str::to_owned),
                headers: request.headers().clone(),
                body: request.body().clone(),
            });
            faults::take(&mut state.faults, request.method(), request.uri().path())
        };
        // Sleep without holding the lock, so other requests go on meanwhile.
        if let Some(delay) = fault.as_ref().and_then(|f| f.delay) {
            std::thread::sleep(delay);
        }
        if let Some(fault) = fault.as_ref().filter(|fault| fault.drop_connection) {
            if fault.after_handling {
                routes::route(&mut self.lock(), &request);
            }
            return None;
        }
        let answer = match fault.and_then(|fault| Some((fault.response?, fault.after_handling))) {
            Some((faulty, after_handling)) => {
                if after_handling {
                    routes::route(&mut self.lock(), &request);
                }
                faulty.into_answer()
            }
            None => routes::route(&mut self.lock(), &request),
        };
        let mut state = self.lock();
        let step = state.advance_per_request;
        state.now += step;
        Some(answer)
    }

    // --- seeding ---------------------------------------------------------------------------
    //
    // The fake keeps every resource as its own JSON record in the contract's wire names. Seeds
    // given as the client's models are turned into JSON once, here; the `*_json` seeds take the
    // server's JSON as it is.

    /// Adds a key whose credentials are `key_id` and `key_secret`, enabled, with `roles`, to
    /// `organization` (created if new), and returns it as the client reads it.
    pub fn seed_key(
        &self,
        organization: OrganizationId,
        key_id: &str,
        key_secret: &str,
        roles: impl IntoIterator<Item = KeyRole>,
    ) -> Key {
        let mut state = self.lock();
        let suffix: String = key_id.chars().rev().take(4).collect::<Vec<_>>().into_iter().rev().collect();
        let roles: Vec<String> = roles.into_iter().map(|role| role.as_str().to_owned()).collect();
        let record = json!({
            "id": state.sequence.uuid(),
            "name": format!("seeded {key_id}"),
            "state": "enabled",
            "roles": roles,
            "keySuffix": suffix,
            "createdAt": date_time(state.now),
            "ipAccessList": [{ "source": "0.0.0.0/0", "description": "" }],
        });
        let credential = KeyCredential::Plain { key_id: key_id.to_owned(), key_secret: key_secret.to_owned() };
        insert_key(&mut state, organization, object(record.clone(), "a key"), credential);
        as_model(record)
    }

    /// Adds a key as given (its `state`, `expireAt` and `roles` are honoured when it is used).
    pub fn seed_key_as(&self, organization: OrganizationId, key: Key, key_id: &str, key_secret: &str) {
        let credential = KeyCredential::Plain { key_id: key_id.to_owned(), key_secret: key_secret.to_owned() };
        insert_key(&mut self.lock(), organization, object(as_json(&key), "a key"), credential);
    }

    /// Sets what `organization` reads as (created if new), given as the contract's
    /// `Organization` JSON (`{"name": "Acme"}`): members given replace those every
    /// organization has (its `id`, a name, `createdAt`, no private endpoints).
    ///
    /// # Panics
    /// If `organization` is not a JSON object.
    pub fn seed_organization_json(&self, organization: OrganizationId, record: Value) {
        self.lock().organizations.entry(organization).or_default().record = object(record, "an organization");
    }

    /// Adds (or replaces) a service of `organization` (created if new).
    pub fn seed_service(&self, organization: OrganizationId, service: Service) {
        self.seed_service_json(organization, as_json(&service));
    }

    /// Adds (or replaces) a service of `organization` (created if new), given as the service's
    /// JSON (`Service`); without a `state` it is `running`.
    ///
    /// # Panics
    /// If `service` is not an object whose `id` is a service id.
    pub fn seed_service_json(&self, organization: OrganizationId, service: Value) {
        let record = object(service, "a service");
        let id: ServiceId = text(&record, "id")
            .and_then(|id| id.parse().ok())
            .unwrap_or_else(|| panic!("a seeded service needs an `id` that is a service id: {record:?}"));
        let seeded = StoredService::new(record);
        let mut state = self.lock();
        let services = &mut state.organizations.entry(organization).or_default().services;
        match services.entry(id) {
            // Replacing keeps the service's pipes and endpoints.
            std::collections::btree_map::Entry::Occupied(mut entry) => {
                let stored = entry.get_mut();
                stored.record = seeded.record;
                stored.transition = None;
            }
            std::collections::btree_map::Entry::Vacant(entry) => {
                entry.insert(seeded);
            }
        }
    }

    /// Adds a pipe to a seeded service.
    ///
    /// # Panics
    /// If the service was not seeded first.
    pub fn seed_pipe(&self, organization: OrganizationId, service: ServiceId, pipe: Pipe) {
        self.seed_pipe_json(organization, service, as_json(&pipe));
    }

    /// Adds a pipe to a seeded service, given as the service's JSON (`Pipe`), kept as it is:
    /// it answers exactly this, and stays in its `state` until a command or a test moves it.
    ///
    /// # Panics
    /// If the service was not seeded first, or `pipe` is not an object with a text `id`.
    pub fn seed_pipe_json(&self, organization: OrganizationId, service: ServiceId, pipe: Value) {
        let record = object(pipe, "a pipe");
        assert!(text(&record, "id").is_some(), "a seeded pipe needs a text `id`: {record:?}");
        self.with_service(organization, service, |stored| stored.pipes.push(record));
    }

    /// Adds a reverse private endpoint to a seeded service.
    ///
    /// # Panics
    /// If the service was not seeded first.
    pub fn seed_reverse_private_endpoint(
        &self,
        organization: OrganizationId,
        service: ServiceId,
        endpoint: ReversePrivateEndpoint,
    ) {
        self.seed_reverse_private_endpoint_json(organization, service, as_json(&endpoint));
    }

    /// Adds a reverse private endpoint to a seeded service, given as the service's JSON
    /// (`ReversePrivateEndpoint`), kept as it is.
    ///
    /// # Panics
    /// If the service was not seeded first, or `endpoint` is not an object.
    pub fn seed_reverse_private_endpoint_json(
        &self,
        organization: OrganizationId,
        service: ServiceId,
        endpoint: Value,
    ) {
        let stored = StoredEndpoint { record: object(endpoint, "an endpoint"), ready_at: None, gone_at: None };
        self.with_service(organization, service, |service| service.reverse_private_endpoints.push(stored));
    }

    /// Adds an alert to the alerting interface. It is kept under the newer servers' field names
    /// (`teamId`, ...) and shown in those of the generation the fake plays.
    pub fn seed_alert(&self, alert: Alert) {
        self.lock().alerts.push(routes::alert_record(&alert));
    }

    /// Accepts `token` as `Authorization: Bearer <token>` on the alerting interface.
    pub fn seed_alerts_token(&self, token: &str) {
        self.lock().alert_tokens.push(token.to_owned());
    }

    // --- steering ------------------------------------------------------------------------

    /// Makes a seeded service `idle` (`true`) or `running` at once: a shortcut for
    /// [`Fake::set_service_state`]. Pipe and reverse-private-endpoint calls on an idle service
    /// answer `424 FAILED_DEPENDENCY`, as the real ones do, until it is woken (`awake`).
    ///
    /// # Panics
    /// If the service was not seeded first.
    pub fn set_service_idle(&self, organization: OrganizationId, service: ServiceId, idle: bool) {
        let state = if idle { ServiceState::Idle } else { ServiceState::Running };
        self.set_service_state(organization, service, state);
    }

    /// Puts a seeded service in `state` at once (ending any transition under way): pipe and
    /// reverse-private-endpoint calls answer `424` unless it is `running`.
    ///
    /// # Panics
    /// If the service was not seeded first.
    pub fn set_service_state(&self, organization: OrganizationId, service: ServiceId, state: ServiceState) {
        self.with_service(organization, service, |stored| stored.set_state(state.as_str()));
    }

    /// The SHA-256, in base64, of a service's default user's password as the last password call
    /// set it (the hash it sent, or that of the password generated); `None` before any, or for
    /// a service the fake does not have. The fake keeps no password in clear.
    pub fn service_password_hash(&self, organization: OrganizationId, service: ServiceId) -> Option<String> {
        self.lock().service_mut(organization, service)?.password_hash.clone()
    }

    /// How long a service stays `awaking`, `starting` or `stopping` on the fake's clock before
    /// it is `running` or `stopped` (default 30 s).
    pub fn set_service_transition_time(&self, takes: Duration) {
        self.lock().service_transition_time = takes;
    }

    /// Moves a pipe to `state` and keeps it there: whatever the pipe's lifecycle still had
    /// planned is dropped, so a pipe seeded `Failed` stays `Failed` until it is started. Returns
    /// whether the pipe exists.
    pub fn set_pipe_state(
        &self,
        organization: OrganizationId,
        service: ServiceId,
        pipe: PipeId,
        state: PipeState,
    ) -> bool {
        let (mut guard, id) = (self.lock(), pipe.to_string());
        unplan_pipe(&mut guard, &id);
        let now = date_time(guard.now);
        let found = guard.service_mut(organization, service).and_then(|stored| stored.pipe_mut(&id));
        found
            .map(|record| {
                record.insert("state".to_owned(), Value::from(state.as_str()));
                record.insert("updatedAt".to_owned(), now);
            })
            .is_some()
    }

    /// How long each step of a created pipe's life takes on the fake's clock (default 30 s):
    /// `Provisioning` to `Running`, `Stopping` to `Stopped`, and each of a database pipe's
    /// `Setup`, `Snapshot`, ... Applies to the steps planned from now on.
    pub fn set_pipe_transition_time(&self, step: Duration) {
        self.lock().pipe_transition_time = step;
    }

    /// How long a created reverse private endpoint stays `Provisioning` before it is `Ready`,
    /// and how long a deleted one stays `Deleting` before a read answers `404`, on the fake's
    /// clock (defaults: 60 s and 30 s).
    pub fn set_reverse_private_endpoint_durations(&self, provisioning: Duration, deleting: Duration) {
        self.lock().endpoint_timings = crate::state::EndpointTimings { provisioning, deleting };
    }

    /// Makes the alerting server know fields beyond its contract, as a server newer than this
    /// crate does: a create or `PUT` keeps them, a `PUT` that leaves one out clears it, like
    /// every other field (the server strips fields it does not know).
    pub fn set_alert_fields_beyond_contract<S: Into<String>>(&self, names: impl IntoIterator<Item = S>) {
        self.lock().alert_fields_beyond_contract = names.into_iter().map(Into::into).collect();
    }

    /// Behave like an older or a newer alerting server.
    pub fn set_alerting_version(&self, version: AlertingVersion) {
        self.lock().alerting_version = version;
    }

    /// The fake's clock: what `createdAt` and `updatedAt` get, and what `expireAt` is checked
    /// against. It starts at 2026-01-01T00:00:00Z and only moves when told.
    pub fn now(&self) -> OffsetDateTime {
        self.lock().now
    }

    /// Moves the clock forward.
    pub fn advance(&self, by: Duration) {
        let mut state = self.lock();
        state.now += by;
    }

    /// Moves the clock forward by `step` after answering each request, so that a client polling
    /// over real HTTP sees time pass (a pipe leaves `Provisioning`, a service wakes up) without
    /// the test sleeping or racing the client. `Duration::ZERO` (the default) turns it off.
    pub fn advance_per_request(&self, step: Duration) {
        self.lock().advance_per_request = step;
    }

    /// Sets the clock.
    pub fn set_now(&self, now: OffsetDateTime) {
        self.lock().now = now;
    }

    /// Adds a fault rule; the first matching rule answers a request.
    pub fn inject(&self, rule: FaultRule) {
        self.lock().faults.push(rule);
    }

    /// Removes every fault rule.
    pub fn clear_faults(&self) {
        self.lock().faults.clear();
    }

    // --- inspection ----------------------------------------------------------------------

    /// Every request received so far, in order.
    pub fn requests(&self) -> Vec<SeenRequest> {
        self.lock().seen.clone()
    }

    /// How many requests were received so far.
    pub fn request_count(&self) -> usize {
        self.lock().seen.len()
    }

    /// Forgets the requests received so far.
    pub fn clear_requests(&self) {
        self.lock().seen.clear();
    }

    /// The pipes of a service, as stored now, read as the client reads the fake's answers.
    ///
    /// # Panics
    /// If the client's `Pipe` cannot read a stored pipe.
    pub fn pipes(&self, organization: OrganizationId, service: ServiceId) -> Vec<Pipe> {
        self.pipes_json(organization, service).into_iter().map(as_model).collect()
    }

    /// The pipes of a service, as stored now: the JSON a `GET` answers, in the fake's own wire
    /// names.
    pub fn pipes_json(&self, organization: OrganizationId, service: ServiceId) -> Vec<Value> {
        let mut state = self.lock();
        settle_pipes(&mut state);
        let stored = state.service_mut(organization, service);
        stored.map(|s| s.pipes.iter().cloned().map(Value::Object).collect()).unwrap_or_default()
    }

    /// The keys of an organization, as stored now, read as the client reads the fake's answers.
    ///
    /// # Panics
    /// If the client's `Key` cannot read a stored key.
    pub fn keys(&self, organization: OrganizationId) -> Vec<Key> {
        self.keys_json(organization).into_iter().map(as_model).collect()
    }

    /// The keys of an organization, as stored now: the JSON a `GET` answers.
    pub fn keys_json(&self, organization: OrganizationId) -> Vec<Value> {
        let state = self.lock();
        let keys = state.organizations.get(&organization).map(|org| org.keys.as_slice()).unwrap_or_default();
        keys.iter().map(|k| Value::Object(k.record.clone())).collect()
    }

    fn with_service(&self, organization: OrganizationId, service: ServiceId, change: impl FnOnce(&mut StoredService)) {
        let mut state = self.lock();
        let stored = state
            .service_mut(organization, service)
            .unwrap_or_else(|| panic!("seed service {service} of organization {organization} first"));
        change(stored);
    }

    /// A panic in one test thread must not hide the fake's state from the others.
    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

/// A seed given as a client model, as the JSON the model writes: the one place a model enters
/// the fake's state.
fn as_json(model: &impl Serialize) -> Value {
    serde_json::to_value(model).expect("a model serializes")
}

/// A stored record read as the client's model, for the inspection helpers.
fn as_model<T: DeserializeOwned>(record: Value) -> T {
    serde_json::from_value(record)
        .unwrap_or_else(|error| panic!("the client's model cannot read the fake's JSON: {error}"))
}

/// The members of a seeded JSON object.
fn object(value: Value, what: &str) -> Record {
    match value {
        Value::Object(record) => record,
        other => panic!("{what} is seeded as a JSON object, not {other}"),
    }
}

/// The fake as a transport with no sockets, for unit tests.
impl Transport for Fake {
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        self.respond(request).ok_or_else(dropped)
    }
}

/// The same through a shared reference, so a test can keep using its handle.
impl Transport for &Fake {
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        self.respond(request).ok_or_else(dropped)
    }
}

/// What a transport reports for a connection dropped once the request was sent.
fn dropped() -> TransportError {
    let cause = std::io::Error::new(std::io::ErrorKind::ConnectionReset, "the fake dropped the connection");
    TransportError::new(pipe_api_proto::TransportErrorKind::Io, cause)
}
