//! Services.

use pipe_api_proto::{DeleteService, Error, GetService, UpdateService, UpdateServiceState};
use pipe_api_types::{
    OrganizationId, Service, ServiceCommand, ServiceId, UpdateServiceRequest, UpdateServiceStateRequest,
};

use crate::Client;

impl Client {
    /// Reads a service.
    pub fn get_service(&self, organization_id: OrganizationId, service_id: ServiceId) -> Result<Service, Error> {
        self.value(&GetService::new(organization_id, service_id))
    }

    /// Changes a service; returns it as changed.
    pub fn update_service(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        request: UpdateServiceRequest,
    ) -> Result<Service, Error> {
        self.value(&UpdateService::new(organization_id, service_id, request))
    }

    /// Deletes a service.
    pub fn delete_service(&self, organization_id: OrganizationId, service_id: ServiceId) -> Result<(), Error> {
        self.value(&DeleteService::new(organization_id, service_id))
    }

    /// Starts, stops or wakes a service; returns it, usually in a passing state (`starting`,
    /// `stopping`, `awaking`). [`Client::wait_for_service`] waits until it runs.
    pub fn update_service_state(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        command: ServiceCommand,
    ) -> Result<Service, Error> {
        self.value(&UpdateServiceState::new(organization_id, service_id, UpdateServiceStateRequest::new(command)))
    }
}
