//! Pipes.

use pipe_api_proto::{CreatePipe, Error, GetPipe, ListPipes};
use pipe_api_types::{CreatePipeRequest, OrganizationId, Pipe, PipeId, ServiceId};

use crate::Client;

impl Client {
    /// Lists the pipes of a service.
    pub fn list_pipes(&self, organization_id: OrganizationId, service_id: ServiceId) -> Result<Vec<Pipe>, Error> {
        self.value(&ListPipes::new(organization_id, service_id))
    }

    /// Reads a pipe.
    pub fn get_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
    ) -> Result<Pipe, Error> {
        self.value(&GetPipe::new(organization_id, service_id, pipe_id))
    }

    /// Creates a pipe. Never re-sent automatically: when the error says the outcome is
    /// unknown, list the pipes before creating again.
    pub fn create_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        request: CreatePipeRequest,
    ) -> Result<Pipe, Error> {
        self.value(&CreatePipe::new(organization_id, service_id, request))
    }
}
