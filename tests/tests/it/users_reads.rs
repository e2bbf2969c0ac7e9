//! What a user reads: `{}` of the errors a user meets first names the cause in its one line (a
//! wait's failed poll says the 404 and the id, a transport failure what the connection did),
//! counts read as English ("1 poll"), and a request read from JSON with a typo says where and
//! what was meant, before anything is sent.

use std::time::Duration;

use pipe_api_fake::Fake;
use pipe_api_proto::wait::{WaitPolicy, pipe_running};
use pipe_api_tests::{RawServer, fast_retries, ids};
use pipe_api_types::{CreatePipeRequest, KeyRole, Pipe, PipeState, Service};
use pipe_api_ureq::Client;

use crate::clients::*;

fn client(fake: &Fake) -> (pipe_api_fake::FakeServer, Client) {
    let server = fake.clone().serve().unwrap();
    let client = client_as(&server, "key-id", "key-secret");
    (server, client)
}

fn seeded() -> Fake {
    let (org, service, _) = ids();
    let fake = Fake::new();
    fake.seed_key(org, "key-id", "key-secret", [KeyRole::Admin]);
    fake.seed_service(org, Service::new(service).name("shop"));
    fake
}

#[test]
fn a_wait_whose_poll_failed_names_the_status_and_the_id_in_its_one_line() {
    let (org, service, pipe) = ids();
    let (_server, client) = client(&seeded());
    let error = client
        .wait_for_pipe(org, service, pipe, pipe_running, WaitPolicy::default().deadline(Duration::from_secs(5)))
        .unwrap_err();
    let line = error.to_string();
    let polled = format!("wait on get_pipe /v1/organizations/{org}/services/{service}/pipes/{pipe}: ");
    assert!(line.starts_with(&format!("{polled}a poll failed: get_pipe: ")), "{line}");
    assert!(line.contains("404") && line.contains(&pipe.to_string()), "{line}");
}

#[test]
fn a_wait_on_a_failed_pipe_counts_one_poll() {
    let (org, service, pipe) = ids();
    let fake = seeded();
    fake.seed_pipe(org, service, Pipe::new(pipe).name("orders").state(PipeState::Failed));
    let (_server, client) = client(&fake);
    let error = client.wait_for_pipe(org, service, pipe, pipe_running, WaitPolicy::default()).unwrap_err();
    assert_eq!(
        error.to_string(),
        format!(
            "wait on get_pipe /v1/organizations/{org}/services/{service}/pipes/{pipe}: after 1 poll, the value is in a \
             state it will not leave for the one waited for; last state Failed"
        )
    );
    assert_eq!(error.polled().operation, "get_pipe");
    assert!(format!("{error:?}").contains("polled: Polled { operation: \"get_pipe\""), "{error:?}");
}

#[test]
fn an_enum_typo_in_json_says_the_json_way_to_send_a_newer_value() {
    use pipe_api_types::{UpdateServiceRequest, Validate as _};

    let typo: UpdateServiceRequest = serde_json::from_str(r#"{"releaseChannel": "fastest"}"#).unwrap();
    let shown = typo.validate().unwrap_err().to_string();
    assert!(shown.contains("`releaseChannel` must be one of slow, default, fast"), "{shown}");
    assert!(shown.contains(r#"in JSON, write the member under `"$notYetKnown"`"#), "{shown}");
    assert!(shown.contains("in Rust, use the enum's `not_yet_known`"), "{shown}");
    // The JSON way it names works: the member is sent as written.
    let newer: UpdateServiceRequest =
        serde_json::from_str(r#"{"$notYetKnown": {"releaseChannel": "fastest"}}"#).unwrap();
    newer.validate().unwrap();
    assert_eq!(serde_json::to_string(&newer).unwrap(), r#"{"releaseChannel":"fastest"}"#);
}

#[test]
fn a_caller_watches_each_poll_of_a_wait_as_it_comes() {
    use std::sync::{Arc, Mutex};

    use pipe_api_proto::wait::Verdict;

    let (org, service, pipe) = ids();
    let fake = seeded();
    fake.seed_pipe(org, service, Pipe::new(pipe).name("orders").state(PipeState::Failed));
    let server = fake.clone().serve().unwrap();
    let seen = Arc::new(Mutex::new(Vec::new()));
    let client = {
        let seen = seen.clone();
        Client::builder()
            .management(&server.base_url(), "key-id", "key-secret")
            .retry_policy(fast_retries())
            .on_poll(move |poll| seen.lock().unwrap().push(poll.clone()))
            .build()
            .unwrap()
    };
    client.wait_for_pipe(org, service, pipe, pipe_running, WaitPolicy::default()).unwrap_err();
    let seen = seen.lock().unwrap();
    let [poll] = seen.as_slice() else { panic!("one poll: {seen:?}") };
    assert_eq!((poll.number, poll.state.as_deref(), &poll.verdict), (1, Some("Failed"), &Verdict::Failed));
    assert_eq!(poll.polled.resource, format!("/v1/organizations/{org}/services/{service}/pipes/{pipe}"));
    let line = poll.to_string();
    assert!(line.starts_with("get_pipe /v1/organizations/") && line.ends_with("s of 600.0 s: state Failed"), "{line}");
}

#[test]
fn a_transport_failure_names_what_the_connection_did() {
    let (org, service, _) = ids();
    // Reads the request, then drops the connection without a word.
    let server = RawServer::start(|mut connection| {
        connection.read_request();
        connection.close();
    });
    let client = Client::builder()
        .management(&server.base_url(), "key-id", "key-secret")
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let line = client.get_service(org, service).unwrap_err().to_string();
    let (kind, cause) = line.split_once(": ").and_then(|(_, rest)| rest.split_once(": ")).unwrap_or(("", ""));
    assert!(!kind.is_empty() && !cause.is_empty(), "the kind and then the cause: {line}");
    assert!(line.starts_with("get_service: "), "{line}");
}

#[test]
fn a_request_read_from_json_with_a_typo_is_refused_naming_the_field_meant() {
    let (org, service, _) = ids();
    let fake = seeded();
    let (_server, client) = client(&fake);
    let request: CreatePipeRequest = serde_json::from_str(
        r#"{"name": "logs", "source": {"objectStorage": {"type": "s3", "format": "CSV",
            "url": "https://bucket.example/*.csv", "isContinous": true}},
            "destination": {"table": "logs", "managedTable": true, "columns": [{"name": "line", "type": "String"}]}}"#,
    )
    .unwrap();
    let error = client.create_pipe(org, service, request).unwrap_err();
    let shown = format!("{error}");
    assert!(shown.contains("`source.objectStorage.isContinous` is not a field this crate knows"), "{shown}");
    assert!(shown.contains("did you mean `isContinuous`?"), "{shown}");
    assert!(format!("{error:?}").contains("isContinous"), "{error:?}");
    assert_eq!(fake.request_count(), 0, "nothing was sent");
}

#[test]
fn the_fake_drops_the_connection_of_the_second_post_only() {
    use http::Method;
    use pipe_api_fake::{Fault, FaultRule};
    use pipe_api_types::{CreateKeyRequest, KeyRole};

    let (org, service, _) = ids();
    let fake = seeded();
    // The second POST takes effect, then its connection drops.
    fake.inject(FaultRule::any(Fault::drop_connection().after_handling()).method(Method::POST).nth(2));
    let (_server, client) = client(&fake);
    client.create_key(org, CreateKeyRequest::new("first", [KeyRole::Developer])).unwrap();
    client.get_service(org, service).unwrap();
    let lost = client.create_key(org, CreateKeyRequest::new("second", [KeyRole::Developer])).unwrap_err();
    assert!(lost.outcome_unknown(), "{lost}");
    client.create_key(org, CreateKeyRequest::new("third", [KeyRole::Developer])).unwrap();
    let names: Vec<String> = fake.keys(org).iter().filter_map(|key| key.name.as_deref().map(str::to_owned)).collect();
    assert!(names.iter().any(|name| name == "second"), "the lost create took effect: {names:?}");
    assert_eq!(fake.request_count(), 4, "the lost create was not sent again");

    // Without sockets, the fake as a transport fails the send the same way.
    let dropping = seeded();
    dropping.inject(FaultRule::next(1, Fault::drop_connection()));
    let api = pipe_api_tests::management();
    let error = pipe_api_proto::EndpointExt::send(&pipe_api_proto::GetService::new(org, service), &api, &dropping);
    assert!(matches!(error, Err(pipe_api_proto::Error::Transport(_))), "{error:?}");
}

#[test]
fn a_dropped_connection_says_the_connection_closed() {
    let (org, service, _) = ids();
    // Reads the request, then closes the connection without a word.
    let server = RawServer::start(|mut connection| {
        connection.read_request();
        connection.close();
    });
    let client = Client::builder()
        .management(&server.base_url(), "key-id", "key-secret")
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let error = client.get_service(org, service).unwrap_err();
    let line = error.to_string();
    assert!(
        line.starts_with(
            "get_service: the connection failed: the server closed the connection before its answer was complete"
        ),
        "{line}"
    );
    // What ureq said stays below, for whoever reads the chain.
    let below = std::error::Error::source(&error).map(ToString::to_string);
    assert_eq!(below.as_deref(), Some("io: Peer disconnected"), "{error:?}");
}

#[test]
fn a_connection_the_fake_drops_says_so_rather_than_what_the_parser_met() {
    use pipe_api_fake::{Fault, FaultRule};

    let (org, service, _) = ids();
    let fake = seeded();
    fake.inject(FaultRule::any(Fault::drop_connection()));
    let (_server, client) = client(&fake);
    let error = client.get_service(org, service).unwrap_err();
    let line = error.to_string();
    assert!(line.contains("what came back is no HTTP answer; the connection was dropped"), "{line}");
    assert!(!line.contains("parse fail"), "{line}");
    let below = std::error::Error::source(&error).map(ToString::to_string).unwrap_or_default();
    assert!(below.contains("http parse fail"), "ureq's words stay below: {below}");
}

#[test]
fn a_gateway_page_shows_as_its_title_in_one_line() {
    let (org, service, _) = ids();
    let page = "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad \
                Gateway</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n";
    let server = RawServer::start(move |mut connection| {
        while connection.read_request().is_some() {
            let headers = [("content-type", "text/html")];
            connection.write(&pipe_api_tests::http_response("502 Bad Gateway", &headers, page.as_bytes()));
        }
    });
    let client = Client::builder()
        .management(&server.base_url(), "key-id", "key-secret")
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let error = client.get_service(org, service).unwrap_err();
    let line = error.to_string();
    assert!(!line.contains('\n') && !line.contains('\r'), "one line: {line:?}");
    assert!(line.starts_with("get_service: HTTP 502 Bad Gateway; body: 502 Bad Gateway… ("), "{line}");
    assert!(line.contains(&format!("({} bytes in all)", page.len())), "{line}");
    assert!(!format!("{error:?}").contains("\\r\\n"), "{error:?}");

    // The attempts behind it read on their own, and so does the first attempt's record.
    let history = error.history().unwrap();
    assert_eq!(history.to_string(), "3 attempts; no attempts left");
    assert!(format!("{:?}", history.records[0]).contains("cause: Immediate"), "{:?}", history.records[0]);
    assert!(line.ends_with("(after 3 attempts); no attempts left"), "{line}");
}
