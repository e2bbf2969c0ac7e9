//! Pipes.

use pipe_api_proto::{ChangePipeState, CreatePipe, DeletePipe, Error, GetPipe, ListPipes, UpdatePipe};
use pipe_api_types::{CreatePipeRequest, OrganizationId, Pipe, PipeCommand, PipeId, ServiceId, UpdatePipeRequest};

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

    /// Changes a pipe: only what `request` names. A database pipe's tables can be added or
    /// removed only while it is paused.
    pub fn update_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
        request: UpdatePipeRequest,
    ) -> Result<Pipe, Error> {
        self.value(&UpdatePipe::new(organization_id, service_id, pipe_id, request))
    }

    /// Deletes a pipe; reading it afterwards is a `404` ([`Error::is_not_found`]).
    pub fn delete_pipe(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
    ) -> Result<(), Error> {
        self.value(&DeletePipe::new(organization_id, service_id, pipe_id))
    }

    /// Starts, stops or resyncs a pipe. The answer is the pipe as the command left it (such as
    /// `Stopping`); [`Client::wait_for_pipe`] waits for where it settles.
    pub fn change_pipe_state(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
        command: PipeCommand,
    ) -> Result<Pipe, Error> {
        self.value(&ChangePipeState::new(organization_id, service_id, pipe_id, command))
    }
}
