//! [`DesiredState`]: what a service should have, as a user keeps it in a repository, read from
//! JSON with its secrets looked up by reference and every resource checked like a request.

use std::fmt;

use pipe_api_types::{
    AlertRequest, CreatePipeRequest, CreateReversePrivateEndpointRequest, CreateServiceRequest, Validate,
};
use serde_json::Value;

use pipe_api_proto::is_secret_field;

use crate::shown::{Resolved, truncate};

/// What a service should have: its reverse private endpoints, its pipes, and the alerts of the
/// alerting interface. Each is known by its name (an endpoint's `description`, a pipe's and an
/// alert's `name`). Read it with [`DesiredState::from_json`]: the checked way in.
///
/// ```json
/// {
///   "reversePrivateEndpoints": [
///     {"description": "brokers", "type": "VPC_ENDPOINT_SERVICE",
///      "vpcEndpointServiceName": "com.amazonaws.vpce.us-east-1.vpce-svc-0abc"}
///   ],
///   "pipes": [
///     {"name": "orders", "state": "running",
///      "source": {"kafka": {"type": "msk", "format": "JSONEachRow", "brokers": "b-1:9092",
///        "topics": "orders", "authentication": "SCRAM-SHA-512",
///        "credentials": {"username": "ingest", "password": {"env": "KAFKA_PASSWORD"}},
///        "reversePrivateEndpointIds": ["brokers"]}},
///      "destination": {"table": "orders", "managedTable": true,
///        "columns": [{"name": "id", "type": "UInt64"}]}}
///   ],
///   "alerts": []
/// }
/// ```
///
/// A Kafka source's `reversePrivateEndpointIds` may name an endpoint of the same desired state
/// by its description: the plan puts in its id (known once it is created).
///
/// It has no `Serialize`: written back, it would hold the secrets in clear. Every value its
/// lookup gave is kept (never shown) and goes into its plan, so that neither its `Debug` nor any
/// output of its plan shows one.
///
/// # An environment: services and what runs on them
/// A desired state may instead declare the organization's services (`services`), each with its
/// reverse private endpoints, pipes and alerts under it, so that one file describes an
/// environment; it is planned for the organization
/// ([`plan_organization`](crate::planner::plan_organization)), and its top level then holds no
/// endpoint or pipe (they are each under their service). A service's password is a reference,
/// sent only as its hashes. Alerts name no service: those under a service join the top level's.
///
/// ```json
/// {
///   "services": [
///     {"name": "production", "provider": "aws", "region": "us-east-1",
///      "numReplicas": 3, "minReplicaMemoryGb": 16, "maxReplicaMemoryGb": 120,
///      "idleScaling": true, "idleTimeoutMinutes": 15,
///      "ipAccessList": [{"source": "10.0.0.0/8", "description": "office"}],
///      "tags": [{"key": "env", "value": "production"}],
///      "password": {"env": "PRODUCTION_PASSWORD"},
///      "pipes": []}
///   ]
/// }
/// ```
#[derive(Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct DesiredState {
    /// The reverse private endpoints, each named by its `description`.
    pub reverse_private_endpoints: Vec<CreateReversePrivateEndpointRequest>,
    /// The pipes, each named by its `name`.
    pub pipes: Vec<DesiredPipe>,
    /// The alerts (alerting interface), each named by its `name`.
    pub alerts: Vec<AlertRequest>,
    /// The services of the organization, each named by its `name`, with what runs on it.
    pub services: Vec<DesiredService>,
    /// The values the lookup gave, redacted wherever the state or its plan is shown.
    pub(crate) resolved: Resolved,
}

impl fmt::Debug for DesiredState {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.write(f, |f| {
            f.debug_struct("DesiredState")
                .field("reverse_private_endpoints", &self.reverse_private_endpoints)
                .field("pipes", &self.pipes)
                .field("alerts", &self.alerts)
                .field("services", &self.services)
                .finish_non_exhaustive()
        })
    }
}

/// A service as it should be: what its create request holds, its password's hashes when the
/// file declares one, and its reverse private endpoints and pipes
/// ([`DesiredService::resources`]). `Debug` shows no hash (nor, through its desired state, any
/// value the lookup gave).
#[derive(Clone, PartialEq)]
#[non_exhaustive]
pub struct DesiredService {
    /// The service: name, provider, region, scaling, idling, IP access list, tags, endpoints.
    pub service: CreateServiceRequest,
    /// The hashes of its default user's password, as the password request sends them.
    pub(crate) password: Option<PasswordHashes>,
    /// Its reverse private endpoints and pipes (its alerts join the desired state's).
    pub resources: DesiredState,
}

impl fmt::Debug for DesiredService {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("DesiredService")
            .field("service", &self.service)
            .field("password", &self.password.as_ref().map(|_| pipe_api_proto::REDACTED))
            .field("resources", &self.resources)
            .finish()
    }
}

impl DesiredService {
    /// Its name (checked present when read).
    pub fn name(&self) -> &str {
        self.service.name.as_deref().unwrap_or_default()
    }

    /// Whether the file declares its password (then set, by hash, when the service is created).
    pub fn declares_password(&self) -> bool {
        self.password.is_some()
    }
}

/// A password as the password request (`instancePasswordUpdate`) takes it: never in clear.
#[derive(Clone, PartialEq, Eq)]
pub(crate) struct PasswordHashes {
    /// `newPasswordHash`: the base64 of the password's SHA-256.
    pub(crate) sha256_base64: String,
    /// `newDoubleSha1Hash`: the hex of the SHA-1 of its SHA-1, for the MySQL protocol.
    pub(crate) double_sha1_hex: String,
}

impl PasswordHashes {
    /// The hashes of `password`, as the contract's `ServicePasswordPatchRequest` defines them
    /// (`echo -n "$password" | sha256sum | xxd -r -p | base64`, and `sha1sum` twice, in hex).
    pub(crate) fn of(password: &str) -> Self {
        use base64::Engine as _;
        use sha1::Digest as _;
        let sha256 = sha2::Sha256::digest(password.as_bytes());
        let double_sha1 = sha1::Sha1::digest(sha1::Sha1::digest(password.as_bytes()));
        PasswordHashes {
            sha256_base64: base64::engine::general_purpose::STANDARD.encode(sha256),
            double_sha1_hex: double_sha1.iter().map(|byte| format!("{byte:02x}")).collect(),
        }
    }
}

/// A pipe as it should be: what its create request holds, and whether it should run (the
/// member `state` beside the request's, `running` or `stopped`).
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DesiredPipe {
    /// The pipe: name, source, destination, field mappings, scaling, settings.
    pub pipe: CreatePipeRequest,
    /// Running (the default) or stopped.
    pub state: DesiredPipeState,
}

impl DesiredPipe {
    /// A pipe that should exist as `pipe` says, running.
    pub fn new(pipe: CreatePipeRequest) -> Self {
        DesiredPipe { pipe, state: DesiredPipeState::Running }
    }

    /// Sets whether it should run.
    #[must_use]
    pub fn state(mut self, state: DesiredPipeState) -> Self {
        self.state = state;
        self
    }

    /// Its name (checked present when read).
    pub fn name(&self) -> &str {
        self.pipe.name.as_deref().unwrap_or_default()
    }
}

/// Whether a desired pipe runs.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub enum DesiredPipeState {
    /// Ingesting (a pipe starts running when created).
    #[default]
    Running,
    /// Stopped (a database pipe: paused). A new pipe is created, then stopped.
    Stopped,
}

impl DesiredState {
    /// Reads a desired state from JSON. Every secret is a reference, `{"env": "NAME"}`, that
    /// `secrets` looks up (`|name| std::env::var(name).ok()` for the environment); a secret
    /// written in clear is refused, so that none is ever committed. Each resource is then
    /// checked as its create request would be, strictly (a member this crate does not know, an
    /// enum typo or a value of the wrong type is refused at its whole path; a member newer than
    /// this crate goes under `"$notYetKnown"`), and
    /// each name must be present and unique within its kind. The file is read within the
    /// budget every answer is read within
    /// ([`read_json_document`](pipe_api_proto::read_json_document)): whatever its shape, it
    /// costs a small multiple of its size, or is refused.
    pub fn from_json(text: &str, secrets: impl Fn(&str) -> Option<String>) -> Result<Self, DesiredStateError> {
        let value = pipe_api_proto::read_json_document(text)
            .map_err(|error| DesiredStateError::new(error.path, Problem::NotJson(error.message)))?;
        Self::from_document(value, secrets)
    }

    /// [`DesiredState::from_json`] of a document already read as JSON (an export's own).
    pub(crate) fn from_document(
        mut value: Value,
        secrets: impl Fn(&str) -> Option<String>,
    ) -> Result<Self, DesiredStateError> {
        let mut resolved = Vec::new();
        resolve_secrets(&mut value, &mut String::new(), &secrets, &mut resolved)?;
        let found = Resolved::new(resolved.clone());
        let mut state = Self::from_resolved(value).map_err(|error| error.without(&found))?;
        // A password's hashes are as good as the password to whoever can test guesses
        // against them: they are taken out of what is shown as the password is.
        for service in &state.services {
            if let Some(hashes) = &service.password {
                resolved.extend([hashes.sha256_base64.clone(), hashes.double_sha1_hex.clone()]);
            }
        }
        let resolved = Resolved::new(resolved);
        state.check().map_err(|error| error.without(&resolved))?;
        for service in &mut state.services {
            service.resources.resolved = resolved.clone();
        }
        state.resolved = resolved;
        Ok(state)
    }

    /// Reads each kind's list item by item, so that an error names the item.
    fn from_resolved(value: Value) -> Result<Self, DesiredStateError> {
        let Value::Object(mut root) = value else {
            return Err(DesiredStateError::new("", Problem::Malformed("a desired state is a JSON object".into())));
        };
        if let Some(unknown) = root.keys().find(|key| !KINDS.contains(&key.as_str()) && key.as_str() != SERVICES) {
            let message = format!("not a kind of resource (expected one of {}, {SERVICES})", KINDS.join(", "));
            let unknown = crate::shown::truncate(unknown, crate::resource::NAME_SHOWN).into_owned();
            return Err(DesiredStateError::new(unknown, Problem::Malformed(message)));
        }
        let services: Vec<DesiredService> = items(&mut root, SERVICES, SERVICES, desired_service)?;
        let mut state = Self::resources(&mut root, "")?;
        if !services.is_empty() {
            // Each endpoint and pipe of an environment runs on a service: it sits under it.
            for (kind, declared) in
                [(KINDS[0], !state.reverse_private_endpoints.is_empty()), (KINDS[1], !state.pipes.is_empty())]
            {
                if declared {
                    let message = "a desired state that declares services keeps each service's under it";
                    return Err(DesiredStateError::new(kind, Problem::Malformed(message.into())));
                }
            }
        }
        state.services = services;
        Ok(state)
    }

    /// The lists of one service's resources (and the alerts) in `members`, whose path is
    /// `at` (`services[0].`, empty for the root).
    fn resources(members: &mut serde_json::Map<String, Value>, at: &str) -> Result<Self, DesiredStateError> {
        Ok(DesiredState {
            reverse_private_endpoints: items(members, KINDS[0], &format!("{at}{}", KINDS[0]), from_value)?,
            pipes: items(members, KINDS[1], &format!("{at}{}", KINDS[1]), desired_pipe)?,
            alerts: items(members, KINDS[2], &format!("{at}{}", KINDS[2]), from_value)?,
            services: Vec::new(),
            resolved: Resolved::default(),
        })
    }

    /// Names present and unique; each resource valid as a request (which refuses, at every
    /// depth, a member this crate does not know and a value of the wrong type). The alerts
    /// under a service then join the top level's, whose names they share.
    fn check(&mut self) -> Result<(), DesiredStateError> {
        self.check_resources("")?;
        let services = self.services.iter().map(|s| (s.service.name.as_deref(), &s.service as &dyn Validate));
        check_kind(SERVICES, "name", services)?;
        for (index, service) in self.services.iter_mut().enumerate() {
            service.resources.check_resources(&format!("{SERVICES}[{index}]."))?;
            self.alerts.append(&mut service.resources.alerts);
        }
        check_kind(KINDS[2], "name", self.alerts.iter().map(|a| (alert_name(a), a as &dyn Validate)))
    }

    /// [`DesiredState::check`] of the endpoints, pipes and alerts of the lists at `at`.
    fn check_resources(&self, at: &str) -> Result<(), DesiredStateError> {
        let endpoints = self.reverse_private_endpoints.iter().map(|e| (e.description.as_deref(), e as &dyn Validate));
        check_kind(&format!("{at}{}", KINDS[0]), "description", endpoints)?;
        let pipes = self.pipes.iter().map(|p| (p.pipe.name.as_deref(), &p.pipe as &dyn Validate));
        check_kind(&format!("{at}{}", KINDS[1]), "name", pipes)?;
        let alerts = self.alerts.iter().map(|a| (alert_name(a), a as &dyn Validate));
        check_kind(&format!("{at}{}", KINDS[2]), "name", alerts)?;
        self.check_endpoint_references(at)
    }

    /// Each endpoint a Kafka source names is an endpoint of this desired state (by its
    /// description) or an id: a misspelt name would otherwise be sent as an id.
    fn check_endpoint_references(&self, at: &str) -> Result<(), DesiredStateError> {
        let named = |name: &str| self.reverse_private_endpoints.iter().any(|e| e.description.as_deref() == Some(name));
        for (index, pipe) in self.pipes.iter().enumerate() {
            let kafka = pipe.pipe.source.as_ref().and_then(|source| source.kafka.as_ref());
            let references = kafka.and_then(|kafka| kafka.reverse_private_endpoint_ids.as_ref());
            for (at_reference, reference) in references.into_iter().flatten().enumerate() {
                if !named(reference) && reference.parse::<pipe_api_types::ReversePrivateEndpointId>().is_err() {
                    let path = format!("{at}pipes[{index}].source.kafka.reversePrivateEndpointIds[{at_reference}]");
                    let message = "names no reverse private endpoint of the desired state, and is not an id";
                    return Err(DesiredStateError::new(path, Problem::Malformed(message.into())));
                }
            }
        }
        Ok(())
    }

    /// The desired pipe named `name`.
    pub fn pipe(&self, name: &str) -> Option<&DesiredPipe> {
        self.pipes.iter().find(|pipe| pipe.name() == name)
    }

    /// The desired service named `name`.
    pub fn service(&self, name: &str) -> Option<&DesiredService> {
        self.services.iter().find(|service| service.name() == name)
    }

    /// Whether it declares services: then it is planned for the organization, not a service.
    pub fn declares_services(&self) -> bool {
        !self.services.is_empty()
    }
}

/// The kinds of resource a service has, as the JSON names them.
const KINDS: [&str; 3] = ["reversePrivateEndpoints", "pipes", "alerts"];

/// The list of services, as the JSON names it.
pub(crate) const SERVICES: &str = "services";

/// The member of a service that is its password (a reference), not its create request's.
const PASSWORD: &str = "password";

/// The items of one kind's list (the member `kind`, at the path `path`), each read on its own.
fn items<T>(
    root: &mut serde_json::Map<String, Value>,
    kind: &str,
    path: &str,
    read: fn(Value) -> Result<T, DesiredStateError>,
) -> Result<Vec<T>, DesiredStateError> {
    let kind_path = path;
    match root.remove(kind) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                // An item's error names its path within the item: the item's path goes before.
                read(item).map_err(|mut error| {
                    let item = format!("{kind_path}[{index}]");
                    error.path = if error.path.is_empty() { item } else { format!("{item}.{}", error.path) };
                    error
                })
            })
            .collect(),
        Some(_) => Err(DesiredStateError::new(kind_path, Problem::Malformed("a list".into()))),
    }
}

/// A model read from a JSON value.
fn from_value<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, DesiredStateError> {
    crate::json::read_model(value).map_err(|e| DesiredStateError::new("", Problem::Malformed(e)))
}

/// A desired pipe: its `state`, and the rest as its create request.
fn desired_pipe(value: Value) -> Result<DesiredPipe, DesiredStateError> {
    let Value::Object(mut members) = value else { return Err(malformed("", "a pipe is a JSON object")) };
    let state = match members.remove("state") {
        None | Some(Value::Null) => DesiredPipeState::Running,
        Some(Value::String(state)) if state == "running" => DesiredPipeState::Running,
        Some(Value::String(state)) if state == "stopped" => DesiredPipeState::Stopped,
        Some(_) => return Err(malformed("state", "must be one of `running`, `stopped`")),
    };
    Ok(DesiredPipe { pipe: from_value(Value::Object(members))?, state })
}

/// A desired service: its password (resolved from its reference, kept only as its hashes),
/// its resources' lists, and the rest as its create request.
fn desired_service(value: Value) -> Result<DesiredService, DesiredStateError> {
    let Value::Object(mut members) = value else { return Err(malformed("", "a service is a JSON object")) };
    let password = match members.remove(PASSWORD) {
        None | Some(Value::Null) => None,
        Some(Value::String(password)) => Some(PasswordHashes::of(&password)),
        // A reference is resolved to a string before: anything else is no reference.
        Some(_) => return Err(malformed(PASSWORD, r#"must be a reference, {"env": "NAME"}"#)),
    };
    let resources = DesiredState::resources(&mut members, "")?;
    Ok(DesiredService { service: from_value(Value::Object(members))?, password, resources })
}

/// The error of a member (`at`, within its item) of the wrong shape.
fn malformed(at: &str, message: &str) -> DesiredStateError {
    DesiredStateError::new(at, Problem::Malformed(message.to_owned()))
}

/// Each item of a kind named (by `name_field`), uniquely, and valid as a request.
fn check_kind<'a>(
    kind: &str,
    name_field: &str,
    items: impl Iterator<Item = (Option<&'a str>, &'a dyn Validate)>,
) -> Result<(), DesiredStateError> {
    let mut seen: Vec<&str> = Vec::new();
    for (index, (name, item)) in items.enumerate() {
        let path = format!("{kind}[{index}]");
        // First as a request: a misspelt or mistyped name is refused as such, naming the field.
        item.validate().map_err(|errors| {
            // Each violation at its whole path from the root, and the error at the first.
            let errors = errors.within(&path);
            DesiredStateError::new(errors.violations()[0].path.clone(), Problem::Invalid(errors))
        })?;
        let name = name.filter(|name| !name.trim().is_empty()).ok_or_else(|| {
            DesiredStateError::new(
                format!("{path}.{name_field}"),
                Problem::Malformed("required: it names the resource".into()),
            )
        })?;
        if let Some(first) = seen.iter().position(|seen| *seen == name) {
            return Err(DesiredStateError::new(path, Problem::SameName { name: name.to_owned(), first }));
        }
        seen.push(name);
    }
    Ok(())
}

/// Replaces every `{"env": "NAME"}` with the secret `secrets` gives for `NAME`, and refuses a
/// secret-bearing field written in clear. `resolved` collects the secrets put in, so that no
/// later error shows one.
fn resolve_secrets(
    value: &mut Value,
    path: &mut String,
    secrets: &dyn Fn(&str) -> Option<String>,
    resolved: &mut Vec<String>,
) -> Result<(), DesiredStateError> {
    if let Some(name) = secret_reference(value) {
        let secret = secrets(name)
            .ok_or_else(|| DesiredStateError::new(path.clone(), Problem::SecretNotFound(name.to_owned())))?;
        resolved.push(secret.clone());
        *value = Value::String(secret);
        return Ok(());
    }
    let length = path.len();
    match value {
        Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(&crate::shown::truncate(key, crate::resource::NAME_SHOWN));
                if is_secret_field(key) && child.is_string() {
                    return Err(DesiredStateError::new(path.clone(), Problem::SecretInClear));
                }
                resolve_secrets(child, path, secrets, resolved)?;
                path.truncate(length);
            }
        }
        Value::Array(items) => {
            for (index, item) in items.iter_mut().enumerate() {
                path.push_str(&format!("[{index}]"));
                resolve_secrets(item, path, secrets, resolved)?;
                path.truncate(length);
            }
        }
        _ => {}
    }
    Ok(())
}

/// The variable a secret reference names: an object whose only member is `env`, a string.
fn secret_reference(value: &Value) -> Option<&str> {
    match value {
        Value::Object(map) if map.len() == 1 => map.get("env").and_then(Value::as_str),
        _ => None,
    }
}

/// Why a desired state was not read: where (a JSON path from the root, such as
/// `pipes[0].source.kafka.credentials.password`) and what. `Debug` reads as the message; no
/// value the lookup gave is shown.
pub struct DesiredStateError {
    path: String,
    problem: Problem,
    /// The values resolved before the error, taken out of its text.
    resolved: Resolved,
}

/// What was wrong in a desired state.
#[derive(Debug)]
#[non_exhaustive]
pub enum Problem {
    /// The text is not JSON.
    NotJson(String),
    /// A value does not have the shape its field needs.
    Malformed(String),
    /// A secret is written in clear: it must be a reference.
    SecretInClear,
    /// A secret reference names a variable that the lookup does not know.
    SecretNotFound(String),
    /// Two resources of one kind have the same name.
    SameName {
        /// The name.
        name: String,
        /// The index of the first one.
        first: usize,
    },
    /// A resource breaks the rules of its request, or holds a member this crate does not know
    /// or a value of the wrong type: each violation at its whole path from the root
    /// (`pipes[0].scaling.replcas`).
    Invalid(pipe_api_types::ValidationErrors),
}

impl DesiredStateError {
    fn new(path: impl Into<String>, problem: Problem) -> Self {
        DesiredStateError { path: path.into(), problem, resolved: Resolved::default() }
    }

    /// Where, as a JSON path from the root (empty for the root).
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What was wrong.
    pub fn problem(&self) -> &Problem {
        &self.problem
    }

    /// The same error, with no value of `resolved` in what it holds and shows (serde's
    /// messages quote values; a name may be a resolved one).
    fn without(mut self, resolved: &Resolved) -> Self {
        match &mut self.problem {
            Problem::Malformed(message) => *message = resolved.scrub(message),
            Problem::SameName { name, .. } => *name = resolved.scrub(name),
            _ => {}
        }
        self.path = resolved.scrub(&self.path);
        self.resolved = resolved.clone();
        self
    }
}

/// The most of a message from the JSON reader an error shows.
const MESSAGE_SHOWN: usize = 300;

impl fmt::Display for DesiredStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.shown(f, |f| self.render(f))
    }
}

impl DesiredStateError {
    /// The text `Display` shows, before the redaction of resolved values.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("desired state: ")?;
        // A violation names its own whole path.
        if !self.path.is_empty() && !matches!(self.problem, Problem::Invalid(_)) {
            write!(f, "{}: ", self.path)?;
        }
        match &self.problem {
            Problem::NotJson(message) => write!(f, "not JSON: {}", truncate(message, MESSAGE_SHOWN)),
            Problem::Malformed(message) => f.write_str(&truncate(message, MESSAGE_SHOWN)),
            Problem::SecretInClear => {
                f.write_str(r#"a secret is never written in the desired state: write a reference, {"env": "NAME"}"#)
            }
            Problem::SecretNotFound(name) => {
                write!(f, "the secret {:?} is not set", truncate(name, 64))
            }
            Problem::SameName { name, first } => {
                let (kind, _) = self.path.split_once('[').unwrap_or((&self.path, ""));
                write!(f, "the name {:?} is already {kind}[{first}]'s", truncate(name, 64))
            }
            Problem::Invalid(errors) => write!(f, "{}", truncate(&errors.to_string(), 2 * MESSAGE_SHOWN)),
        }
    }
}

impl fmt::Debug for DesiredStateError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for DesiredStateError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match &self.problem {
            Problem::Invalid(errors) => Some(errors),
            _ => None,
        }
    }
}

/// An alert's name, the name it is planned by: none when absent or `null`.
pub(crate) fn alert_name(alert: &AlertRequest) -> Option<&str> {
    alert.name.as_ref().and_then(pipe_api_types::Nullable::value).map(|name| name.as_str())
}
