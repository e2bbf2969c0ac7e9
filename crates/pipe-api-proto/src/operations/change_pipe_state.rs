//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}/state`: the contract's `pipeStateUpdate`.

use pipe_api_types::{ChangePipeStateRequest, OrganizationId, Pipe, PipeId, ServiceId};

operation! {
    /// Starts, stops or resyncs a pipe (a `PipeCommand` converts into the request). The
    /// answer is the pipe as the command left it (such as `Stopping`); its state then
    /// moves on its own: wait for it with a poll.
    pipe.change_pipe_state: ChangePipeState(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: ChangePipeStateRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"state" -> Pipe;
}
