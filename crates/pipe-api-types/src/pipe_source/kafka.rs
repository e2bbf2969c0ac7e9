//! `source.kafka`: a Kafka-style stream, where it starts reading and its schema registry.

use time::PrimitiveDateTime;

use super::{Authentication, Credentials, DataFormat};
use crate::codec::zoneless;
use crate::{IntoField, Text};

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
