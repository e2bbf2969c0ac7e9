//! Alerts end to end: the ureq client against the fake served on 127.0.0.1, playing a newer and
//! an older alerting server: create, get, update (a full replace), delete, a typed 404 after;
//! and an alert read and written back keeps the fields this crate does not model.

use pipe_api_fake::{AlertingVersion, Fake};
use pipe_api_ureq::types::{
    Alert, AlertChannel, AlertId, AlertInterval, AlertRequest, AlertSource, AlertState, ThresholdType,
};

use crate::clients::*;

/// An alert on a tile, named, with a message (also the base of `nullable_members.rs`'s).
pub(crate) fn tile_alert() -> AlertRequest {
    AlertRequest::tile(
        "65f1a2b3c4d5e6f708190300",
        "tile-errors",
        ThresholdType::Above,
        100.0,
        AlertInterval::FifteenMinutes,
        AlertChannel::webhook("65f1a2b3c4d5e6f708190002"),
    )
    .name("Ingestion errors")
    .message("More than 100 errors in 15 minutes")
}

#[test]
fn an_alert_lives_and_dies_on_both_generations() {
    for version in [AlertingVersion::Newer, AlertingVersion::Older] {
        let fake = Fake::demo();
        fake.set_alerting_version(version);
        let server = fake.serve().unwrap();
        let client = demo_client(&server);

        let created = client.create_alert(tile_alert()).unwrap();
        assert_eq!(created.source, Some(AlertSource::Tile), "{version:?}");
        assert_eq!(created.resolved_dashboard_id(), Some("65f1a2b3c4d5e6f708190300"));
        assert_eq!(created.tile_id.as_deref(), Some("tile-errors"));
        assert_eq!(created.resolved_team_id(), Some("65f1a2b3c4d5e6f708190100"));
        assert_eq!(created.resolved_channels(), [&AlertChannel::webhook("65f1a2b3c4d5e6f708190002")]);
        assert_eq!(created.state, Some(AlertState::Ok));
        assert_eq!(created.created_at, Some(fake.now()));
        match version {
            AlertingVersion::Older => assert_eq!((created.team.is_some(), created.team_id.is_some()), (true, false)),
            _ => assert_eq!((created.team.is_some(), created.team_id.is_some()), (false, true)),
        }
        assert_eq!(client.get_alert(created.id.clone()).unwrap(), created);

        // Update from the alert as read: a full replace that changes the threshold only.
        let changed = AlertRequest::from(created.clone()).threshold(250);
        let updated = client.update_alert(created.id.clone(), changed).unwrap();
        assert_eq!(updated.threshold, Some(250.0), "{version:?}");
        assert_eq!(updated.name, created.name);
        assert_eq!(updated.message, created.message);
        assert_eq!(updated.resolved_dashboard_id(), created.resolved_dashboard_id());

        // A replace that leaves the message out clears it, as the server says a PUT does.
        let with_message = AlertRequest::from(updated.clone()).message("kept");
        assert_eq!(client.update_alert(created.id.clone(), with_message).unwrap().message.as_deref(), Some("kept"));
        let mut bare = AlertRequest::from(updated);
        bare.message = None;
        assert_eq!(client.update_alert(created.id.clone(), bare).unwrap().message, None);

        client.delete_alert(created.id.clone()).unwrap();
        let gone = client.get_alert(created.id.clone()).unwrap_err();
        assert!(gone.is_not_found(), "{version:?}: {gone}");
        assert!(client.delete_alert(created.id).unwrap_err().is_not_found());
    }
}

#[test]
fn several_channels_go_only_when_set_and_each_generation_keeps_what_it_knows() {
    let (ops, pager) =
        (AlertChannel::webhook("65f1a2b3c4d5e6f708190002"), AlertChannel::webhook("65f1a2b3c4d5e6f708190003"));
    for version in [AlertingVersion::Newer, AlertingVersion::Older] {
        let fake = Fake::demo();
        fake.set_alerting_version(version);
        let server = fake.serve().unwrap();
        let client = demo_client(&server);

        let created = client.create_alert(tile_alert().channels([ops.clone(), pager.clone()])).unwrap();
        match version {
            // A newer server keeps both, and mirrors the first as `channel`.
            AlertingVersion::Newer => {
                assert_eq!(created.channels.as_deref(), Some(&[ops.clone(), pager.clone()][..]));
                assert_eq!(created.channel.as_ref(), Some(&ops));
            }
            // An older one knows only `channel`: the first.
            _ => assert_eq!((created.channel.as_ref(), created.channels.as_ref()), (Some(&ops), None)),
        }
        // A request built afresh with one channel sends `channel` alone: the alert is cut down
        // to it, as asked.
        let one = client.update_alert(created.id.clone(), tile_alert()).unwrap();
        assert_eq!(one.resolved_channels(), [&ops], "{version:?}");
    }
}

#[test]
fn a_put_round_trip_keeps_what_this_crate_does_not_model() {
    let fake = Fake::demo();
    // A server newer than this crate: it knows `labels`, which this crate does not model.
    fake.set_alert_fields_beyond_contract(["labels"]);
    let seeded: Alert = serde_json::from_value(serde_json::json!({
        "id": "65f1a2b3c4d5e6f708192aff",
        "name": "Lag",
        "threshold": 5,
        "thresholdMax": 50,
        "thresholdType": "between",
        "interval": "5m",
        "scheduleOffsetMinutes": 3,
        "source": "saved_search",
        "savedSearchId": "65f1a2b3c4d5e6f708190201",
        "channel": { "type": "webhook", "webhookId": "w1" },
        "channels": [{ "type": "webhook", "webhookId": "w1" }, { "type": "webhook", "webhookId": "w2" }],
        "note": "owned by the data team",
        "numConsecutiveWindows": 2,
        "labels": { "tier": "gold", "owners": ["data"] }
    }))
    .unwrap();
    fake.seed_alert(seeded);
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    let id = AlertId::new("65f1a2b3c4d5e6f708192aff");

    let read = client.get_alert(id.clone()).unwrap();
    assert_eq!(read.unknown.get_value("labels"), Some(serde_json::json!({ "tier": "gold", "owners": ["data"] })));
    let written = client.update_alert(id.clone(), AlertRequest::from(read.clone()).name("Lag (renamed)")).unwrap();
    let again = client.get_alert(id.clone()).unwrap();
    assert_eq!(again, written);
    assert_eq!(again.name.as_deref(), Some("Lag (renamed)"));
    for (field, kept) in [
        ("labels", again.unknown.get_value("labels") == read.unknown.get_value("labels")),
        ("channels", again.channels == read.channels),
        ("note", again.note == read.note),
        ("numConsecutiveWindows", again.num_consecutive_windows == read.num_consecutive_windows),
        ("thresholdMax", again.threshold_max == read.threshold_max),
        ("scheduleOffsetMinutes", again.schedule_offset_minutes == read.schedule_offset_minutes),
    ] {
        assert!(kept, "{field} was lost: {again:?}");
    }

    // What the round trip protects against: a request built afresh erases what it leaves out.
    let fresh = AlertRequest::saved_search(
        "65f1a2b3c4d5e6f708190201",
        ThresholdType::Between,
        5.0,
        AlertInterval::FiveMinutes,
        AlertChannel::webhook("w1"),
    )
    .threshold_max(50);
    let erased = client.update_alert(id, fresh).unwrap();
    assert_eq!(erased.unknown.get("labels"), None);
    assert_eq!((erased.note.as_ref(), erased.channels.as_ref().map(Vec::len)), (None, Some(1)));
}

#[test]
fn the_server_refuses_what_the_client_cannot_know_and_an_invalid_alert_is_never_sent() {
    let fake = Fake::demo();
    fake.set_alerting_version(AlertingVersion::Older);
    let server = fake.serve().unwrap();
    let client = demo_client(&server);
    // Older servers want a threshold of at least 0; only the server knows which it is.
    let error = client.create_alert(tile_alert().threshold(-1)).unwrap_err();
    let api = error.as_api().unwrap();
    assert_eq!(api.status(), 400);
    assert_eq!(api.message(), Some("threshold: must be greater than or equal to 0"));

    let sent = fake.request_count();
    let error = client.create_alert(tile_alert().name("")).unwrap_err();
    assert!(matches!(error, pipe_api_ureq::Error::Build(_)), "{error}");
    assert_eq!(fake.request_count(), sent);
}
