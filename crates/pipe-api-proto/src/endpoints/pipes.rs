//! `/v1/organizations/{organizationId}/services/{serviceId}/pipes`: list, get, create.

use http::Method;
use pipe_api_types::{CreatePipeRequest, OrganizationId, Pipe, PipeId, ServiceId};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;

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
        super::service_path(&self.organization_id, &self.service_id)
            .literal("pipes")
            .id(self.pipe_id.as_uuid())
            .finish()
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
