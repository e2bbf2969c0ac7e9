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
use pipe_api_proto::test_util::every_operation as operations;
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
    let outcome = operations::parse(operation, response).unwrap_or_else(|| panic!("unknown operation {operation}"));
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
