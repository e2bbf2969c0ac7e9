//! Reverse private endpoints.

use pipe_api_proto::{Error, ListReversePrivateEndpoints};
use pipe_api_types::{OrganizationId, ReversePrivateEndpoint, ServiceId};

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
}
