//! Services end to end, between the ureq client and the fake served on 127.0.0.1: an update
//! shows in the next get; stop, start and awake walk the states on the fake's clock; delete;
//! and a wait on a pipe of an idle service wakes it through the state endpoint when asked to
//! (issue 19's idle recovery), or fails with the 424 when not.

use std::time::Duration;

use http::Method;
use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_ureq::proto::wait::IdleRecovery;
use pipe_api_ureq::types::{
    AutoscalingMode, CloudProvider, CreateServiceRequest, EndpointProtocol, IpAccessEntry, IpAccessListPatch, MemoryGb,
    PipeId, ReleaseChannel, ResourceTag, ServiceCommand, ServiceEndpointChange, ServiceFilter, ServiceRegion,
    ServiceState, TagsPatch, UpdateOrganizationRequest, UpdateServicePasswordRequest,
    UpdateServiceReplicaScalingRequest, UpdateServiceRequest,
};
use pipe_api_ureq::{Client, Error, WaitError, WaitPolicy, pipe_settled};

use crate::clients::*;

/// The demo's running pipe.
const RUNNING_PIPE: &str = "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19001";

#[test]
fn a_key_finds_its_ids_with_no_id_copied_from_a_console() {
    let fake = Fake::demo();
    let tagged = serde_json::json!({"id": "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e10ff", "name": "tagged",
        "tags": [{"key": "Environment", "value": "Production"}]});
    fake.seed_service_json(ORG, tagged);
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    // The first call a user makes: which organization does this key belong to?
    let organizations = client.organizations().list_organizations().unwrap();
    let [organization] = organizations.as_slice() else { panic!("{organizations:?}") };
    assert_eq!(organization.id, ORG);
    assert_eq!(client.organization(organization.id).get_organization().unwrap().id, ORG);
    // Then its services, every one or by tag.
    let services = client.organization(organization.id).services();
    let every = services.list_all_services().unwrap();
    assert!(every.iter().any(|service| service.id == SERVICE), "{every:?}");
    assert_eq!(every.len(), 2);
    let production = services.list_services(ServiceFilter::any().tag("Environment", "Production")).unwrap();
    assert_eq!(production.iter().map(|service| service.name.as_deref()).collect::<Vec<_>>(), [Some("tagged")]);
    assert_eq!(client.list_services(ORG, ServiceFilter::any().tag_key("Environment")).unwrap().len(), 1);
    // The plain call on the client, and the filter that asks for every service, agree.
    assert_eq!(client.list_all_services(ORG).unwrap(), services.list_services(ServiceFilter::any()).unwrap());
}

#[test]
fn an_update_shows_in_the_next_get() {
    let server = Fake::demo().serve().unwrap();
    let client = demo_client(&server);
    let request = UpdateServiceRequest::new()
        .name("demo-renamed")
        .release_channel(ReleaseChannel::Slow)
        .enable_core_dumps(true)
        .transparent_data_encryption_key_id("tde-2")
        .ip_access_list(
            IpAccessListPatch::new()
                .remove([IpAccessEntry::new("0.0.0.0/0", "anywhere")])
                .add([IpAccessEntry::new("203.0.113.0/24", "office")]),
        )
        .tags(TagsPatch::new().add([ResourceTag::new("env", "prod"), ResourceTag::new("team", "data")]))
        .endpoints([ServiceEndpointChange::new(EndpointProtocol::Mysql, false)]);
    let updated = client.update_service(ORG, SERVICE, request).unwrap();
    let read = client.get_service(ORG, SERVICE).unwrap();
    assert_eq!(read, updated);
    assert_eq!(read.name.as_deref(), Some("demo-renamed"));
    assert_eq!(read.release_channel, Some(ReleaseChannel::Slow));
    assert_eq!(read.enable_core_dumps, Some(true));
    assert_eq!(read.transparent_data_encryption_key_id.as_deref(), Some("tde-2"));
    assert_eq!(read.ip_access_list, Some(vec![IpAccessEntry::new("203.0.113.0/24", "office")]));
    assert_eq!(read.tags, Some(vec![ResourceTag::new("env", "prod"), ResourceTag::new("team", "data")]));
    let protocols: Vec<_> = read.endpoints.unwrap().into_iter().filter_map(|e| e.protocol).collect();
    assert_eq!(protocols, [EndpointProtocol::Https, EndpointProtocol::NativeSecure], "mysql turned off");
    assert_eq!(read.engine_version.as_deref(), Some("25.8"), "what was not sent stays");
    assert_eq!(read.state, Some(ServiceState::Running));
}

#[test]
fn stop_start_and_awake_walk_the_states() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let state = || client.get_service(ORG, SERVICE).unwrap().state.unwrap();

    assert_eq!(
        client.update_service_state(ORG, SERVICE, ServiceCommand::Stop).unwrap().state,
        Some(ServiceState::Stopping)
    );
    assert_eq!(state(), ServiceState::Stopping);
    fake.advance(Duration::from_secs(30));
    assert_eq!(state(), ServiceState::Stopped);
    let error = client.list_pipes(ORG, SERVICE).unwrap_err();
    assert_eq!(api_status(&error), Some((424, Some("Service is not running. Current state: stopped".to_owned()))));

    assert_eq!(
        client.update_service_state(ORG, SERVICE, ServiceCommand::Start).unwrap().state,
        Some(ServiceState::Starting)
    );
    let error = client.update_service_state(ORG, SERVICE, ServiceCommand::Stop).unwrap_err();
    assert_eq!(api_status(&error).map(|s| s.0), Some(409), "a transition is in progress: {error}");
    fake.advance(Duration::from_secs(30));
    assert_eq!(state(), ServiceState::Running);
    assert_eq!(client.list_pipes(ORG, SERVICE).unwrap().len(), 2);

    fake.set_service_idle(ORG, SERVICE, true);
    assert_eq!(
        client.update_service_state(ORG, SERVICE, ServiceCommand::Awake).unwrap().state,
        Some(ServiceState::Awaking)
    );
    fake.advance(Duration::from_secs(30));
    assert_eq!(state(), ServiceState::Running);
}

/// The service notes: a delete is accepted only for a stopped service; the deletion then runs
/// on its own (`terminating`), and the service is gone (404) when it ends.
#[test]
fn delete_is_refused_until_the_service_is_stopped_then_it_terminates_and_is_gone() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let state = || client.get_service(ORG, SERVICE).unwrap().state.unwrap();

    let error = client.delete_service(ORG, SERVICE).unwrap_err();
    let refused = "cannot delete the service: it must be stopped first. Current state: running";
    assert_eq!(api_status(&error), Some((400, Some(refused.to_owned()))), "{error}");
    assert_eq!(state(), ServiceState::Running, "a refused delete changes nothing");

    client.update_service_state(ORG, SERVICE, ServiceCommand::Stop).unwrap();
    let error = client.delete_service(ORG, SERVICE).unwrap_err();
    assert_eq!(api_status(&error).map(|s| s.0), Some(400), "still stopping: {error}");
    fake.advance(Duration::from_secs(30));
    assert_eq!(state(), ServiceState::Stopped);

    client.delete_service(ORG, SERVICE).unwrap();
    assert_eq!(state(), ServiceState::Terminating);
    let listed = client.list_all_services(ORG).unwrap();
    assert!(listed.iter().any(|service| service.id == SERVICE), "listed while it terminates");
    fake.advance(Duration::from_secs(30));
    let error = client.get_service(ORG, SERVICE).unwrap_err();
    assert_eq!(api_status(&error), Some((404, Some(SERVICE.to_string()))));
    assert!(client.list_all_services(ORG).unwrap().iter().all(|service| service.id != SERVICE), "listed no more");
    assert_eq!(api_status(&client.delete_service(ORG, SERVICE).unwrap_err()).map(|s| s.0), Some(404));
}

/// Short real pauses: the fake's clock, not the wall, drives the service's lifecycle.
fn quick_wait() -> WaitPolicy {
    let mut policy = WaitPolicy::default();
    policy.initial_delay = Duration::from_millis(5);
    policy.max_delay = Duration::from_millis(20);
    policy.deadline = Duration::from_secs(20);
    policy
}

#[test]
fn a_wait_with_idle_recovery_wakes_the_service_and_resumes() {
    let fake = Fake::demo();
    fake.set_service_idle(ORG, SERVICE, true);
    fake.set_service_transition_time(Duration::from_secs(30));
    // Each request moves the fake's clock 10 s, so the service wakes after a few polls.
    fake.advance_per_request(Duration::from_secs(10));
    let server = fake.serve().unwrap();
    let client = demo_client(&server);

    let mut recovery = IdleRecovery::new(ORG, SERVICE);
    recovery.interval = Duration::from_millis(5);
    let mut policy = quick_wait();
    policy.idle_recovery = Some(recovery);
    let pipe: PipeId = RUNNING_PIPE.parse().unwrap();
    let running = client.wait_for_pipe(ORG, SERVICE, pipe, pipe_settled, policy).unwrap();
    assert_eq!(running.id, pipe);

    let seen = fake.requests();
    let calls: Vec<(Method, String)> = seen.iter().map(|r| (r.method.clone(), r.path.clone())).collect();
    let service_path = format!("/v1/organizations/{ORG}/services/{SERVICE}");
    let pipe_path = format!("{service_path}/pipes/{pipe}");
    // The pipe answered 424 (idle); the wait sent awake, read the service until it ran
    // (awaking at +10 s and +20 s, running at +30 s), and polled the pipe again.
    assert_eq!(calls.first(), Some(&(Method::GET, pipe_path.clone())));
    assert_eq!(calls[1], (Method::PATCH, format!("{service_path}/state")));
    assert_eq!(seen[1].body, br#"{"command":"awake"}"#);
    let reads = calls.iter().filter(|call| **call == (Method::GET, service_path.clone())).count();
    assert_eq!(reads, 3, "{calls:?}");
    assert_eq!(calls.last(), Some(&(Method::GET, pipe_path)));
    assert_eq!(calls.len(), 6, "{calls:?}");
    assert_eq!(client.get_service(ORG, SERVICE).unwrap().state, Some(ServiceState::Running));
}

#[test]
fn a_wait_without_idle_recovery_fails_with_the_424() {
    let fake = Fake::demo();
    fake.set_service_idle(ORG, SERVICE, true);
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let pipe: PipeId = RUNNING_PIPE.parse().unwrap();
    let error = client.wait_for_pipe(ORG, SERVICE, pipe, pipe_settled, quick_wait()).unwrap_err();
    let WaitError::Call { error, last: None, .. } = error else { panic!("{error:?}") };
    assert_eq!(api_status(&error), Some((424, Some("Service is not running. Current state: idle".to_owned()))));
    assert_eq!(fake.request_count(), 1, "nothing woke the service");
    assert_eq!(client.get_service(ORG, SERVICE).unwrap().state, Some(ServiceState::Idle));
}

/// A developer's client on the demo organization (the fake grants developers reads only).
fn developer(fake: &Fake, server: &pipe_api_fake::FakeServer) -> Client {
    fake.seed_key(
        ORG,
        "DevKeyId0PipeApiFake2",
        "dev_secret_of_the_fake_only_0002",
        [pipe_api_ureq::types::KeyRole::Developer],
    );
    client_as(server, "DevKeyId0PipeApiFake2", "dev_secret_of_the_fake_only_0002")
}

#[test]
fn a_created_service_shows_its_password_once_and_provisions_on_the_clock() {
    let fake = Fake::demo();
    fake.set_service_transition_time(Duration::from_secs(120));
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let request = CreateServiceRequest::new("analytics-eu", CloudProvider::Aws, ServiceRegion::AwsEuWest1)
        .min_replica_memory_gb(MemoryGb::gigabytes(16.0))
        .max_replica_memory_gb(MemoryGb::gigabytes(64.0))
        .num_replicas(2u32)
        .idle_timeout_minutes(15.0);
    let created = client.organization(ORG).services().create_service(request).unwrap();
    let password = created.password.as_ref().expect("the password, this once").expose_secret().to_owned();
    assert!(password.len() >= 16, "{password}");
    let debug = format!("{created:?}");
    assert!(!debug.contains(&password) && debug.contains("Secret([redacted])"), "{debug}");
    let service = created.service.unwrap();
    assert_eq!(service.state, Some(ServiceState::Provisioning));
    assert_eq!(service.name.as_deref(), Some("analytics-eu"));
    assert_eq!(service.num_replicas, Some(2.0));

    // Never again: neither a read nor the list carries a password.
    let scope = client.service(ORG, service.id);
    let read = scope.get_service().unwrap();
    assert_eq!(read.state, Some(ServiceState::Provisioning));
    assert!(read.unknown.is_empty(), "{:?}", read.unknown);
    let listed = client.list_services(ORG, ServiceFilter::any()).unwrap();
    assert!(listed.iter().any(|listed| listed.id == service.id), "{listed:?}");
    let seen: Vec<String> =
        fake.requests().iter().map(|seen| String::from_utf8_lossy(&seen.body).into_owned()).collect();
    assert!(seen.iter().all(|body| !body.contains(&password)), "the password is never sent back");

    fake.advance(Duration::from_secs(119));
    assert_eq!(scope.get_service().unwrap().state, Some(ServiceState::Provisioning));
    fake.advance(Duration::from_secs(1));
    assert_eq!(scope.get_service().unwrap().state, Some(ServiceState::Running));
}

#[test]
fn a_create_the_server_refuses_names_the_member_and_a_developer_may_not_create() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    // Built by hand past the client's own checks: the fake's are its own.
    let unchecked: CreateServiceRequest = serde_json::from_value(serde_json::json!({
        "name": "x", "provider": "aws", "region": "eu-west-1", "numReplicas": 2, "minReplicas": 1, "maxReplicas": 3
    }))
    .unwrap();
    let error = demo_client(&server).create_service(ORG, unchecked.clone()).unwrap_err();
    assert!(matches!(error, Error::Build(_)), "the client refuses it first: {error}");
    let raw = fake.handle(
        http::Request::post(format!("http://127.0.0.1/v1/organizations/{ORG}/services"))
            .header("authorization", basic(DEMO_KEY_ID, DEMO_KEY_SECRET))
            .body(serde_json::to_vec(&unchecked).unwrap())
            .unwrap(),
    );
    assert_eq!(raw.status(), 400);
    assert!(String::from_utf8_lossy(raw.body()).contains("numReplicas: is mutually exclusive"));

    let request = CreateServiceRequest::new("by-a-developer", CloudProvider::Gcp, ServiceRegion::GcpEuropeWest4);
    let error = developer(&fake, &server).create_service(ORG, request).unwrap_err();
    assert_eq!(api_status(&error).map(|s| s.0), Some(403), "{error}");
}

fn basic(key_id: &str, key_secret: &str) -> String {
    use base64::Engine as _;
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(format!("{key_id}:{key_secret}")))
}

#[test]
fn a_scaling_change_is_reported_once_applied_on_the_clock() {
    let fake = Fake::demo();
    fake.set_service_transition_time(Duration::from_secs(60));
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let scope = client.service(ORG, SERVICE);
    let request = UpdateServiceReplicaScalingRequest::new()
        .min_replica_memory_gb(MemoryGb::gigabytes(24.0))
        .max_replica_memory_gb(MemoryGb::gigabytes(96.0))
        .num_replicas(5u32)
        .idle_timeout_minutes(10.0);
    let answered = scope.update_service_replica_scaling(request).unwrap();
    // Asynchronous: the answer, and a read before the change is applied, show the scaling as it was.
    let current = answered.current_scaling.as_ref().unwrap();
    assert_eq!(current.effective_min_replicas, Some(3));
    assert_eq!(current.effective_max_replica_memory_gb.as_ref().map(|gb| gb.value()), Some(120.0));
    assert_eq!(answered.num_replicas, Some(3.0));
    fake.advance(Duration::from_secs(59));
    assert_eq!(scope.get_service().unwrap().num_replicas, Some(3.0));

    fake.advance(Duration::from_secs(1));
    let applied = scope.get_service().unwrap();
    assert_eq!(applied.num_replicas, Some(5.0));
    assert_eq!(applied.idle_timeout_minutes, Some(10.0));
    let current = applied.current_scaling.unwrap();
    assert_eq!((current.effective_min_replicas, current.effective_max_replicas), (Some(5), Some(5)));
    assert_eq!(current.effective_min_replica_memory_gb.as_ref().map(|gb| gb.value()), Some(24.0));
    assert_eq!(current.effective_idle_timeout_minutes, Some(10));

    // To horizontal: the replica count becomes a band at one memory size.
    let horizontal = UpdateServiceReplicaScalingRequest::new()
        .autoscaling_mode(AutoscalingMode::Horizontal)
        .min_replica_memory_gb(MemoryGb::gigabytes(32.0))
        .max_replica_memory_gb(MemoryGb::gigabytes(32.0))
        .min_replicas(2u32)
        .max_replicas(6u32);
    scope.update_service_replica_scaling(horizontal).unwrap();
    fake.advance(Duration::from_secs(60));
    let applied = scope.get_service().unwrap();
    assert_eq!(applied.autoscaling_mode, Some(AutoscalingMode::Horizontal));
    assert_eq!((applied.min_replicas, applied.max_replicas, applied.num_replicas), (Some(2), Some(6), None));
    assert_eq!(applied.replica_memory_gb.as_ref().map(|gb| gb.value()), Some(32.0));
    assert_eq!(applied.current_scaling.unwrap().effective_max_replicas, Some(6));

    // A developer reads services but may not scale them.
    let error = developer(&fake, &server)
        .update_service_replica_scaling(ORG, SERVICE, UpdateServiceReplicaScalingRequest::new().num_replicas(2u32))
        .unwrap_err();
    assert_eq!(api_status(&error).map(|s| s.0), Some(403), "{error}");
}

#[test]
fn a_password_set_by_hash_answers_no_secret_and_a_generated_one_answers_it_once() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let scope = client.service(ORG, SERVICE);
    // `correct horse battery staple`: its SHA-256 in base64, and its double SHA-1 in hex.
    let (sha256, double_sha1) =
        ("xLvLH77JnWW/WdhcjLYu4tuWPw/hBvSD2a+nO9Tjmoo=", "f4af2e5d85456a908e0f552f0366375b06267295");
    let hashed = UpdateServicePasswordRequest::hashed(sha256).new_double_sha1_hash(double_sha1);
    let answered = scope.update_service_password(hashed).unwrap();
    assert_eq!(answered.password, None, "nothing secret is answered");
    assert_eq!(fake.service_password_hash(ORG, SERVICE).as_deref(), Some(sha256));
    let sent = fake.requests().last().unwrap().json().unwrap();
    assert_eq!(sent, serde_json::json!({ "newPasswordHash": sha256, "newDoubleSha1Hash": double_sha1 }));

    let generated = scope.update_service_password(UpdateServicePasswordRequest::generate()).unwrap();
    let password = generated.password.as_ref().expect("generated, answered once").expose_secret().to_owned();
    assert!(!format!("{generated:?}").contains(&password));
    assert_ne!(fake.service_password_hash(ORG, SERVICE).as_deref(), Some(sha256), "the generated one replaced it");
    // Never again: the service's record carries no password.
    let read = serde_json::to_string(&scope.get_service().unwrap()).unwrap();
    assert!(!read.contains(&password) && !read.contains("assword"), "{read}");

    let error = developer(&fake, &server)
        .update_service_password(ORG, SERVICE, UpdateServicePasswordRequest::generate())
        .unwrap_err();
    assert_eq!(api_status(&error).map(|s| s.0), Some(403), "{error}");
}

#[test]
fn an_organization_is_updated_by_an_admin_key_only() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let request = UpdateOrganizationRequest::new().name("Acme Analytics").enable_core_dumps(false);
    let updated = client.organization(ORG).update_organization(request.clone()).unwrap();
    assert_eq!(updated.name.as_deref(), Some("Acme Analytics"));
    assert_eq!(updated.enable_core_dumps, Some(false));
    assert_eq!(client.organization(ORG).get_organization().unwrap(), updated);

    let developer = developer(&fake, &server);
    assert_eq!(developer.get_organization(ORG).unwrap().name.as_deref(), Some("Acme Analytics"), "it may read");
    let error = developer.update_organization(ORG, request.name("by a developer")).unwrap_err();
    assert_eq!(api_status(&error).map(|s| s.0), Some(403), "{error}");
    assert_eq!(client.get_organization(ORG).unwrap().name.as_deref(), Some("Acme Analytics"));
}
