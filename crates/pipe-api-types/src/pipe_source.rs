//! A pipe's `source`: one sub-object per source kind (Kafka, object storage, Kinesis, Postgres),
//! shared by the pipe record and the create-pipe request.

use time::{OffsetDateTime, PrimitiveDateTime};

use crate::codec::{unix_seconds, zoneless};
use crate::validate::{Checker, Rule, one_of};
use crate::{IntoField, Secret, Text};

open_enum! {
    /// A source kind: the name of a sub-object of `source`.
    pub enum SourceKind {
        /// Kafka-style streaming.
        Kafka => "kafka",
        /// Object storage (S3, GCS, Azure Blob Storage, ...).
        ObjectStorage => "objectStorage",
        /// Kinesis-style streaming.
        Kinesis => "kinesis",
        /// Postgres replication.
        Postgres => "postgres",
        /// Google Pub/Sub (newer servers).
        PubSub => "pubsub",
        /// MySQL replication (newer servers).
        Mysql => "mysql",
        /// MongoDB replication (newer servers).
        MongoDb => "mongodb",
        /// BigQuery (newer servers).
        BigQuery => "bigquery",
    }
}

open_enum! {
    /// The flavour of a Kafka source.
    pub enum KafkaType {
        /// Apache Kafka.
        Kafka => "kafka",
        /// Redpanda.
        Redpanda => "redpanda",
        /// Amazon MSK.
        Msk => "msk",
        /// Google Cloud Managed Kafka.
        Gcmk => "gcmk",
        /// Confluent Cloud.
        Confluent => "confluent",
        /// WarpStream.
        Warpstream => "warpstream",
        /// Azure Event Hubs.
        AzureEventHub => "azureeventhub",
        /// DigitalOcean Kafka.
        DoKafka => "dokafka",
    }
}

open_enum! {
    /// The data format of a source.
    pub enum DataFormat {
        /// One JSON object per row.
        JsonEachRow => "JSONEachRow",
        /// One JSON object per row, read as a single object column.
        JsonAsObject => "JSONAsObject",
        /// Comma-separated values.
        Csv => "CSV",
        /// Comma-separated values with a header row.
        CsvWithNames => "CSVWithNames",
        /// Tab-separated values.
        TabSeparated => "TabSeparated",
        /// Tab-separated values with a header row.
        TabSeparatedWithNames => "TabSeparatedWithNames",
        /// Apache Parquet.
        Parquet => "Parquet",
        /// Apache Avro.
        Avro => "Avro",
        /// Avro with a Confluent schema registry.
        AvroConfluent => "AvroConfluent",
        /// Protocol Buffers.
        Protobuf => "Protobuf",
    }
}

open_enum! {
    /// How a pipe authenticates to its source.
    pub enum Authentication {
        /// SASL PLAIN user name and password.
        Plain => "PLAIN",
        /// SASL SCRAM-SHA-256.
        ScramSha256 => "SCRAM-SHA-256",
        /// SASL SCRAM-SHA-512.
        ScramSha512 => "SCRAM-SHA-512",
        /// An IAM role the service assumes.
        IamRole => "IAM_ROLE",
        /// An IAM user's access key.
        IamUser => "IAM_USER",
        /// Mutual TLS with a client certificate.
        MutualTls => "MUTUAL_TLS",
        /// A connection string (Azure).
        ConnectionString => "CONNECTION_STRING",
        /// A service account key (GCS).
        ServiceAccount => "SERVICE_ACCOUNT",
        /// User name and password (Postgres).
        Basic => "basic",
    }
}

model! {
    /// Credentials for a source. Which fields are used depends on the authentication:
    /// `username`/`password` (PLAIN, SCRAM, Postgres), `accessKeyId`/`secretKey` (IAM_USER, and
    /// every `accessKey`), `connectionString` (Azure Event Hubs), `certificate`/`privateKey`
    /// (MUTUAL_TLS). Servers never echo credentials back.
    pub struct Credentials {
        /// User name.
        "username" username: Text,
        /// Password.
        "password" password: Secret,
        /// Access key id.
        "accessKeyId" access_key_id: Text,
        /// Secret access key.
        "secretKey" secret_key: Secret,
        /// Connection string.
        "connectionString" connection_string: Secret,
        /// Client certificate (PEM).
        "certificate" certificate: Text,
        /// Client private key (PEM).
        "privateKey" private_key: Secret,
    }
}

impl Credentials {
    /// A user name and password.
    pub fn user_password(username: impl Into<Text>, password: impl Into<Secret>) -> Self {
        Credentials { username: Some(username.into()), password: Some(password.into()), ..Default::default() }
    }

    /// An access key id and secret access key.
    pub fn access_key(access_key_id: impl Into<Text>, secret_key: impl Into<Secret>) -> Self {
        Credentials {
            access_key_id: Some(access_key_id.into()),
            secret_key: Some(secret_key.into()),
            ..Default::default()
        }
    }

    /// A connection string.
    pub fn from_connection_string(connection_string: impl Into<Secret>) -> Self {
        Credentials { connection_string: Some(connection_string.into()), ..Default::default() }
    }

    /// A client certificate and its private key.
    pub fn client_certificate(certificate: impl Into<Text>, private_key: impl Into<Secret>) -> Self {
        Credentials {
            certificate: Some(certificate.into()),
            private_key: Some(private_key.into()),
            ..Default::default()
        }
    }
}

open_enum! {
    /// Where a Kafka pipe starts reading.
    pub enum OffsetStrategy {
        /// From the oldest message.
        FromBeginning => "from_beginning",
        /// From new messages only.
        FromLatest => "from_latest",
        /// From `offset.timestamp`.
        FromTimestamp => "from_timestamp",
    }
}

model! {
    /// Where a Kafka pipe starts reading.
    pub struct KafkaOffset {
        /// The start strategy.
        "strategy" strategy: OffsetStrategy,
        /// The start time for `from_timestamp`: UTC, written without zone (`2021-01-01T00:00`).
        "timestamp" timestamp: PrimitiveDateTime as zoneless,
    }
}

model! {
    /// A Kafka schema registry.
    pub struct SchemaRegistry {
        /// The registry's URL.
        "url" url: Text,
        /// How to authenticate to it.
        "authentication" authentication: Authentication,
        /// CA certificate (PEM) to verify it.
        "caCertificate" ca_certificate: Text,
        /// Credentials for it.
        "credentials" credentials: Credentials,
    }
}

model! {
    /// `source.kafka`: a Kafka-style stream. For a request, build it with [`KafkaSource::new`]
    /// (`Default` is what a read starts from).
    pub struct KafkaSource {
        /// The Kafka flavour.
        "type" kind: KafkaType,
        /// The message format.
        "format" format: DataFormat,
        /// Bootstrap brokers, comma-separated.
        "brokers" brokers: Text,
        /// Topics, comma-separated.
        "topics" topics: Text,
        /// The consumer group.
        "consumerGroup" consumer_group: Text,
        /// How to authenticate.
        "authentication" authentication: Authentication,
        /// The IAM role (role identifier) for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// Where to start reading.
        "offset" offset: KafkaOffset,
        /// The schema registry.
        "schemaRegistry" schema_registry: SchemaRegistry,
        /// CA certificate (PEM) to verify the brokers.
        "caCertificate" ca_certificate: Text,
        /// Reverse private endpoints to reach the brokers through.
        "reversePrivateEndpointIds" reverse_private_endpoint_ids: Vec<Text>,
        /// Exactly-once delivery.
        "exactlyOnce" exactly_once: bool,
        /// Credentials (requests only; never echoed back).
        "credentials" credentials: Credentials,
    }
}

impl KafkaSource {
    /// A Kafka source of flavour `kind` reading `topics` (comma-separated) from `brokers`
    /// (comma-separated bootstrap servers) in `format`, authenticating with `authentication`:
    /// what the service requires of every Kafka source. The rest are setters; most methods need
    /// [`credentials`](Self::credentials) too (`IAM_ROLE` needs [`iam_role`](Self::iam_role)).
    /// `Default` is for reading; build a request with this.
    ///
    /// ```
    /// use pipe_api_types::{Authentication, Credentials, DataFormat, KafkaSource, KafkaType};
    ///
    /// let source = KafkaSource::new(
    ///     KafkaType::Confluent,
    ///     DataFormat::JsonEachRow,
    ///     "pkc-1234.us-east-1.aws.confluent.cloud:9092",
    ///     "orders",
    ///     Authentication::Plain,
    /// )
    /// .credentials(Credentials::user_password("API_KEY", "API_SECRET"));
    /// # let _ = source;
    /// ```
    pub fn new(
        kind: impl IntoField<KafkaType>,
        format: impl IntoField<DataFormat>,
        brokers: impl Into<Text>,
        topics: impl Into<Text>,
        authentication: impl IntoField<Authentication>,
    ) -> Self {
        KafkaSource {
            kind: Some(kind.into_field()),
            format: Some(format.into_field()),
            brokers: Some(brokers.into()),
            topics: Some(topics.into()),
            authentication: Some(authentication.into_field()),
            ..Default::default()
        }
    }
}

open_enum! {
    /// The object storage provider.
    pub enum ObjectStorageType {
        /// Amazon S3.
        S3 => "s3",
        /// Google Cloud Storage.
        Gcs => "gcs",
        /// DigitalOcean Spaces.
        DoSpaces => "dospaces",
        /// Azure Blob Storage.
        AzureBlobStorage => "azureblobstorage",
        /// Cloudflare R2.
        CloudflareR2 => "cloudflarer2",
        /// OVH Object Storage.
        OvhObjectStorage => "ovhobjectstorage",
    }
}

open_enum! {
    /// The compression of objects.
    pub enum Compression {
        /// Not compressed.
        None => "none",
        /// gzip.
        Gzip => "gzip",
        /// gzip (short name).
        Gz => "gz",
        /// Brotli.
        Brotli => "brotli",
        /// Brotli (short name).
        Br => "br",
        /// xz.
        Xz => "xz",
        /// LZMA.
        Lzma => "LZMA",
        /// Zstandard.
        Zstd => "zstd",
        /// Detected from the file name.
        Auto => "auto",
    }
}

model! {
    /// `source.objectStorage`: files in a bucket. For a request, build it with
    /// [`ObjectStorageSource::new`], or [`ObjectStorageSource::azure_blob_storage`] for Azure
    /// (`Default` is what a read starts from).
    pub struct ObjectStorageSource {
        /// The storage provider.
        "type" kind: ObjectStorageType,
        /// The file format.
        "format" format: DataFormat,
        /// The files' URL; may contain glob patterns.
        "url" url: Text,
        /// The field delimiter of CSV-like formats.
        "delimiter" delimiter: Text,
        /// The files' compression.
        "compression" compression: Compression,
        /// Whether new files keep being ingested.
        "isContinuous" is_continuous: bool,
        /// The queue that announces new files.
        "queueUrl" queue_url: Text,
        /// How to authenticate.
        "authentication" authentication: Authentication,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// Connection string (Azure); credential-bearing.
        "connectionString" connection_string: Secret,
        /// Path inside the container; may contain glob patterns.
        "path" path: Text,
        /// The Azure container.
        "azureContainerName" azure_container_name: Text,
        /// Skip the files already there when the pipe starts (continuous ingestion).
        "skipInitialLoad" skip_initial_load: bool,
        /// Start after this object key (continuous ingestion).
        "startAfter" start_after: Text,
        /// Access key for `IAM_USER` (requests only).
        "accessKey" access_key: Credentials,
        /// Service account key for `SERVICE_ACCOUNT` (requests only).
        "serviceAccountKey" service_account_key: Secret,
    }
}

impl ObjectStorageSource {
    /// Files of provider `kind` at `url` (which may hold glob patterns) in `format`: what the
    /// service requires of every provider but Azure Blob Storage, which names a container instead
    /// ([`azure_blob_storage`](Self::azure_blob_storage)). Authentication is a setter (absent:
    /// public files). `Default` is for reading; build a request with this.
    pub fn new(
        kind: impl IntoField<ObjectStorageType>,
        format: impl IntoField<DataFormat>,
        url: impl Into<Text>,
    ) -> Self {
        ObjectStorageSource {
            kind: Some(kind.into_field()),
            format: Some(format.into_field()),
            url: Some(url.into()),
            ..Default::default()
        }
    }

    /// Files in the Azure Blob Storage container `azure_container_name` in `format`: Azure has
    /// no `url` but a container, required for that type, and a [`path`](Self::path) inside it
    /// (management OpenAPI, `PipePostObjectStorageSource.azureContainerName`).
    pub fn azure_blob_storage(format: impl IntoField<DataFormat>, azure_container_name: impl Into<Text>) -> Self {
        ObjectStorageSource {
            kind: Some(ObjectStorageType::AzureBlobStorage),
            format: Some(format.into_field()),
            azure_container_name: Some(azure_container_name.into()),
            ..Default::default()
        }
    }
}

open_enum! {
    /// Where a Kinesis pipe starts reading.
    pub enum IteratorType {
        /// From the oldest record.
        TrimHorizon => "TRIM_HORIZON",
        /// From new records only.
        Latest => "LATEST",
        /// From `timestamp`.
        AtTimestamp => "AT_TIMESTAMP",
    }
}

model! {
    /// `source.kinesis`: a Kinesis-style stream. For a request, build it with
    /// [`KinesisSource::new`] (`Default` is what a read starts from).
    pub struct KinesisSource {
        /// The record format.
        "format" format: DataFormat,
        /// The stream's name.
        "streamName" stream_name: Text,
        /// The stream's region.
        "region" region: Text,
        /// Whether to use enhanced fan-out.
        "useEnhancedFanOut" use_enhanced_fan_out: bool,
        /// Where to start reading.
        "iteratorType" iterator_type: IteratorType,
        /// The start time for `AT_TIMESTAMP` (an integer UNIX time on the wire).
        "timestamp" timestamp: OffsetDateTime as unix_seconds,
        /// How to authenticate.
        "authentication" authentication: Authentication,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// Access key for `IAM_USER` (requests only).
        "accessKey" access_key: Credentials,
    }
}

impl KinesisSource {
    /// The stream `stream_name` in `region`, read in `format` from `iterator_type` on,
    /// authenticating with `authentication`: what the service requires of a Kinesis source.
    /// `AT_TIMESTAMP` needs [`timestamp`](Self::timestamp), `IAM_ROLE`
    /// [`iam_role`](Self::iam_role), `IAM_USER` [`access_key`](Self::access_key). `Default` is
    /// for reading; build a request with this.
    pub fn new(
        format: impl IntoField<DataFormat>,
        stream_name: impl Into<Text>,
        region: impl Into<Text>,
        iterator_type: impl IntoField<IteratorType>,
        authentication: impl IntoField<Authentication>,
    ) -> Self {
        KinesisSource {
            format: Some(format.into_field()),
            stream_name: Some(stream_name.into()),
            region: Some(region.into()),
            iterator_type: Some(iterator_type.into_field()),
            authentication: Some(authentication.into_field()),
            ..Default::default()
        }
    }
}

open_enum! {
    /// The flavour of a Postgres source.
    pub enum PostgresType {
        /// PostgreSQL.
        Postgres => "postgres",
        /// Supabase.
        Supabase => "supabase",
        /// Neon.
        Neon => "neon",
        /// AlloyDB.
        AlloyDb => "alloydb",
        /// PlanetScale.
        PlanetScale => "planetscale",
        /// Amazon RDS for PostgreSQL.
        RdsPostgres => "rdspostgres",
        /// Amazon Aurora PostgreSQL.
        AuroraPostgres => "aurorapostgres",
        /// Cloud SQL for PostgreSQL.
        CloudSqlPostgres => "cloudsqlpostgres",
        /// Azure Database for PostgreSQL.
        AzurePostgres => "azurepostgres",
        /// Crunchy Bridge.
        CrunchyBridge => "crunchybridge",
        /// Tiger Data.
        TigerData => "tigerdata",
    }
}

open_enum! {
    /// How a Postgres pipe replicates.
    pub enum ReplicationMode {
        /// Change data capture after an initial snapshot.
        Cdc => "cdc",
        /// A one-time snapshot.
        Snapshot => "snapshot",
        /// Change data capture without a snapshot.
        CdcOnly => "cdc_only",
    }
}

model! {
    /// `source.postgres.settings`.
    pub struct PostgresSettings {
        /// Seconds between CDC syncs.
        "syncIntervalSeconds" sync_interval_seconds: u32,
        /// Rows per pulled batch.
        "pullBatchSize" pull_batch_size: u32,
        /// The publication to replicate.
        "publicationName" publication_name: Text,
        /// The replication mode.
        "replicationMode" replication_mode: ReplicationMode,
        /// The replication slot (for `cdc_only`).
        "replicationSlotName" replication_slot_name: Text,
        /// Keep columns' nullability in the destination.
        "allowNullableColumns" allow_nullable_columns: bool,
        /// Parallel workers per table in the initial load.
        "initialLoadParallelism" initial_load_parallelism: u32,
        /// Rows per partition in the snapshot.
        "snapshotNumRowsPerPartition" snapshot_num_rows_per_partition: u64,
        /// Tables snapshotted in parallel.
        "snapshotNumberOfParallelTables" snapshot_number_of_parallel_tables: u32,
        /// Failover replication slots (Postgres 17+).
        "enableFailoverSlots" enable_failover_slots: bool,
        /// Whether a Postgres `DELETE` deletes rows for good in a `ReplacingMergeTree` table.
        "deleteOnMerge" delete_on_merge: bool,
    }
}

open_enum! {
    /// A destination table engine.
    pub enum TableEngineType {
        /// Append-only.
        MergeTree => "MergeTree",
        /// Keeps the latest version of each row.
        ReplacingMergeTree => "ReplacingMergeTree",
        /// Sums numeric columns of equal keys.
        SummingMergeTree => "SummingMergeTree",
        /// Stores nothing; feeds materialized views.
        Null => "Null",
    }
}

model! {
    /// One table replicated by a Postgres pipe. For a request, build it with
    /// [`PostgresTableMapping::new`].
    pub struct PostgresTableMapping {
        /// The source schema.
        "sourceSchemaName" source_schema_name: Text,
        /// The source table.
        "sourceTable" source_table: Text,
        /// The destination table.
        "targetTable" target_table: Text,
        /// Columns not replicated.
        "excludedColumns" excluded_columns: Vec<Text>,
        /// Whether `sortingKeys` replaces the primary key as sorting key.
        "useCustomSortingKey" use_custom_sorting_key: bool,
        /// The custom sorting key.
        "sortingKeys" sorting_keys: Vec<Text>,
        /// The column used to split the initial snapshot into parallel parts (an indexed
        /// integer, date or timestamp column; unrelated to the table's partitioning).
        "partitionKey" partition_key: Text,
        /// The `PARTITION BY` expression of the destination table the pipe creates.
        "partitionByExpr" partition_by_expr: Text,
        /// The destination table's engine.
        "tableEngine" table_engine: TableEngineType,
    }
}

impl PostgresTableMapping {
    /// Replicates `source_schema_name.source_table` into the table `target_table`: the three
    /// names every mapping needs (to add it, and to remove it again). `Default` is for reading.
    pub fn new(
        source_schema_name: impl Into<Text>,
        source_table: impl Into<Text>,
        target_table: impl Into<Text>,
    ) -> Self {
        PostgresTableMapping {
            source_schema_name: Some(source_schema_name.into()),
            source_table: Some(source_table.into()),
            target_table: Some(target_table.into()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.postgres`: Postgres replication. For a request, build it with
    /// [`PostgresSource::new`] (`Default` is what a read starts from).
    pub struct PostgresSource {
        /// The Postgres flavour.
        "type" kind: PostgresType,
        /// The server's host.
        "host" host: Text,
        /// The server's port.
        "port" port: u16,
        /// The database to replicate.
        "database" database: Text,
        /// How to authenticate (`basic` or `IAM_ROLE`).
        "authentication" authentication: Authentication,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// CA certificate (PEM) to verify the server.
        "caCertificate" ca_certificate: Text,
        /// The host name the server's TLS certificate names, when it differs from `host`.
        "tlsHost" tls_host: Text,
        /// Connect without TLS.
        "disableTls" disable_tls: bool,
        /// Do not verify the server's certificate.
        "skipCertVerification" skip_cert_verification: bool,
        /// User name and password (requests only).
        "credentials" credentials: Credentials,
        /// Replication settings.
        "settings" settings: PostgresSettings,
        /// The tables to replicate.
        "tableMappings" table_mappings: Vec<PostgresTableMapping>,
    }
}

impl PostgresSource {
    /// Replication of the tables `table_mappings` (at least one) of `database` on `host:port`:
    /// what the service requires of a Postgres source. The default `basic` authentication needs
    /// [`credentials`](Self::credentials); `type` defaults to `postgres` on the service.
    /// `Default` is for reading; build a request with this.
    pub fn new(
        host: impl Into<Text>,
        port: u16,
        database: impl Into<Text>,
        table_mappings: impl IntoIterator<Item = PostgresTableMapping>,
    ) -> Self {
        PostgresSource {
            host: Some(host.into()),
            port: Some(port),
            database: Some(database.into()),
            table_mappings: Some(table_mappings.into_iter().collect()),
            ..Default::default()
        }
    }
}

model! {
    /// A pipe's `source`: exactly one source kind is set. Each kind is boxed, so a `Pipe`
    /// stays small whichever kind it has (lists move and copy less while decoding). A request
    /// makes one from a kind with `From` (`PipeSource::from(kafka)`), which
    /// [`CreatePipeRequest::new`](crate::CreatePipeRequest::new) does itself.
    pub struct PipeSource {
        /// A Kafka-style stream.
        "kafka" kafka: Box<KafkaSource>,
        /// Object storage.
        "objectStorage" object_storage: Box<ObjectStorageSource>,
        /// A Kinesis-style stream.
        "kinesis" kinesis: Box<KinesisSource>,
        /// Postgres replication.
        "postgres" postgres: Box<PostgresSource>,
        /// Whether the service also checks samples of the data, not only the connection, before
        /// creating (no effect on Postgres pipes).
        "validateSamples" validate_samples: bool,
    }
}

/// A source of one kind, so that a create request takes the kind itself:
/// `CreatePipeRequest::new("orders", KafkaSource::new(..), destination)`.
macro_rules! pipe_source_from {
    ($($kind:ident: $field:ident),*) => {
        $(
            impl From<$kind> for PipeSource {
                fn from(source: $kind) -> Self {
                    PipeSource { $field: Some(Box::new(source)), ..Default::default() }
                }
            }
        )*
    };
}

pipe_source_from!(
    KafkaSource: kafka,
    ObjectStorageSource: object_storage,
    KinesisSource: kinesis,
    PostgresSource: postgres
);

impl PipeSource {
    /// The source kinds present: the four this crate models, then any other object-valued
    /// field (a kind of a newer server, such as `pubsub`).
    pub fn kinds(&self) -> Vec<SourceKind> {
        self.each_kind().collect()
    }

    /// How many source kinds are present (what [`PipeSource::kinds`] counts, without a list).
    pub(crate) fn kind_count(&self) -> usize {
        self.each_kind().count()
    }

    fn each_kind(&self) -> impl Iterator<Item = SourceKind> + '_ {
        let known = [
            (self.kafka.is_some(), SourceKind::Kafka),
            (self.object_storage.is_some(), SourceKind::ObjectStorage),
            (self.kinesis.is_some(), SourceKind::Kinesis),
            (self.postgres.is_some(), SourceKind::Postgres),
        ];
        known.into_iter().filter(|(present, _)| *present).map(|(_, kind)| kind).chain(
            self.unknown
                .iter()
                .filter(|(_, raw)| raw.trim_start().starts_with('{'))
                .map(|(name, _)| SourceKind::from(name)),
        )
    }

    /// The source kind, when exactly one is present.
    pub fn kind(&self) -> Option<SourceKind> {
        let mut kinds = self.kinds();
        (kinds.len() == 1).then(|| kinds.remove(0))
    }
}

/// Values the contract allows for one owner (a source kind or a type), fewer than the enum
/// has: one row of the table below.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Allowed<V: 'static> {
    /// Whom they are allowed for, as a rule names it: `kafka`, `type msk`.
    pub(crate) owner: &'static str,
    /// The values allowed.
    pub(crate) values: &'static [V],
}

// What the create-pipe contract allows per source kind and per type, in one table. The source
// is the management OpenAPI: the `format` enums of `PipePostKafkaSource`,
// `PipePostObjectStorageSource` and `PipePostKinesisSource`, the `authentication` enums of those
// and of `PipeMutatePostgresSource`, and the descriptions that narrow them per `type`
// (`PipePostKafkaSource.authentication`: "Supported authentication methods: kafka: ...";
// `PipePostObjectStorageSource.authentication`: "IAM_USER is for S3, GCS, and DigitalOcean
// Spaces. IAM_ROLE is for S3 only. SERVICE_ACCOUNT is for GCS only. CONNECTION_STRING is for
// Azure Blob Storage. PUBLIC uses no authentication.", PUBLIC being an absent authentication).
// The service notes (Pipes) list the same Kafka values.

impl SourceKind {
    /// The `format`s the contract allows for this kind; `None` for a kind without a format
    /// (Postgres) or one this crate does not know.
    pub(crate) fn formats(&self) -> Option<Allowed<DataFormat>> {
        use DataFormat::*;
        let (owner, values): (_, &[DataFormat]) = match self {
            SourceKind::Kafka => ("kafka", &[JsonEachRow, Avro, AvroConfluent, Protobuf]),
            SourceKind::ObjectStorage => (
                "objectStorage",
                &[JsonEachRow, JsonAsObject, Csv, CsvWithNames, TabSeparated, TabSeparatedWithNames, Parquet, Avro],
            ),
            SourceKind::Kinesis => ("kinesis", &[JsonEachRow, Avro, AvroConfluent]),
            _ => return None,
        };
        Some(Allowed { owner, values })
    }

    /// The `authentication`s the contract's enum has for this kind (the Kafka and object
    /// storage types each allow fewer: [`KafkaType::authentications`],
    /// [`ObjectStorageType::authentications`]); `None` for a kind this crate does not know.
    pub(crate) fn authentications(&self) -> Option<Allowed<Authentication>> {
        use Authentication::*;
        let (owner, values): (_, &[Authentication]) = match self {
            SourceKind::Kafka => ("kafka", &[Plain, ScramSha256, ScramSha512, IamRole, IamUser, MutualTls]),
            SourceKind::ObjectStorage => ("objectStorage", &[IamRole, IamUser, ConnectionString, ServiceAccount]),
            SourceKind::Kinesis => ("kinesis", &[IamRole, IamUser]),
            SourceKind::Postgres => ("postgres", &[Basic, IamRole]),
            _ => return None,
        };
        Some(Allowed { owner, values })
    }
}

impl KafkaType {
    /// The `authentication`s the contract allows for this Kafka flavour; `None` for a flavour
    /// this crate does not know (it gets the kind's whole enum).
    pub(crate) fn authentications(&self) -> Option<Allowed<Authentication>> {
        use Authentication::*;
        let (owner, values): (_, &[Authentication]) = match self {
            KafkaType::Kafka => ("type kafka", &[Plain, ScramSha256, ScramSha512, MutualTls]),
            KafkaType::Msk => ("type msk", &[ScramSha512, IamRole, IamUser, MutualTls]),
            KafkaType::Gcmk => ("type gcmk", &[Plain, MutualTls]),
            KafkaType::Confluent => ("type confluent", &[Plain, MutualTls]),
            KafkaType::Warpstream => ("type warpstream", &[Plain]),
            KafkaType::AzureEventHub => ("type azureeventhub", &[Plain]),
            KafkaType::Redpanda => ("type redpanda", &[ScramSha256, ScramSha512, MutualTls]),
            KafkaType::DoKafka => ("type dokafka", &[ScramSha256, MutualTls]),
            KafkaType::Unrecognized(_) => return None,
        };
        Some(Allowed { owner, values })
    }
}

impl ObjectStorageType {
    /// The `authentication`s the contract allows for this provider; `None` for a provider this
    /// crate does not know (it gets the kind's whole enum). Cloudflare R2 and OVH are named for
    /// no method: "IAM_ROLE is for S3 only" and "SERVICE_ACCOUNT is for GCS only" exclude those
    /// two, and `CONNECTION_STRING` is Azure's, but nothing excludes `IAM_USER`, the access key
    /// pair every S3-compatible store takes, so it is not refused (a rule must come from the
    /// contract, and a private R2 or OVH bucket needs it).
    pub(crate) fn authentications(&self) -> Option<Allowed<Authentication>> {
        use Authentication::*;
        let (owner, values): (_, &[Authentication]) = match self {
            ObjectStorageType::S3 => ("type s3", &[IamRole, IamUser]),
            ObjectStorageType::Gcs => ("type gcs", &[IamUser, ServiceAccount]),
            ObjectStorageType::DoSpaces => ("type dospaces", &[IamUser]),
            ObjectStorageType::AzureBlobStorage => ("type azureblobstorage", &[ConnectionString]),
            ObjectStorageType::CloudflareR2 => ("type cloudflarer2", &[IamUser]),
            ObjectStorageType::OvhObjectStorage => ("type ovhobjectstorage", &[IamUser]),
            ObjectStorageType::Unrecognized(_) => return None,
        };
        Some(Allowed { owner, values })
    }
}

impl SchemaRegistry {
    /// The `authentication`s the contract allows for a schema registry
    /// (`PipeMutateKafkaSchemaRegistry.authentication`).
    pub(crate) fn authentications() -> Allowed<Authentication> {
        Allowed { owner: "schemaRegistry", values: &[Authentication::Plain] }
    }
}

/// `PipePostgresPipeTableMapping.tableEngine` (no `SummingMergeTree` for database pipes).
const POSTGRES_TABLE_ENGINES: &[&str] = &["MergeTree", "ReplacingMergeTree", "Null"];

/// A table mapping names its source schema, source table and target table.
pub(crate) fn check_table_names(c: &mut Checker, mapping: &PostgresTableMapping) {
    c.required_text("sourceSchemaName", &mapping.source_schema_name);
    c.required_text("sourceTable", &mapping.source_table);
    c.required_text("targetTable", &mapping.target_table);
}

/// `PipePostgresPipeTableMapping`: its names, unique `excludedColumns` and `sortingKeys`
/// (`uniqueItems`), `sortingKeys` when `useCustomSortingKey` is true ("If true, sortingKeys must
/// be provided"), and the engines a database pipe may create.
pub(crate) fn check_table_mapping(c: &mut Checker, mapping: &PostgresTableMapping) {
    check_table_names(c, mapping);
    for (name, list) in [("excludedColumns", &mapping.excluded_columns), ("sortingKeys", &mapping.sorting_keys)] {
        if let Some(list) = list {
            if list.iter().enumerate().any(|(i, item)| list[..i].contains(item)) {
                c.fail_at(name, Rule::UniqueItems);
            }
        }
    }
    if mapping.use_custom_sorting_key == Some(true) && mapping.sorting_keys.as_ref().is_none_or(Vec::is_empty) {
        c.fail_at("sortingKeys", Rule::RequiredBecause("when useCustomSortingKey is true"));
    }
    one_of::<TableEngineType>(c, "tableEngine", &mapping.table_engine, POSTGRES_TABLE_ENGINES);
}
