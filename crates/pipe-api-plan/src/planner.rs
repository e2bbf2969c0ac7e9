//! [`plan()`]: a pure function of a desired state and what the list operations returned.

use std::fmt;

use pipe_api_types::{
    AlertRequest, CreatePipeRequest, DestinationPatch, OrganizationId, Pipe, PipeCommand, PipeSource, PipeState,
    ReversePrivateEndpoint, Service, ServiceCommand, ServiceId, ServiceState, SourceKind, UpdatePipeRequest,
    UpdateReversePrivateEndpointRequest, UpdateServicePasswordRequest, UpdateServiceReplicaScalingRequest,
    UpdateServiceRequest, UpdateServiceStateRequest, Validate, ValidationErrors, Vouch,
};
use serde::Serialize;
use serde_json::{Map, Value};

use pipe_api_proto::operations::Operation;
use pipe_api_proto::{
    ChangePipeState, CreateAlert, CreatePipe, CreateReversePrivateEndpoint, CreateService, DeleteAlert, DeletePipe,
    DeleteReversePrivateEndpoint, DeleteService, UpdateAlert, UpdatePipe, UpdatePipeScaling,
    UpdateReversePrivateEndpoint, UpdateService, UpdateServicePassword, UpdateServiceReplicaScaling,
    UpdateServiceState, is_secret_field,
};

use crate::current::Current;
use crate::desired::{DesiredPipe, DesiredPipeState, DesiredService, DesiredState, alert_name};
use crate::json::{compared, read_model, to_json};
use crate::planned::{Awaited, Plan, PlanOptions, PlanStep, PlannedRequest};
use crate::resource::{Id, Kind, Resource};
use crate::shown::truncate;

/// Why no plan was made.
#[non_exhaustive]
pub enum PlanError {
    /// Two resources of one kind on the server have the name the desired state uses.
    SameNameOnServer {
        /// The name, and its kind.
        resource: Resource,
        /// The ids of two of them.
        ids: [String; 2],
    },
    /// A field that no update can change differs, and replacing is not allowed (a service's:
    /// never, whatever the options).
    ReplacementRefused {
        /// The resource.
        resource: Resource,
        /// The fields that differ, each with why no update can change it.
        fields: Vec<Unchangeable>,
        /// What replacing it would cost.
        cost: String,
    },
    /// A request the plan made breaks a rule of its model (an alert as read, changed).
    Invalid {
        /// The resource.
        resource: Resource,
        /// The operation.
        operation: &'static str,
        /// The rules.
        errors: ValidationErrors,
    },
    /// A request the plan put together from values read does not read as its model (a
    /// server value of another shape than the contract's).
    Malformed {
        /// The resource.
        resource: Resource,
        /// The operation.
        operation: &'static str,
        /// What the JSON reader said.
        message: String,
    },
    /// The desired state names alerts, and the current alerts were not read (or not every
    /// one was: a listing that ended early).
    AlertsNotRead,
    /// The desired state is not one of the plan's scope: one that declares services is planned
    /// for the organization ([`plan_organization`]), one that does not for a service
    /// ([`plan()`]); or the organization's services were not read.
    Scope {
        /// Which, in words.
        why: &'static str,
    },
    /// A service the desired state declares, with reverse private endpoints or pipes, neither
    /// runs nor idles: what it has cannot be read (its pipe calls answer `424`), so its plan
    /// cannot be made.
    ServiceNotRunning {
        /// The service.
        resource: Resource,
        /// Its state.
        state: String,
    },
    /// Reading the current state failed (a client that lists before it plans).
    Read(pipe_api_proto::Error),
}

impl fmt::Display for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::shown::shown(f, |f| self.render(f))
    }
}

impl PlanError {
    /// The text `Display` shows, before it is cut.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            PlanError::SameNameOnServer { resource, ids: [first, second] } => write!(
                f,
                "plan: {resource} names two resources on the server ({first} and {second}): rename or delete one"
            ),
            // Refused whatever the options: a plan never replaces a service.
            PlanError::ReplacementRefused { resource, fields, cost } if resource.kind == Kind::Service => {
                write!(f, "plan: {resource} cannot change {} in place: {cost}", listed(fields))
            }
            PlanError::ReplacementRefused { resource, fields, cost } => write!(
                f,
                "plan: {resource} must be replaced ({} cannot be updated), and replacement is not allowed: {cost}",
                listed(fields)
            ),
            PlanError::Invalid { resource, operation, errors } => write!(f, "plan: {operation} {resource}: {errors}"),
            PlanError::Malformed { resource, operation, message } => {
                write!(f, "plan: {operation} {resource}: {message}")
            }
            PlanError::AlertsNotRead => f.write_str(
                "plan: the desired state names alerts, and the current alerts were not read (or not every one)",
            ),
            PlanError::Scope { why } => write!(f, "plan: {why}"),
            PlanError::ServiceNotRunning { resource, state } => write!(
                f,
                "plan: {resource} is {}: what it has cannot be read until it runs; start it (or wait), then plan again",
                truncate(state, 64)
            ),
            PlanError::Read(error) => write!(f, "plan: reading the current state failed: {error}"),
        }
    }
}

/// Reads as the message, not a struct dump.
impl fmt::Debug for PlanError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for PlanError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            PlanError::Invalid { errors, .. } => Some(errors),
            PlanError::Read(error) => Some(error),
            _ => None,
        }
    }
}

/// The steps that make the service `service_id` of `organization_id` what `desired` says,
/// from what it has (`current`), in the order the services need (see [the crate](crate)). A
/// desired state that declares services is refused ([`PlanError::Scope`]): it is planned for
/// the organization ([`plan_organization`]).
pub fn plan(
    organization_id: OrganizationId,
    service_id: ServiceId,
    desired: &DesiredState,
    current: &Current,
    options: &PlanOptions,
) -> Result<Plan, PlanError> {
    if desired.declares_services() {
        return Err(PlanError::Scope {
            why: "the desired state declares services: plan it for their organization, not for one service",
        });
    }
    let scope = vec![
        ("organization_id", Id::Known(organization_id.to_string())),
        ("service_id", Id::Known(service_id.to_string())),
    ];
    let mut planner = Planner::new(desired, current, options, scope, None);
    planner.resources()?;
    planner.alerts()?;
    Ok(planner.finish(organization_id, Some(service_id), Vec::new()))
}

/// The steps that make organization `organization_id` what `desired` says, from what it has
/// (`current`, read with its services: [`ReadCurrent::of_organization`](crate::read::ReadCurrent::of_organization)):
/// for each service the desired state declares, in its order, the service (created, then
/// waited for until it runs, then its declared password set by hash; or updated in place:
/// `update_service` for its IP access list, tags and endpoints, `update_service_replica_scaling`
/// for its scaling and idling, then waited for until it reports them), then its reverse
/// private endpoints and pipes as [`plan()`] plans them; then, with [`PlanOptions::prune`], each
/// service it does not declare, stopped (and waited for) and deleted; then the alerts.
///
/// A service's `provider` and `region` (and any member only a create sets) never change: a
/// plan that would need to is refused ([`PlanError::ReplacementRefused`]), even with
/// [`PlanOptions::allow_replacement`], since a service made again starts empty. Two services
/// of a declared name are a conflict ([`PlanError::SameNameOnServer`]). A declared password is
/// set when the service is created, by its hashes; a service's password is never read, so it
/// is never compared, nor planned as a change. A desired state that declares no service is
/// refused ([`PlanError::Scope`]): pruning would delete every service of the organization.
pub fn plan_organization(
    organization_id: OrganizationId,
    desired: &DesiredState,
    current: &Current,
    options: &PlanOptions,
) -> Result<Plan, PlanError> {
    if !desired.declares_services() {
        return Err(PlanError::Scope {
            why: "the desired state declares no service: plan it for a service, not for the organization",
        });
    }
    if current.services.is_none() {
        return Err(PlanError::Scope { why: "the organization's services were not read" });
    }
    let scope = vec![("organization_id", Id::Known(organization_id.to_string()))];
    let mut planner = Planner::new(desired, current, options, scope, None);
    for service in &desired.services {
        planner.service(service)?;
    }
    planner.prune_services();
    planner.alerts()?;
    let services = desired.services.iter().map(|service| service.name().to_owned()).collect();
    Ok(planner.finish(organization_id, None, services))
}

struct Planner<'a> {
    desired: &'a DesiredState,
    current: &'a Current,
    /// The endpoints not being deleted.
    endpoints: Vec<&'a ReversePrivateEndpoint>,
    options: &'a PlanOptions,
    steps: Vec<PlanStep>,
    notes: Vec<String>,
    /// Endpoints created (or created again) by the plan: their ids come from their steps.
    pending: Vec<String>,
    scope: Vec<(&'static str, Id)>,
    /// The name of the declared service whose resources are planned, if any.
    service: Option<&'a str>,
}

/// What a service has when the plan creates it: nothing.
static NOTHING: std::sync::LazyLock<Current> = std::sync::LazyLock::new(Current::default);

impl<'a> Planner<'a> {
    /// A planner of `desired` against `current`, its steps' paths starting with `scope`'s ids;
    /// `service` names the declared service whose resources these are.
    fn new(
        desired: &'a DesiredState,
        current: &'a Current,
        options: &'a PlanOptions,
        scope: Vec<(&'static str, Id)>,
        service: Option<&'a str>,
    ) -> Self {
        // An endpoint being deleted is gone for the plan: it answers `Deleting` until it is.
        let (deleting, endpoints): (Vec<_>, Vec<_>) =
            current.reverse_private_endpoints.iter().partition(|endpoint| crate::current::is_being_deleted(endpoint));
        let notes = deleting
            .iter()
            .map(|endpoint| {
                let name = endpoint.description.as_deref().unwrap_or_default();
                format!("{} is being deleted", Resource::new(Kind::ReversePrivateEndpoint, name).under(service))
            })
            .collect();
        Planner { desired, current, endpoints, options, steps: Vec::new(), notes, pending: Vec::new(), scope, service }
    }

    /// The plan of the steps made.
    fn finish(self, organization_id: OrganizationId, service_id: Option<ServiceId>, services: Vec<String>) -> Plan {
        // Notes are text for a reader: they pass the plan's redaction once, here.
        let resolved = self.desired.resolved.clone();
        let notes = self.notes.iter().map(|note| resolved.scrub(note)).collect();
        let seen = crate::current::seen(self.steps.iter().map(|step| &step.resource), self.current);
        let options = self.options.clone();
        Plan { organization_id, service_id, services, steps: self.steps, notes, resolved, options, seen }
    }

    /// A resource of `kind` named `name`, under the service planned.
    fn resource(&self, kind: Kind, name: &str) -> Resource {
        Resource::new(kind, name).under(self.service)
    }

    /// The reverse private endpoints and pipes, then their pruning.
    fn resources(&mut self) -> Result<(), PlanError> {
        self.endpoints()?;
        self.pipes()?;
        self.prune_management();
        Ok(())
    }

    /// A declared service: created or changed, then its resources planned under it.
    fn service(&mut self, desired: &'a DesiredService) -> Result<(), PlanError> {
        let resource = Resource::new(Kind::Service, desired.name());
        let live: Vec<&Service> = self.current.live_services().map(|current| &current.service).collect();
        let found = unique(&resource, &live, |s| s.name.as_deref(), |s| s.id.to_string())?;
        let (id, current) = match found {
            None => {
                self.create_service(&resource, desired)?;
                (Id::CreatedBy(resource.clone()), &*NOTHING)
            }
            Some(service) => {
                self.change_service(&resource, desired, service)?;
                let declares =
                    !desired.resources.reverse_private_endpoints.is_empty() || !desired.resources.pipes.is_empty();
                let current = match self.current.of_service(desired.name()) {
                    Some(current) => current,
                    None if declares => {
                        let state = service.state.as_ref().map_or("in no state", |state| state.as_str());
                        return Err(PlanError::ServiceNotRunning { resource, state: state.to_owned() });
                    }
                    None => {
                        let state = service.state.as_ref().map_or("in no state", |state| state.as_str());
                        self.notes.push(format!("{resource} is {state}: what it has was not read, and is left alone"));
                        &*NOTHING
                    }
                };
                (Id::Known(service.id.to_string()), current)
            }
        };
        let scope = self.scope.iter().cloned().chain([("service_id", id)]).collect();
        let mut planner = Planner::new(&desired.resources, current, self.options, scope, Some(desired.name()));
        planner.resources()?;
        self.steps.append(&mut planner.steps);
        self.notes.append(&mut planner.notes);
        Ok(())
    }

    /// Creates a declared service, waits until it runs (its resources are created next), and
    /// sets its declared password by hash.
    fn create_service(&mut self, resource: &Resource, desired: &DesiredService) -> Result<(), PlanError> {
        let step = self.step(resource, CreateService::OPERATION, &[], Some(&desired.service), "not on the server")?;
        step.then = Some(Awaited::ServiceRunning);
        if let Some(hashes) = &desired.password {
            let mut request = UpdateServicePasswordRequest::hashed(hashes.sha256_base64.as_str());
            request.new_double_sha1_hash = Some(hashes.double_sha1_hex.as_str().into());
            let id = [("service_id", Id::CreatedBy(resource.clone()))];
            let reason = "its declared password, sent as its hashes (the one the create answers is never kept)";
            self.step(resource, UpdateServicePassword::OPERATION, &id, Some(&request), reason)?;
        }
        Ok(())
    }

    /// Changes a declared service that exists in place: what `update_service` changes (its IP
    /// access list, tags, endpoints, ...), then its scaling and idling, waiting until the
    /// service reports them. What only a create sets (`provider`, `region`, ...) is refused.
    fn change_service(
        &mut self,
        resource: &Resource,
        desired: &DesiredService,
        current: &Service,
    ) -> Result<(), PlanError> {
        let id = [("service_id", Id::Known(current.id.to_string()))];
        let mut wanted = to_json(&desired.service);
        strip_unechoed_service(&mut wanted);
        let had = to_json(current);
        let differing = differing(&wanted, &had);
        let scaling = UpdateServiceReplicaScalingRequest::FIELDS;
        // What only a create sets is compared only where the server reports it (older servers
        // send neither provider nor region): what it does not report cannot be said to differ.
        let reported = |field: &str| had.get(field).is_some_and(|value| !value.is_null());
        let fixed: Vec<Unchangeable> = differing
            .iter()
            .filter(|field| {
                !scaling.contains(&field.as_str())
                    && !UpdateServiceRequest::FIELDS.contains(&field.as_str())
                    && reported(field)
            })
            .map(|field| Unchangeable::field(field.clone()))
            .collect();
        if !fixed.is_empty() {
            return Err(PlanError::ReplacementRefused {
                resource: resource.clone(),
                fields: fixed,
                cost: SERVICE_REPLACED.to_owned(),
            });
        }
        let update = ServicePatch::between(&wanted, &had);
        if !update.members.is_empty() {
            let request: UpdateServiceRequest =
                from_json(resource, UpdateService::OPERATION, Value::Object(update.members))?;
            self.step(resource, UpdateService::OPERATION, &id, Some(&request), differ(&update.fields))?;
        }
        let rescaled: Vec<String> = differing.into_iter().filter(|field| scaling.contains(&field.as_str())).collect();
        if !rescaled.is_empty() {
            // The whole declared scaling, so that the members that go together (a replica band,
            // a mode and its counts) are sent together.
            let members = wanted.as_object().into_iter().flatten().filter(|(name, _)| scaling.contains(&name.as_str()));
            let body = Value::Object(members.map(|(name, value)| (name.clone(), value.clone())).collect());
            let request: UpdateServiceReplicaScalingRequest =
                from_json(resource, UpdateServiceReplicaScaling::OPERATION, body)?;
            let step =
                self.step(resource, UpdateServiceReplicaScaling::OPERATION, &id, Some(&request), differ(&rescaled))?;
            step.then = Some(Awaited::ServiceScaled);
        }
        Ok(())
    }

    /// Deletes (with pruning: stopped first, and waited for, as a service is deleted only
    /// stopped) or notes the services the desired state does not declare.
    fn prune_services(&mut self) {
        let named: Vec<&str> = self.desired.services.iter().map(DesiredService::name).collect();
        let live: Vec<&Service> = self.current.live_services().map(|current| &current.service).collect();
        for service in live {
            let name = service.name.as_deref().unwrap_or_default();
            if named.contains(&name) {
                continue;
            }
            let resource = Resource::new(Kind::Service, name);
            if !self.options.prune {
                self.notes.push(format!("{resource} is not in the desired state (pruning not asked)"));
                continue;
            }
            let id = [("service_id", Id::Known(service.id.to_string()))];
            if service.state != Some(ServiceState::Stopped) {
                let stop = UpdateServiceStateRequest::new(ServiceCommand::Stop);
                let reason = "not in the desired state: a service is deleted only once stopped";
                let step = self
                    .step(&resource, UpdateServiceState::OPERATION, &id, Some(&stop), reason)
                    .expect("a stop is valid");
                step.then = Some(Awaited::ServiceStopped);
            }
            let step = self.bare(&resource, DeleteService::OPERATION, &id, "not in the desired state");
            step.destructive = Some("deletes it, with every table, its data and its pipes".to_owned());
        }
    }
}

impl Planner<'_> {
    /// Adds the step `operation` on `resource`, its path's ids being the scope's and `ids`,
    /// its body `body`, checked by its model's rules.
    fn step<B: Validate + Serialize>(
        &mut self,
        resource: &Resource,
        row: &'static Operation,
        ids: &[(&'static str, Id)],
        body: Option<&B>,
        reason: impl Into<String>,
    ) -> Result<&mut PlanStep, PlanError> {
        if let Some(body) = body {
            body.validate().map_err(|errors| PlanError::Invalid {
                resource: resource.clone(),
                operation: row.name,
                errors,
            })?;
        }
        let ids = self.scope.iter().chain(ids).cloned().collect();
        self.steps.push(PlanStep {
            resource: resource.clone(),
            request: PlannedRequest {
                operation: row,
                ids,
                body: body.map(to_json),
                resolved: self.desired.resolved.clone(),
            },
            reason: reason.into(),
            destructive: None,
            then: None,
        });
        Ok(self.steps.last_mut().expect("just pushed"))
    }

    /// A step without a body (a delete).
    fn bare(
        &mut self,
        resource: &Resource,
        row: &'static Operation,
        ids: &[(&'static str, Id)],
        reason: impl Into<String>,
    ) -> &mut PlanStep {
        self.step::<NoBody>(resource, row, ids, None, reason).expect("no body, nothing to refuse")
    }

    fn endpoints(&mut self) -> Result<(), PlanError> {
        for desired in &self.desired.reverse_private_endpoints {
            let name = desired.description.as_deref().unwrap_or_default();
            let resource = self.resource(Kind::ReversePrivateEndpoint, name);
            let found = unique(&resource, &self.endpoints, |e| e.description.as_deref(), |e| e.id.to_string())?;
            let Some(current) = found else {
                self.create_endpoint(&resource, desired, "not on the server")?;
                continue;
            };
            let id = [("endpoint_id", Id::Known(current.id.to_string()))];
            let (desired_json, current_json) = (to_json(desired), to_json(current));
            let differing = differing(&desired_json, &current_json);
            let updatable = UpdateReversePrivateEndpointRequest::FIELDS;
            let (update, fixed): (Vec<String>, Vec<String>) =
                differing.into_iter().partition(|field| updatable.contains(&field.as_str()));
            let fixed: Vec<Unchangeable> = fixed.into_iter().map(Unchangeable::field).collect();
            if !fixed.is_empty() {
                let cost = "pipes that reach their source through it lose the connection until they use the new one";
                self.refuse_replacement(&resource, &fixed, cost)?;
                let step = self.bare(&resource, DeleteReversePrivateEndpoint::OPERATION, &id, replaced_because(&fixed));
                step.destructive = Some(cost.to_owned());
                self.create_endpoint(&resource, desired, "created again")?;
            } else if !update.is_empty() {
                let mappings = desired.custom_private_dns_mappings.clone().unwrap_or_default();
                let request = UpdateReversePrivateEndpointRequest::new(mappings);
                self.step(&resource, UpdateReversePrivateEndpoint::OPERATION, &id, Some(&request), differ(&update))?;
            }
        }
        Ok(())
    }

    fn create_endpoint(
        &mut self,
        resource: &Resource,
        desired: &pipe_api_types::CreateReversePrivateEndpointRequest,
        reason: &str,
    ) -> Result<(), PlanError> {
        let step = self.step(resource, CreateReversePrivateEndpoint::OPERATION, &[], Some(desired), reason)?;
        step.then = Some(Awaited::ReversePrivateEndpointReady);
        self.pending.push(resource.name.clone());
        Ok(())
    }

    fn refuse_replacement(&self, resource: &Resource, fields: &[Unchangeable], cost: &str) -> Result<(), PlanError> {
        if self.options.allow_replacement {
            return Ok(());
        }
        Err(PlanError::ReplacementRefused {
            resource: resource.clone(),
            fields: fields.to_vec(),
            cost: cost.to_owned(),
        })
    }

    /// The id a pipe's source names an endpoint by: the endpoint's own when it exists and is
    /// kept, else that of the step creating it.
    fn endpoint_id(&self, name: &str) -> Option<Id> {
        self.desired.reverse_private_endpoints.iter().find(|e| e.description.as_deref() == Some(name))?;
        if !self.pending.iter().any(|pending| pending == name) {
            let current = self.endpoints.iter().find(|e| e.description.as_deref() == Some(name));
            if let Some(current) = current {
                return Some(Id::Known(current.id.to_string()));
            }
        }
        Some(Id::CreatedBy(self.resource(Kind::ReversePrivateEndpoint, name)))
    }

    /// The desired pipe as JSON, each endpoint named in its Kafka source replaced by its id.
    fn pipe_json(&self, desired: &DesiredPipe) -> Value {
        let mut json = to_json(&desired.pipe);
        let names = json.pointer_mut("/source/kafka/reversePrivateEndpointIds").and_then(Value::as_array_mut);
        for entry in names.into_iter().flatten() {
            let id = entry.as_str().and_then(|name| self.endpoint_id(name));
            match id {
                Some(Id::Known(id)) => *entry = Value::String(id),
                Some(Id::CreatedBy(resource)) => *entry = Value::String(crate::resource::placeholder(&resource)),
                None => {}
            }
        }
        json
    }

    fn pipes(&mut self) -> Result<(), PlanError> {
        for desired in &self.desired.pipes {
            let resource = self.resource(Kind::Pipe, desired.name());
            let found = unique(&resource, &self.current.pipes, |p| p.name.as_deref(), |p| p.id.to_string())?;
            let json = self.pipe_json(desired);
            match found {
                None => self.create_pipe(&resource, desired, &json, "not on the server")?,
                Some(current) => self.change_pipe(&resource, desired, &json, current)?,
            }
        }
        Ok(())
    }

    fn create_pipe(
        &mut self,
        resource: &Resource,
        desired: &DesiredPipe,
        json: &Value,
        reason: &str,
    ) -> Result<(), PlanError> {
        let request: CreatePipeRequest = from_json(resource, CreatePipe::OPERATION, json.clone())?;
        self.step(resource, CreatePipe::OPERATION, &[], Some(&request), reason)?;
        if desired.state == DesiredPipeState::Stopped {
            let id = [("pipe_id", Id::CreatedBy(resource.clone()))];
            let stop = pipe_api_types::ChangePipeStateRequest::new(PipeCommand::Stop);
            let reason = "should be stopped (a pipe starts running when created)";
            let step = self.step(resource, ChangePipeState::OPERATION, &id, Some(&stop), reason)?;
            step.then = Some(Awaited::PipeStopped);
        }
        Ok(())
    }

    fn change_pipe(
        &mut self,
        resource: &Resource,
        desired: &DesiredPipe,
        json: &Value,
        current: &Pipe,
    ) -> Result<(), PlanError> {
        let id = [("pipe_id", Id::Known(current.id.to_string()))];
        let changes = PipeChanges::between(json, &compared(current));
        let state = current.state.clone();
        if !changes.fixed.is_empty() {
            let database =
                desired.pipe.source.as_ref().and_then(PipeSource::kind).is_some_and(|kind| kind.is_database());
            let cost = if database {
                "a database pipe created again loads every table again from the start (a full resync: hours or days for large tables)"
            } else {
                "ingestion stops, and the pipe created again starts reading where its source settings say (offsets and progress are lost)"
            };
            self.refuse_replacement(resource, &changes.fixed, cost)?;
            let step = self.bare(resource, DeletePipe::OPERATION, &id, replaced_because(&changes.fixed));
            step.destructive = Some(cost.to_owned());
            return self.create_pipe(resource, desired, json, "created again");
        }
        let differs = !changes.update.is_empty() || changes.scaling.is_some();
        if state == Some(PipeState::Completed) {
            if differs {
                let mut fields: Vec<&str> = changes.updated.iter().map(String::as_str).collect();
                fields.extend(changes.scaling.as_ref().map(|_| "scaling"));
                self.notes.push(format!(
                    "{resource} is Completed and is not updated (only a resync changes it); differs: {}",
                    fields.join(", ")
                ));
            }
            return Ok(());
        }
        let resting = matches!(state, Some(PipeState::Stopped | PipeState::Paused));
        let pause = changes.tables_change && !resting;
        let stop = pipe_api_types::ChangePipeStateRequest::new(PipeCommand::Stop);
        let start = pipe_api_types::ChangePipeStateRequest::new(PipeCommand::Start);
        if pause {
            let step = self.step(
                resource,
                ChangePipeState::OPERATION,
                &id,
                Some(&stop),
                "its tables change only while it is paused",
            )?;
            step.then = Some(Awaited::PipeStopped);
        }
        if !changes.update.is_empty() {
            let reason = differ(&changes.updated);
            let request: UpdatePipeRequest = from_json(resource, UpdatePipe::OPERATION, Value::Object(changes.update))?;
            self.step(resource, UpdatePipe::OPERATION, &id, Some(&request), reason)?;
        }
        if let Some(scaling) = changes.scaling {
            let request: pipe_api_types::UpdatePipeScalingRequest =
                from_json(resource, UpdatePipeScaling::OPERATION, scaling)?;
            self.step(resource, UpdatePipeScaling::OPERATION, &id, Some(&request), "scaling differs")?;
        }
        let stopping = matches!(state, Some(PipeState::Stopping | PipeState::Pausing));
        match desired.state {
            DesiredPipeState::Running if pause => {
                self.step(
                    resource,
                    ChangePipeState::OPERATION,
                    &id,
                    Some(&start),
                    "started again after its tables changed",
                )?;
            }
            DesiredPipeState::Running if resting || state == Some(PipeState::Failed) => {
                let reason = format!("should run, and is {}", state.as_ref().map_or("", |s| s.as_str()));
                self.step(resource, ChangePipeState::OPERATION, &id, Some(&start), reason)?;
            }
            DesiredPipeState::Stopped if !pause && !resting && !stopping => {
                let reason =
                    format!("should be stopped, and is {}", state.as_ref().map_or("in no state", |s| s.as_str()));
                let step = self.step(resource, ChangePipeState::OPERATION, &id, Some(&stop), reason)?;
                step.then = Some(Awaited::PipeStopped);
            }
            // A start is refused until the pipe has stopped: the next plan starts it.
            DesiredPipeState::Running if stopping => {
                self.notes
                    .push(format!("{resource} should run, and is still stopping: plan again once it has stopped"));
            }
            _ => {}
        }
        Ok(())
    }

    /// Deletes (with pruning) or notes the pipes, then the endpoints, the desired state does not
    /// name: pipes first, as they may use the endpoints.
    fn prune_management(&mut self) {
        let named_pipes: Vec<&str> = self.desired.pipes.iter().map(DesiredPipe::name).collect();
        for pipe in &self.current.pipes {
            let name = pipe.name.as_deref().unwrap_or_default();
            if named_pipes.contains(&name) {
                continue;
            }
            let resource = self.resource(Kind::Pipe, name);
            self.prune(
                self.options.prune,
                &resource,
                DeletePipe::OPERATION,
                ("pipe_id", pipe.id.to_string()),
                "what it loaded stays in its table",
            );
        }
        let named: Vec<&str> =
            self.desired.reverse_private_endpoints.iter().filter_map(|e| e.description.as_deref()).collect();
        for endpoint in self.endpoints.clone() {
            let name = endpoint.description.as_deref().unwrap_or_default();
            if named.contains(&name) {
                continue;
            }
            let resource = self.resource(Kind::ReversePrivateEndpoint, name);
            let cost = "pipes that still use it lose the connection";
            self.prune(
                self.options.prune,
                &resource,
                DeleteReversePrivateEndpoint::OPERATION,
                ("endpoint_id", endpoint.id.to_string()),
                cost,
            );
        }
    }

    /// A delete with pruning (`prune`, the option for the kind); a note without.
    fn prune(
        &mut self,
        prune: bool,
        resource: &Resource,
        row: &'static Operation,
        id: (&'static str, String),
        cost: &str,
    ) {
        if prune {
            let step = self.bare(resource, row, &[(id.0, Id::Known(id.1))], "not in the desired state");
            step.destructive = Some(format!("deletes it; {cost}"));
        } else {
            self.notes.push(format!("{resource} is not in the desired state (pruning not asked)"));
        }
    }

    fn alerts(&mut self) -> Result<(), PlanError> {
        let Some(current) = &self.current.alerts else {
            return if self.desired.alerts.is_empty() { Ok(()) } else { Err(PlanError::AlertsNotRead) };
        };
        for desired in &self.desired.alerts {
            let resource = Resource::new(Kind::Alert, alert_name(desired).unwrap_or_default());
            let found = unique(&resource, current, |a| a.name.as_deref(), |a| a.id.to_string())?;
            let Some(alert) = found else {
                self.step(&resource, CreateAlert::OPERATION, &[], Some(desired), "not on the server")?;
                continue;
            };
            let desired_json = to_json(desired);
            let Value::Object(mut merged) = to_json(&AlertRequest::from(alert.clone())) else { continue };
            let differing = differing(&desired_json, &Value::Object(merged.clone()));
            if differing.is_empty() {
                continue;
            }
            // A `PUT` replaces the whole alert: what the desired state does not name is sent
            // back as read. The channels are one list, whose first is the legacy `channel`:
            // a file naming `channel` alone names the first, and the others are kept (a `PUT`
            // with `channel` alone would cut the alert down to it); one naming `channels`
            // names them all.
            let names = |field| desired_json.get(field).is_some();
            merged.extend(desired_json.as_object().into_iter().flatten().map(|(k, v)| (k.clone(), v.clone())));
            match (names("channel"), names("channels")) {
                (true, false) => {
                    let kept = match merged.get_mut("channels") {
                        Some(Value::Array(channels)) if channels.len() > 1 => {
                            channels[0] = desired_json["channel"].clone();
                            true
                        }
                        _ => false,
                    };
                    // One channel is `channel` alone, as a fresh alert is sent.
                    if !kept {
                        merged.remove("channels");
                    }
                }
                (false, true) => {
                    let first = desired_json["channels"].get(0).cloned();
                    match first {
                        Some(first) if merged.contains_key("channel") => _ = merged.insert("channel".into(), first),
                        _ => _ = merged.remove("channel"),
                    }
                }
                _ => {}
            }
            let request: AlertRequest = from_json(&resource, UpdateAlert::OPERATION, Value::Object(merged))?;
            let id = [("alert_id", Id::Known(alert.id.to_string()))];
            self.step(&resource, UpdateAlert::OPERATION, &id, Some(&request), differ(&differing))?;
        }
        let named: Vec<&str> = self.desired.alerts.iter().filter_map(alert_name).collect();
        for alert in current {
            let name = alert.name.as_deref().unwrap_or_default();
            if !named.contains(&name) {
                let resource = Resource::new(Kind::Alert, name);
                self.prune(
                    self.options.prune_alerts,
                    &resource,
                    DeleteAlert::OPERATION,
                    ("alert_id", alert.id.to_string()),
                    "it no longer notifies",
                );
            }
        }
        Ok(())
    }
}

/// Why a service is never replaced by a plan, whatever its options.
const SERVICE_REPLACED: &str = "a service made again starts empty (every table and its data are lost), so a plan \
                                never replaces one: change it back, or declare a service of another name";

/// The body of a step that has none.
enum NoBody {}

impl Validate for NoBody {
    fn validate(&self) -> Result<(), ValidationErrors> {
        match *self {}
    }
}

impl Serialize for NoBody {
    fn serialize<S: serde::Serializer>(&self, _: S) -> Result<S::Ok, S::Error> {
        match *self {}
    }
}

/// The one resource of the server named like `resource`, if any; two are an error.
fn unique<'c, T>(
    resource: &Resource,
    current: &'c [T],
    name: impl Fn(&T) -> Option<&str>,
    id: impl Fn(&T) -> String,
) -> Result<Option<&'c T>, PlanError> {
    let mut found = current.iter().filter(|item| name(item) == Some(resource.name.as_str()));
    match (found.next(), found.next()) {
        (Some(first), Some(second)) => {
            Err(PlanError::SameNameOnServer { resource: resource.clone(), ids: [id(first), id(second)] })
        }
        (first, _) => Ok(first),
    }
}

/// How a pipe differs from what is desired, sorted by what can change it.
struct PipeChanges {
    /// The update request's members (`UpdatePipeRequest`), only what differs.
    update: Map<String, Value>,
    /// The paths of what the update changes (`source.kafka.iamRole`), for its reason.
    updated: Vec<String>,
    /// The desired scaling, when it differs.
    scaling: Option<Value>,
    /// Whether a database pipe's tables change.
    tables_change: bool,
    /// The fields that differ and that no update can change.
    fixed: Vec<Unchangeable>,
}

impl PipeChanges {
    /// Compares what `desired` names (secrets aside: the services never echo them) with
    /// `current`; which fields an update can change comes from the patch models, written from
    /// the contract's patch schemas.
    fn between(desired: &Value, current: &Value) -> Self {
        let mut changes = PipeChanges {
            update: Map::new(),
            updated: Vec::new(),
            scaling: None,
            tables_change: false,
            fixed: Vec::new(),
        };
        let declared = desired;
        let mut desired = desired.clone();
        strip_unechoed(&mut desired);
        for (field, wanted) in desired.as_object().into_iter().flatten() {
            let had = current.get(field).unwrap_or(&Value::Null);
            if contains(wanted, had) {
                continue;
            }
            match field.as_str() {
                "source" => changes.source(wanted, had),
                "destination" => {
                    for (member, value) in wanted.as_object().into_iter().flatten() {
                        if contains(value, had.get(member).unwrap_or(&Value::Null)) {
                            continue;
                        }
                        if DestinationPatch::FIELDS.contains(&member.as_str()) {
                            member_of(&mut changes.update, "destination").insert(member.clone(), value.clone());
                            changes.updated.push(format!("destination.{member}"));
                        } else {
                            changes.fixed.push(Unchangeable::field(format!("destination.{member}")));
                        }
                    }
                }
                "scaling" => changes.scaling = Some(wanted.clone()),
                field if UpdatePipeRequest::FIELDS.contains(&field) => {
                    changes.update.insert(field.to_owned(), wanted.clone());
                    changes.updated.push(field.to_owned());
                }
                field => changes.fixed.push(Unchangeable::field(field.to_owned())),
            }
        }
        changes.required_members(declared);
        changes
    }

    /// The members a kind's patch schema requires in every update of it (a MySQL `host` and
    /// `port`, a MongoDB `uri`, a Pub/Sub `serviceAccountKey`), as declared, secrets included,
    /// when the update changes that kind.
    fn required_members(&mut self, declared: &Value) {
        let Some(Value::Object(source)) = self.update.get_mut("source") else { return };
        for (kind, patch) in source.iter_mut() {
            let Some(required) = SourceKind::from(kind.as_str()).patch_schema().map(|schema| schema.required) else {
                continue;
            };
            let (Some(patch), Some(Value::Object(declared))) = (patch.as_object_mut(), declared["source"].get(kind))
            else {
                continue;
            };
            for member in required {
                if let Some(value) = declared.get(*member) {
                    patch.entry(*member).or_insert_with(|| value.clone());
                }
            }
        }
    }

    /// The source: its kind, then each member its kind's patch model has or not.
    fn source(&mut self, wanted: &Value, had: &Value) {
        for (kind, members) in wanted.as_object().into_iter().flatten() {
            let Some(had) = had.get(kind).filter(|had| had.is_object()) else {
                let why = format!("the pipe reads from another kind than {kind}");
                self.fixed.push(Unchangeable { path: "source".to_owned(), why });
                continue;
            };
            // A kind with no patch schema (BigQuery) changes only by a replacement.
            let (patchable, settings) = match SourceKind::from(kind.as_str()).patch_schema() {
                Some(schema) => (schema.members, schema.settings),
                None => (&[][..], &[][..]),
            };
            let tables = patchable.contains(&"tableMappingsToAdd");
            for (member, value) in members.as_object().into_iter().flatten() {
                let was = had.get(member).unwrap_or(&Value::Null);
                if contains(value, was) {
                    continue;
                }
                let path = format!("source.{kind}.{member}");
                match member.as_str() {
                    "tableMappings" if tables => {
                        self.tables(kind, value, was);
                        self.updated.push(path);
                    }
                    "settings" if patchable.contains(&"settings") => {
                        for (setting, value) in value.as_object().into_iter().flatten() {
                            if contains(value, was.get(setting).unwrap_or(&Value::Null)) {
                                continue;
                            }
                            if settings.contains(&setting.as_str()) {
                                let source = member_of(member_of(&mut self.update, "source"), kind);
                                member_of(source, "settings").insert(setting.clone(), value.clone());
                                self.updated.push(format!("{path}.{setting}"));
                            } else {
                                self.fixed.push(Unchangeable::field(format!("{path}.{setting}")));
                            }
                        }
                    }
                    member if patchable.contains(&member) => {
                        member_of(member_of(&mut self.update, "source"), kind).insert(member.to_owned(), value.clone());
                        self.updated.push(path);
                    }
                    _ => self.fixed.push(Unchangeable::field(path)),
                }
            }
        }
    }

    /// A database pipe's tables: those to add and those to remove (a changed one is both).
    fn tables(&mut self, kind: &str, wanted: &Value, had: &Value) {
        let (wanted, had) =
            (wanted.as_array().cloned().unwrap_or_default(), had.as_array().cloned().unwrap_or_default());
        let add: Vec<Value> = wanted.iter().filter(|w| !had.iter().any(|h| contains(w, h))).cloned().collect();
        let remove: Vec<Value> = had.iter().filter(|h| !wanted.iter().any(|w| contains(w, h))).cloned().collect();
        let database = member_of(member_of(&mut self.update, "source"), kind);
        if !add.is_empty() {
            database.insert("tableMappingsToAdd".to_owned(), Value::Array(add));
        }
        if !remove.is_empty() {
            database.insert("tableMappingsToRemove".to_owned(), Value::Array(remove));
        }
        self.tables_change = true;
    }
}

/// What `update_service` changes of a service, from what differs: each list (the IP access
/// list, the tags, the private endpoints) as what to remove and what to add, the MySQL endpoint
/// turned on or off, and the other members as declared.
struct ServicePatch {
    /// The request's members.
    members: Map<String, Value>,
    /// The fields that differ, for the step's reason.
    fields: Vec<String>,
}

impl ServicePatch {
    fn between(desired: &Value, current: &Value) -> Self {
        let mut patch = ServicePatch { members: Map::new(), fields: Vec::new() };
        for (field, wanted) in desired.as_object().into_iter().flatten() {
            let had = current.get(field).unwrap_or(&Value::Null);
            if contains(wanted, had) || !UpdateServiceRequest::FIELDS.contains(&field.as_str()) || field == "name" {
                continue;
            }
            // How an element of each list is known: an IP entry by its source, a tag by its key.
            let identity: Option<fn(&Value) -> Value> = match field.as_str() {
                "ipAccessList" => Some(|entry| entry["source"].clone()),
                "tags" => Some(|tag| tag["key"].clone()),
                "privateEndpointIds" => Some(Value::clone),
                _ => None,
            };
            let value = match (field.as_str(), identity) {
                (_, Some(identity)) => {
                    let (wanted, had) =
                        (wanted.as_array().cloned().unwrap_or_default(), had.as_array().cloned().unwrap_or_default());
                    // What is declared and not there is added (an element of the same identity
                    // that differs is replaced by it); what is there and not declared, removed.
                    let add: Vec<Value> =
                        wanted.iter().filter(|w| !had.iter().any(|h| contains(w, h))).cloned().collect();
                    let remove: Vec<Value> =
                        had.iter().filter(|h| !wanted.iter().any(|w| identity(w) == identity(h))).cloned().collect();
                    let mut list = Map::new();
                    if !add.is_empty() {
                        list.insert("add".to_owned(), Value::Array(add));
                    }
                    if !remove.is_empty() {
                        list.insert("remove".to_owned(), Value::Array(remove));
                    }
                    if list.is_empty() {
                        continue;
                    }
                    Value::Object(list)
                }
                ("endpoints", None) => {
                    // The service lists its endpoints on; an endpoint change turns one on or off.
                    let on =
                        |protocol: &Value| had.as_array().into_iter().flatten().any(|e| e["protocol"] == *protocol);
                    let changes: Vec<Value> = wanted
                        .as_array()
                        .into_iter()
                        .flatten()
                        .filter(|change| {
                            change["enabled"].as_bool().is_some_and(|enabled| enabled != on(&change["protocol"]))
                        })
                        .cloned()
                        .collect();
                    if changes.is_empty() {
                        continue;
                    }
                    Value::Array(changes)
                }
                _ => wanted.clone(),
            };
            patch.members.insert(field.clone(), value);
            patch.fields.push(field.clone());
        }
        patch
    }
}

/// Takes out of a desired service what no answer shows, so that it never reads as a
/// difference: what only a create reads (a backup to start from, the preview terms) and the
/// deprecated total memory (of three replicas: the server reports it for the replicas it has).
fn strip_unechoed_service(value: &mut Value) {
    if let Some(members) = value.as_object_mut() {
        for name in ["backupId", "privatePreviewTermsChecked", "minTotalMemoryGb", "maxTotalMemoryGb"] {
            members.remove(name);
        }
    }
}

/// The object member `name` of `map`, made if missing.
fn member_of<'m>(map: &'m mut Map<String, Value>, name: &str) -> &'m mut Map<String, Value> {
    let member = map.entry(name.to_owned()).or_insert_with(|| Value::Object(Map::new()));
    if !member.is_object() {
        *member = Value::Object(Map::new());
    }
    member.as_object_mut().expect("made an object")
}

/// Takes out of a desired pipe what no answer shows, so that it never reads as a difference:
/// secrets, the create-only `source.validateSamples`, and `destination.roles`.
fn strip_unechoed(value: &mut Value) {
    fn secrets(value: &mut Value) {
        match value {
            Value::Object(map) => {
                map.retain(|key, _| !is_secret_field(key));
                map.values_mut().for_each(secrets);
            }
            Value::Array(items) => items.iter_mut().for_each(secrets),
            _ => {}
        }
    }
    secrets(value);
    if let Some(source) = value.get_mut("source").and_then(Value::as_object_mut) {
        source.remove("validateSamples");
    }
    if let Some(destination) = value.get_mut("destination").and_then(Value::as_object_mut) {
        destination.remove("roles");
    }
}

/// Whether every value `desired` names is `current`'s: an object's members that it names, a
/// list item by item, numbers by value (`2` is `2.0`).
pub(crate) fn contains(desired: &Value, current: &Value) -> bool {
    match (desired, current) {
        (Value::Null, _) => true,
        (Value::Object(wanted), Value::Object(had)) => {
            wanted.iter().all(|(key, value)| contains(value, had.get(key).unwrap_or(&Value::Null)))
        }
        (Value::Array(wanted), Value::Array(had)) => {
            wanted.len() == had.len() && wanted.iter().zip(had).all(|(wanted, had)| contains(wanted, had))
        }
        (Value::Number(wanted), Value::Number(had)) => wanted.as_f64() == had.as_f64(),
        _ => desired == current,
    }
}

/// The top-level fields `desired` names with another value than `current`'s.
fn differing(desired: &Value, current: &Value) -> Vec<String> {
    let members = desired.as_object().into_iter().flatten();
    members
        .filter(|(key, value)| !contains(value, current.get(*key).unwrap_or(&Value::Null)))
        .map(|(k, _)| k.clone())
        .collect()
}

fn differ(fields: &[String]) -> String {
    format!("{} differ{}", fields.join(", "), if fields.len() == 1 { "s" } else { "" })
}

fn replaced_because(fields: &[Unchangeable]) -> String {
    format!("replaced: {} cannot be updated", listed(fields))
}

/// `source.kafka.topics, source (the pipe reads from another kind than kinesis)`.
fn listed(fields: &[Unchangeable]) -> String {
    fields.iter().map(Unchangeable::to_string).collect::<Vec<_>>().join(", ")
}

/// A field that differs and that no update can change: its path and why, apart.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Unchangeable {
    /// Its JSON path in the resource (`source.kafka.topics`, `source`).
    pub path: String,
    /// Why no update changes it (`no update can change it`, `the pipe reads from another kind
    /// than kinesis`).
    pub why: String,
}

/// What no update changes, with no other reason.
const NO_UPDATE: &str = "no update can change it";

impl Unchangeable {
    /// A field that no patch model has.
    fn field(path: impl Into<String>) -> Self {
        Unchangeable { path: path.into(), why: NO_UPDATE.to_owned() }
    }
}

/// The path, and why when it is more than that no update can change it.
impl fmt::Display for Unchangeable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.path)?;
        if self.why != NO_UPDATE {
            write!(f, " ({})", self.why)?;
        }
        Ok(())
    }
}

/// A request model from JSON the plan put together, of values already read as models: the
/// desired state's, checked strictly when it was read (a member sent under `$notYetKnown`
/// included), and the server's. So it is vouched for: read again here, none of it is a typo.
fn from_json<T: serde::de::DeserializeOwned + Vouch>(
    resource: &Resource,
    row: &'static Operation,
    json: Value,
) -> Result<T, PlanError> {
    let mut model: T = read_model(json).map_err(|message| PlanError::Malformed {
        resource: resource.clone(),
        operation: row.name,
        message: truncate(&message, 300).into_owned(),
    })?;
    model.vouch();
    Ok(model)
}
