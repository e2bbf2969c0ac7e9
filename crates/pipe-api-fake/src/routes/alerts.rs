//! `GET /api/v2/alerts`, as newer servers (paged, with `meta`) or older ones (everything) answer.

use http::{HeaderValue, Method, Request};
use pipe_api_types::{Alert, PaginationMeta};
use serde::Serialize;

use crate::reply::{self, Answer};
use crate::state::{AlertingVersion, State};

/// The newer servers' bounds and default of `limit`.
const MAX_LIMIT: u64 = 1000;

/// `/api/v2/...`: `segments` is the path after `/api/v2/`, split at `/`.
pub(super) fn route(state: &mut State, request: &Request<Vec<u8>>, segments: &[&str]) -> Option<Answer> {
    Some(match (request.method(), segments) {
        (&Method::GET, ["alerts"]) => list(state, request.uri().query()),
        _ => return None,
    })
}

fn list(state: &mut State, query: Option<&str>) -> Answer {
    #[derive(Serialize)]
    struct Page<'a> {
        data: &'a [Alert],
        #[serde(skip_serializing_if = "Option::is_none")]
        meta: Option<PaginationMeta>,
    }

    if state.alerting_version == AlertingVersion::Older {
        return reply::json(200, &Page { data: &state.alerts, meta: None });
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
    let meta = PaginationMeta::default().total(total).limit(limit).offset(offset);
    let mut answer = reply::json(200, &Page { data: &state.alerts[start..end], meta: Some(meta) });
    answer.headers_mut().insert("x-total-count", HeaderValue::from(total));
    answer
}
