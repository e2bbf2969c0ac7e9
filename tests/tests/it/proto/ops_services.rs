//! Services: what the harness over the fixtures (`every_operation`) does not check. Validation
//! before building (update, state, create, replica scaling, password hashes), a password shown
//! only through `expose_secret`, and a password's hashes sent but never shown.

use crate::proto::common;

use common::*;
use pipe_api_proto::{BuildErrorKind, EndpointExt, UpdateService, UpdateServiceState};
use pipe_api_types::{
    EndpointProtocol, ResourceTag, Rule, ServiceCommand, ServiceEndpointChange, TagsPatch, UpdateServiceRequest,
    UpdateServiceStateRequest,
};

#[test]
fn invalid_requests_are_refused_before_anything_is_built() {
    let request = UpdateServiceRequest::new()
        .name("x".repeat(51))
        .release_channel("beta")
        .endpoints([ServiceEndpointChange::new(EndpointProtocol::Https, true)])
        .tags(TagsPatch::new().add([ResourceTag::new("bad key", "v")]));
    let error = UpdateService::new(org(), service(), request).build_request(&management()).unwrap_err();
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert!(errors.contains("name", &Rule::MaxChars(50)), "{errors}");
    assert!(errors.contains("releaseChannel", &Rule::KnownValue { known: vec!["slow", "default", "fast"] }));
    assert!(errors.contains("endpoints[0].protocol", &Rule::KnownValue { known: vec!["mysql"] }), "{errors}");
    assert!(errors.contains("tags.add[0].key", &Rule::OnlyCharacters("letters, digits, `.`, `_` and `-`")));
    assert_eq!(errors.violations().len(), 4, "{errors}");

    let typo = UpdateServiceStateRequest::new(ServiceCommand::from("wake"));
    let error = UpdateServiceState::new(org(), service(), typo).build_request(&management()).unwrap_err();
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert!(errors.contains("command", &Rule::KnownValue { known: vec!["start", "stop", "awake"] }));
    // A newer command, sent on purpose, is built.
    let newer = UpdateServiceStateRequest::new(ServiceCommand::not_yet_known("hibernate"));
    let built = UpdateServiceState::new(org(), service(), newer).build_request(&management()).unwrap();
    assert_eq!(built.body(), br#"{"command":"hibernate"}"#);
}
