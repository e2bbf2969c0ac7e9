//! `/v1/organizations/{organizationId}/keys`: list, create, and get, update, delete one key.
//!
//! `{keyId}` in these paths is the key's management id ([`Key::id`], a [`KeyId`]), not the key
//! id that authenticates.

use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, Key, KeyId, OrganizationId, UpdateKeyRequest};

use crate::url::PathBuilder;

/// `.../keys`.
fn keys_path(organization_id: &OrganizationId) -> PathBuilder {
    super::organization_path(organization_id).literal("keys")
}

/// `.../keys/{keyId}`.
fn key_path(organization_id: &OrganizationId, key_id: &KeyId) -> PathBuilder {
    keys_path(organization_id).id(key_id.as_uuid())
}

endpoint! {
    /// Lists the API keys of an organization (no pagination: every key comes back).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct ListKeys {
        /// The organization.
        pub organization_id: OrganizationId,
    }
    /// Lists the keys of `organization_id`.
    fn new;
    Management "list_keys": GET -> Vec<Key>,
    path: |e| keys_path(&e.organization_id),
}

endpoint! {
    /// Creates an API key. The response holds the new key's id and secret, shown this once.
    #[derive(Clone, Debug)]
    pub struct CreateKey {
        /// The organization that will own the key.
        pub organization_id: OrganizationId,
        /// The key to create.
        pub request: CreateKeyRequest,
    }
    /// Creates `request` in `organization_id`.
    fn new;
    Management "create_key": POST -> CreateKeyResponse,
    path: |e| keys_path(&e.organization_id),
    body: request,
}

endpoint! {
    /// Reads one API key (never its secret).
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct GetKey {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The key's management id.
        pub key_id: KeyId,
    }
    /// Reads `key_id` of `organization_id`.
    fn new;
    Management "get_key": GET -> Key,
    path: |e| key_path(&e.organization_id, &e.key_id),
}

endpoint! {
    /// Changes an API key: its name, state, roles, expiry or IP access list. The answer is the key
    /// as changed.
    #[derive(Clone, Debug)]
    pub struct UpdateKey {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The key's management id.
        pub key_id: KeyId,
        /// What to change.
        pub request: UpdateKeyRequest,
    }
    /// Applies `request` to `key_id` of `organization_id`.
    fn new;
    Management "update_key": PATCH -> Key,
    path: |e| key_path(&e.organization_id, &e.key_id),
    body: request,
}

endpoint! {
    /// Deletes an API key. The key making the request cannot delete itself (the service answers
    /// 400). The answer has no result.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct DeleteKey {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The key's management id.
        pub key_id: KeyId,
    }
    /// Deletes `key_id` of `organization_id`.
    fn new;
    Management "delete_key": DELETE -> (),
    path: |e| key_path(&e.organization_id, &e.key_id),
}
