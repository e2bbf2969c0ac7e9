//! `/v1/organizations/{organizationId}/services/{serviceId}/pipes`: list, get, create, update,
//! delete, and state changes.

use pipe_api_types::{
    ChangePipeStateRequest, CreatePipeRequest, OrganizationId, Pipe, PipeCommand, PipeId, ServiceId, UpdatePipeRequest,
};

use super::pipe_path;

endpoint! {
    /// Lists the pipes of a service (no pagination: every pipe comes back).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ListPipes {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the pipes.
        pub service_id: ServiceId,
    }
    /// Lists the pipes of `service_id`.
    fn new;
    Management "list_pipes": GET -> Vec<Pipe>,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipes"),
}

endpoint! {
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
    /// Reads `pipe_id` of `service_id`.
    fn new;
    Management "get_pipe": GET -> Pipe,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id),
}

endpoint! {
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
    /// Creates `request` in `service_id`.
    fn new;
    Management "create_pipe": POST -> Pipe,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipes"),
    body: request,
}

endpoint! {
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
    /// Applies `request` to `pipe_id` of `service_id`.
    fn new;
    Management "update_pipe": PATCH -> Pipe,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id),
    body: request,
}

endpoint! {
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
    /// Deletes `pipe_id` of `service_id`.
    fn new;
    Management "delete_pipe": DELETE -> (),
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id),
}

endpoint! {
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
    Management "change_pipe_state": PATCH -> Pipe,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("state"),
    body: request,
}

impl ChangePipeState {
    /// Sends `command` to `pipe_id` of `service_id`.
    pub fn new(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId, command: PipeCommand) -> Self {
        ChangePipeState { organization_id, service_id, pipe_id, request: ChangePipeStateRequest::new(command) }
    }
}
