//! A pipe's `source`: one sub-object per source kind (Kafka, object storage, Kinesis, Postgres,
//! Pub/Sub, MySQL, MongoDB, BigQuery), shared by the pipe record and the create-pipe request.

mod allowed;
mod authentication;
pub(crate) mod bigquery;
mod credentials;
mod formats;
mod kafka;
mod kinesis;
pub(crate) mod mongodb;
pub(crate) mod mysql;
mod object_storage;
mod postgres;
pub(crate) mod pubsub;

pub(crate) use allowed::check_allowed;
pub use authentication::Authentication;
pub use bigquery::{BigQuerySettings, BigQuerySource, BigQueryTableMapping};
pub(crate) use credentials::check_credentials;
pub use credentials::{Credentials, ServiceAccount};
pub use formats::DataFormat;
pub use kafka::{KafkaOffset, KafkaSource, KafkaType, OffsetStrategy, SchemaRegistry};
pub use kinesis::{IteratorType, KinesisSource};
pub use mongodb::{
    MongoDbSettings, MongoDbSettingsPatch, MongoDbSource, MongoDbSourcePatch, MongoDbTableMapping, ReadPreference,
};
pub use mysql::{
    MySqlSettings, MySqlSettingsPatch, MySqlSource, MySqlSourcePatch, MySqlTableMapping, MySqlType,
    ReplicationMechanism,
};
pub use object_storage::{Compression, ObjectStorageSource, ObjectStorageType};
pub use postgres::{
    PostgresSettings, PostgresSource, PostgresTableMapping, PostgresType, ReplicationMode, TableEngineType,
};
pub(crate) use postgres::{check_table_mapping, check_table_names};
pub use pubsub::{PubSubSource, PubSubSourcePatch, SeekType};

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
        /// Google Pub/Sub.
        PubSub => "pubsub",
        /// MySQL replication.
        Mysql => "mysql",
        /// MongoDB replication.
        MongoDb => "mongodb",
        /// A BigQuery snapshot.
        BigQuery => "bigquery",
    }
}

impl SourceKind {
    /// Whether pipes of this kind are database pipes: their tables come from their table
    /// mappings, so their destination names no `table`, `managedTable` or columns
    /// (`PipeMutateDestination.table`: "Required field for all pipe types except database pipes
    /// (Postgres, MySQL, BigQuery)"; MongoDB's collections map to tables the same way).
    pub fn is_database(&self) -> bool {
        matches!(self, SourceKind::Postgres | SourceKind::Mysql | SourceKind::MongoDb | SourceKind::BigQuery)
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
        /// A Pub/Sub topic.
        "pubsub" pubsub: Box<PubSubSource>,
        /// MySQL replication.
        "mysql" mysql: Box<MySqlSource>,
        /// MongoDB replication.
        "mongodb" mongodb: Box<MongoDbSource>,
        /// A BigQuery snapshot.
        "bigquery" bigquery: Box<BigQuerySource>,
        /// Whether the service also checks samples of the data, not only the connection, before
        /// creating (no effect on database pipes).
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
    PostgresSource: postgres,
    PubSubSource: pubsub,
    MySqlSource: mysql,
    MongoDbSource: mongodb,
    BigQuerySource: bigquery
);

impl PipeSource {
    /// The source kinds present: those this crate models, then any other object-valued field
    /// (a kind of a newer server).
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
            (self.pubsub.is_some(), SourceKind::PubSub),
            (self.mysql.is_some(), SourceKind::Mysql),
            (self.mongodb.is_some(), SourceKind::MongoDb),
            (self.bigquery.is_some(), SourceKind::BigQuery),
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
