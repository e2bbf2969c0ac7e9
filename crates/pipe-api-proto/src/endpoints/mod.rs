//! One file per resource: each endpoint says only its method, path, query, body and output.

mod alerts;
mod keys;
mod pipes;
mod raw;
mod reverse_private_endpoints;
mod services;

pub use alerts::{AlertPage, ListAlerts};
pub use keys::CreateKey;
pub use pipes::{CreatePipe, GetPipe, ListPipes};
pub use raw::Raw;
pub use reverse_private_endpoints::ListReversePrivateEndpoints;
pub use services::GetService;

use pipe_api_types::{OrganizationId, ServiceId};

/// `/v1/organizations/{organizationId}` and what follows.
fn organization_path(organization_id: &OrganizationId, rest: &[&str]) -> String {
    let organization = organization_id.to_string();
    let mut segments = vec!["v1", "organizations", organization.as_str()];
    segments.extend_from_slice(rest);
    crate::url::path(&segments)
}

/// `/v1/organizations/{organizationId}/services/{serviceId}` and what follows.
fn service_path(organization_id: &OrganizationId, service_id: &ServiceId, rest: &[&str]) -> String {
    let service = service_id.to_string();
    let mut segments = vec!["services", service.as_str()];
    segments.extend_from_slice(rest);
    organization_path(organization_id, &segments)
}
