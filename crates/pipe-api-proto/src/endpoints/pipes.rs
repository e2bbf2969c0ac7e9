//! `/v1/organizations/{organizationId}/services/{serviceId}/pipes`: list, get, create, update,
//! delete, and state changes.

use http::Method;
use pipe_api_types::{
    ChangePipeStateRequest, CreatePipeRequest, OrganizationId, Pipe, PipeCommand, PipeId, ServiceId, UpdatePipeRequest,
};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;
use crate::url::PathBuilder;

/// `.../services/{serviceId}/pipes/{pipeId}`, to go on with.
fn pipe_path(organization_id: &OrganizationId, service_id: &ServiceId, pipe_id: &PipeId) -> PathBuilder {
    super::service_path(organization_id, service_id).literal("pipes").id(pipe_id.as_uuid())
}

/// Lists the pipes of a service (no pagination: every pipe comes back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListPipes {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service that owns the pipes.
    pub service_id: ServiceId,
}

impl ListPipes {
    /// Lists the pipes of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId) -> Self {
        ListPipes { organization_id, service_id }
    }
}

impl Endpoint for ListPipes {
    type Api = Management;
    type Output = Vec<Pipe>;

    fn operation(&self) -> &'static str {
        "list_pipes"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id).literal("pipes").finish()
    }
}

/// Reads one pipe.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GetPipe {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service that owns the pipe.
    pub service_id: ServiceId,
    /// The pipe.
    pub pipe_id: PipeId,
}

impl GetPipe {
    /// Reads `pipe_id` of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId) -> Self {
        GetPipe { organization_id, service_id, pipe_id }
    }
}

impl Endpoint for GetPipe {
    type Api = Management;
    type Output = Pipe;

    fn operation(&self) -> &'static str {
        "get_pipe"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        pipe_path(&self.organization_id, &self.service_id, &self.pipe_id).finish()
    }
}

/// Creates a pipe (beta). The server answers 200 with the new pipe, normally `Provisioning`.
/// A create is never re-sent automatically: after a failure whose outcome is unknown, list
/// the pipes before creating again.
#[derive(Clone, Debug)]
pub struct CreatePipe {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service that will own the pipe.
    pub service_id: ServiceId,
    /// The pipe to create.
    pub request: CreatePipeRequest,
}

impl CreatePipe {
    /// Creates `request` in `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, request: CreatePipeRequest) -> Self {
        CreatePipe { organization_id, service_id, request }
    }
}

impl Endpoint for CreatePipe {
    type Api = Management;
    type Output = Pipe;

    fn operation(&self) -> &'static str {
        "create_pipe"
    }

    fn method(&self) -> Method {
        Method::POST
    }

    fn path(&self) -> String {
        super::service_path(&self.organization_id, &self.service_id).literal("pipes").finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

/// Changes a pipe: only what the request names. The server answers with the changed pipe. A
/// database pipe's tables can be added or removed only while it is paused.
#[derive(Clone, Debug)]
pub struct UpdatePipe {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service that owns the pipe.
    pub service_id: ServiceId,
    /// The pipe.
    pub pipe_id: PipeId,
    /// What changes.
    pub request: UpdatePipeRequest,
}

impl UpdatePipe {
    /// Applies `request` to `pipe_id` of `service_id`.
    pub fn new(
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
        request: UpdatePipeRequest,
    ) -> Self {
        UpdatePipe { organization_id, service_id, pipe_id, request }
    }
}

impl Endpoint for UpdatePipe {
    type Api = Management;
    type Output = Pipe;

    fn operation(&self) -> &'static str {
        "update_pipe"
    }

    fn method(&self) -> Method {
        Method::PATCH
    }

    fn path(&self) -> String {
        pipe_path(&self.organization_id, &self.service_id, &self.pipe_id).finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

/// Deletes a pipe. The server answers an envelope without a result; reading the pipe after
/// answers `404`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeletePipe {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service that owns the pipe.
    pub service_id: ServiceId,
    /// The pipe.
    pub pipe_id: PipeId,
}

impl DeletePipe {
    /// Deletes `pipe_id` of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId) -> Self {
        DeletePipe { organization_id, service_id, pipe_id }
    }
}

impl Endpoint for DeletePipe {
    type Api = Management;
    type Output = ();

    fn operation(&self) -> &'static str {
        "delete_pipe"
    }

    fn method(&self) -> Method {
        Method::DELETE
    }

    fn path(&self) -> String {
        pipe_path(&self.organization_id, &self.service_id, &self.pipe_id).finish()
    }
}

/// Starts, stops or resyncs a pipe ([`PipeCommand`]). The server answers with the pipe, whose
/// state then moves on its own (`Stopping` to `Stopped`, ...): wait for it with a poll.
#[derive(Clone, Debug)]
pub struct ChangePipeState {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The service that owns the pipe.
    pub service_id: ServiceId,
    /// The pipe.
    pub pipe_id: PipeId,
    /// The command, as sent.
    pub request: ChangePipeStateRequest,
}

impl ChangePipeState {
    /// Sends `command` to `pipe_id` of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId, command: PipeCommand) -> Self {
        ChangePipeState { organization_id, service_id, pipe_id, request: ChangePipeStateRequest::new(command) }
    }
}

impl Endpoint for ChangePipeState {
    type Api = Management;
    type Output = Pipe;

    fn operation(&self) -> &'static str {
        "change_pipe_state"
    }

    fn method(&self) -> Method {
        Method::PATCH
    }

    fn path(&self) -> String {
        pipe_path(&self.organization_id, &self.service_id, &self.pipe_id).literal("state").finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}
