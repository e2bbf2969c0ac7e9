//! Services.

use pipe_api_proto::{Error, GetService};
use pipe_api_types::{OrganizationId, Service, ServiceId};

use crate::Client;

impl Client {
    /// Reads a service.
    pub fn get_service(&self, organization_id: OrganizationId, service_id: ServiceId) -> Result<Service, Error> {
        self.value(&GetService::new(organization_id, service_id))
    }
}
