//! Keys: what the harness over the fixtures (`every_operation`) does not check. The explicit
//! `null` that clears an expiry, the two forms a server says "never expires" in, a created key's
//! secret shown only through `expose_secret`, and validation before building.

use crate::proto::common;

use common::*;
use pipe_api_proto::{BuildErrorKind, CreateKey, EndpointExt, GetKey, ListKeys, UpdateKey, render_request};
use pipe_api_tests::every_operation::KEY;
use pipe_api_types::{CreateKeyRequest, IpAccessEntry, KeyExpiry, KeyId, KeyRole, Rule, UpdateKeyRequest};

fn key() -> KeyId {
    KEY.parse().unwrap()
}

#[test]
fn snapshot_update_key_never_expires() {
    // `Never` is the explicit `null` that clears an expiry; unset fields are not sent at all.
    let never = UpdateKey::new(org(), key(), UpdateKeyRequest::new().expire_at(KeyExpiry::Never));
    insta::assert_snapshot!("update_key_never_expires", render_request(&never.build_request(&management()).unwrap()));
}

#[test]
fn a_key_never_expires_when_its_expiry_is_null_or_empty() {
    let listed =
        ListKeys::new(org()).parse_response(&management(), response(200, operation_fixture("list_keys", "ok.json")));
    let listed = listed.unwrap().value;
    assert!(listed[0].never_expires(), "expireAt null means never");
    assert!(!listed[1].never_expires(), "{:?}", listed[1].expire_at);
    let read =
        GetKey::new(org(), key()).parse_response(&management(), response(200, operation_fixture("get_key", "ok.json")));
    assert!(read.unwrap().value.never_expires(), "expireAt \"\" means never");
}

#[test]
fn a_created_keys_secret_shows_only_through_expose() {
    let create = CreateKey::new(org(), CreateKeyRequest::new("ci", [KeyRole::Developer]));
    let created = create.parse_response(&management(), response(200, operation_fixture("create_key", "ok.json")));
    let secret = created.unwrap().value.key_secret.unwrap();
    assert_eq!(secret.expose_secret(), "4b1d-secret-Qx9");
    assert!(!format!("{secret:?}").contains("4b1d-secret-Qx9"));
}

#[test]
fn an_invalid_update_is_refused_before_anything_is_built() {
    let request = UpdateKeyRequest::new()
        .roles(Vec::<KeyRole>::new())
        .state("enabld")
        .ip_access_list([IpAccessEntry::new("10.0.0.0/40", "")]);
    let error = UpdateKey::new(org(), key(), request).build_request(&management()).unwrap_err();
    assert_eq!(error.operation(), "update_key");
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert!(errors.contains("roles", &Rule::MinItems(1)), "{errors}");
    assert!(errors.contains("state", &Rule::KnownValue { known: vec!["enabled", "disabled"] }), "{errors}");
    assert!(errors.contains("ipAccessList[0].source", &Rule::IpAddressOrCidr), "{errors}");
    assert_eq!(errors.violations().len(), 3);
}
