//! Keys: list, get, update, delete. A snapshot of each request, each success fixture parsed
//! field by field, the error answers these operations get, and validation before building.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{BuildErrorKind, DeleteKey, EndpointExt, GetKey, ListKeys, UpdateKey, render_request};
use pipe_api_types::{IpAccessEntry, KeyExpiry, KeyId, KeyRole, KeyState, RoleId, Rule, UpdateKeyRequest};
use time::macros::datetime;

const KEY: &str = "6c2a5d8f-3b4e-4f90-8c2d-1e3f4a5b6c7d";

fn key() -> KeyId {
    KEY.parse().unwrap()
}

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "list_keys_ok" => include_bytes!("fixtures/operations/list_keys/ok.json"),
        "get_key_ok" => include_bytes!("fixtures/operations/get_key/ok.json"),
        "update_key_ok" => include_bytes!("fixtures/operations/update_key/ok.json"),
        "delete_key_ok" => include_bytes!("fixtures/operations/delete_key/ok.json"),
        "error_delete_self_400" => include_bytes!("fixtures/operations/delete_key/400_delete_self.json"),
        "error_get_key_404" => include_bytes!("fixtures/operations/get_key/404.json"),
        "error_update_key_403" => include_bytes!("fixtures/operations/update_key/403.json"),
        other => panic!("no fixture {other}"),
    }
}

fn full_update() -> UpdateKeyRequest {
    UpdateKeyRequest::new()
        .name("dashboards-readonly")
        .state(KeyState::Disabled)
        .roles([KeyRole::Developer])
        .assigned_role_ids(["0d9c8b7a-6f5e-4d3c-8b2a-190817161514".parse::<RoleId>().unwrap()])
        .expire_at(datetime!(2027-01-01 00:00:00 UTC))
        .ip_access_list([IpAccessEntry::new("198.51.100.0/24", "ci")])
}

#[test]
fn snapshot_list_and_get_keys() {
    insta::assert_snapshot!("list_keys", render_request(&ListKeys::new(org()).build_request(&management()).unwrap()));
    insta::assert_snapshot!(
        "get_key",
        render_request(&GetKey::new(org(), key()).build_request(&management()).unwrap())
    );
}

#[test]
fn snapshot_update_key() {
    let full = UpdateKey::new(org(), key(), full_update()).build_request(&management()).unwrap();
    insta::assert_snapshot!("update_key_full", render_request(&full));
    // `Never` is the explicit `null` that clears an expiry; unset fields are not sent at all.
    let never = UpdateKey::new(org(), key(), UpdateKeyRequest::new().expire_at(KeyExpiry::Never));
    insta::assert_snapshot!("update_key_never_expires", render_request(&never.build_request(&management()).unwrap()));
}

#[test]
fn snapshot_delete_key() {
    let request = DeleteKey::new(org(), key()).build_request(&management()).unwrap();
    insta::assert_snapshot!("delete_key", render_request(&request));
}

#[test]
fn list_keys_success() {
    let reply = ListKeys::new(org())
        .parse_response(&crate::common::management(), response(200, fixture("list_keys_ok")))
        .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a01"));
    let keys = reply.value;
    assert_eq!(keys.len(), 2);
    let first = &keys[0];
    assert_eq!(first.id.to_string(), "5b1f4c7e-2a3d-4e8f-9b1c-0d2e3f4a5b6c");
    assert_eq!(first.name.as_deref(), Some("ci-deployer"));
    assert_eq!(first.state, Some(KeyState::Enabled));
    assert_eq!(first.roles, Some(vec![KeyRole::Admin]));
    assert_eq!(first.key_suffix.as_deref(), Some("f3Qa"));
    assert_eq!(first.created_at, Some(datetime!(2026-03-01 10:15:30 UTC)));
    assert!(first.never_expires(), "expireAt null means never");
    assert_eq!(first.used_at, Some(datetime!(2026-03-02 08:00:00 UTC)));
    assert_eq!(first.ip_access_list.as_ref().unwrap()[0].source.as_deref(), Some("0.0.0.0/0"));
    assert!(first.unknown.is_empty());
    let second = &keys[1];
    assert_eq!(second.id, key());
    assert_eq!(second.state, Some(KeyState::Disabled));
    assert_eq!(second.roles, Some(vec![KeyRole::Developer]));
    assert_eq!(second.expire_at, Some(datetime!(2026-12-31 00:00:00 UTC)));
    assert_eq!(second.used_at, None);
    assert_eq!(second.ip_access_list, Some(vec![]), "an empty list (denies all) is not absent");
    let assigned = second.assigned_roles.as_ref().unwrap();
    assert_eq!(assigned[0].role_name.as_deref(), Some("Developer"));
    assert_eq!(assigned[0].role_type, Some(pipe_api_types::RoleType::System));
    assert_eq!(assigned[0].role_id, Some("0d9c8b7a-6f5e-4d3c-8b2a-190817161514".parse().unwrap()));
}

#[test]
fn get_key_success() {
    let reply = GetKey::new(org(), key())
        .parse_response(&crate::common::management(), response(200, fixture("get_key_ok")))
        .unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    let key = reply.value;
    assert_eq!(key.id.to_string(), KEY);
    assert_eq!(key.name.as_deref(), Some("dashboards"));
    assert_eq!(key.state, Some(KeyState::Enabled));
    assert_eq!(key.roles, Some(vec![KeyRole::Developer, KeyRole::QueryEndpoints]));
    assert_eq!(key.key_suffix.as_deref(), Some("9ZxP"));
    assert_eq!(key.created_at, Some(datetime!(2025-12-24 23:59:59 UTC)));
    assert!(key.never_expires(), "expireAt \"\" means never");
    let access = key.ip_access_list.unwrap();
    assert_eq!(access[0].source.as_deref(), Some("2001:db8::/32"));
    assert_eq!(access[0].description.as_deref(), Some("v6 office"));
}

#[test]
fn update_key_success() {
    let endpoint = UpdateKey::new(org(), key(), full_update());
    let reply = endpoint.parse_response(&crate::common::management(), response(200, fixture("update_key_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a03"));
    let key = reply.value;
    assert_eq!(key.id.to_string(), KEY);
    assert_eq!(key.name.as_deref(), Some("dashboards-readonly"));
    assert_eq!(key.state, Some(KeyState::Disabled));
    assert_eq!(key.roles, Some(vec![KeyRole::Developer]));
    assert_eq!(key.expire_at, Some(datetime!(2027-01-01 00:00:00 UTC)));
    assert_eq!(key.used_at, Some(datetime!(2026-03-02 08:01:00 UTC)));
    assert_eq!(key.ip_access_list, Some(vec![IpAccessEntry::new("198.51.100.0/24", "ci")]));
}

#[test]
fn delete_key_success_has_no_result() {
    let reply = DeleteKey::new(org(), key())
        .parse_response(&crate::common::management(), response(200, fixture("delete_key_ok")))
        .unwrap();
    assert_eq!(reply.value, ());
    assert_eq!(reply.request_id.as_deref(), Some("3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a04"));
}

#[test]
fn key_errors() {
    let error = crate::common::api_error(&DeleteKey::new(org(), key()), 400, fixture("error_delete_self_400"));
    assert_eq!(error.status(), StatusCode::BAD_REQUEST);
    assert_eq!(error.code(), Some("BAD_REQUEST"));
    assert_eq!(error.message(), Some("an API key cannot delete itself"));
    assert_eq!(error.operation(), "delete_key");
    assert_eq!(error.request_id(), Some("3c2b1a09-8f7e-4d6c-9b5a-4e3d2c1b0a05"));

    let error = crate::common::api_error(&GetKey::new(org(), key()), 404, fixture("error_get_key_404"));
    assert_eq!(error.code(), Some("NOT_FOUND"));
    assert_eq!(error.message(), Some(KEY));
    assert_eq!(error.operation(), "get_key");

    let error =
        crate::common::api_error(&UpdateKey::new(org(), key(), full_update()), 403, fixture("error_update_key_403"));
    assert_eq!(error.status(), StatusCode::FORBIDDEN);
    assert_eq!(error.code(), Some("FORBIDDEN"));
    assert_eq!(error.message(), Some("the key's role does not allow this operation"));
    assert_eq!(error.operation(), "update_key");
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
