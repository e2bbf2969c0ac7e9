//! The whole product in one run.
//!
//! With no configuration it starts the built-in fake of both services on 127.0.0.1 and, through
//! the real ureq client over HTTP, walks a pipe's whole life: creates a key and works with it,
//! reads the service, creates a pipe of each source kind, waits until one runs, scales it,
//! changes a setting, stops it, deletes it and shows the typed 404 that follows; creates a
//! reverse private endpoint, waits until it is ready and deletes it; creates, updates and
//! deletes an alert; and lists what is left.
//!
//! With `PIPE_API_URL`, `PIPE_API_KEY_ID`, `PIPE_API_KEY_SECRET`, `PIPE_API_ORG_ID` and
//! `PIPE_API_SERVICE_ID` set (and optionally `PIPE_ALERTS_URL` and `PIPE_ALERTS_TOKEN`), it runs
//! only the read-only operations against that deployment; `--create-key` also creates a key
//! there.
//!
//! ```sh
//! cargo run -p pipe-api-ureq --example quickstart
//! ```

use std::process::ExitCode;
use std::time::Duration;

use pipe_api_fake::Fake;
use pipe_api_proto::ListAlerts;
use pipe_api_proto::wait::reverse_private_endpoint_ready;
use pipe_api_types::{
    AlertChannel, AlertInterval, AlertRequest, Authentication, CreateKeyRequest, CreateKeyResponse, CreatePipeRequest,
    CreateReversePrivateEndpointRequest, Credentials, DataFormat, Destination, DestinationColumn, FieldMapping,
    IpAccessEntry, IteratorType, KafkaOffset, KafkaSource, KafkaType, KeyRole, KinesisSource, Nullable,
    ObjectStorageSource, ObjectStorageType, OffsetStrategy, OrganizationId, Pipe, PipeCommand, PostgresSettings,
    PostgresSource, PostgresTableMapping, ReplicationMode, ReversePrivateEndpoint, ServiceId, ThresholdType,
    UpdatePipeScalingRequest,
};
use pipe_api_ureq::{Client, WaitPolicy, pipe_settled, pipe_stopped};

type Outcome = Result<(), Box<dyn std::error::Error>>;

fn main() -> ExitCode {
    let create_key = std::env::args().any(|arg| arg == "--create-key");
    let result = match std::env::var("PIPE_API_URL") {
        Ok(url) if !url.is_empty() => against_deployment(create_key),
        _ => against_fake(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // The error names the operation, the status, the server's message and request id.
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

/// A pipe's whole life, against the fake served on 127.0.0.1.
fn against_fake() -> Outcome {
    let fake = Fake::demo();
    // The fake's clock moves 10 s with each request, so that what takes the real services
    // minutes (a pipe provisioning, an endpoint becoming ready) happens within a few polls.
    fake.advance_per_request(Duration::from_secs(10));
    let server = fake.serve()?;
    println!("fake services listening on {}", server.base_url());
    let org = pipe_api_fake::DEMO_ORGANIZATION_ID;
    let service = pipe_api_fake::DEMO_SERVICE_ID;
    let admin = Client::builder()
        .management(&server.base_url(), pipe_api_fake::DEMO_KEY_ID, pipe_api_fake::DEMO_KEY_SECRET)
        .alerting(&server.base_url(), pipe_api_fake::DEMO_ALERTS_TOKEN)
        .build()?;

    step("create key");
    let mut request = CreateKeyRequest::new("quickstart", [KeyRole::Admin]);
    request.ip_access_list = Some(vec![IpAccessEntry::new("203.0.113.0/24", "office")]);
    let created = admin.create_key(org, request)?;
    let key_id = created.key_id.clone().ok_or("the server returned no key id")?;
    let key_secret = created.key_secret.clone().ok_or("the server returned no key secret")?;
    println!(
        "  key {} ({}), secret {:?}",
        created.key.as_ref().map(|k| k.id.to_string()).unwrap_or_default(),
        key_id,
        key_secret
    );

    // From here on, the new key does the work: its credentials really are checked.
    let client = Client::builder()
        .management(&server.base_url(), &key_id, key_secret)
        .alerting(&server.base_url(), pipe_api_fake::DEMO_ALERTS_TOKEN)
        .build()?;
    // Polls every 50 to 200 ms: the fake moves on per request, not per second.
    let mut poll = WaitPolicy::default();
    poll.initial_delay = Duration::from_millis(50);
    poll.max_delay = Duration::from_millis(200);

    read_service(&client, org, service)?;

    step("create a pipe of each source kind");
    let mut created_pipes = Vec::new();
    for request in demo_pipe_requests() {
        let pipe = client.create_pipe(org, service, request)?;
        print_pipe(&pipe);
        created_pipes.push(pipe.id);
    }
    let pipe = created_pipes[0];

    step("wait until the Kafka pipe runs (polling get)");
    print_pipe(&client.wait_for_pipe(org, service, pipe, pipe_settled, poll.clone())?);

    step("scale it to 2 replicas");
    let scaled = client.update_pipe_scaling(org, service, pipe, UpdatePipeScalingRequest::default().replicas(2))?;
    println!("  replicas {}", scaled.scaling.as_ref().and_then(|s| s.replicas).unwrap_or_default());

    step("change a setting (read, change, replace: unknown settings are kept)");
    let settings = client.get_pipe_settings(org, service, pipe)?;
    let settings = client.update_pipe_settings(org, service, pipe, settings.streaming_max_insert_wait_ms(500))?;
    let wait = settings.streaming_max_insert_wait_ms.and_then(Nullable::into_value);
    println!("  streaming_max_insert_wait_ms {}", wait.unwrap_or_default());

    step("stop it, and wait until it has stopped");
    print_pipe(&client.change_pipe_state(org, service, pipe, PipeCommand::Stop)?);
    print_pipe(&client.wait_for_pipe(org, service, pipe, pipe_stopped, poll.clone())?);

    step("delete it");
    client.delete_pipe(org, service, pipe)?;
    match client.get_pipe(org, service, pipe) {
        Ok(pipe) => println!("  unexpectedly still there: {}", pipe.id),
        // A typed 404: the error names the operation, the status and the server's message.
        Err(error) if error.is_not_found() => println!("  gone: {error}"),
        Err(error) => return Err(error.into()),
    }

    step("create a reverse private endpoint, wait until it is ready, delete it");
    let endpoint = client.create_reverse_private_endpoint(
        org,
        service,
        CreateReversePrivateEndpointRequest::vpc_endpoint_service(
            "com.amazonaws.vpce.eu-west-1.vpce-svc-0123456789abcdef0",
        )
        .description("kafka brokers"),
    )?;
    print_endpoint(&endpoint);
    let ready =
        client.wait_for_reverse_private_endpoint(org, service, endpoint.id, reverse_private_endpoint_ready, poll)?;
    print_endpoint(&ready);
    client.delete_reverse_private_endpoint(org, service, endpoint.id)?;
    println!("  deleted {}", endpoint.id);

    step("create, update and delete an alert");
    let request = AlertRequest::saved_search(
        "65f5e4a3c9e77d0a1b2c3d4e",
        ThresholdType::Above,
        100.0,
        AlertInterval::FiveMinutes,
        AlertChannel::webhook("65f5e4a3c9e77d0a1b2c3d4f"),
    )
    .name("too many errors");
    let alert = client.create_alert(request)?;
    println!("  created {} {:?}", alert.id, alert.name.as_deref().unwrap_or("-"));
    // A PUT replaces the whole alert: start from the alert as read, so nothing is lost.
    let alert = client.update_alert(alert.id.clone(), AlertRequest::from(alert).threshold(250.0))?;
    println!("  threshold now {}", alert.threshold.unwrap_or_default());
    client.delete_alert(alert.id.clone())?;
    println!("  deleted {}", alert.id);

    read_pipes_and_more(&client, org, service, true)
}

fn print_pipe(pipe: &Pipe) {
    println!(
        "  {} {:<16} {:<15} {}",
        pipe.id,
        pipe.name.as_deref().unwrap_or("-"),
        pipe.source.as_ref().and_then(|s| s.kind()).map(|k| k.to_string()).unwrap_or_default(),
        pipe.state.as_ref().map(|s| s.to_string()).unwrap_or_default(),
    );
}

fn print_endpoint(endpoint: &ReversePrivateEndpoint) {
    println!(
        "  {} {:<24} {}",
        endpoint.id,
        endpoint.kind.as_ref().map(|k| k.to_string()).unwrap_or_default(),
        endpoint.status.as_ref().map(|s| s.to_string()).unwrap_or_default()
    );
}

/// What a user who asked for a key is shown: the one time the secret exists outside the
/// server, so it is shown in clear, once, and marked as such (`Debug` of a `Secret` prints
/// `[redacted]`, and printing it that way lost the key).
fn created_key_notice(created: &CreateKeyResponse) -> String {
    let key_id = created.key_id.as_deref().unwrap_or("(none)");
    match &created.key_secret {
        Some(secret) => format!(
            "  key {key_id} created.\n  KEY SECRET (shown only this once; store it now, it cannot be read again):\n  {}",
            secret.expose_secret()
        ),
        None => format!("  key {key_id} created; the server returned no secret (was hashData sent?)"),
    }
}

/// Read-only operations against a real deployment configured by environment variables.
fn against_deployment(create_key: bool) -> Outcome {
    let org: OrganizationId = env("PIPE_API_ORG_ID")?.parse()?;
    let service: ServiceId = env("PIPE_API_SERVICE_ID")?.parse()?;
    let client = Client::from_env()?;
    if create_key {
        step("create key (asked with --create-key)");
        let created = client.create_key(org, CreateKeyRequest::new("pipe-api-quickstart", [KeyRole::Developer]))?;
        println!("{}", created_key_notice(&created));
    }
    read_service(&client, org, service)?;
    let alerts = std::env::var("PIPE_ALERTS_URL").is_ok_and(|url| !url.is_empty());
    read_pipes_and_more(&client, org, service, alerts)
}

fn env(name: &str) -> Result<String, String> {
    std::env::var(name).map_err(|_| format!("{name} must be set with PIPE_API_URL"))
}

fn step(name: &str) {
    println!("\n== {name}");
}

fn read_service(client: &Client, org: OrganizationId, service: ServiceId) -> Outcome {
    step("get service");
    let service = client.get_service(org, service)?;
    println!("  {} {}", service.id, service.name.as_deref().unwrap_or("-"));
    for endpoint in service.endpoints.iter().flatten() {
        println!(
            "  endpoint {} {}:{}",
            endpoint.protocol.as_ref().map(|p| p.to_string()).unwrap_or_default(),
            endpoint.host.as_deref().unwrap_or("-"),
            endpoint.port.unwrap_or(0)
        );
    }
    Ok(())
}

fn read_pipes_and_more(client: &Client, org: OrganizationId, service: ServiceId, alerts: bool) -> Outcome {
    step("list pipes");
    let pipes = client.list_pipes(org, service)?;
    for pipe in &pipes {
        println!(
            "  {} {:<22} {}",
            pipe.id,
            pipe.name.as_deref().unwrap_or("-"),
            pipe.state.as_ref().map(|s| s.to_string()).unwrap_or_default()
        );
    }

    if let Some(first) = pipes.first() {
        step("get pipe");
        let pipe = client.get_pipe(org, service, first.id)?;
        let destination = pipe.destination.as_ref();
        println!(
            "  {} -> {}.{}",
            pipe.name.as_deref().unwrap_or("-"),
            destination.and_then(|d| d.database.as_deref()).unwrap_or("-"),
            destination.and_then(|d| d.table.as_deref()).unwrap_or("-")
        );
    }

    step("list reverse private endpoints");
    for endpoint in client.list_reverse_private_endpoints(org, service)? {
        println!(
            "  {} {:<28} {}",
            endpoint.id,
            endpoint.kind.as_ref().map(|k| k.to_string()).unwrap_or_default(),
            endpoint.status.as_ref().map(|s| s.to_string()).unwrap_or_default()
        );
    }

    if alerts {
        step("list alerts");
        let page = client.list_alerts(ListAlerts::new())?;
        for alert in &page.alerts {
            println!(
                "  {} {:<24} {:<8} team {}",
                alert.id,
                alert.name.as_deref().unwrap_or("-"),
                alert.state.as_ref().map(|s| s.to_string()).unwrap_or_default(),
                alert.resolved_team_id().unwrap_or("-")
            );
        }
        if let Some(total) = page.total {
            println!("  {} of {total} alerts", page.alerts.len());
        }
    }
    Ok(())
}

/// One create-pipe request per source kind, each with what a real server needs.
fn demo_pipe_requests() -> Vec<CreatePipeRequest> {
    let events_table = |table: &str| {
        Destination::default()
            .database("default")
            .table(table)
            .managed_table(true)
            .columns([DestinationColumn::new("id", "String"), DestinationColumn::new("at", "DateTime64(3)")])
    };
    let mappings = [FieldMapping::new("id", "id"), FieldMapping::new("timestamp", "at")];

    // Each kind's `new` takes what the service requires of it; the rest are setters.
    let kafka = KafkaSource::new(
        KafkaType::Confluent,
        DataFormat::JsonEachRow,
        "pkc-1234.eu-west-1.aws.confluent.cloud:9092",
        "events",
        Authentication::Plain,
    )
    .credentials(Credentials::user_password("ingest", "demo-password"))
    .offset(KafkaOffset::default().strategy(OffsetStrategy::FromBeginning));
    let storage = ObjectStorageSource::new(
        ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://bucket.s3.eu-west-1.amazonaws.com/logs/**.ndjson.gz",
    )
    .authentication(Authentication::IamRole)
    .iam_role("arn:aws:iam::123456789012:role/ingest")
    .is_continuous(true);
    let kinesis = KinesisSource::new(
        DataFormat::JsonEachRow,
        "clicks",
        "eu-west-1",
        IteratorType::TrimHorizon,
        Authentication::IamUser,
    )
    .access_key(Credentials::access_key("AKIAEXAMPLE", "demo-secret-key"));
    let postgres = PostgresSource::new(
        "db.example.com",
        5432,
        "shop",
        [PostgresTableMapping::new("public", "orders", "public_orders")],
    )
    .credentials(Credentials::user_password("replicator", "demo-password"))
    .settings(PostgresSettings::default().replication_mode(ReplicationMode::Cdc));

    vec![
        CreatePipeRequest::new("kafka-events", kafka, events_table("kafka_events")).field_mappings(mappings.clone()),
        CreatePipeRequest::new("s3-logs", storage, events_table("s3_logs")).field_mappings(mappings.clone()),
        CreatePipeRequest::new("kinesis-clicks", kinesis, events_table("clicks")).field_mappings(mappings),
        CreatePipeRequest::new("postgres-shop", postgres, Destination::default().database("shop")),
    ]
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `--create-key` against a deployment: the user sees the new key's id and secret, once.
    #[test]
    fn a_created_key_is_shown_with_its_secret() {
        let fake = Fake::demo();
        let server = fake.serve().unwrap();
        let client =
            Client::management(&server.base_url(), pipe_api_fake::DEMO_KEY_ID, pipe_api_fake::DEMO_KEY_SECRET).unwrap();
        let created = client
            .create_key(pipe_api_fake::DEMO_ORGANIZATION_ID, CreateKeyRequest::new("shown", [KeyRole::Developer]))
            .unwrap();
        let notice = created_key_notice(&created);
        let secret = created.key_secret.as_ref().unwrap().expose_secret();
        assert!(notice.contains(secret), "{notice}");
        assert!(notice.contains(created.key_id.as_deref().unwrap()), "{notice}");
        assert!(notice.contains("KEY SECRET (shown only this once"), "{notice}");
        assert!(!notice.contains("[redacted]"), "{notice}");
    }
}
