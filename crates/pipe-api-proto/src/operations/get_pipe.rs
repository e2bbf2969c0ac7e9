//! `GET /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}`: the contract's `pipeGet`.

use pipe_api_types::{OrganizationId, Pipe, PipeId, ServiceId};

operation! {
    /// Reads a pipe.
    pipe.get_pipe: GetPipe(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id} -> Pipe;
}
