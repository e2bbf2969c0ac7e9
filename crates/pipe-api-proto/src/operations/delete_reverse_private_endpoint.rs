//! `DELETE /v1/organizations/{organization_id}/services/{service_id}/pipesReversePrivateEndpoints/{endpoint_id}`: the contract's `pipeReversePrivateEndpointDelete`.

use pipe_api_types::{OrganizationId, ReversePrivateEndpointId, ServiceId};

operation! {
    /// Deletes a reverse private endpoint.
    reverse_private_endpoint.delete_reverse_private_endpoint: DeleteReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId)
        Management DELETE "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints"/{endpoint_id} -> ();
}
