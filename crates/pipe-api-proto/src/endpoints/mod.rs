//! One file per resource: each endpoint says only its method, path, query, body and output.

#[macro_use]
mod macros;

mod alerts;
mod keys;
mod pipe_settings;
mod pipes;
mod raw;
mod reverse_private_endpoints;
mod schema_discovery;
mod services;

pub use alerts::{AlertPage, CreateAlert, DeleteAlert, GetAlert, ListAlerts, UpdateAlert};
pub use keys::{CreateKey, DeleteKey, GetKey, ListKeys, UpdateKey};
pub use pipe_settings::{
    GetPipeSettings, GetPipesCdcScaling, UpdatePipeScaling, UpdatePipeSettings, UpdatePipesCdcScaling,
};
pub use pipes::{ChangePipeState, CreatePipe, DeletePipe, GetPipe, ListPipes, UpdatePipe};
pub use raw::Raw;
pub use reverse_private_endpoints::{
    CreateReversePrivateEndpoint, DeleteReversePrivateEndpoint, GetReversePrivateEndpoint, ListReversePrivateEndpoints,
    UpdateReversePrivateEndpoint,
};
pub use schema_discovery::DiscoverPipeSchema;
pub use services::{DeleteService, GetService, UpdateService, UpdateServiceState};

use pipe_api_types::{OrganizationId, PipeId, ServiceId};

use crate::url::PathBuilder;

/// `/v1/organizations/{organizationId}`, to go on with.
fn organization_path(organization_id: &OrganizationId) -> PathBuilder {
    PathBuilder::new().literal("v1").literal("organizations").id(organization_id.as_uuid())
}

/// `/v1/organizations/{organizationId}/services/{serviceId}`, to go on with.
fn service_path(organization_id: &OrganizationId, service_id: &ServiceId) -> PathBuilder {
    organization_path(organization_id).literal("services").id(service_id.as_uuid())
}

/// `/v1/organizations/{organizationId}/services/{serviceId}/pipes/{pipeId}`, to go on with.
fn pipe_path(organization_id: &OrganizationId, service_id: &ServiceId, pipe_id: &PipeId) -> PathBuilder {
    service_path(organization_id, service_id).literal("pipes").id(pipe_id.as_uuid())
}
