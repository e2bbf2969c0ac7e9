//! [`Wake`]: waking an idle service, as a sans-IO [`Machine`]. The one home of the vendor's
//! recovery ([`IdleRecovery`]): a [`Wait`](super::Wait) runs it when a poll finds the service
//! idle, and so does anything else that sends several requests to one service (an apply).

use std::fmt;
use std::time::Duration;

use http::{Method, Response};
use time::OffsetDateTime;

use super::{IdleRecovery, Verdict, service_running};
use crate::api::Management;
use crate::attempts::AttemptRecord;
use crate::call::{Call, Machine, Next};
use crate::error::{Error, TransportError};
use crate::operations::endpoints::GetService;
use crate::raw::Raw;
use crate::retry::{Pacer, RetryPolicy};

/// Wakes an idle service: `PATCH .../services/{id}/state {"command":"awake"}`, then reads the
/// service every [`IdleRecovery::interval`] until it is `running` (at most
/// [`IdleRecovery::budget`]). It runs inside a whole (a wait, an apply) whose deadline bounds
/// it: no request starts that [`RetryPolicy::within`] the whole's deadline refuses. Its `Done`
/// is `Ok(())` once the service runs: the caller then sends its request again, once.
pub struct Wake<'a> {
    recovery: IdleRecovery,
    api: &'a Management,
    retry: RetryPolicy,
    /// When the whole this waking is part of started, and how long it may last.
    whole: (Duration, Duration),
    seed: u64,
    /// When the waking started (the budget counts from it).
    since: Duration,
    phase: Phase,
}

enum Phase {
    /// The `awake` command is to be sent.
    Start,
    /// The `awake` command is under way.
    Asking(Box<Call<'static, Raw<Management>>>),
    /// Reading the service until it runs; the next read at `at`, if none is under way.
    Reading { call: Option<Box<Call<'static, GetService>>>, at: Duration },
    /// Over.
    Over,
}

/// Why a service was not woken.
#[derive(Debug)]
#[non_exhaustive]
pub enum WakeError {
    /// The service is `stopped` (or going that way): a stopped service is never woken.
    Stopped,
    /// The whole's deadline, or the recovery's budget, left no time for the next request.
    OutOfTime {
        /// How long the waking lasted.
        waited: Duration,
    },
    /// The `awake` command or a read of the service failed (after its own retries).
    Call(Error),
}

impl fmt::Display for WakeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            WakeError::Stopped => f.write_str("waking the idle service: it is stopped and is not woken"),
            WakeError::OutOfTime { waited } => write!(
                f,
                "waking the idle service: no time left for another request after {:.1} s",
                waited.as_secs_f64()
            ),
            WakeError::Call(error) => write!(f, "waking the idle service: {error}"),
        }
    }
}

/// The failed call's error is in the one line; the source is what lies below it.
impl std::error::Error for WakeError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            WakeError::Call(error) => std::error::Error::source(error),
            _ => None,
        }
    }
}

impl<'a> Wake<'a> {
    /// Wakes `recovery`'s service through `api`, starting at `now`, each request under `retry`
    /// (`seed` seeds its jitter), inside a whole that started at `started` and may last `total`.
    pub fn new(
        recovery: IdleRecovery,
        api: &'a Management,
        retry: RetryPolicy,
        (started, total): (Duration, Duration),
        seed: u64,
        now: Duration,
    ) -> Self {
        Wake { recovery, api, retry, whole: (started, total), seed, since: now, phase: Phase::Start }
    }

    /// The policy of a request of the waking starting at `now`, when the whole's deadline and
    /// the recovery's budget leave time for it. A waking comes after a request of the whole
    /// that found the service idle, so each of its requests is a later one (number 2).
    fn policy(&self, now: Duration) -> Option<RetryPolicy> {
        let over_budget = now.saturating_sub(self.since) > self.recovery.budget;
        let (started, total) = self.whole;
        (!over_budget).then(|| self.retry.within(started, total, 2, now)).flatten()
    }

    fn seed(&self, salt: u64) -> u64 {
        self.seed ^ salt.wrapping_mul(0x9E37_79B9_7F4A_7C15)
    }

    fn end(&mut self, result: Result<(), WakeError>) -> Next<Result<(), WakeError>> {
        self.phase = Phase::Over;
        Next::Done(result)
    }

    fn out_of_time(&mut self, now: Duration) -> Next<Result<(), WakeError>> {
        let waited = now.saturating_sub(self.since);
        self.end(Err(WakeError::OutOfTime { waited }))
    }

    /// The `awake` command's call, starting at `now` under `retry`.
    fn ask(&self, retry: &RetryPolicy, now: Duration) -> Result<Call<'static, Raw<Management>>, Error> {
        let path = format!(
            "/v1/organizations/{}/services/{}/state",
            self.recovery.organization_id.as_uuid(),
            self.recovery.service_id.as_uuid()
        );
        // Sent raw, not as the typed `UpdateServiceState`: waking needs only a 2xx, whatever the
        // body holds (servers answer the service, or a bare envelope).
        let awake = Raw::<Management>::new(Method::PATCH, path)
            .and_then(|raw| raw.json(&serde_json::json!({"command": "awake"})))
            .map_err(Error::Build)?;
        Call::owned(awake, self.api, retry, self.seed(1), now)
    }
}

impl Machine for Wake<'_> {
    type Output = Result<(), WakeError>;

    fn next(&mut self, now: Duration, mut pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        loop {
            match &mut self.phase {
                Phase::Over => panic!("Wake::next after Next::Done: the waking is over"),
                Phase::Start => {
                    let Some(retry) = self.policy(now) else { return self.out_of_time(now) };
                    match self.ask(&retry, now) {
                        Ok(call) => self.phase = Phase::Asking(Box::new(call)),
                        Err(error) => return self.end(Err(WakeError::Call(error))),
                    }
                }
                Phase::Asking(call) => match call.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    Next::Done(Ok(_)) => self.phase = Phase::Reading { call: None, at: now },
                    Next::Done(Err(error)) => return self.end(Err(WakeError::Call(error))),
                },
                Phase::Reading { call: None, at } => {
                    let at = *at;
                    if at > now {
                        return Next::Wait { until: at };
                    }
                    let Some(retry) = self.policy(now) else { return self.out_of_time(now) };
                    let get = GetService::new(self.recovery.organization_id, self.recovery.service_id);
                    match Call::owned(get, self.api, &retry, self.seed(2), now) {
                        Ok(call) => self.phase = Phase::Reading { call: Some(Box::new(call)), at },
                        Err(error) => return self.end(Err(WakeError::Call(error))),
                    }
                }
                Phase::Reading { call: Some(call), .. } => match call.next(now, pacer.as_deref_mut()) {
                    Next::Send { request, timeout } => return Next::Send { request, timeout },
                    Next::Wait { until } => return Next::Wait { until },
                    Next::Done(Ok(reply)) => match service_running(&reply.value) {
                        Verdict::Done => return self.end(Ok(())),
                        Verdict::Failed => return self.end(Err(WakeError::Stopped)),
                        Verdict::Continue => {
                            // The next read only if it could start in time: else stop now
                            // rather than sleep for nothing.
                            let at = now.saturating_add(self.recovery.interval);
                            if self.policy(at).is_none() {
                                return self.out_of_time(now);
                            }
                            self.phase = Phase::Reading { call: None, at };
                        }
                    },
                    Next::Done(Err(error)) => return self.end(Err(WakeError::Call(error))),
                },
            }
        }
    }

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        match &mut self.phase {
            Phase::Asking(call) => call.take_attempts(),
            Phase::Reading { call: Some(call), .. } => call.take_attempts(),
            _ => Vec::new(),
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
            Phase::Asking(call) => call.receive(outcome, now, wall, pacer),
            Phase::Reading { call: Some(call), .. } => call.receive(outcome, now, wall, pacer),
            _ => panic!("Wake::receive without a request out"),
        }
    }
}

impl fmt::Debug for Wake<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let phase = match self.phase {
            Phase::Start => "starting",
            Phase::Asking(_) => "asking the service to wake",
            Phase::Reading { .. } => "reading the service",
            Phase::Over => "over",
        };
        f.debug_struct("Wake").field("recovery", &self.recovery).field("phase", &phase).finish_non_exhaustive()
    }
}
