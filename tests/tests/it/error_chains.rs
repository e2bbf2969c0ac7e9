//! Errors compose with anyhow and eyre: each layer's `Display` says only its own part and the
//! cause is reached through `source()`, never both. A report that walks the chain (anyhow's
//! `{:#}`) then shows every message once, the first naming the operation.

use std::error::Error as StdError;
use std::time::{Duration, SystemTime};

use http::{Method, Response};
use pipe_api_proto::{
    CreateKey, CreatePipe, EndpointExt, Error, GetPipe, ListPipes, Management, ManagementCredentials, Raw,
    TransportError, TransportErrorKind,
};
use pipe_api_tests::ids;
use pipe_api_tests::requests::{create_key_request, create_pipe_requests};
use pipe_api_types::{CreateKeyRequest, PipeId, Validate};

/// The messages of `error` and of every source below it, in order.
fn chain(error: &(dyn StdError + 'static)) -> Vec<String> {
    let mut messages = vec![error.to_string()];
    let mut next = error.source();
    while let Some(e) = next {
        messages.push(e.to_string());
        next = e.source();
    }
    messages
}

/// No message of the chain holds another one: nothing is printed twice by a report.
fn assert_each_message_once(error: &(dyn StdError + 'static)) -> Vec<String> {
    let messages = chain(error);
    let joined = messages.join(": ");
    for (i, message) in messages.iter().enumerate() {
        assert!(!message.is_empty(), "an empty message in {messages:?}");
        assert_eq!(joined.matches(message.as_str()).count(), 1, "{message:?} appears twice in {joined:?}");
        for (j, other) in messages.iter().enumerate() {
            assert!(i == j || !message.contains(other.as_str()), "{message:?} repeats {other:?}");
        }
    }
    messages
}

/// Each layer of a call's error once, the first naming the operation.
fn assert_layered(error: &Error, min_links: usize) -> Vec<String> {
    let messages = assert_each_message_once(error);
    assert!(messages[0].starts_with(error.operation()), "the first message names the operation: {messages:?}");
    assert!(messages.len() >= min_links, "expected {min_links} links or more: {messages:?}");
    messages
}

fn management() -> Management {
    Management::new(
        pipe_api_proto::BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new("key-id", "key-secret").unwrap(),
    )
}

fn respond(status: u16, headers: &[(&str, &str)], body: &str) -> Response<Vec<u8>> {
    let mut builder = Response::builder().status(status);
    for (name, value) in headers {
        builder = builder.header(*name, *value);
    }
    builder.body(body.as_bytes().to_vec()).unwrap()
}

#[test]
fn build_errors_say_what_to_fix_and_that_nothing_was_sent() {
    let (org, service, _) = ids();
    let invalid = CreateKey::new(org, CreateKeyRequest::new("bad\u{7}name", [])).build_request(&management());
    let error = Error::from(invalid.unwrap_err());
    // `{error}` alone says each violation's wire path and rule: what a quickstart prints.
    let messages = assert_layered(&error, 1);
    assert!(messages[0].starts_with("create_key: nothing was sent: invalid request: `name`"), "{messages:?}");
    assert!(messages[0].contains("`roles` must have at least 1 element"), "{messages:?}");
    assert_eq!(error.validation().map(|errors| errors.violations().len()), Some(2));
    // `{error:?}` (what `main() -> Result` prints) reads as the same message.
    assert_eq!(format!("{error:?}"), error.to_string());

    let mut two_kinds = create_pipe_requests("m").remove(0);
    two_kinds.source = None;
    let error = Error::from(CreatePipe::new(org, service, two_kinds).build_request(&management()).unwrap_err());
    assert!(error.to_string().contains("`source`"), "{error}");
    assert_layered(&error, 1);

    let error = Error::from(Raw::<Management>::new(Method::GET, "relative").unwrap_err());
    let messages = assert_layered(&error, 1);
    assert!(messages[0].contains("must start with '/'"), "{messages:?}");
}

#[test]
fn transport_failures_name_the_kind_and_the_cause_once() {
    let (org, service, _) = ids();
    let timing_out = |_| {
        Err(TransportError::new(
            TransportErrorKind::Timeout,
            std::io::Error::new(std::io::ErrorKind::TimedOut, "no answer within 30 s"),
        ))
    };
    let error = ListPipes::new(org, service).send(&management(), &timing_out).unwrap_err();
    // The cause in the one line (issue 37), and so not again as a source.
    let messages = assert_layered(&error, 1);
    assert_eq!(messages, ["list_pipes: timed out: no answer within 30 s"]);

    // A POST that may have reached the server, after two that could not connect: the warning
    // is the failure's own part.
    let (create, api) = (CreateKey::new(org, create_key_request("k")), management());
    let policy =
        pipe_api_proto::retry::RetryPolicy::default().backoff(Duration::from_millis(1), Duration::from_millis(1));
    let mut call = pipe_api_proto::call::Call::new(&create, &api, &policy, 1, Duration::ZERO).unwrap();
    let (mut now, mut sent) = (Duration::ZERO, 0);
    let error = loop {
        match call.next(now, None) {
            pipe_api_proto::call::Next::Send { .. } => {
                sent += 1;
                let kind = if sent < 3 { TransportErrorKind::Connect } else { TransportErrorKind::Io };
                call.receive(Err(TransportError::from_kind(kind)), now, time::OffsetDateTime::UNIX_EPOCH, None);
            }
            pipe_api_proto::call::Next::Wait { until } => now = until,
            pipe_api_proto::call::Next::Done(result) => break result.unwrap_err(),
        }
    };
    let messages = assert_layered(&error, 1);
    assert!(messages[0].starts_with("create_key: the connection failed (after 3 attempts)"), "{messages:?}");
    assert!(messages[0].contains("list before creating again"), "{messages:?}");

    // The transport's error alone says its kind, and its cause is the source.
    let alone = TransportError::new(TransportErrorKind::Connect, std::io::Error::other("refused"));
    assert_eq!(assert_each_message_once(&alone), ["could not connect", "refused"]);
}

#[test]
fn api_and_decode_errors_are_one_message_each() {
    let (org, service, pipe) = ids();
    let get = GetPipe::new(org, service, pipe);
    let cases = [
        respond(404, &[], r#"{"status":404,"error":"NOT_FOUND: no such pipe","requestId":"r-404"}"#),
        respond(502, &[("x-request-id", "gw-1")], "<html>Bad Gateway</html>"),
        respond(302, &[("location", "https://elsewhere.example.com/")], ""),
        respond(429, &[("retry-after", "7")], r#"{"message":"slow down"}"#),
        respond(200, &[], "not json"),
        respond(200, &[], r#"{"status":200,"requestId":"r-200","result":{"id":"not a uuid"}}"#),
    ];
    for response in cases {
        let error = get.parse_response(&pipe_api_tests::management(), response).unwrap_err();
        let messages = assert_layered(&error, 1);
        assert_eq!(messages.len(), 1, "no source below a server's answer: {messages:?}");
    }
}

#[test]
fn configuration_and_model_errors_are_layered_the_same_way() {
    use pipe_api_ureq::{Client, ConfigError};

    let refused: Vec<ConfigError> = vec![
        Client::management("https://id:pw@api.example.com", "k", "s").unwrap_err(),
        Client::management("http://api.example.com", "k", "s").unwrap_err(),
        Client::management("https://api.example.com", "a:b", "s").unwrap_err(),
        Client::builder().build().unwrap_err(),
    ];
    for error in &refused {
        assert_each_message_once(error);
    }
    assert_each_message_once(&"x".parse::<PipeId>().unwrap_err());
    assert_each_message_once(&CreateKeyRequest::new("", []).validate().unwrap_err());
}

#[test]
fn a_real_client_failure_adds_nothing_twice() {
    // A port nobody listens on: the client's own layer, then ureq's.
    let listener = std::net::TcpListener::bind("127.0.0.1:0").unwrap();
    let url = format!("http://{}", listener.local_addr().unwrap());
    drop(listener);
    let client = pipe_api_ureq::Client::builder()
        .management(&url, "k", "s")
        .retry_policy(pipe_api_tests::fast_retries())
        .build()
        .unwrap();
    let (org, service, _) = ids();
    let error = client.list_pipes(org, service).unwrap_err();
    let messages = chain(&error);
    // The cause (ureq's error) in the one line, once; below it only what ureq chains itself.
    assert!(messages[0].starts_with("list_pipes: could not connect: io: "), "{messages:?}");
    assert_eq!(messages[0].matches("Connection refused").count(), 1, "{messages:?}");
}

#[test]
fn the_helpers_users_reach_for() {
    let (org, service, pipe) = ids();
    let get = GetPipe::new(org, service, pipe);
    let not_found = get
        .parse_response(&pipe_api_tests::management(), respond(404, &[], r#"{"error":"NOT_FOUND: x"}"#))
        .unwrap_err();
    assert!(not_found.is_not_found() && !not_found.is_rate_limited());
    assert_eq!(not_found.as_api().map(|e| e.status()), Some(http::StatusCode::NOT_FOUND));
    assert_eq!(not_found.retry_after(SystemTime::now()), None);

    let limited =
        get.parse_response(&pipe_api_tests::management(), respond(429, &[("retry-after", "7")], "")).unwrap_err();
    assert!(limited.is_rate_limited() && !limited.is_not_found());
    assert_eq!(limited.retry_after(SystemTime::now()), Some(Duration::from_secs(7)));

    // A date is a delay from the `now` given.
    let dated = get
        .parse_response(
            &pipe_api_tests::management(),
            respond(503, &[("retry-after", "Wed, 21 Oct 2015 07:28:00 GMT")], ""),
        )
        .unwrap_err();
    let now = SystemTime::UNIX_EPOCH + Duration::from_secs(1_445_412_470);
    assert_eq!(dated.retry_after(now), Some(Duration::from_secs(10)));

    let decode = get.parse_response(&pipe_api_tests::management(), respond(200, &[], "nope")).unwrap_err();
    assert!(decode.as_api().is_none() && !decode.is_not_found());
}
