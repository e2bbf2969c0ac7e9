//! The update-pipe and change-pipe-state requests: each rule, with its source, refuses what it
//! should and nothing else; every violation is reported at once with its path.

use crate::types::common;

use common::violations;

use pipe_api_types::{
    Authentication, ChangePipeStateRequest, DestinationColumn, DestinationPatch, FieldMapping, KafkaSourcePatch,
    KinesisSourcePatch, ObjectStorageSourcePatch, PipeCommand, PipeSettings, PipeSourcePatch, PostgresSettingsPatch,
    PostgresSourcePatch, PostgresTableMapping, Rule, TableEngineType, UpdatePipeRequest, Validate,
};
use proptest::prelude::*;

fn with_source(source: PipeSourcePatch) -> UpdatePipeRequest {
    UpdatePipeRequest::default().source(source)
}

fn postgres(patch: PostgresSourcePatch) -> UpdatePipeRequest {
    with_source(PipeSourcePatch::default().postgres(patch))
}

fn table(schema: &str, source: &str, target: &str) -> PostgresTableMapping {
    PostgresTableMapping::new(schema, source, target)
}

fn known(texts: &[&'static str]) -> Rule {
    Rule::KnownValue { known: texts.to_vec() }
}

#[test]
fn an_update_names_only_what_changes() {
    // PipePatchRequest has no required field: an empty update is valid.
    assert_eq!(violations(&UpdatePipeRequest::default()), []);
}

/// A rule's source, a request, and the violations it must give.
type Case = (&'static str, UpdatePipeRequest, Vec<(&'static str, Rule)>);

#[test]
fn each_rule_of_the_update_with_its_source() {
    let cases: Vec<Case> = vec![
        (
            "create and update alike: a pipe's name is 1 to 255 characters (CreatePipeRequest's rule)",
            UpdatePipeRequest::default().name("n".repeat(256)),
            vec![("name", Rule::MaxChars(255))],
        ),
        ("name: not blank", UpdatePipeRequest::default().name("  "), vec![("name", Rule::NotBlank)]),
        (
            "service notes, Pipes: source kinds exclude one another",
            with_source(
                PipeSourcePatch::default().kafka(KafkaSourcePatch::default()).kinesis(KinesisSourcePatch::default()),
            ),
            vec![("source", Rule::ExactlyOneSourceKind { found: 2 })],
        ),
        (
            "PipePatchKafkaSource.authentication enum",
            with_source(
                PipeSourcePatch::default()
                    .kafka(KafkaSourcePatch::default().authentication(Authentication::ConnectionString)),
            ),
            vec![(
                "source.kafka.authentication",
                known(&["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"]),
            )],
        ),
        (
            "PipePatchKinesisSource.authentication enum",
            with_source(
                PipeSourcePatch::default().kinesis(KinesisSourcePatch::default().authentication(Authentication::Plain)),
            ),
            vec![("source.kinesis.authentication", known(&["IAM_ROLE", "IAM_USER"]))],
        ),
        (
            "PipePatchKinesisSource.iamRole: required if IAM_ROLE is used",
            with_source(
                PipeSourcePatch::default()
                    .kinesis(KinesisSourcePatch::default().authentication(Authentication::IamRole)),
            ),
            vec![("source.kinesis.iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE"))],
        ),
        (
            "PipePatchObjectStorageSource.startAfter: cannot be provided when skipInitialLoad is true",
            with_source(
                PipeSourcePatch::default()
                    .object_storage(ObjectStorageSourcePatch::default().skip_initial_load(true).start_after("a/")),
            ),
            vec![("source.objectStorage.startAfter", Rule::NotAllowedBecause("when skipInitialLoad is true"))],
        ),
        (
            "PipePatchObjectStorageSource.connectionString: required when authentication is CONNECTION_STRING",
            with_source(
                PipeSourcePatch::default().object_storage(
                    ObjectStorageSourcePatch::default().authentication(Authentication::ConnectionString),
                ),
            ),
            vec![(
                "source.objectStorage.connectionString",
                Rule::RequiredBecause("when authentication is CONNECTION_STRING"),
            )],
        ),
        (
            "PipePatchObjectStorageSource.serviceAccountKey: required when authentication is SERVICE_ACCOUNT",
            with_source(
                PipeSourcePatch::default()
                    .object_storage(ObjectStorageSourcePatch::default().authentication(Authentication::ServiceAccount)),
            ),
            vec![(
                "source.objectStorage.serviceAccountKey",
                Rule::RequiredBecause("when authentication is SERVICE_ACCOUNT"),
            )],
        ),
        (
            "PipePatchPostgresSource.port: minimum 1",
            postgres(PostgresSourcePatch::default().port(0)),
            vec![("source.postgres.port", Rule::Range { min: 1, max: 65535 })],
        ),
        (
            "PipePatchPostgresPipeSettings: syncIntervalSeconds and pullBatchSize minimum 1",
            postgres(
                PostgresSourcePatch::default()
                    .settings(PostgresSettingsPatch::default().sync_interval_seconds(0u32).pull_batch_size(0u32)),
            ),
            vec![
                ("source.postgres.settings.syncIntervalSeconds", Rule::Min(1)),
                ("source.postgres.settings.pullBatchSize", Rule::Min(1)),
            ],
        ),
        (
            "PipePatchPostgresPipeRemoveTableMapping: sourceSchemaName, sourceTable and targetTable are required for removal",
            postgres(
                PostgresSourcePatch::default()
                    .table_mappings_to_remove([PostgresTableMapping::default().source_table("t")]),
            ),
            vec![
                ("source.postgres.tableMappingsToRemove[0].sourceSchemaName", Rule::Required),
                ("source.postgres.tableMappingsToRemove[0].targetTable", Rule::Required),
            ],
        ),
        (
            "PipePostgresPipeTableMapping: excludedColumns and sortingKeys uniqueItems",
            postgres(
                PostgresSourcePatch::default().table_mappings_to_add([table("public", "t", "t")
                    .excluded_columns(["a", "b", "a"])
                    .use_custom_sorting_key(true)
                    .sorting_keys(["k", "k"])]),
            ),
            vec![
                ("source.postgres.tableMappingsToAdd[0].excludedColumns", Rule::UniqueItems),
                ("source.postgres.tableMappingsToAdd[0].sortingKeys", Rule::UniqueItems),
            ],
        ),
        (
            "PipePostgresPipeTableMapping.useCustomSortingKey: if true, sortingKeys must be provided",
            postgres(
                PostgresSourcePatch::default()
                    .table_mappings_to_add([table("public", "t", "t").use_custom_sorting_key(true)]),
            ),
            vec![(
                "source.postgres.tableMappingsToAdd[0].sortingKeys",
                Rule::RequiredBecause("when useCustomSortingKey is true"),
            )],
        ),
        (
            "PipePostgresPipeTableMapping.tableEngine enum (no SummingMergeTree)",
            postgres(
                PostgresSourcePatch::default()
                    .table_mappings_to_add([table("public", "t", "t").table_engine(TableEngineType::SummingMergeTree)]),
            ),
            vec![(
                "source.postgres.tableMappingsToAdd[0].tableEngine",
                known(&["MergeTree", "ReplacingMergeTree", "Null"]),
            )],
        ),
        (
            "PipeDestinationColumn: a column names itself and its type (as on create)",
            UpdatePipeRequest::default()
                .destination(DestinationPatch::default().columns([DestinationColumn::default().name("id")])),
            vec![("destination.columns[0].type", Rule::Required)],
        ),
        (
            "PipeFieldMapping: both sides (as on create)",
            UpdatePipeRequest::default().field_mappings([FieldMapping::default().source_field("a")]),
            vec![("fieldMappings[0].destinationField", Rule::Required)],
        ),
        (
            "PipeSettings: each minimum and maximum",
            UpdatePipeRequest::default().settings(
                PipeSettings::default()
                    .streaming_max_insert_wait_ms(499u64)
                    .object_storage_concurrency(36u64)
                    .engine_parallel_distributed_insert_select(3u64)
                    .object_storage_max_insert_bytes(u64::MAX),
            ),
            vec![
                ("settings.streaming_max_insert_wait_ms", Rule::Range { min: 500, max: 60_000 }),
                ("settings.object_storage_concurrency", Rule::Range { min: 1, max: 35 }),
                ("settings.object_storage_max_insert_bytes", Rule::Range { min: 10_485_760, max: 53_687_091_200 }),
                ("settings.engine_parallel_distributed_insert_select", Rule::Range { min: 0, max: 2 }),
            ],
        ),
    ];
    for (source, request, expected) in cases {
        let expected: Vec<(String, Rule)> = expected.into_iter().map(|(path, rule)| (path.to_owned(), rule)).collect();
        assert_eq!(violations(&request), expected, "{source}");
    }
}

#[test]
fn a_valid_update_of_each_kind_passes() {
    for request in [
        UpdatePipeRequest::default().name("renamed").field_mappings([FieldMapping::new("a", "b")]),
        with_source(
            PipeSourcePatch::default().kafka(KafkaSourcePatch::default().authentication(Authentication::MutualTls)),
        ),
        with_source(
            PipeSourcePatch::default().object_storage(
                ObjectStorageSourcePatch::default()
                    .authentication(Authentication::ConnectionString)
                    .connection_string("cs"),
            ),
        ),
        with_source(PipeSourcePatch::default().kinesis(
            KinesisSourcePatch::default().authentication(Authentication::IamRole).iam_role("arn:aws:iam::1:role/r"),
        )),
        postgres(
            PostgresSourcePatch::default()
                .port(5432)
                .settings(PostgresSettingsPatch::default().pull_batch_size(1u32))
                .table_mappings_to_add([table("public", "t", "t").use_custom_sorting_key(true).sorting_keys(["k"])])
                .table_mappings_to_remove([table("public", "u", "u")]),
        ),
        // A newer authentication, sent on purpose.
        with_source(
            PipeSourcePatch::default()
                .kafka(KafkaSourcePatch::default().authentication(Authentication::not_yet_known("OAUTHBEARER"))),
        ),
    ] {
        assert_eq!(violations(&request), [], "{request:?}");
    }
}

#[test]
fn every_violation_at_once() {
    let request = UpdatePipeRequest::default()
        .name("")
        .field_mappings([FieldMapping::default()])
        .settings(PipeSettings::default().engine_max_threads(65u64));
    let paths: Vec<String> = violations(&request).into_iter().map(|(path, _)| path).collect();
    assert_eq!(
        paths,
        ["name", "fieldMappings[0].sourceField", "fieldMappings[0].destinationField", "settings.engine_max_threads"]
    );
}

proptest! {
    /// PipeSettings.object_storage_concurrency: minimum 1, maximum 35, said independently.
    #[test]
    fn settings_bounds_accept_exactly_their_range(value in 0u64..100) {
        let request = UpdatePipeRequest::default().settings(PipeSettings::default().object_storage_concurrency(value));
        prop_assert_eq!(request.validate().is_ok(), (1..=35).contains(&value));
    }

    /// PipeStatePatchRequest.command: start, stop, resync; any other text only through
    /// `not_yet_known`.
    #[test]
    fn a_command_is_known_or_sent_on_purpose(text in "[a-z]{1,8}") {
        let typed = ChangePipeStateRequest::new(PipeCommand::from(text.as_str()));
        prop_assert_eq!(typed.validate().is_ok(), ["start", "stop", "resync"].contains(&text.as_str()));
        let vouched = ChangePipeStateRequest::new(PipeCommand::not_yet_known(&text));
        prop_assert!(vouched.validate().is_ok());
    }
}

#[test]
fn a_state_request_needs_its_command() {
    assert_eq!(violations(&ChangePipeStateRequest::default()), [("command".to_owned(), Rule::Required)]);
    assert_eq!(
        serde_json::to_string(&ChangePipeStateRequest::new(PipeCommand::Resync)).unwrap(),
        r#"{"command":"resync"}"#
    );
}

#[test]
fn the_new_rules_say_what_is_wrong() {
    let errors = UpdatePipeRequest::default()
        .source(
            PipeSourcePatch::default()
                .object_storage(ObjectStorageSourcePatch::default().skip_initial_load(true).start_after("a/")),
        )
        .validate()
        .unwrap_err();
    assert_eq!(
        errors.to_string(),
        "invalid request: `source.objectStorage.startAfter` must be absent when skipInitialLoad is true"
    );
    assert_eq!(Rule::Min(1).to_string(), "must be at least 1");
    assert_eq!(Rule::UniqueItems.to_string(), "must not repeat an element");
}
