//! A user's own tests, written the way the README tells users to test their code with the fake:
//! seed the fake, serve it (or use it as a transport), run the code under test, and assert on
//! the result and on what was sent.

use pipe_api_fake::{Fake, Fault, FaultRule};
use pipe_api_proto::{BaseUrl, CreatePipe, EndpointExt, Error, ListPipes, Management, ManagementCredentials};
use pipe_api_tests::ids;
use pipe_api_types::{
    CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn, KafkaSource, KafkaType, KeyRole,
    OrganizationId, Pipe, PipeState, Service, ServiceId,
};
use pipe_api_ureq::Client;

// ---- the user's code under test -----------------------------------------------------------

/// Creates the `orders` pipe unless a pipe of that name exists; returns its id and whether it
/// was created.
fn ensure_orders_pipe(client: &Client, org: OrganizationId, service: ServiceId) -> Result<(String, bool), Error> {
    if let Some(existing) = client.list_pipes(org, service)?.into_iter().find(|p| p.name.as_deref() == Some("orders")) {
        return Ok((existing.id.to_string(), false));
    }
    let created = client.create_pipe(org, service, orders_pipe())?;
    Ok((created.id.to_string(), true))
}

fn orders_pipe() -> CreatePipeRequest {
    let source = KafkaSource::new(
        KafkaType::Kafka,
        DataFormat::JsonEachRow,
        "kafka-1.internal:9092,kafka-2.internal:9092",
        "orders",
        "PLAIN",
    )
    .credentials(Credentials::user_password("shop", "orders-password"));
    let destination = Destination::default()
        .database("shop")
        .table("orders")
        .managed_table(true)
        .columns([DestinationColumn::new("id", "UInt64"), DestinationColumn::new("total", "Decimal(18, 2)")]);
    CreatePipeRequest::new("orders", source, destination)
}

// ---- the user's tests -----------------------------------------------------------------------

fn seeded_fake() -> Fake {
    let (org, service, _) = ids();
    let fake = Fake::new();
    fake.seed_key(org, "test-key-id", "test-key-secret", [KeyRole::Admin]);
    fake.seed_service(org, Service::new(service).name("shop"));
    fake
}

#[test]
fn creates_the_pipe_once_then_finds_it() {
    let (org, service, _) = ids();
    let fake = seeded_fake();
    let server = fake.serve().unwrap();
    let client = Client::management(&server.base_url(), "test-key-id", "test-key-secret").unwrap();

    let (id, created) = ensure_orders_pipe(&client, org, service).unwrap();
    assert!(created);
    let (again, created_again) = ensure_orders_pipe(&client, org, service).unwrap();
    assert_eq!((again.as_str(), created_again), (id.as_str(), false));

    // What the code sent: list, create (with the expected body), list.
    let seen = fake.requests();
    let calls: Vec<String> = seen.iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    let pipes_path = format!("/v1/organizations/{org}/services/{service}/pipes");
    assert_eq!(calls, [format!("GET {pipes_path}"), format!("POST {pipes_path}"), format!("GET {pipes_path}")]);
    let body = seen[1].json().unwrap();
    assert_eq!(body["source"]["kafka"]["topics"], "orders");
    assert_eq!(body["destination"]["columns"][1]["type"], "Decimal(18, 2)");

    // The fake really stored it, in the state a new pipe has.
    let stored = fake.pipes(org, service);
    assert_eq!(stored.len(), 1);
    assert_eq!(stored[0].state, Some(PipeState::Provisioning));
}

#[test]
fn a_flaky_list_is_retried_but_a_failed_create_is_not_repeated() {
    let (org, service, _) = ids();
    let fake = seeded_fake();
    // The list meets a 503 once (retried), then the create meets a 502 (never re-sent).
    fake.inject(FaultRule::next(1, Fault::unavailable("0")));
    fake.inject(FaultRule::path_ends_with("/pipes", Fault::bad_gateway_html()).method(http::Method::POST));
    let server = fake.serve().unwrap();
    let client = Client::management(&server.base_url(), "test-key-id", "test-key-secret").unwrap();

    let error = ensure_orders_pipe(&client, org, service).unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    assert!(error.to_string().contains("list before creating again"), "{error}");
    let posts = fake.requests().iter().filter(|r| r.method == http::Method::POST).count();
    assert_eq!(posts, 1);
    assert_eq!(fake.request_count(), 3);
}

#[test]
fn an_existing_pipe_is_found_without_sockets() {
    // The same fake as a transport: no server, no port.
    let (org, service, _) = ids();
    let fake = seeded_fake();
    let existing: Pipe = Pipe::new("0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e".parse().unwrap()).name("orders");
    fake.seed_pipe(org, service, existing.clone());

    let api = Management::new(
        BaseUrl::parse("https://api.example.invalid").unwrap(),
        ManagementCredentials::new("test-key-id", "test-key-secret").unwrap(),
    );
    let pipes = ListPipes::new(org, service).send(&api, &fake).unwrap();
    assert_eq!(pipes.value, [existing]);

    // Wrong credentials are refused as by the real service.
    let wrong = Management::new(
        BaseUrl::parse("https://api.example.invalid").unwrap(),
        ManagementCredentials::new("test-key-id", "wrong").unwrap(),
    );
    let error = CreatePipe::new(org, service, orders_pipe()).send(&wrong, &fake).unwrap_err();
    let Error::Api(api_error) = error else { panic!("expected a 401") };
    assert_eq!(api_error.status(), 401);
    assert_eq!(fake.pipes(org, service).len(), 1);
}

#[test]
fn the_create_request_matches_its_snapshot() {
    let (org, service, _) = ids();
    let api = Management::new(
        BaseUrl::parse("https://api.example.invalid").unwrap(),
        ManagementCredentials::new("test-key-id", "test-key-secret").unwrap(),
    );
    let request = CreatePipe::new(org, service, orders_pipe()).build_request(&api).unwrap();
    insta::assert_snapshot!(pipe_api_proto::render_request(&request));
}
