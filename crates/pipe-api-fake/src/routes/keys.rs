//! `/v1/organizations/{organizationId}/keys`: list, create, and get, update, delete one key
//! (by its management id).

use pipe_api_proto::{CreateKey, DeleteKey, GetKey, ListKeys, UpdateKey};
use pipe_api_types::{KeyId, OrganizationId};
use serde_json::{Map, Value, json};

use super::{Call, Served};
use crate::permissions::Resource::Keys;
use crate::reply::{self, Answer, Refusal};
use crate::state::{KEY_ID_ALPHABET, KEY_SECRET_ALPHABET, KeyCredential, Record, State, StoredKey, date_time};

/// The documented limit of keys per organization.
const MAX_KEYS_PER_ORGANIZATION: usize = 100;

/// The rows answered here.
pub(super) const HANDLERS: &[Served] = &[
    (ListKeys::OPERATION, Keys, |call, _| list(call)),
    (CreateKey::OPERATION, Keys, |call, _| create(call)),
    (GetKey::OPERATION, Keys, |call, path| get(call, path.id("key_id")?)),
    (UpdateKey::OPERATION, Keys, |call, path| update(call, path.id("key_id")?)),
    (DeleteKey::OPERATION, Keys, |call, path| delete(call, path.id("key_id")?)),
];

fn list(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let keys: Vec<&Record> = call.state.organizations[&call.organization].keys.iter().map(|k| &k.record).collect();
    Ok(reply::management_ok(call.request_id, &keys))
}

/// The stored key with management id `key`, or the service's 404.
fn find(state: &mut State, organization: OrganizationId, key: KeyId) -> Result<&mut StoredKey, Refusal> {
    let keys = &mut state.organizations.get_mut(&organization).ok_or_else(|| Refusal::not_found(organization))?.keys;
    let id = key.to_string();
    keys.iter_mut().find(|stored| stored.id() == Some(id.as_str())).ok_or_else(|| Refusal::not_found(key))
}

fn get(call: &mut Call<'_>, key: KeyId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = find(call.state, call.organization, key)?;
    Ok(reply::management_ok(request_id, &stored.record))
}

/// Applies what the body sets (`ApiKeyPatchRequest`) to the key's record, by the wire names
/// written here, so a wrong wire name in a client model cannot pass.
fn update(call: &mut Call<'_>, key: KeyId) -> Result<Answer, Refusal> {
    let body: Map<String, Value> = call.body(crate::checks::keys::update_key)?;
    let request_id = call.request_id;
    let record = &mut find(call.state, call.organization, key)?.record;
    // `null` changes nothing: a patch names what changes.
    for name in ["name", "state", "roles", "ipAccessList"] {
        if let Some(value) = body.get(name).filter(|value| !value.is_null()) {
            record.insert(name.to_owned(), value.clone());
        }
    }
    if body.contains_key("expireAt") {
        set_expiry(record, &body);
    }
    if let Some(ids) = body.get("assignedRoleIds") {
        record.insert("assignedRoles".to_owned(), assigned_roles(ids));
    }
    Ok(reply::management_ok(request_id, record))
}

/// `expireAt` as sent; `null` or `""` mean "never expires", which the key answers by having none.
fn set_expiry(record: &mut Record, body: &Map<String, Value>) {
    match body.get("expireAt") {
        Some(Value::String(at)) if !at.is_empty() => {
            record.insert("expireAt".to_owned(), Value::from(at.as_str()));
        }
        _ => {
            record.remove("expireAt");
        }
    }
}

/// Newer servers answer `assignedRoles` (`AssignedRole`: `roleId`, `roleName`, `roleType`) for
/// the `assignedRoleIds` sent; the fake knows no role names, so it answers the ids alone.
fn assigned_roles(ids: &Value) -> Value {
    let ids = ids.as_array().into_iter().flatten();
    Value::Array(ids.map(|id| json!({ "roleId": id })).collect())
}

/// Deletes a key; the key making the call cannot delete itself (400, as the service answers).
fn delete(call: &mut Call<'_>, key: KeyId) -> Result<Answer, Refusal> {
    let id = find(call.state, call.organization, key)?.id().unwrap_or_default().to_owned();
    if id == call.caller {
        return Err(Refusal::bad_request("an API key cannot delete itself"));
    }
    let keys = &mut call.state.organizations.get_mut(&call.organization).expect("found above").keys;
    keys.retain(|k| k.id() != Some(id.as_str()));
    Ok(reply::management_ok_empty(call.request_id))
}

/// `POST .../keys` (`ApiKeyPostRequest`): the key's record is built here from the checked body,
/// with what the server owns (`id`, `keySuffix`, `createdAt`, the default `state` and
/// `ipAccessList`); the answer is `ApiKeyPostResponse` (`key`, and `keyId`, `keySecret` once).
fn create(call: &mut Call<'_>) -> Result<Answer, Refusal> {
    let body: Map<String, Value> = call.body(crate::checks::keys::create_key)?;
    let organization = call.organization;
    if call.state.organizations[&organization].keys.len() >= MAX_KEYS_PER_ORGANIZATION {
        return Err(Refusal::bad_request(format!("an organization has at most {MAX_KEYS_PER_ORGANIZATION} keys")));
    }

    // With `hashData` the client made the key itself: the server stores the hashes and returns
    // no key id nor secret. Otherwise it makes them and returns them, this once.
    let hash = body.get("hashData").and_then(Value::as_object);
    let hashed =
        |name: &str| hash.and_then(|hash| hash.get(name)).and_then(Value::as_str).unwrap_or_default().to_owned();
    let (credential, plain, suffix) = match hash {
        Some(_) => (
            KeyCredential::Hashed { key_id_hash: hashed("keyIdHash"), key_secret_hash: hashed("keySecretHash") },
            None,
            hashed("keyIdSuffix"),
        ),
        None => {
            let key_id = call.state.sequence.text(20, KEY_ID_ALPHABET);
            let key_secret = call.state.sequence.text(42, KEY_SECRET_ALPHABET);
            let suffix = key_id[key_id.len() - 4..].to_owned();
            (
                KeyCredential::Plain { key_id: key_id.clone(), key_secret: key_secret.clone() },
                Some((key_id, key_secret)),
                suffix,
            )
        }
    };

    let mut record = Record::new();
    record.insert("id".to_owned(), json!(call.state.sequence.uuid()));
    if let Some(name) = body.get("name").filter(|name| !name.is_null()) {
        record.insert("name".to_owned(), name.clone());
    }
    let state = body.get("state").filter(|state| !state.is_null()).cloned();
    record.insert("state".to_owned(), state.unwrap_or_else(|| json!("enabled")));
    if let Some(roles) = body.get("roles").filter(|roles| !roles.is_null()) {
        record.insert("roles".to_owned(), roles.clone());
    }
    if let Some(ids) = body.get("assignedRoleIds").filter(|ids| !ids.is_null()) {
        record.insert("assignedRoles".to_owned(), assigned_roles(ids));
    }
    record.insert("keySuffix".to_owned(), Value::String(suffix));
    record.insert("createdAt".to_owned(), date_time(call.state.now));
    set_expiry(&mut record, &body);
    // The real default opens the key to every address.
    let open = || json!([{ "source": "0.0.0.0/0", "description": "" }]);
    let access = body.get("ipAccessList").filter(|list| !list.is_null()).cloned();
    record.insert("ipAccessList".to_owned(), access.unwrap_or_else(open));
    insert_key(call.state, organization, record.clone(), credential);

    let mut response = Record::new();
    response.insert("key".to_owned(), Value::Object(record));
    if let Some((key_id, key_secret)) = plain {
        response.insert("keyId".to_owned(), Value::String(key_id));
        response.insert("keySecret".to_owned(), Value::String(key_secret));
    }
    Ok(reply::management_ok(call.request_id, &response))
}

/// Stores a key, creating its organization if needed.
pub(crate) fn insert_key(state: &mut State, organization: OrganizationId, record: Record, credential: KeyCredential) {
    state.organizations.entry(organization).or_default().keys.push(StoredKey { record, credential });
}
