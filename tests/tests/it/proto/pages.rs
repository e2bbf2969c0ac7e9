//! `Pages` against a virtual alerting server: every alert is visited exactly once whatever the
//! total and the limit, and an older server (no `meta`, no `X-Total-Count`) is asked once.

use crate::proto::common;

use std::time::Duration;

use common::{alerting, response, response_with};
use pipe_api_proto::call::{Machine, Next};
use pipe_api_proto::pages::Pages;
use pipe_api_proto::retry::RetryPolicy;
use proptest::prelude::*;
use time::OffsetDateTime;

/// How the virtual server tells the total.
#[derive(Clone, Copy, Debug)]
enum Server {
    /// `meta` with the total, and `X-Total-Count`.
    MetaAndHeader,
    /// Only `X-Total-Count`.
    HeaderOnly,
    /// `meta` without a total.
    MetaWithoutTotal,
    /// Ignores `limit` and `offset`: every alert, nothing else.
    Older,
}

fn alert(n: u64) -> serde_json::Value {
    // A realistic size: the decoder refuses bodies that would grow past its memory bound.
    serde_json::json!({"id": format!("alert-{n}"), "name": format!("a{n}"), "message": "m".repeat(400)})
}

fn answer(server: Server, total: u64, request: &http::Request<Vec<u8>>) -> http::Response<Vec<u8>> {
    let query: Vec<(String, String)> = request
        .uri()
        .query()
        .unwrap_or("")
        .split('&')
        .filter_map(|pair| pair.split_once('=').map(|(k, v)| (k.to_owned(), v.to_owned())))
        .collect();
    let get = |name: &str| query.iter().find(|(k, _)| k == name).map(|(_, v)| v.parse::<u64>().unwrap());
    let (limit, offset) = (get("limit").unwrap(), get("offset").unwrap_or(0));
    let (from, to) = match server {
        Server::Older => (0, total),
        _ => (offset.min(total), (offset + limit).min(total)),
    };
    let data: Vec<_> = (from..to).map(alert).collect();
    let body = match server {
        Server::MetaAndHeader => {
            serde_json::json!({"data": data, "meta": {"total": total, "limit": limit, "offset": offset}})
        }
        Server::MetaWithoutTotal => serde_json::json!({"data": data, "meta": {"limit": limit, "offset": offset}}),
        Server::HeaderOnly | Server::Older => serde_json::json!({"data": data}),
    };
    let body = serde_json::to_vec(&body).unwrap();
    match server {
        Server::MetaAndHeader | Server::HeaderOnly => {
            response_with(200, &[("x-total-count", total.to_string().as_str())], body.clone())
        }
        _ => response(200, body.clone()),
    }
}

/// Every page's alert ids, and the number of requests, driving the pager on a virtual clock.
fn drive(server: Server, total: u64, limit: u32) -> (Vec<Vec<String>>, usize) {
    let api = alerting();
    let mut pages = Pages::new(&api, limit, RetryPolicy::default(), 5);
    let mut now = Duration::ZERO;
    let (mut seen, mut requests) = (Vec::new(), 0);
    for _ in 0..100_000 {
        match pages.next(now, None) {
            Next::Send { request, .. } => {
                requests += 1;
                let response = answer(server, total, &request);
                now += Duration::from_millis(10);
                pages.receive(Ok(response), now, OffsetDateTime::UNIX_EPOCH, None);
            }
            Next::Wait { until } => now = until,
            Next::Done(Some(page)) => {
                seen.push(page.unwrap().alerts.iter().map(|a| a.id.to_string()).collect());
            }
            Next::Done(None) => return (seen, requests),
        }
    }
    panic!("the pager did not end");
}

fn any_server() -> impl Strategy<Value = Server> {
    prop_oneof![Just(Server::MetaAndHeader), Just(Server::HeaderOnly), Just(Server::MetaWithoutTotal)]
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 256, ..ProptestConfig::default() })]

    /// Every alert once, in order, and no request past the last page: with a total, exactly
    /// ceil(total / limit) requests (one for none); without, at most one more (the short page).
    #[test]
    fn every_alert_is_visited_exactly_once(server in any_server(), total in 0u64..700, limit in 1u32..120) {
        let (pages, requests) = drive(server, total, limit);
        let ids: Vec<String> = pages.iter().flatten().cloned().collect();
        let expected: Vec<String> = (0..total).map(|n| format!("alert-{n}")).collect();
        prop_assert_eq!(ids, expected);
        prop_assert_eq!(pages.len(), requests);
        let full_pages = total.div_ceil(u64::from(limit)).max(1) as usize;
        match server {
            Server::MetaWithoutTotal => {
                let expected = (total / u64::from(limit)) as usize + 1;
                prop_assert_eq!(requests, expected);
            }
            _ => prop_assert_eq!(requests, full_pages),
        }
        for page in &pages[..pages.len() - 1] {
            prop_assert_eq!(page.len(), limit as usize);
        }
    }

    /// An older server returns everything whatever the limit: one request, one page.
    #[test]
    fn an_older_server_is_asked_once(total in 0u64..700, limit in 1u32..120) {
        let (pages, requests) = drive(Server::Older, total, limit);
        prop_assert_eq!(requests, 1);
        prop_assert_eq!(pages.len(), 1);
        prop_assert_eq!(pages[0].len() as u64, total);
    }
}

#[test]
fn an_invalid_limit_is_the_one_result_and_nothing_is_sent() {
    let api = alerting();
    let mut pages = Pages::new(&api, 0, RetryPolicy::default(), 5);
    match pages.next(Duration::ZERO, None) {
        Next::Done(Some(Err(error))) => assert!(matches!(error, pipe_api_proto::Error::Build(_)), "{error}"),
        other => panic!("{other:?}"),
    }
    assert!(matches!(pages.next(Duration::ZERO, None), Next::Done(None)));
}

#[test]
fn a_failed_page_ends_the_listing_at_its_offset() {
    let api = alerting();
    let mut pages = Pages::new(&api, 2, RetryPolicy::disabled(), 5);
    let mut now = Duration::ZERO;
    let mut results = Vec::new();
    let mut sent = 0;
    loop {
        match pages.next(now, None) {
            Next::Send { request, .. } => {
                sent += 1;
                let response =
                    if sent == 2 { response(500, b"oops") } else { answer(Server::MetaAndHeader, 10, &request) };
                pages.receive(Ok(response), now, OffsetDateTime::UNIX_EPOCH, None);
            }
            Next::Wait { until } => now = until,
            Next::Done(Some(page)) => results.push(page.is_ok()),
            Next::Done(None) => break,
        }
    }
    assert_eq!(results, [true, false]);
    assert_eq!(pages.offset(), 2);
}

/// Drives a listing against `answer` (given the offset asked); the pages' sizes and why it
/// ended. Never more than 100,000 steps: a pager that does not end fails here.
fn drive_hostile(
    limit: u32,
    max_pages: Option<u64>,
    answer: impl Fn(u64) -> http::Response<Vec<u8>>,
) -> (Vec<usize>, pipe_api_proto::pages::End) {
    let api = alerting();
    let mut pages = Pages::new(&api, limit, RetryPolicy::default(), 5);
    if let Some(max) = max_pages {
        pages = pages.max_pages(max);
    }
    let mut now = Duration::ZERO;
    let mut sizes = Vec::new();
    for _ in 0..100_000 {
        match pages.next(now, None) {
            Next::Send { request, .. } => {
                let offset = request
                    .uri()
                    .query()
                    .and_then(|query| query.split('&').find_map(|pair| pair.strip_prefix("offset=")))
                    .map_or(0, |offset| offset.parse().unwrap());
                now += Duration::from_millis(10);
                pages.receive(Ok(answer(offset)), now, OffsetDateTime::UNIX_EPOCH, None);
            }
            Next::Wait { until } => now = until,
            Next::Done(Some(page)) => sizes.push(page.map_or(0, |page| page.alerts.len())),
            Next::Done(None) => return (sizes, pages.end().cloned().expect("an ended listing says why")),
        }
    }
    panic!("the pager did not end");
}

/// A page of `count` alerts starting at `from`, with `meta` as given.
fn page(from: u64, count: u64, meta: serde_json::Value, total_header: Option<&str>) -> http::Response<Vec<u8>> {
    let data: Vec<_> = (from..from + count).map(alert).collect();
    let mut body = serde_json::json!({ "data": data });
    if !meta.is_null() {
        body["meta"] = meta;
    }
    let body = serde_json::to_vec(&body).unwrap();
    match total_header {
        Some(total) => response_with(200, &[("x-total-count", total)], body.clone()),
        None => response(200, body.clone()),
    }
}

#[test]
fn a_pager_always_ends_and_says_why() {
    use pipe_api_proto::pages::End;
    let meta =
        |offset: u64, total: serde_json::Value| serde_json::json!({"total": total, "limit": 10, "offset": offset});

    // A server that ignores `offset` but says so in `meta.offset`: the second page.
    let (sizes, end) = drive_hostile(10, None, |_| page(0, 10, meta(0, 1000.into()), None));
    assert_eq!((sizes.len(), end), (2, End::NoProgress { offset: 10 }));
    // The same page forever, with a total that says there is more and no `meta.offset`.
    let (sizes, end) = drive_hostile(10, None, |_| page(0, 10, serde_json::json!({"total": 1000}), None));
    assert_eq!((sizes.len(), end), (2, End::NoProgress { offset: 10 }));
    // A total bigger than what comes: the first short page ends it.
    let (sizes, end) = drive_hostile(10, None, |offset| {
        page(offset, if offset < 30 { 10 } else { 3 }, meta(offset, 500.into()), None)
    });
    assert_eq!((sizes, end), (vec![10, 10, 10, 3], End::ShortPage));
    // A total smaller than what comes: it ends at the total.
    let (sizes, end) = drive_hostile(10, None, |offset| page(offset, 10, meta(offset, 20.into()), None));
    assert_eq!((sizes, end), (vec![10, 10], End::TotalReached { total: 20 }));
    // Totals that are no count (negative, fractional, text): full pages go on to the page limit.
    for total in [serde_json::json!(-5), serde_json::json!(2.5), serde_json::json!("many")] {
        let (sizes, end) = drive_hostile(10, Some(7), |offset| page(offset, 10, meta(offset, total.clone()), None));
        assert_eq!((sizes.len(), end), (7, End::PageLimit { pages: 7 }), "total {total}");
    }
    // An empty page with a total above 0.
    let (sizes, end) = drive_hostile(10, None, |offset| page(offset, 0, meta(offset, 50.into()), None));
    assert_eq!((sizes, end), (vec![0], End::EmptyPage));
    // No `meta` and an unreadable `X-Total-Count`: one page, and it says why.
    let (sizes, end) = drive_hostile(10, None, |offset| page(offset, 10, serde_json::Value::Null, Some("lots")));
    assert_eq!((sizes, end), (vec![10], End::NoPaging));
    assert!(End::NoPaging.to_string().contains("no total"), "{}", End::NoPaging);
    // An endless stream of new full pages stops at the default page limit.
    let (sizes, end) = drive_hostile(1, None, |offset| page(offset, 1, meta(offset, u64::MAX.into()), None));
    assert_eq!(end, End::PageLimit { pages: pipe_api_proto::pages::DEFAULT_MAX_PAGES });
    assert_eq!(sizes.len() as u64, pipe_api_proto::pages::DEFAULT_MAX_PAGES);
}
