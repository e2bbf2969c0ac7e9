//! `PATCH /v1/organizations/{organization_id}`: the contract's `organizationUpdate`.

use pipe_api_types::{Organization, OrganizationId, UpdateOrganizationRequest};

operation! {
    /// Changes an organization: only what the request names (admin keys only).
    organization.update_organization: UpdateOrganization(organization_id: OrganizationId; request: UpdateOrganizationRequest)
        Management PATCH "v1"/"organizations"/{organization_id} -> Organization;
}
