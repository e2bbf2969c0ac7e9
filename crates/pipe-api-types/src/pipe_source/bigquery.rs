//! `source.bigquery`: a one-time snapshot of BigQuery tables staged through a GCS bucket, a
//! database pipe that ends `Completed`: the create and read model (`PipeMutateBigQuerySource`,
//! `PipeBigQuerySource`) and its rules. The contract has no BigQuery update.

use super::credentials::check_service_account;
use super::postgres::check_table_engine;
use super::{Authentication, Check, DataFormat, Kind, ReplicationMode, ServiceAccount, TableEngineType};
use crate::Text;
use crate::validate::{Checker, one_of};

model! {
    /// `source.bigquery.settings` (`PipeBigQueryPipeSettings`).
    pub struct BigQuerySettings {
        /// The replication mode: BigQuery only snapshots (`snapshot`).
        "replicationMode" replication_mode: ReplicationMode,
        /// Keep columns' nullability in the destination.
        "allowNullableColumns" allow_nullable_columns: bool,
        /// Parallel workers in the initial load.
        "initialLoadParallelism" initial_load_parallelism: u32,
        /// Rows per partition in the snapshot.
        "snapshotNumRowsPerPartition" snapshot_num_rows_per_partition: u64,
        /// Tables snapshotted in parallel.
        "snapshotNumberOfParallelTables" snapshot_number_of_parallel_tables: u32,
    }
}

model! {
    /// One table loaded by a BigQuery pipe (`PipeBigQueryPipeTableMapping`). For a request,
    /// build it with [`BigQueryTableMapping::new`].
    pub struct BigQueryTableMapping {
        /// The source dataset.
        "sourceDatasetName" source_dataset_name: Text,
        /// The source table.
        "sourceTable" source_table: Text,
        /// The destination table.
        "targetTable" target_table: Text,
        /// Columns not loaded.
        "excludedColumns" excluded_columns: Vec<Text>,
        /// Whether `sortingKeys` is the destination table's sorting key.
        "useCustomSortingKey" use_custom_sorting_key: bool,
        /// The custom sorting key.
        "sortingKeys" sorting_keys: Vec<Text>,
        /// The destination table's engine.
        "tableEngine" table_engine: TableEngineType,
    }
}

impl BigQueryTableMapping {
    /// Loads `source_dataset_name.source_table` into `target_table`. `Default` is for reading.
    pub fn new(
        source_dataset_name: impl Into<Text>,
        source_table: impl Into<Text>,
        target_table: impl Into<Text>,
    ) -> Self {
        BigQueryTableMapping {
            source_dataset_name: Some(source_dataset_name.into()),
            source_table: Some(source_table.into()),
            target_table: Some(target_table.into()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.bigquery`: a snapshot of BigQuery tables. For a request, build it with
    /// [`BigQuerySource::new`] (`Default` is what a read starts from).
    pub struct BigQuerySource {
        /// The GCS path data is staged through (`gs://bucket/staging/`), cleaned up after the
        /// load.
        "snapshotStagingPath" snapshot_staging_path: Text,
        /// Load settings.
        "settings" settings: BigQuerySettings,
        /// The tables to load.
        "tableMappings" table_mappings: Vec<BigQueryTableMapping>,
        /// The service account to read with (requests only).
        "credentials" credentials: ServiceAccount,
    }
}

impl BigQuerySource {
    /// A snapshot of `table_mappings` staged through `snapshot_staging_path`, read with the
    /// service account `credentials`. `Default` is for reading; build a request with this.
    pub fn new(
        snapshot_staging_path: impl Into<Text>,
        credentials: ServiceAccount,
        table_mappings: impl IntoIterator<Item = BigQueryTableMapping>,
    ) -> Self {
        BigQuerySource {
            snapshot_staging_path: Some(snapshot_staging_path.into()),
            credentials: Some(credentials),
            table_mappings: Some(table_mappings.into_iter().collect()),
            ..Default::default()
        }
    }
}

impl Kind for BigQuerySource {
    const FORMATS: Option<&'static [DataFormat]> = None;
    const AUTHENTICATIONS: Option<&'static [Authentication]> = None;
    const DATABASE: bool = true;
}

/// `PipeMutateBigQuerySource`: the contract requires none of its members; what is present
/// follows its enums ("BigQuery only supports snapshot mode"; the engines of database pipes).
impl Check for BigQuerySource {
    fn check(&self, c: &mut Checker<'_>) {
        let bigquery = self;
        if let Some(path) = &bigquery.snapshot_staging_path {
            c.field("snapshotStagingPath", |c| c.text(path));
        }
        if let Some(settings) = &bigquery.settings {
            c.field("settings", |c| one_of(c, "replicationMode", &settings.replication_mode, &["snapshot"]));
        }
        if let Some(mappings) = &bigquery.table_mappings {
            c.field("tableMappings", |c| c.each(mappings, |c, mapping| check_table_engine(c, &mapping.table_engine)));
        }
        if let Some(credentials) = &bigquery.credentials {
            c.field("credentials", |c| check_service_account(c, credentials));
        }
    }
}
