//! Keys end to end, between the ureq client and the fake served on 127.0.0.1: create, list,
//! get, update (a disabled key can no longer authenticate), delete (404 after), and a key
//! cannot delete itself. Roles: a developer key reads services and keys, and nothing of pipes.

use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_types::{CreateKeyRequest, IpAccessEntry, KeyRole};
use pipe_api_ureq::Error;
use pipe_api_ureq::types::{KeyExpiry, KeyState, UpdateKeyRequest};
use time::macros::datetime;

use crate::clients::*;

#[test]
fn a_key_is_created_listed_read_updated_and_deleted() {
    let server = Fake::demo().serve().unwrap();
    let admin = client_as(&server, DEMO_KEY_ID, DEMO_KEY_SECRET);

    let created = admin.create_key(ORG, CreateKeyRequest::new("e2e-keys", [KeyRole::Developer])).unwrap();
    let (key_id, key_secret) = (created.key_id.clone().unwrap(), created.key_secret.clone().unwrap());
    let key = created.key.unwrap();

    let listed = admin.list_keys(ORG).unwrap();
    assert_eq!(listed.len(), 2, "the demo key and the new one");
    assert!(listed.iter().any(|k| k.id == key.id && k.name.as_deref() == Some("e2e-keys")));

    let read = admin.get_key(ORG, key.id).unwrap();
    assert_eq!(read, key, "get reads what create answered");

    // The new key works, until it is disabled.
    let own = client_as(&server, &key_id, key_secret.expose_secret());
    assert_eq!(own.get_key(ORG, key.id).unwrap().id, key.id);
    let change = UpdateKeyRequest::new()
        .name("e2e-keys-off")
        .state(KeyState::Disabled)
        .roles([KeyRole::Developer, KeyRole::QueryEndpoints])
        .expire_at(datetime!(2027-01-01 00:00:00 UTC))
        .ip_access_list([IpAccessEntry::new("198.51.100.0/24", "ci")]);
    let updated = admin.update_key(ORG, key.id, change).unwrap();
    assert_eq!(updated.id, key.id);
    assert_eq!(updated.name.as_deref(), Some("e2e-keys-off"));
    assert_eq!(updated.state, Some(KeyState::Disabled));
    assert_eq!(updated.roles, Some(vec![KeyRole::Developer, KeyRole::QueryEndpoints]));
    assert_eq!(updated.expire_at, Some(datetime!(2027-01-01 00:00:00 UTC)));
    assert_eq!(updated.ip_access_list, Some(vec![IpAccessEntry::new("198.51.100.0/24", "ci")]));
    assert_eq!(updated.created_at, key.created_at, "what was not sent stays");
    assert_eq!(admin.get_key(ORG, key.id).unwrap(), updated, "the change shows in the next get");
    let refused = own.get_key(ORG, key.id).unwrap_err();
    assert_eq!(api_status(&refused).map(|s| s.0), Some(401), "a disabled key can no longer authenticate: {refused}");

    let never = admin.update_key(ORG, key.id, UpdateKeyRequest::new().expire_at(KeyExpiry::Never)).unwrap();
    assert!(never.never_expires(), "an explicit null clears the expiry");

    admin.delete_key(ORG, key.id).unwrap();
    let gone = admin.get_key(ORG, key.id).unwrap_err();
    assert_eq!(api_status(&gone), Some((404, Some(key.id.to_string()))));
    assert_eq!(admin.list_keys(ORG).unwrap().len(), 1);
}

#[test]
fn a_key_cannot_delete_itself() {
    let server = Fake::demo().serve().unwrap();
    let admin = client_as(&server, DEMO_KEY_ID, DEMO_KEY_SECRET);
    let keys = admin.list_keys(ORG).unwrap();
    let error = admin.delete_key(ORG, keys[0].id).unwrap_err();
    assert_eq!(api_status(&error), Some((400, Some("an API key cannot delete itself".to_owned()))));
    assert_eq!(admin.list_keys(ORG).unwrap().len(), 1, "still there");
}

#[test]
fn an_invalid_update_sends_nothing() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    let admin = client_as(&server, DEMO_KEY_ID, DEMO_KEY_SECRET);
    let key = admin.list_keys(ORG).unwrap().remove(0);
    let before = fake.request_count();
    let error = admin.update_key(ORG, key.id, UpdateKeyRequest::new().roles(Vec::<KeyRole>::new())).unwrap_err();
    assert!(matches!(error, Error::Build(_)), "{error}");
    assert_eq!(fake.request_count(), before);
}

#[test]
fn a_developer_key_reads_services_and_keys_but_no_pipe() {
    let server = Fake::demo().serve().unwrap();
    let admin = client_as(&server, DEMO_KEY_ID, DEMO_KEY_SECRET);
    let created = admin.create_key(ORG, CreateKeyRequest::new("reader", [KeyRole::Developer])).unwrap();
    let developer = client_as(&server, created.key_id.as_deref().unwrap(), created.key_secret.unwrap().expose_secret());

    assert_eq!(developer.get_service(ORG, SERVICE).unwrap().name.as_deref(), Some("demo-warehouse"));
    assert_eq!(developer.list_keys(ORG).unwrap().len(), 2);
    let forbidden = |error: Error| assert_eq!(api_status(&error).map(|s| s.0), Some(403), "{error}");
    forbidden(developer.list_pipes(ORG, SERVICE).unwrap_err());
    let pipe = admin.list_pipes(ORG, SERVICE).unwrap().remove(0);
    forbidden(developer.get_pipe(ORG, SERVICE, pipe.id).unwrap_err());
    forbidden(developer.list_reverse_private_endpoints(ORG, SERVICE).unwrap_err());
    let request = pipe_api_tests::requests::create_pipe_requests("dev").remove(0);
    forbidden(developer.create_pipe(ORG, SERVICE, request).unwrap_err());
    forbidden(developer.update_key(ORG, created.key.unwrap().id, UpdateKeyRequest::new().name("x")).unwrap_err());
    forbidden(developer.create_key(ORG, CreateKeyRequest::new("more", [KeyRole::Admin])).unwrap_err());
}
