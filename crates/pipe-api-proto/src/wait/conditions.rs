//! The conditions a [`Wait`](super::Wait) polls for: [`Verdict`], the [`Condition`] trait, and
//! the ready-made conditions on pipes, services and reverse private endpoints.

use pipe_api_types::{Pipe, PipeState, ReversePrivateEndpoint, ReversePrivateEndpointStatus, Service, ServiceState};

/// What a condition makes of one polled value.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Verdict {
    /// Not there yet: poll again.
    Continue,
    /// The wait is over, successfully.
    Done,
    /// The value can no longer become what is waited for (a failed pipe): the wait ends with
    /// [`WaitError::Failed`](super::WaitError::Failed).
    Failed,
}

/// Decides, from each polled value, whether to go on waiting. Any `FnMut(&T) -> Verdict` is one.
pub trait Condition<T> {
    /// The verdict on `value`.
    fn check(&mut self, value: &T) -> Verdict;
}

impl<T, F: FnMut(&T) -> Verdict> Condition<T> for F {
    fn check(&mut self, value: &T) -> Verdict {
        self(value)
    }
}

/// A pipe has settled: `Running`, or a state a pipe rests in (`Completed`, `Snapshot` for CDC
/// and snapshot-only pipes, `Stopped`, `Paused`). `Failed` and `InternalError` are failures;
/// anything else (provisioning, setting up, modifying, an unknown state) goes on.
pub fn pipe_settled(pipe: &Pipe) -> Verdict {
    match pipe.state {
        Some(
            PipeState::Running | PipeState::Completed | PipeState::Snapshot | PipeState::Stopped | PipeState::Paused,
        ) => Verdict::Done,
        Some(PipeState::Failed | PipeState::InternalError) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

/// A pipe is `Running`: what a started pipe is waited for. `Failed` and `InternalError` are
/// failures, and so are the states a pipe rests in without running (`Stopped`, `Paused`,
/// `Completed`): it will not start on its own. Anything else goes on.
pub fn pipe_running(pipe: &Pipe) -> Verdict {
    match pipe.state {
        Some(PipeState::Running) => Verdict::Done,
        Some(
            PipeState::Failed
            | PipeState::InternalError
            | PipeState::Stopped
            | PipeState::Paused
            | PipeState::Completed,
        ) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

/// A reverse private endpoint is `Ready`. `Failed`, `Rejected` and `Expired` are failures;
/// anything else (`Provisioning`, `PendingAcceptance` until it is accepted) goes on.
pub fn reverse_private_endpoint_ready(endpoint: &ReversePrivateEndpoint) -> Verdict {
    use ReversePrivateEndpointStatus as Status;
    match endpoint.status {
        Some(Status::Ready) => Verdict::Done,
        Some(Status::Failed | Status::Rejected | Status::Expired) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

/// A pipe has stopped: `Stopped` or `Paused`. `Failed` and `InternalError` are failures.
pub fn pipe_stopped(pipe: &Pipe) -> Verdict {
    match pipe.state {
        Some(PipeState::Stopped | PipeState::Paused) => Verdict::Done,
        Some(PipeState::Failed | PipeState::InternalError) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

/// A service is `running` (`partially_running` is not). A `stopped` service is a failure: it
/// does not start on its own, and waking it is not this wait's call.
pub fn service_running(service: &Service) -> Verdict {
    match service.state {
        Some(ServiceState::Running) => Verdict::Done,
        Some(ServiceState::Stopped) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

/// A service is `stopped`: what a stopped service is waited for before it is deleted (the
/// service notes: a delete is accepted only then). `failed` is a failure; anything else
/// (`stopping`, a state of another transition under way) goes on.
pub fn service_stopped(service: &Service) -> Verdict {
    match service.state {
        Some(ServiceState::Stopped) => Verdict::Done,
        Some(ServiceState::Failed) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

/// A reverse private endpoint has left `Provisioning` (the service notes: a client polls until
/// it is anything else). `Ready` and `PendingAcceptance` (to be accepted on the cloud side) are
/// done; `Failed`, `Rejected` and `Expired` are failures; `Provisioning`, `Unknown` and a status
/// this crate does not know go on.
pub fn reverse_private_endpoint_settled(endpoint: &ReversePrivateEndpoint) -> Verdict {
    use ReversePrivateEndpointStatus as Status;
    match endpoint.status {
        Some(Status::Ready | Status::PendingAcceptance) => Verdict::Done,
        Some(Status::Failed | Status::Rejected | Status::Expired) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}
