//! `PATCH /v1/organizations/{organization_id}/keys/{key_id}`: the contract's `openapiKeyUpdate`.

use pipe_api_types::{Key, KeyId, OrganizationId, UpdateKeyRequest};

operation! {
    /// Changes an API key: only what the request names.
    key.update_key: UpdateKey(organization_id: OrganizationId, key_id: KeyId; request: UpdateKeyRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"keys"/{key_id} -> Key;
}
