//! `POST /v1/organizations/{organization_id}/services/{service_id}/pipes`: the contract's `pipeCreate`.

use pipe_api_types::{CreatePipeRequest, OrganizationId, Pipe, ServiceId};

operation! {
    /// Creates a pipe (beta). The server answers with the new pipe, normally
    /// `Provisioning`. Never re-sent automatically: after a failure whose outcome is
    /// unknown, list the pipes before creating again.
    service.create_pipe: CreatePipe(organization_id: OrganizationId, service_id: ServiceId; request: CreatePipeRequest)
        Management POST "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes" -> Pipe;
}
