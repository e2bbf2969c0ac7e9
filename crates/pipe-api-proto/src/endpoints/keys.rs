//! `POST /v1/organizations/{organizationId}/keys`.

use http::Method;
use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, OrganizationId};

use crate::api::Management;
use crate::endpoint::{Endpoint, json_body};
use crate::error::BuildErrorKind;

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
        super::organization_path(&self.organization_id).literal("keys").finish()
    }

    fn body(&self) -> Result<Option<Vec<u8>>, BuildErrorKind> {
        json_body(&self.request)
    }
}
