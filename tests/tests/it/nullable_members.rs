//! `null` where the contracts allow it, and only there. The table below is written by hand from
//! the management and alerting contracts: every member of a `PATCH` or `PUT` request body whose
//! schema lets it be `null` (`["...", "null"]`, `nullable: true`, or a `oneOf` with
//! `{"type": "null"}`), by schema and path. For each: the request built with `Nullable::Null`
//! sends `null` at that path, reads back from that JSON the same (a user's file), validates, and
//! the fake, serving the operation, accepts it and applies it: an optional member is cleared
//! (set first, then read back without it), one a pipe cannot go without is kept as it was. The
//! members of a table mapping to remove, which this crate does not type as nullable, are listed
//! too: a `null` there is refused before sending, naming its path (what is left of issue 45).
//!
//! Then a `null` for a member the contract does not let be `null` is refused, by the client
//! naming the whole path, and by the fake on its own.

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_proto::{Error, Management, Raw};
use pipe_api_types::{
    AlertChannel, AlertId, AlertInterval, AlertRequest, Authentication, CreatePipeRequest, KafkaSourcePatch,
    KinesisSourcePatch, MongoDbSettingsPatch, MongoDbSourcePatch, MySqlSettingsPatch, MySqlSourcePatch, Nullable,
    ObjectStorageSourcePatch, PipeId, PipeSettings, PipeSourcePatch, PostgresSettingsPatch, PostgresSourcePatch,
    PubSubSourcePatch, ReadPreference, Rule, ServiceAccount, ThresholdType, UpdatePipeRequest,
    UpdatePipeScalingRequest, Validate, ValidationErrors,
};
use pipe_api_ureq::Client;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

use crate::clients::{api_status, demo_client};
use crate::ops_alerts::tile_alert;

/// A request of one of the operations whose bodies have nullable members.
// One at a time, built and dropped per row: the size of a variant costs nothing here.
#[allow(clippy::large_enum_variant)]
enum Body {
    /// `PATCH .../pipes/{pipeId}` (`PipePatchRequest`).
    Pipe(UpdatePipeRequest),
    /// `PATCH .../pipes/{pipeId}/scaling` (`PipeScalingPatchRequest`).
    Scaling(UpdatePipeScalingRequest),
    /// `PUT .../pipes/{pipeId}/settings` (`PipeSettingsPutRequest`).
    Settings(PipeSettings),
    /// `PUT /api/v2/alerts/{id}` (`UpdateAlertRequest`).
    Alert(AlertRequest),
    /// A pipe update only JSON can hold: a member the contract lets be `null` that this crate
    /// does not type so.
    Untyped(Value),
}

/// What the fake does with the `null`.
#[derive(Clone, Copy, Debug, PartialEq)]
enum Effect {
    /// The member is cleared: set first (to the row's sample), then read back without it.
    Cleared,
    /// The pipe is read back as it was: a member it cannot go without, an object (a `null`
    /// source, destination or settings edits nothing), or a credential, which is never read.
    Kept,
    /// Not typed as nullable: a `null` read from JSON is refused before sending, at the path.
    Refused,
}

use Effect::*;

/// One nullable member: its schema, its path in the request body, the pipe it is tried on
/// (a file of `fixtures/create_pipe/`; none for alerts), a value to set it to first, what the
/// `null` does, and the request that sends it.
struct Row {
    schema: &'static str,
    path: &'static str,
    pipe: &'static str,
    sample: Value,
    effect: Effect,
    body: fn() -> Body,
}

fn row(
    schema: &'static str,
    path: &'static str,
    pipe: &'static str,
    sample: Value,
    effect: Effect,
    body: fn() -> Body,
) -> Row {
    Row { schema, path, pipe, sample, effect, body }
}

fn patch(request: UpdatePipeRequest) -> Body {
    Body::Pipe(request)
}

fn source(source: PipeSourcePatch) -> Body {
    patch(UpdatePipeRequest::default().source(source))
}

fn kafka(patch: KafkaSourcePatch) -> Body {
    source(PipeSourcePatch::default().kafka(patch))
}

fn storage(patch: ObjectStorageSourcePatch) -> Body {
    source(PipeSourcePatch::default().object_storage(patch))
}

fn kinesis(patch: KinesisSourcePatch) -> Body {
    source(PipeSourcePatch::default().kinesis(patch))
}

fn postgres(patch: PostgresSourcePatch) -> Body {
    source(PipeSourcePatch::default().postgres(patch))
}

/// A MySQL update names `host` and `port` (`PipePatchMySQLSource.required`): the pipe's own.
fn mysql() -> MySqlSourcePatch {
    MySqlSourcePatch::default().host("my-mysql-server.example.com").port(3306)
}

fn mysql_body(patch: MySqlSourcePatch) -> Body {
    source(PipeSourcePatch::default().mysql(patch))
}

/// A MongoDB update names `uri` and `readPreference` (`PipePatchMongoDBSource.required`).
fn mongodb() -> MongoDbSourcePatch {
    MongoDbSourcePatch::default()
        .uri("mongodb+srv://mongo_user:MONGO-URI-PASSWORD@cluster0.example.mongodb.net/mydb")
        .read_preference(ReadPreference::SecondaryPreferred)
}

fn mongodb_body(patch: MongoDbSourcePatch) -> Body {
    source(PipeSourcePatch::default().mongodb(patch))
}

/// A Pub/Sub update names `authentication` and `serviceAccountKey`
/// (`PipePatchPubSubSource.required`).
fn pubsub() -> PubSubSourcePatch {
    PubSubSourcePatch::default()
        .authentication(Authentication::ServiceAccount)
        .service_account_key(ServiceAccount::new("UFVCU1VCLVNFUlZJQ0UtQUNDT1VOVC1GSUxF"))
}

fn pubsub_body(patch: PubSubSourcePatch) -> Body {
    source(PipeSourcePatch::default().pubsub(patch))
}

fn settings(settings: PipeSettings) -> Body {
    patch(UpdatePipeRequest::default().settings(settings))
}

fn scaling(scaling: UpdatePipeScalingRequest) -> Body {
    Body::Scaling(scaling)
}

fn put_settings(settings: PipeSettings) -> Body {
    Body::Settings(settings)
}

/// An alert on a saved search.
fn search_alert() -> AlertRequest {
    AlertRequest::saved_search(
        "65f1a2b3c4d5e6f708190400",
        ThresholdType::Above,
        100.0,
        AlertInterval::FifteenMinutes,
        AlertChannel::webhook("65f1a2b3c4d5e6f708190002"),
    )
}

/// A Postgres update removing a table mapping with `member` `null`.
fn remove_postgres_mapping(member: &str) -> Value {
    let mut mapping = json!({ "sourceSchemaName": "public", "sourceTable": "users", "targetTable": "public_users" });
    mapping[member] = Value::Null;
    json!({ "source": { "postgres": { "tableMappingsToRemove": [mapping] } } })
}

fn remove_mysql_mapping(member: &str) -> Value {
    let mut mapping =
        json!({ "sourceSchemaName": "my_database", "sourceTable": "users", "targetTable": "my_database_users" });
    mapping[member] = Value::Null;
    let mysql = json!({ "host": "my-mysql-server.example.com", "port": 3306, "tableMappingsToRemove": [mapping] });
    json!({ "source": { "mysql": mysql } })
}

fn remove_mongodb_mapping(member: &str) -> Value {
    let mut mapping = json!({ "sourceDatabaseName": "mydb", "sourceCollection": "users", "targetTable": "mydb_users" });
    mapping[member] = Value::Null;
    let mongodb = json!({
        "uri": "mongodb+srv://mongo_user:MONGO-URI-PASSWORD@cluster0.example.mongodb.net/mydb",
        "readPreference": "secondaryPreferred",
        "tableMappingsToRemove": [mapping],
    });
    json!({ "source": { "mongodb": mongodb } })
}

const KAFKA: &str = "kafka_msk_iam_role";
const STORAGE: &str = "s3_iam_role_continuous";
const KINESIS: &str = "kinesis_iam_user";
const POSTGRES: &str = "postgres_cdc_only";
const MYSQL: &str = "mysql_cdc";
const MONGODB: &str = "mongodb_cdc";
const PUBSUB: &str = "pubsub_timestamp";
const NO_PIPE: &str = "";

/// Every nullable member of a `PATCH` or `PUT` body of the two contracts.
#[rustfmt::skip]
fn table() -> Vec<Row> {
    const PATCH: &str = "PipePatchRequest";
    const SETTINGS: &str = "PipeSettings";
    const SCALING: &str = "PipeScalingPatchRequest";
    const PUT: &str = "PipeSettingsPutRequest";
    const ALERT: &str = "UpdateAlertRequest";
    let n = Value::Null;
    vec![
        // PipePatchRequest: the name, and the objects (a `null` object edits nothing).
        row(PATCH, "name", KAFKA, n.clone(), Kept, || patch(UpdatePipeRequest::default().name(Nullable::Null))),
        row(PATCH, "source", KAFKA, n.clone(), Kept, || patch(UpdatePipeRequest::default().source(Nullable::Null))),
        row(PATCH, "destination", KAFKA, n.clone(), Kept, || patch(UpdatePipeRequest::default().destination(Nullable::Null))),
        row(PATCH, "settings", KAFKA, n.clone(), Kept, || patch(UpdatePipeRequest::default().settings(Nullable::Null))),
        // PipePatchSource: each kind but postgres.
        row("PipePatchSource", "source.kafka", KAFKA, n.clone(), Kept, || source(PipeSourcePatch::default().kafka(Nullable::Null))),
        row("PipePatchSource", "source.objectStorage", STORAGE, n.clone(), Kept, || source(PipeSourcePatch::default().object_storage(Nullable::Null))),
        row("PipePatchSource", "source.kinesis", KINESIS, n.clone(), Kept, || source(PipeSourcePatch::default().kinesis(Nullable::Null))),
        row("PipePatchSource", "source.pubsub", PUBSUB, n.clone(), Kept, || source(PipeSourcePatch::default().pubsub(Nullable::Null))),
        row("PipePatchSource", "source.mysql", MYSQL, n.clone(), Kept, || source(PipeSourcePatch::default().mysql(Nullable::Null))),
        row("PipePatchSource", "source.mongodb", MONGODB, n.clone(), Kept, || source(PipeSourcePatch::default().mongodb(Nullable::Null))),
        // PipePatchKafkaSource.
        row("PipePatchKafkaSource", "source.kafka.authentication", KAFKA, n.clone(), Kept, || kafka(KafkaSourcePatch::default().authentication(Nullable::Null))),
        row("PipePatchKafkaSource", "source.kafka.iamRole", KAFKA, json!("arn:aws:iam::123456789012:role/Other"), Cleared, || kafka(KafkaSourcePatch::default().iam_role(Nullable::Null))),
        row("PipePatchKafkaSource", "source.kafka.caCertificate", KAFKA, json!("-----BEGIN CERTIFICATE-----"), Cleared, || kafka(KafkaSourcePatch::default().ca_certificate(Nullable::Null))),
        // PipePatchObjectStorageSource.
        row("PipePatchObjectStorageSource", "source.objectStorage.skipInitialLoad", STORAGE, json!(true), Cleared, || storage(ObjectStorageSourcePatch::default().skip_initial_load(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.startAfter", STORAGE, json!("http/2024-01-01.ndjson.gz"), Cleared, || storage(ObjectStorageSourcePatch::default().start_after(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.authentication", STORAGE, n.clone(), Kept, || storage(ObjectStorageSourcePatch::default().authentication(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.iamRole", STORAGE, json!("arn:aws:iam::123456789012:role/Other"), Cleared, || storage(ObjectStorageSourcePatch::default().iam_role(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.connectionString", STORAGE, n.clone(), Kept, || storage(ObjectStorageSourcePatch::default().connection_string(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.path", STORAGE, json!("logs/*.json"), Cleared, || storage(ObjectStorageSourcePatch::default().path(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.azureContainerName", STORAGE, json!("container"), Cleared, || storage(ObjectStorageSourcePatch::default().azure_container_name(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.accessKey", STORAGE, n.clone(), Kept, || storage(ObjectStorageSourcePatch::default().access_key(Nullable::Null))),
        row("PipePatchObjectStorageSource", "source.objectStorage.serviceAccountKey", STORAGE, n.clone(), Kept, || storage(ObjectStorageSourcePatch::default().service_account_key(Nullable::Null))),
        // PipePatchKinesisSource.
        row("PipePatchKinesisSource", "source.kinesis.authentication", KINESIS, n.clone(), Kept, || kinesis(KinesisSourcePatch::default().authentication(Nullable::Null))),
        row("PipePatchKinesisSource", "source.kinesis.iamRole", KINESIS, json!("arn:aws:iam::123456789012:role/Other"), Cleared, || kinesis(KinesisSourcePatch::default().iam_role(Nullable::Null))),
        row("PipePatchKinesisSource", "source.kinesis.accessKey", KINESIS, n.clone(), Kept, || kinesis(KinesisSourcePatch::default().access_key(Nullable::Null))),
        // PipePatchPostgresSource and its settings.
        row("PipePatchPostgresSource", "source.postgres.host", POSTGRES, n.clone(), Kept, || postgres(PostgresSourcePatch::default().host(Nullable::Null))),
        row("PipePatchPostgresSource", "source.postgres.port", POSTGRES, n.clone(), Kept, || postgres(PostgresSourcePatch::default().port(Nullable::Null))),
        row("PipePatchPostgresSource", "source.postgres.database", POSTGRES, n.clone(), Kept, || postgres(PostgresSourcePatch::default().database(Nullable::Null))),
        row("PipePatchPostgresSource", "source.postgres.tlsHost", POSTGRES, json!("db.example"), Cleared, || postgres(PostgresSourcePatch::default().tls_host(Nullable::Null))),
        row("PipePatchPostgresSource", "source.postgres.caCertificate", POSTGRES, json!("-----BEGIN CERTIFICATE-----"), Cleared, || postgres(PostgresSourcePatch::default().ca_certificate(Nullable::Null))),
        row("PipePatchPostgresSource", "source.postgres.disableTls", POSTGRES, json!(true), Cleared, || postgres(PostgresSourcePatch::default().disable_tls(Nullable::Null))),
        row("PipePatchPostgresSource", "source.postgres.skipCertVerification", POSTGRES, json!(true), Cleared, || postgres(PostgresSourcePatch::default().skip_cert_verification(Nullable::Null))),
        row("PipePatchPostgresPipeSettings", "source.postgres.settings.syncIntervalSeconds", POSTGRES, json!(30), Cleared, || postgres(PostgresSourcePatch::default().settings(PostgresSettingsPatch::default().sync_interval_seconds(Nullable::Null)))),
        row("PipePatchPostgresPipeSettings", "source.postgres.settings.pullBatchSize", POSTGRES, json!(500), Cleared, || postgres(PostgresSourcePatch::default().settings(PostgresSettingsPatch::default().pull_batch_size(Nullable::Null)))),
        // PipePatchMySQLSource and its settings.
        row("PipePatchMySQLSource", "source.mysql.host", MYSQL, n.clone(), Kept, || mysql_body(mysql().host(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.port", MYSQL, n.clone(), Kept, || mysql_body(mysql().port(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.authentication", MYSQL, n.clone(), Kept, || mysql_body(mysql().authentication(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.iamRole", MYSQL, json!("arn:aws:iam::123456789012:role/Other"), Cleared, || mysql_body(mysql().iam_role(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.tlsHost", MYSQL, json!("db.example"), Cleared, || mysql_body(mysql().tls_host(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.caCertificate", MYSQL, json!("-----BEGIN CERTIFICATE-----"), Cleared, || mysql_body(mysql().ca_certificate(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.disableTls", MYSQL, json!(true), Cleared, || mysql_body(mysql().disable_tls(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.skipCertVerification", MYSQL, json!(true), Cleared, || mysql_body(mysql().skip_cert_verification(Nullable::Null))),
        row("PipePatchMySQLSource", "source.mysql.serverId", MYSQL, json!(7), Cleared, || mysql_body(mysql().server_id(Nullable::Null))),
        row("PipePatchMySQLPipeSettings", "source.mysql.settings.syncIntervalSeconds", MYSQL, json!(30), Cleared, || mysql_body(mysql().settings(MySqlSettingsPatch::default().sync_interval_seconds(Nullable::Null)))),
        row("PipePatchMySQLPipeSettings", "source.mysql.settings.pullBatchSize", MYSQL, json!(500), Cleared, || mysql_body(mysql().settings(MySqlSettingsPatch::default().pull_batch_size(Nullable::Null)))),
        row("PipePatchMySQLPipeSettings", "source.mysql.settings.useCompression", MYSQL, json!(false), Cleared, || mysql_body(mysql().settings(MySqlSettingsPatch::default().use_compression(Nullable::Null)))),
        // PipePatchMongoDBSource and its settings.
        row("PipePatchMongoDBSource", "source.mongodb.uri", MONGODB, n.clone(), Kept, || mongodb_body(mongodb().uri(Nullable::Null))),
        row("PipePatchMongoDBSource", "source.mongodb.readPreference", MONGODB, n.clone(), Kept, || mongodb_body(mongodb().read_preference(Nullable::Null))),
        row("PipePatchMongoDBSource", "source.mongodb.tlsHost", MONGODB, json!("db.example"), Cleared, || mongodb_body(mongodb().tls_host(Nullable::Null))),
        row("PipePatchMongoDBSource", "source.mongodb.disableTls", MONGODB, json!(true), Cleared, || mongodb_body(mongodb().disable_tls(Nullable::Null))),
        row("PipePatchMongoDBSource", "source.mongodb.skipCertVerification", MONGODB, json!(true), Cleared, || mongodb_body(mongodb().skip_cert_verification(Nullable::Null))),
        row("PipePatchMongoDBSource", "source.mongodb.caCertificate", MONGODB, json!("-----BEGIN CERTIFICATE-----"), Cleared, || mongodb_body(mongodb().ca_certificate(Nullable::Null))),
        row("PipePatchMongoDBPipeSettings", "source.mongodb.settings.syncIntervalSeconds", MONGODB, json!(30), Cleared, || mongodb_body(mongodb().settings(MongoDbSettingsPatch::default().sync_interval_seconds(Nullable::Null)))),
        row("PipePatchMongoDBPipeSettings", "source.mongodb.settings.pullBatchSize", MONGODB, json!(500), Cleared, || mongodb_body(mongodb().settings(MongoDbSettingsPatch::default().pull_batch_size(Nullable::Null)))),
        // PipePatchPubSubSource.
        row("PipePatchPubSubSource", "source.pubsub.authentication", PUBSUB, n.clone(), Kept, || pubsub_body(pubsub().authentication(Nullable::Null))),
        row("PipePatchPubSubSource", "source.pubsub.ackDeadline", PUBSUB, json!(120), Cleared, || pubsub_body(pubsub().ack_deadline(Nullable::Null))),
        row("PipePatchPubSubSource", "source.pubsub.serviceAccountKey", PUBSUB, n.clone(), Kept, || pubsub_body(pubsub().service_account_key(Nullable::Null))),
        // The table mappings to remove: not typed as nullable (each names what to remove).
        row("PipePatchPostgresPipeRemoveTableMapping", "source.postgres.tableMappingsToRemove[0].sourceSchemaName", POSTGRES, n.clone(), Refused, || Body::Untyped(remove_postgres_mapping("sourceSchemaName"))),
        row("PipePatchPostgresPipeRemoveTableMapping", "source.postgres.tableMappingsToRemove[0].sourceTable", POSTGRES, n.clone(), Refused, || Body::Untyped(remove_postgres_mapping("sourceTable"))),
        row("PipePatchPostgresPipeRemoveTableMapping", "source.postgres.tableMappingsToRemove[0].targetTable", POSTGRES, n.clone(), Refused, || Body::Untyped(remove_postgres_mapping("targetTable"))),
        row("PipePatchPostgresPipeRemoveTableMapping", "source.postgres.tableMappingsToRemove[0].tableEngine", POSTGRES, n.clone(), Refused, || Body::Untyped(remove_postgres_mapping("tableEngine"))),
        row("PipePatchPostgresPipeRemoveTableMapping", "source.postgres.tableMappingsToRemove[0].partitionKey", POSTGRES, n.clone(), Refused, || Body::Untyped(remove_postgres_mapping("partitionKey"))),
        row("PipePatchPostgresPipeRemoveTableMapping", "source.postgres.tableMappingsToRemove[0].partitionByExpr", POSTGRES, n.clone(), Refused, || Body::Untyped(remove_postgres_mapping("partitionByExpr"))),
        row("PipePatchMySQLPipeRemoveTableMapping", "source.mysql.tableMappingsToRemove[0].sourceSchemaName", MYSQL, n.clone(), Refused, || Body::Untyped(remove_mysql_mapping("sourceSchemaName"))),
        row("PipePatchMySQLPipeRemoveTableMapping", "source.mysql.tableMappingsToRemove[0].sourceTable", MYSQL, n.clone(), Refused, || Body::Untyped(remove_mysql_mapping("sourceTable"))),
        row("PipePatchMySQLPipeRemoveTableMapping", "source.mysql.tableMappingsToRemove[0].targetTable", MYSQL, n.clone(), Refused, || Body::Untyped(remove_mysql_mapping("targetTable"))),
        row("PipePatchMySQLPipeRemoveTableMapping", "source.mysql.tableMappingsToRemove[0].tableEngine", MYSQL, n.clone(), Refused, || Body::Untyped(remove_mysql_mapping("tableEngine"))),
        row("PipePatchMySQLPipeRemoveTableMapping", "source.mysql.tableMappingsToRemove[0].partitionKey", MYSQL, n.clone(), Refused, || Body::Untyped(remove_mysql_mapping("partitionKey"))),
        row("PipePatchMongoDBPipeRemoveTableMapping", "source.mongodb.tableMappingsToRemove[0].sourceDatabaseName", MONGODB, n.clone(), Refused, || Body::Untyped(remove_mongodb_mapping("sourceDatabaseName"))),
        row("PipePatchMongoDBPipeRemoveTableMapping", "source.mongodb.tableMappingsToRemove[0].sourceCollection", MONGODB, n.clone(), Refused, || Body::Untyped(remove_mongodb_mapping("sourceCollection"))),
        row("PipePatchMongoDBPipeRemoveTableMapping", "source.mongodb.tableMappingsToRemove[0].targetTable", MONGODB, n.clone(), Refused, || Body::Untyped(remove_mongodb_mapping("targetTable"))),
        row("PipePatchMongoDBPipeRemoveTableMapping", "source.mongodb.tableMappingsToRemove[0].tableEngine", MONGODB, n.clone(), Refused, || Body::Untyped(remove_mongodb_mapping("tableEngine"))),
        // PipeSettings, in an update.
        row(SETTINGS, "settings.streaming_max_insert_wait_ms", KAFKA, json!(1000), Cleared, || settings(PipeSettings::default().streaming_max_insert_wait_ms(Nullable::Null))),
        row(SETTINGS, "settings.object_storage_concurrency", KAFKA, json!(4), Cleared, || settings(PipeSettings::default().object_storage_concurrency(Nullable::Null))),
        row(SETTINGS, "settings.object_storage_polling_interval_ms", KAFKA, json!(30000), Cleared, || settings(PipeSettings::default().object_storage_polling_interval_ms(Nullable::Null))),
        row(SETTINGS, "settings.object_storage_max_insert_bytes", KAFKA, json!(10485760), Cleared, || settings(PipeSettings::default().object_storage_max_insert_bytes(Nullable::Null))),
        row(SETTINGS, "settings.object_storage_max_file_count", KAFKA, json!(100), Cleared, || settings(PipeSettings::default().object_storage_max_file_count(Nullable::Null))),
        row(SETTINGS, "settings.engine_max_threads", KAFKA, json!(8), Cleared, || settings(PipeSettings::default().engine_max_threads(Nullable::Null))),
        row(SETTINGS, "settings.engine_max_insert_threads", KAFKA, json!(1), Cleared, || settings(PipeSettings::default().engine_max_insert_threads(Nullable::Null))),
        row(SETTINGS, "settings.engine_min_insert_block_size_bytes", KAFKA, json!(1073741824), Cleared, || settings(PipeSettings::default().engine_min_insert_block_size_bytes(Nullable::Null))),
        row(SETTINGS, "settings.engine_max_download_threads", KAFKA, json!(4), Cleared, || settings(PipeSettings::default().engine_max_download_threads(Nullable::Null))),
        row(SETTINGS, "settings.engine_parallel_distributed_insert_select", KAFKA, json!(2), Cleared, || settings(PipeSettings::default().engine_parallel_distributed_insert_select(Nullable::Null))),
        row(SETTINGS, "settings.object_storage_use_cluster_function", KAFKA, json!(true), Cleared, || settings(PipeSettings::default().object_storage_use_cluster_function(Nullable::Null))),
        row(SETTINGS, "settings.engine_parallel_view_processing", KAFKA, json!(false), Cleared, || settings(PipeSettings::default().engine_parallel_view_processing(Nullable::Null))),
        // PipeScalingPatchRequest.
        row(SCALING, "replicas", KAFKA, json!(3), Cleared, || scaling(UpdatePipeScalingRequest::default().replicas(Nullable::Null))),
        row(SCALING, "concurrency", KAFKA, json!(2), Cleared, || scaling(UpdatePipeScalingRequest::default().concurrency(Nullable::Null))),
        row(SCALING, "replicaCpuMillicores", KAFKA, json!(500), Cleared, || scaling(UpdatePipeScalingRequest::default().replica_cpu_millicores(Nullable::Null))),
        row(SCALING, "replicaMemoryGb", KAFKA, json!(2), Cleared, || scaling(UpdatePipeScalingRequest::default().replica_memory_gb(Nullable::Null))),
        // PipeSettingsPutRequest.
        row(PUT, "streaming_max_insert_wait_ms", KAFKA, json!(1000), Cleared, || put_settings(PipeSettings::default().streaming_max_insert_wait_ms(Nullable::Null))),
        row(PUT, "object_storage_concurrency", KAFKA, json!(4), Cleared, || put_settings(PipeSettings::default().object_storage_concurrency(Nullable::Null))),
        row(PUT, "object_storage_polling_interval_ms", KAFKA, json!(30000), Cleared, || put_settings(PipeSettings::default().object_storage_polling_interval_ms(Nullable::Null))),
        row(PUT, "object_storage_max_insert_bytes", KAFKA, json!(10485760), Cleared, || put_settings(PipeSettings::default().object_storage_max_insert_bytes(Nullable::Null))),
        row(PUT, "object_storage_max_file_count", KAFKA, json!(100), Cleared, || put_settings(PipeSettings::default().object_storage_max_file_count(Nullable::Null))),
        row(PUT, "engine_max_threads", KAFKA, json!(8), Cleared, || put_settings(PipeSettings::default().engine_max_threads(Nullable::Null))),
        row(PUT, "engine_max_insert_threads", KAFKA, json!(1), Cleared, || put_settings(PipeSettings::default().engine_max_insert_threads(Nullable::Null))),
        row(PUT, "engine_min_insert_block_size_bytes", KAFKA, json!(1073741824), Cleared, || put_settings(PipeSettings::default().engine_min_insert_block_size_bytes(Nullable::Null))),
        row(PUT, "engine_max_download_threads", KAFKA, json!(4), Cleared, || put_settings(PipeSettings::default().engine_max_download_threads(Nullable::Null))),
        row(PUT, "engine_parallel_distributed_insert_select", KAFKA, json!(2), Cleared, || put_settings(PipeSettings::default().engine_parallel_distributed_insert_select(Nullable::Null))),
        row(PUT, "object_storage_use_cluster_function", KAFKA, json!(true), Cleared, || put_settings(PipeSettings::default().object_storage_use_cluster_function(Nullable::Null))),
        row(PUT, "engine_parallel_view_processing", KAFKA, json!(false), Cleared, || put_settings(PipeSettings::default().engine_parallel_view_processing(Nullable::Null))),
        // UpdateAlertRequest (the alerting contract's `Alert`, `nullable: true`).
        row(ALERT, "dashboardId", NO_PIPE, json!("65f1a2b3c4d5e6f708190300"), Cleared, || Body::Alert(search_alert().dashboard_id(Nullable::Null))),
        row(ALERT, "tileId", NO_PIPE, json!("tile-errors"), Cleared, || Body::Alert(search_alert().tile_id(Nullable::Null))),
        row(ALERT, "savedSearchId", NO_PIPE, json!("65f1a2b3c4d5e6f708190400"), Cleared, || Body::Alert(tile_alert().saved_search_id(Nullable::Null))),
        row(ALERT, "groupBy", NO_PIPE, json!("ServiceName"), Cleared, || Body::Alert(search_alert().group_by(Nullable::Null))),
        row(ALERT, "thresholdMax", NO_PIPE, json!(500), Cleared, || Body::Alert(search_alert().threshold_max(Nullable::Null))),
        row(ALERT, "scheduleOffsetMinutes", NO_PIPE, json!(5), Cleared, || Body::Alert(search_alert().schedule_offset_minutes(Nullable::Null))),
        row(ALERT, "scheduleStartAt", NO_PIPE, json!("2026-01-01T00:00:00Z"), Cleared, || Body::Alert(search_alert().schedule_start_at(Nullable::Null))),
        row(ALERT, "name", NO_PIPE, json!("Ingestion errors"), Cleared, || Body::Alert(search_alert().name(Nullable::Null))),
        row(ALERT, "message", NO_PIPE, json!("Too many errors"), Cleared, || Body::Alert(search_alert().message(Nullable::Null))),
        row(ALERT, "note", NO_PIPE, json!("See the runbook"), Cleared, || Body::Alert(search_alert().note(Nullable::Null))),
        row(ALERT, "numConsecutiveWindows", NO_PIPE, json!(3), Cleared, || Body::Alert(search_alert().num_consecutive_windows(Nullable::Null))),
    ]
}

/// The JSON pointer of a dotted path (`source.kafka.iamRole`, `a.list[0].b`).
fn pointer(path: &str) -> String {
    path.split('.')
        .map(|part| part.replace("[", "/").replace(']', ""))
        .fold(String::new(), |all, part| all + "/" + &part)
}

/// `json` with `value` at `path` (whose parents exist).
fn with(mut json: Value, path: &str, value: Value) -> Value {
    let Some(member) = json.pointer_mut(&pointer(path)) else { panic!("{path}: not in the request") };
    *member = value;
    json
}

/// Reads `json` as a user's file is read: the model, then its checks.
fn read<T: DeserializeOwned + Validate>(json: &Value) -> Result<T, ValidationErrors> {
    let request: T = serde_json::from_value(json.clone()).expect("a request model reads any object");
    request.validate().map(|()| request)
}

/// Writes `request`, checks it reads back from its own JSON the same and valid, and gives the
/// JSON.
fn sent<T: Serialize + DeserializeOwned + Validate + PartialEq + std::fmt::Debug>(request: &T, at: &str) -> Value {
    request.validate().unwrap_or_else(|e| panic!("{at}: {e}"));
    let json = serde_json::to_value(request).unwrap();
    assert_eq!(&read::<T>(&json).unwrap_or_else(|e| panic!("{at}: {e}")), request, "{at}: read back from {json}");
    json
}

/// A pipe made from `fixtures/create_pipe/<name>.json`.
fn create(client: &Client, name: &str) -> PipeId {
    let path = format!("{}/tests/it/fixtures/create_pipe/{name}.json", env!("CARGO_MANIFEST_DIR"));
    let request: CreatePipeRequest = serde_json::from_slice(&std::fs::read(path).unwrap()).unwrap();
    client.create_pipe(ORG, SERVICE, request).unwrap().id
}

/// The pipe as the fake keeps it, but when it last changed.
fn stored(fake: &Fake, pipe: PipeId) -> Value {
    let mut json = fake.pipes_json(ORG, SERVICE).into_iter().find(|p| p["id"] == pipe.to_string()).unwrap();
    json.as_object_mut().unwrap().remove("updatedAt");
    json
}

/// Sends the request `json` holds, of `body`'s operation, to `pipe` (or to the alert `alert`).
fn send(client: &Client, body: &Body, json: &Value, pipe: Option<PipeId>, alert: Option<&AlertId>) {
    let at = json.to_string();
    let sent: Result<(), Error> = match body {
        Body::Pipe(_) => {
            client.update_pipe(ORG, SERVICE, pipe.unwrap(), read::<UpdatePipeRequest>(json).unwrap()).map(drop)
        }
        Body::Scaling(_) => client
            .update_pipe_scaling(ORG, SERVICE, pipe.unwrap(), read::<UpdatePipeScalingRequest>(json).unwrap())
            .map(drop),
        Body::Settings(_) => {
            client.update_pipe_settings(ORG, SERVICE, pipe.unwrap(), read::<PipeSettings>(json).unwrap()).map(drop)
        }
        Body::Alert(_) => client.update_alert(alert.unwrap().clone(), read::<AlertRequest>(json).unwrap()).map(drop),
        Body::Untyped(_) => unreachable!("refused before sending"),
    };
    sent.unwrap_or_else(|error| panic!("{at}: {error}"));
}

/// Every nullable member of the contracts, sent as `null` through the client to the fake.
#[test]
fn every_nullable_member_sends_null_and_the_fake_applies_it() {
    let table = table();
    assert_eq!(table.len(), 84 + 12 + 4 + 11, "the audit's count: 84 in PipePatchRequest, 12, 4 and 11");
    for row in table {
        let at = format!("{} {}", row.schema, row.path);
        let body = (row.body)();
        let json = match &body {
            Body::Pipe(request) => sent(request, &at),
            Body::Scaling(request) => sent(request, &at),
            Body::Settings(request) => sent(request, &at),
            Body::Alert(request) => sent(request, &at),
            Body::Untyped(json) => {
                let errors = read::<UpdatePipeRequest>(json).expect_err(&at);
                assert!(
                    errors
                        .violations()
                        .iter()
                        .any(|v| v.path == row.path && matches!(v.rule, Rule::WrongType { found: "null", .. })),
                    "{at}: {errors}"
                );
                continue;
            }
        };
        assert_eq!(json.pointer(&pointer(row.path)), Some(&Value::Null), "{at}: {json}");

        let server = Fake::demo().serve().unwrap();
        let (client, fake) = (demo_client(&server), server.fake());
        // Where the member is kept: the scaling and the settings are a pipe's members.
        let kept_at = match body {
            Body::Scaling(_) => format!("scaling.{}", row.path),
            Body::Settings(_) => format!("settings.{}", row.path),
            _ => row.path.to_owned(),
        };
        let (pipe, alert) = match body {
            Body::Alert(_) => (None, Some(client.create_alert(tile_alert()).unwrap().id)),
            _ => (Some(create(&client, row.pipe)), None),
        };
        let read_back = |client: &Client| match (pipe, &alert) {
            (Some(pipe), _) => stored(fake, pipe),
            (None, Some(alert)) => serde_json::to_value(client.get_alert(alert.clone()).unwrap()).unwrap(),
            _ => unreachable!(),
        };
        match row.effect {
            Cleared => {
                send(&client, &body, &with(json.clone(), row.path, row.sample.clone()), pipe, alert.as_ref());
                let set = read_back(&client);
                assert_eq!(set.pointer(&pointer(&kept_at)), Some(&row.sample), "{at}: set first, in {set}");
                send(&client, &body, &json, pipe, alert.as_ref());
                let cleared = read_back(&client);
                let left = cleared.pointer(&pointer(&kept_at));
                assert!(left.is_none_or(|value| value.is_null()), "{at}: cleared, in {cleared}");
            }
            Kept => {
                let before = read_back(&client);
                send(&client, &body, &json, pipe, alert.as_ref());
                assert_eq!(read_back(&client), before, "{at}: kept");
            }
            Refused => unreachable!("handled above"),
        }
    }
}

/// A `null` for a member the contract does not let be `null`, in a user's JSON, is refused
/// before anything is sent, at its whole path, as a value of the wrong type.
#[test]
fn null_for_a_member_that_is_not_nullable_is_refused_naming_its_path() {
    let cases = [
        (json!({ "source": { "postgres": null } }), "source.postgres", "an object"),
        (json!({ "fieldMappings": null }), "fieldMappings", "a list"),
        (
            json!({ "source": { "kafka": { "reversePrivateEndpointIds": null } } }),
            "source.kafka.reversePrivateEndpointIds",
            "a list",
        ),
        (json!({ "source": { "validateSamples": null } }), "source.validateSamples", "true or false"),
        (
            json!({ "destination": { "columns": [{ "name": "id", "type": null }] } }),
            "destination.columns[0].type",
            "a string",
        ),
    ];
    for (json, path, expected) in cases {
        let errors = read::<UpdatePipeRequest>(&json).expect_err(path);
        let wanted = Rule::WrongType { expected, found: "null" };
        assert!(errors.contains(path, &wanted), "{path}: {errors}");
        assert!(errors.to_string().contains(&format!("`{path}` must be {expected}; found null")), "{errors}");
    }
    // The scaling a pipe is created with (`PipeScaling`) is not nullable; its patch is.
    let mut create = serde_json::to_value(pipe_api_tests::requests::create_pipe_requests("null")[0].clone()).unwrap();
    create["scaling"] = json!({ "replicas": null });
    let errors = read::<CreatePipeRequest>(&create).expect_err("a create's scaling");
    assert!(
        errors.contains(
            "scaling.replicas",
            &Rule::WrongType { expected: "a whole number from 0 to 4294967295", found: "null" }
        ),
        "{errors}"
    );
    assert_eq!(read::<UpdatePipeScalingRequest>(&json!({ "replicas": null })).unwrap().replicas, Some(Nullable::Null));
}

/// The fake refuses, on its own, a `null` the contract does not allow in a pipe update.
#[test]
fn the_fake_refuses_null_where_the_contract_does_not_allow_it() {
    let server = Fake::demo().serve().unwrap();
    let client = demo_client(&server);
    let pipe = create(&client, POSTGRES);
    let path = format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes/{pipe}");
    for (body, named) in [
        (json!({ "source": { "postgres": null } }), "source.postgres"),
        (json!({ "fieldMappings": null }), "fieldMappings"),
        (json!({ "source": { "postgres": { "credentials": null } } }), "source.postgres.credentials"),
        (json!({ "destination": { "columns": null } }), "destination.columns"),
    ] {
        let request = Raw::<Management>::new(http::Method::PATCH, &path).unwrap().json(&body).unwrap();
        let (status, message) = api_status(&client.call(&request).expect_err(named)).expect("an API error");
        assert_eq!(status, 400, "{named}");
        assert!(message.unwrap_or_default().contains(&format!("{named}: must not be null")), "{named}");
    }
    // The CDC scaling of a service's database pipes (`PipesCdcScalingPatchRequest`) has no
    // nullable member, unlike a pipe's own scaling patch.
    let cdc = format!("/v1/organizations/{ORG}/services/{SERVICE}/pipesCdcScaling");
    let request = Raw::<Management>::new(http::Method::PATCH, &cdc).unwrap().json(&json!({ "replicaMemoryGb": null }));
    let (status, message) = api_status(&client.call(&request.unwrap()).expect_err("a null CDC memory")).unwrap();
    assert_eq!(status, 400);
    assert!(message.unwrap_or_default().contains("replicaMemoryGb: must not be null"));
    // And accepts one it does allow, past the client too.
    let allowed = json!({ "source": { "postgres": { "tlsHost": null } } });
    let request = Raw::<Management>::new(http::Method::PATCH, &path).unwrap().json(&allowed).unwrap();
    client.call(&request).unwrap();
}
