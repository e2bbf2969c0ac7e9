//! Retry and rate-limit decisions as pure functions.
//!
//! Nothing here sleeps, reads a clock or does IO: the caller passes the time in and gets a
//! decision back. A blocking driver loops like this:
//!
//! ```
//! use std::time::Duration;
//!
//! use pipe_api_proto::http::{Method, StatusCode};
//! use pipe_api_proto::retry::{Attempt, Decision, Outcome, RetryHints, RetryPolicy, SeededJitter, StopReason};
//! use pipe_api_proto::time::OffsetDateTime;
//!
//! let policy = RetryPolicy::default();
//! let mut jitter = SeededJitter::new(42);
//! let now = OffsetDateTime::from_unix_timestamp(1_714_564_800)?; // 2024-05-01 12:00:00 UTC
//!
//! // The first GET came back 503 without hints.
//! let hints = RetryHints::default();
//! let outcome = Outcome::Response { status: StatusCode::SERVICE_UNAVAILABLE, hints: &hints };
//! let attempt = Attempt::new(&Method::GET, outcome, 1, Duration::from_millis(80), now);
//! match policy.decide(&attempt, &mut jitter) {
//!     Decision::RetryAfter(delay) => assert!(delay <= policy.base_delay),
//!     other => panic!("expected a retry, got {other:?}"),
//! }
//!
//! // The same answer to a POST must not be repeated: the pipe may have been created.
//! let attempt = Attempt::new(&Method::POST, outcome, 1, Duration::from_millis(80), now);
//! assert_eq!(policy.decide(&attempt, &mut jitter), Decision::Stop(StopReason::UnsafeToRepeat));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! [`Pacer`] keeps one credential under a request rate (the management interface allows 10
//! requests per 10 seconds per key).

use std::time::Duration;

use http::{HeaderMap, HeaderName, Method, StatusCode};
use time::OffsetDateTime;

// Pacing has its own file; its path stays `retry::Pacer`.
mod pacer;

pub use pacer::Pacer;

// ---------------------------------------------------------------------------------------------
// Server hints
// ---------------------------------------------------------------------------------------------

/// Server hints read from a response's headers.
///
/// Build it with [`RetryHints::from_headers`]; every field is optional and a value that cannot
/// be read is left out rather than reported.
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct RetryHints {
    /// `Retry-After`: delay-seconds or an HTTP-date.
    pub retry_after: Option<RetryAfter>,
    /// `X-RateLimit-Reset` (management interface): seconds until the rate-limit window resets,
    /// possibly fractional.
    pub x_rate_limit_reset: Option<Duration>,
    /// `RateLimit-Reset` (alerting interface): seconds until the rate-limit window resets.
    pub rate_limit_reset: Option<Duration>,
}

/// The value of a `Retry-After` header.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum RetryAfter {
    /// Delay-seconds: wait this long.
    Delay(Duration),
    /// An HTTP-date: wait until this instant.
    At(OffsetDateTime),
}

impl RetryAfter {
    /// Reads a `Retry-After` value: delay-seconds (a non-negative decimal number, fractions are
    /// tolerated) or an HTTP-date (IMF-fixdate, RFC 850 or asctime). `None` when it is neither.
    pub fn parse(value: &str) -> Option<Self> {
        let value = value.trim_matches(|c: char| c.is_ascii_whitespace());
        if let Some(delay) = parse_seconds(value) {
            return Some(Self::Delay(delay));
        }
        parse_http_date(value).map(Self::At)
    }

    /// The delay this value asks for, seen from `now`; a date in the past is zero.
    pub fn delay_from(&self, now: OffsetDateTime) -> Duration {
        match *self {
            Self::Delay(delay) => delay,
            Self::At(at) => {
                let diff = at - now;
                if diff.is_positive() { diff.unsigned_abs() } else { Duration::ZERO }
            }
        }
    }
}

impl RetryHints {
    /// Reads the hints from a response's headers: `Retry-After`, `X-RateLimit-Reset` and
    /// `RateLimit-Reset`.
    ///
    /// Lenient: a value that is not valid text, is negative, is not a number (`NaN`, `inf`,
    /// `1e3`), or does not fit a [`Duration`] is ignored. When a header is repeated, the first
    /// readable value counts. The reset headers are read as seconds until the window resets
    /// (`3.2` is 3.2 s), as both interfaces document, not as a Unix time.
    pub fn from_headers(headers: &HeaderMap) -> Self {
        let retry_after =
            headers.get_all(http::header::RETRY_AFTER).iter().find_map(|v| v.to_str().ok().and_then(RetryAfter::parse));
        Self {
            retry_after,
            x_rate_limit_reset: seconds_header(headers, &X_RATELIMIT_RESET),
            rate_limit_reset: seconds_header(headers, &RATELIMIT_RESET),
        }
    }

    /// The delay the server asks for, if any: the largest of the hints; an HTTP-date is turned
    /// into a delay against `now` (a date in the past is zero).
    pub fn requested_delay(&self, now: OffsetDateTime) -> Option<Duration> {
        let retry_after = self.retry_after.map(|r| r.delay_from(now));
        [retry_after, self.x_rate_limit_reset, self.rate_limit_reset].into_iter().flatten().max()
    }

    /// Whether no hint was found.
    pub fn is_empty(&self) -> bool {
        self.retry_after.is_none() && self.x_rate_limit_reset.is_none() && self.rate_limit_reset.is_none()
    }
}

/// The reset headers' names, made when compiled: a name given as text is checked and
/// lower-cased at every look-up, and every answer is looked at.
const X_RATELIMIT_RESET: HeaderName = HeaderName::from_static("x-ratelimit-reset");
const RATELIMIT_RESET: HeaderName = HeaderName::from_static("ratelimit-reset");

fn seconds_header(headers: &HeaderMap, name: &HeaderName) -> Option<Duration> {
    headers
        .get_all(name)
        .iter()
        .find_map(|v| v.to_str().ok().and_then(|s| parse_seconds(s.trim_matches(|c: char| c.is_ascii_whitespace()))))
}

/// Reads `digits[.digits]` as seconds, exactly to the nanosecond (further digits are dropped).
/// Signs, exponents, `NaN`, `inf` and values past `u64::MAX` seconds are refused.
fn parse_seconds(s: &str) -> Option<Duration> {
    let (int, frac) = match s.split_once('.') {
        Some((int, frac)) => (int, Some(frac)),
        None => (s, None),
    };
    if int.is_empty() || !int.bytes().all(|b| b.is_ascii_digit()) {
        return None;
    }
    let secs: u64 = int.parse().ok()?;
    let mut nanos: u32 = 0;
    if let Some(frac) = frac {
        if frac.is_empty() || !frac.bytes().all(|b| b.is_ascii_digit()) {
            return None;
        }
        let mut scale = 100_000_000;
        for b in frac.bytes().take(9) {
            nanos += u32::from(b - b'0') * scale;
            scale /= 10;
        }
    }
    // nanos < 1_000_000_000, so this cannot carry into (and overflow) the seconds.
    Some(Duration::new(secs, nanos))
}

/// Reads an HTTP-date (RFC 9110 §5.6.7) in any of its three forms, IMF-fixdate `Sun, 06 Nov
/// 1994 08:49:37 GMT`, RFC 850 `Sunday, 06-Nov-94 08:49:37 GMT` and asctime `Sun Nov  6
/// 08:49:37 1994`, with httpdate (which checks the weekday against the date and reads years
/// from 1970: an earlier date is in the past anyway).
fn parse_http_date(s: &str) -> Option<OffsetDateTime> {
    httpdate::parse_http_date(s).ok().map(OffsetDateTime::from)
}

// ---------------------------------------------------------------------------------------------
// Attempts, outcomes, decisions
// ---------------------------------------------------------------------------------------------

/// What one attempt came to, as the policy sees it.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub enum Outcome<'a> {
    /// No connection was made: the request never left (connection refused, DNS failure). Safe
    /// to retry for every method.
    ConnectFailed,
    /// The request may have reached the server but no complete response came back (reset,
    /// timeout, truncated body).
    FailedAfterSend,
    /// A response came whose body is over the caller's size limit: the server acted, and the
    /// same answer would come again, so it is never retried.
    ResponseTooLarge,
    /// The transport refused to send ([`TransportErrorKind::Refused`]): nothing left the
    /// machine, and the same request would be refused again, so it is never retried.
    ///
    /// [`TransportErrorKind::Refused`]: crate::TransportErrorKind::Refused
    Refused,
    /// A complete response.
    Response {
        /// Its status.
        status: StatusCode,
        /// The hints read from its headers ([`RetryHints::from_headers`]).
        hints: &'a RetryHints,
    },
}

/// Why the driver must stop.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum StopReason {
    /// A 2xx response.
    Succeeded,
    /// A status or outcome that is final, e.g. 400, 401, 404, 500 or a 3xx.
    NotRetryable,
    /// Retrying would re-send a non-idempotent request (POST, PATCH) that may have reached the
    /// server: neither interface has idempotency keys, so a repeated create may create twice.
    UnsafeToRepeat,
    /// The policy's `max_attempts` attempts have been made.
    AttemptsExhausted,
    /// Waiting would pass the policy's overall deadline.
    DeadlineExceeded,
    /// The server asks to wait longer than the policy's `max_server_delay`.
    ServerDelayTooLong,
    /// Retries are turned off ([`RetryPolicy::disabled`]).
    Disabled,
}

/// What the driver does next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Decision {
    /// Wait this long, then send the request again.
    RetryAfter(Duration),
    /// Stop and hand the last outcome to the caller.
    Stop(StopReason),
}

/// The random source for jitter; injectable so tests are deterministic.
///
/// A closure `FnMut() -> f64` is one.
pub trait Jitter {
    /// A uniformly distributed value in [0, 1). The policy clamps whatever comes back into
    /// that range (`NaN` and negatives are read as 0).
    fn next_unit(&mut self) -> f64;
}

impl<F: FnMut() -> f64> Jitter for F {
    fn next_unit(&mut self) -> f64 {
        self()
    }
}

/// A small seedable pseudo-random source (SplitMix64), the default [`Jitter`], and the
/// workspace's one deterministic generator (the fake draws its ids and secrets from it).
///
/// The caller seeds it (a driver may seed it from the clock or an address; this crate reads
/// no clock). Not for cryptography.
#[derive(Clone, Debug)]
pub struct SeededJitter {
    state: u64,
}

impl SeededJitter {
    /// A source seeded with `seed`; the same seed gives the same sequence.
    pub fn new(seed: u64) -> Self {
        Self { state: seed }
    }

    /// The next 64 bits of the sequence.
    pub fn next_u64(&mut self) -> u64 {
        self.state = self.state.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.state;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
}

impl Jitter for SeededJitter {
    fn next_unit(&mut self) -> f64 {
        // The top 53 bits, scaled: exactly representable, always below 1.
        (self.next_u64() >> 11) as f64 * (1.0 / (1u64 << 53) as f64)
    }
}

/// The input of one decision.
#[derive(Clone, Copy, Debug)]
#[non_exhaustive]
pub struct Attempt<'a> {
    /// The request's method.
    pub method: &'a Method,
    /// What the attempt came to.
    pub outcome: Outcome<'a>,
    /// Attempts made so far, including this one (1 after the first).
    pub attempt: u32,
    /// Time since the first attempt started.
    pub elapsed: Duration,
    /// The caller's wall clock now, used only to turn an HTTP-date `Retry-After` into a delay.
    pub now: OffsetDateTime,
}

impl<'a> Attempt<'a> {
    /// The input of one decision; see the fields.
    pub fn new(method: &'a Method, outcome: Outcome<'a>, attempt: u32, elapsed: Duration, now: OffsetDateTime) -> Self {
        Self { method, outcome, attempt, elapsed, now }
    }
}

/// When and how long to retry.
///
/// [`RetryPolicy::decide`] applies these rules in order:
/// 1. A 2xx response: [`StopReason::Succeeded`].
/// 2. [`Outcome::ConnectFailed`] and 429 are retryable for every method. 502, 503, 504 and
///    [`Outcome::FailedAfterSend`] are retryable only for an idempotent method
///    ([`is_idempotent`]), otherwise [`StopReason::UnsafeToRepeat`]. Every other status,
///    [`Outcome::ResponseTooLarge`] and [`Outcome::Refused`] are [`StopReason::NotRetryable`].
/// 3. A disabled policy (`max_attempts` of 1 or 0): [`StopReason::Disabled`].
/// 4. `attempt >= max_attempts`: [`StopReason::AttemptsExhausted`].
/// 5. The delay: the one the server asks for ([`RetryHints::requested_delay`]), exactly, or
///    [`StopReason::ServerDelayTooLong`] when it exceeds `max_server_delay`; without hints,
///    full-jitter exponential backoff `jitter * min(max_delay, base_delay * 2^(attempt-1))`.
/// 6. A retry that would not leave [`RetryPolicy::least_attempt_time`] before the deadline:
///    [`StopReason::DeadlineExceeded`] (an attempt that could not finish in time is never
///    started: a create sent with no time left may be carried out while the caller sees a
///    timeout); else [`Decision::RetryAfter`] the delay.
///
/// **The deadline is the caller's.** The first attempt of a call is always sent when the
/// deadline has not passed at its start, with all the time left as its timeout; a retry, or a
/// wait's poll after its first, starts only with [`RetryPolicy::least_attempt_time`] left:
/// `min_attempt_time`, or half the deadline when that is shorter, so that a short deadline still
/// leaves room for a retry the server asks for ([`RetryPolicy::may_start`] is this rule).
///
/// Set it with the chainable setters: `RetryPolicy::default().deadline(Duration::from_secs(10))
/// .max_attempts(3)`.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct RetryPolicy {
    /// The most attempts made, the first included (default 4). 1 (or 0) turns retries off.
    pub max_attempts: u32,
    /// The backoff's first step (default 250 ms).
    pub base_delay: Duration,
    /// The cap of the backoff (default 8 s).
    pub max_delay: Duration,
    /// The largest server-requested wait honoured (default 30 s).
    pub max_server_delay: Duration,
    /// The overall deadline, counted from the start of the first attempt (default 60 s).
    pub deadline: Duration,
    /// The least time a retry is given (default 5 s): see [`RetryPolicy::least_attempt_time`].
    pub min_attempt_time: Duration,
}

impl Default for RetryPolicy {
    fn default() -> Self {
        Self {
            max_attempts: 4,
            base_delay: Duration::from_millis(250),
            max_delay: Duration::from_secs(8),
            max_server_delay: Duration::from_secs(30),
            deadline: Duration::from_secs(60),
            min_attempt_time: Duration::from_secs(5),
        }
    }
}

impl RetryPolicy {
    /// A policy that makes one attempt: [`StopReason::Disabled`] for anything retryable.
    pub fn disabled() -> Self {
        Self { max_attempts: 1, ..Self::default() }
    }

    /// Whether retries are off (`max_attempts` is 1 or 0).
    pub fn is_disabled(&self) -> bool {
        self.max_attempts <= 1
    }

    /// What to do after `attempt`; see the rules on [`RetryPolicy`]. Draws from `jitter` only
    /// when it computes a backoff. Never panics.
    pub fn decide(&self, attempt: &Attempt<'_>, jitter: &mut dyn Jitter) -> Decision {
        let hints = match attempt.outcome {
            Outcome::ConnectFailed => None,
            Outcome::ResponseTooLarge | Outcome::Refused => return Decision::Stop(StopReason::NotRetryable),
            Outcome::FailedAfterSend => {
                if !is_idempotent(attempt.method) {
                    return Decision::Stop(StopReason::UnsafeToRepeat);
                }
                None
            }
            Outcome::Response { status, hints } => {
                if status.is_success() {
                    return Decision::Stop(StopReason::Succeeded);
                }
                match status.as_u16() {
                    429 => {}
                    502..=504 => {
                        if !is_idempotent(attempt.method) {
                            return Decision::Stop(StopReason::UnsafeToRepeat);
                        }
                    }
                    _ => return Decision::Stop(StopReason::NotRetryable),
                }
                Some(hints)
            }
        };
        if self.is_disabled() {
            return Decision::Stop(StopReason::Disabled);
        }
        if attempt.attempt >= self.max_attempts {
            return Decision::Stop(StopReason::AttemptsExhausted);
        }
        let delay = match hints.and_then(|h| h.requested_delay(attempt.now)) {
            Some(requested) if requested > self.max_server_delay => {
                return Decision::Stop(StopReason::ServerDelayTooLong);
            }
            Some(requested) => requested,
            None => self.backoff_delay(attempt.attempt, jitter.next_unit()),
        };
        if self.leaves_time_for_an_attempt(attempt.elapsed.saturating_add(delay)) {
            Decision::RetryAfter(delay)
        } else {
            Decision::Stop(StopReason::DeadlineExceeded)
        }
    }

    /// Whether attempt number `attempt` (1 for the first) may start `elapsed` after the call
    /// started: the first whenever the deadline has not passed, a later one only with
    /// [`RetryPolicy::least_attempt_time`] left. The one rule of the deadline.
    pub fn may_start(&self, attempt: u32, elapsed: Duration) -> bool {
        if attempt <= 1 { elapsed < self.deadline } else { self.leaves_time_for_an_attempt(elapsed) }
    }

    /// The policy of request number `number` (1 for the first) of a whole made of several
    /// calls (a wait, an apply) that started at `started` and may last `total`, the request
    /// starting at `now`: this policy, its deadline cut to what is left of the whole's; `None`
    /// when [`RetryPolicy::may_start`], over the whole's deadline, says no. The one rule by
    /// which a whole keeps its calls within its own deadline.
    pub fn within(&self, started: Duration, total: Duration, number: u32, now: Duration) -> Option<RetryPolicy> {
        let elapsed = now.saturating_sub(started);
        let rule = self.clone().deadline(total);
        if !rule.may_start(number, elapsed) {
            return None;
        }
        let mut policy = self.clone();
        policy.deadline = policy.deadline.min(total.saturating_sub(elapsed));
        Some(policy)
    }

    /// Whether a retry starting `elapsed` after the first attempt still has
    /// [`RetryPolicy::least_attempt_time`] before the deadline, and some time at all (an
    /// attempt with nothing left could only time out).
    pub fn leaves_time_for_an_attempt(&self, elapsed: Duration) -> bool {
        elapsed < self.deadline
            && elapsed.checked_add(self.least_attempt_time()).is_some_and(|end| end <= self.deadline)
    }

    /// The least time left for a retry to start: `min_attempt_time`, or half the deadline when
    /// that is shorter.
    pub fn least_attempt_time(&self) -> Duration {
        self.min_attempt_time.min(self.deadline / 2)
    }

    /// Sets the most attempts, the first included.
    #[must_use]
    pub fn max_attempts(mut self, attempts: u32) -> Self {
        self.max_attempts = attempts;
        self
    }

    /// Sets the backoff's first step and its cap.
    #[must_use]
    pub fn backoff(mut self, base: Duration, cap: Duration) -> Self {
        self.base_delay = base;
        self.max_delay = cap.max(base);
        self
    }

    /// Sets the largest server-requested wait honoured.
    #[must_use]
    pub fn max_server_delay(mut self, delay: Duration) -> Self {
        self.max_server_delay = delay;
        self
    }

    /// Sets the overall deadline.
    #[must_use]
    pub fn deadline(mut self, deadline: Duration) -> Self {
        self.deadline = deadline;
        self
    }

    /// Sets the least time a retry is given.
    #[must_use]
    pub fn min_attempt_time(mut self, time: Duration) -> Self {
        self.min_attempt_time = time;
        self
    }

    /// Full-jitter backoff after attempt `attempt` (1-based): `unit * min(max_delay,
    /// base_delay * 2^(attempt-1))`, saturating, with `unit` clamped into [0, 1).
    fn backoff_delay(&self, attempt: u32, unit: f64) -> Duration {
        let exponent = attempt.saturating_sub(1);
        let cap = 2u32
            .checked_pow(exponent)
            .and_then(|factor| self.base_delay.checked_mul(factor))
            .map_or(self.max_delay, |d| d.min(self.max_delay));
        let unit = if unit.is_nan() || unit < 0.0 {
            0.0
        } else if unit >= 1.0 {
            1.0 - f64::EPSILON / 2.0
        } else {
            unit
        };
        Duration::try_from_secs_f64(cap.as_secs_f64() * unit).map_or(cap, |d| d.min(cap))
    }
}

/// Whether a method is idempotent for retry purposes: GET, HEAD, OPTIONS, PUT, DELETE, TRACE.
/// Never POST or PATCH, nor an extension method.
pub fn is_idempotent(method: &Method) -> bool {
    [Method::GET, Method::HEAD, Method::OPTIONS, Method::PUT, Method::DELETE, Method::TRACE].contains(method)
}
