//! What the create requests serialize to, pinned: the create-key request and one create-pipe
//! request per source kind, each with what a real server needs to create a working pipe.

use pipe_api_types::{
    Authentication, CreateKeyRequest, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn,
    FieldMapping, IpAccessEntry, IteratorType, KafkaOffset, KafkaSource, KafkaType, KeyHashData, KeyRole, KeyState,
    KinesisSource, ObjectStorageSource, ObjectStorageType, OffsetStrategy, PipeSettings, PostgresSettings,
    PostgresSource, PostgresTableMapping, ReplicationMode, Scaling, TableDefinition, TableEngine, TableEngineType,
    Validate,
};
use time::macros::datetime;

fn destination(table: &str) -> Destination {
    Destination::default()
        .database("analytics")
        .table(table)
        .managed_table(true)
        .table_definition(
            TableDefinition::default()
                .engine(TableEngine::default().kind(TableEngineType::MergeTree))
                .sorting_key(["id"])
                .partition_by("toYYYYMM(at)"),
        )
        .columns([DestinationColumn::new("id", "String"), DestinationColumn::new("at", "DateTime64(3)")])
}

/// Every snapshot is of a request that validates: what is pinned is what would be sent.
fn snapshot_json(name: &str, request: &(impl serde::Serialize + Validate)) {
    request.validate().unwrap_or_else(|errors| panic!("{name}: {errors}"));
    insta::assert_json_snapshot!(name, request);
}

#[test]
fn create_key() {
    let mut request = CreateKeyRequest::new("ci-deployer", [KeyRole::Developer]);
    request.expire_at = Some(datetime!(2027-01-01 00:00:00 UTC));
    request.state = Some(KeyState::Enabled);
    request.ip_access_list =
        Some(vec![IpAccessEntry::new("203.0.113.0/24", "office"), IpAccessEntry::new("2001:db8::/48", "v6 office")]);
    snapshot_json("create_key", &request);

    let hashed = CreateKeyRequest::new("self-made", [KeyRole::Admin]).hash_data(
        KeyHashData::default()
            .key_id_hash("n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=")
            .key_id_suffix("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
            .key_secret_hash("2jmj7l5rSw0yVb/vlWAYkK/YBwk2jmj7l5rSw0yVb/s="),
    );
    snapshot_json("create_key_hash_data", &hashed);
}

#[test]
fn create_pipe_kafka() {
    let kafka = KafkaSource::new(
        KafkaType::Confluent,
        DataFormat::JsonEachRow,
        "pkc-1234.eu-west-1.aws.confluent.cloud:9092",
        "events",
        Authentication::Plain,
    )
    .consumer_group("clickpipes-events")
    .credentials(Credentials::user_password("ingest", "example-password"))
    .offset(KafkaOffset::default().strategy(OffsetStrategy::FromTimestamp).timestamp(datetime!(2021-01-01 00:00)));
    let request = CreatePipeRequest::new("kafka-events", kafka, destination("events"))
        .field_mappings([FieldMapping::new("id", "id"), FieldMapping::new("timestamp", "at")])
        .scaling(Scaling::default().replicas(2u32).concurrency(1u32))
        .settings(PipeSettings::default().streaming_max_insert_wait_ms(5000u64));
    snapshot_json("create_pipe_kafka", &request);
}

#[test]
fn create_pipe_object_storage() {
    let storage = ObjectStorageSource::new(
        ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://bucket.s3.eu-west-1.amazonaws.com/logs/**/*.ndjson.gz",
    )
    .is_continuous(true)
    .authentication(Authentication::IamUser)
    .access_key(Credentials::access_key("AKIAEXAMPLE", "example-secret-key"));
    let request = CreatePipeRequest::new("s3-logs", storage, destination("logs"));
    snapshot_json("create_pipe_object_storage", &request);
}

#[test]
fn create_pipe_kinesis() {
    let kinesis = KinesisSource::new(
        DataFormat::JsonEachRow,
        "clickstream",
        "eu-west-1",
        IteratorType::AtTimestamp,
        Authentication::IamRole,
    )
    .timestamp(datetime!(2024-01-01 00:00:00 UTC))
    .iam_role("arn:aws:iam::123456789012:role/clickpipes");
    let request = CreatePipeRequest::new("kinesis-clicks", kinesis, destination("clicks"));
    snapshot_json("create_pipe_kinesis", &request);
}

#[test]
fn create_pipe_postgres() {
    let postgres = PostgresSource::new(
        "shop.cluster-abc.eu-west-1.rds.amazonaws.com",
        5432,
        "shop",
        [PostgresTableMapping::new("public", "orders", "public_orders").excluded_columns(["card_number"])],
    )
    .credentials(Credentials::user_password("replicator", "example-password"))
    .settings(PostgresSettings::default().replication_mode(ReplicationMode::Cdc).publication_name("clickpipes_pub"));
    let request = CreatePipeRequest::new("shop-cdc", postgres, Destination::default().database("shop"));
    snapshot_json("create_pipe_postgres", &request);
}
