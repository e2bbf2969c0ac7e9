//! `POST /v1/organizations/{organization_id}/services`: the contract's `instanceCreate`.

use pipe_api_types::{CreateServiceRequest, CreateServiceResponse, OrganizationId};

operation! {
    /// Creates a service. The answer holds the new service, normally `provisioning`
    /// (it reaches `running` on its own), and its default user's password, shown this
    /// once. Never re-sent automatically: names are not unique, so after a failure whose
    /// outcome is unknown, list the services and look for the name before creating again.
    services.create_service: CreateService(organization_id: OrganizationId; request: CreateServiceRequest)
        Management POST "v1"/"organizations"/{organization_id}/"services" -> CreateServiceResponse;
}
