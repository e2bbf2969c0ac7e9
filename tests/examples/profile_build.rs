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

/// `ONLY_<PART>=1`: loops over one part alone, for a profiler or valgrind, and prints its time
/// per call; whether it did. The loops are long by default; `CALLS=n` shortens them.
fn only(part: &str, default_calls: u32, f: impl FnMut()) -> bool {
    let chosen = std::env::var_os(format!("ONLY_{part}")).is_some();
    if chosen {
        let calls = std::env::var("CALLS").ok().and_then(|c| c.parse().ok()).unwrap_or(default_calls);
        println!("{:?}", per_call(calls, f));
    }
    chosen
}

fn main() {
    let api = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new("id", "secret").unwrap(),
    );
    let (org, service, _) = ids();
    // `KIND=0..3`: kafka (the default), object storage, kinesis, postgres.
    let kind = std::env::var("KIND").ok().and_then(|k| k.parse().ok()).unwrap_or(0);
    let request = create_pipe_requests("bench").remove(kind);
    let operation = CreatePipe::new(org, service, request.clone());
    let n = 200_000;
    // `USED_HEAP=1`: first leave the allocator holding freed blocks of many sizes, as a
    // program that has run a while (and the benchmark's build section) does.
    let _kept = if std::env::var_os("USED_HEAP").is_some() { pipe_api_tests::heap::used_heap() } else { Vec::new() };
    let isolated = only("VALIDATE", 20_000_000, || black_box(black_box(&request).validate()).unwrap())
        || only("BODY", 10_000_000, || {
            drop(black_box(pipe_api_types::write::to_json_vec(black_box(&request)).unwrap()))
        })
        || only("TO_VEC", 10_000_000, || drop(black_box(serde_json::to_vec(black_box(&request)).unwrap())))
        || only("BUILD", 5_000_000, || drop(black_box(black_box(&operation).build_request(&api).unwrap())));
    if isolated {
        return;
    }
    for _ in 0..3 {
        let to_vec = per_call(n, || drop(black_box(serde_json::to_vec(black_box(&request)).unwrap())));
        let presized = per_call(n, || {
            let mut body = Vec::with_capacity(1024);
            serde_json::to_writer(&mut body, black_box(&request)).unwrap();
            drop(black_box(body));
        });
        let validate = per_call(n, || black_box(black_box(&request).validate()).unwrap());
        let direct = per_call(n, || drop(black_box(pipe_api_types::write::to_json_vec(black_box(&request)).unwrap())));
        let body = per_call(n, || drop(black_box(pipe_api_proto::Endpoint::body(black_box(&operation)).unwrap())));
        let path = per_call(n, || drop(black_box(pipe_api_proto::Endpoint::path(black_box(&operation)))));
        let path_string = pipe_api_proto::Endpoint::path(&operation);
        let (scheme, authority) = (http::uri::Scheme::HTTPS, http::uri::Authority::from_static("api.example.com"));
        let parts_uri_with = |authority: &http::uri::Authority| {
            per_call(n, || {
                let mut parts = http::uri::Parts::default();
                parts.scheme = Some(scheme.clone());
                parts.authority = Some(authority.clone());
                parts.path_and_query = Some(http::uri::PathAndQuery::try_from(black_box(path_string.clone())).unwrap());
                drop(black_box(http::Uri::from_parts(parts).unwrap()))
            })
        };
        let parts_uri = parts_uri_with(&authority);
        // A parsed authority (as `BaseUrl` holds) is shared by reference count: each clone and
        // drop is an atomic operation, where a static one is not.
        let parsed_authority: http::uri::Authority = "api.example.com".parse().unwrap();
        let parts_uri_parsed = parts_uri_with(&parsed_authority);
        let auth = http::HeaderValue::from_str("Basic aWQ6c2VjcmV0").unwrap();
        // The four headers of a request with a body, inserted one by one.
        let headers = |authorization: &http::HeaderValue| {
            let mut headers = http::HeaderMap::with_capacity(4);
            headers.insert(http::header::AUTHORIZATION, authorization.clone());
            headers.insert(http::header::ACCEPT, http::HeaderValue::from_static("application/json"));
            headers.insert(http::header::USER_AGENT, http::HeaderValue::from_static("x/1"));
            headers.insert(http::header::CONTENT_TYPE, http::HeaderValue::from_static("application/json"));
            headers
        };
        let assemble = per_call(n, || {
            let mut request = http::Request::new(Vec::<u8>::new());
            *request.method_mut() = http::Method::POST;
            *request.headers_mut() = headers(&auth);
            drop(black_box(request))
        });
        let cloned_from = |template: &http::HeaderMap| {
            per_call(n, || {
                let mut request = http::Request::new(Vec::<u8>::new());
                *request.method_mut() = http::Method::POST;
                *request.headers_mut() = black_box(template).clone();
                drop(black_box(request))
            })
        };
        // The same two ways for the `Authorization` value: a runtime one is shared.
        let cloned = cloned_from(&headers(&auth));
        let cloned_static = cloned_from(&headers(&http::HeaderValue::from_static("Basic aWQ6c2VjcmV0")));
        println!(
            "parts uri {parts_uri:?} (incl. path clone; {parts_uri_parsed:?} with a parsed authority), request + 4 headers {assemble:?}, cloned template {cloned:?} ({cloned_static:?} with a static Authorization)"
        );
        let uri = per_call(n, || {
            drop(black_box(
                format!("https://api.example.com/v1/organizations/{org}/services/{service}/pipes")
                    .parse::<http::Uri>()
                    .unwrap(),
            ))
        });
        let build = per_call(n, || drop(black_box(black_box(&operation).build_request(&api).unwrap())));
        println!(
            "to_vec {to_vec:?}; presized body {presized:?}, direct body {direct:?}, validate {validate:?}, Endpoint::body {body:?}, path {path:?}, uri {uri:?}; whole build {build:?} = {:.2}x to_vec",
            build.as_secs_f64() / to_vec.as_secs_f64()
        );
    }
}
