//! Parsing: each operation's success fixture, and every error shape the services send, each
//! checked field by field.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{
    CreateKey, CreatePipe, EndpointExt, Error, GetPipe, GetService, ListAlerts, ListPipes, ListReversePrivateEndpoints,
};
use pipe_api_types::{
    AlertInterval, AlertState, Authentication, ChannelType, CreateKeyRequest, CreatePipeRequest, DataFormat,
    Destination, EndpointProtocol, IteratorType, KafkaType, KeyRole, KeyState, MskAuthentication, OffsetStrategy,
    PipeSource, PipeState, ReplicationMode, ReversePrivateEndpointStatus, ReversePrivateEndpointType, SourceKind,
    ThresholdType,
};
use time::macros::datetime;

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "create_key_ok" => include_bytes!("fixtures/operations/create_key/ok.json"),
        "get_service_ok" => include_bytes!("fixtures/operations/get_service/ok.json"),
        "list_pipes_ok" => include_bytes!("fixtures/operations/list_pipes/ok.json"),
        "get_pipe_ok" => include_bytes!("fixtures/operations/get_pipe/ok.json"),
        "create_pipe_ok" => include_bytes!("fixtures/operations/create_pipe/ok.json"),
        "list_reverse_private_endpoints_ok" => {
            include_bytes!("fixtures/operations/list_reverse_private_endpoints/ok.json")
        }
        "list_alerts_older_server" => include_bytes!("fixtures/operations/list_alerts/ok_older_server.json"),
        "list_alerts_newer_server" => include_bytes!("fixtures/operations/list_alerts/ok_newer_server.json"),
        "error_management_404_not_found" => include_bytes!("fixtures/error_management_404_not_found.json"),
        "error_management_400_bad_request" => include_bytes!("fixtures/error_management_400_bad_request.json"),
        "error_management_403_forbidden" => include_bytes!("fixtures/error_management_403_forbidden.json"),
        "error_management_409_conflict" => include_bytes!("fixtures/error_management_409_conflict.json"),
        "error_management_424_failed_dependency" => {
            include_bytes!("fixtures/error_management_424_failed_dependency.json")
        }
        "error_management_429_bare" => include_bytes!("fixtures/error_management_429_bare.json"),
        "error_management_500" => include_bytes!("fixtures/error_management_500.json"),
        "error_401_plain" => include_bytes!("fixtures/error_401_plain.txt"),
        "error_502_gateway" => include_bytes!("fixtures/error_502_gateway.html"),
        "error_504_gateway" => include_bytes!("fixtures/error_504_gateway.txt"),
        "error_alerting_400_message" => include_bytes!("fixtures/error_alerting_400_message.json"),
        "error_alerting_400_issues" => include_bytes!("fixtures/error_alerting_400_issues.json"),
        "error_alerting_403_plain" => include_bytes!("fixtures/error_alerting_403_plain.txt"),
        "error_alerting_404_message" => include_bytes!("fixtures/error_alerting_404_message.json"),
        "error_alerting_429_plain" => include_bytes!("fixtures/error_alerting_429_plain.txt"),
        "error_alerting_500_message" => include_bytes!("fixtures/error_alerting_500_message.json"),
        other => panic!("no fixture {other}"),
    }
}

fn pipe_request() -> CreatePipeRequest {
    CreatePipeRequest::new("p", PipeSource::default(), Destination::default())
}

#[test]
fn create_key_success() {
    let endpoint = CreateKey::new(org(), CreateKeyRequest::new("ci", [KeyRole::Developer]));
    let reply = endpoint.parse_response(&crate::common::management(), response(200, fixture("create_key_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("2f0b8a54-4c1e-4d8a-9a54-8f1d3c2b1a01"));
    assert_eq!(reply.status, StatusCode::OK);
    let created = reply.value;
    assert_eq!(created.key_id.as_deref(), Some("kZ3pQ8wV1xY2"));
    assert_eq!(created.key_secret.as_ref().map(|s| s.expose_secret()), Some("4b1d-secret-Qx9"));
    let key = created.key.unwrap();
    assert_eq!(key.id.to_string(), "5b1f4c7e-2a3d-4e8f-9b1c-0d2e3f4a5b6c");
    assert_eq!(key.name.as_deref(), Some("ci-deployer"));
    assert_eq!(key.state, Some(KeyState::Enabled));
    assert_eq!(key.roles, Some(vec![KeyRole::Developer]));
    assert_eq!(key.key_suffix.as_deref(), Some("f3Qa"));
    assert_eq!(key.created_at, Some(datetime!(2026-03-01 10:15:30 UTC)));
    assert!(key.never_expires(), "expireAt \"\" means never");
    let access = key.ip_access_list.unwrap();
    assert_eq!(access[0].source.as_deref(), Some("203.0.113.0/24"));
    let assigned = key.assigned_roles.as_ref().unwrap();
    assert_eq!(assigned[0].role_id, Some("8d0e3c1a-0b2f-4c5d-9e8f-7a6b5c4d3e2f".parse().unwrap()));
    assert_eq!(assigned[0].role_name.as_deref(), Some("Developer"));
}

#[test]
fn get_service_success() {
    let reply = GetService::new(org(), service())
        .parse_response(&crate::common::management(), response(200, fixture("get_service_ok")))
        .unwrap();
    let service = reply.value;
    assert_eq!(service.id.to_string(), SERVICE);
    assert_eq!(service.name.as_deref(), Some("analytics-prod"));
    assert_eq!(service.engine_version.as_deref(), Some("25.8"));
    let endpoints = service.endpoints.unwrap();
    assert_eq!(endpoints.len(), 3);
    assert_eq!(endpoints[0].protocol, Some(EndpointProtocol::NativeSecure));
    assert_eq!(endpoints[0].port, Some(9440));
    assert_eq!(endpoints[0].username, None, "null username reads as absent");
    assert_eq!(endpoints[2].protocol, Some(EndpointProtocol::Mysql));
    assert_eq!(endpoints[2].username.as_deref(), Some("mysql4abc123"));
    assert_eq!(service.min_total_memory_gb, Some(pipe_api_types::MemoryGb::gigabytes(24.0)));
    assert_eq!(service.num_replicas, Some(3.0));
    assert_eq!(service.idle_scaling, Some(true));
    assert_eq!(service.idle_timeout_minutes, Some(15.0));
    assert_eq!(service.created_at, Some(datetime!(2025-11-02 08:00:00 UTC)));
    assert_eq!(service.private_endpoint_ids, Some(vec!["vpce-0a1b2c3d4e5f".into()]));
    assert_eq!(service.data_warehouse_id.as_deref(), Some(SERVICE), "a string that looks like a UUID stays a string");
    assert_eq!(service.is_primary, Some(true));
    // A newer server's fields, modelled now: nothing is left unknown in this fixture.
    assert_eq!(service.state.as_ref().map(|s| s.is_known()), Some(true));
    assert!(service.provider.is_some() && service.region.is_some() && service.tier.is_some());
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
}

#[test]
fn list_pipes_success() {
    let reply = ListPipes::new(org(), service())
        .parse_response(&crate::common::management(), response(200, fixture("list_pipes_ok")))
        .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("9a8b7c6d-5e4f-4a3b-8c2d-1e0f9a8b7c6d"));
    let pipes = reply.value;
    assert_eq!(pipes.len(), 3);

    let kafka_pipe = &pipes[0];
    assert_eq!(kafka_pipe.id.to_string(), PIPE);
    assert_eq!(kafka_pipe.state, Some(PipeState::Running));
    let scaling = kafka_pipe.scaling.as_ref().unwrap();
    assert_eq!(scaling.replica_cpu_millicores.as_ref().unwrap().value(), 500.0);
    assert_eq!(scaling.replica_memory_gb.as_ref().unwrap().value(), 2.0);
    let source = kafka_pipe.source.as_ref().unwrap();
    assert_eq!(source.kind(), Some(SourceKind::Kafka));
    let kafka = source.kafka.as_ref().unwrap();
    assert_eq!(kafka.kind, Some(KafkaType::Confluent));
    assert_eq!(kafka.format, Some(DataFormat::JsonEachRow));
    assert_eq!(kafka.authentication, Some(Authentication::Plain));
    let offset = kafka.offset.as_ref().unwrap();
    assert_eq!(offset.strategy, Some(OffsetStrategy::FromTimestamp));
    assert_eq!(offset.timestamp, Some(datetime!(2021-01-01 00:00)));
    let destination = kafka_pipe.destination.as_ref().unwrap();
    assert_eq!(destination.columns.as_ref().unwrap().len(), 2);
    assert_eq!(
        kafka_pipe.settings.as_ref().unwrap().streaming_max_insert_wait_ms,
        Some(pipe_api_types::Nullable::Value(5000))
    );

    let postgres = pipes[1].source.as_ref().unwrap().postgres.as_ref().unwrap();
    assert_eq!(pipes[1].state, Some(PipeState::Snapshot));
    assert_eq!(postgres.port, Some(5432));
    assert_eq!(postgres.settings.as_ref().unwrap().replication_mode, Some(ReplicationMode::Cdc));
    assert_eq!(postgres.table_mappings.as_ref().unwrap()[0].target_table.as_deref(), Some("public_orders"));

    let newer = &pipes[2];
    assert_eq!(newer.state.as_ref().unwrap().as_str(), "Hibernating");
    assert!(!newer.state.as_ref().unwrap().is_known());
    assert_eq!(newer.source.as_ref().unwrap().kind(), Some(SourceKind::PubSub));
    assert!(newer.unknown.get("owner").is_some());
}

#[test]
fn get_and_create_pipe_success() {
    let get = GetPipe::new(org(), service(), pipe())
        .parse_response(&crate::common::management(), response(200, fixture("get_pipe_ok")))
        .unwrap();
    let kinesis = get.value.source.unwrap().kinesis.unwrap();
    assert_eq!(kinesis.iterator_type, Some(IteratorType::AtTimestamp));
    assert_eq!(kinesis.timestamp, Some(datetime!(2021-03-15 00:00:00 UTC)));
    assert_eq!(get.value.scaling.unwrap().replica_cpu_millicores.unwrap().value(), 250.0);

    let created = CreatePipe::new(org(), service(), pipe_request())
        .parse_response(&crate::common::management(), response(200, fixture("create_pipe_ok")));
    let pipe = created.unwrap().value;
    assert_eq!(pipe.state, Some(PipeState::Provisioning));
    assert_eq!(
        pipe.source.unwrap().object_storage.unwrap().url.as_deref(),
        Some("https://bucket.s3.eu-west-1.amazonaws.com/logs/**.ndjson.gz")
    );
}

#[test]
fn list_reverse_private_endpoints_success() {
    let reply = ListReversePrivateEndpoints::new(org(), service())
        .parse_response(&crate::common::management(), response(200, fixture("list_reverse_private_endpoints_ok")))
        .unwrap();
    let endpoints = reply.value;
    assert_eq!(endpoints[0].kind, Some(ReversePrivateEndpointType::MskMultiVpc));
    assert_eq!(endpoints[0].msk_authentication, Some(MskAuthentication::SaslIam));
    assert_eq!(endpoints[0].status, Some(ReversePrivateEndpointStatus::Ready));
    assert_eq!(endpoints[0].dns_names.as_ref().unwrap().len(), 1);
    assert_eq!(endpoints[1].kind, Some(ReversePrivateEndpointType::GcpPscServiceAttachment));
    assert_eq!(endpoints[1].status.as_ref().unwrap().as_str(), "Reconnecting");
    // Modelled since issue 18 (it was kept as an unknown field before).
    assert_eq!(
        endpoints[1].gcp_service_attachment.as_deref(),
        Some("projects/p/regions/europe-west1/serviceAttachments/pg")
    );
    assert!(endpoints[1].unknown.is_empty());
}

#[test]
fn list_alerts_older_server() {
    let reply = ListAlerts::new()
        .parse_response(&crate::common::alerting(), response(200, fixture("list_alerts_older_server")))
        .unwrap();
    assert_eq!(reply.request_id, None);
    let page = reply.value;
    assert_eq!(page.total, None);
    assert_eq!(page.meta, None);
    let first = &page.alerts[0];
    assert_eq!(first.id.as_str(), "65f5e4a3b9e77c001a123456");
    assert_eq!(first.threshold, Some(100.0));
    assert_eq!(first.interval, Some(AlertInterval::OneMinute));
    assert_eq!(first.threshold_type, Some(ThresholdType::Above));
    assert_eq!(first.state, Some(AlertState::Ok));
    assert_eq!(first.channel.as_ref().unwrap().kind, Some(ChannelType::Webhook));
    assert_eq!(first.resolved_team_id(), Some("65f5e4a3b9e77c001a345678"));
    assert_eq!(first.resolved_dashboard_id(), Some("65f5e4a3b9e77c001a567890"));
    assert_eq!(first.created_at, Some(datetime!(2024-01-01 00:00:00 UTC)));
    let legacy = &page.alerts[1];
    assert_eq!(legacy.channel.as_ref().unwrap().kind, None, "a null channel type reads as absent");
    assert_eq!(legacy.resolved_saved_search_id(), Some("65f5e4a3b9e77c001a111111"));
}

#[test]
fn list_alerts_newer_server_with_total() {
    let reply = ListAlerts::new()
        .limit(1)
        .parse_response(&crate::common::alerting(), response(200, fixture("list_alerts_newer_server")))
        .unwrap();
    let page = reply.value;
    assert_eq!(page.total, Some(142));
    assert_eq!(page.meta.as_ref().unwrap().limit, Some(1));
    let alert = &page.alerts[0];
    assert_eq!(alert.state, Some(AlertState::Pending));
    assert_eq!(alert.threshold_type, Some(ThresholdType::Between));
    assert_eq!(alert.threshold_max, Some(2000.0));
    assert_eq!(alert.resolved_team_id(), Some("66a1b2c3d4e5f60718293a40"));
    assert_eq!(alert.resolved_channels().len(), 2);
    assert_eq!(alert.group_by.as_deref(), Some("ServiceName"));
    assert_eq!(alert.silenced.as_ref().unwrap().until, Some(datetime!(2026-03-20 08:00:00 UTC)));
    assert_eq!(alert.num_consecutive_windows, Some(3));
    assert_eq!(alert.execution_errors.as_ref().unwrap()[0].message.as_deref(), Some("Query timed out after 30s"));
    assert!(alert.unknown.get("escalation").is_some());
}

#[test]
fn an_alert_lists_unknown_top_level_members_survive() {
    let body = br#"{"data":[],"meta":{"total":0},"links":{"next":null},"generatedAt":"2026-04-17T12:00:00Z"}"#;
    let page = ListAlerts::new().parse_response(&crate::common::alerting(), response(200, body)).unwrap().value;
    assert_eq!(page.unknown.names().collect::<Vec<_>>(), ["links", "generatedAt"]);
    assert_eq!(page.unknown.get("links"), Some(r#"{"next":null}"#));
}

#[test]
fn alerts_total_from_header_when_no_meta() {
    let body = br#"{"data":[]}"#;
    let reply = ListAlerts::new()
        .parse_response(&crate::common::alerting(), response_with(200, &[("X-Total-Count", "7")], body))
        .unwrap();
    assert_eq!(reply.value.total, Some(7));
}

/// Envelopes and alert pages read as their derived `Deserialize` reads them, whichever
/// decoder takes them: other members ignored (an alert page keeps them), `null` members absent, a repeated member or a
/// missing `data` an error that names it.
#[test]
fn envelopes_and_pages_read_as_serde_reads_them() {
    let list = |body: &str| {
        ListPipes::new(org(), service()).parse_response(&crate::common::management(), response(200, body.as_bytes()))
    };
    let reply = list(r#"{"status":200,"extra":{"a":[1,2]},"requestId":null,"result":[]}"#).unwrap();
    assert_eq!((reply.value.len(), reply.request_id), (0, None));
    let reply = list(r#" {"requestId":"r-1","result":[{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e"}]} "#).unwrap();
    assert_eq!((reply.value.len(), reply.request_id.as_deref()), (1, Some("r-1")));
    let Err(Error::Decode(error)) = list(r#"{"result":[],"result":[]}"#) else { panic!("a repeated result decodes") };
    assert!(error.to_string().contains("duplicate field `result`"), "{error}");

    let alerts =
        |body: &str| ListAlerts::new().parse_response(&crate::common::alerting(), response(200, body.as_bytes()));
    let page = alerts(r#"{"meta":null,"data":[],"links":{}}"#).unwrap().value;
    assert_eq!((page.alerts.len(), page.meta), (0, None));
    assert_eq!(page.unknown.names().collect::<Vec<_>>(), ["links"]);
    let Err(Error::Decode(error)) = alerts(r#"{"meta":{}}"#) else { panic!("a page without data decodes") };
    assert!(error.to_string().contains("missing field `data`"), "{error}");
    let Err(Error::Decode(error)) = alerts(r#"{"data":[],"data":[]}"#) else { panic!("a repeated data decodes") };
    assert!(error.to_string().contains("duplicate field `data`"), "{error}");
}

/// Parses `body` with `status` as a list-pipes response and returns the API error.
fn api_error(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Box<pipe_api_proto::ApiError> {
    match ListPipes::new(org(), service())
        .parse_response(&crate::common::management(), response_with(status, headers, body))
    {
        Err(Error::Api(e)) => e,
        other => panic!("expected an API error, got {other:?}"),
    }
}

#[test]
fn management_error_shapes() {
    let cases: &[(&str, u16, &str, Option<&str>)] = &[
        ("error_management_404_not_found", 404, "NOT_FOUND", Some(PIPE)),
        ("error_management_400_bad_request", 400, "BAD_REQUEST", Some("pipe is already running")),
        ("error_management_403_forbidden", 403, "FORBIDDEN", Some("the key's role does not allow this operation")),
        ("error_management_409_conflict", 409, "CONFLICT", Some("a state transition is in progress")),
        (
            "error_management_424_failed_dependency",
            424,
            "FAILED_DEPENDENCY",
            Some("Service is not running. Current state: idle"),
        ),
        ("error_management_429_bare", 429, "TOO_MANY_REQUESTS", None),
        ("error_management_500", 500, "INTERNAL_SERVER_ERROR", Some("unexpected failure")),
    ];
    for (name, status, code, message) in cases {
        let error = api_error(*status, &[], fixture(name));
        assert_eq!(error.status().as_u16(), *status, "{name}");
        assert_eq!(error.code(), Some(*code), "{name}");
        assert_eq!(error.message(), *message, "{name}");
        assert_eq!(error.raw_text(), None, "{name}: a JSON body is not raw text");
        assert_eq!(error.operation(), "list_pipes");
        if *name != "error_management_429_bare" {
            assert!(error.request_id().is_some(), "{name}: request id");
        } else {
            assert_eq!(error.request_id(), None);
        }
    }
    let error = api_error(404, &[], fixture("error_management_404_not_found"));
    assert_eq!(error.request_id(), Some("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"));
    let shown = error.to_string();
    assert!(shown.contains("list_pipes") && shown.contains("404") && shown.contains("NOT_FOUND"), "{shown}");
    assert!(shown.contains("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"), "{shown}");
}

#[test]
fn rate_limit_hints_are_read() {
    let error = api_error(
        429,
        &[("X-RateLimit-Limit", "10"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "3.2")],
        fixture("error_management_429_bare"),
    );
    assert_eq!(error.retry_hints().x_rate_limit_reset, Some(std::time::Duration::from_millis(3200)));
    let error =
        api_error(429, &[("RateLimit-Reset", "12"), ("Retry-After", "12")], fixture("error_alerting_429_plain"));
    assert_eq!(error.retry_hints().rate_limit_reset, Some(std::time::Duration::from_secs(12)));
    assert!(error.retry_hints().retry_after.is_some());
    assert_eq!(error.raw_text().as_deref(), Some("Too many requests, please try again later."));
}

#[test]
fn non_json_error_bodies_are_kept_raw() {
    let unauthorized = api_error(401, &[], fixture("error_401_plain"));
    assert_eq!(unauthorized.raw_text().as_deref(), Some("Unauthorized"));
    assert_eq!(unauthorized.code(), None);
    assert!(unauthorized.to_string().contains("Unauthorized"));

    let gateway = api_error(502, &[], fixture("error_502_gateway"));
    assert!(gateway.raw_text().unwrap().contains("502 Bad Gateway"));
    assert_eq!(gateway.body(), fixture("error_502_gateway"));

    let timeout = api_error(504, &[("x-request-id", "gw-77")], fixture("error_504_gateway"));
    assert_eq!(timeout.raw_text().as_deref(), Some("upstream request timeout"));
    assert_eq!(timeout.request_id(), Some("gw-77"), "a gateway's request id header is kept");
}

#[test]
fn alerting_error_shapes() {
    let parse = |status: u16, name: &str| match ListAlerts::new()
        .parse_response(&crate::common::alerting(), response(status, fixture(name)))
    {
        Err(Error::Api(e)) => e,
        other => panic!("{name}: expected an API error, got {other:?}"),
    };
    let bad = parse(400, "error_alerting_400_message");
    assert_eq!(bad.message(), Some("limit must be between 1 and 1000"));
    assert_eq!(bad.code(), None);
    let issues = parse(400, "error_alerting_400_issues");
    assert_eq!(issues.message(), Some("Expected number, received string; Invalid enum value"));
    let forbidden = parse(403, "error_alerting_403_plain");
    assert_eq!(forbidden.raw_text().as_deref(), Some("Forbidden"));
    let missing = parse(404, "error_alerting_404_message");
    assert_eq!(missing.code(), Some("NOT_FOUND"));
    assert_eq!(missing.message(), Some("Alert not found"));
    let internal = parse(500, "error_alerting_500_message");
    assert_eq!(internal.message(), Some("Internal Server Error"));
    let unauthorized = parse(401, "error_401_plain");
    assert_eq!(unauthorized.raw_text().as_deref(), Some("Unauthorized"));
}

#[test]
fn a_redirect_is_an_error_never_followed() {
    let error = api_error(302, &[("Location", "https://elsewhere.example.net/v1/")], b"");
    assert_eq!(error.status(), StatusCode::FOUND);
    assert_eq!(error.location(), Some("https://elsewhere.example.net/v1/"));
    assert!(error.to_string().contains("not followed"));
}

#[test]
fn a_value_that_does_not_fit_its_field_does_not_fail_the_list() {
    // One pipe of the list has a number for its name, a string for a bool, a number for an
    // open enum and text that is no UUID for an id: that pipe reads those fields as absent and
    // keeps the values; the rest of the list reads as usual.
    let body = br#"{"status":200,"requestId":"r-8","result":[
        {"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":"first","state":"Running"},
        {"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5f","name":5,"state":3,"serviceId":"nope",
         "destination":{"table":"t","managedTable":"true"}}
    ]}"#;
    let pipes = ListPipes::new(org(), service())
        .parse_response(&crate::common::management(), response(200, body))
        .unwrap()
        .value;
    assert_eq!(pipes.len(), 2);
    assert_eq!(pipes[0].name.as_deref(), Some("first"));
    assert_eq!(pipes[0].state, Some(PipeState::Running));
    let odd = &pipes[1];
    assert_eq!((odd.name.as_ref(), odd.state.as_ref(), odd.service_id), (None, None, None));
    assert_eq!(odd.unknown.get("name"), Some("5"));
    assert_eq!(odd.unknown.get("state"), Some("3"));
    assert_eq!(odd.unknown.get("serviceId"), Some(r#""nope""#));
    let destination = odd.destination.as_ref().unwrap();
    assert_eq!((destination.table.as_deref(), destination.managed_table), (Some("t"), None));
    assert_eq!(destination.unknown.get("managedTable"), Some(r#""true""#));
}

#[test]
fn an_undecodable_success_names_the_operation_and_path() {
    let body = br#"{"status":200,"requestId":"r-9","result":[{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e"},{"id":"yesterday","name":"p"}]}"#;
    match ListPipes::new(org(), service()).parse_response(&crate::common::management(), response(200, body)) {
        Err(Error::Decode(e)) => {
            assert_eq!(e.operation(), "list_pipes");
            // An object's own id that is no UUID: the one misfit that fails a read (any other
            // field's misfit is kept).
            assert_eq!(e.path(), "result[1].id");
            assert!(e.message().contains("UUID"), "{}", e.message());
            assert_eq!(e.request_id(), Some("r-9"));
            assert_eq!(e.body(), body);
            let shown = e.to_string();
            assert!(shown.contains("list_pipes") && shown.contains("result[1].id"));
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[test]
fn an_envelope_without_result_is_a_decode_error() {
    let body = br#"{"status":200,"requestId":"r-1"}"#;
    match GetService::new(org(), service()).parse_response(&crate::common::management(), response(200, body)) {
        Err(Error::Decode(e)) => {
            assert_eq!(e.path(), "result");
            assert_eq!(e.request_id(), Some("r-1"));
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[test]
fn a_body_that_is_not_json_is_a_decode_error_with_a_truncated_display() {
    let body = "<html>".repeat(2000);
    match GetService::new(org(), service()).parse_response(&crate::common::management(), response(200, body.as_bytes()))
    {
        Err(Error::Decode(e)) => {
            assert_eq!(e.body().len(), body.len(), "the whole body is kept");
            let shown = e.to_string();
            assert!(shown.len() < 1000, "Display truncates: {} bytes", shown.len());
            assert!(shown.contains("12000 bytes in all"), "{shown}");
        }
        other => panic!("expected a decode error, got {other:?}"),
    }
}

#[test]
fn secrets_in_an_undecodable_body_are_not_shown() {
    let body = br#"{"status":200,"requestId":"r","result":{"key":{"id":"not-a-uuid"},"keyId":"k","keySecret":"MARKER-SECRET"}}"#;
    let endpoint = CreateKey::new(org(), CreateKeyRequest::new("ci", [KeyRole::Admin]));
    let error = endpoint.parse_response(&crate::common::management(), response(200, body)).unwrap_err();
    assert!(!error.to_string().contains("MARKER-SECRET"));
    assert!(!format!("{error:?}").contains("MARKER-SECRET"));
    assert!(error.to_string().contains("[redacted]"));
}

#[test]
fn gateway_errors_on_a_create_say_the_outcome_is_unknown() {
    let endpoint = CreatePipe::new(org(), service(), pipe_request());
    for status in [502, 503, 504] {
        let error = endpoint.parse_response(&crate::common::management(), response(status, b"gateway")).unwrap_err();
        assert!(error.outcome_unknown(), "{status}");
        assert!(error.to_string().contains("list before creating again"), "{error}");
    }
    let error = endpoint.parse_response(&crate::common::management(), response(500, b"{}")).unwrap_err();
    assert!(!error.outcome_unknown(), "a 500 from the service itself is a refusal");
    let error =
        ListPipes::new(org(), service()).parse_response(&crate::common::management(), response(503, b"")).unwrap_err();
    assert!(!error.outcome_unknown(), "a GET changes nothing");
}

#[test]
fn what_a_server_sent_may_be_sent_back_but_a_typo_from_a_file_may_not() {
    use pipe_api_proto::types::{CreatePipeRequest, Destination, DestinationColumn, Validate};
    // A newer server's authentication, decoded from its answer: vouched for.
    let body =
        br#"{"status":200,"result":{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","source":{"kafka":{"type":"kafka",
        "format":"JSONEachRow","brokers":"b:9092","topics":"t","authentication":"OAUTHBEARER"}}}}"#;
    let pipe = GetPipe::new(org(), service(), pipe()).parse_response(&management(), response(200, body)).unwrap().value;
    let destination = Destination::existing("t", [DestinationColumn::new("a", "String")]);
    let again = CreatePipeRequest::new("again", pipe.source.clone().unwrap(), destination.clone());
    assert!(again.validate().is_ok(), "{:?}", again.validate());
    // The same source read from a user's JSON file: refused, as a likely typo.
    let from_file: pipe_api_proto::types::PipeSource = serde_json::from_str(
        r#"{"kafka":{"type":"kafka","format":"JSONEachRow","brokers":"b:9092","topics":"t","authentication":"OAUTHBEARER"}}"#,
    )
    .unwrap();
    let refused = CreatePipeRequest::new("again", from_file, destination);
    assert!(refused.validate().unwrap_err().to_string().contains("`source.kafka.authentication` must be one of"));
}
