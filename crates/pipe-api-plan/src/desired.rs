//! [`DesiredState`]: what a service should have, as a user keeps it in a repository, read from
//! JSON with its secrets looked up by reference and every resource checked like a request.

use std::fmt;

use pipe_api_types::{AlertRequest, CreatePipeRequest, CreateReversePrivateEndpointRequest, Validate};
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
#[derive(Clone, Default, PartialEq)]
#[non_exhaustive]
pub struct DesiredState {
    /// The reverse private endpoints, each named by its `description`.
    pub reverse_private_endpoints: Vec<CreateReversePrivateEndpointRequest>,
    /// The pipes, each named by its `name`.
    pub pipes: Vec<DesiredPipe>,
    /// The alerts (alerting interface), each named by its `name`.
    pub alerts: Vec<AlertRequest>,
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
                .finish_non_exhaustive()
        })
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
        let resolved = Resolved::new(resolved);
        let mut state = Self::from_resolved(value).map_err(|error| error.without(&resolved))?;
        state.check().map_err(|error| error.without(&resolved))?;
        state.resolved = resolved;
        Ok(state)
    }

    /// Reads each kind's list item by item, so that an error names the item.
    fn from_resolved(value: Value) -> Result<Self, DesiredStateError> {
        let Value::Object(mut root) = value else {
            return Err(DesiredStateError::new("", Problem::Malformed("a desired state is a JSON object".into())));
        };
        if let Some(unknown) = root.keys().find(|key| !KINDS.contains(&key.as_str())) {
            let message = format!("not a kind of resource (expected one of {})", KINDS.join(", "));
            let unknown = crate::shown::truncate(unknown, crate::resource::NAME_SHOWN).into_owned();
            return Err(DesiredStateError::new(unknown, Problem::Malformed(message)));
        }
        Ok(DesiredState {
            reverse_private_endpoints: items(&mut root, KINDS[0], from_value)?,
            pipes: items(&mut root, KINDS[1], desired_pipe)?,
            alerts: items(&mut root, KINDS[2], from_value)?,
            resolved: Resolved::default(),
        })
    }

    /// Names present and unique; each resource valid as a request (which refuses, at every
    /// depth, a member this crate does not know and a value of the wrong type).
    fn check(&self) -> Result<(), DesiredStateError> {
        let endpoints = self.reverse_private_endpoints.iter().map(|e| (e.description.as_deref(), e as &dyn Validate));
        check_kind(KINDS[0], "description", endpoints)?;
        let pipes = self.pipes.iter().map(|p| (p.pipe.name.as_deref(), &p.pipe as &dyn Validate));
        check_kind(KINDS[1], "name", pipes)?;
        check_kind(
            KINDS[2],
            "name",
            self.alerts.iter().map(|a| {
                (
                    a.name.as_ref().and_then(pipe_api_types::Nullable::value).map(|name| name.as_str()),
                    a as &dyn Validate,
                )
            }),
        )?;
        self.check_endpoint_references()
    }

    /// Each endpoint a Kafka source names is an endpoint of this desired state (by its
    /// description) or an id: a misspelt name would otherwise be sent as an id.
    fn check_endpoint_references(&self) -> Result<(), DesiredStateError> {
        let named = |name: &str| self.reverse_private_endpoints.iter().any(|e| e.description.as_deref() == Some(name));
        for (index, pipe) in self.pipes.iter().enumerate() {
            let kafka = pipe.pipe.source.as_ref().and_then(|source| source.kafka.as_ref());
            let references = kafka.and_then(|kafka| kafka.reverse_private_endpoint_ids.as_ref());
            for (at, reference) in references.into_iter().flatten().enumerate() {
                if !named(reference) && reference.parse::<pipe_api_types::ReversePrivateEndpointId>().is_err() {
                    let path = format!("pipes[{index}].source.kafka.reversePrivateEndpointIds[{at}]");
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
}

/// The kinds of resource, as the JSON names them.
const KINDS: [&str; 3] = ["reversePrivateEndpoints", "pipes", "alerts"];

/// Why one item was not read: the member it is about (a path within the item, empty for the
/// item itself) and what.
type ItemError = (&'static str, String);

/// The items of one kind's list, each read on its own.
fn items<T>(
    root: &mut serde_json::Map<String, Value>,
    kind: &str,
    read: fn(Value) -> Result<T, ItemError>,
) -> Result<Vec<T>, DesiredStateError> {
    match root.remove(kind) {
        None | Some(Value::Null) => Ok(Vec::new()),
        Some(Value::Array(items)) => items
            .into_iter()
            .enumerate()
            .map(|(index, item)| {
                read(item).map_err(|(member, e)| {
                    let path = if member.is_empty() {
                        format!("{kind}[{index}]")
                    } else {
                        format!("{kind}[{index}].{member}")
                    };
                    DesiredStateError::new(path, Problem::Malformed(e))
                })
            })
            .collect(),
        Some(_) => Err(DesiredStateError::new(kind, Problem::Malformed("a list".into()))),
    }
}

/// A model read from a JSON value.
fn from_value<T: serde::de::DeserializeOwned>(value: Value) -> Result<T, ItemError> {
    crate::json::read_model(value).map_err(|e| ("", e))
}

/// A desired pipe: its `state`, and the rest as its create request.
fn desired_pipe(value: Value) -> Result<DesiredPipe, ItemError> {
    let Value::Object(mut members) = value else { return Err(("", "a pipe is a JSON object".into())) };
    let state = match members.remove("state") {
        None | Some(Value::Null) => DesiredPipeState::Running,
        Some(Value::String(state)) if state == "running" => DesiredPipeState::Running,
        Some(Value::String(state)) if state == "stopped" => DesiredPipeState::Stopped,
        Some(_) => return Err(("state", "must be one of `running`, `stopped`".into())),
    };
    Ok(DesiredPipe { pipe: from_value(Value::Object(members))?, state })
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
