//! `POST /v1/organizations/{organization_id}/keys`: the contract's `openapiKeyCreate`.

use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, OrganizationId};

operation! {
    /// Creates an API key. The answer holds the key secret, once. Never re-sent
    /// automatically: after a failure whose outcome is unknown, list the keys first.
    organization.create_key: CreateKey(organization_id: OrganizationId; request: CreateKeyRequest)
        Management POST "v1"/"organizations"/{organization_id}/"keys" -> CreateKeyResponse;
}
