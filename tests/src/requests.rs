//! Realistic, valid requests for the end-to-end tests, each secret carrying a marker so a test
//! can prove where it did and did not travel.

use pipe_api_types::{
    Authentication, CreateKeyRequest, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn,
    IteratorType, KafkaOffset, KafkaSource, KafkaType, KeyRole, KinesisSource, ObjectStorageSource, ObjectStorageType,
    OffsetStrategy, PipeSource, PostgresSettings, PostgresSource, PostgresTableMapping, ReplicationMode,
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
    let kafka = KafkaSource::default()
        .kind(KafkaType::Confluent)
        .format(DataFormat::JsonEachRow)
        .brokers("broker.example:9092")
        .topics("events")
        .authentication(Authentication::Plain)
        .credentials(Credentials::user_password("ingest", format!("kafka-password-{marker}")))
        .offset(KafkaOffset::default().strategy(OffsetStrategy::FromBeginning));
    let storage = ObjectStorageSource::default()
        .kind(ObjectStorageType::S3)
        .format(DataFormat::JsonEachRow)
        .url("https://bucket.s3.eu-west-1.amazonaws.com/logs/*.json")
        .authentication(Authentication::IamUser)
        .access_key(Credentials::access_key("AKIAEXAMPLE", format!("storage-secret-{marker}")));
    let kinesis = KinesisSource::default()
        .format(DataFormat::JsonEachRow)
        .stream_name("clicks")
        .region("eu-west-1")
        .iterator_type(IteratorType::TrimHorizon)
        .authentication(Authentication::IamUser)
        .access_key(Credentials::access_key("AKIAEXAMPLE", format!("kinesis-secret-{marker}")));
    let postgres = PostgresSource::default()
        .host("db.example")
        .port(5432u16)
        .database("shop")
        .credentials(Credentials::user_password("replicator", format!("postgres-password-{marker}")))
        .settings(PostgresSettings::default().replication_mode(ReplicationMode::Cdc))
        .table_mappings([PostgresTableMapping::default()
            .source_schema_name("public")
            .source_table("orders")
            .target_table("public_orders")]);
    vec![
        CreatePipeRequest::new("kafka-events", PipeSource::default().kafka(kafka), table("kafka_events")),
        CreatePipeRequest::new("storage-logs", PipeSource::default().object_storage(storage), table("logs")),
        CreatePipeRequest::new("kinesis-clicks", PipeSource::default().kinesis(kinesis), table("clicks")),
        CreatePipeRequest::new(
            "postgres-shop",
            PipeSource::default().postgres(postgres),
            Destination::default().database("shop"),
        ),
    ]
}
