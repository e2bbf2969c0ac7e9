//! `DELETE /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}`: the contract's `pipeDelete`.

use pipe_api_types::{OrganizationId, PipeId, ServiceId};

operation! {
    /// Deletes a pipe. The server answers an envelope without a result; reading the
    /// pipe afterwards answers `404`.
    pipe.delete_pipe: DeletePipe(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId)
        Management DELETE "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id} -> ();
}
