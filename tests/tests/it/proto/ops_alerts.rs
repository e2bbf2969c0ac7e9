//! Alerts: what the harness over the fixtures (`every_operation`) does not check. An id as one
//! path segment; the ids an alert resolves from either server generation, and an older one's
//! sent back under the names requests use; what a delete's empty answer may be; an older
//! server's plain 404; validation before building.

use crate::proto::common;

use common::*;
use pipe_api_proto::{DeleteAlert, EndpointExt, Error, GetAlert, UpdateAlert};
use pipe_api_tests::every_operation::ALERT;
use pipe_api_types::{AlertChannel, AlertId, AlertInterval, AlertRequest, Rule, ThresholdType};

fn alert_id() -> AlertId {
    AlertId::new(ALERT)
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

#[test]
fn a_newer_servers_alert_resolves_its_saved_search_and_channels() {
    let body = operation_fixture("get_alert", "ok_newer.json");
    let alert = GetAlert::new(alert_id()).parse_response(&alerting(), response(200, body)).unwrap().value;
    assert_eq!(alert.resolved_saved_search_id(), Some("65f5e4a3b9e77c001a345679"));
    assert_eq!(alert.resolved_channels().len(), 2);
}

#[test]
fn an_older_servers_alert_resolves_its_ids_and_goes_back_under_the_request_names() {
    let body = operation_fixture("get_alert", "ok_older.json");
    let alert = GetAlert::new(alert_id()).parse_response(&alerting(), response(200, body)).unwrap().value;
    assert_eq!(alert.resolved_team_id(), Some("65f5e4a3b9e77c001a345678"));
    assert_eq!(alert.resolved_dashboard_id(), Some("65f5e4a3b9e77c001a567891"));
    assert_eq!(alert.resolved_channels(), [&AlertChannel::webhook("65f5e4a3b9e77c001a789014")]);
    // Sent back, the older names go under the names requests use.
    let back = serde_json::to_value(AlertRequest::from(alert)).unwrap();
    assert_eq!(back["dashboardId"], "65f5e4a3b9e77c001a567891");
    assert!(back.get("dashboard").is_none() && back.get("team").is_none() && back.get("id").is_none(), "{back}");
}

#[test]
fn a_delete_answered_with_nothing_is_unit_and_with_something_a_decode_error() {
    // The fixtures hold the newer servers' `{}` and the older ones' `OK`; whatever else says
    // nothing is nothing too; a body with something in it is not.
    for body in [&b""[..], b"  ", b"null", b"{ }", b"ok\n"] {
        assert!(DeleteAlert::new(alert_id()).parse_response(&alerting(), response(200, body)).is_ok(), "{body:?}");
    }
    let error =
        DeleteAlert::new(alert_id()).parse_response(&alerting(), response(200, b"{\"deleted\":1}")).unwrap_err();
    assert!(matches!(error, Error::Decode(_)), "{error}");
}

#[test]
fn an_older_servers_plain_404_is_not_found_with_its_text_kept() {
    let body = operation_fixture("delete_alert", "404_older_plain.txt");
    let older = DeleteAlert::new(alert_id()).parse_response(&alerting(), response(404, body)).unwrap_err();
    assert!(older.is_not_found());
    assert_eq!(older.as_api().unwrap().raw_text().as_deref(), Some("Not Found"));
}

#[test]
fn a_success_without_data_is_a_decode_error_naming_the_path() {
    let error =
        GetAlert::new(alert_id()).parse_response(&alerting(), response(200, br#"{"data":{"name":"x"}}"#)).unwrap_err();
    let Error::Decode(decode) = error else { panic!("expected a decode error") };
    assert_eq!(decode.path(), "data");
    let error = GetAlert::new(alert_id()).parse_response(&alerting(), response(200, br#"{"id":"x"}"#)).unwrap_err();
    assert!(matches!(error, Error::Decode(_)), "{error}");
}
