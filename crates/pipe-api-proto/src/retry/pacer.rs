//! [`Pacer`]: keeps one credential under the server's request rate.

use std::collections::VecDeque;
use std::time::Duration;

/// Keeps one credential under `limit` requests per `window` (sliding window over the start
/// times of the last `limit` requests), with a safety `margin` added to the window: the server
/// counts arrivals, and a few milliseconds of network jitter must not put `limit + 1` requests
/// into one of its windows.
///
/// Times are monotonic instants the caller gives as a [`Duration`] since any fixed origin.
/// Windows are half-open: with a limit of 1 per 10 s, starts at 0 s and 10 s are allowed.
///
/// If the caller always waits [`Pacer::delay_before`] and then [`Pacer::record`]s the instant
/// it actually starts (or takes a slot with [`Pacer::reserve`], which does both and serves
/// callers in the order they ask), no window of length `window + margin` holds more than
/// `limit` starts, and no wait is longer than needed: it ends when the oldest of the last
/// `limit` starts leaves that window, or when a [`Pacer::back_off`] ends, whichever is later.
///
/// ```
/// use std::time::Duration;
/// use pipe_api_proto::retry::Pacer;
///
/// let mut pacer = Pacer::new(2, Duration::from_secs(10));
/// pacer.record(Duration::from_secs(0));
/// pacer.record(Duration::from_secs(1));
/// assert_eq!(pacer.delay_before(Duration::from_secs(4)), Duration::from_secs(6));
/// assert_eq!(pacer.delay_before(Duration::from_secs(10)), Duration::ZERO);
/// ```
#[derive(Clone, Debug)]
pub struct Pacer {
    limit: u32,
    window: Duration,
    margin: Duration,
    /// The start times of the last `limit` requests, oldest first.
    starts: VecDeque<Duration>,
    /// No request before this instant (a server's 429 hint).
    not_before: Duration,
}

impl Pacer {
    /// At most `limit` requests per `window`; a `limit` of 0 is treated as 1.
    pub fn new(limit: u32, window: Duration) -> Self {
        let limit = limit.max(1);
        let capacity = usize::try_from(limit).unwrap_or(usize::MAX).min(64);
        Self {
            limit,
            window,
            margin: Duration::ZERO,
            starts: VecDeque::with_capacity(capacity),
            not_before: Duration::ZERO,
        }
    }

    /// The same pacer with `margin` added to its window.
    #[must_use]
    pub fn with_margin(mut self, margin: Duration) -> Self {
        self.margin = margin;
        self
    }

    /// The management interface's documented limit, 10 requests per 10 seconds per key, with a
    /// margin of 1 s: as the server counts them, arrivals up to half a second late or early
    /// still keep to the limit.
    pub fn management() -> Self {
        Self::new(10, Duration::from_secs(10)).with_margin(Duration::from_secs(1))
    }

    /// The safety margin added to the window.
    pub fn margin(&self) -> Duration {
        self.margin
    }

    /// The most requests per window (at least 1).
    pub fn limit(&self) -> u32 {
        self.limit
    }

    /// The window's length.
    pub fn window(&self) -> Duration {
        self.window
    }

    /// How long to wait before a request may start at `now` (a monotonic instant the caller
    /// gives as a Duration since any fixed origin). Zero when it may start now.
    pub fn delay_before(&self, now: Duration) -> Duration {
        let full = usize::try_from(self.limit).is_ok_and(|limit| self.starts.len() >= limit);
        let window_wait = match self.starts.front() {
            Some(oldest) if full => oldest.saturating_add(self.window).saturating_add(self.margin).saturating_sub(now),
            _ => Duration::ZERO,
        };
        window_wait.max(self.not_before.saturating_sub(now))
    }

    /// Records that a request started at `now`.
    ///
    /// Instants are expected in order; one earlier than a recorded start is still kept in
    /// order, and only the latest `limit` starts are remembered.
    pub fn record(&mut self, now: Duration) {
        let at = self.starts.partition_point(|&s| s <= now);
        self.starts.insert(at, now);
        while usize::try_from(self.limit).is_ok_and(|limit| self.starts.len() > limit) {
            self.starts.pop_front();
        }
    }

    /// Takes the first start at or after `now` that the window and any back-off allow, records
    /// it, and returns it. Callers that reserve in turn get starts in that order, so no waiting
    /// caller is overtaken by later ones.
    pub fn reserve(&mut self, now: Duration) -> Duration {
        let start = now.saturating_add(self.delay_before(now));
        self.record(start);
        start
    }

    /// When the current back-off ends (zero when there is none).
    pub fn not_before(&self) -> Duration {
        self.not_before
    }

    /// Applies a server's 429 hint: no request before `now + delay`. An earlier back-off that
    /// ends later still holds.
    pub fn back_off(&mut self, now: Duration, delay: Duration) {
        self.not_before = self.not_before.max(now.saturating_add(delay));
    }
}
