//! `Call` driven by a virtual clock: whatever the server answers and however long it takes, a
//! call never re-sends a request that may have reached the server unless it is idempotent,
//! never starts an attempt without its minimum time before the deadline, always ends, and, with
//! a shared pacer, keeps to the limit as the server counts arrivals.

use crate::proto::common;

use std::time::Duration;

use common::{management, response, response_with};
use http::Method;
use pipe_api_proto::call::{Call, Step};
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::{Error, Management, Raw, TransportError, TransportErrorKind};
use proptest::prelude::*;
use time::OffsetDateTime;

const fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

/// What the virtual server does with one attempt.
#[derive(Clone, Debug)]
enum Answer {
    Ok,
    NotFound,
    Unavailable,
    TooMany { reset_ms: Option<u32> },
    Transport(TransportErrorKind),
}

fn any_answer() -> impl Strategy<Value = Answer> {
    prop_oneof![
        Just(Answer::Ok),
        Just(Answer::NotFound),
        Just(Answer::Unavailable),
        proptest::option::of(0u32..40_000).prop_map(|reset_ms| Answer::TooMany { reset_ms }),
        prop_oneof![
            Just(TransportErrorKind::Connect),
            Just(TransportErrorKind::Timeout),
            Just(TransportErrorKind::Io),
            Just(TransportErrorKind::BodyTooLarge),
            Just(TransportErrorKind::Refused),
        ]
        .prop_map(Answer::Transport),
    ]
}

fn outcome(answer: &Answer) -> Result<http::Response<Vec<u8>>, TransportError> {
    match answer {
        Answer::Ok => Ok(response(200, br#"{"status":200,"result":{"ok":true}}"#)),
        Answer::NotFound => Ok(response(404, br#"{"status":404,"error":"NOT_FOUND: x"}"#)),
        Answer::Unavailable => Ok(response(503, b"<html>unavailable</html>")),
        Answer::TooMany { reset_ms: Some(ms) } => {
            let reset = format!("{}.{:03}", ms / 1000, ms % 1000);
            Ok(response_with(429, &[("x-ratelimit-reset", reset.as_str())], br#"{"error":"TOO_MANY_REQUESTS"}"#))
        }
        Answer::TooMany { reset_ms: None } => Ok(response(429, b"")),
        Answer::Transport(kind) => Err(TransportError::from_kind(*kind)),
    }
}

fn endpoint(method: Method) -> Raw<Management> {
    Raw::new(method, "/v1/organizations/o/things").unwrap()
}

/// What one driven call did.
struct Run {
    /// When each attempt was sent, since the call started.
    sends: Vec<Duration>,
    /// For each attempt, whether its outcome proves the server did not act (a 429, a failed
    /// connection).
    not_acted: Vec<bool>,
    result: Result<serde_json::Value, Error>,
}

/// Drives a call to its end on a virtual clock: each attempt takes `latency`, answers come from
/// `answers` in turn (the last one repeats).
fn drive(
    method: Method,
    policy: &RetryPolicy,
    answers: &[Answer],
    latency: Duration,
    pacer: Option<&mut Pacer>,
) -> Run {
    let raw = endpoint(method);
    let api = management();
    let mut now = secs(100);
    let start = now;
    let mut pacer = pacer;
    let mut call = Call::new(&raw, &api, policy, 1, now).unwrap();
    let mut sends = Vec::new();
    let mut not_acted = Vec::new();
    for _ in 0..1_000 {
        match call.next(now, pacer.as_deref_mut()) {
            Step::Send { timeout, .. } => {
                sends.push(now - start);
                let answer = &answers[(sends.len() - 1).min(answers.len() - 1)];
                // An exchange that outlives its timeout ends as a timeout.
                let (took, outcome) = if latency > timeout {
                    (timeout, Err(TransportError::from_kind(TransportErrorKind::Timeout)))
                } else {
                    (latency, outcome(answer))
                };
                not_acted.push(match &outcome {
                    Ok(response) => response.status() == 429,
                    Err(error) => matches!(error.kind(), TransportErrorKind::Connect | TransportErrorKind::Refused),
                });
                now += took;
                call.receive(outcome, now, OffsetDateTime::UNIX_EPOCH, pacer.as_deref_mut());
            }
            Step::Wait { until } => {
                assert!(until > now, "a wait must move time forward");
                now = until;
            }
            Step::Done(result) => return Run { sends, not_acted, result: result.map(|reply| reply.value) },
        }
    }
    panic!("the call did not end in 1,000 steps");
}

fn any_policy() -> impl Strategy<Value = RetryPolicy> {
    (1u32..6, 0u64..2_000, 1u64..90, 0u64..10, 0u64..40).prop_map(
        |(max_attempts, base_ms, deadline, min_attempt, max_server_delay)| {
            let mut policy = RetryPolicy::default();
            policy.max_attempts = max_attempts;
            policy.base_delay = Duration::from_millis(base_ms);
            policy.deadline = secs(deadline);
            policy.min_attempt_time = secs(min_attempt);
            policy.max_server_delay = secs(max_server_delay);
            policy
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 2_000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn a_call_keeps_its_rules_whatever_happens(
        post in any::<bool>(),
        policy in any_policy(),
        answers in prop::collection::vec(any_answer(), 1..8),
        latency_ms in 0u64..40_000,
    ) {
        let method = if post { Method::POST } else { Method::GET };
        let run = drive(method.clone(), &policy, &answers, Duration::from_millis(latency_ms), None);
        // Always at least one attempt (the first has the whole deadline), never more than allowed.
        prop_assert!(!run.sends.is_empty());
        prop_assert!(run.sends.len() <= policy.max_attempts.max(1) as usize);
        // The first attempt went before the deadline; every retry had its least time left.
        prop_assert!(run.sends[0] < policy.deadline);
        let least = policy.min_attempt_time.min(policy.deadline / 2);
        for sent in &run.sends[1..] {
            prop_assert!(*sent + least <= policy.deadline, "sent at {sent:?} under {policy:?}");
        }
        // A POST is sent again only after an answer that proves it was not carried out.
        if post {
            for i in 1..run.sends.len() {
                prop_assert!(run.not_acted[i - 1], "POST re-sent after attempt {i} may have been carried out");
            }
        }
        // A refusal to send (configuration) is never retried.
        if let Some(i) = answers.iter().position(|a| matches!(a, Answer::Transport(TransportErrorKind::Refused))) {
            prop_assert!(run.sends.len() <= i + 1);
        }
        // The error says how many attempts were made.
        if let Err(error) = &run.result {
            if !matches!(error, Error::NotSent(_)) {
                prop_assert_eq!(error.attempts() as usize, run.sends.len());
            }
        }
    }
}

#[test]
fn a_create_is_not_sent_when_pacing_leaves_no_time() {
    // Ten requests just went out: the next may start only in 11 s, but the deadline is 10 s.
    let mut pacer = Pacer::management();
    for _ in 0..10 {
        pacer.record(secs(100));
    }
    let mut policy = RetryPolicy::default();
    policy.deadline = secs(10);
    let run = drive(Method::POST, &policy, &[Answer::Ok], Duration::ZERO, Some(&mut pacer));
    assert!(run.sends.is_empty());
    let error = run.result.unwrap_err();
    assert!(matches!(error, Error::NotSent(_)), "{error:?}");
    assert!(error.to_string().contains("deadline reached before sending"), "{error}");
    assert!(error.to_string().contains("nothing was sent"), "{error}");
}

#[test]
fn a_429_whose_hint_barely_fits_the_deadline_is_not_followed_by_a_create() {
    let mut policy = RetryPolicy::default();
    policy.deadline = secs(30);
    // Retry in 28 s: 2 s would be left, under the 5 s an attempt is given.
    let run = drive(Method::POST, &policy, &[Answer::TooMany { reset_ms: Some(28_000) }], Duration::ZERO, None);
    assert_eq!(run.sends.len(), 1);
    let error = run.result.unwrap_err();
    assert_eq!(error.status().map(|s| s.as_u16()), Some(429));
    // With 6 s left it is retried.
    let run =
        drive(Method::POST, &policy, &[Answer::TooMany { reset_ms: Some(24_000) }, Answer::Ok], Duration::ZERO, None);
    assert_eq!(run.sends, [secs(0), secs(24)]);
    assert!(run.result.is_ok());
}

#[test]
fn a_429_holds_back_every_call_that_shares_the_pacer() {
    let mut pacer = Pacer::new(100, secs(10));
    let run = drive(
        Method::GET,
        &RetryPolicy::default(),
        &[Answer::TooMany { reset_ms: Some(3_000) }, Answer::Ok],
        Duration::ZERO,
        Some(&mut pacer),
    );
    assert_eq!(run.sends, [secs(0), secs(3)]);
    // The back-off was recorded where the next call will see it.
    assert_eq!(pacer.not_before(), secs(103));
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]

    /// Many calls share one pacer and interleave on one clock; the server sees each request up
    /// to half the margin late or early. However it counts, no window of its length holds more
    /// than the limit, and callers are served in the order they asked.
    #[test]
    fn shared_pacing_keeps_the_limit_as_the_server_counts(
        calls in 11usize..40,
        asks_ms in prop::collection::vec(0u64..20_000, 40),
        jitter_ms in prop::collection::vec(-500i64..=500, 40),
    ) {
        let mut pacer = Pacer::management();
        let raw = endpoint(Method::GET);
        let api = management();
        let mut policy = RetryPolicy::default();
        policy.deadline = secs(600);
        // Each call asks at its own time; they take turns in order of asking.
        let mut asks: Vec<Duration> = asks_ms[..calls].iter().map(|&ms| Duration::from_millis(ms)).collect();
        asks.sort();
        let mut sent = Vec::new();
        let mut pending: Vec<(usize, Call<'_, Raw<Management>>, Duration)> =
            asks.iter().enumerate().map(|(i, &at)| (i, Call::new(&raw, &api, &policy, i as u64, at).unwrap(), at)).collect();
        // Event loop: the call whose next event is earliest acts.
        while !pending.is_empty() {
            pending.sort_by_key(|(i, _, at)| (*at, *i));
            let (i, mut call, at) = pending.remove(0);
            match call.next(at, Some(&mut pacer)) {
                Step::Send { .. } => {
                    sent.push((i, at));
                    call.receive(Ok(response(200, br#"{"result":1}"#)), at, OffsetDateTime::UNIX_EPOCH, Some(&mut pacer));
                    pending.push((i, call, at));
                }
                Step::Wait { until } => pending.push((i, call, until)),
                Step::Done(result) => prop_assert!(result.is_ok()),
            }
        }
        prop_assert_eq!(sent.len(), calls);
        // In the order asked.
        let order: Vec<usize> = { let mut by_time = sent.clone(); by_time.sort_by_key(|(i, at)| (*at, *i)); by_time.iter().map(|(i, _)| *i).collect() };
        prop_assert_eq!(order, (0..calls).collect::<Vec<_>>());
        // As the server counts: arrivals shifted by up to ±0.5 s.
        let mut arrivals: Vec<i64> = sent.iter().map(|(i, at)| at.as_millis() as i64 + jitter_ms[*i]).collect();
        arrivals.sort();
        for (k, first) in arrivals.iter().enumerate() {
            let in_window = arrivals[k..].iter().take_while(|&&a| a < first + 10_000).count();
            prop_assert!(in_window <= 10, "{in_window} arrivals within 10 s from {first} ms");
        }
    }
}

#[test]
fn the_first_attempt_goes_whenever_the_deadline_has_not_passed() {
    // On a real clock the first decision comes a little after the start: a deadline no longer
    // than `min_attempt_time` (5 s) once ended every call there, with nothing sent.
    let (raw, api) = (endpoint(Method::GET), management());
    for deadline in [secs(2), secs(5), Duration::from_millis(1)] {
        let policy = RetryPolicy::default().deadline(deadline);
        let start = secs(100);
        let mut call = Call::new(&raw, &api, &policy, 1, start).unwrap();
        match call.next(start + Duration::from_micros(3), None) {
            Step::Send { timeout, .. } => assert_eq!(timeout, deadline - Duration::from_micros(3)),
            other => panic!("{deadline:?}: {other:?}"),
        }
    }
    // Past the deadline at its start, nothing is sent.
    let policy = RetryPolicy::default().deadline(secs(2));
    let mut call = Call::new(&raw, &api, &policy, 1, secs(100)).unwrap();
    assert!(matches!(call.next(secs(102), None), Step::Done(Err(Error::NotSent(_)))));
}

#[test]
fn a_short_deadline_still_follows_a_retry_after_that_fits() {
    // A 503 asking for 2 s under a 5 s deadline: the retry leaves 3 s, more than half the
    // deadline, and goes.
    let policy = RetryPolicy::default().deadline(secs(5));
    let (raw, api) = (endpoint(Method::GET), management());
    let start = secs(100);
    let mut call = Call::new(&raw, &api, &policy, 1, start).unwrap();
    let mut now = start + Duration::from_micros(3);
    let mut sent = 0;
    let result = loop {
        match call.next(now, None) {
            Step::Send { .. } => {
                sent += 1;
                now += Duration::from_millis(20);
                let answer = if sent == 1 {
                    response_with(503, &[("retry-after", "2")], b"busy")
                } else {
                    response(200, br#"{"status":200,"result":{"ok":true}}"#)
                };
                call.receive(Ok(answer), now, OffsetDateTime::UNIX_EPOCH, None);
            }
            Step::Wait { until } => now = until,
            Step::Done(result) => break result,
        }
    };
    assert_eq!(sent, 2);
    assert!(result.is_ok(), "{result:?}");
}

#[test]
fn no_retry_starts_with_no_time_left() {
    // Found by the property above: with no least attempt time, a GET whose first attempt took
    // the whole deadline was tried again at the deadline, with a timeout of zero.
    let policy = RetryPolicy::default()
        .deadline(secs(1))
        .min_attempt_time(Duration::ZERO)
        .backoff(Duration::ZERO, Duration::ZERO);
    let run = drive(Method::GET, &policy, &[Answer::Unavailable], Duration::from_millis(1001), None);
    assert_eq!(run.sends, [Duration::ZERO]);
}
