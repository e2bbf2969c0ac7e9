//! One file per resource: each endpoint says only its method, path, query, body and output.

mod alerts;
mod keys;
mod pipes;
mod raw;
mod reverse_private_endpoints;
mod services;

pub use alerts::{AlertPage, CreateAlert, DeleteAlert, GetAlert, ListAlerts, UpdateAlert};
pub use keys::CreateKey;
pub use pipes::{CreatePipe, GetPipe, ListPipes};
pub use raw::Raw;
pub use reverse_private_endpoints::{
    CreateReversePrivateEndpoint, DeleteReversePrivateEndpoint, GetReversePrivateEndpoint, ListReversePrivateEndpoints,
    UpdateReversePrivateEndpoint,
};
pub use services::GetService;

use pipe_api_types::{OrganizationId, ServiceId};

use crate::url::PathBuilder;

/// `/v1/organizations/{organizationId}`, to go on with.
fn organization_path(organization_id: &OrganizationId) -> PathBuilder {
    PathBuilder::new().literal("v1").literal("organizations").id(organization_id.as_uuid())
}

/// `/v1/organizations/{organizationId}/services/{serviceId}`, to go on with.
fn service_path(organization_id: &OrganizationId, service_id: &ServiceId) -> PathBuilder {
    organization_path(organization_id).literal("services").id(service_id.as_uuid())
}
