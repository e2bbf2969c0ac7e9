//! `GET /v1/organizations/{organization_id}`: the contract's `organizationGet`.

use pipe_api_types::{Organization, OrganizationId};

operation! {
    /// Reads an organization.
    organization.get_organization: GetOrganization(organization_id: OrganizationId)
        Management GET "v1"/"organizations"/{organization_id} -> Organization;
}
