//! Services: create, update, replica scaling, delete, state. A snapshot of each request, each success fixture parsed
//! field by field, the error answers these operations get, and validation before building.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{
    BuildErrorKind, CreateService, DeleteService, EndpointExt, UpdateService, UpdateServicePassword,
    UpdateServiceReplicaScaling, UpdateServiceState, render_request,
};
use pipe_api_types::{
    AutoscalingMode, CloudProvider, CreateServiceRequest, EndpointProtocol, IpAccessEntry, IpAccessListPatch, MemoryGb,
    PrivateEndpointIdsPatch, ReleaseChannel, ResourceTag, Rule, ServiceCommand, ServiceEndpointChange, ServiceRegion,
    ServiceState, TagsPatch, UpdateServicePasswordRequest, UpdateServiceReplicaScalingRequest, UpdateServiceRequest,
    UpdateServiceStateRequest,
};

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "update_service_ok" => include_bytes!("fixtures/operations/update_service/ok.json"),
        "update_service_state_ok" => include_bytes!("fixtures/operations/update_service_state/ok.json"),
        "delete_service_ok" => include_bytes!("fixtures/operations/delete_service/ok.json"),
        "error_state_409" => include_bytes!("fixtures/operations/update_service_state/409.json"),
        "error_update_service_400" => include_bytes!("fixtures/operations/update_service/400.json"),
        "error_delete_service_404" => include_bytes!("fixtures/operations/delete_service/404.json"),
        "create_service_ok" => include_bytes!("fixtures/operations/create_service/ok.json"),
        "create_service_request" => include_bytes!("fixtures/operations/create_service/request.json"),
        "error_create_service_400" => include_bytes!("fixtures/operations/create_service/400_scaling.json"),
        "update_service_replica_scaling_ok" => {
            include_bytes!("fixtures/operations/update_service_replica_scaling/ok.json")
        }
        "update_service_password_generated" => {
            include_bytes!("fixtures/operations/update_service_password/ok_generated.json")
        }
        "update_service_password_hashed" => {
            include_bytes!("fixtures/operations/update_service_password/ok_hashed.json")
        }
        "update_service_replica_scaling_request" => {
            include_bytes!("fixtures/operations/update_service_replica_scaling/request.json")
        }
        other => panic!("no fixture {other}"),
    }
}

fn full_update() -> UpdateServiceRequest {
    UpdateServiceRequest::new()
        .name("analytics-renamed")
        .ip_access_list(
            IpAccessListPatch::new()
                .remove([IpAccessEntry::new("0.0.0.0/0", "anywhere")])
                .add([IpAccessEntry::new("203.0.113.7", "office")]),
        )
        .private_endpoint_ids(PrivateEndpointIdsPatch::new().add(["vpce-0a1b2c3d4e5f"]))
        .release_channel(ReleaseChannel::Fast)
        .endpoints([ServiceEndpointChange::new(EndpointProtocol::Mysql, true)])
        .transparent_data_encryption_key_id("tde-key-2")
        .tags(TagsPatch::new().add([ResourceTag::new("env", "prod")]).remove([ResourceTag::new("env", "staging")]))
        .enable_core_dumps(false)
}

#[test]
fn snapshot_update_service() {
    let request = UpdateService::new(org(), service(), full_update()).build_request(&management()).unwrap();
    insta::assert_snapshot!("update_service_full", render_request(&request));
}

#[test]
fn snapshot_service_state_each_command() {
    for (name, command) in [
        ("update_service_state_start", ServiceCommand::Start),
        ("update_service_state_stop", ServiceCommand::Stop),
        ("update_service_state_awake", ServiceCommand::Awake),
    ] {
        let endpoint = UpdateServiceState::new(org(), service(), UpdateServiceStateRequest::new(command));
        insta::assert_snapshot!(name, render_request(&endpoint.build_request(&management()).unwrap()));
    }
}

#[test]
fn snapshot_delete_service() {
    let request = DeleteService::new(org(), service()).build_request(&management()).unwrap();
    insta::assert_snapshot!("delete_service", render_request(&request));
}

#[test]
fn update_service_success() {
    let endpoint = UpdateService::new(org(), service(), full_update());
    let reply =
        endpoint.parse_response(&crate::common::management(), response(200, fixture("update_service_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("4d3c2b1a-0f9e-4d8c-8b7a-5f4e3d2c1b01"));
    let service = reply.value;
    assert_eq!(service.id.to_string(), SERVICE);
    assert_eq!(service.name.as_deref(), Some("analytics-renamed"));
    assert_eq!(service.state, Some(ServiceState::Running));
    assert_eq!(service.provider, Some(pipe_api_types::CloudProvider::Aws));
    assert_eq!(service.region, Some(pipe_api_types::ServiceRegion::AwsEuWest1));
    let endpoints = service.endpoints.unwrap();
    assert_eq!(endpoints.len(), 2);
    assert_eq!(endpoints[1].protocol, Some(EndpointProtocol::Mysql));
    assert_eq!(endpoints[1].port, Some(3306));
    assert_eq!(endpoints[1].username.as_deref(), Some("mysql4abc123"));
    assert_eq!(service.ip_access_list, Some(vec![IpAccessEntry::new("203.0.113.7", "office")]));
    assert_eq!(service.private_endpoint_ids, Some(vec!["vpce-0a1b2c3d4e5f".into()]));
    assert_eq!(service.release_channel, Some(ReleaseChannel::Fast));
    let tags = service.tags.unwrap();
    assert_eq!(tags[0], ResourceTag::new("env", "prod"));
    assert_eq!(tags[1].key.as_deref(), Some("owner"));
    assert_eq!(tags[1].value, None, "a tag's value is optional");
    assert_eq!(service.enable_core_dumps, Some(false));
    assert_eq!(service.transparent_data_encryption_key_id.as_deref(), Some("tde-key-2"));
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
}

#[test]
fn update_service_state_success() {
    let endpoint = UpdateServiceState::new(org(), service(), UpdateServiceStateRequest::new(ServiceCommand::Awake));
    let reply = endpoint
        .parse_response(&crate::common::management(), response(200, fixture("update_service_state_ok")))
        .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("4d3c2b1a-0f9e-4d8c-8b7a-5f4e3d2c1b02"));
    let service = reply.value;
    assert_eq!(service.id.to_string(), SERVICE);
    assert_eq!(service.name.as_deref(), Some("analytics-prod"));
    assert_eq!(service.state, Some(ServiceState::Awaking));
    assert_eq!(service.idle_scaling, Some(true));
    assert_eq!(service.idle_timeout_minutes, Some(15.0));
}

#[test]
fn delete_service_success_has_no_result() {
    let reply = DeleteService::new(org(), service())
        .parse_response(&crate::common::management(), response(200, fixture("delete_service_ok")))
        .unwrap();
    assert_eq!(reply.value, ());
    assert_eq!(reply.request_id.as_deref(), Some("4d3c2b1a-0f9e-4d8c-8b7a-5f4e3d2c1b03"));
}

#[test]
fn service_errors() {
    let stop = UpdateServiceState::new(org(), service(), UpdateServiceStateRequest::new(ServiceCommand::Start));
    let error = crate::common::api_error(&stop, 409, fixture("error_state_409"));
    assert_eq!(error.status(), StatusCode::CONFLICT);
    assert_eq!(error.code(), Some("CONFLICT"));
    assert_eq!(error.message(), Some("a state transition is in progress. Current state: stopping"));
    assert_eq!(error.operation(), "update_service_state");
    assert_eq!(error.request_id(), Some("4d3c2b1a-0f9e-4d8c-8b7a-5f4e3d2c1b04"));

    let error = crate::common::api_error(
        &UpdateService::new(org(), service(), full_update()),
        400,
        fixture("error_update_service_400"),
    );
    assert_eq!(error.code(), Some("BAD_REQUEST"));
    assert_eq!(error.message(), Some("name: must be a string of 1 to 50 characters"));
    assert_eq!(error.operation(), "update_service");

    let error =
        crate::common::api_error(&DeleteService::new(org(), service()), 404, fixture("error_delete_service_404"));
    assert_eq!(error.status(), StatusCode::NOT_FOUND);
    assert_eq!(error.message(), Some(SERVICE));
    assert_eq!(error.operation(), "delete_service");
}

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

fn create_request() -> CreateServiceRequest {
    serde_json::from_slice(fixture("create_service_request")).unwrap()
}

#[test]
fn snapshot_create_service() {
    let request = CreateService::new(org(), create_request()).build_request(&management()).unwrap();
    insta::assert_snapshot!("create_service", render_request(&request));
}

#[test]
fn create_service_success_shows_the_password_only_through_expose() {
    let endpoint = CreateService::new(org(), create_request());
    let reply = endpoint.parse_response(&management(), response(200, fixture("create_service_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("7e1c2d3a-4b5f-4c6d-8e9f-0a1b2c3d4e01"));
    let created = reply.value;
    let password = created.password.as_ref().unwrap();
    assert_eq!(password.expose_secret(), "Xq7-created-once-9Lm");
    let debug = format!("{created:?}");
    assert!(!debug.contains("Xq7-created-once-9Lm"), "{debug}");
    assert!(debug.contains("[redacted]"), "{debug}");
    let service = created.service.unwrap();
    assert_eq!(service.id.to_string(), SERVICE);
    assert_eq!(service.state, Some(ServiceState::Provisioning));
    assert_eq!(service.engine_version.as_deref(), Some("25.8"));
    assert_eq!(service.num_replicas, Some(3.0));
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
    assert!(created.unknown.is_empty(), "{:?}", created.unknown);

    let error = crate::common::api_error(&endpoint, 400, fixture("error_create_service_400"));
    assert_eq!(error.operation(), "create_service");
    assert_eq!(
        error.message(),
        Some("invalid request: numReplicas: is mutually exclusive with minReplicas and maxReplicas")
    );
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
fn snapshot_update_service_replica_scaling() {
    let request: UpdateServiceReplicaScalingRequest =
        serde_json::from_slice(fixture("update_service_replica_scaling_request")).unwrap();
    let built = UpdateServiceReplicaScaling::new(org(), service(), request).build_request(&management()).unwrap();
    insta::assert_snapshot!("update_service_replica_scaling", render_request(&built));
}

#[test]
fn update_service_replica_scaling_success_reads_the_scaling_in_effect() {
    let request = UpdateServiceReplicaScalingRequest::new().num_replicas(3u32);
    let endpoint = UpdateServiceReplicaScaling::new(org(), service(), request);
    let reply =
        endpoint.parse_response(&management(), response(200, fixture("update_service_replica_scaling_ok"))).unwrap();
    let scaled = reply.value;
    assert_eq!(scaled.autoscaling_mode, Some(AutoscalingMode::Vertical));
    let current = scaled.current_scaling.unwrap();
    assert_eq!(current.effective_autoscaling_mode, Some(AutoscalingMode::Vertical));
    assert_eq!(current.effective_min_replicas, Some(3));
    assert_eq!(current.effective_max_replica_memory_gb.map(|gb| gb.value()), Some(120.0));
    assert!(current.unknown.is_empty() && scaled.unknown.is_empty(), "{:?}", scaled.unknown);

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
fn snapshot_update_service_password() {
    let (sha256, double_sha1) = PASSWORD_HASHES;
    let request = UpdateServicePasswordRequest::hashed(sha256).new_double_sha1_hash(double_sha1);
    let built = UpdateServicePassword::new(org(), service(), request).build_request(&management()).unwrap();
    insta::assert_snapshot!("update_service_password_hashed", render_request(&built));
    let built = UpdateServicePassword::new(org(), service(), UpdateServicePasswordRequest::generate())
        .build_request(&management())
        .unwrap();
    insta::assert_snapshot!("update_service_password_generated", render_request(&built));
}

#[test]
fn a_generated_password_is_a_secret_and_a_hashed_one_answers_none() {
    let endpoint = UpdateServicePassword::new(org(), service(), UpdateServicePasswordRequest::generate());
    let generated =
        endpoint.parse_response(&management(), response(200, fixture("update_service_password_generated"))).unwrap();
    let password = generated.value.password.as_ref().unwrap();
    assert_eq!(password.expose_secret(), "Gn8-generated-once-Qw2");
    let debug = format!("{:?}", generated.value);
    assert!(!debug.contains("Gn8-generated-once-Qw2") && debug.contains("[redacted]"), "{debug}");
    let hashed = UpdateServicePassword::new(org(), service(), UpdateServicePasswordRequest::hashed(PASSWORD_HASHES.0))
        .parse_response(&management(), response(200, fixture("update_service_password_hashed")))
        .unwrap();
    assert_eq!(hashed.value.password, None);
    assert!(hashed.value.unknown.is_empty());

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
