//! `source.kafka`: a Kafka-style stream, where it starts reading and its schema registry.

use time::PrimitiveDateTime;

use super::{Allowed, Authentication, Check, Credentials, DataFormat, Kind, KindPatch, SourceKind};
use super::{check_allowed, check_credentials};
use crate::codec::zoneless;
use crate::nullable::set;
use crate::validate::{Checker, Rule, one_of};
use crate::{IntoField, Nullable, Text};

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

model! {
    /// `source.kafka` in an update (`PipePatchKafkaSource`): how the pipe authenticates and
    /// reaches the brokers.
    pub struct KafkaSourcePatch {
        /// How to authenticate: `PLAIN`, `SCRAM-SHA-256`, `SCRAM-SHA-512`, `IAM_ROLE`,
        /// `IAM_USER` or `MUTUAL_TLS`.
        "authentication" authentication: Nullable<Authentication>,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Nullable<Text>,
        /// CA certificates (PEM) to verify the brokers.
        "caCertificate" ca_certificate: Nullable<Text>,
        /// Reverse private endpoints to reach the brokers through.
        "reversePrivateEndpointIds" reverse_private_endpoint_ids: Vec<Text>,
        /// New credentials (never echoed back).
        "credentials" credentials: Credentials,
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

impl SchemaRegistry {
    /// The `authentication`s the contract allows for a schema registry
    /// (`PipeMutateKafkaSchemaRegistry.authentication`).
    pub(crate) fn authentications() -> Allowed<Authentication> {
        Allowed { owner: "schemaRegistry", values: &[Authentication::Plain] }
    }
}

impl Kind for KafkaSource {
    const FORMATS: Option<&'static [DataFormat]> = {
        use DataFormat::*;
        Some(&[JsonEachRow, Avro, AvroConfluent, Protobuf])
    };
    const AUTHENTICATIONS: Option<&'static [Authentication]> = {
        use Authentication::*;
        Some(&[Plain, ScramSha256, ScramSha512, IamRole, IamUser, MutualTls])
    };
    const DATABASE: bool = false;
}

/// `PipePostKafkaSource`, with its offset and schema registry.
impl Check for KafkaSource {
    fn check(&self, c: &mut Checker<'_>) {
        let kafka = self;
        c.present("type", &kafka.kind, Rule::Required, |_, _| {});
        c.present("format", &kafka.format, Rule::Required, |_, _| {});
        // Values this crate does not know are refused unless sent as `not_yet_known`.
        c.known("type", &kafka.kind);
        c.known("format", &kafka.format);
        c.known("authentication", &kafka.authentication);
        check_allowed(c, "format", &kafka.format, SourceKind::Kafka.formats());
        let by_type = kafka.kind.as_ref().and_then(KafkaType::authentications);
        let allowed = by_type.or(SourceKind::Kafka.authentications());
        let method_allowed = check_allowed(c, "authentication", &kafka.authentication, allowed);
        if let Some(offset) = &kafka.offset {
            c.field("offset", |c| c.known("strategy", &offset.strategy));
        }
        c.required_text("brokers", &kafka.brokers);
        c.required_text("topics", &kafka.topics);
        c.present("authentication", &kafka.authentication, Rule::Required, |_, _| {});
        // Azure Event Hubs authenticate PLAIN with `credentials.connectionString`, not a user
        // and password (management OpenAPI, PipeKafkaSource; service notes, Pipes).
        let event_hubs = kafka.kind == Some(KafkaType::AzureEventHub);
        if event_hubs && kafka.authentication == Some(Authentication::Plain) {
            let has_connection_string = kafka.credentials.as_ref().is_some_and(|k| k.connection_string.is_some());
            if !has_connection_string {
                c.field("credentials", |c| {
                    c.fail_at(
                        "connectionString",
                        Rule::RequiredBecause("when type is azureeventhub and authentication is PLAIN"),
                    )
                });
            }
        } else if method_allowed {
            check_credentials(c, kafka.authentication.as_ref(), &kafka.credentials, "credentials", &kafka.iam_role);
        }
        if let Some(registry) = &kafka.schema_registry {
            c.field("schemaRegistry", |c| {
                // PipeKafkaSchemaRegistry.url: "HTTPS required".
                if let Some(url) = registry.url.as_deref() {
                    if !url.get(..8).is_some_and(|scheme| scheme.eq_ignore_ascii_case("https://")) {
                        c.fail_at("url", Rule::Format("of an https URL"));
                    }
                }
                c.known("authentication", &registry.authentication);
                let allowed = Some(SchemaRegistry::authentications());
                check_allowed(c, "authentication", &registry.authentication, allowed);
            });
        }
        if let Some(offset) = &kafka.offset {
            if offset.strategy == Some(OffsetStrategy::FromTimestamp) && offset.timestamp.is_none() {
                c.field("offset", |c| {
                    c.fail_at("timestamp", Rule::RequiredBecause("when offset.strategy is from_timestamp"))
                });
            }
        }
    }
}

impl KindPatch for KafkaSourcePatch {
    const REQUIRED: &'static [&'static str] = &[];
    const SETTINGS: &'static [&'static str] = &[];
}

/// `PipePatchKafkaSource`.
impl Check for KafkaSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        one_of(c, "authentication", &set(&self.authentication).cloned(), &SourceKind::Kafka.authentication_texts());
    }
}
