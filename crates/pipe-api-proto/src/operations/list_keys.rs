//! `GET /v1/organizations/{organization_id}/keys`: the contract's `openapiKeyGetList`.

use pipe_api_types::{Key, OrganizationId};

operation! {
    /// Lists the API keys of an organization.
    organization.list_keys: ListKeys(organization_id: OrganizationId)
        Management GET "v1"/"organizations"/{organization_id}/"keys" -> Vec<Key>;
}
