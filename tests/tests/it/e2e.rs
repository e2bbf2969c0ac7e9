//! Every operation over real HTTP, between the ureq client and the fake served on 127.0.0.1,
//! with the credentials really checked.

use base64::Engine as _;
use pipe_api_fake::{
    DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake,
    Fault, FaultRule,
};
use pipe_api_proto::{Error, ListAlerts};
use pipe_api_tests::fast_retries;
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::{CreateKeyRequest, KeyRole, PipeState};
use pipe_api_ureq::Client;

use crate::clients::*;

#[test]
fn every_operation_over_http_with_a_created_key() {
    let server = Fake::demo().serve().unwrap();
    let fake = server.fake().clone();

    let created = demo_client(&server).create_key(ORG, CreateKeyRequest::new("e2e", [KeyRole::Admin])).unwrap();
    let key_id = created.key_id.clone().unwrap();
    let key_secret = created.key_secret.clone().unwrap();
    let key = created.key.unwrap();
    assert_eq!(key.roles, Some(vec![KeyRole::Admin]));
    assert_eq!(key.key_suffix.as_deref(), Some(&key_id[key_id.len() - 4..]));

    // From here on only the new key is used, and the fake checks it on every call.
    let client = Client::builder()
        .management(&server.base_url(), &key_id, key_secret.expose_secret())
        .alerting(&server.base_url(), DEMO_ALERTS_TOKEN)
        .build()
        .unwrap();
    fake.clear_requests();

    let service = client.get_service(ORG, SERVICE).unwrap();
    assert_eq!(service.name.as_deref(), Some("demo-warehouse"));
    assert_eq!(service.endpoints.as_ref().map(Vec::len), Some(3));

    let mut created_ids = Vec::new();
    for request in create_pipe_requests("marker") {
        let kind = request.source.as_ref().and_then(|s| s.kind());
        let pipe = client.create_pipe(ORG, SERVICE, request).unwrap();
        assert_eq!(pipe.state, Some(PipeState::Provisioning));
        assert_eq!(pipe.source.as_ref().and_then(|s| s.kind()), kind);
        assert_eq!(pipe.created_at, Some(fake.now()));
        created_ids.push(pipe.id);
    }

    let listed = client.list_pipes(ORG, SERVICE).unwrap();
    assert_eq!(listed.len(), 2 + 4);
    for id in &created_ids {
        assert!(listed.iter().any(|p| p.id == *id));
        let got = client.get_pipe(ORG, SERVICE, *id).unwrap();
        assert_eq!(got.id, *id);
        // Credentials are never echoed back.
        let kafka_credentials = got.source.as_ref().and_then(|s| s.kafka.as_ref()).and_then(|k| k.credentials.clone());
        assert_eq!(kafka_credentials, None);
    }

    let endpoints = client.list_reverse_private_endpoints(ORG, SERVICE).unwrap();
    assert_eq!(endpoints.len(), 2);

    let page = client.list_alerts(ListAlerts::new().limit(2)).unwrap();
    assert_eq!(page.alerts.len(), 2);
    assert_eq!(page.total, Some(3));

    // What went over the wire: the new key's Basic credentials on every management call, the
    // token on the alerting one, and no secret of a pipe in any answer (checked by the fake's
    // stored state: it keeps none).
    let expected_basic = format!(
        "Basic {}",
        base64::engine::general_purpose::STANDARD.encode(format!("{key_id}:{}", key_secret.expose_secret()))
    );
    let seen = fake.requests();
    assert_eq!(seen.len(), 1 + 4 + 1 + 4 + 1 + 1);
    for request in &seen {
        let expected = if request.path.starts_with("/api/v2/") {
            format!("Bearer {DEMO_ALERTS_TOKEN}")
        } else {
            expected_basic.clone()
        };
        assert_eq!(request.header("authorization"), Some(expected.as_str()), "{} {}", request.method, request.path);
    }
    let stored = serde_json::to_string(&fake.pipes_json(ORG, SERVICE)).unwrap();
    assert!(!stored.contains("marker"), "{stored}");
}

#[test]
fn wrong_credentials_get_the_real_401_on_both_interfaces() {
    let server = Fake::demo().serve().unwrap();
    let client = Client::builder()
        .management(&server.base_url(), DEMO_KEY_ID, "not-the-secret")
        .alerting(&server.base_url(), "not-the-token")
        .build()
        .unwrap();

    for error in [client.get_service(ORG, SERVICE).unwrap_err(), client.list_alerts(ListAlerts::new()).unwrap_err()] {
        let Error::Api(api) = &error else { panic!("expected an API error, got {error:?}") };
        assert_eq!(api.status(), 401);
        assert_eq!(api.raw_text().as_deref(), Some("Unauthorized"));
        assert!(!format!("{error} {error:?}").contains("not-the-secret"));
        assert!(!format!("{error} {error:?}").contains("not-the-token"));
    }
    // A 401 is final: one request each, no retry.
    assert_eq!(server.fake().request_count(), 2);
}

#[test]
fn an_unknown_pipe_is_a_typed_404_with_the_request_id() {
    let server = Fake::demo().serve().unwrap();
    let missing = "00000000-0000-4000-8000-00000000abcd".parse().unwrap();
    let error = demo_client(&server).get_pipe(ORG, SERVICE, missing).unwrap_err();
    let Error::Api(api) = &error else { panic!("expected an API error, got {error:?}") };
    assert_eq!(api.status(), 404);
    assert_eq!(api.code(), Some("NOT_FOUND"));
    assert_eq!(api.message(), Some("00000000-0000-4000-8000-00000000abcd"));
    let request_id = api.request_id().expect("the envelope's requestId");
    let shown = error.to_string();
    assert!(shown.contains("get_pipe") && shown.contains("404") && shown.contains(request_id), "{shown}");
}

#[test]
fn an_invalid_request_sends_nothing() {
    let server = Fake::demo().serve().unwrap();
    let error = demo_client(&server).create_key(ORG, CreateKeyRequest::new("no roles", [])).unwrap_err();
    assert!(matches!(error, Error::Build(_)), "{error:?}");
    // The message itself says what to fix, and the violations are at hand.
    let shown = error.to_string();
    assert!(shown.contains("nothing was sent") && shown.contains("`roles` must have at least 1 element"), "{shown}");
    assert!(error.validation().is_some_and(|errors| errors.violations().len() == 1));
    assert_eq!(server.fake().request_count(), 0);
}

#[test]
fn a_get_is_retried_through_a_503_and_succeeds() {
    let server = Fake::demo().serve().unwrap();
    server.fake().inject(FaultRule::next(1, Fault::unavailable("0")));
    let client = Client::builder()
        .management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let pipes = client.list_pipes(ORG, SERVICE).unwrap();
    assert_eq!(pipes.len(), 2);
    assert_eq!(server.fake().request_count(), 2);
}

#[test]
fn a_create_whose_answer_is_lost_is_sent_once_and_reported_as_unknown() {
    let server = Fake::demo().serve().unwrap();
    // The gateway gives up while the pipe is being created: the real failure mode.
    server.fake().inject(FaultRule::next(1, Fault::status(504).body("upstream request timeout").after_handling()));
    let client = Client::builder()
        .management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let request = create_pipe_requests("marker").remove(0);
    let error = client.create_pipe(ORG, SERVICE, request).unwrap_err();
    assert!(error.outcome_unknown(), "{error:?}");
    assert_eq!(error.attempts(), 1);
    assert_eq!(server.fake().request_count(), 1);
    // It was created, once: listing shows it, as the error tells the user to check.
    let pipes = server.fake().pipes(ORG, SERVICE);
    assert_eq!(pipes.iter().filter(|p| p.name.as_deref() == Some("kafka-events")).count(), 1);
}
