//! The update-service and service-state requests' rules, each from the contract
//! (`ServicePatchRequest`, `ResourceTagsV1`, `InstanceTagsPatch`, `ServiceStatePatchRequest`).

use crate::types::common;

use common::violations;

use pipe_api_types::{
    EndpointProtocol, IpAccessEntry, IpAccessListPatch, PrivateEndpointIdsPatch, ReleaseChannel, ResourceTag, Rule,
    ServiceCommand, ServiceEndpointChange, TagsPatch, UpdateServiceRequest, UpdateServiceStateRequest,
};
use proptest::prelude::*;

const TAG_CHARACTERS: Rule = Rule::OnlyCharacters("letters, digits, `.`, `_` and `-`");

#[test]
fn an_empty_update_is_valid_and_sends_nothing() {
    assert_eq!(violations(&UpdateServiceRequest::new()), []);
    assert_eq!(serde_json::to_string(&UpdateServiceRequest::new()).unwrap(), "{}");
}

#[test]
fn the_name_has_1_to_50_characters() {
    assert_eq!(violations(&UpdateServiceRequest::new().name("é".repeat(50))), [], "characters, not bytes");
    assert_eq!(
        violations(&UpdateServiceRequest::new().name("x".repeat(51))),
        [("name".to_owned(), Rule::MaxChars(50))]
    );
    assert_eq!(violations(&UpdateServiceRequest::new().name("")), [("name".to_owned(), Rule::NotBlank)]);
}

#[test]
fn list_patches_check_every_element() {
    let request = UpdateServiceRequest::new()
        .ip_access_list(
            IpAccessListPatch::new()
                .remove([IpAccessEntry::new("nowhere", "")])
                .add([IpAccessEntry::new("192.0.2.0/24", "ok")]),
        )
        .private_endpoint_ids(PrivateEndpointIdsPatch::new().add(["vpce-1", "\u{7}"]));
    assert_eq!(
        violations(&request),
        [
            ("ipAccessList.remove[0].source".to_owned(), Rule::IpAddressOrCidr),
            ("privateEndpointIds.add[1]".to_owned(), Rule::NoControlCharacters),
        ]
    );
}

#[test]
fn release_channel_and_endpoint_protocol_are_the_contracts_values() {
    let request = UpdateServiceRequest::new().release_channel("beta").endpoints([
        ServiceEndpointChange::new(EndpointProtocol::Mysql, false),
        ServiceEndpointChange::new(EndpointProtocol::NativeSecure, true),
        ServiceEndpointChange::new(EndpointProtocol::not_yet_known("postgres"), true),
    ]);
    assert_eq!(
        violations(&request),
        [
            ("releaseChannel".to_owned(), Rule::KnownValue { known: vec!["slow", "default", "fast"] }),
            ("endpoints[1].protocol".to_owned(), Rule::KnownValue { known: vec!["mysql"] }),
        ]
    );
    assert_eq!(violations(&UpdateServiceRequest::new().release_channel(ReleaseChannel::Slow)), []);
}

#[test]
fn tags_follow_the_contracts_lengths_counts_and_characters() {
    let request = UpdateServiceRequest::new().tags(
        TagsPatch::new()
            .add([
                ResourceTag::new("env", "prod"),
                ResourceTag::new("k".repeat(129), "v"),
                ResourceTag::new("ok", "v".repeat(257)),
                ResourceTag::new("a:b", ""),
                ResourceTag::default().value("no-key"),
            ])
            .remove((0..51).map(|i| ResourceTag::new(format!("t{i}"), "v"))),
    );
    assert_eq!(
        violations(&request),
        [
            ("tags.remove".to_owned(), Rule::MaxItems(50)),
            ("tags.add[1].key".to_owned(), Rule::MaxChars(128)),
            ("tags.add[2].value".to_owned(), Rule::MaxChars(256)),
            ("tags.add[3].key".to_owned(), TAG_CHARACTERS),
            ("tags.add[3].value".to_owned(), TAG_CHARACTERS),
            ("tags.add[4].key".to_owned(), Rule::Required),
        ]
    );
}

#[test]
fn a_state_command_is_known_or_sent_on_purpose() {
    for command in [ServiceCommand::Start, ServiceCommand::Stop, ServiceCommand::Awake] {
        assert_eq!(violations(&UpdateServiceStateRequest::new(command)), []);
    }
    assert_eq!(
        violations(&UpdateServiceStateRequest::new("resume".into())),
        [("command".to_owned(), Rule::KnownValue { known: vec!["start", "stop", "awake"] })]
    );
    assert_eq!(violations(&UpdateServiceStateRequest::new(ServiceCommand::not_yet_known("resume"))), []);
    assert_eq!(violations(&UpdateServiceStateRequest::default()), [("command".to_owned(), Rule::Required)]);
}

proptest! {
    /// A tag key is valid exactly when it is 1 to 128 of `[a-zA-Z0-9._-]` (the contract's
    /// pattern and length), checked against the rule written independently as a regex class.
    #[test]
    fn tag_keys_match_the_contracts_pattern(key in "[a-zA-Z0-9._ :/-]{0,130}") {
        let expected = !key.is_empty() && key.len() <= 128
            && key.chars().all(|c| c.is_ascii_alphanumeric() || ".-_".contains(c));
        let request = UpdateServiceRequest::new().tags(TagsPatch::new().add([ResourceTag::new(key.clone(), "v")]));
        prop_assert_eq!(violations(&request).is_empty(), expected, "{:?}", key);
    }
}
