//! A call that ended before an attempt that could not have met its deadline.

use std::error::Error as StdError;
use std::fmt;
use std::time::Duration;

/// A call ended before an attempt because the attempt could not have finished before the
/// deadline. Nothing (more) was sent: safe to try again later.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct NotSent {
    operation: &'static str,
    waited: Duration,
    deadline: Duration,
}

impl NotSent {
    /// The error of `operation`, whose next request could start only `waited` into a whole
    /// `deadline`: for a machine made of several calls (a listing, an apply) that stops at its
    /// own deadline between them.
    pub fn new(operation: &'static str, waited: Duration, deadline: Duration) -> Self {
        NotSent { operation, waited, deadline }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// How long after the call's start the attempt could have started (pacing or a server's
    /// hint made it wait).
    pub fn waited(&self) -> Duration {
        self.waited
    }
}

impl fmt::Display for NotSent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: deadline reached before sending: the request could start only {:.1} s into a {:.1} s deadline, \
             too late to finish; nothing was sent",
            self.operation,
            self.waited.as_secs_f64(),
            self.deadline.as_secs_f64()
        )
    }
}

impl StdError for NotSent {}
