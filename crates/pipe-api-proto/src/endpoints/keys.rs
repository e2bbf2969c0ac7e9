//! `/v1/organizations/{organizationId}/keys`: list, create, and get, update, delete one key.
//!
//! `{keyId}` in these paths is the key's management id ([`Key::id`], a [`KeyId`]), not the key
//! id that authenticates.

use http::Method;
use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, Key, KeyId, OrganizationId, UpdateKeyRequest};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;
use crate::url::PathBuilder;

/// `.../keys`.
fn keys_path(organization_id: &OrganizationId) -> PathBuilder {
    super::organization_path(organization_id).literal("keys")
}

/// `.../keys/{keyId}`.
fn key_path(organization_id: &OrganizationId, key_id: &KeyId) -> String {
    keys_path(organization_id).id(key_id.as_uuid()).finish()
}

/// Lists the API keys of an organization (no pagination: every key comes back).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ListKeys {
    /// The organization.
    pub organization_id: OrganizationId,
}

impl ListKeys {
    /// Lists the keys of `organization_id`.
    pub fn new(organization_id: OrganizationId) -> Self {
        ListKeys { organization_id }
    }
}

impl Endpoint for ListKeys {
    type Api = Management;
    type Output = Vec<Key>;

    fn operation(&self) -> &'static str {
        "list_keys"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        keys_path(&self.organization_id).finish()
    }
}

/// Creates an API key. The response holds the new key's id and secret, shown this once.
#[derive(Clone, Debug)]
pub struct CreateKey {
    /// The organization that will own the key.
    pub organization_id: OrganizationId,
    /// The key to create.
    pub request: CreateKeyRequest,
}

impl CreateKey {
    /// Creates `request` in `organization_id`.
    pub fn new(organization_id: OrganizationId, request: CreateKeyRequest) -> Self {
        CreateKey { organization_id, request }
    }
}

impl Endpoint for CreateKey {
    type Api = Management;
    type Output = CreateKeyResponse;

    fn operation(&self) -> &'static str {
        "create_key"
    }

    fn method(&self) -> Method {
        Method::POST
    }

    fn path(&self) -> String {
        keys_path(&self.organization_id).finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

/// Reads one API key (never its secret).
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct GetKey {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The key's management id.
    pub key_id: KeyId,
}

impl GetKey {
    /// Reads `key_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, key_id: KeyId) -> Self {
        GetKey { organization_id, key_id }
    }
}

impl Endpoint for GetKey {
    type Api = Management;
    type Output = Key;

    fn operation(&self) -> &'static str {
        "get_key"
    }

    fn method(&self) -> Method {
        Method::GET
    }

    fn path(&self) -> String {
        key_path(&self.organization_id, &self.key_id)
    }
}

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

impl UpdateKey {
    /// Applies `request` to `key_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, key_id: KeyId, request: UpdateKeyRequest) -> Self {
        UpdateKey { organization_id, key_id, request }
    }
}

impl Endpoint for UpdateKey {
    type Api = Management;
    type Output = Key;

    fn operation(&self) -> &'static str {
        "update_key"
    }

    fn method(&self) -> Method {
        Method::PATCH
    }

    fn path(&self) -> String {
        key_path(&self.organization_id, &self.key_id)
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}

/// Deletes an API key. The key making the request cannot delete itself (the service answers
/// 400). The answer has no result.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct DeleteKey {
    /// The organization.
    pub organization_id: OrganizationId,
    /// The key's management id.
    pub key_id: KeyId,
}

impl DeleteKey {
    /// Deletes `key_id` of `organization_id`.
    pub fn new(organization_id: OrganizationId, key_id: KeyId) -> Self {
        DeleteKey { organization_id, key_id }
    }
}

impl Endpoint for DeleteKey {
    type Api = Management;
    type Output = ();

    fn operation(&self) -> &'static str {
        "delete_key"
    }

    fn method(&self) -> Method {
        Method::DELETE
    }

    fn path(&self) -> String {
        key_path(&self.organization_id, &self.key_id)
    }
}
