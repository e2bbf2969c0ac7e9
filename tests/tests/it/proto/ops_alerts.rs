//! Alerts: one request snapshot per operation, each success fixture (newer and older servers)
//! parsed field by field, the older servers' plain `OK` delete, and error fixtures.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{CreateAlert, DeleteAlert, EndpointExt, Error, GetAlert, UpdateAlert, render_request};
use pipe_api_types::{
    AlertChannel, AlertErrorType, AlertId, AlertInterval, AlertRequest, AlertSource, AlertState, ChannelType, Rule,
    ThresholdType,
};
use time::macros::datetime;

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "create_ok" => include_bytes!("fixtures/operations/create_alert/ok.json"),
        "get_newer_ok" => include_bytes!("fixtures/operations/get_alert/ok_newer.json"),
        "get_older_ok" => include_bytes!("fixtures/operations/get_alert/ok_older.json"),
        "update_ok" => include_bytes!("fixtures/operations/update_alert/ok.json"),
        "delete_newer_ok" => include_bytes!("fixtures/operations/delete_alert/ok_newer.json"),
        "delete_older_ok" => include_bytes!("fixtures/operations/delete_alert/ok_older.txt"),
        "error_400_message" => include_bytes!("fixtures/operations/create_alert/400_message.json"),
        "error_404_newer_message" => include_bytes!("fixtures/operations/get_alert/404_newer_message.json"),
        "error_404_older_plain" => include_bytes!("fixtures/operations/delete_alert/404_older_plain.txt"),
        other => panic!("no fixture {other}"),
    }
}

fn alert_id() -> AlertId {
    AlertId::new("65f5e4a3b9e77c001a123456")
}

/// The contract's `tileAlert` example, built.
fn tile_alert() -> AlertRequest {
    AlertRequest::tile(
        "65f5e4a3b9e77c001a567890",
        "65f5e4a3b9e77c001a901234",
        ThresholdType::Above,
        100.0,
        AlertInterval::OneHour,
        AlertChannel::webhook("65f5e4a3b9e77c001a789012"),
    )
    .name("Error Spike Alert")
    .message("Error rate has exceeded 100 in the last hour")
    .num_consecutive_windows(3u32)
}

// ---- requests --------------------------------------------------------------------------------

#[test]
fn create_requests() {
    let tile = CreateAlert::new(tile_alert()).build_request(&alerting()).unwrap();
    insta::assert_snapshot!("create_alert_tile", render_request(&tile));
    // The contract's `multiChannelAlert` example, with the newer servers' options: several
    // channels, the first of which is also the one `channel` every server reads.
    let first = AlertChannel::webhook("65f5e4a3b9e77c001a789012");
    let saved_search = AlertRequest::saved_search(
        "65f5e4a3b9e77c001a345678",
        ThresholdType::NotBetween,
        -2.5,
        AlertInterval::FiveMinutes,
        first.clone(),
    )
    .channels([first, AlertChannel::webhook("65f5e4a3b9e77c001a789013")])
    .threshold_max(7.25)
    .group_by("ServiceName")
    .schedule_offset_minutes(2u32)
    .note("See [runbook](https://wiki.example.com/runbook).")
    .name("Error Spike Alert");
    let request = CreateAlert::new(saved_search).build_request(&alerting()).unwrap();
    insta::assert_snapshot!("create_alert_saved_search", render_request(&request));
}

#[test]
fn get_update_and_delete_requests() {
    let get = GetAlert::new(alert_id()).build_request(&alerting()).unwrap();
    insta::assert_snapshot!("get_alert", render_request(&get));
    let anchored = tile_alert().threshold(500).schedule_start_at(datetime!(2026-02-08 10:00:00 UTC));
    let update = UpdateAlert::new(alert_id(), anchored).build_request(&alerting()).unwrap();
    insta::assert_snapshot!("update_alert", render_request(&update));
    let delete = DeleteAlert::new(alert_id()).build_request(&alerting()).unwrap();
    insta::assert_snapshot!("delete_alert", render_request(&delete));
}

#[test]
fn an_alert_id_is_one_encoded_path_segment() {
    let request = GetAlert::new(AlertId::new("a/b c")).build_request(&alerting()).unwrap();
    assert_eq!(request.uri().path(), "/api/v2/alerts/a%2Fb%20c");
}

#[test]
fn an_invalid_alert_builds_nothing() {
    let between = tile_alert().threshold_type(ThresholdType::Between);
    let error = UpdateAlert::new(alert_id(), between).build_request(&alerting()).unwrap_err();
    assert!(
        error
            .validation()
            .unwrap()
            .contains("thresholdMax", &Rule::RequiredBecause("when thresholdType is between or not_between")),
        "{error}"
    );
    assert_eq!(error.operation(), "update_alert");
}

// ---- responses -------------------------------------------------------------------------------

#[test]
fn create_success_unwraps_data() {
    let reply = CreateAlert::new(tile_alert())
        .parse_response(&crate::common::alerting(), response(200, fixture("create_ok")))
        .unwrap();
    assert_eq!(reply.request_id, None);
    let alert = reply.value;
    assert_eq!(alert.id, alert_id());
    assert_eq!(alert.dashboard_id.as_deref(), Some("65f5e4a3b9e77c001a567890"));
    assert_eq!(alert.tile_id.as_deref(), Some("65f5e4a3b9e77c001a901234"));
    assert_eq!(alert.threshold, Some(100.0));
    assert_eq!(alert.interval, Some(AlertInterval::OneHour));
    assert_eq!(alert.source, Some(AlertSource::Tile));
    assert_eq!(alert.threshold_type, Some(ThresholdType::Above));
    assert_eq!(alert.channel, Some(AlertChannel::webhook("65f5e4a3b9e77c001a789012")));
    assert_eq!(alert.channels, Some(vec![AlertChannel::webhook("65f5e4a3b9e77c001a789012")]));
    assert_eq!(alert.name.as_deref(), Some("Error Spike Alert"));
    assert_eq!(alert.message.as_deref(), Some("Error rate has exceeded 100 in the last hour"));
    assert_eq!(alert.num_consecutive_windows, Some(3));
    assert_eq!(alert.state, Some(AlertState::Ok));
    assert_eq!(alert.team_id.as_deref(), Some("65f5e4a3b9e77c001a345678"));
    assert_eq!((alert.silenced.as_ref(), alert.execution_errors.as_ref()), (None, None));
    assert_eq!(alert.created_at, Some(datetime!(2026-03-15 10:20:30 UTC)));
    assert_eq!(alert.updated_at, Some(datetime!(2026-03-15 10:20:30 UTC)));
    assert!(alert.unknown.is_empty());
}

#[test]
fn get_success_from_a_newer_server() {
    let alert = GetAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(200, fixture("get_newer_ok")))
        .unwrap()
        .value;
    assert_eq!(alert.id.as_str(), "65f5e4a3b9e77c001a123457");
    assert_eq!(alert.resolved_saved_search_id(), Some("65f5e4a3b9e77c001a345679"));
    assert_eq!(alert.group_by.as_deref(), Some("ServiceName"));
    assert_eq!((alert.threshold, alert.threshold_max), (Some(-2.5), Some(7.25)));
    assert_eq!(alert.interval, Some(AlertInterval::FiveMinutes));
    assert_eq!(alert.schedule_offset_minutes, Some(2));
    assert_eq!(alert.schedule_start_at, None);
    assert_eq!(alert.threshold_type, Some(ThresholdType::NotBetween));
    assert_eq!(alert.resolved_channels().len(), 2);
    assert_eq!(alert.channels.as_ref().unwrap()[1].kind, Some(ChannelType::Webhook));
    assert_eq!((alert.name.as_deref(), alert.message.as_deref()), (Some("Latency out of band"), None));
    assert_eq!(alert.note.as_deref(), Some("Raised on 2026-01-15, see the runbook."));
    assert_eq!(alert.num_consecutive_windows, None);
    assert_eq!(alert.state, Some(AlertState::Pending));
    let silenced = alert.silenced.as_ref().unwrap();
    assert_eq!(silenced.by.as_deref(), Some("ops@example.com"));
    assert_eq!(silenced.until, Some(datetime!(2026-03-16 20:00:00 UTC)));
    let error = &alert.execution_errors.as_ref().unwrap()[0];
    assert_eq!(error.kind, Some(AlertErrorType::WebhookError));
    assert_eq!(error.message.as_deref(), Some("webhook answered 502"));
    assert_eq!(alert.unknown.get("labels"), Some(r#"{ "tier": "gold" }"#));
}

#[test]
fn get_success_from_an_older_server() {
    let alert = GetAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(200, fixture("get_older_ok")))
        .unwrap()
        .value;
    assert_eq!(alert.id.as_str(), "65f5e4a3b9e77c001a123458");
    assert_eq!(alert.team.as_deref(), Some("65f5e4a3b9e77c001a345678"));
    assert_eq!(alert.resolved_team_id(), Some("65f5e4a3b9e77c001a345678"));
    assert_eq!(alert.dashboard.as_deref(), Some("65f5e4a3b9e77c001a567891"));
    assert_eq!(alert.resolved_dashboard_id(), Some("65f5e4a3b9e77c001a567891"));
    assert_eq!(alert.tile_id.as_deref(), Some("65f5e4a3b9e77c001a901235"));
    assert_eq!(alert.threshold_type, Some(ThresholdType::Below));
    assert_eq!(alert.state, Some(AlertState::InsufficientData));
    assert_eq!(alert.resolved_channels(), [&AlertChannel::webhook("65f5e4a3b9e77c001a789014")]);
    // Sent back, the older names go under the names requests use.
    let back = serde_json::to_value(AlertRequest::from(alert)).unwrap();
    assert_eq!(back["dashboardId"], "65f5e4a3b9e77c001a567891");
    assert!(back.get("dashboard").is_none() && back.get("team").is_none() && back.get("id").is_none(), "{back}");
}

#[test]
fn update_success_shows_the_replaced_alert() {
    let reply = UpdateAlert::new(alert_id(), tile_alert())
        .parse_response(&crate::common::alerting(), response(200, fixture("update_ok")))
        .unwrap();
    let alert = reply.value;
    assert_eq!(alert.threshold, Some(500.0));
    assert_eq!(alert.name.as_deref(), Some("Updated Alert Name"));
    assert_eq!((alert.note.as_ref(), alert.num_consecutive_windows), (None, None));
    assert_eq!(alert.state, Some(AlertState::Alert));
    assert_eq!(alert.updated_at, Some(datetime!(2026-03-17 09:00:00 UTC)));
}

#[test]
fn delete_success_is_unit_on_both_generations() {
    for (name, status) in [("delete_newer_ok", 200), ("delete_older_ok", 200)] {
        let reply = DeleteAlert::new(alert_id())
            .parse_response(&crate::common::alerting(), response(status, fixture(name)))
            .unwrap();
        assert_eq!((reply.value, reply.status, reply.request_id), ((), StatusCode::OK, None), "{name}");
    }
    // Whatever else says nothing is nothing too; a body with something in it is not.
    for body in [&b""[..], b"  ", b"null", b"{ }", b"ok\n"] {
        assert!(
            DeleteAlert::new(alert_id()).parse_response(&crate::common::alerting(), response(200, body)).is_ok(),
            "{body:?}"
        );
    }
    let error = DeleteAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(200, b"{\"deleted\":1}"))
        .unwrap_err();
    assert!(matches!(error, Error::Decode(_)), "{error}");
}

#[test]
fn errors_are_typed() {
    let Err(Error::Api(bad)) = CreateAlert::new(tile_alert())
        .parse_response(&crate::common::alerting(), response(400, fixture("error_400_message")))
    else {
        panic!("expected an API error")
    };
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    assert_eq!(bad.message(), Some("thresholdMax must be greater than or equal to threshold"));
    assert_eq!(bad.operation(), "create_alert");

    let newer = GetAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(404, fixture("error_404_newer_message")))
        .unwrap_err();
    assert!(newer.is_not_found());
    let newer = newer.as_api().unwrap();
    assert_eq!((newer.code(), newer.message()), (Some("NOT_FOUND"), Some("Alert not found")));

    let older = DeleteAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(404, fixture("error_404_older_plain")))
        .unwrap_err();
    assert!(older.is_not_found());
    assert_eq!(older.as_api().unwrap().raw_text().as_deref(), Some("Not Found"));
    assert_eq!(older.as_api().unwrap().operation(), "delete_alert");
}

#[test]
fn a_success_without_data_is_a_decode_error_naming_the_path() {
    let error = GetAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(200, br#"{"data":{"name":"x"}}"#))
        .unwrap_err();
    let Error::Decode(decode) = error else { panic!("expected a decode error") };
    assert_eq!(decode.path(), "data");
    let error = GetAlert::new(alert_id())
        .parse_response(&crate::common::alerting(), response(200, br#"{"id":"x"}"#))
        .unwrap_err();
    assert!(matches!(error, Error::Decode(_)), "{error}");
}
