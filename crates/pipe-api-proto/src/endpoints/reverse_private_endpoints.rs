//! `/v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints`: list,
//! create, get, update (`PATCH`), delete.

use http::Method;
use pipe_api_types::{
    CreateReversePrivateEndpointRequest, OrganizationId, ReversePrivateEndpoint, ReversePrivateEndpointId, ServiceId,
    UpdateReversePrivateEndpointRequest,
};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;
use crate::url::PathBuilder;

/// `.../services/{serviceId}/pipesReversePrivateEndpoints`.
fn collection_path(organization_id: &OrganizationId, service_id: &ServiceId) -> PathBuilder {
    super::service_path(organization_id, service_id).literal("pipesReversePrivateEndpoints")
}

/// `.../pipesReversePrivateEndpoints/{reversePrivateEndpointId}`.
fn item_path(organization_id: &OrganizationId, service_id: &ServiceId, id: &ReversePrivateEndpointId) -> String {
    collection_path(organization_id, service_id).id(id.as_uuid()).finish()
}

/// Lists the reverse private endpoints of a service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListReversePrivateEndpoints {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service.
    pub service_id: ServiceId,
}

impl ListReversePrivateEndpoints {
    /// Lists the reverse private endpoints of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId) -> Self {
        ListReversePrivateEndpoints { organization_id, service_id }
    }
}

impl Endpoint for ListReversePrivateEndpoints {
    type Api = Management;
    type Output = Vec<ReversePrivateEndpoint>;

    fn operation(&self) -> &'static str {
        "list_reverse_private_endpoints"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        collection_path(&self.organization_id, &self.service_id).finish()
    }
}

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

impl CreateReversePrivateEndpoint {
    /// Creates `request` in `service_id`.
    pub fn new(
        organization_id: OrganizationId,
        service_id: ServiceId,
        request: CreateReversePrivateEndpointRequest,
    ) -> Self {
        CreateReversePrivateEndpoint { organization_id, service_id, request }
    }
}

impl Endpoint for CreateReversePrivateEndpoint {
    type Api = Management;
    type Output = ReversePrivateEndpoint;

    fn operation(&self) -> &'static str {
        "create_reverse_private_endpoint"
    }

    fn method(&self) -> Method {
        Method::POST
    }

    fn path(&self) -> String {
        collection_path(&self.organization_id, &self.service_id).finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

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

impl GetReversePrivateEndpoint {
    /// Reads `endpoint_id` of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId) -> Self {
        GetReversePrivateEndpoint { organization_id, service_id, endpoint_id }
    }
}

impl Endpoint for GetReversePrivateEndpoint {
    type Api = Management;
    type Output = ReversePrivateEndpoint;

    fn operation(&self) -> &'static str {
        "get_reverse_private_endpoint"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        item_path(&self.organization_id, &self.service_id, &self.endpoint_id)
    }
}

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

impl UpdateReversePrivateEndpoint {
    /// Applies `request` to `endpoint_id` of `service_id`.
    pub fn new(
        organization_id: OrganizationId,
        service_id: ServiceId,
        endpoint_id: ReversePrivateEndpointId,
        request: UpdateReversePrivateEndpointRequest,
    ) -> Self {
        UpdateReversePrivateEndpoint { organization_id, service_id, endpoint_id, request }
    }
}

impl Endpoint for UpdateReversePrivateEndpoint {
    type Api = Management;
    type Output = ReversePrivateEndpoint;

    fn operation(&self) -> &'static str {
        "update_reverse_private_endpoint"
    }

    fn method(&self) -> Method {
        Method::PATCH
    }

    fn path(&self) -> String {
        item_path(&self.organization_id, &self.service_id, &self.endpoint_id)
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

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

impl DeleteReversePrivateEndpoint {
    /// Deletes `endpoint_id` of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId) -> Self {
        DeleteReversePrivateEndpoint { organization_id, service_id, endpoint_id }
    }
}

impl Endpoint for DeleteReversePrivateEndpoint {
    type Api = Management;
    type Output = ();

    fn operation(&self) -> &'static str {
        "delete_reverse_private_endpoint"
    }

    fn method(&self) -> Method {
        Method::DELETE
    }

    fn path(&self) -> String {
        item_path(&self.organization_id, &self.service_id, &self.endpoint_id)
    }
}
