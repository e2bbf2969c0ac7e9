//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/pipesReversePrivateEndpoints/{endpoint_id}`: the contract's `pipeReversePrivateEndpointUpdate`.

use pipe_api_types::{OrganizationId, ReversePrivateEndpoint, ReversePrivateEndpointId, ServiceId, UpdateReversePrivateEndpointRequest};

operation! {
    /// Changes a reverse private endpoint: only what the request names.
    reverse_private_endpoint.update_reverse_private_endpoint: UpdateReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId; request: UpdateReversePrivateEndpointRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints"/{endpoint_id} -> ReversePrivateEndpoint;
}
