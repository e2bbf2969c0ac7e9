//! `GET /v1/organizations/{organization_id}/services/{service_id}`: the contract's `instanceGet`.

use pipe_api_types::{OrganizationId, Service, ServiceId};

operation! {
    /// Reads a service.
    service.get_service: GetService(organization_id: OrganizationId, service_id: ServiceId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id} -> Service;
}
