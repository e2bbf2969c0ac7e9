//! The user's side of issue "errors that explain, requests the compiler checks": the lines a
//! user writes for each friction, in their new form.

use std::time::Duration;

use pipe_api_proto::test_util::{RecordingTransport, response};
use pipe_api_proto::{redacted_json, render_request};
use pipe_api_tests::ids;
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::{CreateKeyRequest, PipeCommand, ServiceCommand};
use pipe_api_ureq::{Client, TransportConfig};

#[test]
fn a_refused_request_says_what_to_fix() {
    let client = Client::management("https://api.example.com", "key-id", "key-secret").unwrap();
    let (org, _, _) = ids();
    let error = client.create_key(org, CreateKeyRequest::new("ci", [])).unwrap_err();
    // What the quickstart prints, and what `main() -> Result` prints.
    for shown in [error.to_string(), format!("{error:?}")] {
        assert_eq!(shown, "create_key: nothing was sent: invalid request: `roles` must have at least 1 element");
    }
    let violations = error.validation().unwrap().violations();
    assert_eq!(
        (violations[0].path.as_str(), violations[0].rule.to_string()),
        ("roles", "must have at least 1 element".to_owned())
    );
}

#[test]
fn what_the_client_sent_is_read_back_from_a_recording_it_owns() {
    let recording = RecordingTransport::new().respond(response(
        200,
        r#"{"status":200,"requestId":"r-1","result":{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","state":"Running"}}"#,
    ));
    let client = Client::builder()
        .management("https://api.example.com", "key-id", "key-secret")
        .transport(recording.clone())
        .build()
        .unwrap();
    let (org, service, pipe) = ids();
    // Both state commands are built alike: the command converts into its request.
    client.change_pipe_state(org, service, pipe, PipeCommand::Stop).unwrap();
    let sent = recording.requests();
    assert_eq!(sent.len(), 1);
    let shown = render_request(&sent[0]);
    assert!(shown.starts_with("PATCH https://api.example.com/v1/organizations/"), "{shown}");
    assert!(shown.contains("\"command\": \"stop\""), "{shown}");
    let _ = pipe_api_proto::UpdateServiceState::new(org, service, ServiceCommand::Awake);
}

#[test]
fn a_json_snapshot_of_a_request_model_shows_no_secret() {
    // Every create request of the workload carries marker credentials.
    for request in create_pipe_requests("SNAPSHOT-MARKER") {
        let clear = serde_json::to_string(&request).unwrap();
        let redacted = redacted_json(&request).unwrap().to_string();
        // The model's own `Serialize` writes its secrets, as the request must carry them.
        assert!(clear.contains("SNAPSHOT-MARKER"), "{clear}");
        assert!(!redacted.contains("SNAPSHOT-MARKER"), "{redacted}");
        assert!(redacted.contains("[redacted]"), "{redacted}");
    }
}

#[test]
fn policies_are_set_in_one_line() {
    let retry = pipe_api_ureq::RetryPolicy::default().deadline(Duration::from_secs(10)).max_attempts(3);
    let wait = pipe_api_ureq::WaitPolicy::default().deadline(Duration::from_secs(120)).pauses(
        Duration::from_secs(1),
        2.0,
        Duration::from_secs(15),
    );
    assert_eq!(
        (retry.deadline, retry.max_attempts, wait.deadline),
        (Duration::from_secs(10), 3, Duration::from_secs(120))
    );
}

#[test]
fn ids_are_given_once() {
    use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
    use pipe_api_ureq::types::PipeState;
    use pipe_api_ureq::{WaitPolicy, pipe_running};

    let fake = Fake::demo();
    fake.advance_per_request(Duration::from_secs(10));
    let client = Client::builder()
        .management("https://api.example.com", DEMO_KEY_ID, DEMO_KEY_SECRET)
        .transport(fake.clone())
        .clock(pipe_api_ureq::VirtualClock::new(fake.now()))
        .build()
        .unwrap();

    let service = client.service(ORG, SERVICE);
    let before = service.list_pipes().unwrap().len();
    let created = service.create_pipe(create_pipe_requests("scoped").remove(0)).unwrap();
    let pipe = service.pipe(created.id);
    let running = pipe.wait(pipe_running, WaitPolicy::default().deadline(Duration::from_secs(600))).unwrap();
    assert_eq!(running.state, Some(PipeState::Running));
    assert_eq!(pipe.get_pipe().unwrap().id, created.id);
    pipe.change_pipe_state(PipeCommand::Stop).unwrap();
    assert_eq!(service.list_pipes().unwrap().len(), before + 1);
    assert_eq!(client.organization(ORG).service(SERVICE).get_service().unwrap().id, SERVICE);
}

#[test]
fn literals_as_users_write_them() {
    use pipe_api_ureq::types::{ResourceTag, Scaling};

    let scaling = Scaling::default().replica_memory_gb(2).replica_cpu_millicores(2000).replicas(2);
    let memory = scaling.replica_memory_gb.clone().unwrap();
    assert!(memory == 2 && memory == 2.0);
    assert!(scaling.replica_cpu_millicores.unwrap() == 2000);
    assert_eq!(ResourceTag::key_only("team").key.as_deref(), Some("team"));
    assert_eq!(ResourceTag::key_only("team").value, None);
}

#[test]
fn lists_as_users_write_them() {
    use pipe_api_ureq::types::{
        IpAccessEntry, KeyRole, PostgresTableMapping, PrivateEndpointIdsPatch, ResourceTag, ScalingScheduleEntry,
        TagsPatch, UpdateKeyRequest, UpdateServiceRequest,
    };

    // An empty list, with no annotation, in each way it is written; it is sent, as `[]`.
    let closed = UpdateKeyRequest::new().ip_access_list([]);
    assert_eq!(serde_json::to_string(&closed).unwrap(), r#"{"ipAccessList":[]}"#);
    let emptied = UpdateKeyRequest::new().roles(vec![]).ip_access_list(Vec::new());
    assert_eq!(serde_json::to_string(&emptied).unwrap(), r#"{"roles":[],"ipAccessList":[]}"#);
    let untagged = UpdateServiceRequest::new().tags(TagsPatch::new().remove([])).private_endpoint_ids(
        PrivateEndpointIdsPatch::new().add(vec![]).remove(["vpce-0a1b2c3d4e5f", "vpce-9f8e7d6c5b4a"]),
    );
    assert_eq!(
        serde_json::to_value(&untagged).unwrap(),
        serde_json::json!({
            "privateEndpointIds": {"add": [], "remove": ["vpce-0a1b2c3d4e5f", "vpce-9f8e7d6c5b4a"]},
            "tags": {"remove": []},
        })
    );

    // Texts for a list of texts: literals, and the user's own `String`s through an iterator.
    let hidden: Vec<String> = ["card_number", "cvv"].map(String::from).to_vec();
    let mapping = PostgresTableMapping::new("public", "orders", "public_orders")
        .use_custom_sorting_key(true)
        .sorting_keys(["customer_id", "created_at"])
        .excluded_columns(hidden.iter());
    assert_eq!(mapping.sorting_keys.unwrap(), ["customer_id", "created_at"]);
    assert_eq!(mapping.excluded_columns.unwrap(), ["card_number", "cvv"]);
    let table = String::from("orders");
    assert_eq!(PostgresTableMapping::default().sorting_keys([table]).sorting_keys.unwrap(), ["orders"]);
    // Texts for a list of open-enum values, as its single setter takes them.
    assert_eq!(UpdateKeyRequest::new().roles(["developer"]).roles, Some(vec![KeyRole::Developer]));

    // The list's own items: an array, a `Vec`, an iterator; numbers as plain literals.
    let offices = [("203.0.113.0/24", "office"), ("2001:db8::1", "vpn")];
    let key = UpdateKeyRequest::new()
        .roles([KeyRole::Developer, KeyRole::QueryEndpoints])
        .ip_access_list(offices.iter().map(|(source, description)| IpAccessEntry::new(*source, *description)));
    assert_eq!(key.ip_access_list.unwrap().len(), 2);
    let tagged = TagsPatch::new().add(vec![ResourceTag::new("env", "prod")]);
    assert_eq!(tagged.add.unwrap(), [ResourceTag::new("env", "prod")]);
    assert_eq!(ScalingScheduleEntry::default().weekdays([1, 2, 3, 4, 5]).weekdays, Some(vec![1, 2, 3, 4, 5]));
    let office_hours = ScalingScheduleEntry::default().start_hour_utc(8).end_hour_utc(18);
    assert_eq!((office_hours.start_hour_utc, office_hours.end_hour_utc), (Some(8), Some(18)));
}

#[test]
fn a_shared_client_over_a_custom_transport_sends_from_four_threads_at_once() {
    use std::sync::{Arc, Condvar, Mutex};

    use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
    use pipe_api_proto::Transport as _;

    // Each request waits until four are in flight (or 10 s): sent one at a time, none would
    // ever see more than one.
    let fake = Fake::demo();
    let flight = Arc::new((Mutex::new((0usize, 0usize)), Condvar::new()));
    let (gate, inner) = (Arc::clone(&flight), fake.clone());
    let transport = move |request: http::Request<Vec<u8>>| {
        let (lock, arrived) = &*gate;
        let mut counts = lock.lock().unwrap();
        counts.0 += 1;
        counts.1 = counts.1.max(counts.0);
        arrived.notify_all();
        let (mut counts, _) = arrived.wait_timeout_while(counts, Duration::from_secs(10), |c| c.1 < 4).unwrap();
        counts.0 -= 1;
        drop(counts);
        inner.send(request)
    };
    let client = Client::builder()
        .management("https://api.example.com", DEMO_KEY_ID, DEMO_KEY_SECRET)
        .transport(transport)
        .build()
        .unwrap();
    std::thread::scope(|scope| {
        for _ in 0..4 {
            scope.spawn(|| client.get_service(ORG, SERVICE).unwrap());
        }
    });
    assert_eq!(flight.0.lock().unwrap().1, 4, "four requests were in flight at once");
}

#[test]
fn an_s3_pipe_built_with_the_destination_constructors_validates() {
    use pipe_api_ureq::types::{
        CreatePipeRequest, DataFormat, Destination, DestinationColumn, ObjectStorageSource, ObjectStorageType, Validate,
    };

    let source = ObjectStorageSource::new(
        ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://bucket.s3.amazonaws.com/logs/*.json",
    );
    for destination in [
        Destination::managed("logs", [DestinationColumn::new("line", "String")]),
        Destination::existing("logs", [DestinationColumn::new("line", "String")]).database("analytics"),
    ] {
        let request = CreatePipeRequest::new("logs", source.clone(), destination);
        assert!(request.validate().is_ok(), "{:?}", request.validate());
    }
    // What the contract requires is what the constructors take: without columns, it says so.
    let request = CreatePipeRequest::new("logs", source, Destination::existing("logs", []));
    assert!(request.validate().unwrap_err().to_string().contains("`destination.columns` must have at least 1 element"));
}

#[test]
fn tls_for_real_with_a_root_the_user_gives() {
    use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
    use pipe_api_ureq::proto::TransportErrorKind;

    // The fake behind a TLS listener whose certificate was made just now, for `localhost`.
    let fake = Fake::demo();
    let server = pipe_api_tests::TlsServer::start(move |request| fake.handle(request));
    let client = |config: TransportConfig| {
        Client::builder()
            .management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET)
            .transport_config(config)
            .build()
            .unwrap()
    };

    // The default build's TLS (rustls, the bundled roots): the certificate is not trusted.
    let error = client(TransportConfig::default()).get_service(ORG, SERVICE).unwrap_err();
    match &error {
        pipe_api_ureq::Error::Transport(failure) => {
            assert_eq!(failure.error().kind(), TransportErrorKind::Connect, "{error}")
        }
        other => panic!("{other}"),
    }
    // Its root given, as behind a company's TLS inspection: the call goes through.
    let trusted = TransportConfig::default().with_root_certificates_pem(server.root_pem().as_bytes()).unwrap();
    assert_eq!(client(trusted).get_service(ORG, SERVICE).unwrap().id, SERVICE);
    // A PEM text with no certificate is refused when set.
    assert!(TransportConfig::default().with_root_certificates_pem(b"not a certificate").is_err());
}

#[test]
fn a_proxy_is_used_when_set() {
    use pipe_api_tests::RawServer;

    // A local HTTP proxy that answers every request itself.
    // ureq asks a proxy for a tunnel (CONNECT), then sends the request through it.
    let proxy = RawServer::start(|mut connection| {
        let Some(connect) = connection.read_request() else { return };
        assert!(connect.request_line.starts_with("CONNECT api.example.com:80"), "{}", connect.request_line);
        connection.write(b"HTTP/1.1 200 Connection established\r\n\r\n");
        if connection.read_request().is_some() {
            let body = r#"{"status":200,"requestId":"via-proxy","result":[]}"#;
            connection.write(
                format!(
                    "HTTP/1.1 200 OK\r\ncontent-type: application/json\r\ncontent-length: {}\r\n\r\n{body}",
                    body.len()
                )
                .as_bytes(),
            );
        }
    });
    let mut config = TransportConfig::default().with_proxy(&proxy.base_url()).unwrap();
    config.allow_insecure_http = true;
    let client = Client::builder()
        .management("http://api.example.com", "key-id", "key-secret")
        .allow_insecure_http(true)
        .transport_config(config)
        .build()
        .unwrap();
    let (org, service, _) = ids();
    assert!(client.list_pipes(org, service).unwrap().is_empty());
    let seen = proxy.requests();
    assert_eq!(seen.len(), 2);
    assert!(seen[0].request_line.starts_with("CONNECT api.example.com:80"), "{}", seen[0].request_line);
    assert!(seen[1].request_line.starts_with("GET /v1/organizations/"), "{}", seen[1].request_line);
    assert!(TransportConfig::default().with_proxy("not a url").is_err());
    // No SOCKS in this build: refused when set (ureq itself would panic at the first request).
    assert!(TransportConfig::default().with_proxy("socks5://127.0.0.1:1080").is_err());
}

#[test]
fn a_proxy_password_does_not_show_in_the_configs_debug() {
    let config = TransportConfig::default().with_proxy("http://user:hunter2-proxy@proxy.example:3128").unwrap();
    let shown = format!("{config:?}");
    assert!(shown.contains("proxy.example"), "{shown}");
    assert!(!shown.contains("hunter2-proxy"), "{shown}");
}
