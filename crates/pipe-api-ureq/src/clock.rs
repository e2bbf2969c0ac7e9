//! Where a [`Client`](crate::Client) gets its time and how it waits: [`SystemClock`] by
//! default, or a [`VirtualClock`] that moves only when the client waits or a test says, so that
//! retries, pacing, deadlines and waiting run in no wall time and the same way every run.

use std::fmt;
use std::sync::{Arc, Mutex, PoisonError};
use std::time::{Duration, Instant};

use time::OffsetDateTime;

/// A source of time and a way to wait, for the [`Client`](crate::Client)'s one driving loop.
/// Every decision (when to send, how long to wait) is proto's machines'; the clock only says
/// what time it is and carries out the waits.
pub trait Clock: Send + Sync + fmt::Debug {
    /// Monotonic time since the clock's origin: what pacing, backoff and deadlines count with.
    fn elapsed(&self) -> Duration;

    /// The current UTC time, for a `Retry-After` given as an HTTP date.
    fn now_utc(&self) -> OffsetDateTime;

    /// Waits `duration` (a real sleep, or moving a virtual clock on).
    fn sleep(&self, duration: Duration);
}

/// The machine's clock: `Instant` for elapsed time, a real sleep for waits.
#[derive(Clone, Debug)]
pub struct SystemClock {
    origin: Instant,
}

impl SystemClock {
    /// A clock whose origin is now.
    pub fn new() -> Self {
        SystemClock { origin: Instant::now() }
    }
}

impl Default for SystemClock {
    fn default() -> Self {
        SystemClock::new()
    }
}

impl Clock for SystemClock {
    fn elapsed(&self) -> Duration {
        self.origin.elapsed()
    }

    fn now_utc(&self) -> OffsetDateTime {
        OffsetDateTime::now_utc()
    }

    fn sleep(&self, duration: Duration) {
        std::thread::sleep(duration);
    }
}

/// A clock for tests that only moves when the client waits (the wait returns at once, the
/// clock having moved by its length) or when [`advance`](VirtualClock::advance) is called.
/// Clones share one time. A follower (such as a fake server's own manual clock) can be moved
/// along with it ([`follow_with`](VirtualClock::follow_with)), so that what the server does
/// over time (a pipe leaving `Provisioning`) happens while the client waits.
///
/// ```
/// use std::time::Duration;
/// use pipe_api_ureq::proto::time::OffsetDateTime;
/// use pipe_api_ureq::{Clock, VirtualClock};
///
/// let start = OffsetDateTime::from_unix_timestamp(1_767_225_600)?; // 2026-01-01 00:00 UTC
/// let clock = VirtualClock::new(start);
/// clock.sleep(Duration::from_secs(90));
/// assert_eq!(clock.elapsed(), Duration::from_secs(90));
/// assert_eq!(clock.now_utc(), start + Duration::from_secs(90));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone)]
pub struct VirtualClock {
    shared: Arc<Mutex<Virtual>>,
}

struct Virtual {
    elapsed: Duration,
    start_utc: OffsetDateTime,
    follower: Option<Box<dyn Fn(Duration) + Send>>,
}

impl VirtualClock {
    /// A clock at elapsed zero, whose UTC time starts at `start_utc`.
    pub fn new(start_utc: OffsetDateTime) -> Self {
        VirtualClock { shared: Arc::new(Mutex::new(Virtual { elapsed: Duration::ZERO, start_utc, follower: None })) }
    }

    /// Also calls `follower` with each step the clock moves (a wait or an
    /// [`advance`](VirtualClock::advance)), for example to move a fake server's clock along.
    pub fn follow_with(self, follower: impl Fn(Duration) + Send + 'static) -> Self {
        self.lock().follower = Some(Box::new(follower));
        self
    }

    /// Moves the clock (and its follower) forward by `by`.
    pub fn advance(&self, by: Duration) {
        let mut shared = self.lock();
        shared.elapsed += by;
        if let Some(follower) = &shared.follower {
            follower(by);
        }
    }

    fn lock(&self) -> std::sync::MutexGuard<'_, Virtual> {
        self.shared.lock().unwrap_or_else(PoisonError::into_inner)
    }
}

impl fmt::Debug for VirtualClock {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let shared = self.lock();
        f.debug_struct("VirtualClock")
            .field("elapsed", &shared.elapsed)
            .field("start_utc", &shared.start_utc)
            .field("follower", &shared.follower.is_some())
            .finish()
    }
}

impl Clock for VirtualClock {
    fn elapsed(&self) -> Duration {
        self.lock().elapsed
    }

    fn now_utc(&self) -> OffsetDateTime {
        let shared = self.lock();
        shared.start_utc + shared.elapsed
    }

    fn sleep(&self, duration: Duration) {
        self.advance(duration);
    }
}
