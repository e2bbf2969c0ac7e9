//! [`Apply`]: a plan's steps in order, as a sans-IO [`Machine`] that the same driver loop as a
//! [`Call`] runs. Each request is a [`Call`] (pacing, retries, the rule that a create is never
//! re-sent), each wait a [`Wait`], each waking of an idle service a [`Wake`]; the apply's own
//! deadline ([`ApplyOptions::deadline`]) bounds them all.

use std::fmt;
use std::time::Duration;

use pipe_api_proto::attempts::AttemptRecord;
use pipe_api_proto::call::{Call, Machine, Next};
use pipe_api_proto::http::{Method, Response};
use pipe_api_proto::operations::{Interface, Operation};
use pipe_api_proto::pages::Pages;
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::time::OffsetDateTime;
use pipe_api_proto::wait::{
    IdleRecovery, Poll, Verdict, Wait, WaitPolicy, Wake, is_idle_service_error, pipe_stopped,
    reverse_private_endpoint_ready, service_running, service_stopped,
};
use pipe_api_proto::{
    Alerting, Api, BuildError, BuildErrorKind, Endpoint, Error, GetPipe, GetReversePrivateEndpoint, GetService,
    ListPipes, ListReversePrivateEndpoints, ListServices, MAX_ALERTS_LIMIT, Management, Raw, Reply, TransportError,
};
use pipe_api_types::{OrganizationId, Service, ServiceId};
use serde_json::Value;

use crate::outcome::Stopped;
use crate::outcome::{Applied, ApplyError, ApplyFailure, Effect, ResourceId, StepOutcome, WaitFailure};
use crate::planned::{Awaited, Plan, PlanStep, PlannedRequest};
use crate::read::{Part, ReadCurrent, ReadOptions, ReadServices, part};
use crate::resource::{Id, Kind, Resource};
use crate::shown::{Resolved, truncate};

/// A machine of a step, its output made what the apply needs.
type Sub<'a, T> = Box<dyn Machine<Output = T> + 'a>;

/// A step's wait, its output what the apply needs.
type StepWait<'a> = Sub<'a, Result<(), WaitFailure>>;

/// What [`Apply::next`](Machine::next) says: its `Done` is the plan applied, or why not.
type ApplyStep = Next<Result<Applied, ApplyError>>;

/// How an [`Apply`] runs: each wait's policy, each request's retry policy, the whole apply's
/// deadline, and whether an idle service is woken. Build it with its setters:
/// `ApplyOptions::default().deadline(Duration::from_secs(900))`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ApplyOptions {
    /// Each wait's policy (default [`WaitPolicy::default`]); its deadline is cut to what is left
    /// of the apply's.
    pub wait: WaitPolicy,
    /// Each request's retry policy; `None` (the default) leaves it to the driver:
    /// `pipe-api-ureq`'s `ServiceScope::apply_with` uses its client's, [`Apply::new`]
    /// [`RetryPolicy::default`].
    pub retry: Option<RetryPolicy>,
    /// The whole apply's deadline, from its start (default 1 hour). It is checked before each
    /// request, each call and wait is given what is left of it, and no request is out past it:
    /// the apply stops within it ([`ApplyFailure::Deadline`]).
    pub deadline: Duration,
    /// Whether a request that finds the service idle (`424 ... Current state: idle`) wakes it
    /// and is sent again, once, as the vendor's tools do (default on; see [`Wake`]). Waits wake
    /// it too, unless [`ApplyOptions::wait`] has its own [`IdleRecovery`].
    pub wake_idle: bool,
}

impl Default for ApplyOptions {
    fn default() -> Self {
        ApplyOptions { wait: WaitPolicy::default(), retry: None, deadline: Duration::from_secs(3600), wake_idle: true }
    }
}

impl ApplyOptions {
    /// Sets each wait's policy.
    #[must_use]
    pub fn wait(mut self, wait: WaitPolicy) -> Self {
        self.wait = wait;
        self
    }

    /// Sets each request's retry policy.
    #[must_use]
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = Some(retry);
        self
    }

    /// Sets the whole apply's deadline.
    #[must_use]
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// Sets whether an idle service is woken.
    #[must_use]
    pub fn wake_idle(mut self, wake: bool) -> Self {
        self.wake_idle = wake;
        self
    }
}

/// Applies a [`Plan`]: its steps in order, waiting where a step needs a state. It stops at the
/// first failure and says which steps were done, which one failed and why, and which were not
/// started ([`ApplyError`]); each step's outcome is typed ([`StepOutcome`]: its index, its
/// resource's id, what its request did). A create whose outcome is unknown (a gateway's
/// `502`-`504`, a connection lost after sending, an answer that does not read) is never sent
/// again: every resource of its kind is listed (alerts page by page, [`Pages`]), and one of its
/// name that appeared is adopted; otherwise the apply stops, saying whether the listing read
/// every one. A request that finds the service idle wakes it ([`Wake`]) and is sent again once.
/// The whole lasts at most [`ApplyOptions::deadline`].
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
    options: ApplyOptions,
    seed: u64,
    started: Duration,
    /// The service the apply is for, when the driver said ([`Apply::for_service`]); no service
    /// for an organization ([`Apply::for_organization`]).
    target: Option<(OrganizationId, Option<ServiceId>)>,
    /// Requests begun: the first may start whenever the deadline has not passed, a later one
    /// only with the least attempt time left ([`RetryPolicy::within`]).
    begun: u32,
    /// Set after waking the service: a second idle answer straight after ends the apply.
    just_woken: bool,
    /// The ids of the resources created (or adopted) so far.
    created: Vec<(Resource, String)>,
    /// What became of each step done.
    outcomes: Vec<StepOutcome>,
    /// The polls of the steps' waits, until the driver takes them.
    polls: Vec<Poll>,
    phase: Phase<'a>,
}

enum Phase<'a> {
    /// Nothing done yet: the plan's service is checked first.
    New,
    /// The service is being read, to check that what the plan touches is as it was planned.
    Reading(Box<ReadCurrent<'a>>),
    /// The next step starts.
    Start,
    /// A step's request is under way.
    Sending(Sub<'a, Result<Value, Error>>),
    /// A create's outcome is unknown: its kind is being listed.
    Checking {
        error: Error,
        listing: Sub<'a, Result<Listed, Error>>,
    },
    /// Waiting for the state the step needs; `effect` is what its request did. `cut` when the
    /// apply's deadline, not the wait's own, bounds the wait.
    Waiting {
        wait: StepWait<'a>,
        effect: Effect,
        cut: bool,
    },
    /// Waking the idle service; then `resume`.
    Waking {
        wake: Box<Wake<'a>>,
        resume: Resume,
    },
    Over,
}

/// What comes after waking the service: the step's request again, or the listing after a lost
/// create (whose error it keeps).
enum Resume {
    Send,
    Check(Error),
}

impl<'a> Apply<'a> {
    /// Applies `plan` on `management` and `alerting` (a step whose interface is not given
    /// fails, saying so) under `options`, starting at `now`; `seed` seeds the jitter.
    pub fn new(
        plan: &'a Plan,
        management: Option<&'a Management>,
        alerting: Option<&'a Alerting>,
        options: ApplyOptions,
        seed: u64,
        now: Duration,
    ) -> Self {
        Apply {
            plan,
            management,
            alerting,
            retry: options.retry.clone().unwrap_or_default(),
            options,
            seed,
            started: now,
            target: None,
            begun: 0,
            just_woken: false,
            created: Vec::new(),
            outcomes: Vec::new(),
            polls: Vec::new(),
            phase: Phase::New,
        }
    }

    /// Applies the plan only if it was made for service `service_id` of `organization_id`:
    /// otherwise the apply ends before sending anything ([`ApplyFailure::OtherService`]), since
    /// its paths name the service it was made for.
    #[must_use]
    pub fn for_service(mut self, organization_id: OrganizationId, service_id: ServiceId) -> Self {
        self.target = Some((organization_id, Some(service_id)));
        self
    }

    /// Applies the plan only if it was made for organization `organization_id`'s services
    /// ([`plan_organization`](crate::planner::plan_organization)): otherwise the apply ends
    /// before sending anything ([`ApplyFailure::OtherService`]).
    #[must_use]
    pub fn for_organization(mut self, organization_id: OrganizationId) -> Self {
        self.target = Some((organization_id, None));
        self
    }

    fn step(&self) -> Option<&'a PlanStep> {
        self.plan.steps.get(self.outcomes.len())
    }

    fn seed(&self, salt: u64) -> u64 {
        let index = self.outcomes.len() as u64;
        self.seed ^ (index << 8 | salt).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// When the apply's deadline comes.
    fn end(&self) -> Duration {
        self.started.saturating_add(self.options.deadline)
    }

    /// The retry policy of a request starting at `now`, within the apply's deadline; `None`
    /// when no request may start.
    fn policy(&mut self, now: Duration) -> Option<RetryPolicy> {
        let number = if self.begun == 0 { 1 } else { 2 };
        let policy = self.retry.within(self.started, self.options.deadline, number, now)?;
        self.begun += 1;
        Some(policy)
    }

    /// The failure of an apply whose deadline left no time at `now`.
    fn late(&self, now: Duration) -> ApplyFailure {
        ApplyFailure::Deadline { deadline: self.options.deadline, elapsed: now.saturating_sub(self.started) }
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

    /// The id of the resource `step` acts on: the one its path names after the service's (the
    /// service's, for a service), or, for a create, the one it created.
    fn own_id(&self, step: &PlanStep) -> Option<String> {
        let service = step.resource.kind == Kind::Service;
        let own = step.request.ids.iter().rev().find(|(name, _)| match *name {
            "organization_id" => false,
            "service_id" => service,
            _ => true,
        });
        match own {
            Some((_, id)) => self.resolve(id),
            None => self.created_id(&step.resource),
        }
    }

    /// The service `step`'s path names (the plan's, for a plan of one service), once known.
    fn service_of(&self, step: &PlanStep) -> Option<ServiceId> {
        let (_, id) = step.request.ids.iter().find(|(name, _)| *name == "service_id")?;
        self.resolve(id)?.parse().ok()
    }

    /// Step number `index`, as it stands now, with `effect`.
    fn outcome(&self, index: usize, effect: Option<Effect>) -> StepOutcome {
        let step = &self.plan.steps[index];
        let id = self.own_id(step).and_then(|id| ResourceId::parse(step.resource.kind, &id));
        let path = step.request.resolved_path_with(|id| self.resolve(id));
        StepOutcome::new(index, step, id, path, effect)
    }

    /// The call of `request`, its ids and placeholders filled in.
    fn call(
        &mut self,
        request: &PlannedRequest,
        salt: u64,
        now: Duration,
    ) -> Result<Sub<'a, Result<Value, Error>>, ApplyFailure> {
        let operation = request.operation;
        let unknown_id =
            || Error::Build(BuildError::new(operation.name, BuildErrorKind::InvalidPath("names an id no step made")));
        let path = request.path(|id| self.resolve(id)).ok_or_else(unknown_id).map_err(ApplyFailure::Call)?;
        let body = request.body(|text| {
            let resource = self.created.iter().find(|(resource, _)| crate::resource::placeholder(resource) == text);
            resource.map(|(_, id)| id.clone())
        });
        let retry = self.policy(now).ok_or_else(|| self.late(now))?;
        let seed = self.seed(salt);
        let resolved = &self.plan.resolved;
        let call = match (operation.interface, self.management, self.alerting) {
            (Interface::Management, Some(api), _) => planned(operation, path, body.as_ref())
                .and_then(|endpoint| planned_call(endpoint, api, &retry, seed, now, resolved)),
            (Interface::Alerting, _, Some(api)) => planned(operation, path, body.as_ref())
                .and_then(|endpoint| planned_call(endpoint, api, &retry, seed, now, resolved)),
            (interface, _, _) => {
                let name = if interface == Interface::Management { "management" } else { "alerting" };
                Err(Error::Build(BuildError::new(operation.name, BuildErrorKind::NotConfigured(name))))
            }
        };
        call.map_err(ApplyFailure::Call)
    }

    /// The step's request went through with `effect` (`id` is the id its answer names, if
    /// any): the step is done, or its wait starts; or, when the wait cannot start, the apply's
    /// last step.
    fn succeeded(
        &mut self,
        step: &'a PlanStep,
        id: Option<String>,
        effect: Effect,
        now: Duration,
    ) -> Option<ApplyStep> {
        self.just_woken = false;
        if let (Effect::Created | Effect::Adopted, Some(id)) = (effect, id) {
            self.created.push((step.resource.clone(), id));
        }
        let Some(awaited) = step.then else {
            self.outcomes.push(self.outcome(self.outcomes.len(), Some(effect)));
            self.phase = Phase::Start;
            return None;
        };
        match self.wait_for(step, awaited, now) {
            Ok((wait, cut)) => {
                self.phase = Phase::Waiting { wait, effect, cut };
                None
            }
            Err(failure) => Some(self.fail(*failure, None, Some(effect))),
        }
    }

    /// The wait for `awaited` after `step`'s request, starting at `now`, and whether the
    /// apply's deadline (not the wait's own) bounds it.
    fn wait_for(
        &mut self,
        step: &'a PlanStep,
        awaited: Awaited,
        now: Duration,
    ) -> Result<(StepWait<'a>, bool), Box<ApplyFailure>> {
        let fail = |failure: ApplyFailure| Box::new(failure);
        let named = |why: String| fail(ApplyFailure::Answer(why.into_boxed_str()));
        let name = step.request.operation.name;
        let id = self.own_id(step).ok_or_else(|| named(format!("{name}: the answer names no id to wait on")))?;
        let id = ResourceId::parse(step.resource.kind, &id)
            .ok_or_else(|| named(format!("{name}: the server's id {:?} is not a UUID", truncate(&id, 64))))?;
        let management = self.management.ok_or_else(|| {
            fail(ApplyFailure::Call(Error::Build(BuildError::new(name, BuildErrorKind::NotConfigured("management")))))
        })?;
        let organization_id = self.plan.organization_id;
        let service_id = match id {
            ResourceId::Service(id) => id,
            _ => self.service_of(step).ok_or_else(|| named(format!("{name}: the service of the step is not known")))?,
        };
        let retry = self.policy(now).ok_or_else(|| fail(self.late(now)))?;
        let mut wait = self.options.wait.clone();
        if self.options.wake_idle && wait.idle_recovery.is_none() {
            wait = wait.with_idle_recovery(organization_id, service_id);
        }
        let left = self.end().saturating_sub(now);
        let cut = left < wait.deadline;
        wait.deadline = wait.deadline.min(left);
        let seed = self.seed(2);
        let machine: StepWait<'a> = match (awaited, id) {
            (Awaited::ReversePrivateEndpointReady, ResourceId::ReversePrivateEndpoint(id)) => {
                let get = GetReversePrivateEndpoint::new(organization_id, service_id, id);
                let wait = Wait::owned(get, management, reverse_private_endpoint_ready, wait, retry, seed, now);
                Box::new(Mapped::new(wait, |result: Result<_, _>| {
                    result.map(drop).map_err(|error| WaitFailure::ReversePrivateEndpoint(Box::new(error)))
                }))
            }
            (Awaited::PipeStopped, ResourceId::Pipe(id)) => {
                let get = GetPipe::new(organization_id, service_id, id);
                let wait = Wait::owned(get, management, pipe_stopped, wait, retry, seed, now);
                Box::new(Mapped::new(wait, |result: Result<_, _>| {
                    result.map(drop).map_err(|error| WaitFailure::Pipe(Box::new(error)))
                }))
            }
            (Awaited::ServiceRunning | Awaited::ServiceStopped | Awaited::ServiceScaled, ResourceId::Service(id)) => {
                let get = GetService::new(organization_id, id);
                let condition: Box<dyn FnMut(&Service) -> Verdict> = match awaited {
                    Awaited::ServiceRunning => Box::new(service_running),
                    Awaited::ServiceStopped => Box::new(service_stopped),
                    _ => {
                        // Reported: every member the request set is what the service shows.
                        let asked = step.request.body.clone().unwrap_or_default();
                        Box::new(move |service: &Service| {
                            let shown = crate::json::to_json(service);
                            if crate::planner::contains(&asked, &shown) { Verdict::Done } else { Verdict::Continue }
                        })
                    }
                };
                let wait = Wait::owned(get, management, condition, wait, retry, seed, now);
                Box::new(Mapped::new(wait, |result: Result<_, _>| {
                    result.map(drop).map_err(|error| WaitFailure::Service(Box::new(error)))
                }))
            }
            (awaited, _) => return Err(named(format!("{name}: a {} cannot {awaited}", step.resource.kind))),
        };
        Ok((machine, cut))
    }

    /// Lists every resource of the kind of the create that failed with `error`, unless its
    /// outcome is known: alerts page by page, as the planner reads them. `Err` is the error the
    /// step fails with, and what was found out, if anything.
    fn check(&mut self, step: &'a PlanStep, error: Error, now: Duration) -> Result<(), (Error, Option<String>)> {
        if !step.creates() || !may_have_created(&error) {
            return Err((error, None));
        }
        let Some(retry) = self.policy(now) else {
            let late = "whether it was created is unknown: the apply's deadline left no time to list";
            return Err((error, Some(format!("{late} {}s", step.resource.kind))));
        };
        let (kind, name) = (step.resource.kind, step.resource.name.clone());
        let organization_id = self.plan.organization_id;
        let service = self.service_of(step);
        let listing: Sub<'a, Result<Listed, Error>> = match (kind, self.alerting) {
            (Kind::Alert, Some(api)) => {
                let pages = Pages::new(api, MAX_ALERTS_LIMIT, retry, self.seed(3));
                Box::new(AlertSearch { pages, name, found: Vec::new() })
            }
            (Kind::Alert, None) => return Err((error, None)),
            // Typed, as the planner reads them: a JSON value of a long list would cost many
            // times its body, and the decode budget refuses that.
            (Kind::Service, _) => {
                let list = ListServices::new(organization_id);
                let Some(search) = self.search(list, name, &retry, now) else { return Err((error, None)) };
                search
            }
            (Kind::Pipe, _) => {
                let Some(service) = service else { return Err((error, None)) };
                let list = ListPipes::new(organization_id, service);
                let Some(search) = self.search(list, name, &retry, now) else { return Err((error, None)) };
                search
            }
            (Kind::ReversePrivateEndpoint, _) => {
                let Some(service) = service else { return Err((error, None)) };
                let list = ListReversePrivateEndpoints::new(organization_id, service);
                let Some(search) = self.search(list, name, &retry, now) else { return Err((error, None)) };
                search
            }
        };
        self.phase = Phase::Checking { error, listing };
        Ok(())
    }

    /// The call of a whole list of the service, and the id of its element named `name`;
    /// `None` when it cannot be made.
    fn search<E, T>(
        &self,
        list: E,
        name: String,
        retry: &RetryPolicy,
        now: Duration,
    ) -> Option<Sub<'a, Result<Listed, Error>>>
    where
        E: Endpoint<Api = Management, Output = Vec<T>> + 'a,
        T: Named + 'a,
    {
        let call = Call::owned(list, self.management?, retry, self.seed(3), now).ok()?;
        let call = call.scrubbing(self.plan.resolved.forms());
        Some(Box::new(Mapped::new(call, move |listed: Result<Reply<Vec<T>>, Error>| {
            let named = |element: &T| element.name() == Some(name.as_str());
            listed.map(|reply| Listed::of(reply.value.into_iter().filter(named).map(Named::id).collect(), None))
        })))
    }

    /// Whether `error` is `step`'s request's answer on an idle service that the apply wakes
    /// (once in a row).
    fn wakes_for(&self, step: &PlanStep, error: &Error) -> bool {
        self.options.wake_idle
            && !self.just_woken
            && self.management.is_some()
            && self.service_of(step).is_some()
            && is_idle_service_error(error)
    }

    /// Starts waking `step`'s service, then `resume`.
    fn wake(&mut self, step: &PlanStep, resume: Resume, now: Duration) {
        let management = self.management.expect("waking only with the management interface");
        let service = self.service_of(step).expect("waking only a known service");
        let recovery = IdleRecovery::new(self.plan.organization_id, service);
        let whole = (self.started, self.options.deadline);
        let wake = Wake::new(recovery, management, self.retry.clone(), whole, self.seed(4), now);
        self.just_woken = true;
        self.phase = Phase::Waking { wake: Box::new(wake), resume };
    }

    /// Ends the apply with the step under way failed for `cause`, its request having done
    /// `effect`, if anything.
    fn fail(&mut self, cause: ApplyFailure, checked: Option<String>, effect: Option<Effect>) -> ApplyStep {
        self.phase = Phase::Over;
        let done = self.outcomes.len();
        let refused =
            matches!(cause, ApplyFailure::OtherService { .. } | ApplyFailure::Stale(_) | ApplyFailure::Read(_));
        let failed = (!refused && done < self.plan.steps.len()).then(|| self.outcome(done, effect));
        let first = if failed.is_some() { done + 1 } else { done };
        Next::Done(Err(ApplyError::new(Stopped {
            done: std::mem::take(&mut self.outcomes),
            failed,
            cause,
            checked,
            not_started: (first..self.plan.steps.len()).map(|index| self.outcome(index, None)).collect(),
            resolved: self.plan.resolved.clone(),
        })))
    }

    /// The phase after the plan's service is checked: reading the service, to check the
    /// plan against it as a saved plan is ([`Plan::changes_since`]), when there is anything
    /// to apply. Only the interfaces given are read: without the management interface, only
    /// the alerts (its steps could not be sent anyway).
    fn reading(&self, now: Duration) -> Phase<'a> {
        if self.plan.steps.is_empty() {
            return Phase::Start;
        }
        let options = ReadOptions {
            alerts: self.plan.touches_alerts(),
            retry: Some(self.retry.clone()),
            deadline: self.end().saturating_sub(now),
            wake_idle: self.options.wake_idle,
        };
        let (organization, service) = (self.plan.organization_id, self.plan.service_id);
        let read = match (service, self.management) {
            (None, Some(management)) => {
                let services = ReadServices::Named(self.plan.services.clone());
                ReadCurrent::of_organization(
                    organization,
                    services,
                    management,
                    self.alerting,
                    options,
                    self.seed(5),
                    now,
                )
            }
            _ => ReadCurrent::of_interfaces(
                organization,
                service,
                self.management,
                self.alerting,
                options,
                self.seed(5),
                now,
            ),
        };
        Phase::Reading(Box::new(read))
    }

    /// The refusal of a plan made for another service than the driver's.
    fn refusal(&self) -> Option<ApplyFailure> {
        let (organization, service) = self.target?;
        let planned = (self.plan.organization_id, self.plan.service_id);
        (planned != (organization, service)).then_some(ApplyFailure::OtherService {
            planned_organization: planned.0,
            planned_service: planned.1,
            organization,
            service,
        })
    }

    /// What listing after a lost create found: the resource adopted, or the step failed.
    fn listed(
        &mut self,
        step: &'a PlanStep,
        error: Error,
        listed: Result<Listed, Error>,
        now: Duration,
    ) -> Option<ApplyStep> {
        let checked = match listed {
            Ok(Listed::Found(id)) => {
                return self.succeeded(step, Some(id), Effect::Adopted, now);
            }
            Ok(Listed::Absent) => {
                format!("listed afterwards: no {} was created; applying again creates it", step.resource)
            }
            Ok(Listed::Incomplete(why)) => format!(
                "whether it was created is unknown: listing afterwards did not read every {} ({why}); look for {} \
                 before applying again",
                step.resource.kind, step.resource
            ),
            Ok(Listed::Conflict(ids)) => format!(
                "whether it was created is unknown: listing afterwards found {} of the name, a conflict no apply \
                 resolves (ids {}); delete the one not wanted, then plan again",
                ids.len(),
                ids.iter().take(4).map(|id| truncate(id, 64).into_owned()).collect::<Vec<_>>().join(", ")
            ),
            Err(listing) if self.wakes_for(step, &listing) => {
                self.wake(step, Resume::Check(error), now);
                return None;
            }
            Err(listing) => format!("whether it was created is unknown: listing afterwards failed: {listing}"),
        };
        Some(self.fail(ApplyFailure::Call(error), Some(checked), None))
    }

    /// A step's request failed with `error`: the service is woken, or the create's outcome
    /// checked, or the step fails.
    fn failed_request(&mut self, step: &'a PlanStep, error: Error, now: Duration) -> Option<ApplyStep> {
        if self.wakes_for(step, &error) {
            self.wake(step, Resume::Send, now);
            return None;
        }
        self.check(step, error, now).err().map(|(error, checked)| self.fail(ApplyFailure::Call(error), checked, None))
    }
}

/// What a step's request did, by its row: a create, a delete, or a change.
fn effect_of(step: &PlanStep) -> Effect {
    match step.request.operation.method {
        _ if step.creates() => Effect::Created,
        Method::DELETE => Effect::Deleted,
        _ => Effect::Changed,
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
    /// Several resources of the name (their ids): which one the lost create made is unknown.
    Conflict(Vec<String>),
}

impl Listed {
    /// What a listing found: the ids of the resources of the name, and, when it ended before
    /// reading every one, why.
    fn of(mut ids: Vec<String>, incomplete: Option<String>) -> Listed {
        match (ids.len(), incomplete) {
            (0, None) => Listed::Absent,
            (0, Some(why)) => Listed::Incomplete(why),
            (1, _) => Listed::Found(ids.remove(0)),
            _ => Listed::Conflict(ids),
        }
    }
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

impl Named for Service {
    /// None for one being deleted: a create is never taken for the service it replaces.
    fn name(&self) -> Option<&str> {
        if crate::current::is_service_deleted(self) { None } else { self.name.as_deref() }
    }

    fn id(self) -> String {
        self.id.to_string()
    }
}

impl Named for pipe_api_types::ReversePrivateEndpoint {
    /// None for one being deleted: a replacement's create is never taken for the endpoint it
    /// replaces.
    fn name(&self) -> Option<&str> {
        if crate::current::is_being_deleted(self) { None } else { self.description.as_deref() }
    }

    fn id(self) -> String {
        self.id.to_string()
    }
}

/// The most ids of one name a listing after a lost create keeps.
const FOUND_KEPT: usize = 8;

/// Every alert, page by page ([`Pages`], as the planner reads them), keeping the ids of those
/// named `name` (not the pages).
struct AlertSearch<'a> {
    pages: Pages<'a>,
    name: String,
    found: Vec<String>,
}

impl Machine for AlertSearch<'_> {
    type Output = Result<Listed, Error>;

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        loop {
            match self.pages.next(now, pacer.as_deref_mut()) {
                Next::Send { request, timeout } => return Next::Send { request, timeout },
                Next::Wait { until } => return Next::Wait { until },
                Next::Done(Some(Ok(page))) => {
                    let named =
                        page.alerts.into_iter().filter(|alert| alert.name.as_deref() == Some(self.name.as_str()));
                    // Two say it is a conflict; a few are kept to name them.
                    let room = FOUND_KEPT.saturating_sub(self.found.len());
                    self.found.extend(named.take(room).map(|alert| alert.id.to_string()));
                }
                Next::Done(Some(Err(error))) => return Next::Done(Err(error)),
                Next::Done(None) => {
                    let incomplete = match self.pages.end() {
                        Some(end) if end.read_every_alert() => None,
                        Some(end) => Some(end.to_string()),
                        None => Some("the listing did not say why it ended".to_owned()),
                    };
                    return Next::Done(Ok(Listed::of(std::mem::take(&mut self.found), incomplete)));
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

impl Machine for Apply<'_> {
    type Output = Result<Applied, ApplyError>;

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> ApplyStep {
        let end = self.end();
        loop {
            if let Phase::New = self.phase {
                if let Some(refusal) = self.refusal() {
                    return self.fail(refusal, None, None);
                }
                self.phase = self.reading(now);
            }
            if let Phase::Reading(read) = &mut self.phase {
                match part(read.next(now, pacer.as_deref_mut()), now, end) {
                    Part::Pass(next) => return next,
                    Part::Late => return self.fail(self.late(now), None, None),
                    Part::Done(Err(error)) => return self.fail(ApplyFailure::Read(error), None, None),
                    Part::Done(Ok(current)) => {
                        let changes = self.plan.changes_since(&current, self.management.is_some());
                        if !changes.is_empty() {
                            return self.fail(ApplyFailure::Stale(changes), None, None);
                        }
                        self.phase = Phase::Start;
                    }
                }
            }
            let Some(step) = self.step() else {
                self.phase = Phase::Over;
                return Next::Done(Ok(Applied { steps: std::mem::take(&mut self.outcomes) }));
            };
            match &mut self.phase {
                Phase::Over => panic!("Apply::next after Next::Done: the apply is over"),
                Phase::New | Phase::Reading(_) => unreachable!("checked above"),
                Phase::Start => match self.call(&step.request, 1, now) {
                    Ok(call) => self.phase = Phase::Sending(call),
                    Err(failure) => return self.fail(failure, None, None),
                },
                Phase::Sending(call) => match part(call.next(now, pacer.as_deref_mut()), now, end) {
                    Part::Pass(next) => return next,
                    Part::Late => return self.fail(self.late(now), None, None),
                    Part::Done(Ok(value)) => {
                        // A created service comes with its password: `{service, password}`.
                        let id = value.get("id").or_else(|| value.pointer("/service/id"));
                        let id = id.and_then(Value::as_str).map(str::to_owned);
                        drop(value);
                        if let Some(next) = self.succeeded(step, id, effect_of(step), now) {
                            return next;
                        }
                    }
                    Part::Done(Err(error)) => {
                        if let Some(next) = self.failed_request(step, error, now) {
                            return next;
                        }
                    }
                },
                Phase::Checking { listing, .. } => {
                    let next = part(listing.next(now, pacer.as_deref_mut()), now, end);
                    let Phase::Checking { error, listing } = std::mem::replace(&mut self.phase, Phase::Start) else {
                        unreachable!("in the checking phase")
                    };
                    match next {
                        Part::Pass(next) => {
                            self.phase = Phase::Checking { error, listing };
                            return next;
                        }
                        Part::Late => {
                            let late = "whether it was created is unknown: the apply's deadline came before \
                                        listing afterwards ended";
                            return self.fail(ApplyFailure::Call(error), Some(late.to_owned()), None);
                        }
                        Part::Done(listed) => {
                            if let Some(next) = self.listed(step, error, listed, now) {
                                return next;
                            }
                        }
                    }
                }
                Phase::Waiting { wait, effect, cut } => {
                    let (effect, cut) = (*effect, *cut);
                    let next = wait.next(now, pacer.as_deref_mut());
                    // Kept here: the wait may be over and gone before the driver asks.
                    self.polls.extend(wait.take_polls());
                    match part(next, now, end) {
                        Part::Pass(next) => return next,
                        Part::Late => return self.fail(self.late(now), None, Some(effect)),
                        Part::Done(Ok(())) => {
                            self.outcomes.push(self.outcome(self.outcomes.len(), Some(effect)));
                            self.phase = Phase::Start;
                        }
                        // The wait ran out of the apply's time, not its own: the apply's deadline.
                        Part::Done(Err(failure)) if cut && failure.is_timeout() => {
                            return self.fail(self.late(now), None, Some(effect));
                        }
                        Part::Done(Err(failure)) => return self.fail(ApplyFailure::Wait(failure), None, Some(effect)),
                    }
                }
                Phase::Waking { wake, .. } => {
                    let next = part(wake.next(now, pacer.as_deref_mut()), now, end);
                    let Phase::Waking { wake, resume } = std::mem::replace(&mut self.phase, Phase::Start) else {
                        unreachable!("in the waking phase")
                    };
                    match (next, resume) {
                        (Part::Pass(next), resume) => {
                            self.phase = Phase::Waking { wake, resume };
                            return next;
                        }
                        (Part::Late, _) => return self.fail(self.late(now), None, None),
                        // Awake: the step's request again, from its start.
                        (Part::Done(Ok(())), Resume::Send) => {}
                        (Part::Done(Ok(())), Resume::Check(error)) => {
                            if let Err((error, checked)) = self.check(step, error, now) {
                                return self.fail(ApplyFailure::Call(error), checked, None);
                            }
                        }
                        (Part::Done(Err(woken)), Resume::Send) => {
                            return self.fail(ApplyFailure::Wake(woken), None, None);
                        }
                        (Part::Done(Err(woken)), Resume::Check(error)) => {
                            let checked = format!(
                                "whether it was created is unknown: listing afterwards found the \
                                                   service idle, and {woken}"
                            );
                            return self.fail(ApplyFailure::Call(error), Some(checked), None);
                        }
                    }
                }
            }
        }
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        match &mut self.phase {
            Phase::Reading(read) => read.take_attempts(),
            Phase::Sending(call) => call.take_attempts(),
            Phase::Checking { listing, .. } => listing.take_attempts(),
            Phase::Waiting { wait, .. } => wait.take_attempts(),
            Phase::Waking { wake, .. } => wake.take_attempts(),
            Phase::New | Phase::Start | Phase::Over => Vec::new(),
        }
    }

    fn take_polls(&mut self) -> Vec<Poll> {
        std::mem::take(&mut self.polls)
    }

    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        match &mut self.phase {
            Phase::Reading(read) => read.receive(outcome, now, wall, pacer),
            Phase::Sending(call) => call.receive(outcome, now, wall, pacer),
            Phase::Checking { listing, .. } => listing.receive(outcome, now, wall, pacer),
            Phase::Waiting { wait, .. } => wait.receive(outcome, now, wall, pacer),
            Phase::Waking { wake, .. } => wake.receive(outcome, now, wall, pacer),
            Phase::New | Phase::Start | Phase::Over => panic!("Apply::receive without a request out"),
        }
    }
}

impl fmt::Debug for Apply<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("Apply")
            .field("steps", &self.plan.steps.len())
            .field("done", &self.outcomes.len())
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}

/// A planned request, sent as the escape hatch sends a row's request: its result a JSON value,
/// as a saved plan keeps its requests.
fn planned<A: Api>(operation: &'static Operation, path: String, body: Option<&Value>) -> Result<Raw<A>, Error> {
    let endpoint = Raw::for_operation(operation, path)?;
    Ok(match body {
        Some(body) => endpoint.json(body)?,
        None => endpoint,
    })
}

/// The call of a planned request, taking the plan's `resolved` values out of its error.
fn planned_call<'a, A: Api + 'a>(
    endpoint: Raw<A>,
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

    fn take_polls(&mut self) -> Vec<Poll> {
        self.machine.take_polls()
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
