//! Hostile input against every response parser: arbitrary bytes, arbitrary JSON built from the
//! models' own field names, and real bodies mutated byte by byte. Nothing may panic, every
//! failure is a typed error whose `Display` stays bounded, and no body can make decoding
//! allocate far beyond its size.
//!
//! 5,000 cases in all by default, so the suite stays quick; `PIPE_API_HOSTILE_FULL=1` runs the
//! full 100,000 (the README says so). `PROPTEST_CASES` does not apply.

use http::Method;
use pipe_api_proto::operations::OPERATIONS;
use pipe_api_proto::test_util::{response, response_with};
use pipe_api_proto::{Alerting, EndpointExt, Error, GetPipe, ListAlerts, ListPipes, Management, Raw};
use pipe_api_tests::every_operation;
use pipe_api_tests::workloads::{self, Novelty};
use pipe_api_tests::{PIPE, ids};
use proptest::prelude::*;
use serde_json::{Value, json};

/// A property's share of the cases: `full` with `PIPE_API_HOSTILE_FULL=1`, a twentieth otherwise.
fn cases(full: u32) -> ProptestConfig {
    let full_run = std::env::var_os("PIPE_API_HOSTILE_FULL").is_some_and(|v| v == "1");
    let cases = if full_run { full } else { full / 20 };
    ProptestConfig { cases, failure_persistence: None, ..ProptestConfig::default() }
}

/// The longest `Display` any error may have: bodies are truncated, never printed whole.
const MAX_DISPLAY: usize = 4096;

/// Runs every operation's parser (every row of the table, and the escape hatch on both
/// interfaces) on the same response; each must end in a value or a typed, printable error.
fn parse_everywhere(status: u16, headers: &[(&str, String)], body: &[u8]) {
    fn check<T>(result: Result<T, Error>) {
        if let Err(error) = result {
            let shown = error.to_string();
            assert!(shown.len() <= MAX_DISPLAY, "Display of {} bytes", shown.len());
            let _ = format!("{error:?}");
        }
    }
    let ops = operations();
    let make = || response_with(status, headers, body.to_vec());
    for operation in OPERATIONS {
        check(every_operation::parse(operation.name, make()).expect("an operation of the table"));
    }
    check(ops.raw_management.parse_response(&pipe_api_tests::management(), make()));
    check(ops.raw_alerting.parse_response(&pipe_api_tests::alerting(), make()));
}

/// The operations the tests below name, and the escape hatch, made once for all cases.
struct Operations {
    list_pipes: ListPipes,
    list_alerts: ListAlerts,
    raw_management: Raw<Management>,
    raw_alerting: Raw<Alerting>,
}

fn operations() -> &'static Operations {
    static OPERATIONS: std::sync::OnceLock<Operations> = std::sync::OnceLock::new();
    OPERATIONS.get_or_init(|| {
        let (org, service, _) = ids();
        Operations {
            list_pipes: ListPipes::new(org, service),
            list_alerts: ListAlerts::new(),
            raw_management: Raw::new(Method::GET, "/v1/organizations").unwrap(),
            raw_alerting: Raw::new(Method::GET, "/api/v2/alerts").unwrap(),
        }
    })
}

fn any_status() -> impl Strategy<Value = u16> {
    prop_oneof![
        4 => Just(200u16),
        1 => prop::sample::select(vec![201u16, 204, 301, 302, 400, 401, 403, 404, 409, 424, 429, 500, 502, 503, 504]),
        1 => 100u16..=599,
    ]
}

fn any_headers() -> impl Strategy<Value = Vec<(&'static str, String)>> {
    let name = prop::sample::select(vec![
        "retry-after",
        "x-ratelimit-reset",
        "ratelimit-reset",
        "x-total-count",
        "x-request-id",
        "location",
        "content-type",
    ]);
    let value = prop_oneof![
        "[0-9]{0,12}(\\.[0-9]{0,6})?",
        "-?[0-9e+.]{1,30}",
        Just("Wed, 21 Oct 2015 07:28:00 GMT".to_owned()),
        "[ -~]{0,40}",
    ];
    prop::collection::vec((name, value), 0..4)
}

/// JSON shaped like the services' answers: the models' field names, plausible and implausible
/// values, at any depth.
fn model_shaped_json() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        any::<u64>().prop_map(Value::from),
        any::<f64>().prop_filter("finite", |f| f.is_finite()).prop_map(Value::from),
        "\\PC{0,16}".prop_map(Value::from),
        prop::sample::select(vec![
            PIPE,
            "500m",
            "2Gi",
            "1.5",
            "-3",
            "1e400",
            "",
            "2021-01-01T00:00",
            "2026-13-45T99:99:99Z",
            "Running",
            "Hibernating",
            "kafka",
            "PLAIN",
            "webhook",
        ])
        .prop_map(Value::from),
    ];
    let key = prop::sample::select(vec![
        "id",
        "name",
        "state",
        "status",
        "requestId",
        "result",
        "data",
        "meta",
        "total",
        "error",
        "message",
        "source",
        "kafka",
        "objectStorage",
        "kinesis",
        "postgres",
        "offset",
        "timestamp",
        "scaling",
        "replicaCpuMillicores",
        "replicaMemoryGb",
        "destination",
        "columns",
        "tableDefinition",
        "fieldMappings",
        "settings",
        "createdAt",
        "expireAt",
        "key",
        "keyId",
        "keySecret",
        "roles",
        "endpoints",
        "port",
        "channel",
        "channels",
        "silenced",
        "team",
        "teamId",
        "threshold",
        "type",
    ])
    .prop_map(str::to_owned);
    leaf.prop_recursive(6, 96, 8, move |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..8).prop_map(Value::from),
            prop::collection::btree_map(key.clone(), inner, 0..8).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Real bodies of every shape, to mutate (made once).
fn seeds() -> &'static [Vec<u8>] {
    static SEEDS: std::sync::OnceLock<Vec<Vec<u8>>> = std::sync::OnceLock::new();
    SEEDS.get_or_init(|| vec![
        workloads::get_pipe_body(Novelty::WithUnknowns),
        workloads::list_pipes_body(2, Novelty::WithUnknowns),
        workloads::get_service_body(),
        workloads::list_alerts_body(2),
        serde_json::to_vec(&json!({"status": 200, "requestId": "r", "result": {"key": {"id": PIPE, "roles": ["admin"], "expireAt": ""}, "keyId": "K", "keySecret": "S"}})).unwrap(),
        serde_json::to_vec(&json!({"status": 404, "requestId": "r", "error": "NOT_FOUND: x"})).unwrap(),
    ])
}

#[derive(Clone, Debug)]
enum Mutation {
    Set(usize, u8),
    Insert(usize, u8),
    Remove(usize),
    Truncate(usize),
    Repeat(usize, usize),
}

fn mutations() -> impl Strategy<Value = Vec<Mutation>> {
    let byte = prop_oneof![prop::sample::select(b"{}[]\",:0-9.eE+-tfn\\ \x00\xff\xc3".to_vec()), any::<u8>(),];
    let one = prop_oneof![
        (any::<usize>(), byte.clone()).prop_map(|(at, b)| Mutation::Set(at, b)),
        (any::<usize>(), byte).prop_map(|(at, b)| Mutation::Insert(at, b)),
        any::<usize>().prop_map(Mutation::Remove),
        any::<usize>().prop_map(Mutation::Truncate),
        (any::<usize>(), 1usize..64).prop_map(|(at, len)| Mutation::Repeat(at, len)),
    ];
    prop::collection::vec(one, 1..6)
}

fn mutate(mut body: Vec<u8>, mutations: &[Mutation]) -> Vec<u8> {
    for mutation in mutations {
        let len = body.len().max(1);
        match *mutation {
            Mutation::Set(at, b) if !body.is_empty() => body[at % len] = b,
            Mutation::Insert(at, b) => body.insert(at % (body.len() + 1), b),
            Mutation::Remove(at) if !body.is_empty() => {
                body.remove(at % len);
            }
            Mutation::Truncate(at) => body.truncate(at % len),
            Mutation::Repeat(at, span) if !body.is_empty() => {
                let start = at % len;
                let end = (start + span).min(body.len());
                let copy = body[start..end].to_vec();
                body.splice(end..end, copy);
            }
            _ => {}
        }
    }
    body
}

proptest! {
    #![proptest_config(cases(20_000))]

    #[test]
    fn arbitrary_bytes_never_panic(status in any_status(), headers in any_headers(), body in prop::collection::vec(any::<u8>(), 0..256)) {
        parse_everywhere(status, &headers, &body);
    }
}

proptest! {
    #![proptest_config(cases(20_000))]

    #[test]
    fn model_shaped_json_never_panics(status in any_status(), value in model_shaped_json(), enveloped in any::<bool>()) {
        let value = if enveloped { json!({"status": status, "requestId": "r-1", "result": value}) } else { value };
        parse_everywhere(status, &[], &serde_json::to_vec(&value).unwrap());
    }
}

proptest! {
    #![proptest_config(cases(60_000))]

    #[test]
    fn mutated_real_bodies_never_panic(seed in 0usize..6, status in any_status(), mutations in mutations()) {
        let body = mutate(seeds()[seed].clone(), &mutations);
        parse_everywhere(status, &[], &body);
    }
}

/// A list of minimal elements would decode into about 70 times its size; decoding stops at the
/// budget with a typed error instead of allocating it.
#[test]
fn minimal_elements_cannot_multiply_memory() {
    let mut body = br#"{"data":["#.to_vec();
    for i in 0..200_000 {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(br#"{"id":""}"#);
    }
    body.extend_from_slice(b"]}");
    let error = ListAlerts::new().parse_response(&pipe_api_tests::alerting(), response(200, body)).unwrap_err();
    let Error::Decode(decode) = &error else { panic!("expected a decode error, got {error:?}") };
    assert!(decode.message().contains("times its size"), "{decode}");

    // The same for pipes, with the smallest pipe there is.
    let mut body = br#"{"status":200,"result":["#.to_vec();
    for i in 0..20_000 {
        if i > 0 {
            body.push(b',');
        }
        body.extend_from_slice(format!(r#"{{"id":"{PIPE}"}}"#).as_bytes());
    }
    body.extend_from_slice(b"]}");
    let list = ListPipes::new(ids().0, ids().1);
    assert!(matches!(list.parse_response(&pipe_api_tests::management(), response(200, body)), Err(Error::Decode(_))));
}

/// Real answers stay far inside the budget.
#[test]
fn realistic_lists_decode_within_the_budget() {
    let body = workloads::list_pipes_body(2_000, Novelty::WithUnknowns);
    let list = ListPipes::new(ids().0, ids().1);
    assert_eq!(list.parse_response(&pipe_api_tests::management(), response(200, body)).unwrap().value.len(), 2_000);
    let alerts = ListAlerts::new()
        .parse_response(&pipe_api_tests::alerting(), response(200, workloads::list_alerts_body(1_000)))
        .unwrap();
    assert_eq!(alerts.value.alerts.len(), 1_000);
}

/// 100,000 levels of nesting: a decode error, not a stack overflow.
#[test]
fn deep_nesting_is_an_error() {
    let depth = 100_000;
    let mut body = br#"{"status":200,"result":"#.to_vec();
    body.extend(std::iter::repeat_n(b'[', depth));
    body.extend(std::iter::repeat_n(b']', depth));
    body.push(b'}');
    parse_everywhere(200, &[], &body);
    let list = ListPipes::new(ids().0, ids().1);
    assert!(matches!(list.parse_response(&pipe_api_tests::management(), response(200, body)), Err(Error::Decode(_))));
}

/// Checks that `error`'s `Display` and `Debug` are at most [`MAX_DISPLAY`] bytes each.
fn assert_small(error: &Error, what: &str) {
    let (shown, debugged) = (error.to_string(), format!("{error:?}"));
    assert!(shown.len() <= MAX_DISPLAY, "{what}: Display of {} bytes", shown.len());
    assert!(debugged.len() <= MAX_DISPLAY, "{what}: Debug of {} bytes", debugged.len());
}

/// Every error stays small whatever the body, header or status: 15 MiB of one string, of
/// invalid UTF-8, in `message`, `error` or `requestId`, in `X-Request-Id` or in `Location`.
#[test]
fn every_error_stays_small_whatever_the_body() {
    let size = 15 * 1024 * 1024;
    let long = "x".repeat(size);
    let headers_of = |name: &'static str| vec![(name, long.clone())];
    /// What the case is, the statuses it is answered with, its headers and its body.
    type Case<'a> = (&'a str, Vec<u16>, Vec<(&'a str, String)>, Vec<u8>);
    let cases: Vec<Case<'_>> = vec![
        ("one long string", vec![200, 500], vec![], long.clone().into_bytes()),
        ("invalid UTF-8", vec![200, 500], vec![], vec![0xff; size]),
        ("a JSON string", vec![200, 500], vec![], format!("\"{long}\"").into_bytes()),
        ("a long message", vec![500], vec![], format!(r#"{{"message":"{long}"}}"#).into_bytes()),
        ("a long error", vec![500], vec![], format!(r#"{{"error":"CODE: {long}"}}"#).into_bytes()),
        ("a long code", vec![500], vec![], format!(r#"{{"code":"{long}"}}"#).into_bytes()),
        ("a long requestId", vec![200, 500], vec![], format!(r#"{{"requestId":"{long}","result":1}}"#).into_bytes()),
        ("a long x-request-id", vec![500], headers_of("x-request-id"), Vec::new()),
        ("a long location", vec![302], headers_of("location"), Vec::new()),
    ];
    let ops = operations();
    for (what, statuses, headers, body) in cases {
        for status in statuses {
            let make = || response_with(status, &headers, body.clone());
            assert_small(&ops.list_pipes.parse_response(&pipe_api_tests::management(), make()).unwrap_err(), what);
            assert_small(&ops.list_alerts.parse_response(&pipe_api_tests::alerting(), make()).unwrap_err(), what);
        }
    }
}

/// A secret sent where another type is expected: serde's message quotes the value it could
/// not read, and the decode error must not. (A field given a value of the wrong type keeps it
/// and reads on; what still fails is a list element of the wrong type, or a bad own `id`.)
#[test]
fn a_decode_error_never_quotes_a_secret() {
    let (org, service, pipe) = ids();
    let get = GetPipe::new(org, service, pipe);
    let bodies = [r#"{"status":200,"result":{"id":"not-a-uuid","accessKey":"hunter2-secret"}}"#.to_owned()];
    // Credentials that are not an object are kept, and a kept value is never shown either.
    for credentials in [r#""hunter2-secret""#, r#"["hunter2-secret"]"#] {
        let body = format!(
            r#"{{"status":200,"result":{{"id":"{PIPE}","source":{{"kafka":{{"credentials":{credentials}}}}}}}}}"#
        );
        let read = get.parse_response(&pipe_api_tests::management(), response(200, body.into_bytes())).unwrap();
        assert!(!format!("{read:?}").contains("hunter2-secret"), "a secret in {read:?}");
    }
    for body in bodies {
        let error =
            get.parse_response(&pipe_api_tests::management(), response(200, body.clone().into_bytes())).unwrap_err();
        let Error::Decode(decode) = &error else { panic!("expected a decode error for {body}, got {error:?}") };
        for shown in [error.to_string(), format!("{error:?}"), decode.message().to_owned()] {
            assert!(!shown.contains("hunter2-secret"), "a secret in {shown}");
        }
    }
    // A long value that fails the read (an object's own id) gives a short message.
    let long = "y".repeat(10_000);
    let body = format!(r#"{{"status":200,"result":{{"id":"{long}"}}}}"#);
    let error = get.parse_response(&pipe_api_tests::management(), response(200, body.into_bytes())).unwrap_err();
    let Error::Decode(decode) = &error else { panic!("{error:?}") };
    assert!(decode.message().len() <= 512, "{}", decode.message());
    assert!(decode.message().contains("UUID"), "says what failed: {}", decode.message());
}

/// A base URL with user info is refused without ever showing it, and so is a redirect's.
#[test]
fn a_password_in_a_url_is_never_shown() {
    for url in ["https://id:SECRET@api.example.com", "https://id:SE/CR?ET@api.example.com/x", "ftp://id:SECRET@h"] {
        let error = pipe_api_proto::BaseUrl::parse(url).unwrap_err();
        for shown in [error.to_string(), format!("{error:?}"), error.url().to_owned()] {
            assert!(!shown.contains("SECRET") && !shown.contains("SE/CR"), "{shown}");
        }
        let config = pipe_api_ureq::Client::management(url, "k", "s").unwrap_err();
        assert!(!format!("{config} {config:?}").contains("SECRET"), "{config:?}");
    }
    let location = vec![("location", "https://user:SECRET@elsewhere.example.com/path".to_owned())];
    let error = operations()
        .list_pipes
        .parse_response(&pipe_api_tests::management(), response_with(302, &location, Vec::new()))
        .unwrap_err();
    let shown = format!("{error} {error:?}");
    assert!(!shown.contains("SECRET") && shown.contains("elsewhere.example.com"), "{shown}");
}
