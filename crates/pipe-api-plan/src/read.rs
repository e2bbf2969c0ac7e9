//! [`ReadCurrent`]: what a service has ([`Current`]), read as a sans-IO [`Machine`] that the
//! same driver loop as a [`Call`] runs: its reverse private endpoints, its pipes and, when
//! asked, every alert page by page ([`Pages`]); or what an organization has: its services,
//! then what each service a desired state names has ([`ReadCurrent::of_organization`]). Plan, export, apply and a saved plan's apply
//! all read through it, so each has a deadline of its own and none holds more of a listing
//! than one answer may be.

use std::time::Duration;

use pipe_api_proto::attempts::AttemptRecord;
use pipe_api_proto::call::{Call, Machine, Next, NotSent};
use pipe_api_proto::http::Response;
use pipe_api_proto::pages::Pages;
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::time::OffsetDateTime;
use pipe_api_proto::wait::{IdleRecovery, Wake, WakeError, is_idle_service_error};
use pipe_api_proto::{
    Alerting, BuildError, BuildErrorKind, Error, ListPipes, ListReversePrivateEndpoints, ListServices,
    MAX_ALERTS_LIMIT, Management, Reply, TransportError,
};
use pipe_api_types::{Alert, OrganizationId, Pipe, ReversePrivateEndpoint, Service, ServiceId, ServiceState};

use crate::current::{Current, CurrentService};

/// Which services of an organization a [`ReadCurrent::of_organization`] reads what they have
/// of (each that runs or idles: a stopped or provisioning service's pipes cannot be read).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum ReadServices {
    /// Those of these names: the services a desired state declares.
    Named(Vec<String>),
    /// The one of this id: a service to export.
    Only(ServiceId),
}

impl ReadServices {
    /// Whether what `service` has is read: it is selected, and runs or idles.
    fn reads(&self, service: &Service) -> bool {
        let selected = match self {
            ReadServices::Named(names) => service.name.as_deref().is_some_and(|name| names.iter().any(|n| n == name)),
            ReadServices::Only(id) => service.id == *id,
        };
        selected && matches!(service.state, None | Some(ServiceState::Running | ServiceState::Idle))
    }
}

/// The most bytes of alert pages a reading keeps: the most one answer may be (the limit
/// `pipe-api-ureq` reads a body to). A listing that goes on past it is not read whole, and a
/// plan then neither creates, changes nor prunes an alert ([`Current::alerts`] is `None`).
pub const MAX_ALERT_LISTING_BYTES: u64 = 16 * 1024 * 1024;

/// How a [`ReadCurrent`] runs: whether it reads the alerts, each request's retry policy, the
/// whole reading's deadline, and whether an idle service is woken. Build it with its setters:
/// `ReadOptions::default().alerts(true)`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ReadOptions {
    /// Whether every alert is read too (default no).
    pub alerts: bool,
    /// Each request's retry policy; `None` (the default) leaves it to the driver
    /// (`pipe-api-ureq` uses its client's, [`ReadCurrent::new`] [`RetryPolicy::default`]).
    pub retry: Option<RetryPolicy>,
    /// The whole reading's deadline, from its start (default 15 minutes: waking an idle
    /// service may take 10). No request is out past it: the reading ends within it with
    /// [`Error::NotSent`].
    pub deadline: Duration,
    /// Whether a listing that finds the service idle wakes it and lists again, once (default
    /// on; see [`Wake`]).
    pub wake_idle: bool,
}

impl Default for ReadOptions {
    fn default() -> Self {
        ReadOptions { alerts: false, retry: None, deadline: Duration::from_secs(15 * 60), wake_idle: true }
    }
}

impl ReadOptions {
    /// Sets whether every alert is read.
    #[must_use]
    pub fn alerts(mut self, alerts: bool) -> Self {
        self.alerts = alerts;
        self
    }

    /// Sets each request's retry policy.
    #[must_use]
    pub fn retry(mut self, retry: RetryPolicy) -> Self {
        self.retry = Some(retry);
        self
    }

    /// Sets the whole reading's deadline.
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

/// Reads what a service has: its reverse private endpoints, its pipes and, when asked, every
/// alert page by page. Its `Done` is the [`Current`] to plan,
/// export or confirm with, or the first error.
///
/// A listing that finds the service idle (`424 ... Current state: idle`) wakes it ([`Wake`])
/// and lists again, once; a service that cannot be woken (stopped, or out of time) ends the
/// reading with the idle answer itself. The alerts are `None` when their listing ended before
/// reading every one ([`End::read_every_alert`](pipe_api_proto::pages::End::read_every_alert)),
/// or went past [`MAX_ALERT_LISTING_BYTES`].
///
/// ```
/// use pipe_api_plan::{ReadCurrent, ReadOptions};
/// use pipe_api_proto::call::{Machine, Next};
/// use pipe_api_proto::{BaseUrl, Management, ManagementCredentials};
///
/// let api = Management::new(BaseUrl::parse("https://api.example.com")?, ManagementCredentials::new("id", "secret")?);
/// let org = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?;
/// let service = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?;
/// let now = std::time::Duration::ZERO;
/// let mut read = ReadCurrent::new(org, service, &api, None, ReadOptions::default(), 7, now);
/// let Next::Send { request, .. } = read.next(now, None) else { panic!("it lists first") };
/// assert!(request.uri().path().ends_with("/pipesReversePrivateEndpoints"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
pub struct ReadCurrent<'a> {
    organization_id: OrganizationId,
    /// The service whose resources are read (in an organization's reading, the one under way).
    service_id: Option<ServiceId>,
    /// In an organization's reading, the services whose resources are read.
    selection: Option<ReadServices>,
    /// In an organization's reading, its services as listed, what each has filled in once read.
    services: Vec<CurrentService>,
    /// The index in `services` of the next service to read the resources of.
    next_service: usize,
    /// Always given but to an apply of alerts alone ([`ReadCurrent::of_interfaces`]).
    management: Option<&'a Management>,
    alerting: Option<&'a Alerting>,
    retry: RetryPolicy,
    options: ReadOptions,
    seed: u64,
    started: Duration,
    /// Requests begun: the first may start whenever the deadline has not passed, a later one
    /// only with the least attempt time left ([`RetryPolicy::within`]).
    begun: u32,
    /// Set after waking the service: a second idle answer straight after ends the reading.
    just_woken: bool,
    endpoints: Vec<ReversePrivateEndpoint>,
    pipes: Vec<Pipe>,
    alerts: Vec<Alert>,
    phase: Phase<'a>,
}

enum Phase<'a> {
    /// The next listing starts.
    Start(Listing),
    Services(Box<Call<'a, ListServices>>),
    Endpoints(Box<Call<'a, ListReversePrivateEndpoints>>),
    Pipes(Box<Call<'a, ListPipes>>),
    Alerts(Box<Pages<'a>>),
    /// Waking the idle service (whose answer, `idle`, ends the reading if it cannot be woken),
    /// then the listing again.
    Waking {
        wake: Box<Wake<'a>>,
        idle: Error,
        then: Listing,
    },
    Over,
}

/// The listings, in the order they are read.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Listing {
    Services,
    Endpoints,
    Pipes,
    Alerts,
}

impl Listing {
    fn operation(self) -> &'static str {
        match self {
            Listing::Services => "list_services",
            Listing::Endpoints => "list_reverse_private_endpoints",
            Listing::Pipes => "list_pipes",
            Listing::Alerts => "list_alerts",
        }
    }
}

/// What a reading ends with.
type ReadOutput = Result<Current, Error>;

/// What a reading's [`Machine::next`] says.
type ReadStep = Next<ReadOutput>;

impl<'a> ReadCurrent<'a> {
    /// Reads service `service_id` of `organization_id` on `management` (and the alerts on
    /// `alerting`, when `options` asks for them) under `options`, starting at `now`; `seed`
    /// seeds the jitter.
    pub fn new(
        organization_id: OrganizationId,
        service_id: ServiceId,
        management: &'a Management,
        alerting: Option<&'a Alerting>,
        options: ReadOptions,
        seed: u64,
        now: Duration,
    ) -> Self {
        Self::of_interfaces(organization_id, Some(service_id), Some(management), alerting, options, seed, now)
    }

    /// Reads what organization `organization_id` has on `management`: its services (every one,
    /// for a plan deletes those a desired state does not name when pruning), then the reverse
    /// private endpoints and pipes of each service `services` selects that runs or idles (an
    /// idle one is woken, as [`ReadCurrent::new`] wakes it), and the alerts on `alerting` when
    /// `options` asks for them. Its [`Current`] has [`Current::services`].
    pub fn of_organization(
        organization_id: OrganizationId,
        services: ReadServices,
        management: &'a Management,
        alerting: Option<&'a Alerting>,
        options: ReadOptions,
        seed: u64,
        now: Duration,
    ) -> Self {
        let mut read = Self::of_interfaces(organization_id, None, Some(management), alerting, options, seed, now);
        read.selection = Some(services);
        read.phase = Phase::Start(Listing::Services);
        read
    }

    /// As [`ReadCurrent::new`], reading the service's endpoints and pipes only when
    /// `management` is given (an apply of alerts alone may have only the alerting interface).
    pub(crate) fn of_interfaces(
        organization_id: OrganizationId,
        service_id: Option<ServiceId>,
        management: Option<&'a Management>,
        alerting: Option<&'a Alerting>,
        options: ReadOptions,
        seed: u64,
        now: Duration,
    ) -> Self {
        let first = if management.is_some() { Listing::Endpoints } else { Listing::Alerts };
        ReadCurrent {
            organization_id,
            service_id,
            selection: None,
            services: Vec::new(),
            next_service: 0,
            management,
            alerting,
            retry: options.retry.clone().unwrap_or_default(),
            options,
            seed,
            started: now,
            begun: 0,
            just_woken: false,
            endpoints: Vec::new(),
            pipes: Vec::new(),
            alerts: Vec::new(),
            phase: Phase::Start(first),
        }
    }

    /// When the reading's deadline comes.
    fn end(&self) -> Duration {
        self.started.saturating_add(self.options.deadline)
    }

    /// The error of `listing` when the deadline left no time for its request at `now`.
    fn late(&self, listing: Listing, now: Duration) -> Error {
        Error::NotSent(NotSent::new(listing.operation(), now.saturating_sub(self.started), self.options.deadline))
    }

    /// The retry policy of a request starting at `now`, within the reading's deadline.
    fn policy(&mut self, listing: Listing, now: Duration) -> Result<RetryPolicy, Error> {
        let number = if self.begun == 0 { 1 } else { 2 };
        let policy = self.retry.within(self.started, self.options.deadline, number, now);
        let policy = policy.ok_or_else(|| self.late(listing, now))?;
        self.begun += 1;
        Ok(policy)
    }

    fn seed(&self) -> u64 {
        self.seed ^ u64::from(self.begun).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// Starts `listing` at `now`: its phase, or the reading's end.
    fn start(&mut self, listing: Listing, now: Duration) -> Result<Phase<'a>, Error> {
        if listing == Listing::Alerts && !self.options.alerts {
            return Ok(Phase::Over);
        }
        let retry = self.policy(listing, now)?;
        let organization_id = self.organization_id;
        // A service's listings start only once its service is set (`next_service`).
        let service_id = || self.service_id.expect("a service's listing has its service");
        let management = || {
            self.management.ok_or_else(|| {
                Error::Build(BuildError::new(listing.operation(), BuildErrorKind::NotConfigured("management")))
            })
        };
        Ok(match listing {
            Listing::Services => {
                let list = ListServices::new(organization_id);
                Phase::Services(Box::new(Call::owned(list, management()?, &retry, self.seed(), now)?))
            }
            Listing::Endpoints => {
                let list = ListReversePrivateEndpoints::new(organization_id, service_id());
                Phase::Endpoints(Box::new(Call::owned(list, management()?, &retry, self.seed(), now)?))
            }
            Listing::Pipes => {
                let list = ListPipes::new(organization_id, service_id());
                Phase::Pipes(Box::new(Call::owned(list, management()?, &retry, self.seed(), now)?))
            }
            Listing::Alerts => {
                let alerting = self.alerting.ok_or_else(|| {
                    Error::Build(BuildError::new("list_alerts", BuildErrorKind::NotConfigured("alerting")))
                })?;
                let pages =
                    Pages::new(alerting, MAX_ALERTS_LIMIT, retry, self.seed()).max_bytes(MAX_ALERT_LISTING_BYTES);
                Phase::Alerts(Box::new(pages))
            }
        })
    }

    /// A listing's request failed with `error`: the service is woken and `listing` starts
    /// again, or the reading ends.
    fn failed(&mut self, listing: Listing, error: Error, now: Duration) -> Option<ReadStep> {
        let management = self.management.filter(|_| self.options.wake_idle && !self.just_woken);
        let (Some(management), Some(service_id)) =
            (management.filter(|_| is_idle_service_error(&error)), self.service_id)
        else {
            return Some(self.over(Err(error)));
        };
        let recovery = IdleRecovery::new(self.organization_id, service_id);
        let whole = (self.started, self.options.deadline);
        let wake = Wake::new(recovery, management, self.retry.clone(), whole, self.seed(), now);
        self.just_woken = true;
        self.phase = Phase::Waking { wake: Box::new(wake), idle: error, then: listing };
        None
    }

    /// What a whole listing of the service's (`listing`) says at `now`: passed on, kept with
    /// `keep` (then the next listing starts), or its failure.
    fn listed<T>(
        &mut self,
        listing: Listing,
        next: Part<Result<Reply<Vec<T>>, Error>, ReadOutput>,
        now: Duration,
        keep: impl FnOnce(&mut Self, Vec<T>),
    ) -> Option<ReadStep> {
        match next {
            Part::Pass(next) => Some(next),
            Part::Late => Some(self.over(Err(self.late(listing, now)))),
            Part::Done(Ok(reply)) => {
                self.just_woken = false;
                keep(self, reply.value);
                let next = match listing {
                    Listing::Endpoints => Listing::Pipes,
                    Listing::Services | Listing::Pipes => self.next_service(),
                    Listing::Alerts => Listing::Alerts,
                };
                self.phase = Phase::Start(next);
                None
            }
            Part::Done(Err(error)) => self.failed(listing, error, now),
        }
    }

    /// The reading's end with `result`.
    fn over(&mut self, result: Result<Current, Error>) -> ReadStep {
        self.phase = Phase::Over;
        Next::Done(result)
    }

    /// In an organization's reading, the listing after a service's (or the services'): the
    /// next selected service's endpoints, or the alerts; in a service's, the alerts.
    fn next_service(&mut self) -> Listing {
        let Some(selection) = &self.selection else { return Listing::Alerts };
        // What the service under way has, read whole.
        if let Some(service) = self.service_id.take() {
            let resources = Current::new(std::mem::take(&mut self.endpoints), std::mem::take(&mut self.pipes), None);
            if let Some(read) = self.services.iter_mut().find(|read| read.service.id == service) {
                read.resources = Some(resources);
            }
        }
        let next = self.services.iter().skip(self.next_service).position(|read| selection.reads(&read.service));
        match next {
            Some(at) => {
                self.next_service += at + 1;
                self.service_id = Some(self.services[self.next_service - 1].service.id);
                Listing::Endpoints
            }
            None => {
                self.next_service = self.services.len();
                Listing::Alerts
            }
        }
    }

    /// What was read, once the last listing is done; `alerts` when they were read whole.
    fn current(&mut self, alerts: Option<Vec<Alert>>) -> Current {
        if self.selection.is_some() {
            return Current::of_organization(std::mem::take(&mut self.services), alerts);
        }
        Current::new(std::mem::take(&mut self.endpoints), std::mem::take(&mut self.pipes), alerts)
    }
}

/// What a whole made of parts (a reading, an apply) does with a part's (a call's, a listing's,
/// a wait's) step, given the whole's deadline `end`: a request or a pause passed on, bounded
/// by it, or the part's result.
// Never stored: it goes straight back to the driver, like the `Next` it carries.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Part<T, O> {
    Pass(Next<O>),
    Done(T),
    /// The part would go on past the whole's deadline.
    Late,
}

pub(crate) fn part<T, O>(next: Next<T>, now: Duration, end: Duration) -> Part<T, O> {
    match next {
        // No request out past the deadline: the exchange gets what is left.
        Next::Send { request, timeout } if now < end => {
            Part::Pass(Next::Send { request, timeout: timeout.min(end.saturating_sub(now)) })
        }
        Next::Wait { until } if until < end => Part::Pass(Next::Wait { until }),
        Next::Done(output) => Part::Done(output),
        Next::Send { .. } | Next::Wait { .. } => Part::Late,
    }
}

impl Machine for ReadCurrent<'_> {
    type Output = Result<Current, Error>;

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> ReadStep {
        let end = self.end();
        loop {
            match &mut self.phase {
                Phase::Over => panic!("ReadCurrent::next after Next::Done: the reading is over"),
                Phase::Start(listing) => {
                    let listing = *listing;
                    match self.start(listing, now) {
                        Ok(Phase::Over) => {
                            let current = self.current(None);
                            return self.over(Ok(current));
                        }
                        Ok(phase) => self.phase = phase,
                        Err(error) => return self.over(Err(error)),
                    }
                }
                Phase::Services(call) => {
                    let next = part(call.next(now, pacer.as_deref_mut()), now, end);
                    if let Some(step) = self.listed(Listing::Services, next, now, |read, services| {
                        read.services =
                            services.into_iter().map(|service| CurrentService::new(service, None)).collect();
                    }) {
                        return step;
                    }
                }
                Phase::Endpoints(call) => {
                    let next = part(call.next(now, pacer.as_deref_mut()), now, end);
                    if let Some(step) = self.listed(Listing::Endpoints, next, now, |read, endpoints| {
                        read.endpoints = endpoints;
                    }) {
                        return step;
                    }
                }
                Phase::Pipes(call) => {
                    let next = part(call.next(now, pacer.as_deref_mut()), now, end);
                    if let Some(step) = self.listed(Listing::Pipes, next, now, |read, pipes| read.pipes = pipes) {
                        return step;
                    }
                }
                Phase::Alerts(pages) => match part(pages.next(now, pacer.as_deref_mut()), now, end) {
                    Part::Pass(next) => return next,
                    Part::Late => return self.over(Err(self.late(Listing::Alerts, now))),
                    Part::Done(Some(Ok(page))) => {
                        // A page past the listing's bound is not kept: the listing ends there.
                        if !matches!(pages.end(), Some(pipe_api_proto::pages::End::ByteLimit { .. })) {
                            self.alerts.extend(page.alerts);
                        }
                    }
                    Part::Done(Some(Err(error))) => return self.over(Err(error)),
                    Part::Done(None) => {
                        let whole = pages.end().is_some_and(pipe_api_proto::pages::End::read_every_alert);
                        let alerts = std::mem::take(&mut self.alerts);
                        let current = self.current(whole.then_some(alerts));
                        return self.over(Ok(current));
                    }
                },
                Phase::Waking { wake, .. } => {
                    let next = part(wake.next(now, pacer.as_deref_mut()), now, end);
                    let Phase::Waking { wake, idle, then } = std::mem::replace(&mut self.phase, Phase::Over) else {
                        unreachable!("in the waking phase")
                    };
                    match next {
                        Part::Pass(next) => {
                            self.phase = Phase::Waking { wake, idle, then };
                            return next;
                        }
                        Part::Done(Ok(())) => self.phase = Phase::Start(then),
                        Part::Done(Err(WakeError::Call(error))) => return self.over(Err(error)),
                        // Stopped, or out of time: the service stays idle, as its answer says.
                        Part::Late | Part::Done(Err(_)) => return self.over(Err(idle)),
                    }
                }
            }
        }
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        match &mut self.phase {
            Phase::Services(call) => call.take_attempts(),
            Phase::Endpoints(call) => call.take_attempts(),
            Phase::Pipes(call) => call.take_attempts(),
            Phase::Alerts(pages) => pages.take_attempts(),
            Phase::Waking { wake, .. } => wake.take_attempts(),
            Phase::Start(_) | Phase::Over => Vec::new(),
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
            Phase::Services(call) => call.receive(outcome, now, wall, pacer),
            Phase::Endpoints(call) => call.receive(outcome, now, wall, pacer),
            Phase::Pipes(call) => call.receive(outcome, now, wall, pacer),
            Phase::Alerts(pages) => pages.receive(outcome, now, wall, pacer),
            Phase::Waking { wake, .. } => wake.receive(outcome, now, wall, pacer),
            Phase::Start(_) | Phase::Over => panic!("ReadCurrent::receive without a request out"),
        }
    }
}

impl std::fmt::Debug for ReadCurrent<'_> {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("ReadCurrent")
            .field("organization_id", &self.organization_id)
            .field("service_id", &self.service_id)
            .field("services", &self.selection)
            .field("options", &self.options)
            .finish_non_exhaustive()
    }
}
