//! `DELETE /v1/organizations/{organization_id}/services/{service_id}`: the contract's `instanceDelete`.

use pipe_api_types::{OrganizationId, ServiceId};

operation! {
    /// Deletes a service (it must be stopped first).
    service.delete_service: DeleteService(organization_id: OrganizationId, service_id: ServiceId)
        Management DELETE "v1"/"organizations"/{organization_id}/"services"/{service_id} -> ();
}
