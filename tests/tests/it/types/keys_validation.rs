//! The update-key request's rules: roles, when sent, at least 1 (the spec) and known; state
//! known; IP entries an address or block; `expireAt` a time or an explicit `null` for never.

use crate::types::common;

use common::violations;

use pipe_api_types::{IpAccessEntry, KeyExpiry, KeyRole, KeyState, Rule, UpdateKeyRequest};
use proptest::prelude::*;
use time::macros::datetime;

#[test]
fn an_empty_update_is_valid_and_sends_nothing() {
    let request = UpdateKeyRequest::new();
    assert_eq!(violations(&request), []);
    assert_eq!(serde_json::to_string(&request).unwrap(), "{}");
}

#[test]
fn roles_when_sent_have_at_least_one_known_element() {
    let none = UpdateKeyRequest::new().roles(Vec::<KeyRole>::new());
    assert_eq!(violations(&none), [("roles".to_owned(), Rule::MinItems(1))]);
    let typo = UpdateKeyRequest::new().roles([KeyRole::Admin, KeyRole::from("admn")]);
    assert_eq!(
        violations(&typo),
        [("roles[1]".to_owned(), Rule::KnownValue { known: vec!["admin", "developer", "query_endpoints"] })]
    );
    let newer = UpdateKeyRequest::new().roles([KeyRole::not_yet_known("billing")]);
    assert_eq!(violations(&newer), []);
}

#[test]
fn state_and_ip_entries_are_checked() {
    let request = UpdateKeyRequest::new()
        .state(KeyState::from("expired"))
        .name(" ")
        .ip_access_list([IpAccessEntry::new("10.0.0.0/8", "ok"), IpAccessEntry::new("10.0.0.300", "bad")]);
    assert_eq!(
        violations(&request),
        [
            ("name".to_owned(), Rule::NotBlank),
            ("state".to_owned(), Rule::KnownValue { known: vec!["enabled", "disabled"] }),
            ("ipAccessList[1].source".to_owned(), Rule::IpAddressOrCidr),
        ]
    );
    // An empty list is valid: it denies all network access (service notes).
    assert_eq!(violations(&UpdateKeyRequest::new().ip_access_list([])), []);
}

#[test]
fn expiry_is_a_time_or_an_explicit_null() {
    let at = UpdateKeyRequest::new().expire_at(datetime!(2027-01-01 12:30:00 UTC));
    assert_eq!(serde_json::to_string(&at).unwrap(), r#"{"expireAt":"2027-01-01T12:30:00Z"}"#);
    let never = UpdateKeyRequest::new().expire_at(KeyExpiry::Never);
    assert_eq!(serde_json::to_string(&never).unwrap(), r#"{"expireAt":null}"#);
    // Read back: `null` and `""` are the explicit never, absent is no change.
    for body in [r#"{"expireAt":null}"#, r#"{"expireAt":""}"#] {
        let read: UpdateKeyRequest = serde_json::from_str(body).unwrap();
        assert_eq!(read.expire_at, Some(KeyExpiry::Never), "{body}");
    }
    let read: UpdateKeyRequest = serde_json::from_str("{}").unwrap();
    assert_eq!(read.expire_at, None);
}

proptest! {
    /// Any non-empty list of known or vouched roles passes; the rule depends on nothing else.
    #[test]
    fn any_non_empty_known_roles_pass(roles in proptest::collection::vec(
        prop_oneof![Just(KeyRole::Admin), Just(KeyRole::Developer), Just(KeyRole::QueryEndpoints),
            "[a-z]{1,8}".prop_map(|t| KeyRole::not_yet_known(&t))], 1..5)) {
        prop_assert_eq!(violations(&UpdateKeyRequest::new().roles(roles)), vec![]);
    }
}

/// The contract's `ApiKeyHashData.keyIdSuffix` says "Last 4 digits of the key ID" and then gives
/// a SHA-256 recipe: both readings are accepted, anything else is refused with the field's path.
#[test]
fn a_key_id_suffix_is_the_last_4_characters_or_a_sha256_in_base64() {
    use pipe_api_types::{CreateKeyRequest, KeyHashData};
    let sha256 = "47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=";
    let with_suffix = |suffix: &str| {
        let hash = KeyHashData::default().key_id_hash(sha256).key_id_suffix(suffix).key_secret_hash(sha256);
        violations(&CreateKeyRequest::new("k", [KeyRole::Admin]).hash_data(hash))
    };
    for accepted in ["9ZxP", "abcd", "0000", sha256] {
        assert_eq!(with_suffix(accepted), [], "{accepted}");
    }
    for refused in ["9Zx", "9ZxP1", "9Z-P", "", "not base64 of 32 bytes=="] {
        let found = with_suffix(refused);
        assert_eq!(found.len(), 1, "{refused}: {found:?}");
        assert_eq!(found[0].0, "hashData.keyIdSuffix", "{refused}");
        assert!(matches!(found[0].1, Rule::Format(_) | Rule::NotBlank | Rule::Required), "{refused}: {found:?}");
    }
}
