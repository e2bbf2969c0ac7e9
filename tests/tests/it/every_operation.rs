//! What holds for every operation of proto's table, each test iterating
//! [`OPERATIONS`]: an operation added to the table is covered with no new test. (Memory is
//! measured over the table too, in `decode_memory`.)

use std::collections::HashSet;
use std::path::Path;

use http::Response;
use pipe_api_proto::operations::{Interface, OPERATIONS, Operation};
use pipe_api_tests::every_operation::{parse, success_body};

/// The longest `Display` or `Debug` of any error.
const MAX_ERROR_TEXT: usize = 4096;

fn response(status: u16, body: impl Into<Vec<u8>>) -> Response<Vec<u8>> {
    Response::builder().status(status).body(body.into()).unwrap()
}

#[test]
fn the_table_lists_every_operation_once() {
    // No count is written down: what the table holds is checked row by row, and a row's
    // fixtures and snapshot are asked for by the tests below.
    let names: HashSet<_> = OPERATIONS.iter().map(|operation| operation.name).collect();
    assert_eq!(names.len(), OPERATIONS.len(), "names are unique");
    let routes: HashSet<_> = OPERATIONS.iter().map(|operation| (operation.method.clone(), operation.path)).collect();
    assert_eq!(routes.len(), OPERATIONS.len(), "method and path are unique");
    for operation in OPERATIONS {
        let prefix = match operation.interface {
            Interface::Management => "/v1/organizations",
            _ => "/api/v2/",
        };
        assert!(operation.path.starts_with(prefix), "{}: {}", operation.name, operation.path);
        assert!(parse(operation.name, response(200, "")).is_some(), "{}: the tests reach it", operation.name);
        assert_eq!(pipe_api_proto::operations::operation(operation.name), Some(operation));
    }
}

#[test]
fn every_list_operation_decodes_a_thousand_small_elements() {
    // Nothing is required of a list's elements by either contract: an id, a name and a state
    // are what a server sends at the least. 100 such alerts were once refused by the decode
    // budget, as were 200 such pipes.
    let lists: Vec<_> = OPERATIONS.iter().filter(|operation| operation.is_list()).collect();
    assert!(lists.iter().any(|operation| operation.interface == Interface::Alerting), "the alert pages are a list");
    for operation in lists {
        let id = match operation.interface {
            Interface::Management => "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e",
            _ => "a1",
        };
        let element = format!(r#"{{"id":"{id}","name":"n","state":"s"}}"#);
        for count in [1, 100, 200, 1000] {
            let payload = format!("[{}]", vec![element.as_str(); count].join(","));
            let parsed = parse(operation.name, response(200, success_body(operation, &payload))).unwrap();
            match parsed {
                Ok(elements) => assert_eq!(elements, count, "{}", operation.name),
                Err(error) => panic!("{} refused {count} elements: {error}", operation.name),
            }
        }
    }
}

#[test]
fn every_operation_names_itself_in_a_bounded_error() {
    let long = "y".repeat(100_000);
    for operation in OPERATIONS {
        let answers = [
            response(500, format!(r#"{{"status":500,"error":"{long}","requestId":"{long}"}}"#)),
            response(400, format!(r#"{{"message":"{long}"}}"#)),
            response(503, long.clone()),
            // A success that does not decode: the payload is a list of numbers.
            response(200, success_body(operation, &format!("[{}]", vec!["1"; 20_000].join(",")))),
        ];
        for answer in answers {
            let status = answer.status();
            let Err(error) = parse(operation.name, answer).unwrap() else {
                assert!(status.is_success(), "{}: a {status} is an error", operation.name);
                continue;
            };
            let (display, debug) = (error.to_string(), format!("{error:?}"));
            assert!(display.contains(operation.name), "{}: {display}", operation.name);
            assert!(display.len() <= MAX_ERROR_TEXT, "{} {status}: Display of {} bytes", operation.name, display.len());
            assert!(debug.len() <= MAX_ERROR_TEXT, "{} {status}: Debug of {} bytes", operation.name, debug.len());
        }
    }
}

#[test]
fn no_operation_shows_a_credential_the_server_echoes() {
    use base64::Engine as _;
    use pipe_api_tests::every_operation::{KEY_SECRET, TOKEN};

    let basic = base64::engine::general_purpose::STANDARD.encode(format!("sample-key-id:{KEY_SECRET}"));
    for operation in OPERATIONS {
        // Every form of the credentials the operation's interface sends.
        let forms = match operation.interface {
            Interface::Management => vec![format!("Basic {basic}"), basic.clone(), KEY_SECRET.to_owned()],
            _ => vec![format!("Bearer {TOKEN}"), TOKEN.to_owned()],
        };
        for form in &forms {
            let with = |status: u16, headers: &[(&str, String)], body: String| {
                let mut builder = Response::builder().status(status);
                for (name, value) in headers {
                    builder = builder.header(*name, value);
                }
                builder.body(body.into_bytes()).unwrap()
            };
            let answers = [
                with(500, &[], format!(r#"{{"status":500,"error":"bad credential {form}","requestId":"{form}"}}"#)),
                with(401, &[], format!("denied for {form}")),
                with(503, &[("x-request-id", form.clone())], String::new()),
                with(302, &[("location", format!("https://elsewhere.example.com/?auth={form}"))], String::new()),
                with(200, &[("x-request-id", form.clone())], success_body(operation, &format!(r#"[["{form}"]]"#))),
            ];
            for answer in answers {
                let status = answer.status();
                let Err(error) = parse(operation.name, answer).unwrap() else { continue };
                let shown = format!("{error} {error:?}");
                for secret in &forms {
                    assert!(!shown.contains(secret.as_str()), "{} {status} shows {secret:?}: {shown}", operation.name);
                }
            }
        }
    }
}

/// `template` (`/v1/organizations/{organization_id}/...`) with every parameter filled in.
fn fill(template: &str, value: impl Fn(&str) -> String) -> String {
    template
        .split('/')
        .map(|segment| match segment.strip_prefix('{').and_then(|name| name.strip_suffix('}')) {
            Some(name) => value(name),
            None => segment.to_owned(),
        })
        .collect::<Vec<_>>()
        .join("/")
}

#[test]
fn the_fake_serves_every_operation() {
    use pipe_api_fake::{DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake};

    let fake = Fake::demo();
    let basic = {
        use base64::Engine as _;
        base64::engine::general_purpose::STANDARD.encode(format!("{DEMO_KEY_ID}:{DEMO_KEY_SECRET}"))
    };
    for operation in OPERATIONS {
        let path = fill(operation.path, |name| match name {
            "organization_id" => DEMO_ORGANIZATION_ID.to_string(),
            "service_id" => DEMO_SERVICE_ID.to_string(),
            "alert_id" => "no-such-alert".to_owned(),
            _ => "0b9e3c55-6d5f-4a8e-9a43-000000000000".to_owned(),
        });
        let authorization = match operation.interface {
            Interface::Management => format!("Basic {basic}"),
            _ => format!("Bearer {DEMO_ALERTS_TOKEN}"),
        };
        let body = if operation.request.is_some() { b"{}".to_vec() } else { Vec::new() };
        let request = http::Request::builder()
            .method(operation.method.clone())
            .uri(format!("http://127.0.0.1{path}"))
            .header("authorization", authorization)
            .header("content-type", "application/json")
            .body(body)
            .unwrap();
        // Whatever it makes of the ids and the empty body, the fake knows the route.
        let response = fake.handle(request);
        let text = String::from_utf8_lossy(response.body());
        assert!(
            !text.contains("NOT_MODELLED"),
            "{}: no route in the fake ({} {path}): {text}",
            operation.name,
            operation.method
        );
        assert_ne!(response.status(), 401, "{}: {text}", operation.name);
        // The demo key is an admin's: a 403 is a row the fake's permissions grant to no role.
        assert_ne!(response.status(), 403, "{}: no grant in the fake's permissions.rs: {text}", operation.name);
    }
}

/// The first line of every request snapshot: the request's method and URL.
fn snapshotted_requests(root: &Path) -> Vec<String> {
    let folders = ["crates/pipe-api-proto/tests/it/snapshots", "tests/tests/it/snapshots"];
    let mut requests = Vec::new();
    for folder in folders {
        for entry in std::fs::read_dir(root.join(folder)).unwrap() {
            let text = std::fs::read_to_string(entry.unwrap().path()).unwrap();
            // Header, then the snapshot after the second `---`.
            if let Some(first) = text.splitn(3, "---\n").nth(2).and_then(|body| body.lines().next()) {
                requests.push(first.to_owned());
            }
        }
    }
    requests
}

/// Whether one of `requests` (`METHOD URL`) is a call of `operation`: its path matches the
/// template, each parameter any one segment.
fn snapshotted(operation: &Operation, requests: &[String]) -> bool {
    let base = match operation.interface {
        Interface::Management => "https://api.example.com",
        _ => "https://alerts.example.com",
    };
    let pattern: Vec<&str> = operation.path.split('/').collect();
    requests.iter().any(|line| {
        let Some((method, url)) = line.split_once(' ') else { return false };
        let Some(path) = url.strip_prefix(base) else { return false };
        let path = path.split('?').next().unwrap_or(path);
        let segments: Vec<&str> = path.split('/').collect();
        method == operation.method.as_str()
            && segments.len() == pattern.len()
            && segments.iter().zip(&pattern).all(|(segment, want)| want.starts_with('{') || segment == want)
    })
}

/// What a row's fixtures folder lacks: a success (`ok*`), an error (`<status>_*`), and for a
/// row with a body, a request body (`request*`).
fn fixture_gaps(operation: &Operation, root: &Path) -> Vec<String> {
    let folder = format!("crates/pipe-api-proto/tests/it/fixtures/operations/{}", operation.name);
    let names: Vec<String> = std::fs::read_dir(root.join(&folder))
        .map(|entries| entries.map(|entry| entry.unwrap().file_name().to_string_lossy().into_owned()).collect())
        .unwrap_or_default();
    let has = |wanted: fn(&str) -> bool| names.iter().any(|name| wanted(name));
    let mut gaps = Vec::new();
    if !has(|name| name.starts_with("ok")) {
        gaps.push(format!("no success fixture ({}/ok*.json)", folder));
    }
    if !has(|name| name.get(..3).is_some_and(|status| status.parse::<u16>().is_ok())) {
        gaps.push(format!("no error fixture ({}/<status>_*.json)", folder));
    }
    if operation.request.is_some() && !has(|name| name.starts_with("request")) {
        gaps.push(format!("no request body fixture ({}/request*.json)", folder));
    }
    gaps
}

#[test]
fn every_row_has_its_fixtures_and_request_snapshot() {
    // What a new row of the table must bring (the steps in proto's `operations/mod.rs`), named per row; the
    // fake's own tests name a row it has no handler or grant for.
    let root = Path::new(concat!(env!("CARGO_MANIFEST_DIR"), "/.."));
    let requests = snapshotted_requests(root);
    let mut missing = Vec::new();
    for operation in OPERATIONS {
        let mut gaps = fixture_gaps(operation, root);
        if !snapshotted(operation, &requests) {
            gaps.push(format!("no request snapshot of {} {}", operation.method, operation.path));
        }
        missing.extend(gaps.into_iter().map(|gap| format!("{}: {gap}", operation.name)));
    }
    assert!(missing.is_empty(), "rows of the table lack:\n{}", missing.join("\n"));
}

#[test]
fn no_wait_on_any_operation_shows_a_credential_or_a_huge_value() {
    use base64::Engine as _;
    use pipe_api_tests::every_operation::{KEY_SECRET, TOKEN, wait_error_shown};

    let basic = base64::engine::general_purpose::STANDARD.encode(format!("sample-key-id:{KEY_SECRET}"));
    for operation in OPERATIONS {
        let forms = match operation.interface {
            Interface::Management => vec![format!("Basic {basic}"), basic.clone(), KEY_SECRET.to_owned()],
            _ => vec![format!("Bearer {TOKEN}"), TOKEN.to_owned()],
        };
        // Every poll succeeds with a value that echoes the request's Authorization in a huge name.
        let shown = wait_error_shown(operation.name, |request| {
            let echoed = request.headers()["authorization"].to_str().unwrap().to_owned();
            let name = format!("{echoed} {}", "n".repeat(100_000));
            let object = format!(r#"{{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":"{name}","state":"x"}}"#);
            let payload = if operation.is_list() { format!("[{object}]") } else { object };
            response(200, success_body(operation, &payload))
        })
        .unwrap();
        assert!(shown.len() <= 2 * MAX_ERROR_TEXT, "{}: {} bytes", operation.name, shown.len());
        for secret in &forms {
            assert!(!shown.contains(secret.as_str()), "{} shows {secret:?}: {shown}", operation.name);
        }
    }
}
