//! `GET /v1/organizations/{organization_id}/services/{service_id}/pipesReversePrivateEndpoints/{endpoint_id}`: the contract's `pipeReversePrivateEndpointGet`.

use pipe_api_types::{OrganizationId, ReversePrivateEndpoint, ReversePrivateEndpointId, ServiceId};

operation! {
    /// Reads a reverse private endpoint.
    reverse_private_endpoint.get_reverse_private_endpoint: GetReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints"/{endpoint_id} -> ReversePrivateEndpoint;
}
