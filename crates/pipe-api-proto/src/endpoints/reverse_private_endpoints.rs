//! `/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints`: list,
//! create, get, update (`PATCH`), delete.

use pipe_api_types::{
    CreateReversePrivateEndpointRequest, OrganizationId, ReversePrivateEndpoint, ReversePrivateEndpointId, ServiceId,
    UpdateReversePrivateEndpointRequest,
};

use crate::url::PathBuilder;

/// `.../services/{serviceId}/pipesReversePrivateEndpoints`.
fn collection_path(organization_id: &OrganizationId, service_id: &ServiceId) -> PathBuilder {
    super::service_path(organization_id, service_id).literal("pipesReversePrivateEndpoints")
}

/// `.../pipesReversePrivateEndpoints/{reversePrivateEndpointId}`.
fn item_path(organization_id: &OrganizationId, service_id: &ServiceId, id: &ReversePrivateEndpointId) -> PathBuilder {
    collection_path(organization_id, service_id).id(id.as_uuid())
}

endpoint! {
    /// Lists the reverse private endpoints of a service.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ListReversePrivateEndpoints {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
    }
    /// Lists the reverse private endpoints of `service_id`.
    fn new;
    Management "list_reverse_private_endpoints": GET -> Vec<ReversePrivateEndpoint>,
    path: |e| collection_path(&e.organization_id, &e.service_id),
}

endpoint! {
    /// Creates a reverse private endpoint. The server answers with the new endpoint, normally
    /// `Provisioning`: wait until it is anything else (usually `Ready`). A create is never re-sent
    /// automatically: after a failure whose outcome is unknown, list the endpoints first.
    #[derive(Clone, Debug)]
    pub struct CreateReversePrivateEndpoint {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that will own the endpoint.
        pub service_id: ServiceId,
        /// The endpoint to create.
        pub request: CreateReversePrivateEndpointRequest,
    }
    /// Creates `request` in `service_id`.
    fn new;
    Management "create_reverse_private_endpoint": POST -> ReversePrivateEndpoint,
    path: |e| collection_path(&e.organization_id, &e.service_id),
    body: request,
}

endpoint! {
    /// Reads one reverse private endpoint.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct GetReversePrivateEndpoint {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the endpoint.
        pub service_id: ServiceId,
        /// The endpoint.
        pub endpoint_id: ReversePrivateEndpointId,
    }
    /// Reads `endpoint_id` of `service_id`.
    fn new;
    Management "get_reverse_private_endpoint": GET -> ReversePrivateEndpoint,
    path: |e| item_path(&e.organization_id, &e.service_id, &e.endpoint_id),
}

endpoint! {
    /// Replaces the custom private DNS mappings of a reverse private endpoint (`PATCH`; the list
    /// is a full replacement, an empty one clears them).
    #[derive(Clone, Debug)]
    pub struct UpdateReversePrivateEndpoint {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the endpoint.
        pub service_id: ServiceId,
        /// The endpoint.
        pub endpoint_id: ReversePrivateEndpointId,
        /// The change.
        pub request: UpdateReversePrivateEndpointRequest,
    }
    /// Applies `request` to `endpoint_id` of `service_id`.
    fn new;
    Management "update_reverse_private_endpoint": PATCH -> ReversePrivateEndpoint,
    path: |e| item_path(&e.organization_id, &e.service_id, &e.endpoint_id),
    body: request,
}

endpoint! {
    /// Deletes a reverse private endpoint. It reports `Deleting` until a read answers `404`.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct DeleteReversePrivateEndpoint {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the endpoint.
        pub service_id: ServiceId,
        /// The endpoint.
        pub endpoint_id: ReversePrivateEndpointId,
    }
    /// Deletes `endpoint_id` of `service_id`.
    fn new;
    Management "delete_reverse_private_endpoint": DELETE -> (),
    path: |e| item_path(&e.organization_id, &e.service_id, &e.endpoint_id),
}
