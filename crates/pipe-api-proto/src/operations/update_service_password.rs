//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/password`: the contract's `instancePasswordUpdate`.

use pipe_api_types::{OrganizationId, ServiceId, UpdateServicePasswordRequest, UpdateServicePasswordResponse};

operation! {
    /// Sets a service's default user's password: to the one whose hash the request
    /// sends (nothing secret is answered), or to one the server generates and answers
    /// this once (`UpdateServicePasswordRequest::generate`). Never re-sent automatically.
    service.update_service_password: UpdateServicePassword(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServicePasswordRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"password" -> UpdateServicePasswordResponse;
}
