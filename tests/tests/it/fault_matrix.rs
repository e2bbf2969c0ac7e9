//! The fault matrix over real sockets on 127.0.0.1: for each fault, the exact outcome (success
//! after N attempts, or which error with which fields), how many requests the server saw, and
//! that the call ended within its deadline. Servers are scripted byte by byte (`RawServer`), so
//! the faults include what no correct HTTP server produces.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::{Duration, Instant};

use pipe_api_proto::{Error, TransportErrorKind};
use pipe_api_tests::requests::{create_key_request, create_pipe_requests};
use pipe_api_tests::{Connection, FAST_RETRY_DEADLINE, PIPE, RawServer, closed_port, fast_retries, http_response, ids};
use pipe_api_ureq::Client;

/// Each exchange may take this long.
const TIMEOUT: Duration = Duration::from_millis(400);
/// The retry policy's overall deadline.
const DEADLINE: Duration = FAST_RETRY_DEADLINE;
/// How far past its deadline a call may end before the test calls it a hang: the last exchange
/// may start just before the deadline, and the machine may be slow. Only an upper bound.
const SLACK: Duration = Duration::from_secs(3);

fn client_for(base_url: &str) -> Client {
    Client::builder()
        .management(base_url, "key-id", "key-secret")
        .timeout(TIMEOUT)
        .connect_timeout(TIMEOUT)
        .body_limit(512 * 1024)
        .retry_policy(fast_retries())
        .build()
        .unwrap()
}

/// What the server does with the n-th request (counted over all connections).
#[derive(Clone)]
enum Step {
    /// A complete response.
    Respond(Vec<u8>),
    /// Closes with a reset before reading the request: nothing reached the handler.
    ResetUnread,
    /// Reads the request, then resets the connection (SO_LINGER 0).
    ResetAfterRequest,
    /// Reads the request, writes these bytes, then resets.
    WriteThenReset(Vec<u8>),
    /// Reads the request, writes these bytes, then closes in order.
    WriteThenClose(Vec<u8>),
    /// Reads the request and never answers.
    Silent,
    /// Reads the request and sends a response one byte at a time, slowly.
    Trickle(Vec<u8>),
}

/// A server that plays `steps` in order, one per request; past the end it repeats the last.
fn scripted(steps: Vec<Step>) -> RawServer {
    let next = Arc::new(AtomicUsize::new(0));
    let steps = Arc::new(steps);
    RawServer::start(move |mut connection: Connection| {
        loop {
            // Peek at the step without reading when the step is to reset unread.
            let index = next.load(Ordering::SeqCst).min(steps.len() - 1);
            if let Step::ResetUnread = steps[index] {
                next.fetch_add(1, Ordering::SeqCst);
                // Let the request arrive, so the close is a reset (unread data).
                std::thread::sleep(Duration::from_millis(20));
                reset(connection);
                return;
            }
            if connection.read_request().is_none() {
                return;
            }
            let index = next.fetch_add(1, Ordering::SeqCst).min(steps.len() - 1);
            match &steps[index] {
                Step::Respond(bytes) => connection.write(bytes),
                Step::ResetUnread => unreachable!("handled above"),
                Step::ResetAfterRequest => return reset(connection),
                Step::WriteThenReset(bytes) => {
                    connection.write(bytes);
                    return reset(connection);
                }
                Step::WriteThenClose(bytes) => {
                    connection.write(bytes);
                    return connection.close();
                }
                Step::Silent => {
                    // Until the client gives up and closes.
                    let _ = std::io::Read::read(connection.stream(), &mut [0u8; 1]);
                    return;
                }
                Step::Trickle(bytes) => {
                    for byte in bytes {
                        if std::io::Write::write_all(connection.stream(), &[*byte]).is_err() {
                            return;
                        }
                        std::thread::sleep(Duration::from_millis(150));
                    }
                    return;
                }
            }
        }
    })
}

/// Ends a connection with a TCP reset.
fn reset(mut connection: Connection) {
    let _ = socket2::SockRef::from(&*connection.stream()).set_linger(Some(Duration::ZERO));
    connection.abort();
}

fn ok(body: &str) -> Step {
    Step::Respond(http_response("200 OK", &[("content-type", "application/json")], body.as_bytes()))
}

fn status(line: &str, headers: &[(&str, &str)], body: &[u8]) -> Step {
    Step::Respond(http_response(line, headers, body))
}

const PIPES_OK: &str =
    r#"{"status":200,"requestId":"r-ok","result":[{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","state":"Running"}]}"#;

/// Runs `call` and checks that it ended within the deadline.
fn timed<T>(call: impl FnOnce() -> T) -> T {
    let started = Instant::now();
    let result = call();
    let took = started.elapsed();
    assert!(took < DEADLINE + SLACK, "the call took {took:?}, past its deadline");
    result
}

fn list(server: &RawServer) -> Result<Vec<pipe_api_types::Pipe>, Error> {
    let (org, service, _) = ids();
    timed(|| client_for(&server.base_url()).list_pipes(org, service))
}

fn transport_kind(error: &Error) -> TransportErrorKind {
    match error {
        Error::Transport(failure) => failure.error().kind(),
        other => panic!("expected a transport error, got {other:?}"),
    }
}

fn api(error: &Error) -> &pipe_api_proto::ApiError {
    match error {
        Error::Api(api) => api,
        other => panic!("expected an API error, got {other:?}"),
    }
}

// ---- the network ------------------------------------------------------------------------------

#[test]
fn connection_refused_is_retried_then_a_connect_error() {
    let address = closed_port();
    let (org, service, _) = ids();
    let error = timed(|| client_for(&format!("http://{address}")).list_pipes(org, service)).unwrap_err();
    assert_eq!(transport_kind(&error), TransportErrorKind::Connect);
    assert_eq!(error.attempts(), 3);
    assert!(!error.outcome_unknown(), "nothing reached a server");
}

#[test]
fn a_reset_before_any_response_is_retried_for_a_get() {
    let server = scripted(vec![Step::ResetUnread]);
    let error = list(&server).unwrap_err();
    assert!(matches!(error, Error::Transport(_)), "{error:?}");
    assert_eq!(error.attempts(), 3);
    assert_eq!(server.connections(), 3);
}

#[test]
fn a_reset_in_the_middle_of_the_body_is_retried_then_succeeds() {
    let full = http_response("200 OK", &[("content-type", "application/json")], PIPES_OK.as_bytes());
    let half = full[..full.len() - 20].to_vec();
    let server = scripted(vec![Step::WriteThenReset(half), ok(PIPES_OK)]);
    let pipes = list(&server).unwrap();
    assert_eq!(pipes.len(), 1);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_content_length_larger_than_the_body_is_an_error_after_retries() {
    let mut short = b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: 5000\r\n\r\n".to_vec();
    short.extend_from_slice(PIPES_OK.as_bytes());
    let server = scripted(vec![Step::WriteThenClose(short)]);
    let error = list(&server).unwrap_err();
    assert!(matches!(transport_kind(&error), TransportErrorKind::Io | TransportErrorKind::Other), "{error:?}");
    assert_eq!(error.attempts(), 3);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_server_that_never_answers_times_out_each_attempt() {
    let server = scripted(vec![Step::Silent]);
    let error = list(&server).unwrap_err();
    assert_eq!(transport_kind(&error), TransportErrorKind::Timeout);
    assert_eq!(error.attempts(), 3);
    assert_eq!(server.requests().len(), 3);
}

#[test]
fn a_trickling_server_is_cut_off_by_the_timeout() {
    let server = scripted(vec![Step::Trickle(http_response(
        "200 OK",
        &[("content-type", "application/json")],
        PIPES_OK.as_bytes(),
    ))]);
    let error = list(&server).unwrap_err();
    assert_eq!(transport_kind(&error), TransportErrorKind::Timeout);
    assert_eq!(error.attempts(), 3);
}

// ---- statuses ---------------------------------------------------------------------------------

#[test]
fn a_429_with_a_fractional_reset_beyond_the_bound_stops_with_the_hint() {
    let server = scripted(vec![status(
        "429 Too Many Requests",
        &[("x-ratelimit-reset", "3.2"), ("x-ratelimit-limit", "10"), ("x-ratelimit-remaining", "0")],
        br#"{"error":"TOO_MANY_REQUESTS"}"#,
    )]);
    let error = list(&server).unwrap_err();
    let api = api(&error);
    assert_eq!(api.status(), 429);
    assert_eq!(api.code(), Some("TOO_MANY_REQUESTS"));
    assert_eq!(api.retry_hints().x_rate_limit_reset, Some(Duration::from_millis(3200)));
    // 3.2 s is over the policy's 1 s bound: no waiting, one request.
    assert_eq!(error.attempts(), 1);
    assert_eq!(server.requests().len(), 1);
}

#[test]
fn a_429_with_a_short_fractional_reset_is_waited_out() {
    let server = scripted(vec![
        status("429 Too Many Requests", &[("x-ratelimit-reset", "0.2")], br#"{"error":"TOO_MANY_REQUESTS"}"#),
        ok(PIPES_OK),
    ]);
    let started = Instant::now();
    assert_eq!(list(&server).unwrap().len(), 1);
    assert!(started.elapsed() >= Duration::from_millis(200), "the server's 0.2 s were honoured");
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_429_without_a_hint_backs_off_and_retries() {
    let server = scripted(vec![status("429 Too Many Requests", &[], b""), ok(PIPES_OK)]);
    assert_eq!(list(&server).unwrap().len(), 1);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_429_with_retry_after_in_seconds_and_as_a_date() {
    let seconds = scripted(vec![status("429 Too Many Requests", &[("retry-after", "0")], b""), ok(PIPES_OK)]);
    assert_eq!(list(&seconds).unwrap().len(), 1);
    assert_eq!(seconds.requests().len(), 2);

    // A date in the past: retry at once.
    let date = scripted(vec![
        status("429 Too Many Requests", &[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")], b""),
        ok(PIPES_OK),
    ]);
    assert_eq!(list(&date).unwrap().len(), 1);
    assert_eq!(date.requests().len(), 2);

    // A date far ahead: over the bound, so the error, with the hint read.
    let far = scripted(vec![status("429 Too Many Requests", &[("retry-after", "Fri, 01 Jan 2100 00:00:00 GMT")], b"")]);
    let error = list(&far).unwrap_err();
    assert!(api(&error).retry_hints().retry_after.is_some());
    assert_eq!(far.requests().len(), 1);
}

#[test]
fn a_503_then_200_succeeds_on_the_second_attempt() {
    let server = scripted(vec![status("503 Service Unavailable", &[("retry-after", "0")], b"busy"), ok(PIPES_OK)]);
    assert_eq!(list(&server).unwrap().len(), 1);
    assert_eq!(server.requests().len(), 2);
}

#[test]
fn a_502_with_html_is_retried_then_kept_raw() {
    let html = b"<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>";
    let server = scripted(vec![status("502 Bad Gateway", &[("content-type", "text/html")], html)]);
    let error = list(&server).unwrap_err();
    let api = api(&error);
    assert_eq!(api.status(), 502);
    assert!(api.raw_text().unwrap().contains("502 Bad Gateway"));
    assert_eq!(error.attempts(), 3);
    assert_eq!(server.requests().len(), 3);
}

type FinalCase = (&'static str, &'static [u8], Option<&'static str>, Option<&'static str>);

#[test]
fn final_statuses_are_not_retried_and_keep_their_fields() {
    // (status line, body, expected code, expected request id)
    let cases: [FinalCase; 4] = [
        (
            "500 Internal Server Error",
            br#"{"status":500,"requestId":"r-500","error":"INTERNAL_ERROR: boom"}"#,
            Some("INTERNAL_ERROR"),
            Some("r-500"),
        ),
        ("401 Unauthorized", b"Unauthorized", None, None),
        (
            "404 Not Found",
            br#"{"status":404,"requestId":"r-404","error":"NOT_FOUND: 0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e"}"#,
            Some("NOT_FOUND"),
            Some("r-404"),
        ),
        (
            "424 Failed Dependency",
            br#"{"status":424,"requestId":"r-424","error":"FAILED_DEPENDENCY: Current state: idle"}"#,
            Some("FAILED_DEPENDENCY"),
            Some("r-424"),
        ),
    ];
    for (line, body, code, request_id) in cases {
        let server = scripted(vec![status(line, &[], body)]);
        let error = list(&server).unwrap_err();
        let api = api(&error);
        assert_eq!(api.status().as_u16().to_string(), line[..3], "{line}");
        assert_eq!(api.code(), code, "{line}");
        assert_eq!(api.request_id(), request_id, "{line}");
        assert_eq!(error.attempts(), 1, "{line}");
        assert_eq!(server.requests().len(), 1, "{line}");
        if line.starts_with("401") {
            assert_eq!(api.raw_text().as_deref(), Some("Unauthorized"));
        }
        if line.starts_with("404") {
            assert_eq!(api.message(), Some(PIPE));
        }
    }
}

// ---- bodies -----------------------------------------------------------------------------------

#[test]
fn a_200_that_does_not_decode_is_a_decode_error_and_not_retried() {
    let mut deep = br#"{"status":200,"result":"#.to_vec();
    deep.extend(std::iter::repeat_n(b'[', 100_000));
    deep.extend(std::iter::repeat_n(b']', 100_000));
    deep.push(b'}');
    let bodies: [(&str, Vec<u8>); 4] = [
        ("not JSON", b"<html>maintenance</html>".to_vec()),
        ("no result", br#"{"status":200,"requestId":"r-none"}"#.to_vec()),
        ("invalid UTF-8", b"{\"status\":200,\"result\":[{\"id\":\"\xff\xfe\"}]}".to_vec()),
        ("100,000 levels deep", deep),
    ];
    for (what, body) in bodies {
        let server = scripted(vec![status("200 OK", &[("content-type", "application/json")], &body)]);
        let error = list(&server).unwrap_err();
        assert!(matches!(error, Error::Decode(_)), "{what}: {error:?}");
        assert_eq!(error.attempts(), 1, "{what}");
        assert_eq!(server.requests().len(), 1, "{what}");
        if what == "no result" {
            let Error::Decode(decode) = &error else { unreachable!() };
            assert_eq!(decode.path(), "result");
            assert_eq!(decode.request_id(), Some("r-none"));
        }
    }
}

#[test]
fn a_body_over_the_cap_is_refused_without_reading_it_all() {
    let big = format!(r#"{{"status":200,"result":[],"padding":"{}"}}"#, "x".repeat(1024 * 1024));
    let server = scripted(vec![ok(&big)]);
    let error = list(&server).unwrap_err();
    assert_eq!(transport_kind(&error), TransportErrorKind::BodyTooLarge);
    // The same answer would come again: not retried.
    assert_eq!(error.attempts(), 1);
    assert_eq!(server.requests().len(), 1);
}

/// ureq is built with its `gzip` feature: it asks for gzip and decodes it transparently.
#[test]
fn a_gzip_encoded_body_is_decoded() {
    // gzip of {"status":200,"requestId":"r-gzip","result":[{"id":"0b9e…4d5e","name":"zipped","state":"Running"}]}
    const GZIPPED: [u8; 129] = [
        31, 139, 8, 0, 0, 0, 0, 0, 2, 3, 21, 141, 77, 14, 131, 32, 16, 133, 239, 242, 214, 157, 4, 5, 140, 114, 131,
        110, 187, 109, 186, 24, 101, 52, 36, 45, 177, 2, 155, 26, 239, 94, 88, 190, 239, 253, 157, 72, 153, 115, 73,
        112, 189, 82, 55, 28, 242, 45, 146, 242, 221, 195, 225, 160, 237, 23, 118, 52, 152, 202, 59, 195, 61, 79, 132,
        102, 168, 121, 18, 189, 88, 75, 131, 183, 43, 25, 30, 133, 38, 54, 154, 6, 238, 214, 126, 214, 139, 241, 86,
        106, 45, 242, 71, 106, 186, 110, 236, 226, 171, 110, 71, 13, 60, 74, 140, 33, 110, 184, 94, 215, 31, 180, 204,
        250, 215, 126, 0, 0, 0,
    ];
    let server = scripted(vec![status(
        "200 OK",
        &[("content-type", "application/json"), ("content-encoding", "gzip")],
        &GZIPPED,
    )]);
    let pipes = list(&server).unwrap();
    assert_eq!(pipes[0].name.as_deref(), Some("zipped"));
    assert!(server.requests()[0].header("accept-encoding").is_some_and(|v| v.contains("gzip")));
}

// ---- a create meets a fault after sending: never sent twice ------------------------------------

fn post_faults() -> Vec<(&'static str, Step)> {
    vec![
        ("reset after the request was sent", Step::ResetAfterRequest),
        ("502", status("502 Bad Gateway", &[("content-type", "text/html")], b"<html>bad gateway</html>")),
        ("503", status("503 Service Unavailable", &[("retry-after", "0")], b"unavailable")),
        ("timeout", Step::Silent),
    ]
}

#[test]
fn a_create_that_may_have_reached_the_server_is_sent_exactly_once() {
    let (org, service, _) = ids();
    for (what, step) in post_faults() {
        for operation in ["create_key", "create_pipe"] {
            let server = scripted(vec![step.clone(), ok(PIPES_OK)]);
            let client = client_for(&server.base_url());
            let error = timed(|| match operation {
                "create_key" => client.create_key(org, create_key_request("once")).map(|_| ()),
                _ => client.create_pipe(org, service, create_pipe_requests("m").remove(0)).map(|_| ()),
            })
            .unwrap_err();
            assert!(error.outcome_unknown(), "{operation} after {what}: {error:?}");
            assert!(error.to_string().contains("list before creating again"), "{operation} after {what}: {error}");
            assert_eq!(error.attempts(), 1, "{operation} after {what}");
            assert_eq!(server.requests().len(), 1, "{operation} after {what}: sent exactly once");
            assert_eq!(server.requests()[0].request_line.split(' ').next(), Some("POST"));
        }
    }
}

#[test]
fn a_get_that_meets_the_same_faults_is_retried_and_says_how_often() {
    let (org, service, pipe) = ids();
    let pipe_ok = r#"{"status":200,"requestId":"r","result":{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e"}}"#;
    for (what, step) in post_faults() {
        // Fails every time: the error tells how many attempts were made.
        let always = scripted(vec![step.clone()]);
        let error = timed(|| client_for(&always.base_url()).get_pipe(org, service, pipe)).unwrap_err();
        assert_eq!(error.attempts(), 3, "{what}: {error:?}");
        assert_eq!(always.requests().len(), 3, "{what}");

        // Fails once: the retry succeeds.
        let once = scripted(vec![step, ok(pipe_ok)]);
        let got = timed(|| client_for(&once.base_url()).get_pipe(org, service, pipe)).unwrap();
        assert_eq!(got.id, pipe, "{what}");
        assert_eq!(once.requests().len(), 2, "{what}");
    }
}
