//! What a wait polls ([`Polled`]) and each poll answered ([`Poll`]): a leaf, so that the call
//! machine, which hands polls out ([`Machine::take_polls`](crate::call::Machine::take_polls)),
//! and the wait, which makes them, both import it and neither imports the other through it.

use std::fmt;
use std::time::Duration;

use super::conditions::Verdict;
use crate::endpoint::Endpoint;

/// What a wait polls: the operation and the resource, which its error and each [`Poll`] name.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Polled {
    /// The operation, such as `get_pipe`.
    pub operation: &'static str,
    /// The resource: the path polled, ids included (`/v1/organizations/.../pipes/...`).
    pub resource: String,
}

impl Polled {
    /// What polling `endpoint` polls.
    pub fn of<E: Endpoint + ?Sized>(endpoint: &E) -> Self {
        Polled { operation: endpoint.metadata().name, resource: endpoint.path() }
    }
}

/// `get_pipe /v1/organizations/.../pipes/...`.
impl fmt::Display for Polled {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{} {}", self.operation, self.resource)
    }
}

/// One poll of a wait that the server answered, for whoever watches a wait go (such as a
/// progress display): the wait's [`Machine::take_polls`](crate::call::Machine::take_polls) hands them out, and the blocking
/// client's `ClientBuilder::on_poll` observer is called with each one. A wait for a state the
/// resource will not reach shows here poll by poll rather than only at its deadline.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Poll {
    /// What is polled.
    pub polled: Polled,
    /// The poll's number, 1 for the first.
    pub number: u32,
    /// The state the answer names, as the server wrote it (at most 64 characters), if any.
    pub state: Option<String>,
    /// Whether the condition holds (the wait is over), cannot hold any more (it fails), or not
    /// yet.
    pub verdict: Verdict,
    /// How long the wait has lasted.
    pub elapsed: Duration,
    /// The wait's deadline, from its start.
    pub deadline: Duration,
}

/// `get_pipe /v1/...: poll 3 after 2.5 s of 600.0 s: state Provisioning`.
impl fmt::Display for Poll {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "{}: poll {} after {:.1} s of {:.1} s: ",
            self.polled,
            self.number,
            self.elapsed.as_secs_f64(),
            self.deadline.as_secs_f64()
        )?;
        match &self.state {
            Some(state) => write!(f, "state {state}"),
            None => f.write_str("no state"),
        }
    }
}
