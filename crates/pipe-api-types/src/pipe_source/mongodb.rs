//! `source.mongodb`: MongoDB replication, a database (CDC) pipe whose collections map to tables:
//! the create and read model (`PipeMutateMongoDBSource`, `PipeMongoDBSource`), the update model
//! (`PipePatchMongoDBSource`) and the rules of both.

use super::postgres::check_table_engine;
use super::{Authentication, Check, Credentials, DataFormat, Kind, KindPatch, ReplicationMode, TableEngineType};
use crate::nullable::set;
use crate::pipe_update::check_database_settings;
use crate::validate::{Checker, Rule};
use crate::{Nullable, Secret, Text};

open_enum! {
    /// Which members of a replica set a MongoDB pipe reads from (`readPreference`).
    pub enum ReadPreference {
        /// The primary only.
        Primary => "primary",
        /// The primary, or a secondary when it is unavailable.
        PrimaryPreferred => "primaryPreferred",
        /// Secondaries only.
        Secondary => "secondary",
        /// A secondary, or the primary when none is available.
        SecondaryPreferred => "secondaryPreferred",
        /// The member of the lowest latency.
        Nearest => "nearest",
    }
}

model! {
    /// `source.mongodb.settings` (`PipeMongoDBPipeSettings`).
    pub struct MongoDbSettings {
        /// Seconds between CDC syncs (at least 1).
        "syncIntervalSeconds" sync_interval_seconds: u32,
        /// Documents per pulled batch (at least 1).
        "pullBatchSize" pull_batch_size: u32,
        /// The replication mode (required).
        "replicationMode" replication_mode: ReplicationMode,
        /// Documents per partition in the snapshot (at least 1000).
        "snapshotNumRowsPerPartition" snapshot_num_rows_per_partition: u64,
        /// Collections snapshotted in parallel (at least 1).
        "snapshotNumberOfParallelTables" snapshot_number_of_parallel_tables: u32,
        /// Whether a MongoDB delete deletes rows for good in a `ReplacingMergeTree` table.
        "deleteOnMerge" delete_on_merge: bool,
        /// Store JSON values in the native JSON type rather than as `String`.
        "useJsonNativeFormat" use_json_native_format: bool,
    }
}

model! {
    /// One collection replicated by a MongoDB pipe (`PipeMongoDBPipeTableMapping`). For a
    /// request, build it with [`MongoDbTableMapping::new`].
    pub struct MongoDbTableMapping {
        /// The source database.
        "sourceDatabaseName" source_database_name: Text,
        /// The source collection.
        "sourceCollection" source_collection: Text,
        /// The destination table.
        "targetTable" target_table: Text,
        /// The destination table's engine.
        "tableEngine" table_engine: TableEngineType,
    }
}

impl MongoDbTableMapping {
    /// Replicates `source_database_name.source_collection` into `target_table`: the three names
    /// every mapping needs (to add it, and to remove it again). `Default` is for reading.
    pub fn new(
        source_database_name: impl Into<Text>,
        source_collection: impl Into<Text>,
        target_table: impl Into<Text>,
    ) -> Self {
        MongoDbTableMapping {
            source_database_name: Some(source_database_name.into()),
            source_collection: Some(source_collection.into()),
            target_table: Some(target_table.into()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.mongodb`: MongoDB replication. For a request, build it with
    /// [`MongoDbSource::new`] (`Default` is what a read starts from).
    pub struct MongoDbSource {
        /// The connection URI (`mongodb://...` or `mongodb+srv://...`); a secret, as it may hold
        /// a user and password.
        "uri" uri: Secret,
        /// Which replica set members to read from.
        "readPreference" read_preference: ReadPreference,
        /// The host name the server's TLS certificate names.
        "tlsHost" tls_host: Text,
        /// Connect without TLS.
        "disableTls" disable_tls: bool,
        /// Do not verify the server's certificate.
        "skipCertVerification" skip_cert_verification: bool,
        /// CA certificate (PEM) to verify the server.
        "caCertificate" ca_certificate: Text,
        /// User name and password (requests only).
        "credentials" credentials: Credentials,
        /// Replication settings (required on create).
        "settings" settings: MongoDbSettings,
        /// The collections to replicate.
        "tableMappings" table_mappings: Vec<MongoDbTableMapping>,
    }
}

impl MongoDbSource {
    /// Replication of `table_mappings` (at least one) from the deployment at `uri`, reading as
    /// `read_preference`, in `replication_mode`: what the service requires of a MongoDB source.
    /// `Default` is for reading; build a request with this.
    pub fn new(
        uri: impl Into<Secret>,
        read_preference: ReadPreference,
        replication_mode: ReplicationMode,
        table_mappings: impl IntoIterator<Item = MongoDbTableMapping>,
    ) -> Self {
        MongoDbSource {
            uri: Some(uri.into()),
            read_preference: Some(read_preference),
            settings: Some(MongoDbSettings::default().replication_mode(replication_mode)),
            table_mappings: Some(table_mappings.into_iter().collect()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.mongodb.settings` in an update (`PipePatchMongoDBPipeSettings`).
    pub struct MongoDbSettingsPatch {
        /// Seconds between CDC syncs (at least 1).
        "syncIntervalSeconds" sync_interval_seconds: Nullable<u32>,
        /// Documents per pulled batch (at least 1).
        "pullBatchSize" pull_batch_size: Nullable<u32>,
    }
}

model! {
    /// `source.mongodb` in an update (`PipePatchMongoDBSource`). The contract requires `uri`
    /// and `readPreference` in every MongoDB update. The service refuses collection changes
    /// unless the pipe is paused.
    pub struct MongoDbSourcePatch {
        /// New user name and password (never echoed back).
        "credentials" credentials: Credentials,
        /// The connection URI (required, though it may be `null`).
        "uri" uri: Nullable<Secret>,
        /// Which replica set members to read from (required, though it may be `null`).
        "readPreference" read_preference: Nullable<ReadPreference>,
        /// The host name the server's TLS certificate names.
        "tlsHost" tls_host: Nullable<Text>,
        /// Connect without TLS.
        "disableTls" disable_tls: Nullable<bool>,
        /// Do not verify the server's certificate.
        "skipCertVerification" skip_cert_verification: Nullable<bool>,
        /// CA certificate (PEM) to verify the server.
        "caCertificate" ca_certificate: Nullable<Text>,
        /// Replication settings.
        "settings" settings: MongoDbSettingsPatch,
        /// Collections to start replicating.
        "tableMappingsToAdd" table_mappings_to_add: Vec<MongoDbTableMapping>,
        /// Collections to stop replicating, named by `sourceDatabaseName`, `sourceCollection`
        /// and `targetTable`.
        "tableMappingsToRemove" table_mappings_to_remove: Vec<MongoDbTableMapping>,
    }
}

impl MongoDbSourcePatch {
    /// The members the contract requires in every MongoDB update
    /// (`PipePatchMongoDBSource.required`).
    pub const REQUIRED: &'static [&'static str] = &["uri", "readPreference"];
}

impl Kind for MongoDbSource {
    const FORMATS: Option<&'static [DataFormat]> = None;
    const AUTHENTICATIONS: Option<&'static [Authentication]> = None;
    const DATABASE: bool = true;
}

impl KindPatch for MongoDbSourcePatch {
    const REQUIRED: &'static [&'static str] = MongoDbSourcePatch::REQUIRED;
    const SETTINGS: &'static [&'static str] = MongoDbSettingsPatch::FIELDS;
}

/// `PipeMutateMongoDBSource` with its settings and collection mappings.
impl Check for MongoDbSource {
    fn check(&self, c: &mut Checker<'_>) {
        let mongodb = self;
        check_uri(c, &mongodb.uri);
        c.present("readPreference", &mongodb.read_preference, Rule::Required, |_, _| {});
        c.known("readPreference", &mongodb.read_preference);
        c.present("settings", &mongodb.settings, Rule::Required, |c, settings| {
            c.present("replicationMode", &settings.replication_mode, Rule::Required, |_, _| {});
            c.known("replicationMode", &settings.replication_mode);
            c.minimums(&[
                ("syncIntervalSeconds", settings.sync_interval_seconds.map(u64::from), 1),
                ("pullBatchSize", settings.pull_batch_size.map(u64::from), 1),
                ("snapshotNumRowsPerPartition", settings.snapshot_num_rows_per_partition, 1000),
                ("snapshotNumberOfParallelTables", settings.snapshot_number_of_parallel_tables.map(u64::from), 1),
            ]);
        });
        c.field("tableMappings", |c| match &mongodb.table_mappings {
            Some(mappings) if !mappings.is_empty() => c.each(mappings, check_table_mapping),
            _ => c.fail(Rule::MinItems(1)),
        });
    }
}

/// `PipePatchMongoDBSource` with its settings and collection mappings.
impl Check for MongoDbSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        let mongodb = self;
        // `required: [uri, readPreference]`, each may be `null`: present.
        check_uri(c, &mongodb.uri);
        c.present("readPreference", &mongodb.read_preference, Rule::Required, |_, _| {});
        c.known("readPreference", &set(&mongodb.read_preference).cloned());
        if let Some(settings) = &mongodb.settings {
            c.field("settings", |c| check_database_settings(c, &settings.sync_interval_seconds, &settings.pull_batch_size));
        }
        if let Some(added) = &mongodb.table_mappings_to_add {
            c.field("tableMappingsToAdd", |c| c.each(added, check_table_mapping));
        }
        if let Some(removed) = &mongodb.table_mappings_to_remove {
            c.field("tableMappingsToRemove", |c| c.each(removed, check_table_mapping));
        }
    }
}

/// `uri`, required on create and update alike. Its form is the server's to judge: a secret is
/// not read here (a desired state's reference stands in for it until it is filled).
fn check_uri<T>(c: &mut Checker, uri: &Option<T>) {
    c.present("uri", uri, Rule::Required, |_, _| {});
}

/// `PipeMongoDBPipeTableMapping`: its three names and the engines a database pipe may create.
fn check_table_mapping(c: &mut Checker, mapping: &MongoDbTableMapping) {
    c.required_text("sourceDatabaseName", &mapping.source_database_name);
    c.required_text("sourceCollection", &mapping.source_collection);
    c.required_text("targetTable", &mapping.target_table);
    check_table_engine(c, &mapping.table_engine);
}
