//! `source.mysql`: MySQL (and MariaDB) replication, a database (CDC) pipe like Postgres: the
//! create and read model (`PipeMutateMySQLSource`, `PipeMySQLSource`), the update model
//! (`PipePatchMySQLSource`) and the rules of both.

use super::postgres::{check_mapping_columns, check_table_engine};
use super::{Authentication, Check, Credentials, DataFormat, Kind, KindPatch, ReplicationMode, SourceKind, TableEngineType};
use super::{check_allowed, check_credentials};
use crate::nullable::set;
use crate::pipe_update::check_database_settings;
use crate::validate::{Checker, Rule, one_of};
use crate::{Nullable, Text};

open_enum! {
    /// The flavour of a MySQL source (`type`; the service takes `mysql` when absent).
    pub enum MySqlType {
        /// MySQL.
        MySql => "mysql",
        /// Amazon RDS for MySQL.
        RdsMySql => "rdsmysql",
        /// Amazon Aurora MySQL.
        AuroraMySql => "auroramysql",
        /// MariaDB.
        MariaDb => "mariadb",
        /// Amazon RDS for MariaDB.
        RdsMariaDb => "rdsmariadb",
    }
}

open_enum! {
    /// How a MySQL pipe follows the binary log (`replicationMechanism`; `GTID` when absent).
    pub enum ReplicationMechanism {
        /// Global transaction identifiers.
        Gtid => "GTID",
        /// Binary log file and position (not for MariaDB).
        FilePos => "FILE_POS",
    }
}

model! {
    /// `source.mysql.settings` (`PipeMySQLPipeSettings`).
    pub struct MySqlSettings {
        /// Seconds between CDC syncs (at least 1).
        "syncIntervalSeconds" sync_interval_seconds: u32,
        /// Rows per pulled batch (at least 1).
        "pullBatchSize" pull_batch_size: u32,
        /// The replication mode (required).
        "replicationMode" replication_mode: ReplicationMode,
        /// How the binary log is followed.
        "replicationMechanism" replication_mechanism: ReplicationMechanism,
        /// Compress the MySQL connection.
        "useCompression" use_compression: bool,
        /// Keep columns' nullability in the destination.
        "allowNullableColumns" allow_nullable_columns: bool,
        /// Parallel workers per table in the initial load (at least 1).
        "initialLoadParallelism" initial_load_parallelism: u32,
        /// Rows per partition in the snapshot (at least 1000).
        "snapshotNumRowsPerPartition" snapshot_num_rows_per_partition: u64,
        /// Tables snapshotted in parallel (at least 1).
        "snapshotNumberOfParallelTables" snapshot_number_of_parallel_tables: u32,
        /// Whether a MySQL `DELETE` deletes rows for good in a `ReplacingMergeTree` table.
        "deleteOnMerge" delete_on_merge: bool,
    }
}

model! {
    /// One table replicated by a MySQL pipe (`PipeMySQLPipeTableMapping`). For a request, build
    /// it with [`MySqlTableMapping::new`].
    pub struct MySqlTableMapping {
        /// The source database.
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
        /// The destination table's engine.
        "tableEngine" table_engine: TableEngineType,
        /// The column used to split the initial snapshot into parallel parts.
        "partitionKey" partition_key: Text,
    }
}

impl MySqlTableMapping {
    /// Replicates `source_schema_name.source_table` into `target_table`: the three names every
    /// mapping needs (to add it, and to remove it again). `Default` is for reading.
    pub fn new(
        source_schema_name: impl Into<Text>,
        source_table: impl Into<Text>,
        target_table: impl Into<Text>,
    ) -> Self {
        MySqlTableMapping {
            source_schema_name: Some(source_schema_name.into()),
            source_table: Some(source_table.into()),
            target_table: Some(target_table.into()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.mysql`: MySQL replication. For a request, build it with [`MySqlSource::new`]
    /// (`Default` is what a read starts from).
    pub struct MySqlSource {
        /// The MySQL flavour.
        "type" kind: MySqlType,
        /// The server's host.
        "host" host: Text,
        /// The server's port.
        "port" port: u16,
        /// How to authenticate (`basic` or `IAM_ROLE`).
        "authentication" authentication: Authentication,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// The host name the server's TLS certificate names, when it differs from `host`.
        "tlsHost" tls_host: Text,
        /// CA certificate (PEM) to verify the server.
        "caCertificate" ca_certificate: Text,
        /// Connect without TLS.
        "disableTls" disable_tls: bool,
        /// Do not verify the server's certificate.
        "skipCertVerification" skip_cert_verification: bool,
        /// The `server_id` the pipe replicates as (assigned when absent).
        "serverId" server_id: u32,
        /// User name and password (requests only).
        "credentials" credentials: Credentials,
        /// Replication settings (required on create).
        "settings" settings: MySqlSettings,
        /// The tables to replicate.
        "tableMappings" table_mappings: Vec<MySqlTableMapping>,
    }
}

impl MySqlSource {
    /// Replication of `table_mappings` (at least one) from `host:port` in `replication_mode`:
    /// what the service requires of a MySQL source. The default `basic` authentication needs
    /// [`credentials`](Self::credentials). `Default` is for reading; build a request with this.
    pub fn new(
        host: impl Into<Text>,
        port: u16,
        replication_mode: ReplicationMode,
        table_mappings: impl IntoIterator<Item = MySqlTableMapping>,
    ) -> Self {
        MySqlSource {
            host: Some(host.into()),
            port: Some(port),
            settings: Some(MySqlSettings::default().replication_mode(replication_mode)),
            table_mappings: Some(table_mappings.into_iter().collect()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.mysql.settings` in an update (`PipePatchMySQLPipeSettings`).
    pub struct MySqlSettingsPatch {
        /// Seconds between CDC syncs (at least 1).
        "syncIntervalSeconds" sync_interval_seconds: Nullable<u32>,
        /// Rows per pulled batch (at least 1).
        "pullBatchSize" pull_batch_size: Nullable<u32>,
        /// Compress the MySQL connection.
        "useCompression" use_compression: Nullable<bool>,
    }
}

model! {
    /// `source.mysql` in an update (`PipePatchMySQLSource`): connection, settings, and tables
    /// to add or remove. The contract requires `host` and `port` in every MySQL update. The
    /// service refuses table changes unless the pipe is paused.
    pub struct MySqlSourcePatch {
        /// New user name and password (never echoed back).
        "credentials" credentials: Credentials,
        /// The server's host (required, though it may be `null`).
        "host" host: Nullable<Text>,
        /// The server's port (required, though it may be `null`).
        "port" port: Nullable<u16>,
        /// How to authenticate (`basic` or `IAM_ROLE`).
        "authentication" authentication: Nullable<Authentication>,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Nullable<Text>,
        /// The host name the server's TLS certificate names.
        "tlsHost" tls_host: Nullable<Text>,
        /// CA certificate (PEM) to verify the server.
        "caCertificate" ca_certificate: Nullable<Text>,
        /// Connect without TLS.
        "disableTls" disable_tls: Nullable<bool>,
        /// Do not verify the server's certificate.
        "skipCertVerification" skip_cert_verification: Nullable<bool>,
        /// The `server_id` the pipe replicates as.
        "serverId" server_id: Nullable<u32>,
        /// Replication settings.
        "settings" settings: MySqlSettingsPatch,
        /// Tables to start replicating.
        "tableMappingsToAdd" table_mappings_to_add: Vec<MySqlTableMapping>,
        /// Tables to stop replicating, named by `sourceSchemaName`, `sourceTable` and
        /// `targetTable`.
        "tableMappingsToRemove" table_mappings_to_remove: Vec<MySqlTableMapping>,
    }
}

impl MySqlSourcePatch {
    /// The members the contract requires in every MySQL update (`PipePatchMySQLSource.required`).
    pub const REQUIRED: &'static [&'static str] = &["host", "port"];
}

impl Kind for MySqlSource {
    const FORMATS: Option<&'static [DataFormat]> = None;
    const AUTHENTICATIONS: Option<&'static [Authentication]> = Some(&[Authentication::Basic, Authentication::IamRole]);
    const DATABASE: bool = true;
}

impl KindPatch for MySqlSourcePatch {
    const REQUIRED: &'static [&'static str] = MySqlSourcePatch::REQUIRED;
    const SETTINGS: &'static [&'static str] = MySqlSettingsPatch::FIELDS;
}

/// `PipeMutateMySQLSource` with its settings and table mappings.
impl Check for MySqlSource {
    fn check(&self, c: &mut Checker<'_>) {
        let mysql = self;
        c.known("type", &mysql.kind);
        c.required_text("host", &mysql.host);
        c.present("port", &mysql.port, Rule::Required, |_, _| {});
        c.port("port", mysql.port);
        c.known("authentication", &mysql.authentication);
        let method_allowed = check_allowed(c, "authentication", &mysql.authentication, SourceKind::Mysql.authentications());
        if method_allowed {
            let auth = mysql.authentication.as_ref().unwrap_or(&Authentication::Basic);
            check_credentials(c, Some(auth), &mysql.credentials, "credentials", &mysql.iam_role);
        }
        check_server_id(c, mysql.server_id);
        c.present("settings", &mysql.settings, Rule::Required, |c, settings| {
            c.present("replicationMode", &settings.replication_mode, Rule::Required, |_, _| {});
            c.known("replicationMode", &settings.replication_mode);
            c.known("replicationMechanism", &settings.replication_mechanism);
            // replicationMechanism: "MariaDB supports GTID only".
            let mariadb = matches!(mysql.kind, Some(MySqlType::MariaDb | MySqlType::RdsMariaDb));
            if mariadb && settings.replication_mechanism == Some(ReplicationMechanism::FilePos) {
                c.fail_at("replicationMechanism", Rule::NotAllowedBecause("when type is mariadb or rdsmariadb"));
            }
            super::postgres::check_cdc_minimums(
                c,
                [settings.sync_interval_seconds, settings.pull_batch_size, settings.initial_load_parallelism],
                settings.snapshot_num_rows_per_partition,
                settings.snapshot_number_of_parallel_tables,
            );
        });
        c.field("tableMappings", |c| match &mysql.table_mappings {
            Some(mappings) if !mappings.is_empty() => c.each(mappings, check_table_mapping),
            _ => c.fail(Rule::MinItems(1)),
        });
    }
}

/// `PipePatchMySQLSource` with its settings and table mappings.
impl Check for MySqlSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        let mysql = self;
        // `required: [host, port]`, each `["string", "null"]` / `["integer", "null"]`: present,
        // though it may be `null`.
        c.present("host", &mysql.host, Rule::Required, |c, host| {
            if let Nullable::Value(host) = host {
                c.text(host);
            }
        });
        c.present("port", &mysql.port, Rule::Required, |_, _| {});
        c.port("port", set(&mysql.port).copied());
        let authentication = set(&mysql.authentication).cloned();
        one_of(c, "authentication", &authentication, &SourceKind::Mysql.authentication_texts());
        // iamRole: "required for IAM_ROLE authentication".
        if authentication == Some(Authentication::IamRole) && set(&mysql.iam_role).is_none() {
            c.fail_at("iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE"));
        }
        check_server_id(c, set(&mysql.server_id).copied());
        if let Some(settings) = &mysql.settings {
            c.field("settings", |c| check_database_settings(c, &settings.sync_interval_seconds, &settings.pull_batch_size));
        }
        if let Some(added) = &mysql.table_mappings_to_add {
            c.field("tableMappingsToAdd", |c| c.each(added, check_table_mapping));
        }
        if let Some(removed) = &mysql.table_mappings_to_remove {
            // "Only sourceSchemaName, sourceTable, and targetTable are required for removal."
            c.field("tableMappingsToRemove", |c| {
                c.each(removed, |c, mapping| {
                    check_table_names(c, mapping);
                    check_table_engine(c, &mapping.table_engine);
                })
            });
        }
    }
}

/// `serverId`: minimum 1 (the type holds the maximum, 4294967295).
fn check_server_id(c: &mut Checker, server_id: Option<u32>) {
    if server_id == Some(0) {
        c.fail_at("serverId", Rule::Range { min: 1, max: u32::MAX.into() });
    }
}

/// A table mapping names its source database, source table and target table.
fn check_table_names(c: &mut Checker, mapping: &MySqlTableMapping) {
    c.required_text("sourceSchemaName", &mapping.source_schema_name);
    c.required_text("sourceTable", &mapping.source_table);
    c.required_text("targetTable", &mapping.target_table);
}

/// `PipeMySQLPipeTableMapping`: its names and its columns' and engine's rules.
fn check_table_mapping(c: &mut Checker, mapping: &MySqlTableMapping) {
    check_table_names(c, mapping);
    check_mapping_columns(
        c,
        &mapping.excluded_columns,
        mapping.use_custom_sorting_key,
        &mapping.sorting_keys,
        &mapping.table_engine,
    );
}
