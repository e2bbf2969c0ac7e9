//! `POST .../pipes/schemaDiscovery` (beta): the request naming a streaming source, and the
//! schema the server infers from it.

use crate::pipe::check_source;
use crate::pipe_source::{KafkaSource, KinesisSource, PipeSource};
use crate::validate::{Checker, Rule, Validate, ValidationErrors};
use crate::{DestinationColumn, Text};

model! {
    /// The body of `POST .../pipes/schemaDiscovery` (beta): the streaming source whose schema to
    /// infer, shaped as in a create request. Built with [`PipeSchemaDiscoveryRequest::kafka`] or
    /// [`PipeSchemaDiscoveryRequest::kinesis`].
    pub struct PipeSchemaDiscoveryRequest {
        /// The source: exactly one kind, Kafka or Kinesis.
        "source" source: PipeSource,
    }
}

impl PipeSchemaDiscoveryRequest {
    /// Discovers the schema of a Kafka source.
    pub fn kafka(kafka: KafkaSource) -> Self {
        PipeSchemaDiscoveryRequest::default().source(PipeSource::from(kafka))
    }

    /// Discovers the schema of a Kinesis stream.
    pub fn kinesis(kinesis: KinesisSource) -> Self {
        PipeSchemaDiscoveryRequest::default().source(PipeSource::from(kinesis))
    }
}

/// Why object storage and database sources are refused (management OpenAPI,
/// `PipeSchemaDiscoverySource` has `kafka` and `kinesis` only; "Supported for Kafka, Kinesis
/// sources").
const STREAMING_ONLY: &str = "by schema discovery, which reads Kafka and Kinesis sources only";

impl Validate for PipeSchemaDiscoveryRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            c.present("source", &self.source, Rule::Required, |c, source| {
                if source.object_storage.is_some() {
                    c.fail_at("objectStorage", Rule::Unsupported(STREAMING_ONLY));
                }
                if source.postgres.is_some() {
                    c.fail_at("postgres", Rule::Unsupported(STREAMING_ONLY));
                }
                // The kind itself follows the create request's rules: the contract's
                // `PipePostKafkaSource` and `PipePostKinesisSource` are the same schemas.
                check_source(c, source);
            });
        })
    }
}

model! {
    /// One field of an inferred schema.
    pub struct PipeSchemaDiscoveryField {
        /// The field's name.
        "name" name: Text,
        /// The inferred ClickHouse type, such as `Int64`.
        "type" kind: Text,
        /// Whether the field is optional (nullable) in the source.
        "optional" optional: bool,
    }
}

model! {
    /// Source-specific facts about a discovery: text values under names the server chooses, all
    /// kept in [`PipeSchemaDiscoveryMeta::unknown`] in the order received.
    pub struct PipeSchemaDiscoveryMeta {}
}

impl PipeSchemaDiscoveryMeta {
    /// The text value of `name`, when the server sent one as text.
    pub fn get(&self, name: &str) -> Option<String> {
        self.unknown.get(name).and_then(|raw| serde_json::from_str(raw).ok())
    }
}

model! {
    /// What schema discovery inferred.
    pub struct PipeSchemaDiscoveryResponse {
        /// The fields with their ClickHouse types.
        "fields" fields: Vec<PipeSchemaDiscoveryField>,
        /// Source-specific facts.
        "meta" meta: PipeSchemaDiscoveryMeta,
    }
}

impl PipeSchemaDiscoveryResponse {
    /// The inferred fields as destination columns (a field without a name or type is left out),
    /// ready for a create request's `destination.columns`.
    pub fn columns(&self) -> Vec<DestinationColumn> {
        let fields = self.fields.iter().flatten();
        fields.filter_map(|field| Some(DestinationColumn::new(field.name.clone()?, field.kind.clone()?))).collect()
    }
}
