//! What holds for every operation of proto's table, each test iterating
//! [`OPERATIONS`] or made per row from it (`row::<name>`, the harness over the fixtures and
//! snapshots): an operation added to the table is covered with no new test. (Memory is
//! measured over the table too, in `decode_memory`.)

use std::collections::HashSet;
use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::Path;

use pipe_api_proto::operations::{Interface, OPERATIONS, Operation};
use pipe_api_proto::test_util::{response, response_with};
use pipe_api_proto::{Alerting, Endpoint, EndpointExt, Error, Management, render_request};
use pipe_api_tests::every_operation::{Visit, parse, success_body, visit};
use pipe_api_tests::fixtures::{OperationFixture, Role, operation_fixtures};
use serde::de::DeserializeOwned;

/// The longest `Display` or `Debug` of any error.
const MAX_ERROR_TEXT: usize = 4096;

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
            let answers = [
                response(500, format!(r#"{{"status":500,"error":"bad credential {form}","requestId":"{form}"}}"#)),
                response(401, format!("denied for {form}")),
                response_with(503, &[("x-request-id", form.clone())], String::new()),
                response_with(
                    302,
                    &[("location", format!("https://elsewhere.example.com/?auth={form}"))],
                    String::new(),
                ),
                response_with(
                    200,
                    &[("x-request-id", form.clone())],
                    success_body(operation, &format!(r#"[["{form}"]]"#)),
                ),
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

/// One row's checks: what [`visit`] hands it is built with the body read from a request
/// fixture, or parsed against each answer fixture; what it shows is snapshotted.
struct Row<'a> {
    /// Whether this visit builds the request (what the row sends) or reads the answers.
    half: Half,
    /// The request fixture of this visit (`None` for a row without a body): its stem and JSON.
    request: Option<(&'a str, serde_json::Value)>,
    /// The answers to parse.
    answers: &'a [OperationFixture],
    /// (snapshot name, text) of each request built and each answer read.
    shown: Vec<(String, String)>,
    /// What the row lacks or gets wrong.
    gaps: Vec<String>,
}

impl Visit for Row<'_> {
    fn body<B: Default + DeserializeOwned + 'static>(&mut self, _operation: &'static str) -> B {
        let Some((stem, json)) = &self.request else { return B::default() };
        serde_json::from_value(json.clone()).unwrap_or_else(|error| {
            self.gaps.push(format!("{stem}.json does not read as its body: {error}"));
            B::default()
        })
    }

    fn management<E: Endpoint<Api = Management>>(&mut self, endpoint: E) {
        self.check(&endpoint, &pipe_api_tests::management());
    }

    fn alerting<E: Endpoint<Api = Alerting>>(&mut self, endpoint: E) {
        self.check(&endpoint, &pipe_api_tests::alerting());
    }
}

impl Row<'_> {
    /// Builds the request (with the sample ids), or reads every answer.
    fn check<E: Endpoint>(&mut self, endpoint: &E, api: &E::Api) {
        if self.half == Half::Sends {
            let stem = self.request.as_ref().map_or("request", |(stem, _)| stem);
            match endpoint.build_request(api) {
                Ok(request) => self.shown.push((stem.to_owned(), render_request(&request))),
                Err(error) => self.gaps.push(format!("{stem}: builds no request: {error}")),
            }
            return;
        }
        for answer in self.answers {
            let stem = &answer.stem;
            match answer.role {
                Some(Role::Success) => match endpoint.parse_response(api, response(200, answer.bytes.clone())) {
                    // The whole output, so that a field read wrong or dropped shows.
                    Ok(reply) => self.shown.push((stem.clone(), output_shown(&reply.request_id, &reply.value))),
                    Err(error) => self.gaps.push(format!("{stem}: does not read as a success: {error}")),
                },
                Some(Role::Error(status)) => match endpoint.parse_response(api, response(status, answer.bytes.clone()))
                {
                    Err(error) if error.as_api().is_some_and(|api| api.status().as_u16() == status) => {
                        self.shown.push((stem.clone(), error_shown(&error)));
                    }
                    other => self.gaps.push(format!("{stem}: does not read as a {status} API error: {other:?}")),
                },
                Some(Role::Request) | None => {}
            }
        }
    }
}

/// A success's request id and output, as `{:#?}` shows it less what it did not read (the
/// members left `None`, an empty `unknown: {}`: a member kept unknown shows), a value wrapped
/// in one line (`Some(\n    3,\n)`) on that line (`Some(3)`).
fn output_shown(request_id: &Option<String>, output: &impl std::fmt::Debug) -> String {
    let whole = format!("{output:#?}");
    let mut lines: Vec<String> = whole
        .lines()
        .filter(|line| !line.ends_with(": None,") && !line.ends_with("unknown: {},"))
        .map(str::to_owned)
        .collect();
    let mut shown = Vec::with_capacity(lines.len());
    while !lines.is_empty() {
        let line = lines.remove(0);
        let inner = lines.first().map(|inner| inner.trim());
        let close = lines.get(1).map(|close| close.trim());
        match (inner, close) {
            (Some(inner), Some(close @ (")" | "),")))
                if line.ends_with('(') && inner.ends_with(',') && !inner.ends_with("(,") =>
            {
                // `Some(` + `3,` + `),` make `Some(3),`; the result may wrap once more.
                let joined = format!("{line}{}){}", &inner[..inner.len() - 1], &close[1..]);
                lines.drain(..2);
                lines.insert(0, joined);
                if let Some(previous) = shown.pop() {
                    lines.insert(0, previous);
                }
            }
            _ => shown.push(line),
        }
    }
    format!("request id: {request_id:?}\n{}", shown.join("\n"))
}

/// What an API error says, each part on its line.
fn error_shown(error: &Error) -> String {
    let api = error.as_api().expect("an API error");
    format!(
        "operation: {}\nstatus: {}\nnot found: {}\ncode: {:?}\nmessage: {:?}\nraw text: {:?}\nrequest id: {:?}\nshown: {error}",
        api.operation(),
        api.status(),
        error.is_not_found(),
        api.code(),
        api.message(),
        api.raw_text(),
        api.request_id(),
    )
}

/// What the fixtures of row `operation` lack for `half`: for what it sends, a request
/// (`request*`) if the row has a body; for what it reads, a success (`ok*`), an error
/// (`<status>_*`) and a name that says what each file is.
fn fixture_gaps(operation: &Operation, fixtures: &[OperationFixture], half: Half) -> Vec<String> {
    let folder = format!("fixtures/operations/{}", operation.name);
    let has = |wanted: fn(Role) -> bool| fixtures.iter().any(|fixture| fixture.role.is_some_and(wanted));
    let mut gaps = Vec::new();
    if half == Half::Sends {
        if operation.request.is_some() && !has(|role| role == Role::Request) {
            gaps.push(format!("no request body fixture ({folder}/request*.json)"));
        }
        return gaps;
    }
    if !has(|role| role == Role::Success) {
        gaps.push(format!("no success fixture ({folder}/ok*.json)"));
    }
    if !has(|role| matches!(role, Role::Error(_))) {
        gaps.push(format!("no error fixture ({folder}/<status>_*.json)"));
    }
    for fixture in fixtures.iter().filter(|fixture| fixture.role.is_none()) {
        gaps.push(format!("{folder}/{}: named neither request*, ok* nor <status>_*", fixture.stem));
    }
    gaps
}

/// The snapshots of row `name` on disk (`snapshots/operations/<name>/*.snap`), by name.
fn snapshots_on_disk(name: &str) -> Vec<String> {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots/operations").join(name);
    let Ok(entries) = std::fs::read_dir(folder) else { return Vec::new() };
    entries
        .filter_map(|entry| entry.unwrap().file_name().to_string_lossy().strip_suffix(".snap").map(str::to_owned))
        .collect()
}

/// What a row's test checks: the requests it sends, or the answers it reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Half {
    /// Each request fixture built (the sample endpoint, for a row without a body).
    Sends,
    /// Each answer fixture read.
    Reads,
}

/// Two tests per row of the table, named after it (`every_operation::row::<name>::sends` and
/// `::reads`), each running [`matches_its_fixtures_and_snapshots`]: a new row is tested with no
/// line here.
mod row {
    macro_rules! tests_per_row {
        ($({ docs: $docs:tt, name: $name:ident, $($more:tt)* })*) => {
            $(
                mod $name {
                    use super::super::{Half, matches_its_fixtures_and_snapshots};

                    #[test]
                    fn sends() {
                        matches_its_fixtures_and_snapshots(stringify!($name), Half::Sends);
                    }

                    #[test]
                    fn reads() {
                        matches_its_fixtures_and_snapshots(stringify!($name), Half::Reads);
                    }
                }
            )*
        };
    }

    pipe_api_proto::operations!(tests_per_row);
}

/// The checks of row `name`, from its folder `fixtures/operations/<name>/`. What it sends: each
/// request fixture (`request*.json`) is the body of the endpoint built with the sample ids, and
/// the request it builds is snapshotted (the sample endpoint's, for a row without a body). What
/// it reads: each success (`ok*`) is read, its whole output snapshotted; each error
/// (`<status>_*`) reads as an API error of that status, snapshotted. A row missing a fixture or
/// a snapshot, or whose snapshot differs, fails one of its two tests, naming what it lacks; a
/// new row needs only its fixtures and, once reviewed, their snapshots
/// (`snapshots/operations/<name>/`).
fn matches_its_fixtures_and_snapshots(name: &str, half: Half) {
    let operation = pipe_api_proto::operations::operation(name).expect("a row of the table");
    let fixtures = operation_fixtures(operation.name).unwrap_or_default();
    let gaps = fixture_gaps(operation, &fixtures, half);
    let mut row = Row { half, request: None, answers: &fixtures, shown: Vec::new(), gaps };
    let requests: Vec<_> = fixtures.iter().filter(|fixture| fixture.role == Some(Role::Request)).collect();
    if half == Half::Reads || operation.request.is_none() || requests.is_empty() {
        assert!(visit(operation.name, &mut row), "{}: visit reaches every row", operation.name);
    } else {
        for fixture in requests {
            let json = serde_json::from_slice(&fixture.bytes)
                .unwrap_or_else(|error| panic!("{}/{}: {error}", operation.name, fixture.stem));
            row.request = Some((&fixture.stem, json));
            visit(operation.name, &mut row);
        }
    }
    // The snapshots of this half: a request's are named `request*`, as its fixtures are.
    let mut on_disk: Vec<String> = snapshots_on_disk(operation.name)
        .into_iter()
        .filter(|stem| (Role::of(stem) == Some(Role::Request)) == (half == Half::Sends))
        .collect();
    let mut settings = insta::Settings::clone_current();
    settings.set_snapshot_path(format!("snapshots/operations/{}", operation.name));
    settings.set_prepend_module_to_snapshot(false);
    for (stem, text) in &row.shown {
        let compare =
            || catch_unwind(AssertUnwindSafe(|| settings.bind(|| insta::assert_snapshot!(stem.as_str(), text))));
        match on_disk.iter().position(|name| name == stem) {
            Some(at) => {
                on_disk.swap_remove(at);
                if compare().is_err() {
                    row.gaps.push(format!("{stem}: differs from its snapshot (above)"));
                }
            }
            None => {
                row.gaps.push(format!("no snapshot snapshots/operations/{}/{stem}.snap", operation.name));
                // Written as `.snap.new`, to review and accept, unless INSTA_UPDATE says otherwise.
                let _ = compare();
            }
        }
    }
    for stale in on_disk {
        row.gaps.push(format!("snapshot {stale}.snap: of no fixture (remove it)"));
    }
    assert!(row.gaps.is_empty(), "{} lacks:\n{}", operation.name, row.gaps.join("\n"));
}

#[test]
fn a_fixture_is_named_for_what_it_is() {
    for (stem, role) in [
        ("request", Some(Role::Request)),
        ("request_tile", Some(Role::Request)),
        ("ok", Some(Role::Success)),
        ("ok_older_server", Some(Role::Success)),
        ("404", Some(Role::Error(404))),
        ("400_already_running", Some(Role::Error(400))),
        ("4040", None),
        ("40", None),
        ("error_404", None),
    ] {
        assert_eq!(Role::of(stem), role, "{stem}");
    }
}

#[test]
fn every_snapshot_folder_is_of_a_row() {
    let folder = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/snapshots/operations");
    for entry in std::fs::read_dir(folder).unwrap() {
        let name = entry.unwrap().file_name().to_string_lossy().into_owned();
        assert!(pipe_api_proto::operations::operation(&name).is_some(), "snapshots/operations/{name}: of no row");
    }
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

#[test]
fn a_wait_on_any_operation_names_the_state_of_a_model_that_has_one() {
    use pipe_api_tests::every_operation::wait_error_shown;

    // The models the contracts give a state, and the member holding it. Each names it beside
    // its model (`HasState`); a row answering one names nothing more, and nor does any other.
    const STATED: [(&str, &str); 5] = [
        ("Key", "state"),
        ("Service", "state"),
        ("Pipe", "state"),
        ("Alert", "state"),
        ("ReversePrivateEndpoint", "status"),
    ];
    // Waited on as sent with no body: a default body is not always a valid one.
    let mut named = HashSet::new();
    for operation in OPERATIONS.iter().filter(|operation| operation.request.is_none()) {
        let fixtures = operation_fixtures(operation.name).unwrap_or_default();
        let ok = fixtures.iter().find(|fixture| fixture.role == Some(Role::Success));
        let ok = ok.unwrap_or_else(|| panic!("{}: a success fixture", operation.name));
        // Every poll answers the row's success fixture; the condition never holds.
        let shown = wait_error_shown(operation.name, |_| response(200, ok.bytes.clone())).unwrap();
        let expected = match STATED.iter().find(|(model, _)| *model == operation.output) {
            Some((model, member)) => {
                named.insert(*model);
                let json: serde_json::Value = serde_json::from_slice(&ok.bytes).unwrap();
                let payload = json.get("result").or_else(|| json.get("data")).unwrap_or(&json);
                let state = payload[member].as_str();
                format!(
                    "; last state {}",
                    state.unwrap_or_else(|| panic!("{}/{}: a {member}", operation.name, ok.stem))
                )
            }
            None => "; the last value has no state".to_owned(),
        };
        assert!(shown.contains(&expected), "{}: expected `{expected}` in: {shown}", operation.name);
    }
    assert_eq!(named.len(), STATED.len(), "a row without a body answers each model with a state: {named:?}");
}
