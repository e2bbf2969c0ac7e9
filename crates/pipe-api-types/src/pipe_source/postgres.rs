//! `source.postgres`: Postgres replication, its settings and table mappings, and the rules a
//! table mapping follows.

use super::{Authentication, Check, Credentials, DataFormat, Kind, KindPatch, PatchSlot, SourceKind};
use super::{check_allowed, check_credentials};
use crate::nullable::set;
use crate::pipe_update::check_database_settings;
use crate::validate::{Checker, Rule, one_of};
use crate::{Nullable, Text};

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
    /// How a database pipe (Postgres, MySQL, MongoDB, BigQuery) replicates.
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

/// `PipePostgresPipeTableMapping.tableEngine`, and the same of every database kind's mapping (no
/// `SummingMergeTree` for database pipes).
const DATABASE_TABLE_ENGINES: &[&str] = &["MergeTree", "ReplacingMergeTree", "Null"];

/// A table mapping names its source schema, source table and target table.
pub(crate) fn check_table_names(c: &mut Checker, mapping: &PostgresTableMapping) {
    c.required_text("sourceSchemaName", &mapping.source_schema_name);
    c.required_text("sourceTable", &mapping.source_table);
    c.required_text("targetTable", &mapping.target_table);
}

/// `PipePostgresPipeTableMapping`: its names, and the rules of [`check_mapping_columns`].
pub(crate) fn check_table_mapping(c: &mut Checker, mapping: &PostgresTableMapping) {
    check_table_names(c, mapping);
    check_mapping_columns(
        c,
        &mapping.excluded_columns,
        mapping.use_custom_sorting_key,
        &mapping.sorting_keys,
        &mapping.table_engine,
    );
}

/// What a database pipe's table mapping says of its columns and engine, in every kind that has
/// them (`PipePostgresPipeTableMapping`, `PipeMySQLPipeTableMapping`): unique `excludedColumns`
/// and `sortingKeys` (`uniqueItems`), `sortingKeys` when `useCustomSortingKey` is true ("If
/// true, sortingKeys must be provided"), and the engines a database pipe may create.
pub(crate) fn check_mapping_columns(
    c: &mut Checker,
    excluded_columns: &Option<Vec<Text>>,
    use_custom_sorting_key: Option<bool>,
    sorting_keys: &Option<Vec<Text>>,
    table_engine: &Option<TableEngineType>,
) {
    for (name, list) in [("excludedColumns", excluded_columns), ("sortingKeys", sorting_keys)] {
        if let Some(list) = list {
            if list.iter().enumerate().any(|(i, item)| list[..i].contains(item)) {
                c.fail_at(name, Rule::UniqueItems);
            }
        }
    }
    if use_custom_sorting_key == Some(true) && sorting_keys.as_ref().is_none_or(Vec::is_empty) {
        c.fail_at("sortingKeys", Rule::RequiredBecause("when useCustomSortingKey is true"));
    }
    check_table_engine(c, table_engine);
}

/// A database pipe's `tableEngine`, when present: one its kind may create.
pub(crate) fn check_table_engine(c: &mut Checker, table_engine: &Option<TableEngineType>) {
    one_of::<TableEngineType>(c, "tableEngine", table_engine, DATABASE_TABLE_ENGINES);
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

impl Kind for PostgresSource {
    const FORMATS: Option<&'static [DataFormat]> = None;
    const AUTHENTICATIONS: Option<&'static [Authentication]> = Some(&[Authentication::Basic, Authentication::IamRole]);
    const DATABASE: bool = true;
}

/// `PipeMutatePostgresSource`, with its settings and table mappings.
impl Check for PostgresSource {
    fn check(&self, c: &mut Checker<'_>) {
        let postgres = self;
        c.required_text("host", &postgres.host);
        c.known("type", &postgres.kind);
        c.known("authentication", &postgres.authentication);
        let allowed = SourceKind::Postgres.authentications();
        let method_allowed = check_allowed(c, "authentication", &postgres.authentication, allowed);
        if let Some(settings) = &postgres.settings {
            c.field("settings", |c| check_postgres_settings(c, settings));
        }
        c.present("port", &postgres.port, Rule::Required, |c, port| {
            if *port == 0 {
                c.fail(Rule::Range { min: 1, max: 65535 });
            }
        });
        c.required_text("database", &postgres.database);
        let auth = postgres.authentication.as_ref().unwrap_or(&Authentication::Basic);
        if method_allowed {
            check_credentials(c, Some(auth), &postgres.credentials, "credentials", &postgres.iam_role);
        }
        c.field("tableMappings", |c| match &postgres.table_mappings {
            Some(mappings) if !mappings.is_empty() => c.each(mappings, crate::pipe_source::check_table_mapping),
            _ => c.fail(Rule::MinItems(1)),
        });
    }
}

/// The minimums a CDC kind's create settings share (`PipePostgresPipeSettings`,
/// `PipeMySQLPipeSettings`), as the contract states them: `syncIntervalSeconds`, `pullBatchSize`
/// and `initialLoadParallelism` (`at_least_one`, in that order) at least 1,
/// `snapshotNumRowsPerPartition` at least 1000, `snapshotNumberOfParallelTables` at least 1.
pub(crate) fn check_cdc_minimums(c: &mut Checker, at_least_one: [Option<u32>; 3], rows: Option<u64>, tables: Option<u32>) {
    let [sync, pull, parallelism] = at_least_one;
    c.minimums(&[
        ("syncIntervalSeconds", sync.map(u64::from), 1),
        ("pullBatchSize", pull.map(u64::from), 1),
        ("initialLoadParallelism", parallelism.map(u64::from), 1),
        ("snapshotNumRowsPerPartition", rows, 1000),
        ("snapshotNumberOfParallelTables", tables.map(u64::from), 1),
    ]);
}

/// `PipePostgresPipeSettings`: each `minimum` as the contract states it, and
/// `replicationSlotName` "only valid for cdc_only mode".
fn check_postgres_settings(c: &mut Checker, settings: &PostgresSettings) {
    c.known("replicationMode", &settings.replication_mode);
    check_cdc_minimums(
        c,
        [settings.sync_interval_seconds, settings.pull_batch_size, settings.initial_load_parallelism],
        settings.snapshot_num_rows_per_partition,
        settings.snapshot_number_of_parallel_tables,
    );
    if settings.replication_slot_name.is_some() && settings.replication_mode != Some(ReplicationMode::CdcOnly) {
        c.fail_at("replicationSlotName", Rule::NotAllowedBecause("unless replicationMode is cdc_only"));
    }
}


impl KindPatch for PostgresSourcePatch {
    const REQUIRED: &'static [&'static str] = &[];
    const SETTINGS: &'static [&'static str] = PostgresSettingsPatch::FIELDS;
}

/// `source.postgres` of an update is the one kind the contract does not let be `null`.
impl PatchSlot for PostgresSourcePatch {
    type Patch = Self;

    fn patch(&self) -> Option<&Self> {
        Some(self)
    }
}

/// `PipePatchPostgresSource`, with its settings and table mappings.
impl Check for PostgresSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        let postgres = self;
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
}
