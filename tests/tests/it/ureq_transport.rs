//! The ureq transport as an API client needs it: redirects not followed (credentials never reach
//! another host), body cap, timeouts, https off loopback, connect failures, and the client's
//! configuration from the environment.

use std::time::{Duration, Instant};

use http::Method;
use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake};
use pipe_api_proto::retry::{Attempt, Decision, Outcome, RetryPolicy, SeededJitter, StopReason};
use pipe_api_proto::{
    BaseUrl, EndpointExt, Error, ListPipes, Management, ManagementCredentials, Transport, TransportErrorKind,
};
use pipe_api_tests::{ORG, RawServer, SERVICE, closed_port, fast_retries, http_response, ids};
use pipe_api_ureq::{Client, ConfigError, TransportConfig, UreqTransport};

/// A generous ceiling that only catches a hang; no test relies on being fast.
const HANG: Duration = Duration::from_secs(60);

#[test]
fn a_redirect_to_another_host_is_not_followed_and_credentials_stay_home() {
    let elsewhere = RawServer::start(|mut connection| {
        if connection.read_request().is_some() {
            connection.write(&http_response("200 OK", &[], br#"{"status":200,"result":[]}"#));
        }
    });
    let location = format!("{}/v1/organizations/{ORG}/services/{SERVICE}/pipes", elsewhere.base_url());
    let home = RawServer::start(move |mut connection| {
        while connection.read_request().is_some() {
            connection.write(&http_response("302 Found", &[("location", &location)], b""));
        }
    });
    let client = Client::builder().management(&home.base_url(), "key-id", "MARKER-SECRET").build().unwrap();
    let (org, service, _) = ids();
    let error = client.list_pipes(org, service).unwrap_err();
    match &error {
        Error::Api(api) => {
            assert_eq!(api.status().as_u16(), 302);
            assert!(api.location().unwrap().starts_with(&elsewhere.base_url()));
        }
        other => panic!("expected the 302 as an error, got {other:?}"),
    }
    assert_eq!(home.requests().len(), 1, "a 3xx is final: no retry");
    assert!(home.requests()[0].header("authorization").unwrap().starts_with("Basic "));
    assert_eq!(elsewhere.connections(), 0, "nothing, and so no Authorization header, reached the other host");
}

#[test]
fn the_body_cap_stops_an_endless_body() {
    let server = RawServer::start(|mut connection| {
        if connection.read_request().is_some() {
            connection
                .write(b"HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ntransfer-encoding: chunked\r\n\r\n");
            let chunk = format!("{:x}\r\n{}\r\n", 64 * 1024, " ".repeat(64 * 1024));
            // Endless: until the client hangs up.
            loop {
                if std::io::Write::write_all(connection.stream(), chunk.as_bytes()).is_err() {
                    return;
                }
            }
        }
    });
    let client = Client::builder()
        .management(&server.base_url(), "key-id", "secret")
        .body_limit(1024 * 1024)
        .no_retries()
        .build()
        .unwrap();
    let (org, service, _) = ids();
    let started = Instant::now();
    let error = client.list_pipes(org, service).unwrap_err();
    assert!(started.elapsed() < HANG);
    match &error {
        Error::Transport(failure) => assert_eq!(failure.error().kind(), TransportErrorKind::BodyTooLarge, "{error}"),
        other => panic!("expected a body-too-large error, got {other:?}"),
    }
}

#[test]
fn the_timeout_stops_a_server_that_never_answers() {
    let server = RawServer::start(|mut connection| {
        let _ = connection.read_request();
        std::thread::sleep(Duration::from_secs(120));
    });
    let client = Client::builder()
        .management(&server.base_url(), "key-id", "secret")
        .timeout(Duration::from_millis(300))
        .no_retries()
        .build()
        .unwrap();
    let (org, service, _) = ids();
    let started = Instant::now();
    let error = client.list_pipes(org, service).unwrap_err();
    // Not before the time configured (8/9 of it once ended this one at 267 to 299 ms): a
    // bound a slow machine cannot break.
    assert!(started.elapsed() >= Duration::from_millis(300), "{:?}", started.elapsed());
    assert!(started.elapsed() < HANG);
    match &error {
        Error::Transport(failure) => assert_eq!(failure.error().kind(), TransportErrorKind::Timeout, "{error}"),
        other => panic!("expected a timeout, got {other:?}"),
    }
    assert_eq!(error.attempts(), 1);
}

/// One exchange is given the time configured, not less (issue 48: asking the sockets for 8/9
/// of it ended 2 s at 1.78 s and the 30 s default at 27.0 s), or what is left of a call's
/// deadline when that is nearer.
#[test]
fn an_exchange_is_given_the_time_configured() {
    for timeout in [Duration::from_secs(2), Duration::from_secs(30)] {
        let mut config = TransportConfig::default();
        config.timeout = timeout;
        let transport = UreqTransport::new(config);
        assert_eq!(transport.exchange_timeout(None), timeout);
        assert_eq!(transport.exchange_timeout(Some(timeout * 2)), timeout);
        assert_eq!(transport.exchange_timeout(Some(timeout / 2)), timeout / 2);
    }
    assert_eq!(UreqTransport::default().exchange_timeout(None), Duration::from_secs(30));
}

#[test]
fn connection_refused_is_a_connect_failure_retried_for_any_method() {
    let base = format!("http://{}", closed_port());
    let client = Client::builder().management(&base, "key-id", "secret").retry_policy(fast_retries()).build().unwrap();
    let (org, service, _) = ids();
    let error = client.list_pipes(org, service).unwrap_err();
    match &error {
        Error::Transport(failure) => assert_eq!(failure.error().kind(), TransportErrorKind::Connect, "{error}"),
        other => panic!("expected a connect failure, got {other:?}"),
    }
    assert_eq!(error.attempts(), 3, "connect failures are retried: {error}");
    assert!(!error.outcome_unknown());
    assert!(error.to_string().contains("after 3 attempts"), "{error}");
}

#[test]
fn plain_http_is_refused_off_loopback() {
    match Client::management("http://api.example.com", "key-id", "secret") {
        Err(ConfigError::InsecureUrl(url)) => assert_eq!(url, "http://api.example.com"),
        other => panic!("expected an insecure-URL refusal, got {other:?}"),
    }
    assert!(Client::management("https://api.example.com", "key-id", "secret").is_ok());
    assert!(Client::management("http://127.0.0.1:9", "key-id", "secret").is_ok());
    assert!(Client::management("http://localhost:9", "key-id", "secret").is_ok());
    assert!(Client::management("http://[::1]:9", "key-id", "secret").is_ok());
    let opted_in =
        Client::builder().management("http://api.example.com", "key-id", "secret").allow_insecure_http(true).build();
    assert!(opted_in.is_ok());
}

#[test]
fn the_builder_and_the_transport_apply_one_loopback_rule() {
    let fake = Fake::demo();
    let server = fake.serve().unwrap();
    let port = server.address().port();
    let (org, service) = (DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID);
    let credentials = || ManagementCredentials::new(DEMO_KEY_ID, DEMO_KEY_SECRET).unwrap();

    // `localhost` is loopback for both: the client reaches the fake on 127.0.0.1.
    let client = Client::management(&format!("http://localhost:{port}"), DEMO_KEY_ID, DEMO_KEY_SECRET).unwrap();
    assert!(!client.list_pipes(org, service).unwrap().is_empty());
    let requests = fake.request_count();

    // `api.localhost` is not (a resolver may send it to DNS): refused by the builder...
    let url = format!("http://api.localhost:{port}");
    assert!(!BaseUrl::parse(&url).unwrap().is_loopback());
    match Client::management(&url, DEMO_KEY_ID, DEMO_KEY_SECRET) {
        Err(ConfigError::InsecureUrl(refused)) => assert_eq!(refused, url),
        other => panic!("expected an insecure-URL refusal, got {other:?}"),
    }
    // ...and by the transport used on its own, before anything is sent.
    let api = Management::new(BaseUrl::parse(&url).unwrap(), credentials());
    let error = ListPipes::new(org, service).send(&api, &UreqTransport::default()).unwrap_err();
    match &error {
        Error::Transport(failure) => assert_eq!(failure.error().kind(), TransportErrorKind::Refused, "{error}"),
        other => panic!("expected a refusal, got {other:?}"),
    }
    assert!(!error.outcome_unknown(), "nothing was sent");
    assert_eq!(error.attempts(), 1);
    assert_eq!(fake.request_count(), requests, "nothing reached the fake");
}

#[test]
fn plain_http_off_loopback_is_refused_by_the_transport_without_retries() {
    // A transport that refuses what the URL asks for: the retry policy must not try again.
    let api = Management::new(
        BaseUrl::parse("http://api.example.invalid").unwrap(),
        ManagementCredentials::new("key-id", "secret").unwrap(),
    );
    let (org, service, _) = ids();
    let request = ListPipes::new(org, service).build_request(&api).unwrap();
    let failure = UreqTransport::default().send(request).unwrap_err();
    assert_eq!(failure.kind(), TransportErrorKind::Refused, "{failure}");
    assert!(!failure.may_have_reached_server());
    // What the client's loop (and any driver of proto's policy) makes of it: stop, at once.
    let now = time::OffsetDateTime::UNIX_EPOCH;
    let decision = RetryPolicy::default()
        .decide(&Attempt::new(&Method::GET, Outcome::Refused, 1, Duration::ZERO, now), &mut SeededJitter::new(1));
    assert_eq!(decision, Decision::Stop(StopReason::NotRetryable));
}

#[test]
fn configuration_from_the_environment() {
    let env = |pairs: &'static [(&'static str, &'static str)]| {
        move |name: &str| pairs.iter().find(|(n, _)| *n == name).map(|(_, v)| (*v).to_owned())
    };
    let both = Client::builder()
        .env_with(env(&[
            ("PIPE_API_URL", "https://api.example.com"),
            ("PIPE_API_KEY_ID", "id"),
            ("PIPE_API_KEY_SECRET", "secret"),
            ("PIPE_ALERTS_URL", "https://alerts.example.com"),
            ("PIPE_ALERTS_TOKEN", "token"),
        ]))
        .unwrap()
        .build();
    assert!(both.is_ok());
    let missing = Client::builder().env_with(env(&[("PIPE_API_URL", "https://api.example.com")]));
    assert!(matches!(missing, Err(ConfigError::MissingVariable("PIPE_API_KEY_ID"))));
    let nothing = Client::builder().env_with(env(&[])).unwrap().build();
    assert!(matches!(nothing, Err(ConfigError::NoInterface)));
    let bad_key = Client::builder()
        .env_with(env(&[
            ("PIPE_API_URL", "https://a.example.com"),
            ("PIPE_API_KEY_ID", "a:b"),
            ("PIPE_API_KEY_SECRET", "s"),
        ]))
        .unwrap()
        .build();
    assert!(matches!(bad_key, Err(ConfigError::Credentials(_))));
}

#[test]
fn an_interface_that_is_not_configured_is_a_build_error() {
    let client = Client::alerting("https://alerts.example.com", "token").unwrap();
    let (org, service, _) = ids();
    match client.list_pipes(org, service) {
        Err(Error::Build(error)) => assert!(error.to_string().contains("no management interface"), "{error}"),
        other => panic!("expected a build error, got {other:?}"),
    }
}

#[test]
fn every_request_header_reaches_the_server() {
    let server = RawServer::start(|mut connection| {
        while connection.read_request().is_some() {
            connection.write(&http_response(
                "200 OK",
                &[("content-type", "application/json")],
                br#"{"status":200,"requestId":"r","result":[]}"#,
            ));
        }
    });
    let client = Client::management(&server.base_url(), "key-id", "secret").unwrap();
    let (org, service, _) = ids();
    assert!(client.list_pipes(org, service).unwrap().is_empty());
    let seen = &server.requests()[0];
    assert_eq!(seen.request_line, format!("GET /v1/organizations/{ORG}/services/{SERVICE}/pipes HTTP/1.1"));
    assert_eq!(seen.header("accept"), Some("application/json"));
    assert_eq!(seen.header("user-agent"), Some(pipe_api_proto::USER_AGENT_VALUE));
    assert_eq!(seen.header("authorization"), Some("Basic a2V5LWlkOnNlY3JldA=="));
}
