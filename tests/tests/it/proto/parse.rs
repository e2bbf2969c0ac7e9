//! Parsing, beyond what the harness over the fixtures (`every_operation`) checks: an alert
//! page's ids resolved, its other members kept and its total from a header; envelopes read as
//! serde reads them; every error shape the services send, checked field by field.

use crate::proto::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{CreateKey, CreatePipe, EndpointExt, Error, GetPipe, GetService, ListAlerts, ListPipes};
use pipe_api_types::{CreateKeyRequest, CreatePipeRequest, Destination, KeyRole, PipeSource, PipeState};

fn pipe_request() -> CreatePipeRequest {
    CreatePipeRequest::new("p", PipeSource::default(), Destination::default())
}

#[test]
fn an_alert_page_resolves_ids_from_either_server_generation() {
    let page = |file: &str| {
        let body = operation_fixture("list_alerts", file);
        ListAlerts::new().parse_response(&alerting(), response(200, body)).unwrap().value
    };
    let older = page("ok_older_server.json");
    assert_eq!(older.alerts[0].resolved_team_id(), Some("65f5e4a3b9e77c001a345678"));
    assert_eq!(older.alerts[0].resolved_dashboard_id(), Some("65f5e4a3b9e77c001a567890"));
    assert_eq!(older.alerts[1].resolved_saved_search_id(), Some("65f5e4a3b9e77c001a111111"));
    let newer = page("ok_newer_server.json");
    assert_eq!(newer.alerts[0].resolved_team_id(), Some("66a1b2c3d4e5f60718293a40"));
    assert_eq!(newer.alerts[0].resolved_channels().len(), 2);
}

#[test]
fn an_alert_lists_unknown_top_level_members_survive() {
    let body = br#"{"data":[],"meta":{"total":0},"links":{"next":null},"generatedAt":"2026-04-17T12:00:00Z"}"#;
    let page = ListAlerts::new().parse_response(&alerting(), response(200, body)).unwrap().value;
    assert_eq!(page.unknown.names().collect::<Vec<_>>(), ["links", "generatedAt"]);
    assert_eq!(page.unknown.get("links"), Some(r#"{"next":null}"#));
}

#[test]
fn alerts_total_from_header_when_no_meta() {
    let body = br#"{"data":[]}"#;
    let reply =
        ListAlerts::new().parse_response(&alerting(), response_with(200, &[("X-Total-Count", "7")], body)).unwrap();
    assert_eq!(reply.value.total, Some(7));
}

/// Envelopes and alert pages read as their derived `Deserialize` reads them, whichever
/// decoder takes them: other members ignored (an alert page keeps them), `null` members absent, a repeated member or a
/// missing `data` an error that names it.
#[test]
fn envelopes_and_pages_read_as_serde_reads_them() {
    let list =
        |body: &str| ListPipes::new(org(), service()).parse_response(&management(), response(200, body.as_bytes()));
    let reply = list(r#"{"status":200,"extra":{"a":[1,2]},"requestId":null,"result":[]}"#).unwrap();
    assert_eq!((reply.value.len(), reply.request_id), (0, None));
    let reply = list(r#" {"requestId":"r-1","result":[{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e"}]} "#).unwrap();
    assert_eq!((reply.value.len(), reply.request_id.as_deref()), (1, Some("r-1")));
    let Err(Error::Decode(error)) = list(r#"{"result":[],"result":[]}"#) else { panic!("a repeated result decodes") };
    assert!(error.to_string().contains("duplicate field `result`"), "{error}");

    let alerts = |body: &str| ListAlerts::new().parse_response(&alerting(), response(200, body.as_bytes()));
    let page = alerts(r#"{"meta":null,"data":[],"links":{}}"#).unwrap().value;
    assert_eq!((page.alerts.len(), page.meta), (0, None));
    assert_eq!(page.unknown.names().collect::<Vec<_>>(), ["links"]);
    let Err(Error::Decode(error)) = alerts(r#"{"meta":{}}"#) else { panic!("a page without data decodes") };
    assert!(error.to_string().contains("missing field `data`"), "{error}");
    let Err(Error::Decode(error)) = alerts(r#"{"data":[],"data":[]}"#) else { panic!("a repeated data decodes") };
    assert!(error.to_string().contains("duplicate field `data`"), "{error}");
}

/// The API error of a list-pipes answer with `status`, `headers` and `body`.
fn list_pipes_error(status: u16, headers: &[(&str, &str)], body: &[u8]) -> Box<pipe_api_proto::ApiError> {
    api_error_of(&ListPipes::new(org(), service()), response_with(status, headers, body))
}

#[test]
fn management_error_shapes() {
    let cases: &[(&str, u16, &str, Option<&str>)] = &[
        ("error_management_404_not_found.json", 404, "NOT_FOUND", Some(PIPE)),
        ("error_management_400_bad_request.json", 400, "BAD_REQUEST", Some("pipe is already running")),
        ("error_management_403_forbidden.json", 403, "FORBIDDEN", Some("the key's role does not allow this operation")),
        ("error_management_409_conflict.json", 409, "CONFLICT", Some("a state transition is in progress")),
        (
            "error_management_424_failed_dependency.json",
            424,
            "FAILED_DEPENDENCY",
            Some("Service is not running. Current state: idle"),
        ),
        ("error_management_429_bare.json", 429, "TOO_MANY_REQUESTS", None),
        ("error_management_500.json", 500, "INTERNAL_SERVER_ERROR", Some("unexpected failure")),
    ];
    for (name, status, code, message) in cases {
        let error = list_pipes_error(*status, &[], &fixture(name));
        assert_eq!(error.status().as_u16(), *status, "{name}");
        assert_eq!(error.code(), Some(*code), "{name}");
        assert_eq!(error.message(), *message, "{name}");
        assert_eq!(error.raw_text(), None, "{name}: a JSON body is not raw text");
        assert_eq!(error.operation(), "list_pipes");
        if *name != "error_management_429_bare.json" {
            assert!(error.request_id().is_some(), "{name}: request id");
        } else {
            assert_eq!(error.request_id(), None);
        }
    }
    let error = list_pipes_error(404, &[], &fixture("error_management_404_not_found.json"));
    assert_eq!(error.request_id(), Some("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"));
    let shown = error.to_string();
    assert!(shown.contains("list_pipes") && shown.contains("404") && shown.contains("NOT_FOUND"), "{shown}");
    assert!(shown.contains("a1b2c3d4-e5f6-4a7b-8c9d-0e1f2a3b4c5d"), "{shown}");
}

#[test]
fn rate_limit_hints_are_read() {
    let error = list_pipes_error(
        429,
        &[("X-RateLimit-Limit", "10"), ("X-RateLimit-Remaining", "0"), ("X-RateLimit-Reset", "3.2")],
        &fixture("error_management_429_bare.json"),
    );
    assert_eq!(error.retry_hints().x_rate_limit_reset, Some(std::time::Duration::from_millis(3200)));
    let error = list_pipes_error(
        429,
        &[("RateLimit-Reset", "12"), ("Retry-After", "12")],
        &fixture("error_alerting_429_plain.txt"),
    );
    assert_eq!(error.retry_hints().rate_limit_reset, Some(std::time::Duration::from_secs(12)));
    assert!(error.retry_hints().retry_after.is_some());
    assert_eq!(error.raw_text().as_deref(), Some("Too many requests, please try again later."));
}

#[test]
fn non_json_error_bodies_are_kept_raw() {
    let unauthorized = list_pipes_error(401, &[], &fixture("error_401_plain.txt"));
    assert_eq!(unauthorized.raw_text().as_deref(), Some("Unauthorized"));
    assert_eq!(unauthorized.code(), None);
    assert!(unauthorized.to_string().contains("Unauthorized"));

    let gateway = list_pipes_error(502, &[], &fixture("error_502_gateway.html"));
    assert!(gateway.raw_text().unwrap().contains("502 Bad Gateway"));
    assert_eq!(gateway.body(), &fixture("error_502_gateway.html"));

    let timeout = list_pipes_error(504, &[("x-request-id", "gw-77")], &fixture("error_504_gateway.txt"));
    assert_eq!(timeout.raw_text().as_deref(), Some("upstream request timeout"));
    assert_eq!(timeout.request_id(), Some("gw-77"), "a gateway's request id header is kept");
}

#[test]
fn alerting_error_shapes() {
    let parse = |status: u16, name: &str| match ListAlerts::new()
        .parse_response(&alerting(), response(status, fixture(name)))
    {
        Err(Error::Api(e)) => e,
        other => panic!("{name}: expected an API error, got {other:?}"),
    };
    let bad = parse(400, "error_alerting_400_message.json");
    assert_eq!(bad.message(), Some("limit must be between 1 and 1000"));
    assert_eq!(bad.code(), None);
    let issues = parse(400, "error_alerting_400_issues.json");
    assert_eq!(issues.message(), Some("Expected number, received string; Invalid enum value"));
    let forbidden = parse(403, "error_alerting_403_plain.txt");
    assert_eq!(forbidden.raw_text().as_deref(), Some("Forbidden"));
    let missing = parse(404, "error_alerting_404_message.json");
    assert_eq!(missing.code(), Some("NOT_FOUND"));
    assert_eq!(missing.message(), Some("Alert not found"));
    let internal = parse(500, "error_alerting_500_message.json");
    assert_eq!(internal.message(), Some("Internal Server Error"));
    let unauthorized = parse(401, "error_401_plain.txt");
    assert_eq!(unauthorized.raw_text().as_deref(), Some("Unauthorized"));
}

#[test]
fn a_redirect_is_an_error_never_followed() {
    let error = list_pipes_error(302, &[("Location", "https://elsewhere.example.net/v1/")], b"");
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
    let pipes = ListPipes::new(org(), service()).parse_response(&management(), response(200, body)).unwrap().value;
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
    match ListPipes::new(org(), service()).parse_response(&management(), response(200, body)) {
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
    match GetService::new(org(), service()).parse_response(&management(), response(200, body)) {
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
    match GetService::new(org(), service()).parse_response(&management(), response(200, body.as_bytes())) {
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
    let error = endpoint.parse_response(&management(), response(200, body)).unwrap_err();
    assert!(!error.to_string().contains("MARKER-SECRET"));
    assert!(!format!("{error:?}").contains("MARKER-SECRET"));
    assert!(error.to_string().contains("[redacted]"));
}

#[test]
fn gateway_errors_on_a_create_say_the_outcome_is_unknown() {
    let endpoint = CreatePipe::new(org(), service(), pipe_request());
    for status in [502, 503, 504] {
        let error = endpoint.parse_response(&management(), response(status, b"gateway")).unwrap_err();
        assert!(error.outcome_unknown(), "{status}");
        assert!(error.to_string().contains("list before creating again"), "{error}");
    }
    let error = endpoint.parse_response(&management(), response(500, b"{}")).unwrap_err();
    assert!(!error.outcome_unknown(), "a 500 from the service itself is a refusal");
    let error = ListPipes::new(org(), service()).parse_response(&management(), response(503, b"")).unwrap_err();
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
