//! What a call's attempts were, as data: each one's method, path template, outcome, request id,
//! and the wait before it with its cause, and why the call stopped retrying. A [`Call`]
//! records them; a [`Reply`] and an [`Error`] carry them; a driver logs them or hands them to
//! an observer (the ureq client does both). Nothing here holds a secret: the path is the
//! operation's template, and the request id is cut and scrubbed like every server text.
//!
//! [`Call`]: crate::call::Call
//! [`Reply`]: crate::Reply
//! [`Error`]: crate::Error

use std::fmt;
use std::time::Duration;

use http::{Method, StatusCode};

use crate::retry::StopReason;
use crate::transport::TransportErrorKind;

/// Why an attempt waited before it started.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum WaitCause {
    /// Sent at once, nothing held it back: a call's first attempt (unless pacing held it,
    /// which is then its cause).
    Immediate,
    /// Pacing: the credential's request budget was spent.
    Pacing,
    /// The backoff between retries.
    Backoff,
    /// The server asked for the wait (`Retry-After`, `X-RateLimit-Reset`).
    ServerHint,
}

impl fmt::Display for WaitCause {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(match self {
            WaitCause::Immediate => "sent at once",
            WaitCause::Pacing => "pacing",
            WaitCause::Backoff => "backoff",
            WaitCause::ServerHint => "the server's hint",
        })
    }
}

/// What came of an attempt.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum AttemptOutcome {
    /// The server answered with this status.
    Status(StatusCode),
    /// The exchange failed before an answer.
    Transport(TransportErrorKind),
}

impl fmt::Display for AttemptOutcome {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            AttemptOutcome::Status(status) => write!(f, "HTTP {}", status.as_u16()),
            AttemptOutcome::Transport(kind) => write!(f, "transport failure ({kind:?})"),
        }
    }
}

/// One attempt of a call.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct AttemptRecord {
    /// The operation, such as `create_pipe`.
    pub operation: &'static str,
    /// The HTTP method.
    pub method: Method,
    /// The operation's path template (`/v1/organizations/{organization_id}/...`): no id, no
    /// query.
    pub path: &'static str,
    /// Its number in the call, 1 for the first.
    pub number: u32,
    /// How long it waited before it started.
    pub waited: Duration,
    /// Why it waited.
    pub cause: WaitCause,
    /// What came of it.
    pub outcome: AttemptOutcome,
    /// The server's request id, when it gave one.
    pub request_id: Option<String>,
}

impl fmt::Display for AttemptRecord {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} attempt {}: {} {} -> {}", self.operation, self.number, self.method, self.path, self.outcome)?;
        if self.cause != WaitCause::Immediate || self.waited >= Duration::from_millis(1) {
            write!(f, " after waiting {:.3} s ({})", self.waited.as_secs_f64(), self.cause)?;
        }
        if let Some(id) = &self.request_id {
            write!(f, " (request id {id})")?;
        }
        Ok(())
    }
}

/// A call's attempts and why it stopped retrying.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct Attempts {
    /// Each attempt, in order (empty for an answer parsed without a [`Call`](crate::call::Call)).
    pub records: Vec<AttemptRecord>,
    /// Why the call did not try again after the last attempt, when it ended in an error that
    /// could have been retried.
    pub stop: Option<StopReason>,
    /// The wait the server asked for on the last attempt, and the most the policy honours:
    /// set when that is why the call stopped.
    pub server_delay: Option<(Duration, Duration)>,
}

impl Attempts {
    /// How many attempts were made (1 when none was recorded).
    pub fn count(&self) -> u32 {
        u32::try_from(self.records.len()).unwrap_or(u32::MAX).max(1)
    }
}

impl Attempts {
    /// Why the call stopped, when that is not obvious, after what says how many attempts there
    /// were: `; not retried: ...`, `; no attempts left`. The one wording of both renderings.
    fn write_stop(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match (self.stop, self.server_delay) {
            (Some(StopReason::ServerDelayTooLong), Some((asked, allowed))) => write!(
                f,
                "; not retried: the server asked to wait {:.1} s, more than the {:.1} s this policy honours \
                 (max_server_delay)",
                asked.as_secs_f64(),
                allowed.as_secs_f64()
            ),
            (Some(StopReason::DeadlineExceeded), _) => {
                f.write_str("; not retried: another attempt could not finish before the deadline")
            }
            (Some(StopReason::AttemptsExhausted), _) if self.count() > 1 => f.write_str("; no attempts left"),
            _ => Ok(()),
        }
    }

    /// The attempts as an error's line ends with them: nothing for one attempt, `(after 3
    /// attempts)` for more, then why the call stopped when that is not obvious.
    pub(crate) fn write_suffix(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let count = self.count();
        if count > 1 {
            write!(f, " (after {count} attempts)")?;
        }
        self.write_stop(f)
    }
}

/// Says on its own how many attempts there were, and why the call stopped when that is not
/// obvious: `1 attempt`, `3 attempts; no attempts left`, `2 attempts; not retried: the server
/// asked to wait 120.0 s, more than the 30.0 s this policy honours (max_server_delay)`. An
/// error's line ends with the same words, as `(after 3 attempts); no attempts left`.
impl fmt::Display for Attempts {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", crate::words::Counted(self.count() as usize, "attempt"))?;
        self.write_stop(f)
    }
}
