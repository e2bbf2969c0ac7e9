//! [`Apply`]: a plan's steps in order, as a sans-IO [`Machine`] that the same driver loop as a
//! [`Call`] runs. Each request is a [`Call`] (pacing, retries, the rule that a create is never
//! re-sent), each wait a [`Wait`].

use std::fmt;
use std::marker::PhantomData;
use std::time::Duration;

use pipe_api_proto::attempts::AttemptRecord;
use pipe_api_proto::call::{Call, Machine, Next};
use pipe_api_proto::http::{Method, Response};
use pipe_api_proto::operations::{Interface, Operation};
use pipe_api_proto::pages::Pages;
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::time::OffsetDateTime;
use pipe_api_proto::wait::{Wait, WaitPolicy, pipe_stopped, reverse_private_endpoint_ready};
use pipe_api_proto::{
    Alerting, Api, BuildError, BuildErrorKind, Endpoint, Error, GetPipe, GetReversePrivateEndpoint, ListPipes,
    ListReversePrivateEndpoints, MAX_ALERTS_LIMIT, Management, Reply, TransportError,
};
use serde_json::Value;

use crate::{Awaited, Id, Kind, Plan, PlanStep, PlannedRequest, Resolved, Resource, steps, truncate};

/// What a failed step ends with: the call's error, or the wait's.
type Cause = Box<dyn std::error::Error + Send + Sync>;

/// A machine of a step, its output made what the apply needs.
type Sub<'a, T> = Box<dyn Machine<Output = T> + 'a>;

/// Applies a [`Plan`]: its steps in order, waiting where a step needs a state. It stops at the
/// first failure and says which steps were done, which one failed and why, and which were not
/// started ([`ApplyError`]). A create whose outcome is unknown (a gateway's `502`-`504`, a
/// connection lost after sending, an answer that does not read) is never sent again: every
/// resource of its kind is listed (alerts page by page, [`Pages`]), and one of its name that
/// appeared is adopted; otherwise the apply stops, saying whether the listing read every one.
///
/// No value the plan's desired state resolved from a reference shows in what it returns:
/// each request's [`Call`] takes them out of its error ([`Call::scrubbing`]), and the
/// [`ApplyError`]'s text passes the plan's redaction.
///
/// Run it like a [`Call`] ([`Machine`]); `pipe-api-ureq`'s `ServiceScope::apply` (feature
/// `plan`) does.
pub struct Apply<'a> {
    plan: &'a Plan,
    management: Option<&'a Management>,
    alerting: Option<&'a Alerting>,
    retry: RetryPolicy,
    wait: WaitPolicy,
    seed: u64,
    /// The ids of the resources created (or adopted) so far.
    created: Vec<(Resource, String)>,
    /// What became of each step done.
    outcomes: Vec<StepOutcome>,
    phase: Phase<'a>,
}

enum Phase<'a> {
    /// The next step starts.
    Start,
    /// A step's request is under way.
    Sending(Sub<'a, Result<Value, Error>>),
    /// A create's outcome is unknown: its kind is being listed.
    Checking {
        error: Error,
        listing: Sub<'a, Result<Listed, Error>>,
    },
    /// Waiting for the state the step needs; `outcome` is what became of its request.
    Waiting {
        wait: Sub<'a, Result<(), Cause>>,
        outcome: StepOutcome,
    },
    Over,
}

/// What became of a step.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StepOutcome {
    /// Its request succeeded (and its wait, if it has one).
    Done,
    /// A create whose outcome was unknown: the resource was found by listing, and adopted.
    Adopted,
}

impl<'a> Apply<'a> {
    /// Applies `plan` on `management` and `alerting` (a step whose interface is not given
    /// fails, saying so), each request under `retry`, each wait under `wait`; `seed` seeds the
    /// jitter.
    pub fn new(
        plan: &'a Plan,
        management: Option<&'a Management>,
        alerting: Option<&'a Alerting>,
        retry: RetryPolicy,
        wait: WaitPolicy,
        seed: u64,
    ) -> Self {
        Apply {
            plan,
            management,
            alerting,
            retry,
            wait,
            seed,
            created: Vec::new(),
            outcomes: Vec::new(),
            phase: Phase::Start,
        }
    }

    fn step(&self) -> Option<&'a PlanStep> {
        self.plan.steps.get(self.outcomes.len())
    }

    fn seed(&self, salt: u64) -> u64 {
        let index = self.outcomes.len() as u64;
        self.seed ^ (index << 8 | salt).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The id `id` stands for, now.
    fn resolve(&self, id: &Id) -> Option<String> {
        match id {
            Id::Known(id) => Some(id.clone()),
            Id::CreatedBy(resource) => self.created_id(resource),
        }
    }

    fn created_id(&self, resource: &Resource) -> Option<String> {
        self.created.iter().find(|(created, _)| created == resource).map(|(_, id)| id.clone())
    }

    /// The call of `request`, its ids and placeholders filled in.
    fn call(&self, request: &PlannedRequest, salt: u64, now: Duration) -> Result<Sub<'a, Result<Value, Error>>, Error> {
        let operation = request.operation;
        let unknown_id =
            || Error::Build(BuildError::new(operation.name, BuildErrorKind::InvalidPath("names an id no step made")));
        let path = request.path(|id| self.resolve(id)).ok_or_else(unknown_id)?;
        let body = request.body(|text| {
            let resource = self.created.iter().find(|(resource, _)| crate::placeholder(resource) == text);
            resource.map(|(_, id)| id.clone())
        });
        let body = body.map(|body| serde_json::to_vec(&body).expect("JSON serializes"));
        let seed = self.seed(salt);
        let resolved = &self.plan.resolved;
        match (operation.interface, self.management, self.alerting) {
            (Interface::Management, Some(api), _) => {
                planned_call(Planned::new(operation, path, body), api, &self.retry, seed, now, resolved)
            }
            (Interface::Alerting, _, Some(api)) => {
                planned_call(Planned::new(operation, path, body), api, &self.retry, seed, now, resolved)
            }
            (interface, _, _) => {
                let name = if interface == Interface::Management { "management" } else { "alerting" };
                Err(Error::Build(BuildError::new(operation.name, BuildErrorKind::NotConfigured(name))))
            }
        }
    }

    /// The step's request went through (`value` is its answer), or was adopted.
    fn succeeded(
        &mut self,
        step: &'a PlanStep,
        value: &Value,
        outcome: StepOutcome,
        now: Duration,
    ) -> Result<(), Cause> {
        if step.creates() {
            if let Some(id) = value.get("id").and_then(Value::as_str) {
                self.created.push((step.resource.clone(), id.to_owned()));
            }
        }
        let Some(awaited) = step.then else {
            self.outcomes.push(outcome);
            self.phase = Phase::Start;
            return Ok(());
        };
        let id = step
            .request
            .ids
            .iter()
            .find(|(name, _)| matches!(*name, "pipe_id" | "endpoint_id"))
            .and_then(|(_, id)| self.resolve(id))
            .or_else(|| self.created_id(&step.resource))
            .ok_or_else(|| {
                Cause::from(format!("{}: the answer names no id to wait on", step.request.operation.name))
            })?;
        let (organization_id, service_id) = (self.plan.organization_id, self.plan.service_id);
        let management = self.management.ok_or_else(|| Cause::from("no management interface is configured"))?;
        let wait = self.wait.clone();
        let (retry, seed) = (self.retry.clone(), self.seed(2));
        let machine: Sub<'a, Result<(), Cause>> = match awaited {
            Awaited::ReversePrivateEndpointReady => {
                let get = GetReversePrivateEndpoint::new(organization_id, service_id, parse_id(&id)?);
                let wait = Wait::owned(get, management, reverse_private_endpoint_ready, wait, retry, seed, now);
                Box::new(Mapped::new(wait, |result: Result<_, _>| result.map(drop).map_err(Cause::from)))
            }
            Awaited::PipeStopped => {
                let get = GetPipe::new(organization_id, service_id, parse_id(&id)?);
                let wait = Wait::owned(get, management, pipe_stopped, wait, retry, seed, now);
                Box::new(Mapped::new(wait, |result: Result<_, _>| result.map(drop).map_err(Cause::from)))
            }
        };
        self.phase = Phase::Waiting { wait: machine, outcome };
        Ok(())
    }

    /// Lists every resource of the kind of the create that failed with `error`, unless its
    /// outcome is known: alerts page by page, as the planner reads them.
    fn check(&mut self, step: &'a PlanStep, error: Error, now: Duration) -> Option<Error> {
        if !step.creates() || !may_have_created(&error) {
            return Some(error);
        }
        let (kind, name) = (step.resource.kind, step.resource.name.clone());
        let listing: Sub<'a, Result<Listed, Error>> = match (kind, self.alerting) {
            (Kind::Alert, Some(api)) => {
                let pages = Pages::new(api, MAX_ALERTS_LIMIT, self.retry.clone(), self.seed(3));
                Box::new(AlertSearch { pages, name })
            }
            (Kind::Alert, None) => return Some(error),
            // Typed, as the planner reads them: a JSON value of a long list would cost many
            // times its body, and the decode budget refuses that.
            (Kind::Pipe, _) => {
                let list = ListPipes::new(self.plan.organization_id, self.plan.service_id);
                let Some(search) = self.search(list, name, now) else { return Some(error) };
                search
            }
            (Kind::ReversePrivateEndpoint, _) => {
                let list = ListReversePrivateEndpoints::new(self.plan.organization_id, self.plan.service_id);
                let Some(search) = self.search(list, name, now) else { return Some(error) };
                search
            }
        };
        self.phase = Phase::Checking { error, listing };
        None
    }

    /// The call of a whole list of the service, and the id of its element named `name`;
    /// `None` when it cannot be made.
    fn search<E, T>(&self, list: E, name: String, now: Duration) -> Option<Sub<'a, Result<Listed, Error>>>
    where
        E: Endpoint<Api = Management, Output = Vec<T>> + 'a,
        T: Named + 'a,
    {
        let call = Call::owned(list, self.management?, &self.retry, self.seed(3), now).ok()?;
        let call = call.scrubbing(self.plan.resolved.forms());
        Some(Box::new(Mapped::new(call, move |listed: Result<Reply<Vec<T>>, Error>| {
            let named = |element: &T| element.name() == Some(name.as_str());
            listed.map(|reply| reply.value.into_iter().find(named).map(Named::id).into())
        })))
    }

    /// Ends the apply with the step under way failed for `cause`.
    fn fail(&mut self, cause: Cause, checked: Option<String>) -> Next<Result<Applied, ApplyError>> {
        self.phase = Phase::Over;
        let done = self.outcomes.len();
        let steps = &self.plan.steps;
        Next::Done(Err(ApplyError {
            done: steps[..done].iter().map(PlanStep::summary).zip(self.outcomes.iter().copied()).collect(),
            failed: steps.get(done).map(PlanStep::summary).unwrap_or_default(),
            number: done + 1,
            cause,
            checked: checked.map(String::into_boxed_str),
            not_started: steps.iter().skip(done + 1).map(PlanStep::summary).collect(),
            resolved: self.plan.resolved.clone(),
        }))
    }
}

/// Whether a create that failed so may have created its resource: its outcome is unknown
/// ([`Error::outcome_unknown`]: a gateway's 502, 503 or 504, a failure after sending), or it
/// succeeded with an answer that did not read.
fn may_have_created(error: &Error) -> bool {
    error.outcome_unknown() || matches!(error, Error::Decode(_))
}

/// What listing a kind found after a create whose outcome is unknown.
enum Listed {
    /// A resource of the name, by its id.
    Found(String),
    /// Every resource of the kind was read, and none has the name.
    Absent,
    /// The listing ended before reading every one (why): the resource may exist.
    Incomplete(String),
}

/// A resource a service lists, known by a name (a pipe's `name`, an endpoint's `description`).
trait Named {
    /// Its name.
    fn name(&self) -> Option<&str>;
    /// Its id.
    fn id(self) -> String;
}

impl Named for pipe_api_types::Pipe {
    fn name(&self) -> Option<&str> {
        self.name.as_deref()
    }

    fn id(self) -> String {
        self.id.to_string()
    }
}

impl Named for pipe_api_types::ReversePrivateEndpoint {
    fn name(&self) -> Option<&str> {
        self.description.as_deref()
    }

    fn id(self) -> String {
        self.id.to_string()
    }
}

/// A whole list's answer: the id of the resource of the name, if one is there.
impl From<Option<String>> for Listed {
    fn from(id: Option<String>) -> Self {
        id.map_or(Listed::Absent, Listed::Found)
    }
}

/// Every alert, page by page ([`Pages`], as the planner reads them), until one of `name`.
struct AlertSearch<'a> {
    pages: Pages<'a>,
    name: String,
}

impl Machine for AlertSearch<'_> {
    type Output = Result<Listed, Error>;

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        loop {
            match self.pages.next(now, pacer.as_deref_mut()) {
                Next::Send { request, timeout } => return Next::Send { request, timeout },
                Next::Wait { until } => return Next::Wait { until },
                Next::Done(Some(Ok(page))) => {
                    let found = page.alerts.iter().find(|alert| alert.name.as_deref() == Some(self.name.as_str()));
                    if let Some(alert) = found {
                        return Next::Done(Ok(Listed::Found(alert.id.to_string())));
                    }
                }
                Next::Done(Some(Err(error))) => return Next::Done(Err(error)),
                Next::Done(None) => {
                    let listed = match self.pages.end() {
                        Some(end) if end.read_every_alert() => Listed::Absent,
                        Some(end) => Listed::Incomplete(end.to_string()),
                        None => Listed::Incomplete("the listing did not say why it ended".to_owned()),
                    };
                    return Next::Done(Ok(listed));
                }
            }
        }
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        self.pages.take_attempts()
    }

    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        self.pages.receive(outcome, now, wall, pacer);
    }
}

fn parse_id<T: std::str::FromStr>(id: &str) -> Result<T, Cause> {
    id.parse().map_err(|_| Cause::from(format!("the server's id {:?} is not a UUID", truncate(id, 64))))
}

impl Machine for Apply<'_> {
    type Output = Result<Applied, ApplyError>;

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        loop {
            let Some(step) = self.step() else {
                self.phase = Phase::Over;
                let steps = self.plan.steps.iter().map(PlanStep::summary);
                return Next::Done(Ok(Applied { steps: steps.zip(self.outcomes.iter().copied()).collect() }));
            };
            match &mut self.phase {
                Phase::Over => panic!("Apply::next after Next::Done: the apply is over"),
                Phase::Start => match self.call(&step.request, 1, now) {
                    Ok(call) => self.phase = Phase::Sending(call),
                    Err(error) => return self.fail(error.into(), None),
                },
                Phase::Sending(call) => match call.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    Next::Done(Ok(value)) => {
                        if let Err(cause) = self.succeeded(step, &value, StepOutcome::Done, now) {
                            return self.fail(cause, None);
                        }
                    }
                    Next::Done(Err(error)) => {
                        if let Some(error) = self.check(step, error, now) {
                            return self.fail(error.into(), None);
                        }
                    }
                },
                Phase::Checking { listing, .. } => match listing.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    Next::Done(listed) => {
                        let Phase::Checking { error, .. } = std::mem::replace(&mut self.phase, Phase::Start) else {
                            unreachable!("in the checking phase")
                        };
                        match listed {
                            Ok(Listed::Found(id)) => {
                                let adopted = serde_json::json!({ "id": id });
                                if let Err(cause) = self.succeeded(step, &adopted, StepOutcome::Adopted, now) {
                                    return self.fail(cause, None);
                                }
                            }
                            Ok(Listed::Absent) => {
                                let checked = format!(
                                    "listed afterwards: no {} was created; applying again creates it",
                                    step.resource
                                );
                                return self.fail(error.into(), Some(checked));
                            }
                            Ok(Listed::Incomplete(why)) => {
                                let checked = format!(
                                    "whether it was created is unknown: listing afterwards did not read every {} \
                                     ({why}); look for {} before applying again",
                                    step.resource.kind, step.resource
                                );
                                return self.fail(error.into(), Some(checked));
                            }
                            Err(listing) => {
                                let checked =
                                    format!("whether it was created is unknown: listing afterwards failed: {listing}");
                                return self.fail(error.into(), Some(checked));
                            }
                        }
                    }
                },
                Phase::Waiting { wait, outcome } => match wait.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    Next::Done(Ok(())) => {
                        self.outcomes.push(*outcome);
                        self.phase = Phase::Start;
                    }
                    Next::Done(Err(cause)) => return self.fail(cause, None),
                },
            }
        }
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        match &mut self.phase {
            Phase::Sending(call) => call.take_attempts(),
            Phase::Checking { listing, .. } => listing.take_attempts(),
            Phase::Waiting { wait, .. } => wait.take_attempts(),
            Phase::Start | Phase::Over => Vec::new(),
        }
    }

    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        match &mut self.phase {
            Phase::Sending(call) => call.receive(outcome, now, wall, pacer),
            Phase::Checking { listing, .. } => listing.receive(outcome, now, wall, pacer),
            Phase::Waiting { wait, .. } => wait.receive(outcome, now, wall, pacer),
            Phase::Start | Phase::Over => panic!("Apply::receive without a request out"),
        }
    }
}

impl fmt::Debug for Apply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Apply")
            .field("steps", &self.plan.steps.len())
            .field("done", &self.outcomes.len())
            .finish_non_exhaustive()
    }
}

/// A plan applied: each step, with what became of it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Applied {
    steps: Vec<(String, StepOutcome)>,
}

impl Applied {
    /// Each step (`create_pipe pipe "orders"`), with what became of it.
    pub fn steps(&self) -> &[(String, StepOutcome)] {
        &self.steps
    }
}

impl fmt::Display for Applied {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let adopted = self.steps.iter().filter(|(_, outcome)| *outcome == StepOutcome::Adopted).count();
        write!(f, "applied {}", steps(self.steps.len()))?;
        if adopted > 0 {
            write!(f, " ({adopted} adopted: created by an earlier attempt whose answer was lost)")?;
        }
        Ok(())
    }
}

/// Why an apply stopped: the step that failed and why, with the steps done before it and those
/// not started. Its text shows no value the plan's desired state resolved from a reference.
pub struct ApplyError {
    done: Vec<(String, StepOutcome)>,
    failed: String,
    number: usize,
    cause: Cause,
    /// What the check after a lost create found: a `Box<str>`, not a `String`, so that the
    /// error stays small enough to return.
    checked: Option<Box<str>>,
    not_started: Vec<String>,
    /// The plan's resolved values, taken out of the text.
    resolved: Resolved,
}

impl ApplyError {
    /// The steps done, in order.
    pub fn done(&self) -> &[(String, StepOutcome)] {
        &self.done
    }

    /// The step that failed (`update_pipe pipe "orders"`).
    pub fn failed(&self) -> &str {
        &self.failed
    }

    /// Why it failed: a call's [`Error`] or a wait's
    /// [`WaitError`](pipe_api_proto::wait::WaitError).
    pub fn cause(&self) -> &(dyn std::error::Error + Send + Sync + 'static) {
        &*self.cause
    }

    /// The call's error, when the step's request failed.
    pub fn call_error(&self) -> Option<&Error> {
        self.cause.downcast_ref()
    }

    /// The steps not started.
    pub fn not_started(&self) -> &[String] {
        &self.not_started
    }
}

impl fmt::Display for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.resolved.write(f, |f| self.render(f))
    }
}

impl ApplyError {
    /// The text `Display` shows, before the redaction of resolved values.
    fn render(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "apply: step {} ({}) failed: {}", self.number, self.failed, self.cause)?;
        if let Some(checked) = &self.checked {
            write!(f, "; {checked}")?;
        }
        f.write_str("; done: ")?;
        write_steps(f, self.done.iter().map(|(step, _)| step.as_str()))?;
        f.write_str("; not started: ")?;
        write_steps(f, self.not_started.iter().map(String::as_str))
    }
}

/// The most steps an error names in each of its lists: the text stays bounded however long
/// the plan (the accessors have them all).
const STEPS_SHOWN: usize = 5;

/// `a, b, c`, at most [`STEPS_SHOWN`] of them and how many more, or `none`.
fn write_steps<'s>(f: &mut fmt::Formatter<'_>, steps: impl ExactSizeIterator<Item = &'s str>) -> fmt::Result {
    let count = steps.len();
    if count == 0 {
        return f.write_str("none");
    }
    for (index, step) in steps.take(STEPS_SHOWN).enumerate() {
        if index > 0 {
            f.write_str(", ")?;
        }
        f.write_str(step)?;
    }
    if count > STEPS_SHOWN {
        write!(f, " and {} more", count - STEPS_SHOWN)?;
    }
    Ok(())
}

/// Reads as the message (what `main() -> Result` prints), not a struct dump.
impl fmt::Debug for ApplyError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Display::fmt(self, f)
    }
}

impl std::error::Error for ApplyError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&*self.cause)
    }
}

/// A planned request as an endpoint: the table's row for everything but the path and body.
#[derive(Debug)]
struct Planned<A> {
    operation: &'static Operation,
    path: String,
    body: Option<Vec<u8>>,
    api: PhantomData<fn() -> A>,
}

impl<A> Planned<A> {
    fn new(operation: &'static Operation, path: String, body: Option<Vec<u8>>) -> Self {
        Planned { operation, path, body, api: PhantomData }
    }
}

impl<A: Api> Endpoint for Planned<A> {
    type Api = A;
    type Output = Value;

    /// Never read: [`metadata`](Endpoint::metadata) gives the planned request's row.
    const METADATA: Operation = Operation::new("planned", A::INTERFACE, Method::GET, "(planned)");

    fn metadata(&self) -> Operation {
        self.operation.clone()
    }

    fn path(&self) -> String {
        self.path.clone()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        Ok(self.body.clone())
    }
}

/// The call of a planned request, taking the plan's `resolved` values out of its error.
fn planned_call<'a, A: Api + 'a>(
    endpoint: Planned<A>,
    api: &A,
    retry: &RetryPolicy,
    seed: u64,
    now: Duration,
    resolved: &Resolved,
) -> Result<Sub<'a, Result<Value, Error>>, Error> {
    let call = Call::owned(endpoint, api, retry, seed, now)?.scrubbing(resolved.forms());
    Ok(Box::new(Mapped::new(call, |result: Result<Reply<Value>, Error>| result.map(|reply| reply.value))))
}

/// A machine whose output is made into another.
struct Mapped<M, F> {
    machine: M,
    map: Option<F>,
}

impl<M, F> Mapped<M, F> {
    fn new(machine: M, map: F) -> Self {
        Mapped { machine, map: Some(map) }
    }
}

impl<M: Machine, O, F: FnOnce(M::Output) -> O> Machine for Mapped<M, F> {
    type Output = O;

    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<O> {
        match self.machine.next(now, pacer) {
            Next::Send { request, timeout } => Next::Send { request, timeout },
            Next::Wait { until } => Next::Wait { until },
            Next::Done(output) => Next::Done((self.map.take().expect("a machine is done once"))(output)),
        }
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        self.machine.take_attempts()
    }

    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        self.machine.receive(outcome, now, wall, pacer);
    }
}
