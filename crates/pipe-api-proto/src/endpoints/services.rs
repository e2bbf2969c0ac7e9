//! `/v1/organizations/{organizationId}/services/{serviceId}`: get, update, delete, and the
//! service's state (`.../state`).

use http::Method;
use pipe_api_types::{OrganizationId, Service, ServiceId, UpdateServiceRequest, UpdateServiceStateRequest};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;

/// Reads a service.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GetService {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service.
    pub service_id: ServiceId,
}

impl GetService {
    /// Reads `service_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId) -> Self {
        GetService { organization_id, service_id }
    }
}

impl Endpoint for GetService {
    type Api = Management;
    type Output = Service;

    fn operation(&self) -> &'static str {
        "get_service"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id).finish()
    }
}

/// Changes a service: name, IP access list, private endpoints, release channel, endpoints,
/// encryption key, tags, core dumps. The answer is the service as changed.
#[derive(Clone, Debug)]
pub struct UpdateService {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service.
    pub service_id: ServiceId,
    /// What to change.
    pub request: UpdateServiceRequest,
}

impl UpdateService {
    /// Applies `request` to `service_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, request: UpdateServiceRequest) -> Self {
        UpdateService { organization_id, service_id, request }
    }
}

impl Endpoint for UpdateService {
    type Api = Management;
    type Output = Service;

    fn operation(&self) -> &'static str {
        "update_service"
    }

    fn method(&self) -> Method {
        Method::PATCH
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id).finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

/// Deletes a service. The answer has no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeleteService {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service.
    pub service_id: ServiceId,
}

impl DeleteService {
    /// Deletes `service_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId) -> Self {
        DeleteService { organization_id, service_id }
    }
}

impl Endpoint for DeleteService {
    type Api = Management;
    type Output = ();

    fn operation(&self) -> &'static str {
        "delete_service"
    }

    fn method(&self) -> Method {
        Method::DELETE
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id).finish()
    }
}

/// Starts, stops or wakes a service (`PATCH .../state`). The answer is the service, usually in
/// a passing state (`starting`, `stopping`, `awaking`): poll it, for instance with a wait on
/// `service_running`, until it settles.
#[derive(Clone, Debug)]
pub struct UpdateServiceState {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service.
    pub service_id: ServiceId,
    /// The command.
    pub request: UpdateServiceStateRequest,
}

impl UpdateServiceState {
    /// Sends `request`'s command to `service_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, request: UpdateServiceStateRequest) -> Self {
        UpdateServiceState { organization_id, service_id, request }
    }
}

impl Endpoint for UpdateServiceState {
    type Api = Management;
    type Output = Service;

    fn operation(&self) -> &'static str {
        "update_service_state"
    }

    fn method(&self) -> Method {
        Method::PATCH
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id).literal("state").finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}
