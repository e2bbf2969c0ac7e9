//! The checks of alert bodies (`CreateAlertRequest`, `UpdateAlertRequest`).

use serde_json::{Map, Value};

use super::{Checked, Problem, fail, integer_in, object, one_of, required_text};

const ALERT_INTERVALS: &[(&str, i64)] =
    &[("1m", 1), ("5m", 5), ("15m", 15), ("30m", 30), ("1h", 60), ("6h", 360), ("12h", 720), ("1d", 1440)];
const NEWER_THRESHOLD_TYPES: &[&str] =
    &["above", "below", "above_exclusive", "below_or_equal", "equal", "not_equal", "between", "not_between"];
const OLDER_THRESHOLD_TYPES: &[&str] = &["above", "below"];

/// `POST /api/v2/alerts` and `PUT /api/v2/alerts/{id}` (`CreateAlertRequest`,
/// `UpdateAlertRequest`, and the checks the service notes list). `newer`: a newer server (any
/// threshold, every threshold type, `channels`); an older one wants `threshold >= 0`, knows
/// `above` and `below` only, and needs `channel` (it strips `channels` as unknown).
pub(crate) fn alert(body: &Value, newer: bool) -> Checked {
    let members = object(body, "body")?;
    one_of(members, "", "source", &["saved_search", "tile"], true)?;
    if members.get("source").and_then(Value::as_str) == Some("saved_search") {
        required_text(members, "", "savedSearchId")?;
    } else {
        required_text(members, "", "dashboardId")?;
        required_text(members, "", "tileId")?;
    }
    let threshold = members.get("threshold").and_then(Value::as_f64);
    match threshold {
        None => return fail("threshold", "is required and must be a number"),
        Some(value) if !newer && value < 0.0 => return fail("threshold", "must be greater than or equal to 0"),
        Some(_) => {}
    }
    let types = if newer { NEWER_THRESHOLD_TYPES } else { OLDER_THRESHOLD_TYPES };
    one_of(members, "", "thresholdType", types, true)?;
    let names: Vec<&str> = ALERT_INTERVALS.iter().map(|(name, _)| *name).collect();
    one_of(members, "", "interval", &names, true)?;
    if newer {
        let bounded = matches!(members.get("thresholdType").and_then(Value::as_str), Some("between" | "not_between"));
        match members.get("thresholdMax") {
            None | Some(Value::Null) if bounded => {
                return fail("thresholdMax", "is required for between and not_between");
            }
            None | Some(Value::Null) => {}
            Some(max) => match (max.as_f64(), threshold) {
                (Some(max), Some(min)) if max >= min => {}
                _ => return fail("thresholdMax", "must be a number greater than or equal to threshold"),
            },
        }
        let interval = members.get("interval").and_then(Value::as_str);
        let minutes = ALERT_INTERVALS.iter().find(|(name, _)| Some(*name) == interval).map_or(1440, |(_, m)| *m);
        integer_in(members, "", "scheduleOffsetMinutes", 0, 1439.min(minutes - 1))?;
        let anchored = members.get("scheduleStartAt").is_some_and(|at| !at.is_null());
        if anchored && members.get("scheduleOffsetMinutes").and_then(Value::as_i64).is_some_and(|m| m != 0) {
            return fail("scheduleOffsetMinutes", "must be 0 when scheduleStartAt is set");
        }
        integer_in(members, "", "numConsecutiveWindows", 1, i64::MAX)?;
        optional_text_of(members, "note", 4096)?;
    }
    let channel = members.get("channel").filter(|c| !c.is_null());
    let channels = if newer { members.get("channels").filter(|c| !c.is_null()) } else { None };
    if let Some(channel) = channel {
        webhook_channel(channel, "channel")?;
    }
    match (channel, channels) {
        (None, None) if newer => return fail("channel", "at least one of channel or channels is required"),
        (None, None) => return fail("channel", "is required"),
        (_, Some(channels)) => {
            let list = channels.as_array().ok_or_else(|| Problem("channels: must be an array".to_owned()))?;
            if list.is_empty() || list.len() > 10 {
                return fail("channels", "must hold 1 to 10 channels");
            }
            for (i, entry) in list.iter().enumerate() {
                webhook_channel(entry, &format!("channels[{i}]"))?;
                if list[..i].contains(entry) {
                    return fail(&format!("channels[{i}]"), "is a duplicate");
                }
            }
            if channel.is_some_and(|channel| Some(channel) != list.first()) {
                return fail("channel", "must match the first entry of channels");
            }
        }
        _ => {}
    }
    optional_text_of(members, "name", 512)?;
    optional_text_of(members, "message", 4096)?;
    Ok(())
}

/// `{type: "webhook", webhookId}`.
fn webhook_channel(channel: &Value, path: &str) -> Checked {
    let members = object(channel, path)?;
    one_of(members, &format!("{path}."), "type", &["webhook"], true)?;
    required_text(members, &format!("{path}."), "webhookId")
}

/// A member that, when present and not null, is a text of 1 to `max` characters.
fn optional_text_of(members: &Map<String, Value>, name: &str, max: usize) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(text)) if (1..=max).contains(&text.chars().count()) => Ok(()),
        Some(_) => fail(name, &format!("must be a string of 1 to {max} characters")),
    }
}
