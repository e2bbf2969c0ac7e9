//! `/api/v2/alerts`: list, create, get, update (`PUT`, a full replace) and delete, as newer
//! servers (paged lists, `teamId`/`dashboardId`/`savedSearchId`, `channels`, delete answers
//! `{}`, errors `{"message"}`) or older ones (everything at once, `team`/`dashboard`/
//! `savedSearch`, `channel` only, delete answers `OK`, 404 in plain text) answer.
//!
//! Alerts are kept as JSON records under the newer servers' names and shown in the names of
//! the generation the fake plays; answers are built from those records, never from the client's
//! models.

use http::HeaderValue;
use pipe_api_proto::operations::Operation;
use pipe_api_proto::{CreateAlert, DeleteAlert, GetAlert, ListAlerts, UpdateAlert};
use pipe_api_types::Alert;
use serde_json::{Map, Value, json};
use time::format_description::well_known::Rfc3339;

use super::AlertingHandler;
use crate::reply::{self, Answer};
use crate::state::{AlertingVersion, State};

/// The newer servers' bounds and default of `limit`.
const MAX_LIMIT: u64 = 1000;

/// The team every alert the fake creates belongs to (the token's team).
const TEAM_ID: &str = "65f1a2b3c4d5e6f708190100";

/// The references older servers name differently: (newer, older).
const RENAMED: [(&str, &str); 3] = [("teamId", "team"), ("dashboardId", "dashboard"), ("savedSearchId", "savedSearch")];

/// What a create or update body may set, on every server (the older servers' `CreateAlert`).
const OLDER_FIELDS: &[&str] = &[
    "source",
    "savedSearchId",
    "dashboardId",
    "tileId",
    "threshold",
    "thresholdType",
    "interval",
    "channel",
    "name",
    "message",
];

/// What newer servers also take (the alerting contract's `Alert`).
const NEWER_FIELDS: &[&str] = &[
    "groupBy",
    "thresholdMax",
    "scheduleOffsetMinutes",
    "scheduleStartAt",
    "channels",
    "note",
    "numConsecutiveWindows",
];

/// What newer servers send but never take, beside [`NEWER_FIELDS`]: older servers send neither.
const NEWER_OUTPUT_ONLY: &[&str] = &["silenced", "executionErrors"];

/// What a `PUT` that leaves it out sets to `null` (the service notes); `scheduleStartAt` is kept
/// instead, and the rest is removed.
const NULLED_BY_PUT: &[&str] = &["name", "message", "note", "numConsecutiveWindows"];

/// What the server itself keeps through a `PUT`.
const SERVER_FIELDS: &[&str] = &["id", "teamId", "state", "silenced", "executionErrors", "createdAt"];

/// The rows answered here.
pub(super) const HANDLERS: &[(&Operation, AlertingHandler)] = &[
    (ListAlerts::OPERATION, |state, request, _| list(state, request.uri().query())),
    (CreateAlert::OPERATION, |state, request, _| create(state, request.body())),
    (GetAlert::OPERATION, |state, _, path| match position(state, path.text("alert_id")) {
        Some(i) => data(state, &state.alerts[i]),
        None => not_found(state),
    }),
    (UpdateAlert::OPERATION, |state, request, path| update(state, path.text("alert_id"), request.body())),
    (DeleteAlert::OPERATION, |state, _, path| delete(state, path.text("alert_id"))),
];

/// A seeded alert as the server keeps it: the older servers' names become the newer ones.
pub(crate) fn alert_record(alert: &Alert) -> Map<String, Value> {
    let Ok(Value::Object(mut record)) = serde_json::to_value(alert) else {
        unreachable!("a model serializes to an object")
    };
    for (newer, older) in RENAMED {
        if let Some(value) = record.remove(older) {
            record.entry(newer).or_insert(value);
        }
    }
    record
}

/// A record as the generation the fake plays shows it.
fn shown(state: &State, record: &Map<String, Value>) -> Map<String, Value> {
    let mut shown = record.clone();
    if state.alerting_version == AlertingVersion::Older {
        for (newer, older) in RENAMED {
            if let Some(value) = shown.remove(newer) {
                shown.insert(older.to_owned(), value);
            }
        }
        shown.retain(|name, _| !NEWER_FIELDS.contains(&name.as_str()) && !NEWER_OUTPUT_ONLY.contains(&name.as_str()));
    }
    shown
}

/// `{"data": <alert>}`.
fn data(state: &State, record: &Map<String, Value>) -> Answer {
    reply::json(200, &json!({ "data": shown(state, record) }))
}

fn position(state: &State, id: &str) -> Option<usize> {
    state.alerts.iter().position(|record| record.get("id").and_then(Value::as_str) == Some(id))
}

/// Newer servers answer `{"message"}`, older ones plain text.
fn not_found(state: &State) -> Answer {
    match state.alerting_version {
        AlertingVersion::Older => reply::with_body(404, "text/plain", b"Not Found".to_vec()),
        _ => reply::alerting_error(404, "Alert not found"),
    }
}

fn list(state: &mut State, query: Option<&str>) -> Answer {
    let page = |state: &State, records: &[Map<String, Value>]| -> Vec<Map<String, Value>> {
        records.iter().map(|record| shown(state, record)).collect()
    };
    if state.alerting_version == AlertingVersion::Older {
        return reply::json(200, &json!({ "data": page(state, &state.alerts) }));
    }
    let (mut limit, mut offset) = (MAX_LIMIT, 0);
    for (name, value) in query.unwrap_or("").split('&').filter_map(|pair| pair.split_once('=')) {
        match (name, value.parse::<u64>()) {
            ("limit", Ok(n)) if (1..=MAX_LIMIT).contains(&n) => limit = n,
            ("limit", _) => return reply::alerting_error(400, "limit must be an integer between 1 and 1000"),
            ("offset", Ok(n)) => offset = n,
            ("offset", _) => return reply::alerting_error(400, "offset must be a non-negative integer"),
            _ => {}
        }
    }
    let total = state.alerts.len() as u64;
    let start = offset.min(total) as usize;
    let end = (offset.saturating_add(limit)).min(total) as usize;
    let meta = json!({ "total": total, "limit": limit, "offset": offset });
    let mut answer = reply::json(200, &json!({ "data": page(state, &state.alerts[start..end]), "meta": meta }));
    answer.headers_mut().insert("x-total-count", HeaderValue::from(total));
    answer
}

/// The body of a create or update, checked as the generation the fake plays checks it; or the
/// message of its `400`.
fn checked_body(state: &State, body: &[u8]) -> Result<Map<String, Value>, String> {
    let newer = state.alerting_version != AlertingVersion::Older;
    let Ok(Value::Object(body)) = serde_json::from_slice::<Value>(body) else {
        return Err("the body must be a JSON object".to_owned());
    };
    let as_value = Value::Object(body);
    crate::checks::alerts::alert(&as_value, newer).map_err(|problem| problem.0)?;
    let Value::Object(body) = as_value else { unreachable!("checked as an object") };
    if newer {
        // The notes: at most 1 year ahead and 10 years back.
        if let Some(at) = body.get("scheduleStartAt").filter(|at| !at.is_null()) {
            let at = at.as_str().and_then(|text| time::OffsetDateTime::parse(text, &Rfc3339).ok());
            let (earliest, latest) = (state.now - time::Duration::days(3653), state.now + time::Duration::days(366));
            if !at.is_some_and(|at| (earliest..=latest).contains(&at)) {
                return Err("scheduleStartAt: must be a date-time at most 1 year ahead and 10 years back".to_owned());
            }
        }
    }
    Ok(body)
}

/// Copies from `body` what the server takes (the rest is stripped, as the server strips
/// unknown keys), and mirrors `channel` and `channels` as newer servers do.
fn take_request_fields(state: &State, record: &mut Map<String, Value>, body: &Map<String, Value>) {
    let newer = state.alerting_version != AlertingVersion::Older;
    let known = OLDER_FIELDS
        .iter()
        .chain(if newer { NEWER_FIELDS } else { &[] })
        .map(|name| (*name).to_owned())
        .chain(state.alert_fields_beyond_contract.iter().cloned());
    for name in known {
        if let Some(value) = body.get(&name) {
            record.insert(name, value.clone());
        }
    }
    if newer {
        match (record.get("channel").filter(|c| !c.is_null()).cloned(), record.get("channels").cloned()) {
            // Only the legacy `channel`: it becomes the one channel.
            (Some(channel), None) => {
                record.insert("channels".to_owned(), json!([channel]));
            }
            (None, Some(channels)) => {
                record.insert("channel".to_owned(), channels[0].clone());
            }
            _ => {}
        }
    }
}

fn timestamp(state: &State) -> Value {
    json!(state.now.format(&Rfc3339).unwrap_or_default())
}

fn create(state: &mut State, body: &[u8]) -> Answer {
    let body = match checked_body(state, body) {
        Ok(body) => body,
        Err(message) => return reply::alerting_error(400, &message),
    };
    let mut record = Map::new();
    record.insert("id".to_owned(), json!(state.sequence.text(24, b"0123456789abcdef")));
    take_request_fields(state, &mut record, &body);
    record.insert("teamId".to_owned(), json!(TEAM_ID));
    record.insert("state".to_owned(), json!("OK"));
    record.insert("createdAt".to_owned(), timestamp(state));
    record.insert("updatedAt".to_owned(), timestamp(state));
    state.alerts.push(record);
    data(state, state.alerts.last().expect("just pushed"))
}

fn update(state: &mut State, id: &str, body: &[u8]) -> Answer {
    let Some(i) = position(state, id) else { return not_found(state) };
    let body = match checked_body(state, body) {
        Ok(body) => body,
        Err(message) => return reply::alerting_error(400, &message),
    };
    let old = &state.alerts[i];
    // A full replace: only what the server itself keeps survives from the stored alert.
    let mut record: Map<String, Value> = old
        .iter()
        .filter(|(name, _)| SERVER_FIELDS.contains(&name.as_str()))
        .map(|(n, v)| (n.clone(), v.clone()))
        .collect();
    take_request_fields(state, &mut record, &body);
    for name in NULLED_BY_PUT {
        record.entry(*name).or_insert(Value::Null);
    }
    if !body.contains_key("scheduleStartAt") {
        if let Some(kept) = old.get("scheduleStartAt") {
            record.insert("scheduleStartAt".to_owned(), kept.clone());
        }
    }
    record.insert("updatedAt".to_owned(), timestamp(state));
    state.alerts[i] = record;
    data(state, &state.alerts[i])
}

fn delete(state: &mut State, id: &str) -> Answer {
    let Some(i) = position(state, id) else { return not_found(state) };
    state.alerts.remove(i);
    match state.alerting_version {
        AlertingVersion::Older => reply::with_body(200, "text/plain", b"OK".to_vec()),
        _ => reply::json(200, &json!({})),
    }
}
