//! [`Wait`]: poll an operation until a condition holds, as a sans-IO [`Machine`] that the same
//! driver loop as a [`Call`] runs. Each poll is a [`Call`], so pacing, retries and the
//! never-past-the-deadline rule stay in one place.
//!
//! ```
//! use std::time::Duration;
//!
//! use pipe_api_proto::call::{Machine, Next};
//! use pipe_api_proto::wait::{Wait, WaitPolicy, pipe_settled};
//! use pipe_api_proto::{BaseUrl, GetPipe, Management, ManagementCredentials, http, time};
//! use pipe_api_proto::retry::RetryPolicy;
//!
//! let api = Management::new(BaseUrl::parse("https://api.example.com")?, ManagementCredentials::new("id", "secret")?);
//! let get = GetPipe::new(
//!     "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse()?,
//!     "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse()?,
//!     "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e".parse()?,
//! );
//! let mut now = Duration::ZERO;
//! let mut wait = Wait::new(&get, &api, pipe_settled, WaitPolicy::default(), RetryPolicy::default(), 7, now);
//! let mut polls = 0;
//! let pipe = loop {
//!     match wait.next(now, None) {
//!         Next::Send { .. } => {
//!             polls += 1;
//!             // Your HTTP client goes here: the pipe provisions twice, then runs.
//!             let state = if polls < 3 { "Provisioning" } else { "Running" };
//!             let body = format!(r#"{{"status":200,"result":{{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","state":"{state}"}}}}"#);
//!             let response = http::Response::builder().status(200).body(body.into_bytes())?;
//!             wait.receive(Ok(response), now, time::OffsetDateTime::UNIX_EPOCH, None);
//!         }
//!         Next::Wait { until } => now = until, // sleep until then
//!         Next::Done(result) => break result?,
//!     }
//! };
//! assert_eq!(polls, 3);
//! assert_eq!(now, Duration::from_millis(2500)); // 1 s, then 1.5 s between polls
//! # let _ = pipe;
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```

use std::fmt;
use std::time::Duration;

use http::Response;
use pipe_api_types::{OrganizationId, ServiceId};
use time::OffsetDateTime;

use crate::api::Management;
use crate::api::sealed::Interface as _;
use crate::attempts::AttemptRecord;
use crate::call::{Call, Held, Machine, Next};
use crate::endpoint::Endpoint;
use crate::error::{Error, TransportError};
use crate::retry::{Pacer, RetryPolicy};

// The conditions live in their own file; their paths stay `wait::pipe_running` and so on.
mod conditions;
pub(crate) mod poll;
mod wake;

pub use conditions::{
    Condition, Verdict, pipe_running, pipe_settled, pipe_stopped, reverse_private_endpoint_ready,
    reverse_private_endpoint_settled, service_running, service_stopped,
};
pub use poll::{Poll, Polled};
pub use wake::{Wake, WakeError};

/// How often and how long to poll.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct WaitPolicy {
    /// The pause after the first poll (default 1 s).
    pub initial_delay: Duration,
    /// Each pause is the previous one times this (default 1.5).
    pub factor: f64,
    /// The longest pause (default 10 s).
    pub max_delay: Duration,
    /// The whole wait's deadline, from its start (default 10 minutes). No request is out past
    /// it: each poll's own deadline is cut to what is left.
    pub deadline: Duration,
    /// Wake an idle service when a poll answers `424` saying so (default off); see
    /// [`IdleRecovery`].
    pub idle_recovery: Option<IdleRecovery>,
}

impl Default for WaitPolicy {
    fn default() -> Self {
        WaitPolicy {
            initial_delay: Duration::from_secs(1),
            factor: 1.5,
            max_delay: Duration::from_secs(10),
            deadline: Duration::from_secs(600),
            idle_recovery: None,
        }
    }
}

impl WaitPolicy {
    /// The pause after poll number `poll` (0 for the first).
    pub fn delay(&self, poll: u32) -> Duration {
        let factor = if self.factor.is_finite() && self.factor >= 1.0 { self.factor } else { 1.0 };
        let scaled = self.initial_delay.as_secs_f64() * factor.powi(poll.min(i32::MAX as u32) as i32);
        // `try_from_secs_f64` fails only when the product overflows, which is past any cap.
        Duration::try_from_secs_f64(scaled).unwrap_or(Duration::MAX).min(self.max_delay)
    }

    /// Sets the whole wait's deadline.
    #[must_use]
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// Sets the pauses between polls: the first, the factor each next one grows by, the longest.
    #[must_use]
    pub fn pauses(mut self, initial: Duration, factor: f64, max: Duration) -> Self {
        self.initial_delay = initial;
        self.factor = factor;
        self.max_delay = max.max(initial);
        self
    }

    /// Wakes an idle service of `organization_id` on the way, as the vendor's tools do.
    pub fn with_idle_recovery(mut self, organization_id: OrganizationId, service_id: ServiceId) -> Self {
        self.idle_recovery = Some(IdleRecovery::new(organization_id, service_id));
        self
    }
}

/// Waking an idle service: any pipe call on an idle service answers `424 FAILED_DEPENDENCY ...
/// Current state: idle`. The wait then runs [`Wake`]: it sends `PATCH .../services/{id}/state
/// {"command":"awake"}`, reads the service every `interval` until it is `running` (at most
/// `budget`), and the wait polls again; a second idle answer straight after waking ends the
/// wait. A `stopped` service is never woken.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct IdleRecovery {
    /// The service's organization.
    pub organization_id: OrganizationId,
    /// The service the polled operation depends on.
    pub service_id: ServiceId,
    /// Between reads of the service (default 5 s).
    pub interval: Duration,
    /// The longest it may take to wake (default 10 minutes; the wait's deadline still holds).
    pub budget: Duration,
}

impl IdleRecovery {
    /// Wakes `service_id` with the vendor's timings.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId) -> Self {
        IdleRecovery { organization_id, service_id, interval: Duration::from_secs(5), budget: Duration::from_secs(600) }
    }
}

/// Whether `error` is the answer of a pipe call on an idle service.
pub fn is_idle_service_error(error: &Error) -> bool {
    match error {
        Error::Api(api) => {
            api.status().as_u16() == 424 && api.message().is_some_and(|m| m.contains("Current state: idle"))
        }
        _ => false,
    }
}

/// Why a wait ended without its condition holding. `T` is the polled value; `last` is the last
/// one seen, when a poll succeeded at all; `polled` names the operation and the resource.
#[derive(Debug)]
#[non_exhaustive]
pub enum WaitError<T> {
    /// The condition said the value can no longer become what was waited for.
    Failed {
        /// The value it said so of.
        last: Last<T>,
        /// Polls made.
        polls: u32,
        /// What was polled (boxed: an error passes through every result).
        polled: Box<Polled>,
    },
    /// The deadline came (or the next poll could not have finished before it).
    TimedOut {
        /// The last value seen.
        last: Option<Last<T>>,
        /// Polls made.
        polls: u32,
        /// How long the wait lasted.
        waited: Duration,
        /// The wait's deadline.
        deadline: Duration,
        /// What was polled (boxed: an error passes through every result).
        polled: Box<Polled>,
    },
    /// A poll failed (after its own retries), or waking the service did.
    Call {
        /// What failed.
        error: Error,
        /// The last value seen.
        last: Option<Last<T>>,
        /// What was polled (boxed: an error passes through every result).
        polled: Box<Polled>,
    },
    /// The service was being woken and is `stopped` instead (or it answered `424` for a state
    /// other than idle): it is not woken.
    ServiceStopped {
        /// The last value seen of what was polled.
        last: Option<Last<T>>,
        /// What was polled (boxed: an error passes through every result).
        polled: Box<Polled>,
    },
}

impl<T> WaitError<T> {
    /// The last value seen, if any.
    pub fn last(&self) -> Option<&T> {
        self.last_seen().map(|last| &**last)
    }

    fn last_seen(&self) -> Option<&Last<T>> {
        match self {
            WaitError::Failed { last, .. } => Some(last),
            WaitError::TimedOut { last, .. }
            | WaitError::Call { last, .. }
            | WaitError::ServiceStopped { last, .. } => last.as_ref(),
        }
    }

    /// The state of the last value seen, as the server wrote it (at most 64 characters, never a
    /// credential the polls sent).
    pub fn last_state(&self) -> Option<&str> {
        self.last_seen().and_then(|last| last.state.as_deref())
    }

    /// The operation and the resource the wait polled.
    pub fn polled(&self) -> &Polled {
        match self {
            WaitError::Failed { polled, .. }
            | WaitError::TimedOut { polled, .. }
            | WaitError::Call { polled, .. }
            | WaitError::ServiceStopped { polled, .. } => polled,
        }
    }

    /// Whether the deadline ended the wait.
    pub fn is_timeout(&self) -> bool {
        matches!(self, WaitError::TimedOut { .. })
    }
}

/// Says what the wait polled (the operation and the resource), the rule that stopped it, how
/// many polls it made and how long it took, and the last state seen.
impl<T> fmt::Display for WaitError<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "wait on {}: ", self.polled())?;
        match self {
            WaitError::Failed { polls, .. } => write!(
                f,
                "after {}, the value is in a state it will not leave for the one waited for",
                crate::words::Counted(*polls as usize, "poll")
            )?,
            WaitError::TimedOut { polls, waited, deadline, .. } => write!(
                f,
                "no time left before the {:.1} s deadline for another poll, after {} in {:.1} s",
                deadline.as_secs_f64(),
                crate::words::Counted(*polls as usize, "poll"),
                waited.as_secs_f64()
            )?,
            // The cause in the one line, as a call's error names its own (bounded and scrubbed
            // like every error).
            WaitError::Call { error, .. } => write!(f, "a poll failed: {error}")?,
            WaitError::ServiceStopped { .. } => f.write_str("the service is stopped and is not woken")?,
        }
        match self.last_state() {
            Some(state) => write!(f, "; last state {state}"),
            None if self.last().is_some() => f.write_str("; the last value has no state"),
            None => f.write_str("; no poll succeeded"),
        }
    }
}

/// A failed poll's error is in the one line; the source is what lies below it, so that a report
/// prints nothing twice (the error itself: [`WaitError::Call`]'s `error`).
impl<T: fmt::Debug> std::error::Error for WaitError<T> {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WaitError::Call { error, .. } => std::error::Error::source(error),
            _ => None,
        }
    }
}

/// The last value a wait saw, inside its [`WaitError`]: the value itself (through `Deref`, or
/// [`Last::into_inner`]), which `Debug` shows as at most [`LAST_SHOWN`] bytes and without the
/// credentials the polls carried, whatever the server put in it.
pub struct Last<T> {
    value: Box<T>,
    shown: Box<str>,
    state: Option<Box<str>>,
}

/// The most of a last value an error shows.
pub const LAST_SHOWN: usize = 1024;

impl<T: fmt::Debug> Last<T> {
    /// `value`, shown bounded (its texts were scrubbed of what the polls sent when it was read),
    /// in `state` (its endpoint's [`shown_state`]).
    fn new(value: Box<T>, state: Option<String>) -> Self {
        let shown = crate::redact::shown_debug(&*value, LAST_SHOWN).into_boxed_str();
        Last { value, shown, state: state.map(String::into_boxed_str) }
    }
}

/// The state `value` is in, if its model has one, shown bounded.
fn shown_state<E: Endpoint + ?Sized>(value: &E::Output) -> Option<String> {
    E::output_state(value).map(|state| crate::redact::shown_debug(&format_args!("{state}"), 64))
}

impl<T> Last<T> {
    /// The value.
    pub fn into_inner(self) -> T {
        *self.value
    }
}

impl<T> std::ops::Deref for Last<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.value
    }
}

impl<T> fmt::Debug for Last<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.shown)
    }
}

/// What a [`Wait`] says: its `Done` is the value or why the wait ended without it.
pub type WaitStep<T> = Next<Result<T, WaitError<T>>>;

/// A wait in progress: polls `endpoint` until `condition` says [`Verdict::Done`] or
/// [`Verdict::Failed`], or the deadline. Run it like a [`Call`] ([`Machine`]); its `Done`
/// carries the value that satisfied the condition, or a [`WaitError`].
pub struct Wait<'e, E: Endpoint, C> {
    endpoint: Held<'e, E>,
    api: &'e E::Api,
    condition: C,
    policy: WaitPolicy,
    retry: RetryPolicy,
    seed: u64,
    started: Duration,
    polls: u32,
    last: Option<Box<E::Output>>,
    /// Set after waking the service: a second idle answer then ends the wait.
    just_woken: bool,
    /// The polls answered since [`Machine::take_polls`] was last asked.
    untaken_polls: Vec<Poll>,
    phase: Phase<'e, E>,
}

enum Phase<'e, E: Endpoint> {
    /// The next poll starts at `at`.
    Idle { at: Duration },
    /// A poll is under way.
    Polling(Box<Call<'e, E>>),
    /// Waking an idle service.
    Waking(Box<Wake<'e>>),
    /// Over.
    Over,
}

impl<E: Endpoint, C> fmt::Debug for Wait<'_, E, C> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let phase = match self.phase {
            Phase::Idle { .. } => "idle",
            Phase::Polling(_) => "polling",
            Phase::Waking(_) => "waking the service",
            Phase::Over => "over",
        };
        f.debug_struct("Wait")
            .field("operation", &self.endpoint.metadata().name)
            .field("policy", &self.policy)
            .field("polls", &self.polls)
            .field("phase", &phase)
            .finish_non_exhaustive()
    }
}

impl<'e, E: Endpoint, C: Condition<E::Output>> Wait<'e, E, C> {
    /// A wait polling `endpoint` on `api` until `condition` holds, starting at `now`. Each poll
    /// is a [`Call`] under `retry`, its deadline cut to what is left of the wait's.
    pub fn new(
        endpoint: &'e E,
        api: &'e E::Api,
        condition: C,
        policy: WaitPolicy,
        retry: RetryPolicy,
        seed: u64,
        now: Duration,
    ) -> Self {
        Self::held(Held::Borrowed(endpoint), api, condition, policy, retry, seed, now)
    }

    /// As [`Wait::new`], owning `endpoint` (shared by its polls, never copied).
    pub fn owned(
        endpoint: E,
        api: &'e E::Api,
        condition: C,
        policy: WaitPolicy,
        retry: RetryPolicy,
        seed: u64,
        now: Duration,
    ) -> Self {
        Self::held(Held::Shared(std::sync::Arc::new(endpoint)), api, condition, policy, retry, seed, now)
    }

    fn held(
        endpoint: Held<'e, E>,
        api: &'e E::Api,
        condition: C,
        policy: WaitPolicy,
        retry: RetryPolicy,
        seed: u64,
        now: Duration,
    ) -> Self {
        Wait {
            endpoint,
            api,
            condition,
            policy,
            retry,
            seed,
            started: now,
            polls: 0,
            last: None,
            just_woken: false,
            untaken_polls: Vec::new(),
            phase: Phase::Idle { at: now },
        }
    }

    /// Polls made so far.
    pub fn polls(&self) -> u32 {
        self.polls
    }

    /// The last value seen.
    pub fn last(&self) -> Option<&E::Output> {
        self.last.as_deref()
    }

    /// What the wait polls.
    pub fn polled(&self) -> Polled {
        Polled::of(&*self.endpoint)
    }

    /// The retry policy of a call starting at `now`: the wait's deadline bounds it. `None` when
    /// the deadline's rule ([`RetryPolicy::may_start`], over the wait's deadline) says no: the
    /// first poll goes whenever the deadline has not passed, a later one only with the least
    /// attempt time left.
    fn call_policy(&self, now: Duration) -> Option<RetryPolicy> {
        self.retry.within(self.started, self.policy.deadline, self.polls + 1, now)
    }

    fn timed_out(&mut self, now: Duration) -> WaitStep<E::Output> {
        self.phase = Phase::Over;
        let waited = now.saturating_sub(self.started);
        let deadline = self.policy.deadline;
        let polled = Box::new(self.polled());
        Next::Done(Err(WaitError::TimedOut { last: self.take_last(), polls: self.polls, waited, deadline, polled }))
    }

    fn fail(&mut self, error: Error) -> WaitStep<E::Output> {
        self.phase = Phase::Over;
        Next::Done(Err(WaitError::Call { error, last: self.take_last(), polled: Box::new(self.polled()) }))
    }

    /// The last value seen, to go into an error.
    fn take_last(&mut self) -> Option<Last<E::Output>> {
        self.last.take().map(|value| {
            let state = shown_state::<E>(&value);
            Last::new(value, state)
        })
    }

    fn seed(&self, salt: u64) -> u64 {
        self.seed ^ (u64::from(self.polls) << 8 | salt).wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    /// The next poll or service read, `delay` after `now`, unless it could not finish before
    /// the deadline: then the wait times out now rather than sleep for nothing.
    fn schedule(&mut self, now: Duration, delay: Duration) -> Option<Duration> {
        let at = now.saturating_add(delay);
        self.call_policy(at).map(|_| at)
    }

    /// What a finished poll means.
    fn poll_answered(&mut self, result: Result<E::Output, Error>, now: Duration) -> Option<WaitStep<E::Output>> {
        self.polls += 1;
        match result {
            Ok(value) => {
                self.just_woken = false;
                let verdict = self.condition.check(&value);
                self.untaken_polls.push(Poll {
                    polled: self.polled(),
                    number: self.polls,
                    state: shown_state::<E>(&value),
                    verdict: verdict.clone(),
                    elapsed: now.saturating_sub(self.started),
                    deadline: self.policy.deadline,
                });
                match verdict {
                    Verdict::Done => {
                        self.phase = Phase::Over;
                        Some(Next::Done(Ok(value)))
                    }
                    Verdict::Failed => {
                        self.phase = Phase::Over;
                        let state = shown_state::<E>(&value);
                        let last = Last::new(Box::new(value), state);
                        Some(Next::Done(Err(WaitError::Failed {
                            last,
                            polls: self.polls,
                            polled: Box::new(self.polled()),
                        })))
                    }
                    Verdict::Continue => {
                        self.last = Some(Box::new(value));
                        let delay = self.policy.delay(self.polls - 1);
                        match self.schedule(now, delay) {
                            Some(at) => {
                                self.phase = Phase::Idle { at };
                                None
                            }
                            None => Some(self.timed_out(now)),
                        }
                    }
                }
            }
            Err(error) if is_idle_service_error(&error) && !self.just_woken => {
                let Some(recovery) = self.policy.idle_recovery.clone() else { return Some(self.fail(error)) };
                self.just_woken = true;
                self.wake(recovery, now)
            }
            Err(error) if is_idle_service_error(&error) => Some(self.fail(error)),
            Err(Error::Api(api)) if api.status().as_u16() == 424 && self.policy.idle_recovery.is_some() => {
                // Not idle (stopped, say): a stopped service is never woken.
                drop(api);
                self.phase = Phase::Over;
                Some(Next::Done(Err(WaitError::ServiceStopped {
                    last: self.take_last(),
                    polled: Box::new(self.polled()),
                })))
            }
            Err(error) => Some(self.fail(error)),
        }
    }

    /// Starts waking the service ([`Wake`], within the wait's deadline).
    fn wake(&mut self, recovery: IdleRecovery, now: Duration) -> Option<WaitStep<E::Output>> {
        let Some(api) = self.management() else {
            let kind = crate::error::BuildErrorKind::NotConfigured("management");
            return Some(self.fail(Error::Build(crate::error::BuildError::new("raw", kind))));
        };
        let whole = (self.started, self.policy.deadline);
        let wake = Wake::new(recovery, api, self.retry.clone(), whole, self.seed(1), now);
        self.phase = Phase::Waking(Box::new(wake));
        None
    }

    /// The management interface, when polling it (waking a service needs it).
    fn management(&self) -> Option<&'e Management> {
        self.api.as_management()
    }
}

impl<'e, E, C> Machine for Wait<'e, E, C>
where
    E: Endpoint,
    C: Condition<E::Output>,
{
    type Output = Result<E::Output, WaitError<E::Output>>;

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        match &mut self.phase {
            Phase::Polling(call) => call.take_attempts(),
            Phase::Waking(wake) => wake.take_attempts(),
            _ => Vec::new(),
        }
    }

    fn take_polls(&mut self) -> Vec<Poll> {
        std::mem::take(&mut self.untaken_polls)
    }

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        loop {
            match &mut self.phase {
                Phase::Over => panic!("Wait::next after Next::Done: the wait is over"),
                Phase::Idle { at } => {
                    let at = *at;
                    if at > now {
                        return Next::Wait { until: at };
                    }
                    let Some(retry) = self.call_policy(now) else { return self.timed_out(now) };
                    let endpoint = self.endpoint.again().expect("a wait borrows or shares its endpoint");
                    match Call::start(endpoint, self.api, &retry, self.seed(0), now) {
                        Ok(call) => self.phase = Phase::Polling(Box::new(call)),
                        Err(error) => return self.fail(error),
                    }
                }
                Phase::Polling(call) => match call.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    Next::Done(result) => {
                        if let Some(step) = self.poll_answered(result.map(|reply| reply.value), now) {
                            return step;
                        }
                    }
                },
                Phase::Waking(wake) => match wake.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    // Awake: poll the original operation again at once.
                    Next::Done(Ok(())) => self.phase = Phase::Idle { at: now },
                    Next::Done(Err(WakeError::Stopped)) => {
                        self.phase = Phase::Over;
                        let polled = Box::new(self.polled());
                        return Next::Done(Err(WaitError::ServiceStopped { last: self.take_last(), polled }));
                    }
                    Next::Done(Err(WakeError::OutOfTime { .. })) => return self.timed_out(now),
                    Next::Done(Err(WakeError::Call(error))) => return self.fail(error),
                },
            }
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
            Phase::Polling(call) => call.receive(outcome, now, wall, pacer),
            Phase::Waking(wake) => wake.receive(outcome, now, wall, pacer),
            _ => panic!("Wait::receive without a request out"),
        }
    }
}
