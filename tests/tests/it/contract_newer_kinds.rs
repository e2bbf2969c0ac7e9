//! The newer source kinds (MySQL, MongoDB, BigQuery, Pub/Sub) end to end, one create request
//! each, written by hand from the management OpenAPI (`PipeMutateMySQLSource`,
//! `PipeMutateMongoDBSource`, `PipeMutateBigQuerySource`, `PipePostPubSubSource`) into
//! `fixtures/create_pipe/`. For each: the request read from that JSON validates, is sent as
//! exactly that JSON, shows no secret in its rendering (pinned by a snapshot) nor its `Debug`,
//! and through the ureq client the fake runs it to the kind's settled state, moved along by the
//! fake's clock (no sleeping), echoing back no credential.

use std::time::Duration;

use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_proto::{BaseUrl, CreatePipe, EndpointExt, Management, ManagementCredentials};
use pipe_api_tests::fast_retries;
use pipe_api_types::{CreatePipeRequest, PipeState, SourceKind, Validate};
use pipe_api_ureq::Client;
use serde_json::Value;

/// One lifecycle step of the fake.
const STEP: Duration = Duration::from_secs(30);

/// `fixture` read as a request: sent as itself, its `secrets` shown nowhere, and its pipe
/// moving through `states` (one per step) on the fake; `credentials` (the secrets a pipe never
/// answers) are not read back.
fn check(name: &str, fixture: &str, secrets: &[&str], credentials: &[&str], states: &[PipeState]) {
    let request: CreatePipeRequest = serde_json::from_str(fixture).unwrap();
    assert!(request.validate().is_ok(), "{name}: {:?}", request.validate());
    let debug = format!("{request:?} {request:#?}");
    for secret in secrets {
        assert!(!debug.contains(secret), "{name}: Debug shows {secret}");
    }

    let api = Management::new(
        BaseUrl::parse("https://api.example.invalid").unwrap(),
        ManagementCredentials::new("test-key-id", "test-key-secret").unwrap(),
    );
    let built = CreatePipe::new(ORG, SERVICE, request.clone()).build_request(&api).unwrap();
    let body: Value = serde_json::from_slice(built.body()).unwrap();
    assert_eq!(body, serde_json::from_str::<Value>(fixture).unwrap(), "{name}: the body sent differs");
    let rendered = pipe_api_proto::render_request(&built);
    for secret in secrets {
        assert!(!rendered.contains(secret), "{name}: the rendering shows {secret}");
    }
    insta::assert_snapshot!(name, rendered);

    let server = Fake::demo().serve().unwrap();
    server.fake().set_pipe_transition_time(STEP);
    let client = Client::builder()
        .management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let created = client.create_pipe(ORG, SERVICE, request).unwrap();
    assert_eq!(created.state, Some(PipeState::Provisioning), "{name}");
    let mut seen = Vec::new();
    for _ in states {
        server.fake().advance(STEP);
        seen.push(client.get_pipe(ORG, SERVICE, created.id).unwrap().state.unwrap());
    }
    assert_eq!(seen, states, "{name}");
    server.fake().advance(STEP * 3);
    let settled = client.get_pipe(ORG, SERVICE, created.id).unwrap();
    assert_eq!(settled.state.as_ref(), states.last(), "{name}: settled");
    let kind = settled.source.as_ref().and_then(|source| source.kind());
    assert!(kind.as_ref().is_some_and(SourceKind::is_known), "{name}: read back as {kind:?}");
    let read = serde_json::to_string(&settled).unwrap();
    for secret in credentials {
        assert!(!read.contains(secret), "{name}: a credential came back: {secret}");
    }
}

use PipeState::{Completed, Running, Setup, Snapshot};

#[test]
fn mysql_cdc() {
    let fixture = include_str!("fixtures/create_pipe/mysql_cdc.json");
    check("mysql_cdc", fixture, &["MYSQL-SECRET-PASSWORD"], &["MYSQL-SECRET-PASSWORD"], &[Setup, Snapshot, Running]);
}

#[test]
fn mongodb_cdc() {
    let fixture = include_str!("fixtures/create_pipe/mongodb_cdc.json");
    // The uri is a secret in every rendering, but the contract's pipe answers it.
    let secrets = ["MONGO-SECRET-PASSWORD", "MONGO-URI-PASSWORD"];
    check("mongodb_cdc", fixture, &secrets, &secrets[..1], &[Setup, Snapshot, Running]);
}

#[test]
fn bigquery_snapshot() {
    let fixture = include_str!("fixtures/create_pipe/bigquery_snapshot.json");
    let secrets = ["QklHUVVFUlktU0VSVklDRS1BQ0NPVU5ULUZJTEU="];
    check("bigquery_snapshot", fixture, &secrets, &secrets, &[Setup, Snapshot, Completed]);
}

#[test]
fn pubsub_timestamp() {
    let fixture = include_str!("fixtures/create_pipe/pubsub_timestamp.json");
    let secrets = ["UFVCU1VCLVNFUlZJQ0UtQUNDT1VOVC1GSUxF"];
    check("pubsub_timestamp", fixture, &secrets, &secrets, &[Running]);
}
