//! `POST /v1/organizations/{organizationId}/services/{serviceId}/pipes/schemaDiscovery` (beta).

use http::Method;
use pipe_api_types::{OrganizationId, PipeSchemaDiscoveryRequest, PipeSchemaDiscoveryResponse, ServiceId};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;

/// Infers the field names and ClickHouse types of a Kafka or Kinesis source without creating a
/// pipe. It changes nothing on the server.
#[derive(Clone, Debug, PartialEq)]
pub struct DiscoverPipeSchema {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service to run the discovery against.
    pub service_id: ServiceId,
    /// The source to read.
    pub request: PipeSchemaDiscoveryRequest,
}

impl DiscoverPipeSchema {
    /// Discovers the schema of `request`'s source from `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, request: PipeSchemaDiscoveryRequest) -> Self {
        DiscoverPipeSchema { organization_id, service_id, request }
    }
}

impl Endpoint for DiscoverPipeSchema {
    type Api = Management;
    type Output = PipeSchemaDiscoveryResponse;

    fn operation(&self) -> &'static str {
        "discover_pipe_schema"
    }

    fn method(&self) -> Method {
        Method::POST
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id)
            .literal("pipes")
            .literal("schemaDiscovery")
            .finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}
