//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/state`: the contract's `instanceStateUpdate`.

use pipe_api_types::{OrganizationId, Service, ServiceId, UpdateServiceStateRequest};

operation! {
    /// Starts, stops or wakes a service (a `ServiceCommand` converts into the request).
    service.update_service_state: UpdateServiceState(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServiceStateRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"state" -> Service;
}
