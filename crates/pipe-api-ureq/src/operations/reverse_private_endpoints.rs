//! Reverse private endpoints.

use pipe_api_proto::{
    CreateReversePrivateEndpoint, DeleteReversePrivateEndpoint, Error, GetReversePrivateEndpoint,
    ListReversePrivateEndpoints, UpdateReversePrivateEndpoint,
};
use pipe_api_types::{
    CreateReversePrivateEndpointRequest, OrganizationId, ReversePrivateEndpoint, ReversePrivateEndpointId, ServiceId,
    UpdateReversePrivateEndpointRequest,
};

use crate::Client;

impl Client {
    /// Lists the reverse private endpoints of a service.
    pub fn list_reverse_private_endpoints(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
    ) -> Result<Vec<ReversePrivateEndpoint>, Error> {
        self.value(&ListReversePrivateEndpoints::new(organization_id, service_id))
    }

    /// Creates a reverse private endpoint, answered `Provisioning`: wait for it with
    /// [`Client::wait`], [`GetReversePrivateEndpoint`] and
    /// [`reverse_private_endpoint_settled`](crate::reverse_private_endpoint_settled). Never
    /// re-sent automatically: when the error says the outcome is unknown, list the endpoints
    /// before creating again.
    pub fn create_reverse_private_endpoint(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        request: CreateReversePrivateEndpointRequest,
    ) -> Result<ReversePrivateEndpoint, Error> {
        self.value(&CreateReversePrivateEndpoint::new(organization_id, service_id, request))
    }

    /// Reads a reverse private endpoint.
    pub fn get_reverse_private_endpoint(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        endpoint_id: ReversePrivateEndpointId,
    ) -> Result<ReversePrivateEndpoint, Error> {
        self.value(&GetReversePrivateEndpoint::new(organization_id, service_id, endpoint_id))
    }

    /// Replaces a reverse private endpoint's custom private DNS mappings (the whole list).
    pub fn update_reverse_private_endpoint(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        endpoint_id: ReversePrivateEndpointId,
        request: UpdateReversePrivateEndpointRequest,
    ) -> Result<ReversePrivateEndpoint, Error> {
        self.value(&UpdateReversePrivateEndpoint::new(organization_id, service_id, endpoint_id, request))
    }

    /// Deletes a reverse private endpoint; it reports `Deleting` until a read answers `404`.
    pub fn delete_reverse_private_endpoint(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        endpoint_id: ReversePrivateEndpointId,
    ) -> Result<(), Error> {
        self.value(&DeleteReversePrivateEndpoint::new(organization_id, service_id, endpoint_id))
    }
}
