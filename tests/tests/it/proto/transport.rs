//! Every operation end to end through a closure transport and the test-util transports, and
//! properties: parsing never panics, paths and queries round-trip any value.

use crate::proto::common;

use std::cell::RefCell;

use common::*;
use http::{Method, Request, Response};
use pipe_api_proto::test_util::{ExpectTransport, Expectation, RecordingTransport, decode_query, management_envelope};
use pipe_api_proto::{
    CreateKey, CreatePipe, EndpointExt, Error, GetPipe, GetService, ListAlerts, ListPipes, ListReversePrivateEndpoints,
    Management, Raw, TransportError, TransportErrorKind,
};
use pipe_api_types::{
    AlertId, CreateKeyRequest, CreatePipeRequest, DataFormat, Destination, DestinationColumn, KeyRole,
    ObjectStorageSource, ObjectStorageType, PipeState,
};
use proptest::prelude::*;
use serde_json::json;

fn storage_pipe_request() -> CreatePipeRequest {
    let storage = ObjectStorageSource::new(
        ObjectStorageType::Gcs,
        DataFormat::Parquet,
        "https://storage.googleapis.com/bucket/*.parquet",
    );
    let destination = Destination::default()
        .database("default")
        .table("t")
        .managed_table(true)
        .columns([DestinationColumn::new("a", "String")]);
    CreatePipeRequest::new("gcs", storage, destination)
}

fn pipe_json(name: &str) -> serde_json::Value {
    json!({"id": PIPE, "serviceId": SERVICE, "name": name, "state": "Provisioning"})
}

#[test]
fn every_operation_through_a_closure() {
    let seen = RefCell::new(Vec::new());
    let transport = |request: Request<Vec<u8>>| -> Result<Response<Vec<u8>>, TransportError> {
        seen.borrow_mut().push(format!("{} {}", request.method(), request.uri().path()));
        let path = request.uri().path().to_owned();
        let result = if path.ends_with("/keys") {
            json!({"key": {"id": "5b1f4c7e-2a3d-4e8f-9b1c-0d2e3f4a5b6c"}, "keyId": "k", "keySecret": "s"})
        } else if path.ends_with("/pipesReversePrivateEndpoints") {
            json!([{"id": "6a7b8c9d-0e1f-4a2b-8c3d-4e5f6a7b8c9d", "status": "Ready"}])
        } else if path.ends_with("/pipes") && request.method() == Method::GET {
            json!([pipe_json("a"), pipe_json("b")])
        } else if path.ends_with("/pipes") || path.ends_with(PIPE) {
            pipe_json("new")
        } else if path.ends_with("/api/v2/alerts") {
            return Ok(response(
                200,
                br#"{"data":[{"id":"65f5e4a3b9e77c001a123456"}],"meta":{"total":1,"limit":1000,"offset":0}}"#,
            ));
        } else {
            json!({"id": SERVICE, "name": "svc"})
        };
        Ok(response(200, management_envelope(result)))
    };

    let api = management();
    let key = CreateKey::new(org(), CreateKeyRequest::new("k", [KeyRole::Admin])).send(&api, &transport).unwrap();
    assert_eq!(key.value.key_id.as_deref(), Some("k"));
    assert_eq!(key.request_id.as_deref(), Some("00000000-0000-4000-8000-000000000000"));
    let service = GetService::new(org(), service()).send(&api, &transport).unwrap();
    assert_eq!(service.value.name.as_deref(), Some("svc"));
    assert_eq!(ListPipes::new(org(), service.value.id).send(&api, &transport).unwrap().value.len(), 2);
    let one = GetPipe::new(org(), service.value.id, pipe()).send(&api, &transport).unwrap();
    assert_eq!(one.value.state, Some(PipeState::Provisioning));
    let created = CreatePipe::new(org(), service.value.id, storage_pipe_request()).send(&api, &transport).unwrap();
    assert_eq!(created.value.name.as_deref(), Some("new"));
    let endpoints = ListReversePrivateEndpoints::new(org(), service.value.id).send(&api, &transport).unwrap();
    assert_eq!(endpoints.value.len(), 1);
    let alerts = ListAlerts::new().send(&alerting(), &transport).unwrap();
    assert_eq!(alerts.value.alerts[0].id, AlertId::new("65f5e4a3b9e77c001a123456"));
    assert_eq!(alerts.value.total, Some(1));

    let seen = seen.into_inner();
    assert_eq!(seen.len(), 7);
    assert_eq!(seen[0], format!("POST /v1/organizations/{ORG}/keys"));
    assert_eq!(seen[6], "GET /api/v2/alerts");
}

#[test]
fn transport_failures_are_typed() {
    let refused = |_: Request<Vec<u8>>| -> Result<Response<Vec<u8>>, TransportError> {
        Err(TransportError::new(TransportErrorKind::Connect, "connection refused"))
    };
    let error = ListPipes::new(org(), service()).send(&management(), &refused).unwrap_err();
    assert!(matches!(&error, Error::Transport(f) if f.error().kind() == TransportErrorKind::Connect));
    assert!(!error.outcome_unknown(), "a request that never left has a known outcome");

    let reset = |_: Request<Vec<u8>>| -> Result<Response<Vec<u8>>, TransportError> {
        Err(TransportError::new(TransportErrorKind::Io, "connection reset"))
    };
    let error = CreatePipe::new(org(), service(), storage_pipe_request()).send(&management(), &reset).unwrap_err();
    assert!(error.outcome_unknown());
    assert!(error.to_string().contains("list before creating again"), "{error}");
    assert_eq!(error.operation(), "create_pipe");
}

#[test]
fn invalid_requests_reach_no_transport() {
    let transport = RecordingTransport::new();
    let error = CreateKey::new(org(), CreateKeyRequest::new("x", Vec::<KeyRole>::new()))
        .send(&management(), &transport)
        .unwrap_err();
    assert!(matches!(error, Error::Build(_)));
    assert!(transport.requests().is_empty());
}

#[test]
fn expect_transport_checks_the_request() {
    let transport = ExpectTransport::new()
        .expect(
            Expectation::new(Method::GET, "/api/v2/alerts")
                .query(&[("limit", "10"), ("offset", "20")])
                .respond(200, r#"{"data":[]}"#),
        )
        .expect(
            Expectation::new(Method::POST, format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes"))
                .json_body(serde_json::to_value(storage_pipe_request()).unwrap())
                .respond(200, management_envelope(pipe_json("gcs"))),
        );
    let page = ListAlerts::new().limit(10).offset(20).send(&alerting(), &transport).unwrap();
    assert!(page.value.alerts.is_empty());
    CreatePipe::new(org(), service(), storage_pipe_request()).send(&management(), &transport).unwrap();
    assert_eq!(transport.remaining(), 0);
}

#[test]
#[should_panic(expected = "path")]
fn expect_transport_fails_on_a_wrong_request() {
    let transport = ExpectTransport::new().expect(Expectation::new(Method::GET, "/v1/elsewhere"));
    let _ = GetService::new(org(), service()).send(&management(), &transport);
}

#[test]
fn recording_transport_replays_in_order() {
    let transport = RecordingTransport::new()
        .respond(response(503, b"busy"))
        .fail(TransportError::from_kind(TransportErrorKind::Timeout))
        .respond(response(200, management_envelope(json!([]))));
    let endpoint = ListPipes::new(org(), service());
    assert!(matches!(endpoint.send(&management(), &transport), Err(Error::Api(e)) if e.status() == 503));
    assert!(matches!(endpoint.send(&management(), &transport), Err(Error::Transport(_))));
    assert!(endpoint.send(&management(), &transport).unwrap().value.is_empty());
    assert!(matches!(endpoint.send(&management(), &transport), Err(Error::Transport(_))), "none left");
    assert_eq!(transport.requests().len(), 4);
}

#[test]
fn raw_escape_hatch_shares_auth_envelope_and_errors() {
    let transport = RecordingTransport::new()
        .respond(response(200, br#"{"status":200,"requestId":"r-del"}"#))
        .respond(response(404, br#"{"status":404,"error":"NOT_FOUND: x","requestId":"r-404"}"#));
    let delete = Raw::<Management>::new(Method::DELETE, format!("/v1/organizations/{ORG}/keys/x")).unwrap();
    let reply = delete.send(&management(), &transport).unwrap();
    assert_eq!(reply.value, serde_json::Value::Null, "a delete has no result");
    assert_eq!(reply.request_id.as_deref(), Some("r-del"));
    let error = delete.send(&management(), &transport).unwrap_err();
    assert_eq!(error.request_id(), Some("r-404"));
    assert!(transport.requests()[0].headers()["authorization"].to_str().unwrap().starts_with("Basic "));
}

#[test]
fn a_raw_request_of_a_row_reads_its_success_as_the_row_does_and_names_it() {
    use pipe_api_proto::{Alerting, DeleteAlert, GetAlert};

    // An alert read: `{"data": ...}`, the data the value.
    let get = Raw::<Alerting>::for_operation(GetAlert::OPERATION, "/api/v2/alerts/a1").unwrap();
    let request = get.build_request(&alerting()).unwrap();
    assert_eq!((request.method(), request.uri().path()), (&Method::GET, "/api/v2/alerts/a1"));
    let reply = get.parse_response(&alerting(), response(200, br#"{"data":{"id":"a1","state":"OK"}}"#)).unwrap();
    assert_eq!(reply.value, json!({"id": "a1", "state": "OK"}));
    // An older server's delete answers the text `OK`: nothing, as the row reads it.
    let delete = Raw::<Alerting>::for_operation(DeleteAlert::OPERATION, "/api/v2/alerts/a1").unwrap();
    assert_eq!(delete.build_request(&alerting()).unwrap().method(), Method::DELETE);
    assert_eq!(delete.parse_response(&alerting(), response(200, "OK")).unwrap().value, serde_json::Value::Null);
    // The row is named in a decode error, and in a refused path; a plain raw request is `raw`.
    let error = get.parse_response(&alerting(), response(200, "{")).unwrap_err();
    assert!(matches!(error, Error::Decode(_)), "{error}");
    assert_eq!(error.operation(), "get_alert");
    let refused = Raw::<Alerting>::for_operation(GetAlert::OPERATION, "api/v2/alerts/a1").unwrap_err();
    assert_eq!(refused.operation(), "get_alert");
    assert_eq!(Raw::<Alerting>::new(Method::GET, "api").unwrap_err().operation(), "raw");
}

fn any_status() -> impl Strategy<Value = u16> {
    100u16..=999
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2000))]

    #[test]
    fn parsing_any_status_and_bytes_never_panics(status in any_status(), body in proptest::collection::vec(any::<u8>(), 0..512)) {
        let response = Response::builder().status(status).body(body).unwrap();
        let _ = ListPipes::new(org(), service()).parse_response(&crate::proto::common::management(), response.clone());
        let _ = ListAlerts::new().parse_response(&crate::proto::common::alerting(), response.clone());
        let _ = CreateKey::new(org(), CreateKeyRequest::new("k", [KeyRole::Admin])).parse_response(&crate::proto::common::management(), response);
    }

    #[test]
    fn parsing_any_json_never_panics(status in any_status(), json in arbitrary_json()) {
        let enveloped = json!({"status": status, "requestId": "r", "result": json.clone(), "error": json.clone()});
        for body in [json.to_string(), enveloped.to_string()] {
            let response = Response::builder().status(status).body(body.into_bytes()).unwrap();
            let _ = GetPipe::new(org(), service(), pipe()).parse_response(&crate::proto::common::management(), response.clone());
            let _ = ListAlerts::new().parse_response(&crate::proto::common::alerting(), response);
        }
    }

    #[test]
    fn raw_queries_round_trip(name in "\\PC{1,20}", value in "\\PC{0,40}") {
        // Path segments: the encoder's own property test (`url.rs`).
        let raw = Raw::<Management>::new(Method::GET, "/v1/x").unwrap().query(name.clone(), value.clone());
        let request = raw.build_request(&management()).unwrap();
        prop_assert_eq!(request.uri().path(), "/v1/x");
        prop_assert_eq!(decode_query(request.uri().query().unwrap()), vec![(name, value)]);
    }

    #[test]
    fn list_alerts_query_round_trips(limit in 1u32..=1000, offset in any::<u64>()) {
        let request = ListAlerts::new().limit(limit).offset(offset).build_request(&alerting()).unwrap();
        let pairs = decode_query(request.uri().query().unwrap());
        prop_assert_eq!(pairs, vec![("limit".to_owned(), limit.to_string()), ("offset".to_owned(), offset.to_string())]);
    }

    #[test]
    fn ids_round_trip_through_paths(bytes in any::<[u8; 16]>()) {
        let id = pipe_api_types::PipeId::from_uuid(uuid::Uuid::from_bytes(bytes));
        let request = GetPipe::new(org(), service(), id).build_request(&management()).unwrap();
        let last = request.uri().path().rsplit('/').next().unwrap();
        prop_assert_eq!(last.parse::<pipe_api_types::PipeId>().unwrap(), id);
    }
}

fn arbitrary_json() -> impl Strategy<Value = serde_json::Value> {
    let leaf = prop_oneof![
        Just(serde_json::Value::Null),
        any::<bool>().prop_map(serde_json::Value::from),
        any::<i64>().prop_map(serde_json::Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(serde_json::Value::from),
        "\\PC{0,20}".prop_map(serde_json::Value::from),
        Just(json!(PIPE)),
        Just(json!("2026-01-01T00:00:00Z")),
    ];
    leaf.prop_recursive(4, 64, 8, |inner| {
        let keys = prop_oneof![
            Just("id".to_owned()),
            Just("state".to_owned()),
            Just("source".to_owned()),
            Just("kafka".to_owned()),
            Just("scaling".to_owned()),
            Just("replicaCpuMillicores".to_owned()),
            Just("data".to_owned()),
            Just("createdAt".to_owned()),
            "[a-zA-Z]{1,8}",
        ];
        prop_oneof![
            proptest::collection::vec(inner.clone(), 0..6).prop_map(serde_json::Value::from),
            proptest::collection::btree_map(keys, inner, 0..6)
                .prop_map(|m| serde_json::Value::Object(m.into_iter().collect())),
        ]
    })
}

proptest! {
    /// What a transport asks of a socket ends within the time given even when the socket fires
    /// an eighth late, as Linux's may; and it asks for no less than it must.
    #[test]
    fn a_socket_timeout_ends_within_the_time_left(nanos in 1u64..3_600_000_000_000) {
        let left = std::time::Duration::from_nanos(nanos);
        let asked = pipe_api_proto::socket_timeout_within(left);
        prop_assert!(asked + asked / 8 <= left, "{asked:?} for {left:?}");
        prop_assert!(asked >= left.mul_f64(0.88), "{asked:?} for {left:?}");
    }
}
