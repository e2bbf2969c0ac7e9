//! What the create-pipe contract allows per source kind and per type, in one table. The source
//! is the management OpenAPI: the `format` enums of `PipePostKafkaSource`,
//! `PipePostObjectStorageSource`, `PipePostKinesisSource` and `PipePostPubSubSource`, the
//! `authentication` enums of those and of `PipeMutatePostgresSource` and
//! `PipeMutateMySQLSource`, and the descriptions that narrow them per `type`
//! (`PipePostKafkaSource.authentication`: "Supported authentication methods: kafka: ...";
//! `PipePostObjectStorageSource.authentication`: "IAM_USER is for S3, GCS, and DigitalOcean
//! Spaces. IAM_ROLE is for S3 only. SERVICE_ACCOUNT is for GCS only. CONNECTION_STRING is for
//! Azure Blob Storage. PUBLIC uses no authentication.", PUBLIC being an absent authentication).
//! The service notes (Pipes) list the same Kafka values.

use super::{Authentication, DataFormat, KafkaType, ObjectStorageType, SchemaRegistry, SourceKind};
use crate::validate::{Checker, OpenEnum, Rule};

/// Values the contract allows for one owner (a source kind or a type), fewer than the enum
/// has: one row of the table below.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Allowed<V: 'static> {
    /// Whom they are allowed for, as a rule names it: `kafka`, `type msk`.
    pub(crate) owner: &'static str,
    /// The values allowed.
    pub(crate) values: &'static [V],
}

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
            SourceKind::PubSub => ("pubsub", &[JsonEachRow, Avro, Protobuf]),
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
            SourceKind::Mysql => ("mysql", &[Basic, IamRole]),
            SourceKind::PubSub => ("pubsub", &[ServiceAccount]),
            _ => return None,
        };
        Some(Allowed { owner, values })
    }

    /// The texts of [`SourceKind::authentications`] (none for a kind without one), as an
    /// update's check takes them: an update does not name the pipe's `type`, so the narrower
    /// per-type lists cannot be applied there.
    pub(crate) fn authentication_texts(&self) -> Vec<&'static str> {
        self.authentications().map_or_else(Vec::new, |allowed| allowed.values.iter().map(AsRef::as_ref).collect())
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

/// A value, when present, is one of those the contract allows for its owner (the table in
/// `pipe_source`). A value this crate does not know is left to `c.known`, which refuses a likely
/// typo and passes a newer value sent with `not_yet_known` (or read from a server); an owner it
/// does not know (`allowed` is `None`) allows anything its enum has. Whether the value passed:
/// what a refused method needs (its credentials) is not asked for as well.
pub(crate) fn check_allowed<E: OpenEnum + AsRef<str> + PartialEq>(
    c: &mut Checker,
    name: &'static str,
    value: &Option<E>,
    allowed: Option<Allowed<E>>,
) -> bool {
    let (Some(value), Some(allowed)) = (value, allowed) else { return true };
    if allowed.values.contains(value) || !E::known_texts().contains(&value.as_ref()) {
        return true;
    }
    let texts = allowed.values.iter().map(AsRef::as_ref).collect();
    c.fail_at(name, Rule::OneOfFor { allowed: texts, owner: allowed.owner });
    false
}
