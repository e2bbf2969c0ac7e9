//! Create-pipe rules of the management OpenAPI that a request meets or breaks, one row each,
//! with the schema that states the rule: Postgres settings minimums and the replication slot
//! (`PipePostgresPipeSettings`), table mappings (`PipePostgresPipeTableMapping`) and the schema
//! registry's https (`PipeKafkaSchemaRegistry`).

mod common;

use common::violations;

use pipe_api_types::{
    Authentication, CreatePipeRequest, Credentials, DataFormat, Destination, KafkaSource, KafkaType, PipeSource,
    PostgresSettings, PostgresSource, PostgresTableMapping, ReplicationMode, Rule, SchemaRegistry,
};

fn orders() -> PostgresTableMapping {
    PostgresTableMapping::default().source_schema_name("public").source_table("orders").target_table("orders")
}

fn postgres(settings: PostgresSettings, mapping: PostgresTableMapping) -> CreatePipeRequest {
    let source = PostgresSource::default()
        .host("db.example.com")
        .port(5432)
        .database("shop")
        .credentials(Credentials::user_password("replicator", "secret"))
        .settings(settings)
        .table_mappings([mapping]);
    CreatePipeRequest::new("cdc", PipeSource::default().postgres(source), Destination::default().database("shop"))
}

fn kafka(registry_url: &str) -> CreatePipeRequest {
    let source = KafkaSource::default()
        .kind(KafkaType::Confluent)
        .format(DataFormat::AvroConfluent)
        .brokers("b:9092")
        .topics("events")
        .authentication(Authentication::Plain)
        .credentials(Credentials::user_password("u", "p"))
        .schema_registry(SchemaRegistry::default().url(registry_url));
    let destination = Destination::default()
        .table("events")
        .managed_table(true)
        .columns([pipe_api_types::DestinationColumn::new("id", "String")]);
    CreatePipeRequest::new("k", PipeSource::default().kafka(source), destination)
}

const SETTINGS: &str = "source.postgres.settings";
const MAPPING: &str = "source.postgres.tableMappings[0]";

#[test]
fn postgres_settings_minimums_and_the_replication_slot() {
    let cases: Vec<(PostgresSettings, Option<(&str, Rule)>)> = vec![
        (PostgresSettings::default().sync_interval_seconds(1).pull_batch_size(1), None),
        (PostgresSettings::default().sync_interval_seconds(0), Some(("syncIntervalSeconds", Rule::Min(1)))),
        (PostgresSettings::default().pull_batch_size(0), Some(("pullBatchSize", Rule::Min(1)))),
        (PostgresSettings::default().initial_load_parallelism(0), Some(("initialLoadParallelism", Rule::Min(1)))),
        (PostgresSettings::default().snapshot_num_rows_per_partition(1000), None),
        (
            PostgresSettings::default().snapshot_num_rows_per_partition(999),
            Some(("snapshotNumRowsPerPartition", Rule::Min(1000))),
        ),
        (
            PostgresSettings::default().snapshot_number_of_parallel_tables(0),
            Some(("snapshotNumberOfParallelTables", Rule::Min(1))),
        ),
        (PostgresSettings::default().replication_mode(ReplicationMode::CdcOnly).replication_slot_name("slot"), None),
        (
            PostgresSettings::default().replication_mode(ReplicationMode::Cdc).replication_slot_name("slot"),
            Some(("replicationSlotName", Rule::NotAllowedBecause("unless replicationMode is cdc_only"))),
        ),
        (
            PostgresSettings::default().replication_slot_name("slot"),
            Some(("replicationSlotName", Rule::NotAllowedBecause("unless replicationMode is cdc_only"))),
        ),
    ];
    for (settings, expected) in cases {
        let found = violations(&postgres(settings.clone(), orders()));
        let expected: Vec<(String, Rule)> =
            expected.into_iter().map(|(field, rule)| (format!("{SETTINGS}.{field}"), rule)).collect();
        assert_eq!(found, expected, "{settings:?}");
    }
}

#[test]
fn table_mappings_follow_the_same_rules_on_create_as_on_update() {
    let cases: Vec<(PostgresTableMapping, Option<(&str, Rule)>)> = vec![
        (orders().excluded_columns(["a", "b"]).use_custom_sorting_key(true).sorting_keys(["id"]), None),
        (orders().excluded_columns(["a", "a"]), Some(("excludedColumns", Rule::UniqueItems))),
        (orders().sorting_keys(["id", "id"]), Some(("sortingKeys", Rule::UniqueItems))),
        (
            orders().use_custom_sorting_key(true),
            Some(("sortingKeys", Rule::RequiredBecause("when useCustomSortingKey is true"))),
        ),
    ];
    for (mapping, expected) in cases {
        let found = violations(&postgres(PostgresSettings::default(), mapping.clone()));
        let expected: Vec<(String, Rule)> =
            expected.into_iter().map(|(field, rule)| (format!("{MAPPING}.{field}"), rule)).collect();
        assert_eq!(found, expected, "{mapping:?}");
    }
}

#[test]
fn a_schema_registry_is_reached_over_https() {
    assert_eq!(violations(&kafka("https://psrc-aa00.us-east-2.aws.confluent.cloud/schemas/ids/100004")), []);
    assert_eq!(violations(&kafka("HTTPS://registry.example.com")), []);
    for url in ["http://registry.example.com", "registry.example.com", "ftp://x"] {
        assert_eq!(
            violations(&kafka(url)),
            [("source.kafka.schemaRegistry.url".to_owned(), Rule::Format("of an https URL"))],
            "{url}"
        );
    }
}
