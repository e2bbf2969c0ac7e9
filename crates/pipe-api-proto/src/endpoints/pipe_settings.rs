//! Tuning pipes: `PATCH .../pipes/{pipeId}/scaling`, `GET|PUT .../pipes/{pipeId}/settings`, and
//! the service-wide scaling of database pipes, `GET|PATCH .../pipesCdcScaling`.

use pipe_api_types::{OrganizationId, Pipe, PipeId, PipeSettings, PipesCdcScaling, Scaling, ServiceId};

use super::pipe_path;

endpoint! {
    /// Changes how a Kafka, Kinesis or object-storage pipe scales; answers the pipe. Database
    /// pipes are scaled together, with [`UpdatePipesCdcScaling`].
    #[derive(Clone, Debug, PartialEq)]
    pub struct UpdatePipeScaling {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the pipe.
        pub service_id: ServiceId,
        /// The pipe.
        pub pipe_id: PipeId,
        /// The fields to change (`PipeScalingPatchRequest`); the others stay as they are.
        pub request: Scaling,
    }
    /// Applies `request` to `pipe_id` of `service_id`.
    fn new;
    Management "update_pipe_scaling": PATCH -> Pipe,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("scaling"),
    body: request,
}

endpoint! {
    /// Reads a pipe's advanced settings.
    #[derive(Clone, Debug, PartialEq)]
    pub struct GetPipeSettings {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the pipe.
        pub service_id: ServiceId,
        /// The pipe.
        pub pipe_id: PipeId,
    }
    /// Reads the settings of `pipe_id` of `service_id`.
    fn new;
    Management "get_pipe_settings": GET -> PipeSettings,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("settings"),
}

endpoint! {
    /// Replaces a pipe's advanced settings with `settings`, whole (`PUT`): a setting left out is
    /// reset. Send the value [`GetPipeSettings`] read, changed where wanted: the fields this
    /// crate does not model ride in its `unknown` and go back unchanged. Answers the settings.
    #[derive(Clone, Debug, PartialEq)]
    pub struct UpdatePipeSettings {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service that owns the pipe.
        pub service_id: ServiceId,
        /// The pipe.
        pub pipe_id: PipeId,
        /// Every setting the pipe is to have (`PipeSettingsPutRequest`).
        pub settings: PipeSettings,
    }
    /// Replaces the settings of `pipe_id` of `service_id` with `settings`.
    fn new;
    Management "update_pipe_settings": PUT -> PipeSettings,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("settings"),
    body: settings,
}

endpoint! {
    /// Reads the compute shared by a service's database (CDC) pipes. Available once a database
    /// pipe was provisioned in the service.
    #[derive(Clone, Debug, PartialEq)]
    pub struct GetPipesCdcScaling {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
    }
    /// Reads the database pipes' scaling of `service_id`.
    fn new;
    Management "get_pipes_cdc_scaling": GET -> PipesCdcScaling,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipesCdcScaling"),
}

endpoint! {
    /// Changes the compute shared by a service's database (CDC) pipes; answers the new scaling.
    /// It may take a few minutes to reach the pipes.
    #[derive(Clone, Debug, PartialEq)]
    pub struct UpdatePipesCdcScaling {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
        /// The fields to change (`PipesCdcScalingPatchRequest`).
        pub request: PipesCdcScaling,
    }
    /// Applies `request` to the database pipes' scaling of `service_id`.
    fn new;
    Management "update_pipes_cdc_scaling": PATCH -> PipesCdcScaling,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipesCdcScaling"),
    body: request,
}
