//! Every response parser (each operation of the table of operations, and the escape hatch) on
//! arbitrary input: the first byte picks the status, the rest is the
//! body. A panic, an abort or runaway memory is a finding.
//!
//! ```sh
//! cargo install cargo-fuzz
//! cargo fuzz run parse_response            # from the repository root
//! ```

#![no_main]

use http::{Method, Response};
use libfuzzer_sys::fuzz_target;
use pipe_api_proto::operations::OPERATIONS;
use pipe_api_proto::{Alerting, EndpointExt, Management, Raw};

// Every operation of the table, made from it: the workspace's test helper, compiled here as a
// module of this target. What the workspace's tests use of it and this does not is no dead code.
#[allow(dead_code)]
#[path = "../../tests/src/every_operation.rs"]
mod every_operation;

const STATUSES: [u16; 8] = [200, 201, 400, 401, 404, 429, 500, 502];

fn response(status: u16, body: &[u8]) -> Response<Vec<u8>> {
    Response::builder().status(status).body(body.to_vec()).expect("a valid status")
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    let status = STATUSES[usize::from(selector) % STATUSES.len()];
    let show = |error: pipe_api_proto::Error| format!("{error} {error:?}").len();
    // Every operation of the table (31), whatever is added to it.
    for operation in OPERATIONS {
        if let Some(parsed) = every_operation::parse(operation.name, response(status, body)) {
            let _ = parsed.map_err(show);
        }
    }
    if let Ok(raw) = Raw::<Management>::new(Method::GET, "/v1/organizations") {
        let _ = raw.parse_response(&every_operation::management(), response(status, body)).map_err(show);
    }
    if let Ok(raw) = Raw::<Alerting>::new(Method::GET, "/api/v2/alerts") {
        let _ = raw.parse_response(&every_operation::alerting(), response(status, body)).map_err(show);
    }
});
