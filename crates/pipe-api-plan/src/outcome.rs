//! What an [`Apply`](crate::apply::Apply) returns, typed: each step's outcome ([`StepOutcome`]: its
//! index, operation, resource, id, path and [`Effect`]), and why an apply stopped
//! ([`ApplyError`], its cause an [`ApplyFailure`]; a failed wait a [`WaitFailure`] of the
//! resource's type). Text shows no value the plan's desired state resolved from a reference.

use std::fmt;
use std::time::Duration;

use pipe_api_proto::Error;
use pipe_api_proto::operations::Operation;
use pipe_api_proto::wait::{WaitError, WakeError};
use pipe_api_types::{
    AlertId, OrganizationId, Pipe, PipeId, ReversePrivateEndpoint, ReversePrivateEndpointId, Service, ServiceId,
};

use crate::planned::steps;
use crate::resource::{Kind, Resource};
use crate::shown::Resolved;

/// What a step's request did.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum Effect {
    /// It created its resource.
    Created,
    /// A create whose outcome was unknown: the resource was found by listing, and adopted.
    Adopted,
    /// It changed its resource (an update, a state or scaling change, an alert replaced).
    Changed,
    /// It deleted its resource.
    Deleted,
}

/// The id of a resource a plan manages, typed by its kind.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
#[non_exhaustive]
pub enum ResourceId {
    /// A service's.
    Service(ServiceId),
    /// A reverse private endpoint's.
    ReversePrivateEndpoint(ReversePrivateEndpointId),
    /// A pipe's.
    Pipe(PipeId),
    /// An alert's.
    Alert(AlertId),
}

impl ResourceId {
    /// The id `id` of a resource of `kind`; `None` when it is not one (a pipe's or an
    /// endpoint's id that is not a UUID).
    pub(crate) fn parse(kind: Kind, id: &str) -> Option<Self> {
        match kind {
            Kind::Service => id.parse().ok().map(ResourceId::Service),
            Kind::ReversePrivateEndpoint => id.parse().ok().map(ResourceId::ReversePrivateEndpoint),
            Kind::Pipe => id.parse().ok().map(ResourceId::Pipe),
            Kind::Alert => Some(ResourceId::Alert(AlertId::new(id))),
        }
    }
}

/// The id as the server writes it.
impl fmt::Display for ResourceId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ResourceId::Service(id) => write!(f, "{id}"),
            ResourceId::ReversePrivateEndpoint(id) => write!(f, "{id}"),
            ResourceId::Pipe(id) => write!(f, "{id}"),
            ResourceId::Alert(id) => f.write_str(id.as_str()),
        }
    }
}

/// A step of an applied plan: which one ([`StepOutcome::index`] in [`Plan::steps`](crate::planned::Plan::steps)),
/// its operation, its resource and that resource's id, the path of its request, and what its
/// request did ([`StepOutcome::effect`]). [`Applied::steps`] and [`ApplyError::done`] hold the
/// steps done; [`ApplyError::failed`] the one that failed; [`ApplyError::not_started`] the rest.
/// `Display` is its summary (`create_pipe pipe "orders"`); neither it nor `Debug` shows a value
/// the desired state's lookup gave.
#[derive(Clone, PartialEq)]
pub struct StepOutcome {
    index: usize,
    operation: &'static Operation,
    resource: Resource,
    id: Option<ResourceId>,
    path: String,
    effect: Option<Effect>,
    /// `PlanStep::summary`, redacted already.
    summary: Box<str>,
    resolved: Resolved,
}

impl StepOutcome {
    /// Made by the apply, which knows the ids.
    pub(crate) fn new(
        index: usize,
        step: &crate::planned::PlanStep,
        id: Option<ResourceId>,
        path: String,
        effect: Option<Effect>,
    ) -> Self {
        StepOutcome {
            index,
            operation: step.request.operation,
            resource: step.resource.clone(),
            id,
            path,
            effect,
            summary: step.summary().into_boxed_str(),
            resolved: step.request.resolved.clone(),
        }
    }

    /// Its index in [`Plan::steps`](crate::planned::Plan::steps), from 0 (an error's text numbers steps
    /// from 1).
    pub fn index(&self) -> usize {
        self.index
    }

    /// Its operation: its row of the table of operations.
    pub fn operation(&self) -> &'static Operation {
        self.operation
    }

    /// The resource it acts on.
    pub fn resource(&self) -> &Resource {
        &self.resource
    }

    /// The resource's id: the one it created or adopted, or the one its request names (changed
    /// or deleted). `None` for a step not started whose resource an earlier step did not create,
    /// and for an id of the server's that is not one of its kind.
    pub fn id(&self) -> Option<&ResourceId> {
        self.id.as_ref()
    }

    /// The method of its request.
    pub fn method(&self) -> &pipe_api_proto::http::Method {
        &self.operation.method
    }

    /// The path of its request as sent, its ids filled in; for a step not started, an id an
    /// earlier step did not create stands as its placeholder (`{id of pipe "orders"}`). Paths
    /// hold ids, never secrets.
    pub fn path(&self) -> &str {
        &self.path
    }

    /// What its request did: always set for a step done; for the step that failed, set when its
    /// request went through and what came after it failed (its wait, the apply's deadline);
    /// `None` for a step not started.
    pub fn effect(&self) -> Option<Effect> {
        self.effect
    }
}

impl fmt::Display for StepOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.shown(f, |f| f.write_str(&self.summary))
    }
}

impl fmt::Debug for StepOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.write(f, |f| {
            f.debug_struct("StepOutcome")
                .field("index", &self.index)
                .field("operation", &self.operation.name)
                .field("resource", &self.resource)
                .field("id", &self.id)
                .field("path", &self.path)
                .field("effect", &self.effect)
                .finish()
        })
    }
}

/// A plan applied: each step, with what became of it.
#[derive(Clone, Debug, PartialEq)]
pub struct Applied {
    pub(crate) steps: Vec<StepOutcome>,
}

impl Applied {
    /// Each step, in order, with the id of its resource and what its request did.
    pub fn steps(&self) -> &[StepOutcome] {
        &self.steps
    }
}

impl fmt::Display for Applied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let adopted = self.steps.iter().filter(|step| step.effect == Some(Effect::Adopted)).count();
        write!(f, "applied {}", steps(self.steps.len()))?;
        if adopted > 0 {
            write!(f, " ({adopted} adopted: created by an earlier attempt whose answer was lost)")?;
        }
        Ok(())
    }
}

/// A wait inside an apply that failed, typed by what it polled: no downcasting. Boxed: an
/// apply's error passes through every result.
#[derive(Debug)]
#[non_exhaustive]
pub enum WaitFailure {
    /// Waiting for a reverse private endpoint to be `Ready`.
    ReversePrivateEndpoint(Box<WaitError<ReversePrivateEndpoint>>),
    /// Waiting for a pipe to be `Stopped` or `Paused`.
    Pipe(Box<WaitError<Pipe>>),
    /// Waiting for a service to run, to stop, or to report its new scaling.
    Service(Box<WaitError<Service>>),
}

impl WaitFailure {
    /// Whether the wait's deadline ended it.
    pub fn is_timeout(&self) -> bool {
        match self {
            WaitFailure::ReversePrivateEndpoint(error) => error.is_timeout(),
            WaitFailure::Pipe(error) => error.is_timeout(),
            WaitFailure::Service(error) => error.is_timeout(),
        }
    }
}

impl fmt::Display for WaitFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WaitFailure::ReversePrivateEndpoint(error) => error.fmt(f),
            WaitFailure::Pipe(error) => error.fmt(f),
            WaitFailure::Service(error) => error.fmt(f),
        }
    }
}

/// As the wait's error: its text is this one's.
impl std::error::Error for WaitFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WaitFailure::ReversePrivateEndpoint(error) => error.source(),
            WaitFailure::Pipe(error) => error.source(),
            WaitFailure::Service(error) => error.source(),
        }
    }
}

/// Why an apply stopped.
#[derive(Debug)]
#[non_exhaustive]
pub enum ApplyFailure {
    /// The step's request failed (after its retries, and after waking an idle service once).
    Call(Error),
    /// The step's request went through, then the wait for the state later steps need failed.
    Wait(WaitFailure),
    /// A request found the service idle, and waking it failed.
    Wake(WakeError),
    /// The apply's own deadline ([`ApplyOptions::deadline`](crate::apply::ApplyOptions::deadline))
    /// left no time for what came next.
    Deadline {
        /// The deadline.
        deadline: Duration,
        /// How long the apply had lasted.
        elapsed: Duration,
    },
    /// The plan was made for another service than the one it was applied to (or for an
    /// organization's services, and applied to one service, or the other way): nothing was
    /// sent.
    OtherService {
        /// The organization the plan was made for.
        planned_organization: OrganizationId,
        /// The service the plan was made for; `None` for the organization's services.
        planned_service: Option<ServiceId>,
        /// The organization it was applied to.
        organization: OrganizationId,
        /// The service it was applied to; `None` for the organization's services.
        service: Option<ServiceId>,
    },
    /// A server's answer the apply cannot go on from (it names no id, or one that is not of its
    /// kind), in words.
    Answer(Box<str>),
    /// Resources the plan touches changed since it was planned (each named, as a stale saved
    /// plan's are): an apply checks the service first, so a plan applied twice, or after the
    /// service moved, is refused before anything is sent. Plan again.
    Stale(Vec<crate::current::Change>),
    /// Reading the service before the first step, to check the plan, failed; nothing was sent.
    Read(Error),
}

/// `service {id}`, or `its services` for a plan of an organization's services.
pub(crate) fn scope(service: Option<ServiceId>) -> String {
    service.map_or_else(|| "its services".to_owned(), |service| format!("service {service}"))
}

impl fmt::Display for ApplyFailure {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        crate::shown::shown(f, |f| self.render(f))
    }
}

impl ApplyFailure {
    /// The text `Display` shows, before it is cut.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ApplyFailure::Call(error) => fmt::Display::fmt(error, f),
            ApplyFailure::Wait(error) => fmt::Display::fmt(error, f),
            ApplyFailure::Wake(error) => fmt::Display::fmt(error, f),
            ApplyFailure::Deadline { deadline, elapsed } => write!(
                f,
                "the apply's {:.1} s deadline left no time to go on, after {:.1} s",
                deadline.as_secs_f64(),
                elapsed.as_secs_f64()
            ),
            ApplyFailure::OtherService { planned_organization, planned_service, organization, service } => write!(
                f,
                "the plan was made for {} of organization {planned_organization}, not for {} of organization \
                 {organization}; nothing was sent",
                scope(*planned_service),
                scope(*service)
            ),
            ApplyFailure::Answer(why) => f.write_str(why),
            ApplyFailure::Stale(changes) => {
                f.write_str("the service changed since the plan: ")?;
                for (index, change) in changes.iter().enumerate() {
                    if index > 0 {
                        f.write_str("; ")?;
                    }
                    write!(f, "{change}")?;
                }
                f.write_str("; nothing was sent: plan again")
            }
            ApplyFailure::Read(error) => write!(f, "reading the service to check the plan failed: {error}"),
        }
    }
}

/// The inner error's text is this one's; the source is what lies below it.
impl std::error::Error for ApplyFailure {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ApplyFailure::Call(error) => error.source(),
            ApplyFailure::Wait(error) => error.source(),
            ApplyFailure::Wake(error) => error.source(),
            ApplyFailure::Read(error) => Some(error),
            _ => None,
        }
    }
}

/// Why an apply stopped: the step that failed and why ([`ApplyFailure`]), with the steps done
/// before it and those not started, each a [`StepOutcome`]. Its text (one line) shows no value
/// the plan's desired state resolved from a reference.
pub struct ApplyError(Box<Stopped>);

/// What an [`ApplyError`] holds: boxed, so that the error stays small enough to return.
pub(crate) struct Stopped {
    pub(crate) done: Vec<StepOutcome>,
    pub(crate) failed: Option<StepOutcome>,
    pub(crate) cause: ApplyFailure,
    /// What the check after a lost create found.
    pub(crate) checked: Option<String>,
    pub(crate) not_started: Vec<StepOutcome>,
    /// The plan's resolved values, taken out of the text.
    pub(crate) resolved: Resolved,
}

impl ApplyError {
    pub(crate) fn new(stopped: Stopped) -> Self {
        ApplyError(Box::new(stopped))
    }

    /// The steps done, in order.
    pub fn done(&self) -> &[StepOutcome] {
        &self.0.done
    }

    /// The step that failed; `None` when the apply was refused before its first step (a plan
    /// for another service, [`ApplyFailure::OtherService`]; a service that changed since the
    /// plan, [`ApplyFailure::Stale`]; or its reading failed, [`ApplyFailure::Read`]).
    pub fn failed(&self) -> Option<&StepOutcome> {
        self.0.failed.as_ref()
    }

    /// Why it stopped.
    pub fn cause(&self) -> &ApplyFailure {
        &self.0.cause
    }

    /// The call's error, when the step's request failed.
    pub fn call_error(&self) -> Option<&Error> {
        match &self.0.cause {
            ApplyFailure::Call(error) => Some(error),
            _ => None,
        }
    }

    /// The wait's error, when the step's request went through and its wait failed.
    pub fn wait_error(&self) -> Option<&WaitFailure> {
        match &self.0.cause {
            ApplyFailure::Wait(error) => Some(error),
            _ => None,
        }
    }

    /// The steps not started, in order.
    pub fn not_started(&self) -> &[StepOutcome] {
        &self.0.not_started
    }

    /// The text `Display` shows, before the redaction of resolved values.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let stopped = &*self.0;
        match &stopped.failed {
            Some(step) => write!(f, "apply: step {} ({step}) failed: {}", step.index + 1, stopped.cause)?,
            None => write!(f, "apply: refused: {}", stopped.cause)?,
        }
        if let Some(checked) = &stopped.checked {
            write!(f, "; {checked}")?;
        }
        f.write_str("; done: ")?;
        write_steps(f, &stopped.done)?;
        f.write_str("; not started: ")?;
        write_steps(f, &stopped.not_started)
    }
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.0.resolved.shown(f, |f| self.render(f))
    }
}

/// Reads as the message (what `main() -> Result` prints), not a struct dump.
impl fmt::Debug for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

/// The cause's text is in the one line; the source is what lies below it, so that a report
/// prints nothing twice (the cause itself: [`ApplyError::cause`]).
impl std::error::Error for ApplyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        std::error::Error::source(&self.0.cause)
    }
}

/// The most steps an error names in each of its lists: the text stays bounded however long
/// the plan (the accessors have them all).
const STEPS_SHOWN: usize = 5;

/// `a, b, c`, at most [`STEPS_SHOWN`] of them and how many more, or `none`.
fn write_steps(f: &mut fmt::Formatter<'_>, steps: &[StepOutcome]) -> fmt::Result {
    if steps.is_empty() {
        return f.write_str("none");
    }
    for (index, step) in steps.iter().take(STEPS_SHOWN).enumerate() {
        if index > 0 {
            f.write_str(", ")?;
        }
        write!(f, "{step}")?;
    }
    if steps.len() > STEPS_SHOWN {
        write!(f, " and {} more", steps.len() - STEPS_SHOWN)?;
    }
    Ok(())
}
