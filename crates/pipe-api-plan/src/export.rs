//! [`export()`]: what a service has, written as a desired state that plans to no changes on it.
//!
//! The document is built from what the lists returned, then settled against the desired
//! state's own reader, so that no rule is written twice: each round reads it back with
//! [`DesiredState::from_json`](crate::desired::DesiredState::from_json) and mends what that refuses in a way only an export can, until
//! it reads. What the create request requires and the server never echoes (a Kafka source's
//! `credentials`, an `accessKey`, a `connectionString`) becomes a reference the user fills;
//! a member this crate does not know is left out, and said.

use std::collections::BTreeSet;
use std::fmt;

use pipe_api_proto::is_secret_field;
use pipe_api_types::{
    AlertRequest, CreatePipeRequest, CreateReversePrivateEndpointRequest, CreateServiceRequest, EndpointProtocol,
    PipeState, Rule, Service, Violation,
};
use serde_json::{Map, Value, json};

use crate::current::Current;
use crate::desired::{DesiredStateError, Problem};
use crate::json::{compared, only, to_json};
use crate::resource::{Kind, Resource};
use crate::shown::Sorted;

/// What an export takes beyond the service's resources.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct ExportOptions {
    /// Export every alert of the alerting interface too. An alert watches a saved search or a
    /// dashboard tile of the alerting tool and names no service (the models have no member
    /// that would tie it to one), so which alerts are the service's cannot be told: either
    /// every alert the token sees is exported, or none (the default).
    pub alerts: bool,
    /// Leave out, and say in [`Exported::notes`], a resource the desired state's reader
    /// refuses (a value this crate does not know, a field its create request requires that the
    /// server did not send), instead of refusing the export (the default). A resource left out
    /// is not in the file: a plan of it with [`PlanOptions::prune`](crate::planned::PlanOptions::prune)
    /// deletes it.
    pub leave_out_unreadable: bool,
}

impl ExportOptions {
    /// Exports every alert too (the whole team's: see [`ExportOptions::alerts`]).
    #[must_use]
    pub fn alerts(mut self, alerts: bool) -> Self {
        self.alerts = alerts;
        self
    }

    /// Leaves out a resource the reader refuses (see [`ExportOptions::leave_out_unreadable`]).
    #[must_use]
    pub fn leave_out_unreadable(mut self, leave_out: bool) -> Self {
        self.leave_out_unreadable = leave_out;
        self
    }
}

/// A secret reference an export wrote: the variable the user sets (or the vault entry a
/// lookup answers for), and where it stands.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct SecretReference {
    /// The variable, `PIPE_ORDERS_KAFKA_PASSWORD`: the kind, the resource's name, and the
    /// member's path (a container such as `credentials` left out), upper case, `_` between;
    /// `_2`, `_3`... when another reference already has it.
    pub name: String,
    /// The resource it belongs to.
    pub resource: Resource,
    /// Its JSON path in the document, `pipes[0].source.kafka.credentials.password`.
    pub path: String,
}

impl fmt::Display for SecretReference {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: {} ({})", self.name, self.resource, self.path)
    }
}

/// A service's state as a desired-state document, made by [`export()`]. `Display` writes the
/// file (pretty JSON, keys in order), which
/// [`DesiredState::from_json`](crate::desired::DesiredState::from_json) reads once each of
/// its [`secrets`](Exported::secrets) is answered by the lookup.
#[derive(Clone, Debug, PartialEq)]
pub struct Exported {
    document: Value,
    secrets: Vec<SecretReference>,
    notes: Vec<String>,
}

impl Exported {
    /// The document as JSON.
    pub fn to_json(&self) -> &Value {
        &self.document
    }

    /// The references written where a secret stands (or a member the server never echoes), in
    /// the document's order: what the user fills before planning.
    pub fn secrets(&self) -> &[SecretReference] {
        &self.secrets
    }

    /// What was left out, and why (a resource with no name, a member this crate does not know,
    /// an endpoint being deleted, a failed pipe).
    pub fn notes(&self) -> &[String] {
        &self.notes
    }
}

impl fmt::Display for Exported {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let text = serde_json::to_string_pretty(&Sorted(&self.document)).expect("a JSON value serializes");
        writeln!(f, "{text}")
    }
}

/// Why no export was made.
#[non_exhaustive]
pub enum ExportError {
    /// Two resources of one kind on the server have one name: a desired state could not tell
    /// them apart.
    SameNameOnServer {
        /// The name, and its kind.
        resource: Resource,
        /// The ids of two of them.
        ids: [String; 2],
    },
    /// Alerts were asked for, and not read (or not every one was).
    AlertsNotRead,
    /// A resource does not read as a desired one (a value this crate does not know, a field
    /// its create request requires that the server did not send); see
    /// [`ExportOptions::leave_out_unreadable`].
    UnreadableResource {
        /// The resource.
        resource: Resource,
        /// Why, as the reader says it (its path within the resource, and the rule).
        why: String,
    },
    /// The document does not read back as a desired state, though each resource did (a rule
    /// across resources): the error says where.
    Unreadable(DesiredStateError),
    /// Reading the current state failed (a client that lists before it exports).
    Read(pipe_api_proto::Error),
    /// The service asked for was not read: the organization has no service of its id, or it
    /// neither runs nor idles, and what a service has is read only then (its pipe calls
    /// answer `424` otherwise).
    ServiceNotRead {
        /// The service's id.
        service: pipe_api_types::ServiceId,
        /// Its state, when it was listed.
        state: Option<String>,
    },
}

impl fmt::Display for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::shown::shown(f, |f| self.render(f))
    }
}

impl ExportError {
    /// The text `Display` shows, before it is cut.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ExportError::SameNameOnServer { resource, ids: [first, second] } => write!(
                f,
                "export: {resource} names two resources on the server ({first} and {second}): rename or delete one"
            ),
            ExportError::AlertsNotRead => {
                f.write_str("export: alerts were asked for, and the current alerts were not read (or not every one)")
            }
            ExportError::UnreadableResource { resource, why } => write!(
                f,
                "export: {resource} does not read as a {why}: leave it out with ExportOptions::leave_out_unreadable (a plan of the file that prunes then deletes it)"
            ),
            ExportError::Unreadable(error) => write!(f, "export: what the server has does not read back: {error}"),
            ExportError::Read(error) => write!(f, "export: reading the current state failed: {error}"),
            ExportError::ServiceNotRead { service, state: None } => {
                write!(f, "export: the organization has no service {service}")
            }
            ExportError::ServiceNotRead { service, state: Some(state) } => write!(
                f,
                "export: the service {service} is {}: what it has is read only while it runs; start it, then export",
                crate::shown::truncate(state, 64)
            ),
        }
    }
}

/// Reads as the message, not a struct dump.
impl fmt::Debug for ExportError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ExportError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ExportError::Unreadable(error) => Some(error),
            ExportError::Read(error) => Some(error),
            _ => None,
        }
    }
}

/// The desired state that describes `current`: planned against the same service (with the
/// same [`PlanOptions`](crate::planned::PlanOptions), its secrets filled in), it gives no changes.
///
/// - Each reverse private endpoint, pipe and (with [`ExportOptions::alerts`]) alert is written
///   as its create request holds it: what the server fills itself (ids, `serviceId`, states
///   and statuses, DNS names, timestamps, an alert's silencing and errors) is left out. A pipe
///   that is stopped, paused, stopping or pausing is written `"state": "stopped"`.
/// - A Kafka source names an exported endpoint by its description, as a desired state may.
/// - Every secret, and every member the create request needs that the server never echoes
///   (a source's `credentials` or `accessKey`, whole), is a reference `{"env": "NAME"}`
///   ([`Exported::secrets`]); nothing under a secret's name is ever written in clear.
/// - A resource the desired state's reader refuses (a value this crate does not know, a field
///   its create request requires that the server did not send) refuses the export, naming it
///   ([`ExportError::UnreadableResource`]), unless [`ExportOptions::leave_out_unreadable`]: a
///   resource left out is not in the file, and a plan of it with
///   [`PlanOptions::prune`](crate::planned::PlanOptions::prune) deletes it.
/// - An endpoint being deleted, a resource with no name, and a member this crate does not know
///   (it may be the server's own) are left out; each is in [`Exported::notes`].
/// - What an organization has ([`Current::services`], read with
///   [`ReadCurrent::of_organization`](crate::read::ReadCurrent::of_organization)) is written as
///   `services`: each service whose resources were read, as its create request holds it (its
///   name, provider, region, scaling, idling, IP access list, tags, and its MySQL endpoint when
///   on; not what is deprecated), with its endpoints and pipes under it. Its password is never
///   shown, so never written: declare one (`"password": {"env": "NAME"}`) to have a service the
///   file creates get it. Planned for the organization without
///   [`PlanOptions::prune`](crate::planned::PlanOptions::prune), it gives no changes; with it,
///   every other service of the organization would be deleted.
pub fn export(current: &Current, options: &ExportOptions) -> Result<Exported, ExportError> {
    if let Some(services) = &current.services {
        return export_services(services, current, options);
    }
    export_resources(current, options, &mut BTreeSet::new())
}

/// [`export()`] of a service's resources, the variables in `taken` not taken again (and those
/// it takes added).
fn export_resources(
    current: &Current,
    options: &ExportOptions,
    taken: &mut BTreeSet<String>,
) -> Result<Exported, ExportError> {
    let mut export = Export {
        secrets: Vec::new(),
        notes: Vec::new(),
        taken: std::mem::take(taken),
        endpoints: Vec::new(),
        leave_out_unreadable: options.leave_out_unreadable,
    };
    let endpoints = export.endpoint_names(current)?;
    let named: Vec<(String, &str)> = endpoints.iter().map(|(id, name)| (id.clone(), name.as_str())).collect();
    let mut document = Map::new();
    export.endpoints = export.items(Kind::ReversePrivateEndpoint, current, &named)?;
    document.insert(KINDS[0].to_owned(), Value::Array(export.endpoints.clone()));
    document.insert(KINDS[1].to_owned(), Value::Array(export.items(Kind::Pipe, current, &named)?));
    if options.alerts {
        if current.alerts.is_none() {
            return Err(ExportError::AlertsNotRead);
        }
        document.insert(KINDS[2].to_owned(), Value::Array(export.items(Kind::Alert, current, &named)?));
    }
    let document = Value::Object(document);
    // The whole once more: what only the whole can break (an endpoint a pipe names).
    read_back(document.clone()).map_err(ExportError::Unreadable)?;
    *taken = export.taken;
    Ok(Exported { document, secrets: export.secrets, notes: export.notes })
}

/// [`export()`] of an organization's services whose resources were read.
fn export_services(
    services: &[crate::current::CurrentService],
    current: &Current,
    options: &ExportOptions,
) -> Result<Exported, ExportError> {
    let mut exported = Exported { document: json!({}), secrets: Vec::new(), notes: Vec::new() };
    // One file: a variable is taken once across every service.
    let mut taken = BTreeSet::new();
    let mut items: Vec<(String, String, Value)> = Vec::new();
    let resources_only = ExportOptions { alerts: false, ..options.clone() };
    for read in services.iter().filter(|read| !crate::current::is_service_deleted(&read.service)) {
        let Some(resources) = &read.resources else { continue };
        let (id, name) = (read.service.id.to_string(), read.service.name.as_deref().unwrap_or_default());
        let resource = Resource::new(Kind::Service, name);
        if name.trim().is_empty() {
            exported.notes.push(format!("service {id} has no name, which a desired state needs: left out"));
            continue;
        }
        if let Some((other, ..)) = items.iter().find(|(_, seen, _)| seen == name) {
            return Err(ExportError::SameNameOnServer { resource, ids: [other.clone(), id] });
        }
        let mut item = service_item(&read.service);
        if let Err(error) = read_back(json!({ crate::desired::SERVICES: [item.clone()] })) {
            let why = error.to_string().replacen(&format!("{}[0].", crate::desired::SERVICES), "", 1);
            if !options.leave_out_unreadable {
                return Err(ExportError::UnreadableResource { resource, why });
            }
            exported.notes.push(format!("{resource} does not read as a {why}: left out"));
            continue;
        }
        // What runs on it, as a service's own export writes it, under it.
        let under = export_resources(resources, &resources_only, &mut taken)?;
        let at = format!("{}[{}].", crate::desired::SERVICES, items.len());
        for (kind, list) in under.document.as_object().into_iter().flatten() {
            item[kind.as_str()] = list.clone();
        }
        for mut secret in under.secrets {
            secret.path = format!("{at}{}", secret.path);
            secret.resource = secret.resource.under(Some(name));
            exported.secrets.push(secret);
        }
        exported.notes.extend(under.notes.into_iter().map(|note| format!("{resource}: {note}")));
        items.push((id, name.to_owned(), item));
    }
    let mut document = Map::new();
    document
        .insert(crate::desired::SERVICES.to_owned(), Value::Array(items.into_iter().map(|(.., item)| item).collect()));
    if options.alerts {
        if current.alerts.is_none() {
            return Err(ExportError::AlertsNotRead);
        }
        let mut export = Export {
            secrets: Vec::new(),
            notes: Vec::new(),
            taken,
            endpoints: Vec::new(),
            leave_out_unreadable: options.leave_out_unreadable,
        };
        document.insert(KINDS[2].to_owned(), Value::Array(export.items(Kind::Alert, current, &[])?));
        exported.secrets.append(&mut export.secrets);
        exported.notes.append(&mut export.notes);
    }
    exported.document = Value::Object(document);
    read_back(exported.document.clone()).map_err(ExportError::Unreadable)?;
    Ok(exported)
}

/// What a service's create request holds of a service as read: what a user sets, whole
/// numbers as a user writes them, its MySQL endpoint as the change that turns it on. Left out:
/// what the server fills (its id, state, hosts, scaling in effect), what is deprecated (the
/// tier, the total memory of three replicas) and the data warehouse (every service is in one,
/// its own unless it joined another).
fn service_item(service: &Service) -> Value {
    const LEFT_OUT: &[&str] = &["endpoints", "tier", "minTotalMemoryGb", "maxTotalMemoryGb", "dataWarehouseId"];
    let mut item =
        only(to_json(service), |name| CreateServiceRequest::FIELDS.contains(&name) && !LEFT_OUT.contains(&name));
    for value in item.as_object_mut().into_iter().flat_map(|members| members.values_mut()) {
        let whole = value.as_f64().filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n < 2f64.powi(53));
        if let Some(whole) = whole {
            *value = json!(whole as u64);
        }
    }
    let mysql = service.endpoints.iter().flatten().any(|endpoint| endpoint.protocol == Some(EndpointProtocol::Mysql));
    if mysql {
        item["endpoints"] = json!([{"protocol": "mysql", "enabled": true}]);
    }
    item
}

/// The kinds as a desired state names them, in its order.
const KINDS: [&str; 3] = ["reversePrivateEndpoints", "pipes", "alerts"];

/// The list a desired state keeps a kind in.
fn list_of(kind: Kind) -> &'static str {
    match kind {
        Kind::Service => crate::desired::SERVICES,
        Kind::ReversePrivateEndpoint => KINDS[0],
        Kind::Pipe => KINDS[1],
        Kind::Alert => KINDS[2],
    }
}

/// The most rounds of mending one resource takes: each round mends a depth (a container, then
/// its members) or leaves; more means the reader refuses what an export cannot mend.
const ROUNDS: usize = 8;

struct Export {
    secrets: Vec<SecretReference>,
    notes: Vec<String>,
    /// The variable names given so far.
    taken: BTreeSet<String>,
    /// The endpoints settled so far, beside which a pipe is read (it may name them).
    endpoints: Vec<Value>,
    /// [`ExportOptions::leave_out_unreadable`].
    leave_out_unreadable: bool,
}

impl Export {
    /// The ids and descriptions of the endpoints exported (not being deleted, with a
    /// description no other has), for the pipes that name them.
    fn endpoint_names(&mut self, current: &Current) -> Result<Vec<(String, String)>, ExportError> {
        let mut kept = Vec::new();
        for endpoint in &current.reverse_private_endpoints {
            let id = endpoint.id.to_string();
            let name = endpoint.description.as_deref().unwrap_or_default();
            let resource = Resource::new(Kind::ReversePrivateEndpoint, name);
            if crate::current::is_being_deleted(endpoint) {
                self.notes.push(format!("{resource} is being deleted: left out"));
            } else if name.trim().is_empty() {
                self.notes.push(format!("reverse private endpoint {id} has no description, which names it: left out"));
            } else if let Some((other, _)) = kept.iter().find(|(_, kept)| kept == name) {
                return Err(ExportError::SameNameOnServer { resource, ids: [String::clone(other), id] });
            } else {
                kept.push((id, name.to_owned()));
            }
        }
        Ok(kept)
    }

    /// Every resource of `kind` as a desired state's item.
    fn items(
        &mut self,
        kind: Kind,
        current: &Current,
        endpoints: &[(String, &str)],
    ) -> Result<Vec<Value>, ExportError> {
        let read: Vec<(String, Option<&str>, Value)> = match kind {
            Kind::ReversePrivateEndpoint => current
                .reverse_private_endpoints
                .iter()
                .filter(|e| endpoints.iter().any(|(id, _)| *id == e.id.to_string()))
                .map(|e| (e.id.to_string(), e.description.as_deref(), endpoint_item(e)))
                .collect(),
            Kind::Pipe => current
                .pipes
                .iter()
                .map(|pipe| (pipe.id.to_string(), pipe.name.as_deref(), self.pipe_item(pipe, endpoints)))
                .collect(),
            // Written by `export_services`, each with what it has.
            Kind::Service => Vec::new(),
            Kind::Alert => current
                .alerts
                .iter()
                .flatten()
                .map(|alert| (alert.id.to_string(), alert.name.as_deref(), to_json(&AlertRequest::from(alert.clone()))))
                .collect(),
        };
        let mut items: Vec<(String, String, Value)> = Vec::new();
        for (id, name, item) in read {
            let name = name.unwrap_or_default();
            let resource = Resource::new(kind, name);
            if name.trim().is_empty() {
                self.notes.push(format!("{kind} {id} has no name, which a desired state needs: left out"));
                continue;
            }
            if let Some((other, ..)) = items.iter().find(|(_, seen, _)| seen == name) {
                return Err(ExportError::SameNameOnServer { resource, ids: [other.clone(), id] });
            }
            // One the reader refuses refuses the export, or, when asked, is left out and said:
            // the rest can still be brought under the file.
            match self.settle(&resource, items.len(), item) {
                Ok(item) => items.push((id, name.to_owned(), item)),
                Err(ExportError::Unreadable(error)) => {
                    // Its paths are within a document of it alone: said within the resource.
                    let why = error.to_string().replacen(&format!("{}[0].", list_of(kind)), "", 1);
                    if !self.leave_out_unreadable {
                        return Err(ExportError::UnreadableResource { resource, why });
                    }
                    self.notes.push(format!("{resource} does not read as a {why}: left out"))
                }
                Err(error) => return Err(error),
            }
        }
        Ok(items.into_iter().map(|(.., item)| item).collect())
    }

    /// A pipe as its create request holds it, its scaling in numbers, the endpoints it names
    /// by their descriptions, and whether it should run.
    fn pipe_item(&mut self, pipe: &pipe_api_types::Pipe, endpoints: &[(String, &str)]) -> Value {
        let mut item = only(compared(pipe), |name| CreatePipeRequest::FIELDS.contains(&name));
        // A quantity in its unit, whole where it is (`500`, not `500.0`), as a user writes it.
        let amounts = item.get_mut("scaling").and_then(Value::as_object_mut);
        for amount in amounts.into_iter().flat_map(|scaling| scaling.values_mut()) {
            let whole = amount.as_f64().filter(|n| n.fract() == 0.0 && *n >= 0.0 && *n < 2f64.powi(53));
            if let Some(whole) = whole {
                *amount = json!(whole as u64);
            }
        }
        let ids = item.pointer_mut("/source/kafka/reversePrivateEndpointIds").and_then(Value::as_array_mut);
        for id in ids.into_iter().flatten() {
            let name = endpoints.iter().find(|(known, _)| Some(known.as_str()) == id.as_str());
            if let Some((_, name)) = name {
                *id = Value::String((*name).to_owned());
            }
        }
        let resource = Resource::new(Kind::Pipe, pipe.name.as_deref().unwrap_or_default());
        match &pipe.state {
            Some(PipeState::Stopped | PipeState::Paused | PipeState::Stopping | PipeState::Pausing) => {
                item["state"] = json!("stopped");
            }
            Some(PipeState::Failed) => {
                self.notes.push(format!("{resource} is Failed: written as running, so a plan of this file starts it"))
            }
            _ => {}
        }
        item
    }

    /// `item` (the `index`th of its kind), mended round by round until the desired state's
    /// reader takes it: a secret in clear, or a member it requires that the server never
    /// echoes, becomes a reference; a member this crate does not know is left out.
    fn settle(&mut self, resource: &Resource, index: usize, mut item: Value) -> Result<Value, ExportError> {
        let list = list_of(resource.kind);
        let at = format!("{list}[{index}]");
        let mut references = Vec::new();
        self.refer_in_clear(resource, &mut item, &mut Vec::new(), &mut references);
        let mut settled = false;
        for _ in 0..ROUNDS {
            let error = match read_back(self.alone(list, &item)) {
                Ok(_) => {
                    settled = true;
                    break;
                }
                Err(error) => error,
            };
            let Problem::Invalid(errors) = error.problem() else { return Err(ExportError::Unreadable(error)) };
            let mut mended = false;
            for Violation { path, rule, .. } in errors.violations() {
                let Some(path) = path.strip_prefix(&format!("{list}[0]")) else { continue };
                let path = segments(path.trim_start_matches('.'));
                mended |= match rule {
                    Rule::UnknownField { .. } => {
                        let removed = remove(&mut item, &path);
                        if removed {
                            self.notes.push(crate::shown::cut(format!(
                                "{resource}: {} is not a field this crate knows: left out (write it under \"$notYetKnown\" if it is yours to set)",
                                joined(&path)
                            )));
                        }
                        removed
                    }
                    Rule::Required | Rule::RequiredBecause(_) if path.iter().any(|s| is_secret_field(s)) => {
                        set(&mut item, &path, self.reference(resource, &path, &mut references))
                    }
                    // A reference where a container of secrets goes: its members are asked next.
                    Rule::WrongType { .. } if references.iter().any(|(at, _)| *at == path) => {
                        references.retain(|(at, _)| *at != path);
                        set(&mut item, &path, json!({}))
                    }
                    _ => false,
                };
            }
            if !mended {
                return Err(ExportError::Unreadable(error));
            }
        }
        if !settled {
            read_back(self.alone(list, &item)).map_err(ExportError::Unreadable)?;
        }
        for (path, name) in references {
            let path = format!("{at}.{}", joined(&path));
            self.secrets.push(SecretReference { name, resource: resource.clone(), path });
        }
        Ok(item)
    }

    /// A document of `item` alone in its `list`, a pipe beside the endpoints it may name.
    fn alone(&self, list: &str, item: &Value) -> Value {
        let mut document = json!({ list: [item] });
        if list == KINDS[1] {
            document[KINDS[0]] = Value::Array(self.endpoints.clone());
        }
        document
    }

    /// Replaces each text under a secret's name (an echoed secret, or a container's members)
    /// with a reference.
    fn refer_in_clear(
        &mut self,
        resource: &Resource,
        value: &mut Value,
        path: &mut Vec<String>,
        references: &mut Vec<(Vec<String>, String)>,
    ) {
        let Value::Object(members) = value else { return };
        for (key, child) in members.iter_mut() {
            path.push(key.clone());
            match child {
                Value::String(_) if path.iter().any(|s| is_secret_field(s)) => {
                    *child = self.reference(resource, path, references);
                }
                Value::Object(_) => self.refer_in_clear(resource, child, path, references),
                _ => {}
            }
            path.pop();
        }
    }

    /// A new reference for the member at `path` of `resource`, noted in `references`.
    fn reference(
        &mut self,
        resource: &Resource,
        path: &[String],
        references: &mut Vec<(Vec<String>, String)>,
    ) -> Value {
        let name = self.variable(resource, path);
        references.retain(|(at, _)| at != path);
        references.push((path.to_vec(), name.clone()));
        json!({ "env": name })
    }

    /// `PIPE_ORDERS_KAFKA_PASSWORD`: the kind, the name, and the path less `source` and the
    /// containers a member stands in, in upper case; made unique with `_2`, `_3`...
    fn variable(&mut self, resource: &Resource, path: &[String]) -> String {
        let kind = match resource.kind {
            Kind::Service => "SERVICE",
            Kind::ReversePrivateEndpoint => "ENDPOINT",
            Kind::Pipe => "PIPE",
            Kind::Alert => "ALERT",
        };
        let last = path.len().saturating_sub(1);
        let kept = path.iter().enumerate().filter(|(at, segment)| {
            let source = *at == 0 && segment.as_str() == "source";
            let container = *at < last && is_secret_field(segment);
            !(source || container)
        });
        // Each word from what the server holds is cut: a variable's name is a name to type, and a
        // huge resource name would otherwise be copied into every reference, and every copy a
        // desired state keeps of what its lookup gave.
        let word = |text: &str| upper_snake(&crate::shown::truncate(text, VARIABLE_WORD));
        let mut words = vec![kind.to_owned(), word(&resource.name)];
        words.extend(kept.map(|(_, segment)| word(segment)));
        let base = words.into_iter().filter(|word| !word.is_empty()).collect::<Vec<_>>().join("_");
        let name = (1..)
            .map(|n| if n == 1 { base.clone() } else { format!("{base}_{n}") })
            .find(|name| !self.taken.contains(name))
            .expect("some suffix is free");
        self.taken.insert(name.clone());
        name
    }
}

/// The most of a resource's name or a member's a variable's name is made from.
const VARIABLE_WORD: usize = 48;

/// An endpoint as its create request holds it.
fn endpoint_item(endpoint: &pipe_api_types::ReversePrivateEndpoint) -> Value {
    only(to_json(endpoint), |name| CreateReversePrivateEndpointRequest::FIELDS.contains(&name))
}

/// `document` read as a desired state, each reference answered with its own name: as a file
/// of it would be read, without writing the file (a copy of every text fewer).
fn read_back(document: Value) -> Result<crate::desired::DesiredState, DesiredStateError> {
    crate::desired::DesiredState::from_document(document, |name| Some(name.to_owned()))
}

/// A violation's path (`source.kafka.credentials.password`, `columns[0].name`) as segments,
/// an index as its digits.
fn segments(path: &str) -> Vec<String> {
    let mut segments = Vec::new();
    for part in path.split('.').filter(|part| !part.is_empty()) {
        let mut pieces = part.split('[');
        segments.extend(pieces.next().filter(|name| !name.is_empty()).map(str::to_owned));
        segments.extend(pieces.map(|index| index.trim_end_matches(']').to_owned()));
    }
    segments
}

/// The segments as a path again.
fn joined(path: &[String]) -> String {
    let mut text = String::new();
    for segment in path {
        if segment.bytes().all(|b| b.is_ascii_digit()) {
            text.push_str(&format!("[{segment}]"));
        } else {
            if !text.is_empty() {
                text.push('.');
            }
            text.push_str(segment);
        }
    }
    text
}

/// The member of `value` at `path`, objects made on the way; whether it was set.
fn set(value: &mut Value, path: &[String], to: Value) -> bool {
    let Some((last, parents)) = path.split_last() else { return false };
    let mut at = value;
    for segment in parents {
        at = match at {
            Value::Object(members) => members.entry(segment.clone()).or_insert_with(|| json!({})),
            Value::Array(items) => match segment.parse::<usize>().ok().and_then(|index| items.get_mut(index)) {
                Some(item) => item,
                None => return false,
            },
            _ => return false,
        };
    }
    match at {
        Value::Object(members) => {
            members.insert(last.clone(), to);
            true
        }
        _ => false,
    }
}

/// Removes the member of `value` at `path`; whether there was one.
fn remove(value: &mut Value, path: &[String]) -> bool {
    let Some((last, parents)) = path.split_last() else { return false };
    let mut at = value;
    for segment in parents {
        let next = match at {
            Value::Object(members) => members.get_mut(segment),
            Value::Array(items) => segment.parse::<usize>().ok().and_then(|index| items.get_mut(index)),
            _ => None,
        };
        let Some(next) = next else { return false };
        at = next;
    }
    at.as_object_mut().is_some_and(|members| members.remove(last).is_some())
}

/// `secretKey` as `SECRET_KEY`, `ingest brokers` as `INGEST_BROKERS`: letters and digits,
/// words split at a case change and at anything else.
fn upper_snake(text: &str) -> String {
    let mut out = String::new();
    let mut previous_lower = false;
    for c in text.chars() {
        if c.is_ascii_alphanumeric() {
            if c.is_ascii_uppercase() && previous_lower {
                out.push('_');
            }
            out.push(c.to_ascii_uppercase());
            previous_lower = c.is_ascii_lowercase() || c.is_ascii_digit();
        } else {
            if !out.is_empty() && !out.ends_with('_') {
                out.push('_');
            }
            previous_lower = false;
        }
    }
    out.trim_end_matches('_').to_owned()
}
