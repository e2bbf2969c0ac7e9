//! `GET /v1/organizations/{organization_id}/keys/{key_id}`: the contract's `openapiKeyGet`.

use pipe_api_types::{Key, KeyId, OrganizationId};

operation! {
    /// Reads an API key.
    key.get_key: GetKey(organization_id: OrganizationId, key_id: KeyId)
        Management GET "v1"/"organizations"/{organization_id}/"keys"/{key_id} -> Key;
}
