//! `DELETE /v1/organizations/{organization_id}/keys/{key_id}`: the contract's `openapiKeyDelete`.

use pipe_api_types::{KeyId, OrganizationId};

operation! {
    /// Deletes an API key (the server refuses to delete the key the request is made with).
    key.delete_key: DeleteKey(organization_id: OrganizationId, key_id: KeyId)
        Management DELETE "v1"/"organizations"/{organization_id}/"keys"/{key_id} -> ();
}
