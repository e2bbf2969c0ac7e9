//! Update, delete and state changes of a pipe: each request as built (snapshots), nothing built
//! from an invalid one, and each success and error fixture parsed field by field.

use crate::common;

use common::*;
use http::{Method, StatusCode};
use pipe_api_proto::{ChangePipeState, DeletePipe, EndpointExt, UpdatePipe, render_request};
use pipe_api_types::{
    Authentication, Credentials, DestinationColumn, DestinationPatch, FieldMapping, KafkaSourcePatch, Nullable,
    PipeCommand, PipeSettings, PipeSourcePatch, PipeState, PostgresSettingsPatch, PostgresSourcePatch,
    PostgresTableMapping, ReplicationMode, Rule, TableEngineType, UpdatePipeRequest,
};
use time::macros::datetime;

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "update_pipe_ok" => include_bytes!("fixtures/operations/update_pipe/ok.json"),
        "change_pipe_state_ok" => include_bytes!("fixtures/operations/change_pipe_state/ok.json"),
        "delete_pipe_ok" => include_bytes!("fixtures/operations/delete_pipe/ok.json"),
        "change_pipe_state_400_already_running" => {
            include_bytes!("fixtures/operations/change_pipe_state/400_already_running.json")
        }
        "change_pipe_state_400_resync_streaming" => {
            include_bytes!("fixtures/operations/change_pipe_state/400_resync_streaming.json")
        }
        "update_pipe_400_must_be_paused" => include_bytes!("fixtures/operations/update_pipe/400_must_be_paused.json"),
        "delete_pipe_404_not_found" => include_bytes!("fixtures/operations/delete_pipe/404.json"),
        other => panic!("no fixture {other}"),
    }
}

/// An update of a database pipe touching every part of `PipePatchRequest`.
fn postgres_update() -> UpdatePipeRequest {
    let postgres = PostgresSourcePatch::default()
        .host("db2.example.com")
        .port(5433)
        .tls_host("db.example.com")
        .credentials(Credentials::user_password("replicator", "new-pg-password"))
        .settings(PostgresSettingsPatch::default().sync_interval_seconds(30u32).pull_batch_size(5000u32))
        .table_mappings_to_add([PostgresTableMapping::new("public", "users", "public_users")
            .excluded_columns(["password_hash"])
            .table_engine(TableEngineType::ReplacingMergeTree)])
        .table_mappings_to_remove([PostgresTableMapping::new("public", "orders", "public_orders")]);
    UpdatePipeRequest::default()
        .name("shop-v2")
        .source(PipeSourcePatch::default().postgres(postgres))
        .settings(PipeSettings::default().streaming_max_insert_wait_ms(1000u64))
}

fn kafka_update() -> UpdatePipeRequest {
    let kafka = KafkaSourcePatch::default()
        .authentication(Authentication::ScramSha512)
        .credentials(Credentials::user_password("ingest", "kafka-password"));
    UpdatePipeRequest::default()
        .source(PipeSourcePatch::default().kafka(kafka))
        .destination(DestinationPatch::default().columns([DestinationColumn::new("id", "String")]))
        .field_mappings([FieldMapping::new("order_id", "id")])
}

#[test]
fn snapshot_update_pipe() {
    for (name, request) in [
        ("update_pipe_postgres", postgres_update()),
        ("update_pipe_kafka", kafka_update()),
        ("update_pipe_name_only", UpdatePipeRequest::default().name("renamed")),
        // `null` where the contract allows it: a CA certificate cleared, a setting to its default.
        (
            "update_pipe_clears",
            UpdatePipeRequest::default()
                .source(PipeSourcePatch::default().kafka(KafkaSourcePatch::default().ca_certificate(Nullable::Null)))
                .settings(PipeSettings::default().engine_max_threads(Nullable::Null).engine_max_insert_threads(2u64)),
        ),
    ] {
        let built = UpdatePipe::new(org(), service(), pipe(), request).build_request(&management()).unwrap();
        assert_eq!(built.method(), Method::PATCH);
        insta::assert_snapshot!(name, render_request(&built));
    }
}

#[test]
fn snapshot_delete_pipe() {
    let built = DeletePipe::new(org(), service(), pipe()).build_request(&management()).unwrap();
    assert_eq!(built.method(), Method::DELETE);
    assert!(built.body().is_empty());
    insta::assert_snapshot!(render_request(&built));
}

#[test]
fn snapshot_change_pipe_state() {
    for (name, command) in [
        ("change_pipe_state_start", PipeCommand::Start),
        ("change_pipe_state_stop", PipeCommand::Stop),
        ("change_pipe_state_resync", PipeCommand::Resync),
    ] {
        let built = ChangePipeState::new(org(), service(), pipe(), command).build_request(&management()).unwrap();
        insta::assert_snapshot!(name, render_request(&built));
    }
}

#[test]
fn a_command_this_crate_does_not_know_is_sent_only_on_purpose() {
    let typo = ChangePipeState::new(org(), service(), pipe(), PipeCommand::from("stpo"));
    let error = typo.build_request(&management()).unwrap_err();
    assert_eq!(error.operation(), "change_pipe_state");
    let known = vec!["start", "stop", "resync"];
    assert!(error.validation().unwrap().contains("command", &Rule::KnownValue { known }));

    let newer = ChangePipeState::new(org(), service(), pipe(), PipeCommand::not_yet_known("hibernate"));
    let built = newer.build_request(&management()).unwrap();
    assert_eq!(built.body(), br#"{"command":"hibernate"}"#);
}

#[test]
fn an_invalid_update_builds_nothing() {
    let request = UpdatePipeRequest::default().name(" ").source(
        PipeSourcePatch::default().kafka(KafkaSourcePatch::default()).postgres(
            PostgresSourcePatch::default()
                .port(0)
                .table_mappings_to_remove([PostgresTableMapping::default().source_table("orders")]),
        ),
    );
    let error = UpdatePipe::new(org(), service(), pipe(), request).build_request(&management()).unwrap_err();
    assert_eq!(error.operation(), "update_pipe");
    let errors = error.validation().unwrap();
    assert!(errors.contains("name", &Rule::NotBlank));
    assert!(errors.contains("source", &Rule::ExactlyOneSourceKind { found: 2 }));
    assert!(errors.contains("source.postgres.port", &Rule::Range { min: 1, max: 65535 }));
    assert!(errors.contains("source.postgres.tableMappingsToRemove[0].sourceSchemaName", &Rule::Required));
    assert!(errors.contains("source.postgres.tableMappingsToRemove[0].targetTable", &Rule::Required));
    assert_eq!(errors.violations().len(), 5, "{errors}");
}

#[test]
fn update_pipe_success() {
    let endpoint = UpdatePipe::new(org(), service(), pipe(), postgres_update());
    let reply =
        endpoint.parse_response(&crate::common::management(), response(200, fixture("update_pipe_ok"))).unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.request_id.as_deref(), Some("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a01"));
    let pipe = reply.value;
    assert_eq!(pipe.id, common::pipe());
    assert_eq!(pipe.service_id, Some(service()));
    assert_eq!(pipe.name.as_deref(), Some("shop-v2"));
    assert_eq!(pipe.state, Some(PipeState::Paused));
    let postgres = pipe.source.as_ref().and_then(|s| s.postgres.as_ref()).unwrap();
    assert_eq!(postgres.host.as_deref(), Some("db2.example.com"));
    assert_eq!(postgres.port, Some(5433));
    assert_eq!(postgres.database.as_deref(), Some("shop"));
    assert_eq!(postgres.tls_host.as_deref(), Some("db.example.com"));
    assert_eq!((postgres.disable_tls, postgres.skip_cert_verification), (Some(false), Some(false)));
    assert!(postgres.credentials.is_none(), "credentials are never echoed back");
    let settings = postgres.settings.as_ref().unwrap();
    assert_eq!(settings.sync_interval_seconds, Some(30));
    assert_eq!(settings.pull_batch_size, Some(5000));
    assert_eq!(settings.replication_mode, Some(ReplicationMode::Cdc));
    let tables = postgres.table_mappings.as_ref().unwrap();
    assert_eq!(tables.len(), 1);
    assert_eq!(tables[0].source_schema_name.as_deref(), Some("public"));
    assert_eq!(tables[0].source_table.as_deref(), Some("users"));
    assert_eq!(tables[0].target_table.as_deref(), Some("public_users"));
    assert_eq!(tables[0].excluded_columns.as_deref(), Some(&["password_hash".into()][..]));
    assert_eq!(tables[0].table_engine, Some(TableEngineType::ReplacingMergeTree));
    assert!(tables[0].partition_by_expr.is_some(), "a field of the contract, modelled");
    assert_eq!(pipe.destination.as_ref().and_then(|d| d.database.as_deref()), Some("shop"));
    assert_eq!(pipe.settings.as_ref().and_then(|s| s.streaming_max_insert_wait_ms), Some(Nullable::Value(1000)));
    assert_eq!(pipe.created_at, Some(datetime!(2026-02-10 12:00:00 UTC)));
    assert_eq!(pipe.updated_at, Some(datetime!(2026-02-11 08:30:00 UTC)));
}

#[test]
fn change_pipe_state_success() {
    let endpoint = ChangePipeState::new(org(), service(), pipe(), PipeCommand::Stop);
    let reply =
        endpoint.parse_response(&crate::common::management(), response(200, fixture("change_pipe_state_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a02"));
    let pipe = reply.value;
    assert_eq!(pipe.id, common::pipe());
    assert_eq!(pipe.name.as_deref(), Some("orders-from-kafka"));
    assert_eq!(pipe.state, Some(PipeState::Stopping));
    let scaling = pipe.scaling.as_ref().unwrap();
    assert_eq!(scaling.replicas, Some(2));
    assert_eq!(scaling.replica_cpu_millicores.as_ref().map(|q| q.value()), Some(500.0));
    assert_eq!(scaling.replica_memory_gb.as_ref().map(|q| q.value()), Some(2.0));
    let kafka = pipe.source.as_ref().and_then(|s| s.kafka.as_ref()).unwrap();
    assert_eq!(kafka.topics.as_deref(), Some("orders"));
    assert_eq!(kafka.authentication, Some(Authentication::Plain));
    let destination = pipe.destination.as_ref().unwrap();
    assert_eq!((destination.table.as_deref(), destination.managed_table), (Some("orders"), Some(true)));
    assert_eq!(pipe.updated_at, Some(datetime!(2026-02-11 09:00:00 UTC)));
}

#[test]
fn delete_pipe_success_has_no_result() {
    let reply = DeletePipe::new(org(), service(), pipe())
        .parse_response(&crate::common::management(), response(200, fixture("delete_pipe_ok")))
        .unwrap();
    assert_eq!(reply.value, ());
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.request_id.as_deref(), Some("5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a03"));
}

/// The API error of parsing `fixture` with `endpoint`.
fn api_error(
    endpoint: &impl EndpointExt<Api = pipe_api_proto::Management>,
    status: u16,
    fixture_name: &str,
) -> Box<pipe_api_proto::ApiError> {
    crate::common::api_error(endpoint, status, fixture(fixture_name))
}

#[test]
fn error_fixtures() {
    let start = ChangePipeState::new(org(), service(), pipe(), PipeCommand::Start);
    let resync = ChangePipeState::new(org(), service(), pipe(), PipeCommand::Resync);
    let update = UpdatePipe::new(org(), service(), pipe(), postgres_update());
    let delete = DeletePipe::new(org(), service(), pipe());
    let cases = [
        (
            api_error(&start, 400, "change_pipe_state_400_already_running"),
            "change_pipe_state",
            400,
            "BAD_REQUEST",
            "pipe is already running",
            "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a04",
        ),
        (
            api_error(&resync, 400, "change_pipe_state_400_resync_streaming"),
            "change_pipe_state",
            400,
            "BAD_REQUEST",
            "resync is only supported for database pipes",
            "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a05",
        ),
        (
            api_error(&update, 400, "update_pipe_400_must_be_paused"),
            "update_pipe",
            400,
            "BAD_REQUEST",
            "pipe must be paused to edit table mappings",
            "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a06",
        ),
        (
            api_error(&delete, 404, "delete_pipe_404_not_found"),
            "delete_pipe",
            404,
            "NOT_FOUND",
            PIPE,
            "5e6f7a8b-9c0d-4e1f-8a2b-3c4d5e6f7a07",
        ),
    ];
    for (error, operation, status, code, message, request_id) in cases {
        assert_eq!(error.operation(), operation);
        assert_eq!(error.status().as_u16(), status);
        assert_eq!(error.code(), Some(code));
        assert_eq!(error.message(), Some(message));
        assert_eq!(error.request_id(), Some(request_id));
        assert_eq!(error.raw_text(), None);
    }
    let Err(not_found) =
        delete.parse_response(&crate::common::management(), response(404, fixture("delete_pipe_404_not_found")))
    else {
        panic!("a 404 is an error")
    };
    assert!(not_found.is_not_found());
}
