//! `Pages` against a virtual alerting server: every alert is visited exactly once whatever the
//! total and the limit, and an older server (no `meta`, no `X-Total-Count`) is asked once.

use crate::common;

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
            response_with(200, &[("x-total-count", total.to_string().as_str())], &body)
        }
        _ => response(200, &body),
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
