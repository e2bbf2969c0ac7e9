//! `GET /v1/organizations/{organization_id}/services/{service_id}/pipes`: the contract's `pipeGetList`.

use pipe_api_types::{OrganizationId, Pipe, ServiceId};

operation! {
    /// Lists the pipes of a service (no pagination: every pipe comes back).
    service.list_pipes: ListPipes(organization_id: OrganizationId, service_id: ServiceId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes" -> Vec<Pipe>;
}
