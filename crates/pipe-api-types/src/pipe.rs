//! Pipes: the [`Pipe`] record, its scaling, destination, field mappings and settings, and the
//! create-pipe request with its validation.

use time::OffsetDateTime;

use crate::Text;
use crate::codec::rfc3339;
use crate::pipe_settings::{PipeSettings, Scaling, check_scaling, check_settings};
use crate::pipe_source::PipeSource;
use crate::validate::{Checker, Rule, Validate, ValidationErrors};
use crate::{PipeId, ServiceId};

open_enum! {
    /// The state of a pipe (PascalCase on the wire; new values appear over time).
    pub enum PipeState {
        /// The server does not know the state.
        Unknown => "Unknown",
        /// Being created.
        Provisioning => "Provisioning",
        /// Loading data.
        Running => "Running",
        /// Running with problems.
        Degraded => "Degraded",
        /// Being stopped.
        Stopping => "Stopping",
        /// Stopped.
        Stopped => "Stopped",
        /// Failed.
        Failed => "Failed",
        /// Done (one-time loads).
        Completed => "Completed",
        /// Failed inside the service.
        InternalError => "InternalError",
        /// Setting up replication (CDC).
        Setup => "Setup",
        /// Taking the initial snapshot (CDC).
        Snapshot => "Snapshot",
        /// Paused (CDC).
        Paused => "Paused",
        /// Being paused (CDC).
        Pausing => "Pausing",
        /// Being changed.
        Modifying => "Modifying",
        /// Re-synchronising (CDC).
        Resync => "Resync",
    }
}

model! {
    /// The engine of a destination table.
    pub struct TableEngine {
        /// The engine type.
        "type" kind: crate::TableEngineType,
        /// The version column (`ReplacingMergeTree`).
        "versionColumnId" version_column_id: Text,
        /// The columns to sum (`SummingMergeTree`).
        "columnIds" column_ids: Vec<Text>,
    }
}

model! {
    /// How a managed destination table is defined.
    pub struct TableDefinition {
        /// The table engine.
        "engine" engine: TableEngine,
        /// The sorting key columns.
        "sortingKey" sorting_key: Vec<Text>,
        /// The partition key expression.
        "partitionBy" partition_by: Text,
        /// The primary key expression.
        "primaryKey" primary_key: Text,
    }
}

model! {
    /// A column of a destination table.
    pub struct DestinationColumn {
        /// The column's name.
        "name" name: Text,
        /// The column's type, such as `String` or `DateTime64(3)`.
        "type" kind: Text,
    }
}

impl DestinationColumn {
    /// A column `name` of type `kind`.
    pub fn new(name: impl Into<Text>, kind: impl Into<Text>) -> Self {
        DestinationColumn { name: Some(name.into()), kind: Some(kind.into()), ..Default::default() }
    }
}

model! {
    /// Where a pipe loads data.
    pub struct Destination {
        /// The destination database.
        "database" database: Text,
        /// The destination table (not for database pipes).
        "table" table: Text,
        /// Whether the pipe manages (creates) the table.
        "managedTable" managed_table: bool,
        /// The table's definition, for managed tables.
        "tableDefinition" table_definition: TableDefinition,
        /// The table's columns.
        "columns" columns: Vec<DestinationColumn>,
        /// Roles granted to the database user the pipe creates (the default role when absent).
        "roles" roles: Vec<Text>,
    }
}

impl Destination {
    /// A table the pipe creates and manages, with its columns: what a streaming or object
    /// storage pipe's destination must name (the contract requires `table`, `managedTable` and
    /// at least one column). The database is the service's default unless set with
    /// [`Destination::database`].
    pub fn managed(table: impl Into<Text>, columns: impl IntoIterator<Item = DestinationColumn>) -> Self {
        Destination::default().table(table.into()).managed_table(true).columns(columns)
    }

    /// An existing table the pipe loads into, with the columns it fills.
    pub fn existing(table: impl Into<Text>, columns: impl IntoIterator<Item = DestinationColumn>) -> Self {
        Destination::default().table(table.into()).managed_table(false).columns(columns)
    }
}

model! {
    /// Which source field feeds which destination column.
    pub struct FieldMapping {
        /// The source field.
        "sourceField" source_field: Text,
        /// The destination column.
        "destinationField" destination_field: Text,
    }
}

impl FieldMapping {
    /// Maps `source_field` to `destination_field`.
    pub fn new(source_field: impl Into<Text>, destination_field: impl Into<Text>) -> Self {
        FieldMapping {
            source_field: Some(source_field.into()),
            destination_field: Some(destination_field.into()),
            ..Default::default()
        }
    }
}

model! {
    /// A data-ingestion pipe of a service.
    pub struct Pipe {
        /// The pipe's id.
        required "id" id: PipeId,
        /// The service that owns the pipe.
        "serviceId" service_id: ServiceId,
        /// The pipe's name.
        "name" name: Text,
        /// The pipe's state.
        "state" state: PipeState,
        /// How the pipe scales.
        "scaling" scaling: Scaling,
        /// Where the pipe reads.
        "source" source: PipeSource,
        /// Where the pipe writes.
        "destination" destination: Destination,
        /// Which source field feeds which column.
        "fieldMappings" field_mappings: Vec<FieldMapping>,
        /// Tuning settings.
        "settings" settings: PipeSettings,
        /// When the pipe was created.
        "createdAt" created_at: OffsetDateTime as rfc3339,
        /// When the pipe was last changed.
        "updatedAt" updated_at: OffsetDateTime as rfc3339,
    }
}

impl crate::HasState for Pipe {
    fn state(&self) -> Option<&str> {
        self.state.as_ref().map(PipeState::as_str)
    }
}

model! {
    /// The body of the create-pipe request: a name, exactly one source kind, a destination, and
    /// optionally field mappings, scaling and settings.
    pub struct CreatePipeRequest {
        /// The pipe's name (1 to 255 characters).
        "name" name: Text,
        /// Where the pipe reads: exactly one source kind.
        "source" source: PipeSource,
        /// Where the pipe writes.
        "destination" destination: Destination,
        /// Which source field feeds which column.
        "fieldMappings" field_mappings: Vec<FieldMapping>,
        /// How the pipe scales.
        "scaling" scaling: Scaling,
        /// Tuning settings.
        "settings" settings: PipeSettings,
    }
}

impl CreatePipeRequest {
    /// A request for a pipe `name` reading `source` (a [`PipeSource`], or one kind such as a
    /// [`KafkaSource`](crate::KafkaSource) built with its `new`) into `destination`.
    pub fn new(name: impl Into<Text>, source: impl Into<PipeSource>, destination: Destination) -> Self {
        CreatePipeRequest {
            name: Some(name.into()),
            source: Some(source.into()),
            destination: Some(destination),
            ..Default::default()
        }
    }
}

/// The longest pipe name the service accepts.
const MAX_NAME_CHARS: usize = 255;

/// A pipe's name: not blank, no control characters, at most [`MAX_NAME_CHARS`] characters (on
/// create and on update alike).
pub(crate) fn check_name(c: &mut Checker, name: &Text) {
    c.text(name);
    if name.len() > MAX_NAME_CHARS && name.chars().count() > MAX_NAME_CHARS {
        c.fail(Rule::MaxChars(MAX_NAME_CHARS));
    }
}

impl Validate for CreatePipeRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            c.present("name", &self.name, Rule::Required, check_name);
            // Database pipes (the kind's tables come from its table mappings) name no table.
            let database_pipe = self.source.as_ref().and_then(PipeSource::kind).is_some_and(|kind| kind.is_database());
            c.present("source", &self.source, Rule::Required, check_source);
            c.present("destination", &self.destination, Rule::Required, |c, d| check_destination(c, d, database_pipe));
            if let Some(mappings) = &self.field_mappings {
                c.field("fieldMappings", |c| c.each(mappings, check_field_mapping));
            }
            if let Some(scaling) = &self.scaling {
                c.field("scaling", |c| check_scaling(c, scaling));
            }
            if let Some(settings) = &self.settings {
                c.field("settings", |c| check_settings(c, settings));
            }
        })
    }
}

/// `source` on create: exactly one kind, each checked by its own rules (its file's `Check`).
pub(crate) fn check_source(c: &mut Checker, source: &PipeSource) {
    let found = source.kind_count();
    if found != 1 {
        c.fail(Rule::ExactlyOneSourceKind { found });
        // With several kinds each is still checked, so the user sees everything at once.
    }
    source.check_kinds(c);
}

fn check_destination(c: &mut Checker, destination: &Destination, database_pipe: bool) {
    // `database` is not required: the service defaults it, and the vendor's documented Kafka,
    // Kinesis, S3, GCS and Azure examples omit it (service notes; management OpenAPI).
    if let Some(database) = &destination.database {
        c.field("database", |c| c.text(database));
    }
    if !database_pipe {
        c.required_text("table", &destination.table);
        c.present("managedTable", &destination.managed_table, Rule::Required, |_, _| {});
        c.field("columns", |c| match &destination.columns {
            Some(columns) if !columns.is_empty() => c.each(columns, check_column),
            _ => c.fail(Rule::MinItems(1)),
        });
    }
}

/// A field mapping names both of its fields (create and update alike).
pub(crate) fn check_field_mapping(c: &mut Checker, mapping: &FieldMapping) {
    c.required_text("sourceField", &mapping.source_field);
    c.required_text("destinationField", &mapping.destination_field);
}

/// A destination column names itself and its type (create and update alike).
pub(crate) fn check_column(c: &mut Checker, column: &DestinationColumn) {
    c.required_text("name", &column.name);
    c.required_text("type", &column.kind);
}
