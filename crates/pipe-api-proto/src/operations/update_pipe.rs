//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}`: the contract's `pipeUpdate`.

use pipe_api_types::{OrganizationId, Pipe, PipeId, ServiceId, UpdatePipeRequest};

operation! {
    /// Changes a pipe: only what the request names. A database pipe's tables can be
    /// added or removed only while it is paused.
    pipe.update_pipe: UpdatePipe(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: UpdatePipeRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id} -> Pipe;
}
