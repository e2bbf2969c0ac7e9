//! `POST /v1/organizations/{organization_id}/services/{service_id}/pipesReversePrivateEndpoints`: the contract's `pipeReversePrivateEndpointCreate`.

use pipe_api_types::{CreateReversePrivateEndpointRequest, OrganizationId, ReversePrivateEndpoint, ServiceId};

operation! {
    /// Creates a reverse private endpoint, which pipes use to reach a private source.
    /// Never re-sent automatically.
    service.create_reverse_private_endpoint: CreateReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId; request: CreateReversePrivateEndpointRequest)
        Management POST "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints" -> ReversePrivateEndpoint;
}
