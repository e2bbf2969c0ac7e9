//! The ureq `Client`'s retries, pacing, deadlines and waiting, driven by a `VirtualClock` over
//! the fake's in-process transport: the client's waits move the virtual clock (and the fake's
//! manual clock with it) instead of sleeping, so every test runs in no wall time and sees the
//! same times on every run. The real-socket tests (`fault_matrix.rs`, `ureq_transport.rs`)
//! keep what only sockets show.

use std::sync::{Arc, Mutex};
use std::time::Duration;

use http::{Method, Request, Response};
use pipe_api_fake::{
    DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake, Fault, FaultRule,
};
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::{Error, Transport, TransportError};
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::{Pipe, PipeState};
use pipe_api_ureq::{Client, Clock, Verdict, VirtualClock, WaitError, WaitPolicy};

const BASE: &str = "https://api.example.com";
const PIPE: &str = "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

/// A virtual clock that moves the fake's clock along with it.
fn clock_for(fake: &Fake) -> VirtualClock {
    let follower = fake.clone();
    VirtualClock::new(fake.now()).follow_with(move |step| follower.advance(step))
}

/// A client over the fake, on `clock`, with the default retry policy (real-sized delays:
/// they cost nothing here) and optional pacing; every request's virtual send time is recorded.
fn client(fake: &Fake, clock: &VirtualClock, pacer: Option<Pacer>) -> (Client, Arc<Mutex<Vec<Duration>>>) {
    let sent = Arc::new(Mutex::new(Vec::new()));
    let (record, at, inner) = (Arc::clone(&sent), clock.clone(), fake.clone());
    let transport = move |request: Request<Vec<u8>>| -> Result<Response<Vec<u8>>, TransportError> {
        record.lock().unwrap().push(at.elapsed());
        inner.send(request)
    };
    let mut builder = Client::builder()
        .management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(RetryPolicy::default())
        .transport(transport)
        .clock(clock.clone());
    if let Some(pacer) = pacer {
        builder = builder.pacing(pacer);
    }
    (builder.build().unwrap(), sent)
}

#[test]
fn a_429_is_waited_out_for_as_long_as_its_reset_says() {
    let fake = Fake::demo();
    let clock = clock_for(&fake);
    let (client, sent) = client(&fake, &clock, None);
    fake.inject(FaultRule::next(1, Fault::rate_limited("3.2")));

    client.get_service(ORG, SERVICE).unwrap();

    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 2);
    // The second attempt waited for the reset, and the backoff added at most its cap.
    let waited = sent[1] - sent[0];
    assert!(waited >= Duration::from_millis(3200), "{waited:?}");
    assert!(waited <= Duration::from_millis(3200) + RetryPolicy::default().max_delay, "{waited:?}");
}

#[test]
fn a_get_is_retried_through_gateway_errors_and_a_create_never_is() {
    let fake = Fake::demo();
    let clock = clock_for(&fake);
    let (client, sent) = client(&fake, &clock, None);

    fake.inject(FaultRule::next(2, Fault::unavailable("1")).method(Method::GET));
    client.get_service(ORG, SERVICE).unwrap();
    assert_eq!(sent.lock().unwrap().len(), 3);

    sent.lock().unwrap().clear();
    fake.inject(FaultRule::next(1, Fault::bad_gateway_html()).method(Method::POST));
    let request = create_pipe_requests("virtual").into_iter().next().unwrap();
    let error = client.create_pipe(ORG, SERVICE, request).unwrap_err();
    assert_eq!(error.status().map(|s| s.as_u16()), Some(502), "{error}");
    assert_eq!(sent.lock().unwrap().len(), 1, "a create that may have reached the server is never sent again");
}

#[test]
fn a_call_that_keeps_failing_ends_within_its_deadline_having_slept_no_wall_time() {
    let fake = Fake::demo();
    let clock = clock_for(&fake);
    let (client, sent) = client(&fake, &clock, None);
    fake.inject(FaultRule::next(usize::MAX, Fault::unavailable("20")).method(Method::GET));

    let error = client.get_service(ORG, SERVICE).unwrap_err();

    let policy = RetryPolicy::default();
    assert!(matches!(error, Error::Api(_) | Error::NotSent(_)), "{error:?}");
    let sent = sent.lock().unwrap();
    assert!(sent.len() >= 2 && sent.len() <= policy.max_attempts as usize, "{}", sent.len());
    // No attempt started without its minimum time before the deadline.
    assert!(sent.iter().all(|at| *at + policy.min_attempt_time <= policy.deadline), "{sent:?}");
    assert!(clock.elapsed() <= policy.deadline, "{:?}", clock.elapsed());
}

#[test]
fn pacing_never_puts_more_than_the_limit_in_any_window_as_the_server_counts() {
    let fake = Fake::demo();
    let clock = clock_for(&fake);
    let pacer = Pacer::management();
    let (limit, window) = (pacer.limit() as usize, pacer.window());
    let (client, sent) = client(&fake, &clock, Some(pacer));
    // A 429 in the middle makes the pacer back off for everyone as well.
    fake.inject(FaultRule::path_ends_with("/pipes", Fault::rate_limited("4")).times(1));

    for i in 0..35 {
        if i == 17 {
            client.list_pipes(ORG, SERVICE).unwrap();
        } else {
            client.get_service(ORG, SERVICE).unwrap();
        }
    }

    let sent = sent.lock().unwrap();
    assert_eq!(sent.len(), 36, "35 calls and one retry after the 429");
    for (i, start) in sent.iter().enumerate() {
        let in_window = sent[i..].iter().take_while(|at| **at < *start + window).count();
        assert!(in_window <= limit, "{in_window} requests in the window starting at {start:?}: {sent:?}");
    }
    // Paced, not stalled: 36 requests at 10 per 10 s (with the margin) take a little over 30 s.
    assert!(clock.elapsed() < Duration::from_secs(60), "{:?}", clock.elapsed());
}

#[test]
fn a_wait_that_never_settles_times_out_at_its_deadline_in_virtual_time() {
    let fake = Fake::demo();
    let pipe = Pipe::new(PIPE.parse().unwrap()).name("orders").state(PipeState::Provisioning);
    fake.seed_pipe(ORG, SERVICE, pipe);
    let clock = clock_for(&fake);
    let (client, sent) = client(&fake, &clock, None);
    let policy = WaitPolicy::default();
    // A condition that never holds, whatever the fake does with the pipe over time.
    let never = |_: &Pipe| Verdict::Continue;

    let error = client.wait_for_pipe(ORG, SERVICE, PIPE.parse().unwrap(), never, policy.clone()).unwrap_err();

    match &error {
        WaitError::TimedOut { last: Some(last), polls, .. } => {
            assert_eq!(last.id, PIPE.parse().unwrap());
            assert_eq!(*polls as usize, sent.lock().unwrap().len());
        }
        other => panic!("{other:?}"),
    }
    assert!(clock.elapsed() <= policy.deadline, "{:?}", clock.elapsed());
}

#[test]
fn every_attempt_is_recorded_logged_and_observed() {
    use pipe_api_ureq::AttemptRecord;
    use pipe_api_ureq::proto::attempts::{AttemptOutcome, WaitCause};

    let fake = Fake::demo();
    let clock = clock_for(&fake);
    let observed: Arc<Mutex<Vec<AttemptRecord>>> = Arc::default();
    let seen = Arc::clone(&observed);
    let client = Client::builder()
        .management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET)
        .transport(fake.clone())
        .clock(clock.clone())
        .on_attempt(move |record| seen.lock().unwrap().push(record.clone()))
        .build()
        .unwrap();
    fake.inject(FaultRule::next(1, Fault::unavailable("2")));
    fake.inject(FaultRule::next(1, Fault::rate_limited("1.5")));

    let reply = client.call(&pipe_api_proto::GetService::new(ORG, SERVICE)).unwrap();

    let observed = observed.lock().unwrap().clone();
    assert_eq!(observed, reply.attempts.records, "the observer sees what the reply carries");
    let outcomes: Vec<_> = observed.iter().map(|record| (record.number, record.outcome, record.cause)).collect();
    assert_eq!(
        outcomes,
        [
            (1, AttemptOutcome::Status(http::StatusCode::SERVICE_UNAVAILABLE), WaitCause::Immediate),
            (2, AttemptOutcome::Status(http::StatusCode::TOO_MANY_REQUESTS), WaitCause::ServerHint),
            (3, AttemptOutcome::Status(http::StatusCode::OK), WaitCause::ServerHint),
        ]
    );
    assert_eq!(observed[1].waited, Duration::from_secs(2), "Retry-After: 2");
    assert_eq!(observed[2].waited, Duration::from_millis(1500), "the reset");
    for record in &observed {
        assert_eq!(record.path, "/v1/organizations/{organization_id}/services/{service_id}");
        let shown = record.to_string();
        assert!(shown.starts_with("get_service attempt "), "{shown}");
        assert!(!shown.contains(DEMO_KEY_SECRET) && !shown.contains(&ORG.to_string()), "{shown}");
    }
    assert!(observed[2].request_id.is_some(), "the success's request id");
}

#[test]
fn a_hint_over_the_cap_says_so() {
    // A 503 asking for 120 s, over the 30 s the default policy honours: one attempt, and the
    // error says why there was no second.
    let fake = Fake::demo();
    let clock = clock_for(&fake);
    let (client, sent) = client(&fake, &clock, None);
    fake.inject(FaultRule::next(1, Fault::unavailable("120")));

    let error = client.get_service(ORG, SERVICE).unwrap_err();

    assert_eq!(sent.lock().unwrap().len(), 1);
    let shown = error.to_string();
    assert!(shown.contains("asked to wait 120.0 s, more than the 30.0 s"), "{shown}");
    let history = error.history().unwrap();
    assert_eq!(history.records.len(), 1);
    assert_eq!(history.stop, Some(pipe_api_proto::retry::StopReason::ServerDelayTooLong));
}
