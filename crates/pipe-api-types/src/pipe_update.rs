//! Changing a pipe: the update request (`PATCH .../pipes/{pipeId}`, the management OpenAPI's
//! `PipePatchRequest`) with its parts, and the state command (`PATCH .../pipes/{pipeId}/state`,
//! `PipeStatePatchRequest`).
//!
//! An update names only what changes, so every field is optional. What a source accepts in an
//! update is much less than on create (its kind, format, brokers or stream cannot change), so
//! each source kind has its own `...Patch` model, in the kind's file (`pipe_source`), rather
//! than the create model with most fields refused.

use crate::nullable::set;
use crate::pipe::{DestinationColumn, FieldMapping, check_column, check_field_mapping, check_name};
use crate::pipe_settings::PipeSettings;
use crate::pipe_source::PipeSourcePatch;
use crate::validate::{Checker, Rule, Validate, ValidationErrors};
use crate::{Nullable, Text};

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

/// `source` in an update: a pipe has one source kind (service notes, Pipes), so an update
/// edits at most that one (a newer server's kind counts too); each is checked by its own rules
/// (its file's `Check`).
fn check_source(c: &mut Checker, source: &PipeSourcePatch) {
    let found = source.kind_count();
    if found > 1 {
        c.fail(Rule::ExactlyOneSourceKind { found });
    }
    source.check_kinds(c);
}

impl From<PipeCommand> for ChangePipeStateRequest {
    fn from(command: PipeCommand) -> Self {
        ChangePipeStateRequest::new(command)
    }
}
