//! One create-pipe request per source kind and flavour, written by hand from the management
//! OpenAPI (`PipePostRequest` and its source schemas, their descriptions and examples) into
//! `fixtures/create_pipe/`. For each: the same request built with the constructors and setters
//! validates, its built body equals the hand-written JSON, its rendering matches a snapshot, and
//! the fake accepts it through the ureq client (the pipe read back has every field sent, but
//! no secret) and as the raw body.

use base64::Engine as _;
use http::{Method, Request};
use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_proto::{BaseUrl, CreatePipe, EndpointExt, Management, ManagementCredentials};
use pipe_api_tests::fast_retries;
use pipe_api_types::{
    Authentication, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn, FieldMapping,
    IteratorType, KafkaOffset, KafkaSource, KafkaType, KinesisSource, ObjectStorageSource, ObjectStorageType,
    OffsetStrategy, PipeSettings, PipeState, PostgresSettings, PostgresSource, PostgresTableMapping, PostgresType,
    ReplicationMode, Scaling, SchemaRegistry, TableDefinition, TableEngine, TableEngineType, Validate,
};
use pipe_api_ureq::Client;
use serde_json::Value;

/// Fields that carry credentials: sent, never echoed back (service notes, Pipes).
const SECRET_FIELDS: &[&str] = &["credentials", "accessKey", "connectionString", "serviceAccountKey"];

/// Checks one case: `fixture` is the hand-written body, `request` the same built in code.
fn check(name: &str, fixture: &str, request: CreatePipeRequest) {
    let fixture: Value = serde_json::from_str(fixture).unwrap();
    assert!(request.validate().is_ok(), "{name}: {:?}", request.validate());

    // The body built equals the hand-written one; the rendering is pinned.
    let api = Management::new(
        BaseUrl::parse("https://api.example.invalid").unwrap(),
        ManagementCredentials::new("test-key-id", "test-key-secret").unwrap(),
    );
    let built = CreatePipe::new(ORG, SERVICE, request.clone()).build_request(&api).unwrap();
    let body: Value = serde_json::from_slice(built.body()).unwrap();
    assert_eq!(body, fixture, "{name}: the built body differs from the fixture");
    insta::assert_snapshot!(name, pipe_api_proto::render_request(&built));

    // Through the client to the fake: accepted, and read back with every field but no secret.
    let server = Fake::demo().serve().unwrap();
    let client = Client::builder()
        .management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(fast_retries())
        .build()
        .unwrap();
    let created = client.create_pipe(ORG, SERVICE, request).unwrap();
    assert_eq!(created.state, Some(PipeState::Provisioning), "{name}");
    let read = client.get_pipe(ORG, SERVICE, created.id).unwrap();
    let read = serde_json::to_value(&read).unwrap();
    for part in ["name", "source", "destination", "fieldMappings", "settings"] {
        if let Some(sent) = fixture.get(part) {
            let got = read.get(part).unwrap_or_else(|| panic!("{name}: `{part}` not read back"));
            assert_sent_fields(got, sent, &format!("{name}: {part}"));
        }
    }
    let text = read.to_string();
    for secret in secret_values(&fixture) {
        assert!(!text.contains(&secret), "{name}: a credential came back: {secret}");
    }

    // The raw hand-written body, straight to the fake.
    let raw = Request::builder()
        .method(Method::POST)
        .uri(format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes"))
        .header("authorization", basic())
        .header("content-type", "application/json")
        .body(fixture.to_string().into_bytes())
        .unwrap();
    let answer = Fake::demo().handle(raw);
    assert!(answer.status().is_success(), "{name}: {}", String::from_utf8_lossy(answer.body()));
}

fn basic() -> String {
    let pair = format!("{DEMO_KEY_ID}:{DEMO_KEY_SECRET}");
    format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(pair))
}

/// Every field of `sent`, but its secrets, is in `got` with the same value.
fn assert_sent_fields(got: &Value, sent: &Value, at: &str) {
    match (got, sent) {
        (Value::Object(got), Value::Object(sent)) => {
            for (key, value) in sent.iter().filter(|(key, _)| !SECRET_FIELDS.contains(&key.as_str())) {
                let inner = got.get(key).unwrap_or_else(|| panic!("{at}.{key}: not read back"));
                assert_sent_fields(inner, value, &format!("{at}.{key}"));
            }
        }
        (Value::Array(got), Value::Array(sent)) => {
            assert_eq!(got.len(), sent.len(), "{at}");
            for (i, (got, sent)) in got.iter().zip(sent).enumerate() {
                assert_sent_fields(got, sent, &format!("{at}[{i}]"));
            }
        }
        (got, sent) => assert_eq!(got, sent, "{at}"),
    }
}

/// The text values under the secret fields of `value`.
fn secret_values(value: &Value) -> Vec<String> {
    fn texts(value: &Value, out: &mut Vec<String>) {
        match value {
            Value::String(text) => out.push(text.clone()),
            Value::Object(members) => members.values().for_each(|v| texts(v, out)),
            Value::Array(items) => items.iter().for_each(|v| texts(v, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    match value {
        Value::Object(members) => {
            for (key, inner) in members {
                if SECRET_FIELDS.contains(&key.as_str()) {
                    texts(inner, &mut out);
                } else {
                    out.extend(secret_values(inner));
                }
            }
        }
        Value::Array(items) => items.iter().for_each(|v| out.extend(secret_values(v))),
        _ => {}
    }
    out
}

fn table(database: Option<&str>, table: &str, columns: &[(&str, &str)]) -> Destination {
    let destination = Destination::default()
        .table(table)
        .managed_table(true)
        .columns(columns.iter().map(|(name, kind)| DestinationColumn::new(*name, *kind)));
    match database {
        Some(database) => destination.database(database),
        None => destination,
    }
}

#[test]
fn kafka_confluent_plain() {
    let source = KafkaSource::new(
        KafkaType::Confluent,
        DataFormat::AvroConfluent,
        "pkc-aa00.us-east-2.aws.confluent.cloud:9092",
        "orders",
        Authentication::Plain,
    )
    .consumer_group("my-pipe-consumer-group")
    .credentials(Credentials::user_password("CONFLUENT-API-KEY", "CONFLUENT-API-SECRET"))
    .offset(
        KafkaOffset::default()
            .strategy(OffsetStrategy::FromTimestamp)
            .timestamp(time::macros::datetime!(2021-01-01 00:00)),
    )
    .schema_registry(
        SchemaRegistry::default()
            .url("https://psrc-aa00.us-east-2.aws.confluent.cloud/schemas/ids/100004")
            .authentication(Authentication::Plain)
            .credentials(Credentials::user_password("REGISTRY-API-KEY", "REGISTRY-API-SECRET")),
    );
    let destination = table(Some("default"), "orders", &[("order_id", "UInt64"), ("amount", "Decimal(18, 2)")])
        .table_definition(
            TableDefinition::default()
                .engine(TableEngine::default().kind(TableEngineType::MergeTree))
                .sorting_key(["order_id"]),
        );
    let request = CreatePipeRequest::new("confluent-orders", source, destination)
        .field_mappings([FieldMapping::new("order_id", "order_id"), FieldMapping::new("amount", "amount")])
        .scaling(Scaling::default().replicas(2));
    check("kafka_confluent_plain", include_str!("fixtures/create_pipe/kafka_confluent_plain.json"), request);
}

#[test]
fn kafka_azure_event_hubs() {
    let source = KafkaSource::new(
        KafkaType::AzureEventHub,
        DataFormat::JsonEachRow,
        "myeventhubns.servicebus.windows.net:9093",
        "telemetry",
        Authentication::Plain,
    )
    .credentials(Credentials::from_connection_string(
        "Endpoint=sb://myeventhubns.servicebus.windows.net/;SharedAccessKeyName=RootManageSharedAccessKey;\
         SharedAccessKey=EVENT-HUBS-KEY",
    ))
    .offset(KafkaOffset::default().strategy(OffsetStrategy::FromLatest));
    let destination = table(None, "telemetry", &[("device_id", "String"), ("reading", "Float64")]);
    let request = CreatePipeRequest::new("event-hubs-telemetry", source, destination);
    check("kafka_azure_event_hubs", include_str!("fixtures/create_pipe/kafka_azure_event_hubs.json"), request);
}

#[test]
fn kafka_msk_iam_role() {
    let brokers = "b-1.mycluster.abc123.c2.kafka.us-east-1.amazonaws.com:9098,\
                   b-2.mycluster.abc123.c2.kafka.us-east-1.amazonaws.com:9098";
    let source = KafkaSource::new(KafkaType::Msk, DataFormat::JsonEachRow, brokers, "events", Authentication::IamRole)
        .iam_role("arn:aws:iam::123456789012:role/MyRole")
        .offset(KafkaOffset::default().strategy(OffsetStrategy::FromBeginning))
        .exactly_once(true);
    let destination = table(Some("analytics"), "events", &[("event_id", "String"), ("occurred_at", "DateTime64(3)")]);
    let request = CreatePipeRequest::new("msk-events", source, destination)
        .settings(PipeSettings::default().streaming_max_insert_wait_ms(5000));
    check("kafka_msk_iam_role", include_str!("fixtures/create_pipe/kafka_msk_iam_role.json"), request);
}

#[test]
fn s3_iam_role_continuous_without_a_database() {
    let source = ObjectStorageSource::new(
        ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://datasets-documentation.s3.eu-west-3.amazonaws.com/http/**.ndjson.gz",
    )
    .compression("auto")
    .is_continuous(true)
    .queue_url("https://sqs.us-east-1.amazonaws.com/123456789012/MyQueue")
    .authentication(Authentication::IamRole)
    .iam_role("arn:aws:iam::123456789012:role/MyRole");
    let destination = table(None, "http_logs", &[("request", "String"), ("status", "UInt16"), ("size", "UInt64")]);
    let request = CreatePipeRequest::new("s3-http-logs", source, destination);
    check("s3_iam_role_continuous", include_str!("fixtures/create_pipe/s3_iam_role_continuous.json"), request);
}

#[test]
fn gcs_service_account() {
    let source = ObjectStorageSource::new(
        ObjectStorageType::Gcs,
        DataFormat::Parquet,
        "https://storage.googleapis.com/my-bucket/exports/*.parquet",
    )
    .authentication(Authentication::ServiceAccount)
    .service_account_key("eyJ0eXBlIjoic2VydmljZV9hY2NvdW50IiwicHJvamVjdF9pZCI6Im15LXByb2plY3QifQ==");
    let destination = table(Some("default"), "exports", &[("id", "UInt64"), ("payload", "String")]);
    let request = CreatePipeRequest::new("gcs-exports", source, destination);
    check("gcs_service_account", include_str!("fixtures/create_pipe/gcs_service_account.json"), request);
}

#[test]
fn azure_blob_storage() {
    let source = ObjectStorageSource::azure_blob_storage(DataFormat::JsonEachRow, "mycontainer")
        .path("data/logs/*.json")
        .authentication(Authentication::ConnectionString)
        .connection_string(
            "DefaultEndpointsProtocol=https;AccountName=myaccount;AccountKey=mykey;EndpointSuffix=core.windows.net",
        );
    let destination = table(None, "logs", &[("level", "String"), ("message", "String")]);
    let request = CreatePipeRequest::new("azure-logs", source, destination);
    check("azure_blob_storage", include_str!("fixtures/create_pipe/azure_blob_storage.json"), request);
}

#[test]
fn kinesis_iam_user_at_a_timestamp() {
    let source = KinesisSource::new(
        DataFormat::JsonEachRow,
        "my-stream",
        "us-east-1",
        IteratorType::AtTimestamp,
        Authentication::IamUser,
    )
    .use_enhanced_fan_out(true)
    .timestamp(time::OffsetDateTime::from_unix_timestamp(1_615_766_400).unwrap())
    .access_key(Credentials::access_key("AKIAIOSFODNN7EXAMPLE", "KINESIS-SECRET-KEY"));
    let destination = table(None, "clicks", &[("user_id", "String"), ("url", "String")]);
    let request = CreatePipeRequest::new("kinesis-clicks", source, destination);
    check("kinesis_iam_user", include_str!("fixtures/create_pipe/kinesis_iam_user.json"), request);
}

#[test]
fn postgres_cdc_only_with_a_replication_slot() {
    let users = PostgresTableMapping::new("public", "users", "public_users")
        .excluded_columns(["internal_id", "temp_data"])
        .table_engine(TableEngineType::ReplacingMergeTree);
    let events = PostgresTableMapping::new("public", "events", "public_events")
        .use_custom_sorting_key(true)
        .sorting_keys(["created_at_date", "event_id"])
        .partition_by_expr("toYYYYMM(created_at)")
        .table_engine(TableEngineType::MergeTree);
    let source = PostgresSource::new("my-postgres-server.example.com", 5432, "production_db", [users, events])
        .kind(PostgresType::RdsPostgres)
        .authentication(Authentication::Basic)
        .credentials(Credentials::user_password("postgres_user", "your_secure_password"))
        .settings(
            PostgresSettings::default()
                .replication_mode(ReplicationMode::CdcOnly)
                .replication_slot_name("pipes_slot")
                .publication_name("pipes_publication")
                .sync_interval_seconds(60)
                .pull_batch_size(1000)
                .allow_nullable_columns(false),
        );
    let request =
        CreatePipeRequest::new("postgres-cdc", source, Destination::default().database("production_db_replica"));
    check("postgres_cdc_only", include_str!("fixtures/create_pipe/postgres_cdc_only.json"), request);
}
