//! `/v1/organizations/{organizationId}/keys`: create.

use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, IpAccessEntry, Key, KeyId, KeyState, OrganizationId};

use http::Method;

use super::{Call, Routed};
use crate::reply::{self, Answer, Refusal};
use crate::state::{KEY_ID_ALPHABET, KEY_SECRET_ALPHABET, KeyCredential, State, StoredKey};

/// The documented limit of keys per organization.
const MAX_KEYS_PER_ORGANIZATION: usize = 100;

/// `.../keys` and below.
pub(super) fn route(call: &mut Call<'_>, method: &Method, rest: &[&str]) -> Routed {
    Some(match (method, rest) {
        (&Method::POST, []) => create(call),
        _ => return None,
    })
}

fn create(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let request: CreateKeyRequest = call.body(crate::checks::create_key)?;
    let organization = call.organization;
    if call.state.organizations[&organization].keys.len() >= MAX_KEYS_PER_ORGANIZATION {
        return Err(Refusal::bad_request(format!("an organization has at most {MAX_KEYS_PER_ORGANIZATION} keys")));
    }

    // With `hashData` the client made the key itself: the server stores the hashes and returns
    // no key id nor secret. Otherwise it makes them and returns them, this once.
    let (credential, plain) = match &request.hash_data {
        Some(hash) => (
            KeyCredential::Hashed {
                key_id_hash: hash.key_id_hash.as_deref().unwrap_or_default().to_owned(),
                key_secret_hash: hash.key_secret_hash.as_deref().unwrap_or_default().to_owned(),
            },
            None,
        ),
        None => {
            let key_id = call.state.sequence.text(20, KEY_ID_ALPHABET);
            let key_secret = call.state.sequence.text(42, KEY_SECRET_ALPHABET);
            (
                KeyCredential::Plain { key_id: key_id.clone(), key_secret: key_secret.clone() },
                Some((key_id, key_secret)),
            )
        }
    };
    let suffix = match (&plain, &request.hash_data) {
        (Some((key_id, _)), _) => key_id[key_id.len() - 4..].to_owned(),
        (None, Some(hash)) => hash.key_id_suffix.as_deref().unwrap_or_default().to_owned(),
        (None, None) => String::new(),
    };

    let mut key = Key::new(KeyId::from_uuid(call.state.sequence.uuid()));
    key.name = request.name;
    key.state = Some(request.state.unwrap_or(KeyState::Enabled));
    key.roles = request.roles;
    key.key_suffix = Some(suffix.into());
    key.created_at = Some(call.state.now);
    key.expire_at = request.expire_at;
    // The real default opens the key to every address.
    key.ip_access_list = Some(request.ip_access_list.unwrap_or_else(|| vec![IpAccessEntry::new("0.0.0.0/0", "")]));
    insert_key(call.state, organization, key.clone(), credential);

    let mut response = CreateKeyResponse::default().key(key);
    if let Some((key_id, key_secret)) = plain {
        response = response.key_id(key_id).key_secret(key_secret);
    }
    Ok(reply::management_ok(call.request_id, &response))
}

/// Stores a key, creating its organization if needed.
pub(crate) fn insert_key(state: &mut State, organization: OrganizationId, key: Key, credential: KeyCredential) {
    state.organizations.entry(organization).or_default().keys.push(StoredKey { key, credential });
}
