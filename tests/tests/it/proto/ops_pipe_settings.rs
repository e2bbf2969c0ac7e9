//! Tuning pipes (scaling, settings, schema discovery, CDC scaling): what the harness over the
//! fixtures (`every_operation`) does not check. Settings this crate does not model are sent,
//! and a read written back loses nothing; a discovery's secrets are redacted and its columns
//! and meta read by name; nothing is built from an invalid body.

use crate::proto::common;

use common::*;
use pipe_api_proto::{
    BuildErrorKind, DiscoverPipeSchema, EndpointExt, GetPipeSettings, UpdatePipeScaling, UpdatePipeSettings,
    UpdatePipesCdcScaling, render_request,
};
use pipe_api_types::{
    Authentication, Credentials, DataFormat, KafkaSource, KafkaType, PipeSchemaDiscoveryRequest, PipeSettings,
    PipesCdcScaling, Rule, Scaling, SchemaRegistry,
};

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

/// Settings as read, with a setting this crate does not model.
fn settings_with_unknown() -> PipeSettings {
    let mut settings = PipeSettings::default().streaming_max_insert_wait_ms(1000u64).engine_max_threads(8u64);
    settings.unknown.insert("kafka_read_committed", &true).unwrap();
    settings
}

#[test]
fn snapshot_update_pipe_settings_sends_unknown_fields() {
    let endpoint = UpdatePipeSettings::new(org(), service(), pipe(), settings_with_unknown());
    let built = endpoint.build_request(&management()).unwrap();
    assert!(String::from_utf8_lossy(built.body()).contains(r#""kafka_read_committed":true"#));
    insta::assert_snapshot!(render_request(&built));
}

#[test]
fn snapshot_discover_pipe_schema_kafka_with_its_secrets_redacted() {
    let built = DiscoverPipeSchema::new(org(), service(), kafka_discovery()).build_request(&management()).unwrap();
    let shown = render_request(&built);
    assert!(!shown.contains("kafka-password") && !shown.contains("registry-password"), "{shown}");
    insta::assert_snapshot!("discover_pipe_schema_kafka", shown);
}

#[test]
fn a_discovered_schema_reads_its_columns_and_meta_by_name() {
    let endpoint = DiscoverPipeSchema::new(org(), service(), kafka_discovery());
    let body = operation_fixture("discover_pipe_schema", "ok.json");
    let discovered = endpoint.parse_response(&management(), response(200, body)).unwrap().value;
    let meta = discovered.meta.as_ref().unwrap();
    assert_eq!(meta.get("topic").as_deref(), Some("events"));
    assert_eq!(meta.get("schemaId").as_deref(), Some("100004"));
    assert_eq!(meta.get("absent"), None);
    let columns = discovered.columns();
    assert_eq!(columns.len(), 3);
    assert_eq!(columns[2].name.as_deref(), Some("note"));
    assert_eq!(columns[2].kind.as_deref(), Some("Nullable(String)"));
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

/// The classic way to erase a user's data: a full replace built from a read. Written back, the
/// read value is the same JSON, unknown settings included.
#[test]
fn settings_read_and_written_back_lose_nothing() {
    let body = operation_fixture("get_pipe_settings", "ok.json");
    let read =
        GetPipeSettings::new(org(), service(), pipe()).parse_response(&management(), response(200, body.clone()));
    let read = read.unwrap().value;
    let built = UpdatePipeSettings::new(org(), service(), pipe(), read).build_request(&management()).unwrap();
    let sent: serde_json::Value = serde_json::from_slice(built.body()).unwrap();
    let envelope: serde_json::Value = serde_json::from_slice(&body).unwrap();
    assert_eq!(sent, envelope["result"]);
}
