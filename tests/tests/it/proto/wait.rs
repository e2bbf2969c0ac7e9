//! `Wait` driven by a virtual clock: every terminal state ends the wait (a failed pipe is a
//! failure carrying it, not a timeout), no request is out past the wait's deadline, polls are
//! spaced by the backoff, and an idle service is woken only when asked and only when idle.

use crate::proto::common;

use std::time::Duration;

use common::{management, org, pipe, response, service};
use pipe_api_proto::GetPipe;
use pipe_api_proto::call::{Machine, Next};
use pipe_api_proto::retry::RetryPolicy;
use pipe_api_proto::types::{Pipe, PipeState};
use pipe_api_proto::wait::{
    Verdict, Wait, WaitError, WaitPolicy, pipe_running, pipe_settled, pipe_stopped, service_running,
};
use proptest::prelude::*;
use time::OffsetDateTime;

const ALL_STATES: [PipeState; 15] = [
    PipeState::Unknown,
    PipeState::Provisioning,
    PipeState::Running,
    PipeState::Degraded,
    PipeState::Stopping,
    PipeState::Stopped,
    PipeState::Failed,
    PipeState::Completed,
    PipeState::InternalError,
    PipeState::Setup,
    PipeState::Snapshot,
    PipeState::Paused,
    PipeState::Pausing,
    PipeState::Modifying,
    PipeState::Resync,
];

fn state_name(state: &PipeState) -> String {
    serde_json::to_value(state).unwrap().as_str().unwrap().to_owned()
}

fn pipe_body(state: &PipeState) -> Vec<u8> {
    format!(r#"{{"status":200,"result":{{"id":"{}","state":"{}"}}}}"#, common::PIPE, state_name(state)).into_bytes()
}

fn retry() -> RetryPolicy {
    let mut retry = RetryPolicy::default();
    retry.min_attempt_time = Duration::from_secs(2);
    retry
}

/// What one driven wait did.
struct Run {
    /// When each request was sent, since the wait started, with its timeout.
    sends: Vec<(Duration, Duration, String)>,
    ended: Duration,
    result: Result<Pipe, WaitError<Pipe>>,
}

/// Drives a wait for the pipe on a virtual clock; `answer` answers each request (by its
/// method and path and the number of pipe polls so far); each exchange takes `latency`.
fn drive(
    policy: WaitPolicy,
    condition: fn(&Pipe) -> Verdict,
    latency: Duration,
    mut answer: impl FnMut(&http::Request<Vec<u8>>, usize) -> http::Response<Vec<u8>>,
) -> Run {
    let (api, get) = (management(), GetPipe::new(org(), service(), pipe()));
    let start = Duration::from_secs(1000);
    let mut now = start;
    let mut wait = Wait::new(&get, &api, condition, policy, retry(), 3, now);
    let mut sends = Vec::new();
    let mut pipe_polls = 0;
    for _ in 0..10_000 {
        match wait.next(now, None) {
            Next::Send { request, timeout } => {
                let what = format!("{} {}", request.method(), request.uri().path());
                if what.ends_with(common::PIPE) {
                    pipe_polls += 1;
                }
                sends.push((now - start, timeout, what));
                let response = answer(&request, pipe_polls);
                now += latency.min(timeout);
                wait.receive(Ok(response), now, OffsetDateTime::UNIX_EPOCH, None);
            }
            Next::Wait { until } => {
                assert!(until > now, "a wait must move time forward");
                now = until;
            }
            Next::Done(result) => return Run { sends, ended: now - start, result },
        }
    }
    panic!("the wait did not end in 10,000 steps");
}

fn any_state() -> impl Strategy<Value = PipeState> {
    proptest::sample::select(ALL_STATES.to_vec())
}

fn any_policy() -> impl Strategy<Value = WaitPolicy> {
    (100u64..3_000, 1.0f64..3.0, 1u64..20, 5u64..400).prop_map(|(initial_ms, factor, cap, deadline)| {
        let mut policy = WaitPolicy::default();
        policy.initial_delay = Duration::from_millis(initial_ms);
        policy.factor = factor;
        policy.max_delay = Duration::from_secs(cap).max(policy.initial_delay);
        policy.deadline = Duration::from_secs(deadline);
        policy
    })
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Whatever states the pipe goes through: the wait ends at the first settled state with it,
    /// at the first failed one with a failure carrying it, or at the deadline with the last
    /// pipe seen; no request is out past the deadline; polls are spaced by the backoff.
    #[test]
    fn a_wait_ends_at_the_first_terminal_state_and_never_passes_its_deadline(
        states in proptest::collection::vec(any_state(), 1..40),
        policy in any_policy(),
        latency_ms in 0u64..3_000,
    ) {
        let latency = Duration::from_millis(latency_ms);
        let run = drive(policy.clone(), pipe_settled, latency, |_, poll| {
            response(200, pipe_body(&states[(poll - 1).min(states.len() - 1)]))
        });
        // Never past the deadline: no exchange may outlive it, and the wait ends by then.
        for (at, timeout, _) in &run.sends {
            prop_assert!(*at + *timeout <= policy.deadline, "sent at {at:?} with {timeout:?}");
        }
        prop_assert!(run.ended <= policy.deadline);
        // Spaced by the backoff: the n-th pause after the n-th answer.
        for (n, pair) in run.sends.windows(2).enumerate() {
            let gap = pair[1].0 - pair[0].0;
            prop_assert!(gap >= latency + policy.delay(n as u32), "gap {gap:?} after poll {n}");
        }
        let polls = run.sends.len();
        let seen = states[(polls - 1).min(states.len() - 1)].clone();
        let first_terminal = states.iter().position(|s| pipe_settled(&Pipe::new(pipe()).state(s.clone())) != Verdict::Continue);
        match &run.result {
            Ok(pipe) => {
                prop_assert_eq!(pipe.state.clone(), Some(seen.clone()));
                prop_assert_eq!(Some(polls - 1), first_terminal);
                prop_assert!(matches!(seen, PipeState::Running | PipeState::Completed | PipeState::Snapshot
                    | PipeState::Stopped | PipeState::Paused));
            }
            Err(WaitError::Failed { last, polls: counted, .. }) => {
                prop_assert_eq!(last.state.clone(), Some(seen.clone()));
                prop_assert_eq!(*counted as usize, polls);
                prop_assert_eq!(Some(polls - 1), first_terminal);
                prop_assert!(matches!(seen, PipeState::Failed | PipeState::InternalError));
            }
            Err(WaitError::TimedOut { last, polls: counted, .. }) => {
                // Only non-terminal states were seen, and the last of them is carried.
                prop_assert!(first_terminal.is_none_or(|first| first >= polls));
                prop_assert_eq!(*counted as usize, polls);
                prop_assert_eq!(last.as_ref().and_then(|p| p.state.clone()), Some(seen));
                // It stopped only because the next poll could not finish before the deadline.
                let next = run.ended + policy.delay(polls as u32 - 1);
                prop_assert!(next + retry().min_attempt_time > policy.deadline, "gave up at {:?}", run.ended);
            }
            Err(other) => prop_assert!(false, "unexpected {other:?}"),
        }
    }
}

#[test]
fn every_state_is_judged_as_the_service_notes_say() {
    for state in ALL_STATES {
        let pipe = Pipe::new(pipe()).state(state.clone());
        let expected = match state {
            PipeState::Running
            | PipeState::Completed
            | PipeState::Snapshot
            | PipeState::Stopped
            | PipeState::Paused => Verdict::Done,
            PipeState::Failed | PipeState::InternalError => Verdict::Failed,
            _ => Verdict::Continue,
        };
        assert_eq!(pipe_settled(&pipe), expected, "{state:?}");
        let stopped = match state {
            PipeState::Stopped | PipeState::Paused => Verdict::Done,
            PipeState::Failed | PipeState::InternalError => Verdict::Failed,
            _ => Verdict::Continue,
        };
        assert_eq!(pipe_stopped(&pipe), stopped, "{state:?}");
    }
}

#[test]
fn a_service_runs_only_when_its_state_is_running() {
    let parse = |state: &str| -> pipe_api_proto::types::Service {
        serde_json::from_str(&format!(r#"{{"id":"{}","state":"{state}"}}"#, common::SERVICE)).unwrap()
    };
    assert_eq!(service_running(&parse("running")), Verdict::Done);
    assert_eq!(service_running(&parse("partially_running")), Verdict::Continue);
    assert_eq!(service_running(&parse("awaking")), Verdict::Continue);
    assert_eq!(service_running(&parse("stopped")), Verdict::Failed);
}

const IDLE: &[u8] = br#"{"status":424,"error":"FAILED_DEPENDENCY: Service is not running. Current state: idle"}"#;

fn service_body(state: &str) -> Vec<u8> {
    format!(r#"{{"status":200,"result":{{"id":"{}","state":"{state}"}}}}"#, common::SERVICE).into_bytes()
}

#[test]
fn an_idle_service_is_woken_read_every_five_seconds_until_running_then_polled_again() {
    let policy = WaitPolicy::default().with_idle_recovery(org(), service());
    let mut reads = 0;
    let run = drive(policy, pipe_settled, Duration::from_millis(100), |request, polls| {
        let path = request.uri().path();
        if path.ends_with("/state") {
            assert_eq!(request.method(), http::Method::PATCH);
            assert_eq!(serde_json::from_slice::<serde_json::Value>(request.body()).unwrap()["command"], "awake");
            return response(200, br#"{"status":200,"result":null}"#);
        }
        if path.ends_with(common::SERVICE) {
            reads += 1;
            let state = ["idle", "awaking", "partially_running", "running"][reads - 1];
            return response(200, service_body(state));
        }
        if polls == 1 { response(424, IDLE) } else { response(200, pipe_body(&PipeState::Running)) }
    });
    assert_eq!(run.result.unwrap().state, Some(PipeState::Running));
    let what: Vec<&str> = run.sends.iter().map(|(_, _, what)| what.split('/').next_back().unwrap()).collect();
    assert_eq!(
        what,
        [common::PIPE, "state", common::SERVICE, common::SERVICE, common::SERVICE, common::SERVICE, common::PIPE]
    );
    // The service is read every 5 s (after each 100 ms answer), and the pipe at once after.
    let at: Vec<Duration> = run.sends.iter().map(|(at, _, _)| *at).collect();
    for pair in at[2..6].windows(2) {
        assert_eq!(pair[1] - pair[0], Duration::from_millis(5100));
    }
    assert_eq!(at[6] - at[5], Duration::from_millis(100));
}

#[test]
fn without_recovery_an_idle_service_ends_the_wait_with_the_424() {
    let run = drive(WaitPolicy::default(), pipe_settled, Duration::ZERO, |_, _| response(424, IDLE));
    match run.result {
        Err(WaitError::Call { error, last: None, .. }) => assert_eq!(error.status().map(|s| s.as_u16()), Some(424)),
        other => panic!("{other:?}"),
    }
    assert_eq!(run.sends.len(), 1);
}

#[test]
fn a_stopped_service_is_not_woken_and_idle_twice_in_a_row_ends_the_wait() {
    let policy = WaitPolicy::default().with_idle_recovery(org(), service());
    let stopped = br#"{"status":424,"error":"FAILED_DEPENDENCY: Service is not running. Current state: stopped"}"#;
    let run = drive(policy.clone(), pipe_settled, Duration::ZERO, |_, _| response(424, stopped));
    assert!(matches!(run.result, Err(WaitError::ServiceStopped { last: None, .. })), "{:?}", run.result);
    assert_eq!(run.sends.len(), 1, "no PATCH");

    // Woken, then idle again at once: the original call is retried once only.
    let run = drive(policy, pipe_settled, Duration::ZERO, |request, _| {
        if request.uri().path().ends_with("/state") {
            response(200, br#"{"status":200,"result":null}"#)
        } else if request.uri().path().ends_with(common::SERVICE) {
            response(200, service_body("running"))
        } else {
            response(424, IDLE)
        }
    });
    assert!(matches!(&run.result, Err(WaitError::Call { error, .. }) if error.status().is_some()), "{:?}", run.result);
    assert_eq!(run.sends.len(), 4, "poll, wake, read, poll");
}

#[test]
fn a_wait_on_a_service_that_stops_while_waking_fails_with_service_stopped() {
    let policy = WaitPolicy::default().with_idle_recovery(org(), service());
    let mut polls_seen = 0;
    let run = drive(policy, pipe_settled, Duration::ZERO, |request, polls| {
        polls_seen = polls;
        if request.uri().path().ends_with("/state") {
            response(200, br#"{"status":200,"result":null}"#)
        } else if request.uri().path().ends_with(common::SERVICE) {
            response(200, service_body("stopped"))
        } else {
            response(424, IDLE)
        }
    });
    assert!(matches!(run.result, Err(WaitError::ServiceStopped { .. })), "{:?}", run.result);
    assert_eq!(polls_seen, 1);
}

#[test]
fn a_wait_error_shows_its_last_value_bounded_and_without_the_credentials() {
    // A server that echoes the request's `Authorization` into the polled pipe's name, and a
    // name of 1 MiB: the error's `Debug` (what `main() -> Result` prints) once held both whole.
    let mut policy = WaitPolicy::default();
    policy.deadline = Duration::from_secs(30);
    for echo in [true, false] {
        let mut authorization = String::new();
        let run = drive(policy.clone(), pipe_stopped, Duration::from_millis(50), |request, _| {
            authorization = request.headers()["authorization"].to_str().unwrap().to_owned();
            let echoed = if echo { authorization.as_str() } else { "" };
            let name = format!("{echoed} {}", "n".repeat(1 << 20));
            let body =
                format!(r#"{{"status":200,"result":{{"id":"{}","name":"{name}","state":"Running"}}}}"#, common::PIPE);
            response(200, body.as_bytes())
        });
        let error = run.result.unwrap_err();
        assert!(error.is_timeout(), "{error}");
        let last = error.last().expect("the last pipe");
        assert_eq!(last.name.as_deref().map(str::len).map(|len| len >= 1 << 20), Some(true), "the value is whole");
        let debug = format!("{error:?}");
        assert!(debug.len() <= 4096, "Debug of {} bytes", debug.len());
        let (_, encoded) = authorization.split_once(' ').unwrap();
        assert!(!debug.contains(encoded), "{debug}");
    }
}

#[test]
fn a_wait_whose_deadline_allows_one_poll_polls_once() {
    // A 3 s deadline, under the 5 s a later poll is given: the pipe is already running, and the
    // wait once timed out after 0 polls and 0 requests.
    let policy = WaitPolicy::default().deadline(Duration::from_secs(3));
    let run =
        drive(policy, pipe_running, Duration::from_millis(50), |_, _| response(200, pipe_body(&PipeState::Running)));
    assert_eq!(run.sends.len(), 1);
    assert_eq!(run.result.unwrap().state, Some(PipeState::Running));
}

#[test]
fn a_frozen_pipe_ends_the_wait_at_its_deadline_naming_its_state() {
    let policy = WaitPolicy::default().deadline(Duration::from_secs(7));
    let run = drive(policy, pipe_running, Duration::from_millis(50), |_, _| {
        response(200, pipe_body(&PipeState::Provisioning))
    });
    let error = run.result.unwrap_err();
    assert!(error.is_timeout());
    assert_eq!(error.last_state(), Some("Provisioning"));
    let shown = error.to_string();
    for part in ["7.0 s deadline", "Provisioning", &format!("after {} polls", run.sends.len())] {
        assert!(shown.contains(part), "{shown}");
    }
    // Polls go on while half the deadline is left, not the 5 s a poll is given by default.
    assert!(run.sends.len() >= 3, "{} polls", run.sends.len());
}
