//! `GET /v1/organizations/{organizationId}/services/{serviceId}`.

use http::Method;
use pipe_api_types::{OrganizationId, Service, ServiceId};

use crate::api::Management;
use crate::endpoint::Endpoint;

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
