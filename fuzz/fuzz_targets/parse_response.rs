//! Every response parser on arbitrary input: the first byte picks the status, the rest is the
//! body. A panic, an abort or runaway memory is a finding.
//!
//! ```sh
//! cargo install cargo-fuzz
//! cargo fuzz run parse_response            # from the repository root
//! ```

#![no_main]

use http::{Method, Response};
use libfuzzer_sys::fuzz_target;
use pipe_api_proto::{
    Alerting, EndpointExt, GetPipe, GetService, ListAlerts, ListPipes, ListReversePrivateEndpoints, Management, Raw,
};

const STATUSES: [u16; 8] = [200, 201, 400, 401, 404, 429, 500, 502];

fn response(status: u16, body: &[u8]) -> Response<Vec<u8>> {
    Response::builder().status(status).body(body.to_vec()).expect("a valid status")
}

fuzz_target!(|data: &[u8]| {
    let Some((&selector, body)) = data.split_first() else { return };
    let status = STATUSES[usize::from(selector) % STATUSES.len()];
    let org = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse().expect("a uuid");
    let service = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse().expect("a uuid");
    let pipe = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e".parse().expect("a uuid");
    let show = |error: pipe_api_proto::Error| format!("{error} {error:?}").len();
    let _ = ListPipes::new(org, service).parse_response(response(status, body)).map_err(show);
    let _ = GetPipe::new(org, service, pipe).parse_response(response(status, body)).map_err(show);
    let _ = GetService::new(org, service).parse_response(response(status, body)).map_err(show);
    let _ = ListReversePrivateEndpoints::new(org, service).parse_response(response(status, body)).map_err(show);
    let _ = ListAlerts::new().parse_response(response(status, body)).map_err(show);
    if let Ok(raw) = Raw::<Management>::new(Method::GET, "/v1/organizations") {
        let _ = raw.parse_response(response(status, body)).map_err(show);
    }
    if let Ok(raw) = Raw::<Alerting>::new(Method::GET, "/api/v2/alerts") {
        let _ = raw.parse_response(response(status, body)).map_err(show);
    }
});
