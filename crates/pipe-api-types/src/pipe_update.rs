//! Changing a pipe: the update request (`PATCH .../pipes/{pipeId}`, the management OpenAPI's
//! `PipePatchRequest`) with its parts, and the state command (`PATCH .../pipes/{pipeId}/state`,
//! `PipeStatePatchRequest`).
//!
//! An update names only what changes, so every field is optional. What a source accepts in an
//! update is much less than on create (its kind, format, brokers or stream cannot change), so
//! each source kind has its own `...Patch` model here, rather than the create model with most
//! fields refused.

use crate::nullable::set;
use crate::pipe::{DestinationColumn, FieldMapping, check_column, check_field_mapping, check_name};
use crate::pipe_settings::PipeSettings;
use crate::pipe_source::{self, Authentication, Credentials, PostgresTableMapping, SourceKind};
use crate::pipe_source::{MongoDbSourcePatch, MySqlSourcePatch, PubSubSourcePatch};
use crate::pipe_source::{check_table_mapping, check_table_names};
use crate::validate::one_of;
use crate::validate::{Checker, Rule, Validate, ValidationErrors};
use crate::{Nullable, Secret, Text};

open_enum! {
    /// What a state change asks of a pipe (`PipeStatePatchRequest.command`).
    pub enum PipeCommand {
        /// Start a `Stopped`, `Paused` or `Failed` pipe; starting a running pipe is refused.
        Start => "start",
        /// Stop ingesting, from any state: streaming pipes end `Stopped`, database (CDC) pipes
        /// `Paused`.
        Stop => "stop",
        /// Load a database (CDC) pipe's tables again from the start; refused for other pipes.
        Resync => "resync",
    }
}

model! {
    /// The body of the change-pipe-state request.
    pub struct ChangePipeStateRequest {
        /// The command.
        "command" command: PipeCommand,
    }
}

impl ChangePipeStateRequest {
    /// A request to carry out `command`.
    pub fn new(command: PipeCommand) -> Self {
        ChangePipeStateRequest { command: Some(command), ..Default::default() }
    }
}

impl Validate for ChangePipeStateRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            // The contract's enum: start, stop, resync (a newer one through `not_yet_known`).
            c.present("command", &self.command, Rule::Required, |_, _| {});
            c.known("command", &self.command);
        })
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

model! {
    /// `source.objectStorage` in an update (`PipePatchObjectStorageSource`).
    pub struct ObjectStorageSourcePatch {
        /// Skip the initial load, ingesting only files announced by the queue.
        "skipInitialLoad" skip_initial_load: Nullable<bool>,
        /// Skip every file up to and including this object key in the initial load.
        "startAfter" start_after: Nullable<Text>,
        /// How to authenticate: `IAM_ROLE`, `IAM_USER`, `CONNECTION_STRING` or `SERVICE_ACCOUNT`.
        "authentication" authentication: Nullable<Authentication>,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Nullable<Text>,
        /// Connection string for `CONNECTION_STRING` (Azure).
        "connectionString" connection_string: Nullable<Secret>,
        /// Path inside the Azure container; may contain glob patterns.
        "path" path: Nullable<Text>,
        /// The Azure container.
        "azureContainerName" azure_container_name: Nullable<Text>,
        /// Access key for `IAM_USER`.
        "accessKey" access_key: Nullable<Credentials>,
        /// Base64 of a GCP service account JSON key, for `SERVICE_ACCOUNT`.
        "serviceAccountKey" service_account_key: Nullable<Secret>,
    }
}

model! {
    /// `source.kinesis` in an update (`PipePatchKinesisSource`).
    pub struct KinesisSourcePatch {
        /// How to authenticate: `IAM_ROLE` or `IAM_USER`.
        "authentication" authentication: Nullable<Authentication>,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Nullable<Text>,
        /// Access key for `IAM_USER`.
        "accessKey" access_key: Nullable<Credentials>,
    }
}

model! {
    /// `source.postgres.settings` in an update (`PipePatchPostgresPipeSettings`).
    pub struct PostgresSettingsPatch {
        /// Seconds between CDC syncs (at least 1).
        "syncIntervalSeconds" sync_interval_seconds: Nullable<u32>,
        /// Rows per pulled batch (at least 1).
        "pullBatchSize" pull_batch_size: Nullable<u32>,
    }
}

model! {
    /// `source.postgres` in an update (`PipePatchPostgresSource`): connection, settings, and
    /// tables to add or remove. The service refuses table changes unless the pipe is paused.
    pub struct PostgresSourcePatch {
        /// New user name and password (never echoed back).
        "credentials" credentials: Credentials,
        /// The server's host.
        "host" host: Nullable<Text>,
        /// The server's port.
        "port" port: Nullable<u16>,
        /// The database to replicate.
        "database" database: Nullable<Text>,
        /// The host name the server's TLS certificate names.
        "tlsHost" tls_host: Nullable<Text>,
        /// CA certificate (PEM) to verify the server.
        "caCertificate" ca_certificate: Nullable<Text>,
        /// Connect without TLS.
        "disableTls" disable_tls: Nullable<bool>,
        /// Do not verify the server's certificate.
        "skipCertVerification" skip_cert_verification: Nullable<bool>,
        /// Replication settings.
        "settings" settings: PostgresSettingsPatch,
        /// Tables to start replicating.
        "tableMappingsToAdd" table_mappings_to_add: Vec<PostgresTableMapping>,
        /// Tables to stop replicating, named by `sourceSchemaName`, `sourceTable` and
        /// `targetTable`.
        "tableMappingsToRemove" table_mappings_to_remove: Vec<PostgresTableMapping>,
    }
}

model! {
    /// `source` in an update (`PipePatchSource`): at most the one kind the pipe has.
    pub struct PipeSourcePatch {
        /// A Kafka-style stream.
        "kafka" kafka: Nullable<KafkaSourcePatch>,
        /// Object storage.
        "objectStorage" object_storage: Nullable<ObjectStorageSourcePatch>,
        /// A Kinesis-style stream.
        "kinesis" kinesis: Nullable<KinesisSourcePatch>,
        /// Postgres replication (the one kind the contract does not let be `null`).
        "postgres" postgres: PostgresSourcePatch,
        /// A Pub/Sub topic.
        "pubsub" pubsub: Nullable<PubSubSourcePatch>,
        /// MySQL replication.
        "mysql" mysql: Nullable<MySqlSourcePatch>,
        /// MongoDB replication.
        "mongodb" mongodb: Nullable<MongoDbSourcePatch>,
        /// Check samples of the data, not only the connection (no effect on database pipes).
        "validateSamples" validate_samples: bool,
    }
}

model! {
    /// `destination` in an update (`PipePatchDestination`): the pipe's idea of the table's
    /// columns (the table itself is not altered).
    pub struct DestinationPatch {
        /// The destination table's columns.
        "columns" columns: Vec<DestinationColumn>,
    }
}

model! {
    /// The body of the update-pipe request (`PipePatchRequest`): only what changes.
    pub struct UpdatePipeRequest {
        /// A new name (1 to 255 characters).
        "name" name: Nullable<Text>,
        /// Changes to the source.
        "source" source: Nullable<PipeSourcePatch>,
        /// Changes to the destination.
        "destination" destination: Nullable<DestinationPatch>,
        /// The new field mappings, replacing the old (the table schema is not altered).
        "fieldMappings" field_mappings: Vec<FieldMapping>,
        /// Tuning settings to change.
        "settings" settings: Nullable<PipeSettings>,
    }
}

impl Validate for UpdatePipeRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            if let Some(name) = set(&self.name) {
                c.field("name", |c| check_name(c, name));
            }
            if let Some(source) = set(&self.source) {
                c.field("source", |c| check_source(c, source));
            }
            if let Some(columns) = set(&self.destination).and_then(|d| d.columns.as_ref()) {
                c.field("destination", |c| c.field("columns", |c| c.each(columns, check_column)));
            }
            if let Some(mappings) = &self.field_mappings {
                c.field("fieldMappings", |c| c.each(mappings, check_field_mapping));
            }
            if let Some(settings) = set(&self.settings) {
                c.field("settings", |c| crate::pipe_settings::check_settings(c, settings));
            }
        })
    }
}

fn check_source(c: &mut Checker, source: &PipeSourcePatch) {
    // A pipe has one source kind (service notes, Pipes), so an update edits at most that one;
    // a newer server's kind counts too.
    // A kind sent as `null` edits nothing.
    let modelled = [
        set(&source.kafka).is_some(),
        set(&source.object_storage).is_some(),
        set(&source.kinesis).is_some(),
        source.postgres.is_some(),
        set(&source.pubsub).is_some(),
        set(&source.mysql).is_some(),
        set(&source.mongodb).is_some(),
    ];
    let newer = source.unknown.iter().filter(|(_, raw)| raw.trim_start().starts_with('{')).count();
    let found = modelled.iter().filter(|present| **present).count() + newer;
    if found > 1 {
        c.fail(Rule::ExactlyOneSourceKind { found });
    }
    if let Some(kafka) = set(&source.kafka) {
        c.field("kafka", |c| {
            one_of(c, "authentication", &set(&kafka.authentication).cloned(), &SourceKind::Kafka.authentication_texts())
        });
    }
    if let Some(storage) = set(&source.object_storage) {
        c.field("objectStorage", |c| check_object_storage(c, storage));
    }
    if let Some(kinesis) = set(&source.kinesis) {
        c.field("kinesis", |c| {
            let authentication = set(&kinesis.authentication).cloned();
            one_of(c, "authentication", &authentication, &SourceKind::Kinesis.authentication_texts());
            // PipePatchKinesisSource.iamRole: "Required if IAM_ROLE is used".
            if authentication == Some(Authentication::IamRole) && set(&kinesis.iam_role).is_none() {
                c.fail_at("iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE"));
            }
        });
    }
    if let Some(postgres) = &source.postgres {
        c.field("postgres", |c| check_postgres(c, postgres));
    }
    if let Some(pubsub) = set(&source.pubsub) {
        c.field("pubsub", |c| pipe_source::pubsub::check_patch(c, pubsub));
    }
    if let Some(mysql) = set(&source.mysql) {
        c.field("mysql", |c| pipe_source::mysql::check_patch(c, mysql));
    }
    if let Some(mongodb) = set(&source.mongodb) {
        c.field("mongodb", |c| pipe_source::mongodb::check_patch(c, mongodb));
    }
}

/// PipePatchObjectStorageSource's own statements.
fn check_object_storage(c: &mut Checker, storage: &ObjectStorageSourcePatch) {
    let authentication = set(&storage.authentication).cloned();
    one_of(c, "authentication", &authentication, &SourceKind::ObjectStorage.authentication_texts());
    // startAfter: "Cannot be provided when skipInitialLoad is true".
    if set(&storage.skip_initial_load) == Some(&true) && set(&storage.start_after).is_some() {
        c.fail_at("startAfter", Rule::NotAllowedBecause("when skipInitialLoad is true"));
    }
    // connectionString and serviceAccountKey: "Required when authentication is ...".
    match authentication {
        Some(Authentication::ConnectionString) if set(&storage.connection_string).is_none() => {
            c.fail_at("connectionString", Rule::RequiredBecause("when authentication is CONNECTION_STRING"));
        }
        Some(Authentication::ServiceAccount) if set(&storage.service_account_key).is_none() => {
            c.fail_at("serviceAccountKey", Rule::RequiredBecause("when authentication is SERVICE_ACCOUNT"));
        }
        _ => {}
    }
    if let Some(container) = set(&storage.azure_container_name) {
        c.field("azureContainerName", |c| c.text(container));
    }
}

/// PipePatchPostgresSource and its settings and table mappings.
fn check_postgres(c: &mut Checker, postgres: &PostgresSourcePatch) {
    for (name, text) in [("host", &postgres.host), ("database", &postgres.database)] {
        if let Some(text) = set(text) {
            c.field(name, |c| c.text(text));
        }
    }
    // port: minimum 1, maximum 65535 (the type holds the maximum).
    c.port("port", set(&postgres.port).copied());
    if let Some(settings) = &postgres.settings {
        c.field("settings", |c| check_database_settings(c, &settings.sync_interval_seconds, &settings.pull_batch_size));
    }
    if let Some(added) = &postgres.table_mappings_to_add {
        c.field("tableMappingsToAdd", |c| c.each(added, check_table_mapping));
    }
    if let Some(removed) = &postgres.table_mappings_to_remove {
        // "Only sourceSchemaName, sourceTable, and targetTable are required for removal."
        c.field("tableMappingsToRemove", |c| c.each(removed, check_table_names));
    }
}

/// The settings every database kind's update shares
/// (`PipePatch{Postgres,MySQL,MongoDB}PipeSettings`): `syncIntervalSeconds` and
/// `pullBatchSize`, each minimum 1 when it is not `null`.
pub(crate) fn check_database_settings(
    c: &mut Checker,
    sync_interval_seconds: &Option<Nullable<u32>>,
    pull_batch_size: &Option<Nullable<u32>>,
) {
    c.minimums(&[
        ("syncIntervalSeconds", set(sync_interval_seconds).copied().map(u64::from), 1),
        ("pullBatchSize", set(pull_batch_size).copied().map(u64::from), 1),
    ]);
}

impl From<PipeCommand> for ChangePipeStateRequest {
    fn from(command: PipeCommand) -> Self {
        ChangePipeStateRequest::new(command)
    }
}
