//! `GET /v1/organizations/{organization_id}/services/{service_id}/pipesReversePrivateEndpoints`: the contract's `pipeReversePrivateEndpointGetList`.

use pipe_api_types::{OrganizationId, ReversePrivateEndpoint, ServiceId};

operation! {
    /// Lists the reverse private endpoints of a service.
    service.list_reverse_private_endpoints: ListReversePrivateEndpoints(organization_id: OrganizationId, service_id: ServiceId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints" -> Vec<ReversePrivateEndpoint>;
}
