//! `POST /v1/organizations/{organizationId}/services/{serviceId}/pipes/schemaDiscovery` (beta).

use pipe_api_types::{OrganizationId, PipeSchemaDiscoveryRequest, PipeSchemaDiscoveryResponse, ServiceId};

endpoint! {
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
    /// Discovers the schema of `request`'s source from `service_id`.
    fn new;
    Management "discover_pipe_schema": POST -> PipeSchemaDiscoveryResponse,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipes").literal("schemaDiscovery"),
    body: request,
}
