//! The [`Client`]: one method per operation, and the loop that drives proto's [`Call`]
//! (sending and sleeping; every decision is the call's).

use std::sync::atomic::{AtomicU64, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::Duration;

use crate::clock::Clock;
use crate::transport::UreqTransport;
use pipe_api_proto::attempts::AttemptRecord;
use pipe_api_proto::call::{Call, Machine, Next};
use pipe_api_proto::pages::Pages;
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::wait::{Condition, Poll, Polled, Wait, WaitError, WaitPolicy, service_running};
use pipe_api_proto::{
    AlertPage, Alerting, Api, BuildError, BuildErrorKind, Endpoint, Error, GetPipe, GetReversePrivateEndpoint,
    GetService, Management, Reply, Transport, TransportError,
};
use pipe_api_types::{
    OrganizationId, Pipe, PipeId, ReversePrivateEndpoint, ReversePrivateEndpointId, Service, ServiceFilter, ServiceId,
};

/// A blocking client of the management and alerting interfaces. Build it with
/// [`Client::builder`], [`Client::management`], [`Client::alerting`] or [`Client::from_env`].
/// It is `Send + Sync`: share one between threads (they share its connection pool and pacing).
#[derive(Debug)]
pub struct Client {
    pub(crate) management: Option<Management>,
    pub(crate) alerting: Option<Alerting>,
    pub(crate) transport: Sender,
    pub(crate) retry: RetryPolicy,
    pub(crate) pacer: Option<Mutex<Pacer>>,
    /// Seeds each call's jitter, with `calls`, so that concurrent calls back off apart.
    pub(crate) seed: u64,
    pub(crate) calls: AtomicU64,
    /// The time every call and the pacer share, and how the client waits.
    pub(crate) clock: Arc<dyn Clock>,
    /// Called with every attempt's record.
    pub(crate) observer: Option<AttemptObserver>,
    /// Called with every poll a wait had answered.
    pub(crate) poll_observer: Option<PollObserver>,
}

/// An interface a [`Client`] may have configured: [`Management`] or [`Alerting`]. Sealed.
pub trait ClientApi: Api + private::Configured {}

impl ClientApi for Management {}
impl ClientApi for Alerting {}

mod private {
    use super::*;

    /// How a client finds its configuration of an interface.
    pub trait Configured: Sized {
        /// The interface's name in errors.
        const NAME: &'static str;

        /// The client's configuration of this interface, if any.
        fn of(client: &Client) -> Option<&Self>;
    }

    impl Configured for Management {
        const NAME: &'static str = "management";

        fn of(client: &Client) -> Option<&Self> {
            client.management.as_ref()
        }
    }

    impl Configured for Alerting {
        const NAME: &'static str = "alerting";

        fn of(client: &Client) -> Option<&Self> {
            client.alerting.as_ref()
        }
    }
}

impl Client {
    /// Runs `endpoint` and keeps only its result: what every operation method does.
    pub(crate) fn value<E>(&self, endpoint: &E) -> Result<E::Output, Error>
    where
        E: Endpoint,
        E::Api: ClientApi,
    {
        self.call(endpoint).map(Reply::into_value)
    }

    /// Runs any endpoint (the escape hatch [`pipe_api_proto::Raw`] included) with retries and
    /// pacing, returning the result with the server's request id. Every decision is
    /// [`Call`]'s; this only sends and sleeps.
    pub fn call<E>(&self, endpoint: &E) -> Result<Reply<E::Output>, Error>
    where
        E: Endpoint,
        E::Api: ClientApi,
    {
        let api = self.api::<E::Api>(endpoint.metadata().name)?;
        let call = Call::new(endpoint, api, &self.retry, self.next_seed(), self.now())?;
        self.drive(call)
    }

    /// Lists every service of `organization_id`: [`list_services`](Client::list_services) with
    /// no filter ([`ServiceFilter::any`]), the plain call most callers want.
    pub fn list_all_services(&self, organization_id: OrganizationId) -> Result<Vec<Service>, Error> {
        self.list_services(organization_id, ServiceFilter::any())
    }

    /// Waits until the pipe satisfies `condition` (such as [`pipe_settled`](crate::pipe_settled)), polling it under
    /// `policy` (backoff, deadline, optional waking of an idle service). A pipe that fails is
    /// [`WaitError::Failed`] with the pipe; the deadline is [`WaitError::TimedOut`] with the
    /// last pipe seen.
    pub fn wait_for_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
        condition: impl Condition<Pipe>,
        policy: WaitPolicy,
    ) -> Result<Pipe, WaitError<Pipe>> {
        self.wait(&GetPipe::new(organization_id, service_id, pipe_id), condition, policy)
    }

    /// Waits until the reverse private endpoint satisfies `condition` (such as
    /// [`reverse_private_endpoint_ready`](crate::reverse_private_endpoint_ready)), polling it
    /// under `policy`.
    pub fn wait_for_reverse_private_endpoint(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        endpoint_id: ReversePrivateEndpointId,
        condition: impl Condition<ReversePrivateEndpoint>,
        policy: WaitPolicy,
    ) -> Result<ReversePrivateEndpoint, WaitError<ReversePrivateEndpoint>> {
        self.wait(&GetReversePrivateEndpoint::new(organization_id, service_id, endpoint_id), condition, policy)
    }

    /// Waits until the service is `running` ([`service_running`]), polling it under `policy`.
    pub fn wait_for_service(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        policy: WaitPolicy,
    ) -> Result<Service, WaitError<Service>> {
        self.wait(&GetService::new(organization_id, service_id), service_running, policy)
    }

    /// Polls any endpoint until `condition` holds: [`Wait`] driven by the client's one loop.
    pub fn wait<E, C>(&self, endpoint: &E, condition: C, policy: WaitPolicy) -> Result<E::Output, WaitError<E::Output>>
    where
        E: Endpoint,
        E::Api: ClientApi,
        C: Condition<E::Output>,
    {
        let api = self.api::<E::Api>(endpoint.metadata().name).map_err(|error| WaitError::Call {
            error,
            last: None,
            polled: Box::new(Polled::of(endpoint)),
        })?;
        let wait = Wait::new(endpoint, api, condition, policy, self.retry.clone(), self.next_seed(), self.now());
        self.drive(wait)
    }

    /// Every alert, page by page (`limit` alerts a page, 1 to 1000): an iterator of pages that
    /// stops at the end, after a failed page, and after the one page of an older server that
    /// ignores paging. Each page is fetched with the client's retries and pacing.
    pub fn alert_pages(&self, limit: u32) -> AlertPages<'_> {
        let pages =
            self.api::<Alerting>("list_alerts").map(|api| Pages::new(api, limit, self.retry.clone(), self.next_seed()));
        AlertPages { client: self, pages: Some(pages), end: None }
    }

    /// The client's configuration of an interface, or the error of a call that needs it.
    pub(crate) fn api<A: ClientApi>(&self, operation: &'static str) -> Result<&A, Error> {
        <A as private::Configured>::of(self).ok_or_else(|| {
            let name = <A as private::Configured>::NAME;
            Error::Build(BuildError::new(operation, BuildErrorKind::NotConfigured(name)))
        })
    }

    /// A seed for one machine's jitter, apart from every other call's.
    pub(crate) fn next_seed(&self) -> u64 {
        self.seed ^ self.calls.fetch_add(1, Ordering::Relaxed).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The one loop that runs any sans-IO machine (a call, a wait, a page) to its next result:
    /// it sends and sleeps; every decision is the machine's.
    pub(crate) fn drive<M: Machine>(&self, mut machine: M) -> M::Output {
        self.drive_mut(&mut machine)
    }

    fn drive_mut<M: Machine>(&self, machine: &mut M) -> M::Output {
        let mut driving = Driving { machine, output: None };
        self.run(&mut driving);
        driving.output.expect("a machine is run until it is done")
    }

    /// The loop itself, over a machine without its output type: compiled once, not once per
    /// operation and machine.
    fn run(&self, machine: &mut dyn Drive) {
        loop {
            // A statement of its own: the pacer's lock ends with it.
            let step = machine.next(self.now(), self.pacer().as_deref_mut());
            self.observe_polls(machine.take_polls());
            match step {
                Next::Send { request, timeout } => self.exchange(request, timeout, machine),
                Next::Wait { until } => self.clock.sleep(until.saturating_sub(self.now())),
                Next::Done(()) => return,
            }
        }
    }

    /// Sends `request`, hands the outcome to the machine, and logs and observes the attempts
    /// it recorded.
    fn exchange(&self, request: http::Request<Vec<u8>>, timeout: Duration, machine: &mut dyn Drive) {
        let outcome = self.transport.send(request, timeout);
        // A statement of its own: the pacer's lock ends with it, before any observer runs.
        let records = machine.receive(outcome, self.now(), self.clock.now_utc(), self.pacer().as_deref_mut());
        for record in records {
            log::debug!(target: "pipe_api_ureq", "{record}");
            if let Some(observer) = &self.observer {
                (observer.0)(&record);
            }
        }
    }

    /// Logs and observes the polls a wait had answered. Not generic over the machine.
    fn observe_polls(&self, polls: Vec<Poll>) {
        for poll in polls {
            log::debug!(target: "pipe_api_ureq", "{poll}");
            if let Some(observer) = &self.poll_observer {
                (observer.0)(&poll);
            }
        }
    }

    /// The time on the clock every call and the pacer share.
    pub(crate) fn now(&self) -> Duration {
        self.clock.elapsed()
    }

    /// The pacer, locked for one decision (never while sleeping).
    fn pacer(&self) -> Option<MutexGuard<'_, Pacer>> {
        self.pacer.as_ref().map(|pacer| pacer.lock().unwrap_or_else(|poisoned| poisoned.into_inner()))
    }

    /// The retry policy in use.
    pub fn retry_policy(&self) -> &RetryPolicy {
        &self.retry
    }

    /// The ureq transport in use, unless the client was built over another
    /// ([`ClientBuilder::transport`](crate::ClientBuilder::transport)).
    pub fn transport(&self) -> Option<&UreqTransport> {
        match &self.transport {
            Sender::Ureq(transport) => Some(transport),
            Sender::Custom(_) => None,
        }
    }
}

/// A [`Machine`] as the client's loop runs it, without its output type: what it says to do
/// next (its output kept aside when it is done), the polls it had answered, and an outcome
/// taken in ([`Machine::receive`], then the attempts it recorded).
trait Drive {
    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<()>;

    fn take_polls(&mut self) -> Vec<Poll>;

    fn receive(
        &mut self,
        outcome: Result<http::Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: time::OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) -> Vec<AttemptRecord>;
}

/// A machine being run, and its output once it is done.
struct Driving<'m, M: Machine> {
    machine: &'m mut M,
    output: Option<M::Output>,
}

impl<M: Machine> Drive for Driving<'_, M> {
    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<()> {
        match self.machine.next(now, pacer) {
            Next::Send { request, timeout } => Next::Send { request, timeout },
            Next::Wait { until } => Next::Wait { until },
            Next::Done(output) => {
                self.output = Some(output);
                Next::Done(())
            }
        }
    }

    fn take_polls(&mut self) -> Vec<Poll> {
        self.machine.take_polls()
    }

    fn receive(
        &mut self,
        outcome: Result<http::Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: time::OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) -> Vec<AttemptRecord> {
        self.machine.receive(outcome, now, wall, pacer);
        self.machine.take_attempts()
    }
}

/// Every alert, page by page: see [`Client::alert_pages`].
#[derive(Debug)]
pub struct AlertPages<'c> {
    client: &'c Client,
    /// The pages, or why there are none (no alerting interface); `None` once over.
    pages: Option<Result<Pages<'c>, Error>>,
    /// Why the listing ended, kept once the pages are dropped.
    end: Option<pipe_api_proto::pages::End>,
}

impl AlertPages<'_> {
    /// Why the listing ended, once it has ([`proto::pages::End`](pipe_api_proto::pages::End)): a short or empty
    /// page, the total reached, a server that does not page, a page that brought nothing new,
    /// the page limit, or a failed page.
    pub fn end(&self) -> Option<&pipe_api_proto::pages::End> {
        match &self.pages {
            Some(Ok(pages)) => pages.end(),
            _ => self.end.as_ref(),
        }
    }

    /// Fetches at most `pages` pages (1,000 unless set).
    #[must_use]
    pub fn max_pages(mut self, pages: u64) -> Self {
        if let Some(Ok(listing)) = self.pages.take() {
            self.pages = Some(Ok(listing.max_pages(pages)));
        }
        self
    }
}

impl Iterator for AlertPages<'_> {
    type Item = Result<AlertPage, Error>;

    fn next(&mut self) -> Option<Self::Item> {
        match self.pages.as_mut()? {
            Ok(pages) => {
                let page = self.client.drive_mut(pages);
                if page.is_none() {
                    self.end = pages.end().cloned();
                    self.pages = None;
                }
                page
            }
            Err(_) => self.pages.take().and_then(Result::err).map(Err),
        }
    }
}

/// What sends a client's requests: its own ureq transport or a user's [`Transport`], both
/// shared by every thread without a lock (`Transport::send` takes `&self`).
pub(crate) enum Sender {
    Ureq(UreqTransport),
    Custom(Box<dyn Transport + Send + Sync>),
}

impl Sender {
    fn send(
        &self,
        request: http::Request<Vec<u8>>,
        timeout: Duration,
    ) -> Result<http::Response<Vec<u8>>, TransportError> {
        match self {
            Sender::Ureq(transport) => transport.send_within(request, Some(timeout)),
            Sender::Custom(transport) => transport.send_within(request, timeout),
        }
    }
}

impl std::fmt::Debug for Sender {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Sender::Ureq(transport) => transport.fmt(f),
            Sender::Custom(_) => f.write_str("a custom Transport"),
        }
    }
}

/// What [`ClientBuilder::on_attempt`](crate::ClientBuilder::on_attempt) registers: called with the record of every attempt.
#[derive(Clone)]
pub(crate) struct AttemptObserver(pub(crate) Arc<dyn Fn(&AttemptRecord) + Send + Sync>);

impl std::fmt::Debug for AttemptObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("an attempt observer")
    }
}

/// What [`ClientBuilder::on_poll`](crate::ClientBuilder::on_poll) registers: called with every poll a wait had answered.
#[derive(Clone)]
pub(crate) struct PollObserver(pub(crate) Arc<dyn Fn(&Poll) + Send + Sync>);

impl std::fmt::Debug for PollObserver {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("a poll observer")
    }
}
