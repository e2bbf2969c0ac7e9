//! API keys. A key's `key_id` here is its management id ([`Key::id`]), not the key id that
//! authenticates.

use pipe_api_proto::{CreateKey, DeleteKey, Error, GetKey, ListKeys, UpdateKey};
use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, Key, KeyId, OrganizationId, UpdateKeyRequest};

use crate::Client;

impl Client {
    /// Lists the API keys of `organization_id`.
    pub fn list_keys(&self, organization_id: OrganizationId) -> Result<Vec<Key>, Error> {
        self.value(&ListKeys::new(organization_id))
    }

    /// Creates an API key in `organization_id`. The response carries the new key id and
    /// secret, shown this once. Never re-sent automatically.
    pub fn create_key(
        &self,
        organization_id: OrganizationId,
        request: CreateKeyRequest,
    ) -> Result<CreateKeyResponse, Error> {
        self.value(&CreateKey::new(organization_id, request))
    }

    /// Reads an API key.
    pub fn get_key(&self, organization_id: OrganizationId, key_id: KeyId) -> Result<Key, Error> {
        self.value(&GetKey::new(organization_id, key_id))
    }

    /// Changes an API key (name, state, roles, expiry, IP access list); returns it as changed.
    pub fn update_key(
        &self,
        organization_id: OrganizationId,
        key_id: KeyId,
        request: UpdateKeyRequest,
    ) -> Result<Key, Error> {
        self.value(&UpdateKey::new(organization_id, key_id, request))
    }

    /// Deletes an API key. A key cannot delete itself: the service answers 400.
    pub fn delete_key(&self, organization_id: OrganizationId, key_id: KeyId) -> Result<(), Error> {
        self.value(&DeleteKey::new(organization_id, key_id))
    }
}
