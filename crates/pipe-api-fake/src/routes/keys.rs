//! `/v1/organizations/{organizationId}/keys`: list, create, and get, update, delete one key
//! (by its management id).

use pipe_api_types::{CreateKeyRequest, CreateKeyResponse, IpAccessEntry, Key, KeyId, KeyState, OrganizationId};

use http::Method;
use serde_json::Value;

use super::{Call, Routed};
use crate::reply::{self, Answer, Refusal};
use crate::state::{KEY_ID_ALPHABET, KEY_SECRET_ALPHABET, KeyCredential, State, StoredKey};

/// The documented limit of keys per organization.
const MAX_KEYS_PER_ORGANIZATION: usize = 100;

/// `.../keys` and below.
pub(super) fn route(call: &mut Call<'_>, method: &Method, rest: &[&str]) -> Routed {
    Some(match (method, rest) {
        (&Method::GET, []) => list(call),
        (&Method::POST, []) => create(call),
        (method, [key]) => {
            let key = match super::parse_id::<KeyId>(key, "key") {
                Ok(key) => key,
                Err(refusal) => return Some(Err(refusal)),
            };
            match *method {
                Method::GET => get(call, key),
                Method::PATCH => update(call, key),
                Method::DELETE => delete(call, key),
                _ => return None,
            }
        }
        _ => return None,
    })
}

fn list(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let keys: Vec<&Key> = call.state.organizations[&call.organization].keys.iter().map(|k| &k.key).collect();
    Ok(reply::management_ok(call.request_id, &keys))
}

/// The stored key with management id `key`, or the service's 404.
fn find(state: &mut State, organization: OrganizationId, key: KeyId) -> Result<&mut StoredKey, Refusal> {
    let keys = &mut state.organizations.get_mut(&organization).ok_or_else(|| Refusal::not_found(organization))?.keys;
    keys.iter_mut().find(|stored| stored.key.id == key).ok_or_else(|| Refusal::not_found(key))
}

fn get(call: &mut Call<'_>, key: KeyId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = find(call.state, call.organization, key)?;
    Ok(reply::management_ok(request_id, &stored.key))
}

/// Applies what the body sets to the key, by the wire names written here: the stored key is
/// turned into JSON, changed, and read back, so a wrong wire name in a client model cannot pass.
fn update(call: &mut Call<'_>, key: KeyId) -> Result<Answer, Refusal> {
    let body: Value = call.body(crate::checks::update_key)?;
    let request_id = call.request_id;
    let stored = find(call.state, call.organization, key)?;
    let mut json = serde_json::to_value(&stored.key).expect("a stored key serializes");
    for name in ["name", "state", "roles", "ipAccessList"] {
        if let Some(value) = body.get(name) {
            json[name] = value.clone();
        }
    }
    match body.get("expireAt") {
        // `null` or `""`: the key never expires.
        Some(Value::Null) => json["expireAt"] = Value::Null,
        Some(Value::String(text)) if text.is_empty() => json["expireAt"] = Value::Null,
        Some(at) => json["expireAt"] = at.clone(),
        None => {}
    }
    if let Some(Value::Array(ids)) = body.get("assignedRoleIds") {
        // Newer servers answer the assigned roles; the fake knows no role names.
        let roles: Vec<Value> = ids.iter().map(|id| serde_json::json!({ "roleId": id })).collect();
        json["assignedRoles"] = Value::Array(roles);
    }
    stored.key = serde_json::from_value(json).expect("a changed key reads back");
    Ok(reply::management_ok(request_id, &stored.key))
}

/// Deletes a key; the key making the call cannot delete itself (400, as the service answers).
fn delete(call: &mut Call<'_>, key: KeyId) -> Result<Answer, Refusal> {
    find(call.state, call.organization, key)?;
    if key == call.caller {
        return Err(Refusal::bad_request("an API key cannot delete itself"));
    }
    call.state.organizations.get_mut(&call.organization).expect("found above").keys.retain(|k| k.key.id != key);
    Ok(reply::management_ok_empty(call.request_id))
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
