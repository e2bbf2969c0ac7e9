//! `GET /v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints`.

use http::Method;
use pipe_api_types::{OrganizationId, ReversePrivateEndpoint, ServiceId};

use crate::api::Management;
use crate::endpoint::Endpoint;

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
        super::service_path(&self.organization_id, &self.service_id).literal("pipesReversePrivateEndpoints").finish()
    }
}
