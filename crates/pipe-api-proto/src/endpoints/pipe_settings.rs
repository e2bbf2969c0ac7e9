//! Tuning pipes: `PATCH .../pipes/{pipeId}/scaling`, `GET|PUT .../pipes/{pipeId}/settings`, and
//! the service-wide scaling of database pipes, `GET|PATCH .../pipesCdcScaling`.

use http::Method;
use pipe_api_types::{OrganizationId, Pipe, PipeId, PipeSettings, PipesCdcScaling, Scaling, ServiceId};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;
use crate::url::PathBuilder;

/// `/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}`, to go on with.
fn pipe_path(organization_id: &OrganizationId, service_id: &ServiceId, pipe_id: &PipeId) -> PathBuilder {
    super::service_path(organization_id, service_id).literal("pipes").id(pipe_id.as_uuid())
}

/// The five endpoints below share one shape: the ids that place them, maybe a request body,
/// a `new` taking those in order, and an `Endpoint` impl that says only what differs.
macro_rules! tuning_endpoint {
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* $field:ident : $fty:ty ),* $(,)?
        }
        $operation:literal, $method:ident -> $output:ty,
        path: |$this:ident| $path:expr
        $(, body: $body:ident)? $(,)?
    ) => {
        $(#[$meta])*
        #[derive(Clone, Debug, PartialEq)]
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $fty, )*
        }

        impl $name {
            #[doc = concat!("A `", stringify!($name), "` of these ids", $(" and this ", stringify!($body),)? ".")]
            pub fn new($($field: $fty),*) -> Self {
                $name { $($field),* }
            }
        }

        impl Endpoint for $name {
            type Api = Management;
            type Output = $output;

            fn operation(&self) -> &'static str {
                $operation
            }

            fn method(&self) -> Method {
                Method::$method
            }

            fn path(&self) -> String {
                let $this = self;
                $path.finish()
            }

            $(
                fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
                    json_body(&self.$body)
                }
            )?
        }
    };
}

tuning_endpoint! {
    /// Changes how a Kafka, Kinesis or object-storage pipe scales; answers the pipe. Database
    /// pipes are scaled together, with [`UpdatePipesCdcScaling`].
    pub struct UpdatePipeScaling {
        /// The organization.
        organization_id: OrganizationId,
        /// The service that owns the pipe.
        service_id: ServiceId,
        /// The pipe.
        pipe_id: PipeId,
        /// The fields to change (`PipeScalingPatchRequest`); the others stay as they are.
        request: Scaling,
    }
    "update_pipe_scaling", PATCH -> Pipe,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("scaling"),
    body: request,
}

tuning_endpoint! {
    /// Reads a pipe's advanced settings.
    pub struct GetPipeSettings {
        /// The organization.
        organization_id: OrganizationId,
        /// The service that owns the pipe.
        service_id: ServiceId,
        /// The pipe.
        pipe_id: PipeId,
    }
    "get_pipe_settings", GET -> PipeSettings,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("settings"),
}

tuning_endpoint! {
    /// Replaces a pipe's advanced settings with `settings`, whole (`PUT`): a setting left out is
    /// reset. Send the value [`GetPipeSettings`] read, changed where wanted: the fields this
    /// crate does not model ride in its `unknown` and go back unchanged. Answers the settings.
    pub struct UpdatePipeSettings {
        /// The organization.
        organization_id: OrganizationId,
        /// The service that owns the pipe.
        service_id: ServiceId,
        /// The pipe.
        pipe_id: PipeId,
        /// Every setting the pipe is to have (`PipeSettingsPutRequest`).
        settings: PipeSettings,
    }
    "update_pipe_settings", PUT -> PipeSettings,
    path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id).literal("settings"),
    body: settings,
}

tuning_endpoint! {
    /// Reads the compute shared by a service's database (CDC) pipes. Available once a database
    /// pipe was provisioned in the service.
    pub struct GetPipesCdcScaling {
        /// The organization.
        organization_id: OrganizationId,
        /// The service.
        service_id: ServiceId,
    }
    "get_pipes_cdc_scaling", GET -> PipesCdcScaling,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipesCdcScaling"),
}

tuning_endpoint! {
    /// Changes the compute shared by a service's database (CDC) pipes; answers the new scaling.
    /// It may take a few minutes to reach the pipes.
    pub struct UpdatePipesCdcScaling {
        /// The organization.
        organization_id: OrganizationId,
        /// The service.
        service_id: ServiceId,
        /// The fields to change (`PipesCdcScalingPatchRequest`).
        request: PipesCdcScaling,
    }
    "update_pipes_cdc_scaling", PATCH -> PipesCdcScaling,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("pipesCdcScaling"),
    body: request,
}
