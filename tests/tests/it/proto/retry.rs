//! Retry and pacing decisions: the decision table, backoff, server hints, limits, and
//! properties. No test reads a clock: every instant is a parameter.

use std::time::Duration;

use http::{HeaderMap, HeaderName, HeaderValue, Method, StatusCode};
use pipe_api_proto::retry::{
    Attempt, Decision, Jitter, Outcome, Pacer, RetryAfter, RetryHints, RetryPolicy, SeededJitter, StopReason,
    is_idempotent,
};
use proptest::prelude::*;
use time::OffsetDateTime;
use time::macros::datetime;

// ---------------------------------------------------------------------------------------------
// Helpers
// ---------------------------------------------------------------------------------------------

/// The caller's wall clock in every test: 10 s before the RFC 9110 example date.
const NOW: OffsetDateTime = datetime!(1994-11-06 08:49:27 UTC);

const fn ms(n: u64) -> Duration {
    Duration::from_millis(n)
}

const fn secs(n: u64) -> Duration {
    Duration::from_secs(n)
}

fn headers(pairs: &[(&str, &[u8])]) -> HeaderMap {
    let mut map = HeaderMap::new();
    for (name, value) in pairs {
        map.append(HeaderName::from_bytes(name.as_bytes()).unwrap(), HeaderValue::from_bytes(value).unwrap());
    }
    map
}

fn hints(pairs: &[(&str, &str)]) -> RetryHints {
    let pairs: Vec<(&str, &[u8])> = pairs.iter().map(|(n, v)| (*n, v.as_bytes())).collect();
    RetryHints::from_headers(&headers(&pairs))
}

fn decide_full(
    policy: &RetryPolicy,
    method: &Method,
    outcome: Outcome<'_>,
    attempt: u32,
    elapsed: Duration,
    unit: f64,
) -> Decision {
    let mut jitter = move || unit;
    policy.decide(&Attempt::new(method, outcome, attempt, elapsed, NOW), &mut jitter)
}

/// The default policy, first attempt, nothing elapsed, jitter 0.5.
fn decide(method: &Method, outcome: Outcome<'_>) -> Decision {
    decide_full(&RetryPolicy::default(), method, outcome, 1, Duration::ZERO, 0.5)
}

fn response(status: u16, hints: &RetryHints) -> Outcome<'_> {
    Outcome::Response { status: StatusCode::from_u16(status).unwrap(), hints }
}

/// A policy that lets attempts and time run long, to look at the backoff alone.
fn roomy() -> RetryPolicy {
    let mut policy = RetryPolicy::default();
    policy.max_attempts = u32::MAX;
    policy.deadline = Duration::MAX;
    policy
}

fn backoff(attempt: u32, unit: f64) -> Decision {
    decide_full(&roomy(), &Method::GET, Outcome::ConnectFailed, attempt, Duration::ZERO, unit)
}

// ---------------------------------------------------------------------------------------------
// The decision table
// ---------------------------------------------------------------------------------------------

/// Backoff at attempt 1 with jitter 0.5 and base 250 ms.
const B: Decision = Decision::RetryAfter(ms(125));
/// The server's X-RateLimit-Reset: 3.2.
const H: Decision = Decision::RetryAfter(ms(3200));
const S: Decision = Decision::Stop(StopReason::Succeeded);
const N: Decision = Decision::Stop(StopReason::NotRetryable);
const U: Decision = Decision::Stop(StopReason::UnsafeToRepeat);

#[derive(Clone, Copy, Debug)]
enum Case {
    ConnectFailed,
    FailedAfterSend,
    Status(u16),
    StatusWithHints(u16),
}

#[test]
fn decision_table() {
    use Case::*;
    let methods = [Method::GET, Method::PUT, Method::DELETE, Method::POST, Method::PATCH];
    #[rustfmt::skip]
    let table: &[(Case, [Decision; 5])] = &[
        //                          GET PUT DELETE POST PATCH
        (ConnectFailed,             [B, B, B, B, B]),
        (FailedAfterSend,           [B, B, B, U, U]),
        (Status(200),               [S, S, S, S, S]),
        (Status(201),               [S, S, S, S, S]),
        (Status(204),               [S, S, S, S, S]),
        (Status(101),               [N, N, N, N, N]),
        (Status(301),               [N, N, N, N, N]),
        (Status(400),               [N, N, N, N, N]),
        (Status(401),               [N, N, N, N, N]),
        (Status(403),               [N, N, N, N, N]),
        (Status(404),               [N, N, N, N, N]),
        (Status(409),               [N, N, N, N, N]),
        (Status(424),               [N, N, N, N, N]),
        (Status(429),               [B, B, B, B, B]),
        (StatusWithHints(429),      [H, H, H, H, H]),
        (Status(500),               [N, N, N, N, N]),
        (StatusWithHints(500),      [N, N, N, N, N]),
        (Status(501),               [N, N, N, N, N]),
        (Status(502),               [B, B, B, U, U]),
        (Status(503),               [B, B, B, U, U]),
        (StatusWithHints(503),      [H, H, H, U, U]),
        (Status(504),               [B, B, B, U, U]),
        (StatusWithHints(504),      [H, H, H, U, U]),
        (Status(505),               [N, N, N, N, N]),
    ];
    let none = RetryHints::default();
    let some = hints(&[("X-RateLimit-Reset", "3.2")]);
    for (case, expected) in table {
        for (method, expected) in methods.iter().zip(expected) {
            let outcome = match *case {
                ConnectFailed => Outcome::ConnectFailed,
                FailedAfterSend => Outcome::FailedAfterSend,
                Status(status) => response(status, &none),
                StatusWithHints(status) => response(status, &some),
            };
            assert_eq!(decide(method, outcome), *expected, "{method} {case:?}");
        }
    }
}

#[test]
fn idempotent_methods() {
    for method in [Method::GET, Method::HEAD, Method::OPTIONS, Method::PUT, Method::DELETE, Method::TRACE] {
        assert!(is_idempotent(&method), "{method}");
    }
    for method in [Method::POST, Method::PATCH, Method::CONNECT, Method::from_bytes(b"PURGE").unwrap()] {
        assert!(!is_idempotent(&method), "{method}");
    }
}

#[test]
fn a_refusal_to_send_is_never_retried() {
    for method in [Method::GET, Method::POST, Method::DELETE] {
        assert_eq!(decide(&method, Outcome::Refused), N, "{method}");
        assert_eq!(decide_full(&roomy(), &method, Outcome::Refused, 1, Duration::ZERO, 0.5), N, "{method}");
    }
}

#[test]
fn other_idempotent_methods_retry_after_send() {
    for method in [Method::HEAD, Method::OPTIONS, Method::TRACE] {
        assert_eq!(decide(&method, Outcome::FailedAfterSend), B, "{method}");
    }
    let purge = Method::from_bytes(b"PURGE").unwrap();
    assert_eq!(decide(&purge, Outcome::FailedAfterSend), U);
    assert_eq!(decide(&purge, Outcome::ConnectFailed), B);
}

// ---------------------------------------------------------------------------------------------
// Backoff
// ---------------------------------------------------------------------------------------------

#[test]
fn backoff_doubles_from_the_base() {
    assert_eq!(backoff(1, 0.5), Decision::RetryAfter(ms(125)));
    assert_eq!(backoff(2, 0.5), Decision::RetryAfter(ms(250)));
    assert_eq!(backoff(3, 0.5), Decision::RetryAfter(ms(500)));
    assert_eq!(backoff(4, 0.5), Decision::RetryAfter(ms(1000)));
    assert_eq!(backoff(6, 0.5), Decision::RetryAfter(ms(4000)));
}

#[test]
fn backoff_is_capped_at_max_delay() {
    // 250 ms * 2^5 = 8 s is the cap; after that it stays there.
    assert_eq!(backoff(7, 0.5), Decision::RetryAfter(secs(4)));
    assert_eq!(backoff(8, 0.5), Decision::RetryAfter(secs(4)));
    assert_eq!(backoff(33, 0.5), Decision::RetryAfter(secs(4)));
    assert_eq!(backoff(u32::MAX - 1, 0.5), Decision::RetryAfter(secs(4)));

    let mut policy = roomy();
    policy.max_delay = ms(300);
    let d = decide_full(&policy, &Method::GET, Outcome::ConnectFailed, 3, Duration::ZERO, 0.5);
    assert_eq!(d, Decision::RetryAfter(ms(150)));

    // A huge base saturates instead of overflowing.
    policy.base_delay = Duration::MAX;
    policy.max_delay = secs(8);
    let d = decide_full(&policy, &Method::GET, Outcome::ConnectFailed, 40, Duration::ZERO, 0.5);
    assert_eq!(d, Decision::RetryAfter(secs(4)));
}

#[test]
fn attempt_zero_is_read_as_the_first() {
    assert_eq!(backoff(0, 0.5), Decision::RetryAfter(ms(125)));
}

#[test]
fn jitter_bounds() {
    assert_eq!(backoff(1, 0.0), Decision::RetryAfter(Duration::ZERO));
    assert_eq!(backoff(3, 0.0), Decision::RetryAfter(Duration::ZERO));

    let Decision::RetryAfter(d) = backoff(1, 0.999) else { panic!("expected a retry") };
    let expected = Duration::from_nanos(249_750_000);
    assert!(d.abs_diff(expected) <= Duration::from_nanos(1), "{d:?}");
    assert!(d < ms(250));

    let Decision::RetryAfter(d) = backoff(7, 0.999) else { panic!("expected a retry") };
    assert!(d.abs_diff(Duration::from_nanos(7_992_000_000)) <= Duration::from_nanos(1), "{d:?}");
}

#[test]
fn out_of_range_jitter_is_clamped() {
    for unit in [f64::NAN, -0.5, -0.0, f64::NEG_INFINITY, f64::MIN] {
        assert_eq!(backoff(1, unit), Decision::RetryAfter(Duration::ZERO), "{unit}");
    }
    for unit in [1.0, 1.5, 1e300, f64::INFINITY, f64::MAX] {
        let Decision::RetryAfter(d) = backoff(1, unit) else { panic!("expected a retry for {unit}") };
        assert!(d <= ms(250) && d >= ms(249), "{unit}: {d:?}");
    }
}

#[test]
fn jitter_is_drawn_only_for_backoff() {
    let mut calls = 0;
    let mut jitter = || {
        calls += 1;
        0.5
    };
    let h = hints(&[("Retry-After", "2")]);
    let policy = RetryPolicy::default();
    let d = policy.decide(&Attempt::new(&Method::GET, response(429, &h), 1, Duration::ZERO, NOW), &mut jitter);
    assert_eq!(d, Decision::RetryAfter(secs(2)));
    let d = policy.decide(&Attempt::new(&Method::GET, Outcome::ConnectFailed, 1, Duration::ZERO, NOW), &mut jitter);
    assert_eq!(d, Decision::RetryAfter(ms(125)));
    assert_eq!(calls, 1);
}

#[test]
fn seeded_jitter_is_deterministic_and_in_range() {
    let mut a = SeededJitter::new(7);
    let mut b = SeededJitter::new(7);
    let mut c = SeededJitter::new(8);
    let xs: Vec<f64> = (0..1000).map(|_| a.next_unit()).collect();
    let ys: Vec<f64> = (0..1000).map(|_| b.next_unit()).collect();
    let zs: Vec<f64> = (0..1000).map(|_| c.next_unit()).collect();
    assert_eq!(xs, ys);
    assert_ne!(xs, zs);
    assert!(xs.iter().chain(&zs).all(|x| (0.0..1.0).contains(x)));
    // Roughly uniform: the mean of 1000 draws is near 1/2, both halves are used.
    let mean = xs.iter().sum::<f64>() / 1000.0;
    assert!((0.45..0.55).contains(&mean), "{mean}");
    assert!(xs.iter().any(|&x| x < 0.1) && xs.iter().any(|&x| x > 0.9));
    // Seed 0 works too.
    let mut zero = SeededJitter::new(0);
    assert!((0..10).map(|_| zero.next_unit()).any(|x| x != 0.0));
}

// ---------------------------------------------------------------------------------------------
// Server hints
// ---------------------------------------------------------------------------------------------

#[test]
fn x_rate_limit_reset_fractional_seconds() {
    let h = hints(&[("X-RateLimit-Limit", "10"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "3.2")]);
    assert_eq!(h.x_rate_limit_reset, Some(ms(3200)));
    assert_eq!(h.requested_delay(NOW), Some(ms(3200)));
    assert_eq!(decide(&Method::POST, response(429, &h)), Decision::RetryAfter(ms(3200)));

    assert_eq!(hints(&[("x-ratelimit-reset", "0.000000001")]).x_rate_limit_reset, Some(Duration::from_nanos(1)));
    assert_eq!(hints(&[("x-ratelimit-reset", "2.5000000019")]).x_rate_limit_reset, Some(Duration::new(2, 500_000_001)));
    assert_eq!(hints(&[("x-ratelimit-reset", " 4 ")]).x_rate_limit_reset, Some(secs(4)));
}

#[test]
fn retry_after_delay_seconds() {
    let h = hints(&[("Retry-After", "7")]);
    assert_eq!(h.retry_after, Some(RetryAfter::Delay(secs(7))));
    assert_eq!(h.requested_delay(NOW), Some(secs(7)));
    assert_eq!(decide(&Method::GET, response(429, &h)), Decision::RetryAfter(secs(7)));
    assert_eq!(decide(&Method::GET, response(503, &h)), Decision::RetryAfter(secs(7)));
}

#[test]
fn retry_after_http_date() {
    let at = datetime!(1994-11-06 08:49:37 UTC);
    for value in ["Sun, 06 Nov 1994 08:49:37 GMT", "Sunday, 06-Nov-94 08:49:37 GMT", "Sun Nov  6 08:49:37 1994"] {
        let h = hints(&[("Retry-After", value)]);
        assert_eq!(h.retry_after, Some(RetryAfter::At(at)), "{value}");
        assert_eq!(h.requested_delay(NOW), Some(secs(10)), "{value}");
        assert_eq!(decide(&Method::POST, response(429, &h)), Decision::RetryAfter(secs(10)), "{value}");
    }
    // Sub-second `now` is honoured.
    let h = hints(&[("Retry-After", "Sun, 06 Nov 1994 08:49:37 GMT")]);
    assert_eq!(h.requested_delay(datetime!(1994-11-06 08:49:36.25 UTC)), Some(ms(750)));
    // RFC 850 two-digit years: 70-99 is 19xx, 00-69 is 20xx.
    let h = hints(&[("Retry-After", "Thursday, 01-Jan-26 00:00:00 GMT")]);
    assert_eq!(h.retry_after, Some(RetryAfter::At(datetime!(2026-01-01 00:00:00 UTC))));
}

#[test]
fn retry_after_date_in_the_past_is_zero() {
    let h = hints(&[("Retry-After", "Sat, 05 Nov 1994 08:49:37 GMT")]);
    assert_eq!(h.requested_delay(NOW), Some(Duration::ZERO));
    assert_eq!(decide(&Method::GET, response(429, &h)), Decision::RetryAfter(Duration::ZERO));
    // Exactly now is zero too.
    let h = hints(&[("Retry-After", "Sun, 06 Nov 1994 08:49:27 GMT")]);
    assert_eq!(h.requested_delay(NOW), Some(Duration::ZERO));
}

#[test]
fn rate_limit_reset() {
    let h = hints(&[("RateLimit-Limit", "100"), ("RateLimit-Remaining", "0"), ("RateLimit-Reset", "5")]);
    assert_eq!(h.rate_limit_reset, Some(secs(5)));
    assert_eq!(h.x_rate_limit_reset, None);
    assert_eq!(h.retry_after, None);
    assert_eq!(decide(&Method::GET, response(429, &h)), Decision::RetryAfter(secs(5)));
}

#[test]
fn the_largest_hint_wins() {
    let cases = [
        (("9", "3.2", "1"), secs(9)),
        (("2", "3.2", "1"), ms(3200)),
        (("2", "3.2", "6"), secs(6)),
        (("Sun, 06 Nov 1994 08:49:47 GMT", "3.2", "6"), secs(20)),
        (("Sun, 06 Nov 1994 08:49:17 GMT", "3.2", "1"), ms(3200)),
    ];
    for ((retry_after, x_reset, reset), expected) in cases {
        let h = hints(&[("Retry-After", retry_after), ("X-RateLimit-Reset", x_reset), ("RateLimit-Reset", reset)]);
        assert_eq!(h.requested_delay(NOW), Some(expected), "{retry_after} {x_reset} {reset}");
        assert_eq!(decide(&Method::GET, response(429, &h)), Decision::RetryAfter(expected));
    }
}

#[test]
fn a_hint_over_max_server_delay_stops() {
    let too_long = Decision::Stop(StopReason::ServerDelayTooLong);
    assert_eq!(decide(&Method::GET, response(429, &hints(&[("Retry-After", "31")]))), too_long);
    assert_eq!(decide(&Method::GET, response(429, &hints(&[("X-RateLimit-Reset", "30.001")]))), too_long);
    assert_eq!(decide(&Method::GET, response(503, &hints(&[("RateLimit-Reset", "3600")]))), too_long);
    // The bound itself is honoured (the deadline is 60 s).
    assert_eq!(decide(&Method::GET, response(429, &hints(&[("Retry-After", "30")]))), Decision::RetryAfter(secs(30)));
    // Only the largest hint counts.
    let h = hints(&[("Retry-After", "1"), ("X-RateLimit-Reset", "45")]);
    assert_eq!(decide(&Method::GET, response(429, &h)), too_long);
    let mut policy = RetryPolicy::default();
    policy.max_server_delay = secs(50);
    assert_eq!(
        decide_full(&policy, &Method::GET, response(429, &h), 1, Duration::ZERO, 0.5),
        Decision::RetryAfter(secs(45))
    );
}

#[test]
fn garbage_header_values_are_ignored() {
    let garbage: &[&[u8]] = &[
        b"",
        b" ",
        b"-1",
        b"-0.5",
        b"+5",
        b"NaN",
        b"nan",
        b"inf",
        b"Infinity",
        b"1e3",
        b"0x10",
        b"abc",
        b"7s",
        b"3.",
        b".5",
        b"3.2.1",
        b"1,2",
        b"99999999999999999999999",
        b"18446744073709551616",
        b"Sun, 32 Nov 1994 08:49:37 GMT",
        b"Sun, 06 Foo 1994 08:49:37 GMT",
        b"Sun, 06 Nov 1994 24:49:37 GMT",
        b"Sun, 06 Nov 1994 08:49:37 PST",
        b"Xyz, 06 Nov 1994 08:49:37 GMT",
        b"Sun, 30 Feb 1994 08:49:37 GMT",
        b"Sun, 06 Nov 1994 08:49 GMT",
        b"Sun, 06 Nov 1994 8:49:37 GMT",
        b"Sun, 06 Nov 94 08:49:37 GMT",
        b"\xff\xfe",
        b"3\xe92",
    ];
    for value in garbage {
        let h = RetryHints::from_headers(&headers(&[
            ("Retry-After", value),
            ("X-RateLimit-Reset", value),
            ("RateLimit-Reset", value),
        ]));
        assert!(h.is_empty(), "{:?} gave {h:?}", String::from_utf8_lossy(value));
        assert_eq!(h.requested_delay(NOW), None);
        // Without hints, a 429 falls back to the backoff.
        assert_eq!(decide(&Method::GET, response(429, &h)), B);
    }
}

#[test]
fn a_garbage_value_does_not_hide_a_good_one() {
    let h = hints(&[("Retry-After", "soon"), ("Retry-After", "4"), ("X-RateLimit-Reset", "-1")]);
    assert_eq!(h.retry_after, Some(RetryAfter::Delay(secs(4))));
    assert_eq!(h.x_rate_limit_reset, None);
    assert!(!h.is_empty());
    assert_eq!(h.requested_delay(NOW), Some(secs(4)));
}

#[test]
fn empty_hints() {
    let h = RetryHints::from_headers(&HeaderMap::new());
    assert!(h.is_empty());
    assert_eq!(h, RetryHints::default());
    assert_eq!(h.requested_delay(NOW), None);
    assert!(!hints(&[("RateLimit-Reset", "0")]).is_empty());
    assert_eq!(hints(&[("RateLimit-Reset", "0")]).requested_delay(NOW), Some(Duration::ZERO));
}

// ---------------------------------------------------------------------------------------------
// Deadline, attempts, disabled
// ---------------------------------------------------------------------------------------------

#[test]
fn the_deadline() {
    let policy = RetryPolicy::default();
    assert_eq!(policy.min_attempt_time, secs(5));
    let get = &Method::GET;
    let exceeded = Decision::Stop(StopReason::DeadlineExceeded);
    // Backoff 125 ms fits exactly when the attempt after it still has 5 s; a nanosecond more
    // does not.
    let d = decide_full(&policy, get, Outcome::ConnectFailed, 1, secs(55) - ms(125), 0.5);
    assert_eq!(d, Decision::RetryAfter(ms(125)));
    let elapsed = secs(55) - ms(125) + Duration::from_nanos(1);
    assert_eq!(decide_full(&policy, get, Outcome::ConnectFailed, 1, elapsed, 0.5), exceeded);
    // Past the last useful start, even a zero wait stops.
    assert_eq!(decide_full(&policy, get, Outcome::ConnectFailed, 1, secs(56), 0.0), exceeded);
    assert_eq!(
        decide_full(&policy, get, Outcome::ConnectFailed, 1, secs(55), 0.0),
        Decision::RetryAfter(Duration::ZERO)
    );
    // A server delay that fits max_server_delay but would leave the attempt too little time.
    let h = hints(&[("Retry-After", "7")]);
    assert_eq!(decide_full(&policy, get, response(429, &h), 1, secs(49), 0.5), exceeded);
    assert_eq!(decide_full(&policy, get, response(429, &h), 1, secs(48), 0.5), Decision::RetryAfter(secs(7)));
    // With no minimum, the deadline itself is the bound: a retry needs some time left (one that
    // would start at the deadline could only time out).
    let mut bare = RetryPolicy::default();
    bare.min_attempt_time = Duration::ZERO;
    assert_eq!(decide_full(&bare, get, response(429, &h), 1, secs(52), 0.5), Decision::RetryAfter(secs(7)));
    assert_eq!(decide_full(&bare, get, response(429, &h), 1, secs(53), 0.5), exceeded);
    assert_eq!(decide_full(&bare, get, response(429, &h), 1, secs(54), 0.5), exceeded);
    // A huge elapsed does not overflow.
    assert_eq!(decide_full(&policy, get, Outcome::ConnectFailed, 1, Duration::MAX, 0.5), exceeded);
}

#[test]
fn attempts_exhausted() {
    let policy = RetryPolicy::default();
    assert_eq!(policy.max_attempts, 4);
    let exhausted = Decision::Stop(StopReason::AttemptsExhausted);
    let get = &Method::GET;
    let h = hints(&[("Retry-After", "1")]);
    assert_eq!(
        decide_full(&policy, get, Outcome::ConnectFailed, 3, Duration::ZERO, 0.5),
        Decision::RetryAfter(ms(500))
    );
    assert_eq!(decide_full(&policy, get, Outcome::ConnectFailed, 4, Duration::ZERO, 0.5), exhausted);
    assert_eq!(decide_full(&policy, get, Outcome::ConnectFailed, 5, Duration::ZERO, 0.5), exhausted);
    assert_eq!(decide_full(&policy, get, Outcome::ConnectFailed, u32::MAX, Duration::ZERO, 0.5), exhausted);
    assert_eq!(decide_full(&policy, get, response(429, &h), 4, Duration::ZERO, 0.5), exhausted);
    assert_eq!(decide_full(&policy, get, response(503, &h), 4, Duration::ZERO, 0.5), exhausted);
    // Final outcomes stay final whatever the count.
    assert_eq!(decide_full(&policy, get, response(200, &h), 4, Duration::ZERO, 0.5), S);
    assert_eq!(decide_full(&policy, &Method::POST, Outcome::FailedAfterSend, 4, Duration::ZERO, 0.5), U);
}

#[test]
fn disabled_policy() {
    let policy = RetryPolicy::disabled();
    assert!(policy.is_disabled());
    assert!(!RetryPolicy::default().is_disabled());
    assert_eq!(policy.max_attempts, 1);
    let disabled = Decision::Stop(StopReason::Disabled);
    let none = RetryHints::default();
    let h = hints(&[("Retry-After", "1")]);
    for method in [Method::GET, Method::PUT, Method::POST] {
        assert_eq!(decide_full(&policy, &method, Outcome::ConnectFailed, 1, Duration::ZERO, 0.5), disabled);
        assert_eq!(decide_full(&policy, &method, response(429, &none), 1, Duration::ZERO, 0.5), disabled);
        assert_eq!(decide_full(&policy, &method, response(429, &h), 1, Duration::ZERO, 0.5), disabled);
        assert_eq!(decide_full(&policy, &method, response(200, &none), 1, Duration::ZERO, 0.5), S);
        assert_eq!(decide_full(&policy, &method, response(404, &none), 1, Duration::ZERO, 0.5), N);
    }
    assert_eq!(decide_full(&policy, &Method::GET, response(503, &none), 1, Duration::ZERO, 0.5), disabled);
    assert_eq!(decide_full(&policy, &Method::GET, Outcome::FailedAfterSend, 1, Duration::ZERO, 0.5), disabled);
    assert_eq!(decide_full(&policy, &Method::POST, response(503, &none), 1, Duration::ZERO, 0.5), U);
    assert_eq!(decide_full(&policy, &Method::POST, Outcome::FailedAfterSend, 1, Duration::ZERO, 0.5), U);
    // max_attempts 0 is off too.
    let mut zero = RetryPolicy::default();
    zero.max_attempts = 0;
    assert_eq!(decide_full(&zero, &Method::GET, Outcome::ConnectFailed, 1, Duration::ZERO, 0.5), disabled);
}

#[test]
fn default_policy() {
    let policy = RetryPolicy::default();
    assert_eq!(policy.max_attempts, 4);
    assert_eq!(policy.base_delay, ms(250));
    assert_eq!(policy.max_delay, secs(8));
    assert_eq!(policy.max_server_delay, secs(30));
    assert_eq!(policy.deadline, secs(60));
}

// ---------------------------------------------------------------------------------------------
// Properties of decide
// ---------------------------------------------------------------------------------------------

fn any_duration() -> impl Strategy<Value = Duration> {
    prop_oneof![
        (0u64..120_000).prop_map(Duration::from_millis),
        (any::<u64>(), 0u32..1_000_000_000).prop_map(|(s, n)| Duration::new(s, n)),
        Just(Duration::ZERO),
        Just(Duration::MAX),
    ]
}

fn any_datetime() -> impl Strategy<Value = OffsetDateTime> {
    let min = time::Date::MIN.midnight().assume_utc().unix_timestamp();
    let max = time::Date::MAX.with_hms(23, 59, 59).unwrap().assume_utc().unix_timestamp();
    prop_oneof![
        (-3600i64..3600).prop_map(|d| NOW + time::Duration::seconds(d)),
        (min..=max, 0u32..1_000_000_000).prop_map(|(ts, ns)| {
            OffsetDateTime::from_unix_timestamp(ts).unwrap() + time::Duration::nanoseconds(i64::from(ns))
        }),
    ]
    .prop_filter("in range", |d| d.year().abs() <= 9999)
}

fn any_hints() -> impl Strategy<Value = RetryHints> {
    let retry_after = prop_oneof![any_duration().prop_map(RetryAfter::Delay), any_datetime().prop_map(RetryAfter::At),];
    (proptest::option::of(retry_after), proptest::option::of(any_duration()), proptest::option::of(any_duration()))
        .prop_map(|(retry_after, x, r)| {
            let mut hints = RetryHints::default();
            hints.retry_after = retry_after;
            hints.x_rate_limit_reset = x;
            hints.rate_limit_reset = r;
            hints
        })
}

fn any_method() -> impl Strategy<Value = Method> {
    prop_oneof![
        Just(Method::GET),
        Just(Method::HEAD),
        Just(Method::OPTIONS),
        Just(Method::PUT),
        Just(Method::DELETE),
        Just(Method::TRACE),
        Just(Method::POST),
        Just(Method::PATCH),
        Just(Method::CONNECT),
        Just(Method::from_bytes(b"PURGE").unwrap()),
    ]
}

fn any_policy() -> impl Strategy<Value = RetryPolicy> {
    (prop_oneof![0u32..10, any::<u32>()], any_duration(), any_duration(), any_duration(), any_duration()).prop_map(
        |(max_attempts, base_delay, max_delay, max_server_delay, deadline)| {
            let mut policy = RetryPolicy::default();
            policy.max_attempts = max_attempts;
            policy.base_delay = base_delay;
            policy.max_delay = max_delay;
            policy.max_server_delay = max_server_delay;
            policy.deadline = deadline;
            policy
        },
    )
}

fn any_unit() -> impl Strategy<Value = f64> {
    prop_oneof![0.0f64..1.0, any::<f64>(), Just(f64::NAN), Just(1.0), Just(-1.0), Just(f64::INFINITY)]
}

#[derive(Clone, Debug)]
enum AnyOutcome {
    ConnectFailed,
    FailedAfterSend,
    Response(u16, RetryHints),
}

fn any_outcome() -> impl Strategy<Value = AnyOutcome> {
    prop_oneof![
        Just(AnyOutcome::ConnectFailed),
        Just(AnyOutcome::FailedAfterSend),
        (100u16..=999, any_hints()).prop_map(|(s, h)| AnyOutcome::Response(s, h)),
        (prop_oneof![Just(429u16), Just(502), Just(503), Just(504)], any_hints())
            .prop_map(|(s, h)| AnyOutcome::Response(s, h)),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn decide_never_panics_and_keeps_its_bounds(
        policy in any_policy(),
        method in any_method(),
        outcome in any_outcome(),
        attempt in prop_oneof![0u32..10, any::<u32>()],
        elapsed in any_duration(),
        now in any_datetime(),
        unit in any_unit(),
    ) {
        let outcome_ref = match &outcome {
            AnyOutcome::ConnectFailed => Outcome::ConnectFailed,
            AnyOutcome::FailedAfterSend => Outcome::FailedAfterSend,
            AnyOutcome::Response(s, h) => Outcome::Response { status: StatusCode::from_u16(*s).unwrap(), hints: h },
        };
        let mut jitter = move || unit;
        let decision = policy.decide(&Attempt::new(&method, outcome_ref, attempt, elapsed, now), &mut jitter);

        let unsafe_outcome = match &outcome {
            AnyOutcome::FailedAfterSend => true,
            AnyOutcome::Response(s, _) => (502..=504).contains(s),
            AnyOutcome::ConnectFailed => false,
        };
        if (method == Method::POST || method == Method::PATCH) && unsafe_outcome {
            prop_assert_eq!(decision, Decision::Stop(StopReason::UnsafeToRepeat));
        }
        if let Decision::RetryAfter(delay) = decision {
            prop_assert!(!policy.is_disabled());
            prop_assert!(attempt < policy.max_attempts);
            let end = elapsed.checked_add(delay);
            prop_assert!(end.is_some_and(|end| end <= policy.deadline), "{:?} + {:?} > {:?}", elapsed, delay, policy.deadline);
            let requested = match &outcome {
                AnyOutcome::Response(_, h) => h.requested_delay(now),
                _ => None,
            };
            match requested {
                Some(requested) => {
                    prop_assert_eq!(delay, requested);
                    prop_assert!(delay <= policy.max_server_delay);
                }
                None => {
                    prop_assert!(delay <= policy.max_delay);
                    let step = 2u32.checked_pow(attempt.saturating_sub(1)).and_then(|f| policy.base_delay.checked_mul(f));
                    if let Some(step) = step {
                        prop_assert!(delay <= step);
                    }
                }
            }
        }
        if let AnyOutcome::Response(s, _) = &outcome {
            if (200..300).contains(s) {
                prop_assert_eq!(decision, Decision::Stop(StopReason::Succeeded));
            }
            if !(200..300).contains(s) && !matches!(s, 429 | 502..=504) {
                prop_assert_eq!(decision, Decision::Stop(StopReason::NotRetryable));
            }
        }
    }

    #[test]
    fn from_headers_never_panics(
        retry_after in proptest::collection::vec(any::<u8>(), 0..40),
        reset in "[ 0-9.+eE-]{0,30}",
        date in (any::<u8>(), 0u8..40, 0u16..10000, 0u8..30, 0u8..70, 0u8..70),
        now in any_datetime(),
    ) {
        let retry_after: Vec<u8> = retry_after.into_iter().filter(|&b| b == b'\t' || (b' '..=b'~').contains(&b) || b >= 0x80).collect();
        let (wk, day, year, hour, minute, second) = date;
        let days = ["Mon", "Tue", "Sun", "Sunday", "Xyz"];
        let date = format!(
            "{}, {day:02} Nov {year:04} {hour:02}:{minute:02}:{second:02} GMT",
            days[usize::from(wk) % days.len()]
        );
        let map = headers(&[
            ("Retry-After", &retry_after),
            ("Retry-After", date.as_bytes()),
            ("X-RateLimit-Reset", reset.as_bytes()),
            ("RateLimit-Reset", reset.as_bytes()),
        ]);
        let hints = RetryHints::from_headers(&map);
        let _ = hints.requested_delay(now);
        let _ = hints.is_empty();
    }

    #[test]
    fn delay_seconds_round_trip(secs in any::<u64>(), nanos in 0u32..1_000_000_000) {
        let value = format!("{secs}.{nanos:09}");
        let h = hints(&[("X-RateLimit-Reset", &value), ("Retry-After", &value)]);
        prop_assert_eq!(h.x_rate_limit_reset, Some(Duration::new(secs, nanos)));
        prop_assert_eq!(h.retry_after, Some(RetryAfter::Delay(Duration::new(secs, nanos))));
    }

    #[test]
    fn http_dates_round_trip(ts in 0i64..253_402_300_799, now in any_datetime()) {
        let at = OffsetDateTime::from_unix_timestamp(ts).unwrap();
        let imf = at
            .format(time::macros::format_description!(
                "[weekday repr:short], [day] [month repr:short] [year] [hour]:[minute]:[second] GMT"
            ))
            .unwrap();
        let asctime = at
            .format(time::macros::format_description!(
                "[weekday repr:short] [month repr:short] [day padding:space] [hour]:[minute]:[second] [year]"
            ))
            .unwrap();
        for value in [imf, asctime] {
            let h = hints(&[("Retry-After", &value)]);
            prop_assert_eq!(h.retry_after, Some(RetryAfter::At(at)), "{}", value);
            let expected = if at > now { (at - now).unsigned_abs() } else { Duration::ZERO };
            prop_assert_eq!(h.requested_delay(now), Some(expected));
        }
    }
}

// ---------------------------------------------------------------------------------------------
// Pacer
// ---------------------------------------------------------------------------------------------

#[test]
fn pacer_management_limit() {
    let mut pacer = Pacer::management();
    assert_eq!(pacer.limit(), 10);
    assert_eq!(pacer.window(), secs(10));
    assert_eq!(pacer.margin(), secs(1));
    for i in 0..10 {
        assert_eq!(pacer.delay_before(secs(i)), Duration::ZERO, "request {i}");
        pacer.record(secs(i));
    }
    // The 11th waits until the first leaves the window and its margin.
    assert_eq!(pacer.delay_before(ms(9500)), ms(1500));
    assert_eq!(pacer.delay_before(secs(11)), Duration::ZERO);
    pacer.record(secs(11));
    // Now the second (at 1 s) is the oldest of the last ten.
    assert_eq!(pacer.delay_before(secs(11)), secs(1));
    assert_eq!(pacer.delay_before(secs(12)), Duration::ZERO);
}

#[test]
fn pacer_reservations_are_served_in_order() {
    let mut pacer = Pacer::new(2, secs(10));
    // Five callers ask at once: two start now, the others get the next slots, in order.
    let starts: Vec<Duration> = (0..5).map(|_| pacer.reserve(Duration::ZERO)).collect();
    assert_eq!(starts, [secs(0), secs(0), secs(10), secs(10), secs(20)]);
}

#[test]
fn pacer_burst() {
    let mut pacer = Pacer::new(3, secs(1));
    for _ in 0..3 {
        assert_eq!(pacer.delay_before(Duration::ZERO), Duration::ZERO);
        pacer.record(Duration::ZERO);
    }
    assert_eq!(pacer.delay_before(Duration::ZERO), secs(1));
    assert_eq!(pacer.delay_before(ms(999)), ms(1));
}

#[test]
fn pacer_limit_zero_is_one() {
    let mut pacer = Pacer::new(0, secs(2));
    assert_eq!(pacer.limit(), 1);
    assert_eq!(pacer.delay_before(Duration::ZERO), Duration::ZERO);
    pacer.record(Duration::ZERO);
    assert_eq!(pacer.delay_before(ms(500)), ms(1500));
    assert_eq!(pacer.delay_before(secs(2)), Duration::ZERO);
}

#[test]
fn pacer_back_off_is_honoured() {
    let mut pacer = Pacer::new(10, secs(10));
    pacer.record(secs(5));
    assert_eq!(pacer.delay_before(secs(5)), Duration::ZERO);
    pacer.back_off(secs(5), secs(3));
    assert_eq!(pacer.delay_before(secs(5)), secs(3));
    assert_eq!(pacer.delay_before(secs(7)), secs(1));
    assert_eq!(pacer.delay_before(secs(8)), Duration::ZERO);
    // A shorter, later back-off does not shorten the earlier one.
    pacer.back_off(secs(6), secs(1));
    assert_eq!(pacer.delay_before(secs(6)), secs(2));
    // A longer one extends it.
    pacer.back_off(secs(6), secs(4));
    assert_eq!(pacer.delay_before(secs(6)), secs(4));
    // The later of the back-off and the window wins.
    let mut pacer = Pacer::new(1, secs(10));
    pacer.record(Duration::ZERO);
    pacer.back_off(Duration::ZERO, secs(2));
    assert_eq!(pacer.delay_before(secs(1)), secs(9));
    pacer.back_off(secs(1), secs(20));
    assert_eq!(pacer.delay_before(secs(1)), secs(20));
    // Huge values saturate.
    pacer.back_off(secs(1), Duration::MAX);
    assert_eq!(pacer.delay_before(secs(1)), Duration::MAX - secs(1));
}

#[test]
fn pacer_zero_window_never_waits() {
    let mut pacer = Pacer::new(1, Duration::ZERO);
    for _ in 0..5 {
        assert_eq!(pacer.delay_before(secs(1)), Duration::ZERO);
        pacer.record(secs(1));
    }
}

#[test]
fn pacer_out_of_order_records_do_not_panic() {
    let mut pacer = Pacer::new(2, secs(10));
    pacer.record(secs(5));
    pacer.record(secs(1));
    pacer.record(secs(3));
    // The last two starts are 3 s and 5 s.
    assert_eq!(pacer.delay_before(secs(6)), secs(7));
    let mut pacer = Pacer::new(2, Duration::MAX);
    pacer.record(Duration::MAX);
    pacer.record(Duration::MAX);
    assert_eq!(pacer.delay_before(Duration::ZERO), Duration::MAX);
}

#[derive(Clone, Debug)]
struct Arrival {
    /// Time since the previous arrival.
    gap: Duration,
    /// A 429 hint the response to this request carries (applied at its start).
    back_off: Option<Duration>,
}

fn arrivals() -> impl Strategy<Value = Vec<Arrival>> {
    let gap = prop_oneof![
        3 => Just(Duration::ZERO),
        5 => (0u64..1500).prop_map(Duration::from_millis),
        2 => (0u64..3_000_000_000).prop_map(Duration::from_nanos),
    ];
    let back_off = proptest::option::weighted(0.15, (0u64..3000).prop_map(Duration::from_millis));
    proptest::collection::vec((gap, back_off).prop_map(|(gap, back_off)| Arrival { gap, back_off }), 1..80)
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(500))]

    #[test]
    fn pacer_keeps_the_limit_and_waits_minimally(
        limit in 1u32..6,
        window in prop_oneof![Just(Duration::ZERO), (1u64..2000).prop_map(Duration::from_millis)],
        arrivals in arrivals(),
    ) {
        let mut pacer = Pacer::new(limit, window);
        let limit = limit as usize;
        let mut starts: Vec<Duration> = Vec::new();
        let mut not_before = Duration::ZERO;
        let mut arrival = Duration::ZERO;
        // Prior starts in the window that ends at (and includes) `t`.
        let in_window = |starts: &[Duration], t: Duration| starts.iter().filter(|&&s| s <= t && t - s < window).count();

        for a in &arrivals {
            arrival += a.gap;
            // One caller: it cannot start before its previous request started.
            let now = arrival.max(starts.last().copied().unwrap_or(Duration::ZERO));
            let wait = pacer.delay_before(now);
            let start = now + wait;

            // Allowed: the back-off is over and the window has room.
            prop_assert!(start >= not_before, "start {:?} before back-off end {:?}", start, not_before);
            prop_assert!(in_window(&starts, start) < limit, "start {:?} overfills the window: {:?}", start, starts);
            // Waiting the delay is enough: asking again at the start says go.
            prop_assert_eq!(pacer.delay_before(start), Duration::ZERO);
            // Minimal: one nanosecond earlier would break the limit or the back-off.
            if wait > Duration::ZERO {
                let earlier = start - Duration::from_nanos(1);
                prop_assert!(
                    earlier < not_before || in_window(&starts, earlier) >= limit,
                    "waited {:?} from {:?} but {:?} was already allowed", wait, now, earlier
                );
            }

            pacer.record(start);
            starts.push(start);
            if let Some(delay) = a.back_off {
                pacer.back_off(start, delay);
                not_before = not_before.max(start + delay);
            }
        }

        // No half-open window of length `window` holds more than `limit` starts.
        for (i, pair) in starts.windows(limit + 1).enumerate() {
            let span = pair[limit] - pair[0];
            prop_assert!(span >= window, "starts {}..={} span {:?} < {:?}", i, i + limit, span, window);
        }
    }
}
