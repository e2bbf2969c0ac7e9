//! [`Call`]: one operation with its whole policy (pacing, retries, hints, the deadline, the
//! rule that a request that may have reached the server is never re-sent unless idempotent), as
//! a state machine any transport can drive. No IO, no clock, no sleep: the driver passes the
//! time in and does what [`Call::next`] says.
//!
//! ```
//! use std::time::Duration;
//!
//! use pipe_api_proto::call::{Call, Step};
//! use pipe_api_proto::retry::RetryPolicy;
//! use pipe_api_proto::{BaseUrl, GetService, Management, ManagementCredentials, http, time};
//!
//! let api = Management::new(BaseUrl::parse("https://api.example.com")?, ManagementCredentials::new("id", "secret")?);
//! let endpoint = GetService::new("6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?, "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?);
//! // A virtual clock: a driver reads its own monotonic clock (and sleeps for real).
//! let mut now = Duration::ZERO;
//! let mut call = Call::new(&endpoint, &api, &RetryPolicy::default(), 7, now)?;
//! let mut sent = 0;
//! let service = loop {
//!     match call.next(now, None) {
//!         Step::Send { .. } => {
//!             sent += 1;
//!             // Your HTTP client goes here; the first answer is a 503, the second a success.
//!             let (status, body) = if sent == 1 {
//!                 (503, "unavailable")
//!             } else {
//!                 (200, r#"{"status":200,"result":{"id":"4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002"}}"#)
//!             };
//!             let response = http::Response::builder().status(status).body(body.as_bytes().to_vec())?;
//!             call.receive(Ok(response), now, time::OffsetDateTime::UNIX_EPOCH, None);
//!         }
//!         Step::Wait { until } => now = until, // sleep until then
//!         Step::Done(result) => break result?,
//!     }
//! };
//! assert_eq!(sent, 2);
//! assert_eq!(service.value.name, None);
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::sync::Arc;
use std::time::Duration;

use http::{Method, Request, Response};
use time::OffsetDateTime;

use crate::attempts::{AttemptOutcome, AttemptRecord, Attempts, WaitCause};
use crate::endpoint::{Endpoint, InterfaceParts, Parts, Reply, RequestParts};
pub use crate::error::NotSent;
use crate::error::{Error, TransportError, TransportErrorKind, TransportFailure};
use crate::operation::Operation;
use crate::redact::SentSecrets;
use crate::retry::{Attempt, Decision, Outcome, Pacer, RetryHints, RetryPolicy, SeededJitter, StopReason};
use crate::wait::poll::Poll;

/// What the driver does next. Deliberately exhaustive: a driver must handle every step, and a
/// new kind of step would change what every driver has to do. Generic over what `Done` carries
/// so that one driver loop runs a [`Call`], a [`Wait`](crate::wait::Wait) and the alert
/// [`Pages`](crate::pages::Pages) alike (see [`Machine`]).
#[derive(Debug)]
// A step goes straight to the driver and is never stored: boxing the request would cost an
// allocation per attempt for nothing.
#[allow(clippy::large_enum_variant)]
pub enum Next<D> {
    /// Send this request and hand the outcome to [`Machine::receive`]. The exchange must end
    /// within `timeout` (what is left before the deadline).
    Send {
        /// The request, ready to send.
        request: Request<Vec<u8>>,
        /// The longest the exchange may take.
        timeout: Duration,
    },
    /// Nothing to do before `until` (on the clock the driver passes in); then ask again.
    Wait {
        /// When to ask again.
        until: Duration,
    },
    /// The machine has a result.
    Done(D),
}

/// What [`Call::next`] says: [`Next`] whose `Done` is the call's result.
pub type Step<T> = Next<Result<Reply<T>, Error>>;

/// A sans-IO machine any driver runs with the same loop: ask [`Machine::next`]; on
/// [`Next::Send`], send and pass the outcome to [`Machine::receive`]; on [`Next::Wait`], sleep;
/// on [`Next::Done`], take the output. [`Call`], [`Wait`](crate::wait::Wait) and
/// [`Pages`](crate::pages::Pages) are machines, so a driver writes its loop once.
pub trait Machine {
    /// What [`Next::Done`] carries.
    type Output;

    /// What to do at `now`; see [`Call::next`].
    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<Self::Output>;

    /// The records of the attempts whose outcomes came since the last time this was asked:
    /// what a driver logs or hands to an observer after each [`Machine::receive`].
    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        Vec::new()
    }

    /// The polls a [`Wait`](crate::wait::Wait) had answered since the last time this was asked
    /// (none for any other machine): what a driver hands to a poll observer after each
    /// [`Machine::next`]. A machine that runs waits inside it hands theirs on.
    fn take_polls(&mut self) -> Vec<Poll> {
        Vec::new()
    }

    /// The outcome of the request the last [`Next::Send`] gave; see [`Call::receive`].
    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    );
}

impl<E: Endpoint> Machine for Call<'_, E> {
    type Output = Result<Reply<E::Output>, Error>;

    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        Call::next(self, now, pacer)
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        std::mem::take(&mut self.attempting.untaken)
    }

    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        Call::receive(self, outcome, now, wall, pacer);
    }
}

/// The endpoint of a call: borrowed from the caller, or owned (a machine that makes its own
/// requests, such as a pager's next page, has nobody to borrow it from), or shared by the
/// polls of a wait that owns it.
#[derive(Debug)]
pub(crate) enum Held<'e, E> {
    Borrowed(&'e E),
    Owned(E),
    Shared(std::sync::Arc<E>),
}

impl<'e, E> Held<'e, E> {
    /// The same endpoint for another call: a borrow or a share, never a copy.
    pub(crate) fn again(&self) -> Option<Held<'e, E>> {
        match self {
            Held::Borrowed(endpoint) => Some(Held::Borrowed(endpoint)),
            Held::Shared(endpoint) => Some(Held::Shared(endpoint.clone())),
            Held::Owned(_) => None,
        }
    }
}

impl<E> std::ops::Deref for Held<'_, E> {
    type Target = E;

    fn deref(&self) -> &E {
        match self {
            Held::Borrowed(endpoint) => endpoint,
            Held::Owned(endpoint) => endpoint,
            Held::Shared(endpoint) => endpoint,
        }
    }
}

/// One operation being carried out: built from an endpoint, a retry policy and the start time.
///
/// The driver loops: [`Call::next`]; on [`Next::Send`], send and pass the outcome to
/// [`Call::receive`]; on [`Next::Wait`], sleep until then; on [`Next::Done`], return. Time is a
/// [`Duration`] since any fixed origin of a monotonic clock, the same origin for the call and
/// for the [`Pacer`] (which may be shared by all calls of one credential).
///
/// What it guarantees, whatever the server does:
/// * a request that may have reached the server is sent again only when its method is
///   idempotent (never a `POST` or `PATCH`), as [`RetryPolicy::decide`] rules;
/// * the first attempt is sent whenever the deadline has not passed at its start; a retry
///   starts only with the policy's [`least_attempt_time`](RetryPolicy::least_attempt_time)
///   left ([`RetryPolicy::may_start`]): otherwise the call ends with [`Error::NotSent`] (nothing
///   was sent) or the last error;
/// * with a pacer, every start is reserved in the pacer first, and a 429's hint holds back
///   every call that shares it.
#[derive(Debug)]
pub struct Call<'e, E: Endpoint> {
    endpoint: Held<'e, E>,
    /// Everything but the endpoint's output: not generic, so compiled once, not per operation.
    attempting: Attempting,
    /// The result, from when the call is over until [`Call::next`] hands it out.
    result: Option<Result<Reply<E::Output>, Error>>,
}

/// The policy's side of a call: the request, its attempts and what they decided. What a
/// [`Call`] adds is only the endpoint's parse of an answer.
#[derive(Debug)]
struct Attempting {
    operation: Operation,
    request: Request<Vec<u8>>,
    policy: RetryPolicy,
    jitter: SeededJitter,
    started: Duration,
    /// Attempts sent so far.
    attempts: u32,
    /// Each attempt made, and why the call stopped retrying.
    history: Attempts,
    /// Records not yet taken by [`Machine::take_attempts`].
    untaken: Vec<AttemptRecord>,
    /// What the request sends that no output may show: taken out of every answer's texts.
    /// Shared with the interface when it is only the credentials.
    secrets: Arc<SentSecrets>,
    state: State,
}

#[derive(Debug)]
enum State {
    /// The next attempt may start at `not_before` at the earliest; `slot` is the start reserved
    /// in the pacer, if one was. The wait began at `since`, for `cause`.
    Ready { not_before: Duration, slot: Option<Duration>, last: Option<Error>, since: Duration, cause: WaitCause },
    /// A request is out; it waited `waited` before it started, for `cause`.
    Sent { waited: Duration, cause: WaitCause },
    /// Over: the call's result is its own.
    Over,
}

/// What an answer said, as the policy sees it: a success's request id, or the error.
type Settled = Result<Option<String>, Error>;

impl<'e, E: Endpoint> Call<'e, E> {
    /// A call of `endpoint` on `api` under `policy`, starting at `now`. The request is built
    /// (and validated) here: an invalid one is an error at once, and nothing is ever sent.
    /// `seed` seeds the backoff's jitter (any value; differing values spread retries apart).
    pub fn new(endpoint: &'e E, api: &E::Api, policy: &RetryPolicy, seed: u64, now: Duration) -> Result<Self, Error> {
        Self::start(Held::Borrowed(endpoint), api, policy, seed, now)
    }

    /// As [`Call::new`], owning `endpoint`.
    pub fn owned(endpoint: E, api: &E::Api, policy: &RetryPolicy, seed: u64, now: Duration) -> Result<Self, Error> {
        Self::start(Held::Owned(endpoint), api, policy, seed, now)
    }

    pub(crate) fn start(
        endpoint: Held<'e, E>,
        api: &E::Api,
        policy: &RetryPolicy,
        seed: u64,
        now: Duration,
    ) -> Result<Self, Error> {
        let attempting = Attempting::start(&Parts(&*endpoint), &InterfaceParts::of(api), policy, seed, now)?;
        Ok(Call { endpoint, attempting, result: None })
    }

    /// Takes `secrets` out of every text this call's outputs show, besides what it takes out by
    /// itself (every form of the credentials it sends, and every value its body holds under a
    /// secret field): values the caller knows are secret, such as those a desired state
    /// resolved from references. Wherever an answer's text holds one (a request id, a message,
    /// a name or value of the result, the kept body), it reads `[redacted]` in the error, the
    /// [`Reply`], the attempts' records and anything a driver logs or observes of them. Texts
    /// shorter than 6 bytes are not searched: they would match by chance.
    #[must_use]
    pub fn scrubbing(mut self, secrets: impl IntoIterator<Item = String>) -> Self {
        Arc::make_mut(&mut self.attempting.secrets).add(secrets);
        self
    }

    /// What to do at `now`. `pacer` is the credential's pacer, if requests are paced; lock it
    /// only for this call (never while sleeping).
    pub fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Step<E::Output> {
        match self.attempting.next(now, pacer) {
            Next::Send { request, timeout } => Next::Send { request, timeout },
            Next::Wait { until } => Next::Wait { until },
            Next::Done(Some(error)) => Next::Done(Err(error)),
            Next::Done(None) => Next::Done(self.result.take().expect("Call::next after Step::Done: the call is over")),
        }
    }

    /// The outcome of the request [`Call::next`] said to send, at `now` (`wall` is the wall
    /// clock, used only to read a `Retry-After` date). A 429 also holds back `pacer`.
    pub fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        let (endpoint, mut reply) = (&*self.endpoint, None);
        // Only the parse of an answer is the endpoint's: the rest is compiled once.
        let settled = self.attempting.receive(outcome, now, wall, pacer, &mut |response, secrets| {
            let parsed = crate::endpoint::parse(endpoint, response, secrets)?;
            let request_id = parsed.request_id.clone();
            reply = Some(parsed);
            Ok(request_id)
        });
        self.result = settled.map(|settled| {
            settled.map(|attempts| Reply { attempts, ..reply.take().expect("a success settles with its reply") })
        });
    }

    /// The method of the request.
    pub fn method(&self) -> &Method {
        self.attempting.request.method()
    }

    /// Attempts sent so far.
    pub fn attempts(&self) -> u32 {
        self.attempting.attempts
    }
}

impl Attempting {
    /// The request of `endpoint` built on `interface`, and the policy's side of its call. Not
    /// generic: compiled once, not per endpoint.
    fn start(
        endpoint: &dyn RequestParts,
        interface: &InterfaceParts<'_>,
        policy: &RetryPolicy,
        seed: u64,
        now: Duration,
    ) -> Result<Self, Error> {
        let request = crate::endpoint::build(endpoint, interface)?;
        let secrets = SentSecrets::of(interface.sent_secrets, request.body());
        Ok(Attempting::new(endpoint.metadata(), request, secrets, policy, seed, now))
    }

    fn new(
        operation: Operation,
        request: Request<Vec<u8>>,
        secrets: Arc<SentSecrets>,
        policy: &RetryPolicy,
        seed: u64,
        now: Duration,
    ) -> Self {
        Attempting {
            operation,
            request,
            policy: policy.clone(),
            jitter: SeededJitter::new(seed),
            started: now,
            attempts: 0,
            history: Attempts::default(),
            untaken: Vec::new(),
            secrets,
            state: State::Ready { not_before: now, slot: None, last: None, since: now, cause: WaitCause::Immediate },
        }
    }

    /// [`Call::next`]: `Done(Some(error))` when the call stops before an attempt, `Done(None)`
    /// when it is over with the result its [`Call`] holds.
    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<Option<Error>> {
        let (not_before, reserved, since) = match &mut self.state {
            State::Ready { not_before, slot, since, .. } => (*not_before, *slot, *since),
            State::Sent { .. } => panic!("Call::next after Step::Send: pass the outcome to Call::receive first"),
            State::Over => return Next::Done(None),
        };
        let earliest = now.max(not_before);
        // The start: a slot reserved earlier still holds unless a back-off came in since; else
        // the first the pacer allows (reserved only once it is known to leave time).
        let (start, new_slot) = match (&pacer, reserved) {
            (Some(pacer), Some(reserved)) if pacer.not_before() <= reserved => (reserved, false),
            (Some(pacer), _) => {
                let start = earliest.max(pacer.not_before());
                (start.saturating_add(pacer.delay_before(start)), true)
            }
            (None, _) => (earliest, false),
        };
        if !self.policy.may_start(self.attempts + 1, start.saturating_sub(self.started)) {
            return Next::Done(Some(self.stop_before_sending(start)));
        }
        if let (true, Some(pacer), State::Ready { slot, cause, .. }) = (new_slot, pacer, &mut self.state) {
            pacer.record(start);
            *slot = Some(start);
            // The pacer, not the backoff or the hint, set the start.
            if start > earliest {
                *cause = WaitCause::Pacing;
            }
        }
        if start > now {
            return Next::Wait { until: start };
        }
        self.attempts += 1;
        if let State::Ready { cause, .. } = self.state {
            self.state = State::Sent { waited: now.saturating_sub(since), cause };
        }
        let deadline = self.started.saturating_add(self.policy.deadline);
        Next::Send { request: self.request.clone(), timeout: deadline.saturating_sub(now) }
    }

    /// Ends the call before an attempt that could not finish in time: with the last error when
    /// there was one (it says what the server answered), else with [`Error::NotSent`].
    fn stop_before_sending(&mut self, start: Duration) -> Error {
        let last = match std::mem::replace(&mut self.state, State::Over) {
            State::Ready { last, .. } => last,
            _ => None,
        };
        self.history.stop = Some(StopReason::DeadlineExceeded);
        match last {
            Some(last) => last.with_attempts(std::mem::take(&mut self.history)),
            None => Error::NotSent(NotSent::new(
                self.operation.name,
                start.saturating_sub(self.started),
                self.policy.deadline,
            )),
        }
    }

    /// [`Call::receive`]: the attempt recorded and decided, `parse` reading an answer (the
    /// scrubbing secrets given) into its request id, or the error it is.
    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
        parse: &mut dyn FnMut(Response<Vec<u8>>, &SentSecrets) -> Settled,
    ) -> Option<Result<Attempts, Error>> {
        self.expect_answer();
        let (answer, settled) = match outcome {
            Ok(response) => {
                let answer = (response.status(), RetryHints::from_headers(response.headers()));
                // The one place an answer's texts enter: scrubbed there of what was sent.
                (Some(answer), parse(response, &self.secrets))
            }
            Err(error) => (None, Err(self.failed(error))),
        };
        self.settle(answer, settled, now, wall, pacer)
    }

    /// Panics unless a request is out: [`Call::receive`] answers a [`Next::Send`].
    fn expect_answer(&self) {
        assert!(matches!(self.state, State::Sent { .. }), "Call::receive without a request out");
    }

    /// The error of a transport failure.
    fn failed(&self, error: TransportError) -> Error {
        Error::Transport(TransportFailure::new(self.operation.name, self.request.method().clone(), error))
    }

    /// Records the attempt whose answer (`None` for a transport failure) came back, and decides:
    /// `None` to retry, else the call's end with the attempts it took.
    fn settle(
        &mut self,
        answer: Option<(http::StatusCode, RetryHints)>,
        settled: Settled,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) -> Option<Result<Attempts, Error>> {
        let State::Sent { waited, cause } = self.state else { unreachable!("checked by expect_answer") };
        let method = self.request.method().clone();
        let outcome = match (&answer, &settled) {
            (Some((status, hints)), _) => Outcome::Response { status: *status, hints },
            (None, Err(Error::Transport(failure))) => outcome_of(failure.error()),
            (None, _) => Outcome::FailedAfterSend,
        };
        self.record(waited, cause, &answer, &settled);
        let attempt = Attempt::new(&method, outcome, self.attempts, now.saturating_sub(self.started), wall);
        let server_delay = answer.as_ref().and_then(|(_, hints)| hints.requested_delay(wall));
        match self.policy.decide(&attempt, &mut self.jitter) {
            Decision::RetryAfter(delay) => {
                if let (Some(pacer), Some((status, _))) = (pacer, &answer) {
                    if status.as_u16() == 429 {
                        pacer.back_off(now, delay);
                    }
                }
                let last = settled.err();
                let cause = if server_delay.is_some() { WaitCause::ServerHint } else { WaitCause::Backoff };
                self.state =
                    State::Ready { not_before: now.saturating_add(delay), slot: None, last, since: now, cause };
                None
            }
            Decision::Stop(reason) => {
                if settled.is_err() {
                    self.history.stop = Some(reason);
                    if reason == StopReason::ServerDelayTooLong {
                        self.history.server_delay = server_delay.map(|asked| (asked, self.policy.max_server_delay));
                    }
                }
                let history = std::mem::take(&mut self.history);
                self.state = State::Over;
                Some(match settled {
                    Ok(_) => Ok(history),
                    Err(error) => Err(error.with_attempts(history)),
                })
            }
        }
    }

    /// Records the attempt that just came back.
    fn record(
        &mut self,
        waited: Duration,
        cause: WaitCause,
        answer: &Option<(http::StatusCode, RetryHints)>,
        settled: &Settled,
    ) {
        let outcome = match (answer, settled) {
            (Some((status, _)), _) => AttemptOutcome::Status(*status),
            (None, Err(Error::Transport(failure))) => AttemptOutcome::Transport(failure.error().kind()),
            (None, _) => AttemptOutcome::Transport(TransportErrorKind::Io),
        };
        let request_id = match settled {
            Ok(request_id) => request_id.clone(),
            Err(error) => error.request_id().map(str::to_owned),
        };
        let Operation { name: operation, path, .. } = self.operation;
        let record = AttemptRecord {
            operation,
            method: self.request.method().clone(),
            path,
            number: self.attempts,
            waited,
            cause,
            outcome,
            request_id,
        };
        self.untaken.push(record.clone());
        self.history.records.push(record);
    }
}

/// How the retry policy sees a transport failure.
fn outcome_of(error: &TransportError) -> Outcome<'static> {
    match error.kind() {
        TransportErrorKind::Refused => Outcome::Refused,
        _ if !error.may_have_reached_server() => Outcome::ConnectFailed,
        TransportErrorKind::BodyTooLarge => Outcome::ResponseTooLarge,
        _ => Outcome::FailedAfterSend,
    }
}
