//! Tuning pipes (scaling, settings, schema discovery, CDC scaling): a snapshot of each request,
//! and each success and error fixture (written by hand from the management OpenAPI and the
//! service notes) parsed field by field.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{
    ApiError, BuildErrorKind, DiscoverPipeSchema, EndpointExt, GetPipeSettings, GetPipesCdcScaling, UpdatePipeScaling,
    UpdatePipeSettings, UpdatePipesCdcScaling, render_request,
};
use pipe_api_types::{
    Authentication, Credentials, DataFormat, IteratorType, KafkaSource, KafkaType, KinesisSource, Nullable,
    PipeSchemaDiscoveryRequest, PipeSettings, PipeState, PipesCdcScaling, Rule, Scaling, SchemaRegistry,
    UpdatePipeScalingRequest,
};
use time::macros::datetime;

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "update_pipe_scaling_ok" => include_bytes!("fixtures/operations/update_pipe_scaling/ok.json"),
        "get_pipe_settings_ok" => include_bytes!("fixtures/operations/get_pipe_settings/ok.json"),
        "update_pipe_settings_ok" => include_bytes!("fixtures/operations/update_pipe_settings/ok.json"),
        "discover_pipe_schema_ok" => include_bytes!("fixtures/operations/discover_pipe_schema/ok.json"),
        "discover_pipe_schema_no_meta" => include_bytes!("fixtures/operations/discover_pipe_schema/ok_no_meta.json"),
        "get_pipes_cdc_scaling_ok" => include_bytes!("fixtures/operations/get_pipes_cdc_scaling/ok.json"),
        "update_pipes_cdc_scaling_ok" => include_bytes!("fixtures/operations/update_pipes_cdc_scaling/ok.json"),
        "error_400_scaling_range" => include_bytes!("fixtures/operations/update_pipe_scaling/400_range.json"),
        "error_400_settings_range" => include_bytes!("fixtures/operations/update_pipe_settings/400_range.json"),
        "error_404_settings_database_pipe" => {
            include_bytes!("fixtures/operations/get_pipe_settings/404_database_pipe.json")
        }
        "error_400_schema_discovery" => include_bytes!("fixtures/operations/discover_pipe_schema/400.json"),
        "error_404_cdc_scaling" => include_bytes!("fixtures/operations/get_pipes_cdc_scaling/404.json"),
        "error_400_cdc_scaling_ratio" => include_bytes!("fixtures/operations/update_pipes_cdc_scaling/400_ratio.json"),
        other => panic!("no fixture {other}"),
    }
}

fn kafka_discovery() -> PipeSchemaDiscoveryRequest {
    PipeSchemaDiscoveryRequest::kafka(
        KafkaSource::new(
            KafkaType::Confluent,
            DataFormat::AvroConfluent,
            "pkc-1234.eu-west-1.aws.confluent.cloud:9092",
            "events",
            Authentication::Plain,
        )
        .credentials(Credentials::user_password("ingest", "kafka-password"))
        .schema_registry(
            SchemaRegistry::default()
                .url("https://psrc-1234.eu-west-1.aws.confluent.cloud/schemas/ids/100004")
                .authentication(Authentication::Plain)
                .credentials(Credentials::user_password("registry", "registry-password")),
        ),
    )
}

fn kinesis_discovery() -> PipeSchemaDiscoveryRequest {
    PipeSchemaDiscoveryRequest::kinesis(
        KinesisSource::new(
            DataFormat::JsonEachRow,
            "clicks",
            "eu-west-1",
            IteratorType::TrimHorizon,
            Authentication::IamRole,
        )
        .iam_role("arn:aws:iam::123456789012:role/ingest"),
    )
}

/// Settings as read, with a setting this crate does not model.
fn settings_with_unknown() -> PipeSettings {
    let mut settings = PipeSettings::default().streaming_max_insert_wait_ms(1000u64).engine_max_threads(8u64);
    settings.unknown.insert("kafka_read_committed", &true).unwrap();
    settings
}

#[test]
fn snapshot_update_pipe_scaling() {
    let scaling = Scaling::default().replicas(4u32).replica_cpu_millicores(1000u32).replica_memory_gb(4.0);
    let built = UpdatePipeScaling::new(org(), service(), pipe(), scaling).build_request(&management()).unwrap();
    insta::assert_snapshot!(render_request(&built));
}

/// Each member of the scaling patch may be `null` (`PipeScalingPatchRequest`).
#[test]
fn snapshot_update_pipe_scaling_clears() {
    let scaling = UpdatePipeScalingRequest::default().replicas(Nullable::Null).replica_memory_gb(2);
    let built = UpdatePipeScaling::new(org(), service(), pipe(), scaling).build_request(&management()).unwrap();
    insta::assert_snapshot!(render_request(&built));
}

#[test]
fn snapshot_get_pipe_settings() {
    let built = GetPipeSettings::new(org(), service(), pipe()).build_request(&management()).unwrap();
    insta::assert_snapshot!(render_request(&built));
}

#[test]
fn snapshot_update_pipe_settings_sends_unknown_fields() {
    let endpoint = UpdatePipeSettings::new(org(), service(), pipe(), settings_with_unknown());
    let built = endpoint.build_request(&management()).unwrap();
    assert!(String::from_utf8_lossy(built.body()).contains(r#""kafka_read_committed":true"#));
    insta::assert_snapshot!(render_request(&built));
}

#[test]
fn snapshot_discover_pipe_schema() {
    for (name, request) in
        [("discover_pipe_schema_kafka", kafka_discovery()), ("discover_pipe_schema_kinesis", kinesis_discovery())]
    {
        let built = DiscoverPipeSchema::new(org(), service(), request).build_request(&management()).unwrap();
        let shown = render_request(&built);
        assert!(!shown.contains("kafka-password") && !shown.contains("registry-password"), "{name}: secrets redacted");
        insta::assert_snapshot!(name, shown);
    }
}

#[test]
fn snapshot_pipes_cdc_scaling() {
    let get = GetPipesCdcScaling::new(org(), service()).build_request(&management()).unwrap();
    insta::assert_snapshot!("get_pipes_cdc_scaling", render_request(&get));
    let patch = UpdatePipesCdcScaling::new(org(), service(), PipesCdcScaling::with_cores(4))
        .build_request(&management())
        .unwrap();
    insta::assert_snapshot!("update_pipes_cdc_scaling", render_request(&patch));
}

#[test]
fn invalid_bodies_build_nothing() {
    let invalid = |error: pipe_api_proto::BuildError| match error.kind() {
        BuildErrorKind::Invalid(errors) => errors.clone(),
        other => panic!("not a validation error: {other:?}"),
    };
    let scaling = UpdatePipeScaling::new(org(), service(), pipe(), Scaling::default().replicas(41u32));
    let errors = invalid(scaling.build_request(&management()).unwrap_err());
    assert!(errors.contains("replicas", &Rule::Range { min: 1, max: 40 }));

    let settings = UpdatePipeSettings::new(org(), service(), pipe(), PipeSettings::default().engine_max_threads(65u64));
    let errors = invalid(settings.build_request(&management()).unwrap_err());
    assert!(errors.contains("engine_max_threads", &Rule::Range { min: 0, max: 64 }));

    let cdc = UpdatePipesCdcScaling::new(org(), service(), PipesCdcScaling::default().replica_cpu_millicores(1500u32));
    let errors = invalid(cdc.build_request(&management()).unwrap_err());
    assert!(errors.contains("replicaCpuMillicores", &Rule::MultipleOf(1000)));

    let discovery = DiscoverPipeSchema::new(org(), service(), PipeSchemaDiscoveryRequest::default());
    let errors = invalid(discovery.build_request(&management()).unwrap_err());
    assert!(errors.contains("source", &Rule::Required));
}

#[test]
fn update_pipe_scaling_success() {
    let endpoint = UpdatePipeScaling::new(org(), service(), pipe(), Scaling::default().replicas(4u32));
    let reply = endpoint
        .parse_response(&crate::common::management(), response(200, fixture("update_pipe_scaling_ok")))
        .unwrap();
    assert_eq!(reply.status, StatusCode::OK);
    assert_eq!(reply.request_id.as_deref(), Some("c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a01"));
    let pipe = reply.value;
    assert_eq!(pipe.id.to_string(), PIPE);
    assert_eq!(pipe.service_id.map(|id| id.to_string()).as_deref(), Some(SERVICE));
    assert_eq!(pipe.name.as_deref(), Some("orders-from-kafka"));
    assert_eq!(pipe.state, Some(PipeState::Running));
    let scaling = pipe.scaling.unwrap();
    assert_eq!(scaling.replicas, Some(4));
    assert_eq!(scaling.concurrency, Some(1));
    assert_eq!(scaling.replica_cpu_millicores.map(|q| q.value()), Some(1000.0));
    assert_eq!(scaling.replica_memory_gb.map(|q| q.value()), Some(4.0));
    assert_eq!(pipe.created_at, Some(datetime!(2026-03-01 10:00:00 UTC)));
    assert_eq!(pipe.updated_at, Some(datetime!(2026-03-02 11:30:00 UTC)));
}

#[test]
fn get_pipe_settings_success() {
    let endpoint = GetPipeSettings::new(org(), service(), pipe());
    let reply =
        endpoint.parse_response(&crate::common::management(), response(200, fixture("get_pipe_settings_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a02"));
    let settings = reply.value;
    assert_eq!(settings.streaming_max_insert_wait_ms, Some(Nullable::Value(5000)));
    assert_eq!(settings.object_storage_concurrency, Some(Nullable::Value(1)));
    assert_eq!(settings.object_storage_polling_interval_ms, Some(Nullable::Value(30_000)));
    assert_eq!(settings.object_storage_max_insert_bytes, Some(Nullable::Value(10_737_418_240)));
    assert_eq!(settings.object_storage_max_file_count, Some(Nullable::Value(100)));
    assert_eq!(settings.engine_max_threads, Some(Nullable::Value(8)));
    assert_eq!(settings.engine_max_insert_threads, Some(Nullable::Value(1)));
    assert_eq!(settings.engine_min_insert_block_size_bytes, Some(Nullable::Value(1_073_741_824)));
    assert_eq!(settings.engine_max_download_threads, Some(Nullable::Value(4)));
    assert_eq!(settings.engine_parallel_distributed_insert_select, Some(Nullable::Value(2)));
    assert_eq!(settings.object_storage_use_cluster_function, Some(Nullable::Value(true)));
    assert_eq!(settings.engine_parallel_view_processing, Some(Nullable::Value(false)));
    // Settings this crate does not model are kept, in order, as sent.
    assert_eq!(settings.unknown.names().collect::<Vec<_>>(), ["kafka_read_committed", "future_setting"]);
    assert_eq!(settings.unknown.get("future_setting"), Some(r#""on""#));
}

/// The classic way to erase a user's data: a full replace built from a read. Written back, the
/// read value is the same JSON, unknown settings included.
#[test]
fn settings_read_and_written_back_lose_nothing() {
    let read = GetPipeSettings::new(org(), service(), pipe())
        .parse_response(&crate::common::management(), response(200, fixture("get_pipe_settings_ok")))
        .unwrap()
        .value;
    let built = UpdatePipeSettings::new(org(), service(), pipe(), read).build_request(&management()).unwrap();
    let sent: serde_json::Value = serde_json::from_slice(built.body()).unwrap();
    let envelope: serde_json::Value = serde_json::from_slice(fixture("get_pipe_settings_ok")).unwrap();
    assert_eq!(sent, envelope["result"]);
}

#[test]
fn update_pipe_settings_success() {
    let endpoint = UpdatePipeSettings::new(org(), service(), pipe(), settings_with_unknown());
    let reply = endpoint
        .parse_response(&crate::common::management(), response(200, fixture("update_pipe_settings_ok")))
        .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a03"));
    let settings = reply.value;
    assert_eq!(settings.streaming_max_insert_wait_ms, Some(Nullable::Value(1000)));
    assert_eq!(settings.engine_max_threads, Some(Nullable::Null), "null reads as null: a setting at its default");
    assert_eq!(settings.object_storage_concurrency, None);
    assert_eq!(settings.unknown.get("kafka_read_committed"), Some("true"));
}

#[test]
fn discover_pipe_schema_success() {
    let endpoint = DiscoverPipeSchema::new(org(), service(), kafka_discovery());
    let reply = endpoint
        .parse_response(&crate::common::management(), response(200, fixture("discover_pipe_schema_ok")))
        .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a04"));
    let discovered = reply.value;
    let fields = discovered.fields.as_ref().unwrap();
    assert_eq!(fields.len(), 3);
    assert_eq!(fields[0].name.as_deref(), Some("user_id"));
    assert_eq!(fields[0].kind.as_deref(), Some("Int64"));
    assert_eq!(fields[0].optional, Some(false));
    assert_eq!(fields[1].name.as_deref(), Some("event"));
    assert_eq!(fields[1].kind.as_deref(), Some("String"));
    assert_eq!(fields[1].optional, None);
    assert_eq!(fields[2].kind.as_deref(), Some("Nullable(String)"));
    assert_eq!(fields[2].optional, Some(true));
    let meta = discovered.meta.as_ref().unwrap();
    assert_eq!(meta.get("topic").as_deref(), Some("events"));
    assert_eq!(meta.get("schemaId").as_deref(), Some("100004"));
    assert_eq!(meta.get("absent"), None);
    let columns = discovered.columns();
    assert_eq!(columns.len(), 3);
    assert_eq!(columns[2].name.as_deref(), Some("note"));
    assert_eq!(columns[2].kind.as_deref(), Some("Nullable(String)"));

    let empty = endpoint
        .parse_response(&crate::common::management(), response(200, fixture("discover_pipe_schema_no_meta")))
        .unwrap()
        .value;
    assert_eq!(empty.fields, Some(Vec::new()));
    assert_eq!(empty.meta, None, "meta: null reads as absent");
}

#[test]
fn pipes_cdc_scaling_success() {
    let get = GetPipesCdcScaling::new(org(), service());
    let reply =
        get.parse_response(&crate::common::management(), response(200, fixture("get_pipes_cdc_scaling_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a06"));
    assert_eq!(reply.value.replica_cpu_millicores.map(|q| q.value()), Some(2000.0));
    assert_eq!(reply.value.replica_memory_gb.map(|q| q.value()), Some(8.0));

    let patch = UpdatePipesCdcScaling::new(org(), service(), PipesCdcScaling::with_cores(4));
    let reply = patch
        .parse_response(&crate::common::management(), response(200, fixture("update_pipes_cdc_scaling_ok")))
        .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a07"));
    assert_eq!(reply.value.replica_cpu_millicores.map(|q| q.value()), Some(4000.0));
    assert_eq!(reply.value.replica_memory_gb.map(|q| q.value()), Some(16.0), "16.0 reads as 16");
}

fn api_error<E: EndpointExt<Api = pipe_api_proto::Management>>(endpoint: &E, status: u16, name: &str) -> ApiError {
    *crate::common::api_error(endpoint, status, fixture(name))
}

#[test]
fn error_fixtures() {
    let scaling = UpdatePipeScaling::new(org(), service(), pipe(), Scaling::default());
    let settings = GetPipeSettings::new(org(), service(), pipe());
    let replace = UpdatePipeSettings::new(org(), service(), pipe(), PipeSettings::default());
    let discovery = DiscoverPipeSchema::new(org(), service(), kinesis_discovery());
    let cdc = GetPipesCdcScaling::new(org(), service());
    let cdc_patch = UpdatePipesCdcScaling::new(org(), service(), PipesCdcScaling::default());
    let cases: [(ApiError, &str, u16, &str, &str, &str); 6] = [
        (
            api_error(&scaling, 400, "error_400_scaling_range"),
            "update_pipe_scaling",
            400,
            "BAD_REQUEST",
            "replicas: must be an integer from 1 to 40",
            "c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a08",
        ),
        (
            api_error(&replace, 400, "error_400_settings_range"),
            "update_pipe_settings",
            400,
            "BAD_REQUEST",
            "engine_max_threads: must be an integer from 0 to 64",
            "c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a0a",
        ),
        (
            api_error(&settings, 404, "error_404_settings_database_pipe"),
            "get_pipe_settings",
            404,
            "NOT_FOUND",
            "ingestion for pipe \"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e\" not found",
            "c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a09",
        ),
        (
            api_error(&discovery, 400, "error_400_schema_discovery"),
            "discover_pipe_schema",
            400,
            "BAD_REQUEST",
            "source.objectStorage: schema discovery supports kafka and kinesis sources only",
            "c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a0b",
        ),
        (
            api_error(&cdc, 404, "error_404_cdc_scaling"),
            "get_pipes_cdc_scaling",
            404,
            "NOT_FOUND",
            "CDC scaling of service 4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002: no database pipe was provisioned",
            "c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a0c",
        ),
        (
            api_error(&cdc_patch, 400, "error_400_cdc_scaling_ratio"),
            "update_pipes_cdc_scaling",
            400,
            "BAD_REQUEST",
            "replicaMemoryGb: must be 4 per CPU core",
            "c4f2a8e1-3b7d-4e19-9a2c-5d6e7f801a0d",
        ),
    ];
    for (error, operation, status, code, message, request_id) in cases {
        assert_eq!(error.operation(), operation);
        assert_eq!(error.status().as_u16(), status, "{operation}");
        assert_eq!(error.code(), Some(code), "{operation}");
        assert_eq!(error.message(), Some(message), "{operation}");
        assert_eq!(error.request_id(), Some(request_id), "{operation}");
        assert_eq!(error.raw_text(), None, "{operation}: a JSON body is not raw text");
    }
}
