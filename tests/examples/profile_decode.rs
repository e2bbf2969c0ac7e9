//! Decodes the 10,000-pipe list in a loop, for a profiler: `perf record cargo run --release -p pipe-api-tests --example profile_decode`.
use pipe_api_proto::{EndpointExt, ListPipes};
use pipe_api_tests::ids;
use pipe_api_tests::workloads::{self, Novelty};

fn main() {
    let novelty = if std::env::args().any(|a| a == "--unknowns") { Novelty::WithUnknowns } else { Novelty::KnownOnly };
    let body = workloads::list_pipes_body(10_000, novelty);
    let (org, service, _) = ids();
    let operation = ListPipes::new(org, service);
    let rounds: usize = std::env::var("ROUNDS").ok().and_then(|r| r.parse().ok()).unwrap_or(30);
    let start = std::time::Instant::now();
    for _ in 0..rounds {
        let response = http::Response::builder().status(200).body(body.clone()).unwrap();
        let pipes = operation.parse_response(response).unwrap();
        std::hint::black_box(pipes);
    }
    println!("{:?} per decode", start.elapsed() / rounds as u32);
}
