//! The CPU cost of one GET pipe in proto alone (build, parse, drop), without any network, next to
//! `serde_json::from_slice` of the same body: what the client adds to a round trip.
use std::hint::black_box;
use std::time::Instant;

use pipe_api_proto::{BaseUrl, EndpointExt, GetPipe, Management, ManagementCredentials};
use pipe_api_tests::ids;
use pipe_api_tests::workloads::{self, Novelty};
use pipe_api_types::Pipe;

#[derive(serde::Deserialize)]
struct Envelope {
    result: Pipe,
}

fn main() {
    let body = workloads::get_pipe_body(Novelty::WithUnknowns);
    let api = Management::new(
        BaseUrl::parse("http://127.0.0.1:1").unwrap(),
        ManagementCredentials::new("id", "secret").unwrap(),
    );
    let (org, service, pipe) = ids();
    let operation = GetPipe::new(org, service, pipe);
    let n = 20_000;
    for _ in 0..3 {
        let start = Instant::now();
        for _ in 0..n {
            black_box(operation.build_request(&api).unwrap());
        }
        let build = start.elapsed() / n;
        let responses: Vec<_> =
            (0..n).map(|_| http::Response::builder().status(200).body(body.clone()).unwrap()).collect();
        let start = Instant::now();
        for response in responses {
            black_box(operation.parse_response(response).unwrap());
        }
        let parse = start.elapsed() / n;
        let start = Instant::now();
        for _ in 0..n {
            black_box(serde_json::from_slice::<Envelope>(&body).unwrap().result);
        }
        let bare = start.elapsed() / n;
        println!("build {build:?}, parse {parse:?}, bare from_slice {bare:?}");
    }
}
