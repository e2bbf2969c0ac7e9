//! `POST /v1/organizations/{organization_id}/services/{service_id}/pipes/schemaDiscovery`: the contract's `pipeSchemaDiscovery`.

use pipe_api_types::{OrganizationId, PipeSchemaDiscoveryRequest, PipeSchemaDiscoveryResponse, ServiceId};

operation! {
    /// Discovers the schema a source would bring in, before creating the pipe.
    service.discover_pipe_schema: DiscoverPipeSchema(organization_id: OrganizationId, service_id: ServiceId; request: PipeSchemaDiscoveryRequest)
        Management POST "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/"schemaDiscovery" -> PipeSchemaDiscoveryResponse;
}
