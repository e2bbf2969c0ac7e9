//! Services: what the harness over the fixtures (`every_operation`) does not check. Validation
//! before building (update, state, create, replica scaling, password hashes), a password shown
//! only through `expose_secret`, and a password's hashes sent but never shown.

use crate::proto::common;

use common::*;
use pipe_api_proto::{
    BuildErrorKind, CreateService, EndpointExt, UpdateService, UpdateServicePassword, UpdateServiceReplicaScaling,
    UpdateServiceState, render_request,
};
use pipe_api_types::{
    AutoscalingMode, CloudProvider, CreateServiceRequest, EndpointProtocol, MemoryGb, ResourceTag, Rule,
    ServiceCommand, ServiceEndpointChange, ServiceRegion, TagsPatch, UpdateServicePasswordRequest,
    UpdateServiceReplicaScalingRequest, UpdateServiceRequest, UpdateServiceStateRequest,
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

#[test]
fn invalid_create_service_requests_are_refused_before_anything_is_built() {
    let refused = |request: CreateServiceRequest| {
        let error = CreateService::new(org(), request).build_request(&management()).unwrap_err();
        let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
        errors.clone()
    };
    let errors = refused(CreateServiceRequest::default());
    for name in ["name", "provider", "region"] {
        assert!(errors.contains(name, &Rule::Required), "{errors}");
    }
    let base = || CreateServiceRequest::new("analytics", CloudProvider::Aws, ServiceRegion::AwsEuWest1);
    let errors = refused(
        base()
            .min_replica_memory_gb(MemoryGb::gigabytes(6.0))
            .max_replica_memory_gb(MemoryGb::gigabytes(122.0))
            .num_replicas(21u32)
            .min_replicas(2u32)
            .idle_timeout_minutes(1.0),
    );
    assert!(errors.contains("minReplicaMemoryGb", &Rule::Range { min: 8, max: 356 }), "{errors}");
    assert!(errors.contains("maxReplicaMemoryGb", &Rule::MultipleOf(4)), "{errors}");
    assert!(errors.contains("numReplicas", &Rule::Range { min: 1, max: 20 }), "{errors}");
    assert!(errors.contains("numReplicas", &Rule::NotAllowedBecause("minReplicas or maxReplicas is set")));
    assert!(errors.contains("maxReplicas", &Rule::RequiredBecause("minReplicas is set")), "{errors}");
    assert!(errors.contains("idleTimeoutMinutes", &Rule::Min(5)), "{errors}");
    let errors = refused(
        base()
            .name("x".repeat(51))
            .autoscaling_mode(AutoscalingMode::Horizontal)
            .num_replicas(3u32)
            .min_replica_memory_gb(MemoryGb::gigabytes(16.0))
            .max_replica_memory_gb(MemoryGb::gigabytes(32.0)),
    );
    assert!(errors.contains("name", &Rule::MaxChars(50)), "{errors}");
    assert!(errors.contains("numReplicas", &Rule::NotAllowedBecause("autoscalingMode is horizontal")), "{errors}");
    assert!(errors.contains("maxReplicaMemoryGb", &Rule::Equals("minReplicaMemoryGb")), "{errors}");
}

#[test]
fn invalid_replica_scaling_is_refused_before_anything_is_built() {
    let errors = UpdateServiceReplicaScaling::new(
        org(),
        service(),
        UpdateServiceReplicaScalingRequest::new()
            .autoscaling_mode(AutoscalingMode::Horizontal)
            .num_replicas(2u32)
            .min_replicas(4u32)
            .max_replicas(2u32)
            .min_replica_memory_gb(MemoryGb::gigabytes(400.0)),
    )
    .build_request(&management())
    .unwrap_err();
    let BuildErrorKind::Invalid(errors) = errors.kind() else { panic!("{errors:?}") };
    assert!(errors.contains("numReplicas", &Rule::NotAllowedBecause("autoscalingMode is horizontal")), "{errors}");
    assert!(errors.contains("maxReplicas", &Rule::NotLessThan("minReplicas")), "{errors}");
    assert!(errors.contains("minReplicaMemoryGb", &Rule::Range { min: 8, max: 356 }), "{errors}");
}

/// The SHA-256 (base64) and double SHA-1 (hex) of `correct horse battery staple`.
const PASSWORD_HASHES: (&str, &str) =
    ("xLvLH77JnWW/WdhcjLYu4tuWPw/hBvSD2a+nO9Tjmoo=", "f4af2e5d85456a908e0f552f0366375b06267295");

#[test]
fn a_password_answered_once_shows_only_through_expose() {
    // A created service's, and a generated one's; the snapshots show them `[redacted]`.
    let create = CreateService::new(org(), CreateServiceRequest::default());
    let created = create.parse_response(&management(), response(200, operation_fixture("create_service", "ok.json")));
    let generate = UpdateServicePassword::new(org(), service(), UpdateServicePasswordRequest::generate());
    let generated = generate.parse_response(
        &management(),
        response(200, operation_fixture("update_service_password", "ok_generated.json")),
    );
    for (password, value) in [
        (created.unwrap().value.password, "Xq7-created-once-9Lm"),
        (generated.unwrap().value.password, "Gn8-generated-once-Qw2"),
    ] {
        let password = password.unwrap();
        assert_eq!(password.expose_secret(), value);
        let debug = format!("{password:?}");
        assert!(!debug.contains(value) && debug.contains("[redacted]"), "{debug}");
    }
}

#[test]
fn invalid_password_hashes_are_refused_before_anything_is_built() {
    let request = UpdateServicePasswordRequest::hashed("not base64 of a digest").new_double_sha1_hash("abc");
    let error = UpdateServicePassword::new(org(), service(), request).build_request(&management()).unwrap_err();
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert!(errors.contains("newPasswordHash", &Rule::Base64Of32Bytes), "{errors}");
    assert!(errors.contains("newDoubleSha1Hash", &Rule::Format("of 40 hexadecimal digits (a SHA-1 digest)")));
    let request = UpdateServicePasswordRequest::generate().new_double_sha1_hash(PASSWORD_HASHES.1);
    let error = UpdateServicePassword::new(org(), service(), request).build_request(&management()).unwrap_err();
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert_eq!(errors.violations().len(), 1, "{errors}");
}

#[test]
fn a_password_hash_is_sent_but_never_shown() {
    // A password's unsalted hash is cracked offline: it is a secret like the password.
    let (sha256, double_sha1) = PASSWORD_HASHES;
    let request = UpdateServicePasswordRequest::hashed(sha256).new_double_sha1_hash(double_sha1);
    let debug = format!("{request:?}");
    assert!(!debug.contains(sha256) && !debug.contains(double_sha1), "{debug}");
    let redacted = pipe_api_proto::redacted_json(&request).unwrap();
    assert_eq!(redacted, serde_json::json!({"newPasswordHash": "[redacted]", "newDoubleSha1Hash": "[redacted]"}));

    let endpoint = UpdateServicePassword::new(org(), service(), request);
    let built = endpoint.build_request(&management()).unwrap();
    let sent: serde_json::Value = serde_json::from_slice(built.body()).unwrap();
    assert_eq!(sent, serde_json::json!({"newPasswordHash": sha256, "newDoubleSha1Hash": double_sha1}));
    let shown = render_request(&built);
    assert!(!shown.contains(sha256) && !shown.contains(double_sha1), "{shown}");
    assert!(shown.contains(r#""newPasswordHash": "[redacted]""#), "{shown}");

    // A server that echoes them gets neither into an error.
    let echo = format!(r#"{{"status":400,"error":"BAD_REQUEST: {sha256} {double_sha1} refused","requestId":"r-1"}}"#);
    let error = crate::proto::common::api_error(&endpoint, 400, echo);
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains(sha256) && !shown.contains(double_sha1), "{shown}");
}
