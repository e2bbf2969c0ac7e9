//! `PATCH /v1/organizations/{organization_id}/services/{service_id}`: the contract's `instanceUpdate`.

use pipe_api_types::{OrganizationId, Service, ServiceId, UpdateServiceRequest};

operation! {
    /// Changes a service: only what the request names.
    service.update_service: UpdateService(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServiceRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id} -> Service;
}
