//! Realistic, valid requests for the end-to-end tests, each secret carrying a marker so a test
//! can prove where it did and did not travel.

use pipe_api_types::{
    Authentication, CreateKeyRequest, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn,
    IteratorType, KafkaOffset, KafkaSource, KafkaType, KeyRole, KinesisSource, ObjectStorageSource, ObjectStorageType,
    OffsetStrategy, PostgresSettings, PostgresSource, PostgresTableMapping, ReplicationMode,
};

/// A create-key request a real server accepts.
pub fn create_key_request(name: &str) -> CreateKeyRequest {
    CreateKeyRequest::new(name, [KeyRole::Developer])
}

/// One valid create-pipe request per source kind (Kafka, object storage, Kinesis, Postgres), in
/// that order, with `marker` inside every secret they hold.
pub fn create_pipe_requests(marker: &str) -> Vec<CreatePipeRequest> {
    let table = |name: &str| {
        Destination::default()
            .database("default")
            .table(name)
            .managed_table(true)
            .columns([DestinationColumn::new("id", "String"), DestinationColumn::new("at", "DateTime64(3)")])
    };
    let kafka = KafkaSource::new(
        KafkaType::Confluent,
        DataFormat::JsonEachRow,
        "broker.example:9092",
        "events",
        Authentication::Plain,
    )
    .credentials(Credentials::user_password("ingest", format!("kafka-password-{marker}")))
    .offset(KafkaOffset::default().strategy(OffsetStrategy::FromBeginning));
    let storage = ObjectStorageSource::new(
        ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://bucket.s3.eu-west-1.amazonaws.com/logs/*.json",
    )
    .authentication(Authentication::IamUser)
    .access_key(Credentials::access_key("AKIAEXAMPLE", format!("storage-secret-{marker}")));
    let kinesis = KinesisSource::new(
        DataFormat::JsonEachRow,
        "clicks",
        "eu-west-1",
        IteratorType::TrimHorizon,
        Authentication::IamUser,
    )
    .access_key(Credentials::access_key("AKIAEXAMPLE", format!("kinesis-secret-{marker}")));
    let postgres = PostgresSource::new(
        "db.example",
        5432,
        "shop",
        [PostgresTableMapping::new("public", "orders", "public_orders")],
    )
    .credentials(Credentials::user_password("replicator", format!("postgres-password-{marker}")))
    .settings(PostgresSettings::default().replication_mode(ReplicationMode::Cdc));
    vec![
        CreatePipeRequest::new("kafka-events", kafka, table("kafka_events")),
        CreatePipeRequest::new("storage-logs", storage, table("logs")),
        CreatePipeRequest::new("kinesis-clicks", kinesis, table("clicks")),
        CreatePipeRequest::new("postgres-shop", postgres, Destination::default().database("shop")),
    ]
}
