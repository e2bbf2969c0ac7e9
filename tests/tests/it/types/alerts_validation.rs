//! The alert request (create and update): each of the alerting server's checks, as client
//! validation, accepts what its source allows and refuses the rest, naming the field. Sources:
//! the alerting OpenAPI contract (`CreateAlertRequest`, `UpdateAlertRequest`, `Alert`,
//! `AlertChannels`) and the service notes (alerting interface). And an alert read from a server
//! goes back as a request with every field it holds, unknown ones included.

use crate::types::common;

use common::violations;

use pipe_api_types::{Alert, AlertChannel, AlertInterval, AlertRequest, AlertSource, Rule, ThresholdType};
use proptest::prelude::*;
use time::macros::datetime;

/// Each violation's path and rule.
type Found = Vec<(String, Rule)>;

fn at(path: &str, rule: Rule) -> Found {
    vec![(path.to_owned(), rule)]
}

/// `request` changed by `change` (the model is non-exhaustive: no struct literal outside its crate).
fn with(mut request: AlertRequest, change: impl FnOnce(&mut AlertRequest)) -> AlertRequest {
    change(&mut request);
    request
}

fn hook(id: &str) -> AlertChannel {
    AlertChannel::webhook(id)
}

fn search() -> AlertRequest {
    AlertRequest::saved_search("s1", ThresholdType::Above, 10.0, AlertInterval::FiveMinutes, hook("w1"))
}

/// An alert with two channels: `channel` is the first of `channels`.
fn tile() -> AlertRequest {
    AlertRequest::tile("d1", "t1", ThresholdType::Below, -1.5, AlertInterval::OneHour, hook("w1"))
        .channels([hook("w1"), hook("w2")])
}

#[test]
fn the_built_requests_are_valid() {
    assert_eq!(violations(&search()), vec![]);
    assert_eq!(violations(&tile()), vec![]);
    // `channels` alone, as newer servers take it.
    let mut newer = tile();
    newer.channel = None;
    assert_eq!(violations(&newer), vec![]);
}

#[test]
fn a_request_sends_only_the_channels_its_caller_set() {
    let webhook = |id: &str| serde_json::json!({ "type": "webhook", "webhookId": id });
    // One channel: sent as `channel`, which every server reads, and no `channels`.
    for one in
        [search(), AlertRequest::tile("d1", "t1", ThresholdType::Below, -1.5, AlertInterval::OneHour, hook("w1"))]
    {
        let sent = serde_json::to_value(&one).unwrap();
        assert_eq!((&sent["channel"], sent.get("channels")), (&webhook("w1"), None), "{sent}");
    }
    // Several: `channels` as set, beside the constructor's `channel`, which is their first, so
    // no mismatch.
    let several = search().channels([hook("w1"), hook("w2")]);
    assert_eq!(violations(&several), vec![]);
    let sent = serde_json::to_value(&several).unwrap();
    assert_eq!(sent["channels"], serde_json::json!([webhook("w1"), webhook("w2")]));
    assert_eq!(sent["channel"], webhook("w1"));
}

#[test]
fn each_rule_names_its_field() {
    let between = ThresholdType::Between;
    let cases: Vec<(&str, AlertRequest, Found)> = vec![
        // Notes: `source` always; saved_search needs savedSearchId, tile dashboardId and tileId.
        (
            "no source",
            with(search(), |r| {
                r.source = None;
            }),
            at("source", Rule::Required),
        ),
        (
            "saved search without its id",
            with(search(), |r| {
                r.saved_search_id = None;
            }),
            at("savedSearchId", Rule::RequiredBecause("when source is saved_search")),
        ),
        ("empty saved search id", search().saved_search_id(""), at("savedSearchId", Rule::NotBlank)),
        (
            "tile without its dashboard",
            with(tile(), |r| {
                r.dashboard_id = None;
            }),
            at("dashboardId", Rule::RequiredBecause("when source is tile")),
        ),
        ("empty tile id", tile().tile_id(""), at("tileId", Rule::NotBlank)),
        // Contract: threshold, interval and thresholdType are required.
        (
            "no threshold",
            with(search(), |r| {
                r.threshold = None;
            }),
            at("threshold", Rule::Required),
        ),
        ("NaN threshold", search().threshold(f64::NAN), at("threshold", Rule::FiniteNumber)),
        (
            "no interval",
            with(search(), |r| {
                r.interval = None;
            }),
            at("interval", Rule::Required),
        ),
        (
            "no threshold type",
            with(search(), |r| {
                r.threshold_type = None;
            }),
            at("thresholdType", Rule::Required),
        ),
        // Contract: thresholdMax required for between/not_between, and >= threshold.
        (
            "between without a max",
            search().threshold_type(between.clone()),
            at("thresholdMax", Rule::RequiredBecause("when thresholdType is between or not_between")),
        ),
        ("between with max = threshold", search().threshold_type(between.clone()).threshold_max(10), vec![]),
        (
            "max below threshold",
            search().threshold_type(ThresholdType::NotBetween).threshold_max(9.5),
            at("thresholdMax", Rule::NotLessThan("threshold")),
        ),
        // Notes: scheduleOffsetMinutes 0-1439, below the interval, 0 with scheduleStartAt.
        ("offset below 5m", search().schedule_offset_minutes(4u32), vec![]),
        (
            "offset of the whole 5m",
            search().schedule_offset_minutes(5u32),
            at("scheduleOffsetMinutes", Rule::Range { min: 0, max: 4 }),
        ),
        (
            "offset of a day",
            search().interval(AlertInterval::OneDay).schedule_offset_minutes(1440u32),
            at("scheduleOffsetMinutes", Rule::Range { min: 0, max: 1439 }),
        ),
        (
            "offset with a start",
            search().schedule_offset_minutes(1u32).schedule_start_at(datetime!(2026-02-08 10:00 UTC)),
            at("scheduleOffsetMinutes", Rule::Range { min: 0, max: 0 }),
        ),
        (
            "zero offset with a start",
            search().schedule_offset_minutes(0u32).schedule_start_at(datetime!(2026-02-08 10:00 UTC)),
            vec![],
        ),
        // Contract: at least one of channel or channels; channels 1-10, no duplicates; channel
        // equal to channels[0] when both are sent.
        (
            "no channel at all",
            with(search(), |r| {
                r.channel = None;
                r.channels = None;
            }),
            at("channels", Rule::RequiredBecause("when channel is not set")),
        ),
        (
            "empty channels",
            with(search(), |r| {
                r.channel = None;
            })
            .channels(Vec::<AlertChannel>::new()),
            at("channels", Rule::MinItems(1)),
        ),
        (
            "eleven channels",
            with(search(), |r| {
                r.channel = None;
            })
            .channels((0..11).map(|i| hook(&format!("w{i}")))),
            at("channels", Rule::MaxItems(10)),
        ),
        (
            "ten channels",
            with(search(), |r| {
                r.channel = None;
            })
            .channels((0..10).map(|i| hook(&format!("w{i}")))),
            vec![],
        ),
        ("duplicate channels", tile().channels([hook("w1"), hook("w1")]), at("channels[1]", Rule::UniqueItems)),
        ("channel not channels[0]", tile().channel(hook("w2")), at("channel", Rule::Equals("channels[0]"))),
        (
            "channel without a webhook",
            search()
                .channel(AlertChannel::default().kind("webhook"))
                .channels([AlertChannel::default().kind("webhook")]),
            vec![
                ("channel.webhookId".to_owned(), Rule::Required),
                ("channels[0].webhookId".to_owned(), Rule::Required),
            ],
        ),
        // Notes: name 1-512, message and note 1-4096 (never "").
        ("empty name", search().name(""), at("name", Rule::CharsBetween { min: 1, max: 512 })),
        ("name of 512", search().name("é".repeat(512)), vec![]),
        ("name of 513", search().name("é".repeat(513)), at("name", Rule::CharsBetween { min: 1, max: 512 })),
        ("empty message", search().message(""), at("message", Rule::CharsBetween { min: 1, max: 4096 })),
        ("note of 4097", search().note("n".repeat(4097)), at("note", Rule::CharsBetween { min: 1, max: 4096 })),
        // Contract: numConsecutiveWindows minimum 1.
        ("zero windows", search().num_consecutive_windows(0u32), at("numConsecutiveWindows", Rule::Min(1))),
        ("one window", search().num_consecutive_windows(1u32), vec![]),
    ];
    for (name, request, expected) in cases {
        assert_eq!(violations(&request), expected, "{name}");
    }
}

#[test]
fn an_unknown_value_is_refused_unless_sent_on_purpose() {
    let typo = search().interval("2m");
    assert!(matches!(violations(&typo).as_slice(), [(p, Rule::KnownValue { .. })] if p == "interval"));
    let newer = search().interval(AlertInterval::not_yet_known("2m")).source(AlertSource::SavedSearch);
    assert_eq!(violations(&newer), vec![], "a newer interval is sent on purpose; its offset bound is the day's");
}

proptest! {
    /// scheduleOffsetMinutes is accepted exactly below both the interval and a day (notes).
    #[test]
    fn the_offset_is_below_the_interval(offset in 0u32..2000, interval in prop::sample::select(AlertInterval::KNOWN.to_vec())) {
        let minutes = interval.minutes().unwrap();
        let request = search().interval(interval).schedule_offset_minutes(offset);
        let max = (minutes - 1).min(1439);
        let expected = if offset <= max { vec![] } else { at("scheduleOffsetMinutes", Rule::Range { min: 0, max: i64::from(max) }) };
        prop_assert_eq!(violations(&request), expected);
    }

    /// thresholdMax is accepted exactly when it is at least threshold (contract).
    #[test]
    fn the_max_is_not_below_the_threshold(threshold in -1e6f64..1e6, max in -1e6f64..1e6) {
        let request = search().threshold(threshold).threshold_type(ThresholdType::Between).threshold_max(max);
        let expected = if max >= threshold { vec![] } else { at("thresholdMax", Rule::NotLessThan("threshold")) };
        prop_assert_eq!(violations(&request), expected);
    }
}

#[test]
fn an_alert_read_goes_back_with_every_field_it_holds() {
    let mut read: Alert = serde_json::from_str(
        r#"{"id":"65f5e4a3b9e77c001a123457","savedSearchId":"s1","groupBy":"ServiceName","threshold":1,
            "thresholdMax":2,"interval":"5m","scheduleOffsetMinutes":2,"source":"saved_search",
            "thresholdType":"between","channel":{"type":"webhook","webhookId":"w1","priority":"high"},
            "channels":[{"type":"webhook","webhookId":"w1","priority":"high"}],"name":"n","message":"m",
            "note":"x","numConsecutiveWindows":3,"state":"OK","teamId":"t","silenced":null,
            "executionErrors":[],"createdAt":"2026-01-01T00:00:00Z","updatedAt":"2026-01-02T00:00:00Z",
            "labels":{"tier":"gold"},"muteOnWeekends":true}"#,
    )
    .unwrap();
    // Read from JSON text, its members this crate does not know are refused in a request as
    // likely typos until vouched for: as a server's answer (proto vouches for what it decodes).
    let unvouched = AlertRequest::from(read.clone());
    assert_eq!(violations(&unvouched).len(), 4);
    pipe_api_types::Vouch::vouch(&mut read);
    let request = AlertRequest::from(read);
    assert_eq!(violations(&request), vec![]);
    let sent = serde_json::to_value(&request).unwrap();
    let expected = serde_json::json!({
        "savedSearchId": "s1", "groupBy": "ServiceName", "threshold": 1, "thresholdMax": 2, "interval": "5m",
        "scheduleOffsetMinutes": 2, "source": "saved_search", "thresholdType": "between",
        "channel": {"type": "webhook", "webhookId": "w1", "priority": "high"},
        "channels": [{"type": "webhook", "webhookId": "w1", "priority": "high"}],
        "name": "n", "message": "m", "note": "x", "numConsecutiveWindows": 3,
        "labels": {"tier": "gold"}, "muteOnWeekends": true
    });
    assert_eq!(sent, expected);
}
