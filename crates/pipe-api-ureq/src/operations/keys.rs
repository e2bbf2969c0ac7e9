//! API keys.

use pipe_api_proto::{CreateKey, Error};
use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, OrganizationId};

use crate::Client;

impl Client {
    /// Creates an API key in `organization_id`. The response carries the new key id and
    /// secret, shown this once. Never re-sent automatically.
    pub fn create_key(
        &self,
        organization_id: OrganizationId,
        request: CreateKeyRequest,
    ) -> Result<CreateKeyResponse, Error> {
        self.value(&CreateKey::new(organization_id, request))
    }
}
