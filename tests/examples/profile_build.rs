//! Where building a create-pipe request spends its time, part by part, next to
//! `serde_json::to_vec` of the same body: the evidence behind the build ratio in BENCHMARKS.md.
use std::hint::black_box;
use std::time::{Duration, Instant};

use pipe_api_proto::{BaseUrl, CreatePipe, EndpointExt, Management, ManagementCredentials};
use pipe_api_tests::ids;
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::Validate;

fn per_call(n: u32, mut f: impl FnMut()) -> Duration {
    let start = Instant::now();
    for _ in 0..n {
        f();
    }
    start.elapsed() / n
}

fn main() {
    let api = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new("id", "secret").unwrap(),
    );
    let (org, service, _) = ids();
    let request = create_pipe_requests("bench").remove(0);
    let operation = CreatePipe::new(org, service, request.clone());
    let n = 200_000;
    for _ in 0..3 {
        let to_vec = per_call(n, || drop(black_box(serde_json::to_vec(black_box(&request)).unwrap())));
        let presized = per_call(n, || {
            let mut body = Vec::with_capacity(1024);
            serde_json::to_writer(&mut body, black_box(&request)).unwrap();
            drop(black_box(body));
        });
        let validate = per_call(n, || black_box(black_box(&request).validate()).unwrap());
        let uri = per_call(n, || {
            drop(black_box(
                format!("https://api.example.com/v1/organizations/{org}/services/{service}/pipes")
                    .parse::<http::Uri>()
                    .unwrap(),
            ))
        });
        let build = per_call(n, || drop(black_box(black_box(&operation).build_request(&api).unwrap())));
        println!(
            "to_vec {to_vec:?}; presized body {presized:?}, validate {validate:?}, uri {uri:?}; whole build {build:?} = {:.2}x to_vec",
            build.as_secs_f64() / to_vec.as_secs_f64()
        );
    }
}
