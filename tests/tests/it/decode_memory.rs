//! Memory that decoding and error handling cost, measured as the peak resident size of a child
//! process (this test binary run again for one case): a body the size cap admits, decoded to
//! success or to failure, and its error shown and debugged, stays within a few times the body.
//! The child reads the body from a file and holds nothing else, so no memory freed earlier can
//! hide the peak, and no allocator hook (unsafe code) is needed. Linux only
//! (`/proc/self/status`, `/proc/self/clear_refs`).

use std::process::Command;
use std::sync::atomic::{AtomicUsize, Ordering};

use http::Response;
use pipe_api_proto::Error;
use pipe_api_proto::operations::{Interface, OPERATIONS};
use pipe_api_tests::every_operation as operations;
use pipe_api_tests::workloads::{self, Novelty};

/// Names the case (`<operation> <status>`) when this process is the measuring child.
const CHILD: &str = "PIPE_API_MEMORY_CHILD";
/// Names the file holding the body, for the child.
const BODY_FILE: &str = "PIPE_API_MEMORY_BODY";

/// The longest `Display` or `Debug` of any error.
const MAX_ERROR_TEXT: usize = 4096;

/// About 16 MiB (the default body cap) of `element` repeated between `open` and `close`.
fn repeated(open: &str, element: &str, close: &str) -> Vec<u8> {
    let count = (16 * 1024 * 1024 - open.len() - close.len()) / (element.len() + 1);
    let mut body = open.as_bytes().to_vec();
    body.extend_from_slice(vec![element; count].join(",").as_bytes());
    body.extend_from_slice(close.as_bytes());
    body
}

fn status_kib(field: &str) -> usize {
    let status = std::fs::read_to_string("/proc/self/status").unwrap();
    let line = status.lines().find(|line| line.starts_with(field)).unwrap();
    line[field.len()..].trim().trim_end_matches("kB").trim().parse().unwrap()
}

/// The measuring child's entry point; in the parent run it only checks that it is not one.
#[test]
fn child() {
    let Ok(case) = std::env::var(CHILD) else { return };
    let (operation, status) = case.split_once(' ').unwrap();
    let body = std::fs::read(std::env::var(BODY_FILE).unwrap()).unwrap();
    let response = Response::builder().status(status.parse::<u16>().unwrap()).body(body).unwrap();
    // From here on the peak counts only what parsing and formatting add (Linux 4.0+: "5"
    // resets VmHWM).
    std::fs::write("/proc/self/clear_refs", "5").unwrap();
    let (before, code_before) = (status_kib("VmRSS:"), status_kib("RssFile:"));
    let outcome = match entry_point(operation) {
        Some(entry) => entry.parse(response),
        None => operations::parse(operation, response).unwrap_or_else(|| panic!("unknown operation {operation}")),
    };
    let report = match &outcome {
        Ok(count) => format!("OK {count}"),
        Err(error) => {
            let (display, debug) = (error.to_string().len(), format!("{error:?}").len());
            assert!(display <= MAX_ERROR_TEXT && debug <= MAX_ERROR_TEXT, "Display {display}, Debug {debug} bytes");
            format!("ERR {}", if matches!(error, Error::Decode(_)) { "decode" } else { "api" })
        }
    };
    // The resident size counts this binary's code too, paged in as the parse first runs it (in a
    // binary of all the end-to-end tests, megabytes). Code stays resident once paged in, so its
    // growth by the end bounds what it added at the peak: taken off, what is left is the memory
    // the parse itself took.
    let (peak, code_paged_in) = (status_kib("VmHWM:"), status_kib("RssFile:").saturating_sub(code_before));
    println!("MEMORY_REPORT {} {report}", peak.saturating_sub(before).saturating_sub(code_paged_in) * 1024);
}

/// Runs `operation` on a `status` answer with `body` in a child process; returns the peak bytes
/// it added and what came of it (`OK <count>`, `ERR decode`, `ERR api`).
fn measure(operation: &str, status: u16, body: &[u8]) -> (usize, String) {
    // Tests run side by side: each measurement has a file of its own.
    static MEASUREMENTS: AtomicUsize = AtomicUsize::new(0);
    let n = MEASUREMENTS.fetch_add(1, Ordering::Relaxed);
    let file = std::env::temp_dir().join(format!("pipe-api-memory-{}-{n}.json", std::process::id()));
    std::fs::write(&file, body).unwrap();
    // The child test's name in this binary, as `--exact` wants it (`decode_memory::child`).
    let child = format!("{}::child", module_path!().split_once("::").map_or(module_path!(), |(_, module)| module));
    let output = Command::new(std::env::current_exe().unwrap())
        .args(["--exact", &child, "--nocapture", "--test-threads=1"])
        .env(CHILD, format!("{operation} {status}"))
        .env(BODY_FILE, &file)
        .output()
        .unwrap();
    std::fs::remove_file(&file).unwrap();
    let stdout = String::from_utf8_lossy(&output.stdout);
    assert!(output.status.success(), "child failed: {stdout}{}", String::from_utf8_lossy(&output.stderr));
    let (_, report) = stdout.split_once("MEMORY_REPORT ").unwrap_or_else(|| panic!("no report: {stdout}"));
    let (peak, outcome) = report.lines().next().unwrap().split_once(' ').unwrap();
    (peak.parse().unwrap(), outcome.to_owned())
}

/// What any parse may add whatever the body's size: the allocator's first arenas, a page or
/// two of the process's own.
const FIXED_ALLOWANCE: usize = 2 * 1024 * 1024;

/// Asserts that `operation` on the body adds at most `factor` times the body, plus
/// [`FIXED_ALLOWANCE`], at its peak.
fn assert_peak(operation: &str, status: u16, body: &[u8], factor: f64, expected: &str) {
    let (peak, outcome) = measure(operation, status, body);
    assert!(outcome.starts_with(expected), "{operation} {status}: {outcome}");
    let ratio = peak as f64 / body.len() as f64;
    let bound = factor * body.len() as f64 + FIXED_ALLOWANCE as f64;
    assert!(
        peak as f64 <= bound,
        "{operation} {status}: peak {peak} bytes for a {}-byte body ({ratio:.2}x)",
        body.len()
    );
}

#[test]
fn minimal_elements_stop_at_the_decode_budget() {
    // Decoded without a bound, `[{"id":""},...]` would become about 70 times its size in alerts.
    // Measured here: 3.1x, the decode stopping at its budget.
    assert_peak("list_alerts", 200, &repeated(r#"{"data":["#, r#"{"id":""}"#, "]}"), 4.0, "ERR decode");
    assert_peak("list_pipes", 200, &repeated(r#"{"status":200,"result":"#, r#"{"a":""}"#, "}"), 4.0, "ERR decode");
}

#[test]
fn a_real_list_decodes_within_four_times_its_size() {
    // Measured here: 3.3x (owned strings, unknown fields kept, the list's growth).
    let body = workloads::list_pipes_body(2_000, Novelty::WithUnknowns);
    assert_peak("list_pipes", 200, &body, 4.0, "OK 2000");
}

#[test]
fn hostile_error_bodies_cost_a_few_times_their_size() {
    // As `serde_json::Value`, each of these would be about seventy times its size.
    let bodies = [
        repeated("[", r#"{"a":""}"#, "]"),
        repeated(r#"{"status":500,"extra":["#, r#"{"a":""}"#, "]}"),
        repeated(r#"{"status":500,"message":{"nested":["#, r#"{"a":""}"#, "]}}"),
    ];
    for body in &bodies {
        for operation in ["list_pipes", "list_alerts"] {
            assert_peak(operation, 500, body, 1.0, "ERR api");
        }
    }
}

#[test]
fn long_texts_in_an_error_body_cost_a_few_times_their_size() {
    let long = "x".repeat(16 * 1024 * 1024);
    // Escapes make serde_json unescape into a buffer of its own.
    let escaped = "\\n".repeat(8 * 1024 * 1024);
    let bodies = [
        format!(r#"{{"message":"{long}","requestId":"{long}"}}"#).into_bytes(),
        format!(r#"{{"error":"{escaped}"}}"#).into_bytes(),
        long.clone().into_bytes(),
    ];
    for body in &bodies {
        for operation in ["list_pipes", "list_alerts"] {
            assert_peak(operation, 500, body, 2.0, "ERR api");
        }
    }
}

#[test]
fn every_operation_stays_within_four_times_a_hostile_body() {
    // For every operation of the table, on success and on error: a request id of 4 MiB, and a
    // payload of 12 MiB of minimal elements, which no operation's output is made of but a
    // list's (the others fail to decode and read the request id again, alone); on success also
    // a 12 MiB text and nesting far deeper than the parser goes.
    let request_id = "r".repeat(4 * 1024 * 1024);
    let element = r#"{"id":""}"#;
    let elements = format!("[{}]", vec![element; 12 * 1024 * 1024 / (element.len() + 1)].join(","));
    for operation in OPERATIONS {
        let success = match operation.interface {
            Interface::Management => format!(r#"{{"status":200,"requestId":"{request_id}","result":{elements}}}"#),
            _ => format!(r#"{{"data":{elements},"requestId":"{request_id}"}}"#),
        };
        assert_peak(operation.name, 200, success.as_bytes(), 4.0, "");
        // A huge string where a model's text goes, and nesting as deep as the parser allows.
        let text = format!(r#"{{"id":"x","name":"{}"}}"#, "n".repeat(12 * 1024 * 1024));
        let deep = format!("{}{}", "[".repeat(100_000), "]".repeat(100_000));
        for payload in [text, deep] {
            let body = match operation.interface {
                Interface::Management => format!(r#"{{"status":200,"result":{payload}}}"#),
                _ => format!(r#"{{"data":{payload}}}"#),
            };
            assert_peak(operation.name, 200, body.as_bytes(), 4.0, "");
        }
        let failure = format!(r#"{{"status":500,"requestId":"{request_id}","error":{elements}}}"#);
        assert_peak(operation.name, 500, failure.as_bytes(), 4.0, "ERR api");
    }
}

/// Every way a 2xx body is decoded besides an operation of the table (whose typed outputs the
/// tests above measure): each reads a JSON value, through the same budget.
#[derive(Clone, Copy, Debug)]
enum EntryPoint {
    /// `Raw` on the management interface: the envelope's `result` as a value (also how any
    /// listing not of the table is read, such as a plan's after a lost create).
    RawManagement,
    /// `Raw` on the alerting interface: the body itself as a value.
    RawAlerting,
    /// A wait's idle wake-up: the answer to `PATCH .../state`, read as a value.
    WaitWakeUp,
    /// Pipes as code's reader of a saved-plan file, the payload where its `notes` go.
    SavedPlanFile,
    /// Pipes as code's reader of a desired-state file, the payload as its `pipes`.
    DesiredStateFile,
    /// A list of pipes decoded as the client does, then exported as a desired state.
    Export,
}

/// Pipes as code's readers of what a user passes around and what it exports: each reads
/// within the budget of an answer (`OK 1` read, `OK 0` refused with a short error).
const PLAN_READERS: [EntryPoint; 3] = [EntryPoint::SavedPlanFile, EntryPoint::DesiredStateFile, EntryPoint::Export];

const ENTRY_POINTS: [EntryPoint; 3] = [EntryPoint::RawManagement, EntryPoint::RawAlerting, EntryPoint::WaitWakeUp];

/// The entry point a child's case names, if it names one.
fn entry_point(name: &str) -> Option<EntryPoint> {
    ENTRY_POINTS.into_iter().chain(PLAN_READERS).find(|entry| entry.name() == name)
}

impl EntryPoint {
    fn name(self) -> &'static str {
        match self {
            EntryPoint::RawManagement => "raw_management",
            EntryPoint::RawAlerting => "raw_alerting",
            EntryPoint::WaitWakeUp => "wait_wake_up",
            EntryPoint::SavedPlanFile => "saved_plan_file",
            EntryPoint::DesiredStateFile => "desired_state_file",
            EntryPoint::Export => "export",
        }
    }

    /// The body's payload as this entry point's answer carries it.
    fn body(self, payload: &str) -> String {
        match self {
            EntryPoint::RawManagement | EntryPoint::WaitWakeUp | EntryPoint::Export => {
                format!(r#"{{"status":200,"result":{payload}}}"#)
            }
            EntryPoint::RawAlerting => payload.to_owned(),
            EntryPoint::SavedPlanFile => {
                let (org, service, _) = pipe_api_tests::ids();
                format!(
                    r#"{{"savedPlan":1,"organizationId":"{org}","serviceId":"{service}","options":{{"allowReplacement":false,"prune":false,"pruneAlerts":false}},"steps":[],"seen":[],"notes":{payload}}}"#
                )
            }
            EntryPoint::DesiredStateFile => format!(r#"{{"pipes":{payload}}}"#),
        }
    }

    /// Decodes `response` as this entry point does: `OK 1` or the error.
    fn parse(self, response: Response<Vec<u8>>) -> Result<usize, Error> {
        use pipe_api_proto::EndpointExt as _;
        use pipe_api_proto::{Alerting, Management, Raw};
        use pipe_api_tests::every_operation::{alerting, management};

        let (org, service, pipe) = pipe_api_tests::ids();
        let path = format!("/v1/organizations/{org}/services/{service}/pipes");
        match self {
            EntryPoint::RawManagement => {
                Raw::<Management>::new(http::Method::GET, path)?.parse_response(&management(), response).map(|_| 1)
            }
            EntryPoint::RawAlerting => Raw::<Alerting>::new(http::Method::GET, "/api/v2/alerts")?
                .parse_response(&alerting(), response)
                .map(|_| 1),
            EntryPoint::WaitWakeUp => {
                use pipe_api_proto::call::{Machine as _, Next};
                use pipe_api_proto::wait::{Wait, WaitError, WaitPolicy, pipe_settled};
                use std::time::Duration;

                // The poll answers that the service is idle; the wake-up gets the body.
                let get = pipe_api_proto::GetPipe::new(org, service, pipe);
                let api = management();
                let policy = WaitPolicy::default().with_idle_recovery(org, service);
                let retry = pipe_api_proto::retry::RetryPolicy::disabled();
                let mut wait = Wait::new(&get, &api, pipe_settled, policy, retry, 1, Duration::ZERO);
                let mut wake_up = Some(response);
                let idle = r#"{"status":424,"error":"FAILED_DEPENDENCY: Current state: idle"}"#;
                let mut now = Duration::ZERO;
                loop {
                    match wait.next(now, None) {
                        Next::Send { request, .. } => {
                            let answer = match request.method() {
                                &http::Method::PATCH => wake_up.take().expect("one wake-up"),
                                _ => Response::builder().status(424).body(idle.as_bytes().to_vec()).unwrap(),
                            };
                            wait.receive(Ok(answer), now, time::OffsetDateTime::UNIX_EPOCH, None);
                        }
                        Next::Wait { until } => now = until,
                        Next::Done(Ok(_)) => panic!("the pipe never settles"),
                        Next::Done(Err(WaitError::Call { error, .. })) if wake_up.is_none() => {
                            // The wake-up's own failure, or the second idle answer after a
                            // wake-up that read: either way the body was decoded.
                            return match error {
                                Error::Decode(_) => Err(error),
                                _ => Ok(1),
                            };
                        }
                        Next::Done(Err(other)) => panic!("the wait ended before waking: {other}"),
                    }
                }
            }
            EntryPoint::SavedPlanFile | EntryPoint::DesiredStateFile => {
                let text = String::from_utf8(response.into_body()).unwrap();
                let refused = match self {
                    EntryPoint::SavedPlanFile => pipe_api_plan::SavedPlan::from_json(&text).err().map(|e| shown(&e)),
                    _ => pipe_api_plan::DesiredState::from_json(&text, |_| None).err().map(|e| shown(&e)),
                };
                Ok(usize::from(refused.is_none()))
            }
            EntryPoint::Export => {
                let pipes = pipe_api_proto::ListPipes::new(org, service).parse_response(&management(), response)?;
                let current = pipe_api_plan::Current::new(Vec::new(), pipes.value, None);
                let options = pipe_api_plan::ExportOptions::default().leave_out_unreadable(true);
                match pipe_api_plan::export(&current, &options) {
                    Ok(exported) => Ok(usize::from(!exported.to_json()["pipes"].as_array().unwrap().is_empty())),
                    Err(error) => {
                        shown(&error);
                        Ok(0)
                    }
                }
            }
        }
    }
}

/// Checks that an error of pipes as code shows at most a few KiB, `{}` and `{:?}` alike.
fn shown(error: &(impl std::fmt::Display + std::fmt::Debug)) {
    let (display, debug) = (error.to_string().len(), format!("{error:?}").len());
    assert!(display <= MAX_ERROR_TEXT && debug <= MAX_ERROR_TEXT, "Display {display}, Debug {debug} bytes");
}

#[test]
fn every_pipes_as_code_reader_stays_within_four_times_a_hostile_file() {
    // Before the files were read by the answers' budgeted reader, 16 MiB of `{"a":""}` where a
    // saved plan's notes go took 1,386 MiB, and 16 MiB of `0,` 789 MiB.
    let payloads = [
        repeated("[", r#"{"a":""}"#, "]"),
        repeated("[", "0", "]"),
        repeated("[", "[]", "]"),
        repeated("[", r#""""#, "]"),
    ];
    // The export reads an answer, whose decode is measured above with every operation's.
    for entry in [EntryPoint::SavedPlanFile, EntryPoint::DesiredStateFile] {
        for payload in &payloads {
            let body = entry.body(&String::from_utf8_lossy(payload));
            assert_peak(entry.name(), 200, body.as_bytes(), 4.0, "OK 0");
        }
    }
}

#[test]
fn exporting_a_pipe_with_a_huge_name_costs_a_few_times_its_answer() {
    // A 15 MiB name: the export took 427 MiB (its JSON round trips copied the name many times).
    let name = "n".repeat(15 * 1024 * 1024);
    let pipe = format!(
        r#"[{{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","serviceId":"4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002","name":"{name}","state":"Running",
        "source":{{"kafka":{{"type":"kafka","format":"JSONEachRow","brokers":"b:9092","topics":"t","authentication":"PLAIN"}}}},
        "destination":{{"database":"default","table":"t","managedTable":true,"columns":[{{"name":"id","type":"UInt64"}}]}}}}]"#
    );
    let body = EntryPoint::Export.body(&pipe);
    assert_peak(EntryPoint::Export.name(), 200, body.as_bytes(), 6.0, "OK");
}

#[test]
fn every_decode_entry_point_stays_within_four_times_a_hostile_body() {
    // As a JSON value, unbudgeted, 16 MiB of `{"a":""}` took 75 times the body (1,189 MiB).
    // The value's every node is charged to the one budget, as a model's is.
    let payloads = [
        repeated("[", r#"{"a":""}"#, "]"),
        repeated("[", r#"{"a":[]}"#, "]"),
        repeated("[", r#""""#, "]"),
        repeated("[", "0", "]"),
        repeated("[", "[]", "]"),
        repeated("{", r#""a":{}"#, "}"),
    ];
    for entry in ENTRY_POINTS {
        for payload in &payloads {
            let payload = String::from_utf8_lossy(payload);
            let body = entry.body(&payload);
            assert_peak(entry.name(), 200, body.as_bytes(), 4.0, "");
        }
    }
    // And a real list still decodes as a value through each (a value costs ten to twenty-five
    // times its JSON, so a value of more than about a megabyte of JSON is refused: see
    // proto's reliability table).
    for entry in ENTRY_POINTS {
        let element = r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":"orders","state":"Running"}"#;
        let body = entry.body(&format!("[{}]", vec![element; 1000].join(",")));
        assert_peak(entry.name(), 200, body.as_bytes(), 40.0, "OK 1");
    }
}
