//! Tuning pipes end to end, between the ureq client and the fake served on 127.0.0.1 with the
//! demo's admin key: scaling, settings (a full replace that keeps what this crate does not
//! model), schema discovery, and the CDC scaling that exists once a database pipe does. Then the
//! fake's own checks, reached with raw requests that skip the client's validation.

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_proto::{Error, Management, Raw};
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::{
    Authentication, DataFormat, IteratorType, KafkaSource, KafkaType, KinesisSource, Nullable, Pipe, PipeId,
    PipeSchemaDiscoveryRequest, PipeSettings, PipeState, PipesCdcScaling, Scaling, SchemaRegistry, SourceKind,
};
use pipe_api_ureq::Client;
use serde_json::{Value, json};

use crate::clients::*;

/// The demo's Kafka pipe and its object-storage pipe.
const KAFKA_PIPE: &str = "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19001";
const STORAGE_PIPE: &str = "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19002";

fn id(text: &str) -> PipeId {
    text.parse().unwrap()
}

/// The pipe as the fake stores it, as the JSON it would send: checked by wire name, so a wrong
/// name in a client model cannot agree with itself.
fn stored(fake: &Fake, pipe: PipeId) -> Value {
    let pipes = fake.pipes_json(ORG, SERVICE);
    pipes.into_iter().find(|p| p["id"] == pipe.to_string()).expect("the pipe is stored")
}

/// An API error's status and its `CODE: message` text.
fn status_and_text(error: Error) -> (u16, String) {
    let api = error.as_api().unwrap_or_else(|| panic!("not an API error: {error}"));
    (api.status().as_u16(), format!("{}: {}", api.code().unwrap_or_default(), api.message().unwrap_or_default()))
}

#[test]
fn scaling_shows_in_the_next_get() {
    let server = Fake::demo().serve().unwrap();
    let (client, fake) = (demo_client(&server), server.fake());
    let scaling = Scaling::default().replicas(5u32).replica_cpu_millicores(1000u32).replica_memory_gb(4.0);
    let answered = client.update_pipe_scaling(ORG, SERVICE, id(KAFKA_PIPE), scaling).unwrap();
    let read = client.get_pipe(ORG, SERVICE, id(KAFKA_PIPE)).unwrap();
    assert_eq!(answered, read);
    let scaling = read.scaling.unwrap();
    assert_eq!(scaling.replicas, Some(5));
    assert_eq!(scaling.concurrency, Some(1), "a field left out of the patch stays");
    assert_eq!(scaling.replica_cpu_millicores.map(|q| q.value()), Some(1000.0));
    assert_eq!(scaling.replica_memory_gb.map(|q| q.value()), Some(4.0));
    let json = stored(fake, id(KAFKA_PIPE));
    assert_eq!(
        json["scaling"],
        json!({ "replicas": 5, "concurrency": 1, "replicaCpuMillicores": 1000, "replicaMemoryGb": 4 })
    );
    assert_eq!(read.updated_at, Some(fake.now()));

    let missing =
        client.update_pipe_scaling(ORG, SERVICE, id("2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19999"), Scaling::default());
    assert_eq!(
        status_and_text(missing.unwrap_err()),
        (404, "NOT_FOUND: 2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19999".to_owned())
    );
}

#[test]
fn settings_change_one_and_read_again() {
    let server = Fake::demo().serve().unwrap();
    let (client, fake) = (demo_client(&server), server.fake());
    let pipe = id(STORAGE_PIPE);
    let before = client.get_pipe_settings(ORG, SERVICE, pipe).unwrap();
    assert_eq!(before, PipeSettings::default(), "the demo pipe has no settings yet");

    let wanted = before.object_storage_concurrency(4u64).object_storage_use_cluster_function(true);
    let answered = client.update_pipe_settings(ORG, SERVICE, pipe, wanted.clone()).unwrap();
    assert_eq!(answered, wanted);
    let after = client.get_pipe_settings(ORG, SERVICE, pipe).unwrap();
    assert_eq!(after, wanted);
    assert_eq!(after.object_storage_concurrency, Some(Nullable::Value(4)));
    assert_eq!(
        stored(fake, pipe)["settings"],
        json!({ "object_storage_concurrency": 4, "object_storage_use_cluster_function": true })
    );
    // The pipe itself shows them too.
    assert_eq!(client.get_pipe(ORG, SERVICE, pipe).unwrap().settings, Some(wanted.clone()));

    // A full replace: what is left out is gone.
    let replaced = PipeSettings::default().engine_max_threads(2u64);
    client.update_pipe_settings(ORG, SERVICE, pipe, replaced.clone()).unwrap();
    assert_eq!(client.get_pipe_settings(ORG, SERVICE, pipe).unwrap(), replaced);
    assert_eq!(stored(fake, pipe)["settings"], json!({ "engine_max_threads": 2 }));
}

/// The classic way to erase a user's data: read, change one setting, write the whole back. The
/// settings this crate does not model survive, on the server.
#[test]
fn settings_round_trip_keeps_unknown_fields() {
    let server = Fake::demo().serve().unwrap();
    let (client, fake) = (demo_client(&server), server.fake());
    // A pipe whose settings hold what a newer server (or another tool) set.
    let seeded: Pipe = serde_json::from_value(json!({
        "id": "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19003",
        "serviceId": SERVICE,
        "name": "clicks-from-kafka",
        "state": "Running",
        "source": { "kafka": { "type": "kafka", "format": "JSONEachRow", "brokers": "b:9092", "topics": "clicks", "authentication": "PLAIN" } },
        "destination": { "database": "default", "table": "clicks", "managedTable": true },
        "settings": {
            "streaming_max_insert_wait_ms": 5000,
            "kafka_read_committed": true,
            "kafka_max_poll_records": 500,
            "future_mode": "eager"
        }
    }))
    .unwrap();
    let pipe = seeded.id;
    fake.seed_pipe(ORG, SERVICE, seeded);

    let mut settings = client.get_pipe_settings(ORG, SERVICE, pipe).unwrap();
    assert_eq!(settings.streaming_max_insert_wait_ms, Some(Nullable::Value(5000)));
    assert_eq!(settings.unknown.len(), 3);
    settings.streaming_max_insert_wait_ms = Some(Nullable::Value(2000));
    client.update_pipe_settings(ORG, SERVICE, pipe, settings).unwrap();

    let on_server = &stored(fake, pipe)["settings"];
    assert_eq!(
        on_server,
        &json!({
            "streaming_max_insert_wait_ms": 2000,
            "kafka_read_committed": true,
            "kafka_max_poll_records": 500,
            "future_mode": "eager"
        })
    );
    // Read and written back unchanged: the server holds the same.
    let read = client.get_pipe_settings(ORG, SERVICE, pipe).unwrap();
    client.update_pipe_settings(ORG, SERVICE, pipe, read).unwrap();
    assert_eq!(&stored(fake, pipe)["settings"], on_server);
}

#[test]
fn schema_discovery_follows_the_source() {
    let server = Fake::demo().serve().unwrap();
    let client = demo_client(&server);
    // MSK: the Kafka flavour that authenticates with an IAM role (PipePostKafkaSource).
    let kafka = KafkaSource::new(
        KafkaType::Msk,
        DataFormat::AvroConfluent,
        "b-1.orders.abc123.c2.kafka.eu-west-1.amazonaws.com:9098",
        "orders,refunds",
        Authentication::IamRole,
    )
    .iam_role("arn:aws:iam::123456789012:role/ingest")
    .schema_registry(SchemaRegistry::default().url("https://psrc-1.eu-west-1.aws.confluent.cloud/schemas/ids/42"));
    let avro = client.discover_pipe_schema(ORG, SERVICE, PipeSchemaDiscoveryRequest::kafka(kafka)).unwrap();
    let meta = avro.meta.as_ref().unwrap();
    assert_eq!(meta.get("topic").as_deref(), Some("orders"));
    assert_eq!(meta.get("schemaId").as_deref(), Some("42"));
    assert_eq!(meta.get("format").as_deref(), Some("AvroConfluent"));
    let fields = avro.fields.as_ref().unwrap();
    assert!(fields.iter().any(|f| f.kind.as_deref() == Some("DateTime64(3)")), "Avro declares its types");
    assert!(fields.iter().all(|f| f.name.is_some() && f.kind.is_some() && f.optional.is_some()));
    assert_eq!(avro.columns().len(), fields.len());

    let kinesis = KinesisSource::new(
        DataFormat::JsonEachRow,
        "clicks",
        "eu-west-1",
        IteratorType::Latest,
        Authentication::IamRole,
    )
    .iam_role("arn:aws:iam::123456789012:role/ingest");
    let json = client.discover_pipe_schema(ORG, SERVICE, PipeSchemaDiscoveryRequest::kinesis(kinesis)).unwrap();
    let meta = json.meta.as_ref().unwrap();
    assert_eq!(meta.get("streamName").as_deref(), Some("clicks"));
    assert_eq!(meta.get("region").as_deref(), Some("eu-west-1"));
    assert_ne!(json.fields, avro.fields, "a JSON source infers JSON's types, not Avro's");
}

#[test]
fn cdc_scaling_exists_once_a_database_pipe_was_provisioned() {
    let server = Fake::demo().serve().unwrap();
    let (client, fake) = (demo_client(&server), server.fake());
    let not_yet = |error: Error| {
        let (status, text) = status_and_text(error);
        assert_eq!(status, 404);
        assert!(text.starts_with("NOT_FOUND: CDC scaling of service"), "{text}");
    };
    not_yet(client.get_pipes_cdc_scaling(ORG, SERVICE).unwrap_err());
    not_yet(client.update_pipes_cdc_scaling(ORG, SERVICE, PipesCdcScaling::with_cores(2)).unwrap_err());

    let postgres = create_pipe_requests("cdc")
        .into_iter()
        .find(|r| r.source.as_ref().and_then(|s| s.kind()) == Some(SourceKind::Postgres))
        .unwrap();
    let created = client.create_pipe(ORG, SERVICE, postgres).unwrap();
    // Created is not yet provisioned.
    not_yet(client.get_pipes_cdc_scaling(ORG, SERVICE).unwrap_err());
    assert!(fake.set_pipe_state(ORG, SERVICE, created.id, PipeState::Running));

    let initial = client.get_pipes_cdc_scaling(ORG, SERVICE).unwrap();
    assert_eq!(initial, PipesCdcScaling::with_cores(2));
    let scaled = client.update_pipes_cdc_scaling(ORG, SERVICE, PipesCdcScaling::with_cores(4)).unwrap();
    assert_eq!(scaled.replica_cpu_millicores.as_ref().map(|q| q.value()), Some(4000.0));
    assert_eq!(scaled.replica_memory_gb.as_ref().map(|q| q.value()), Some(16.0));
    assert_eq!(client.get_pipes_cdc_scaling(ORG, SERVICE).unwrap(), scaled);

    // Only the CPU: the memory it leads to breaks 4 GiB per core, which the service sees.
    let lopsided =
        client.update_pipes_cdc_scaling(ORG, SERVICE, PipesCdcScaling::default().replica_cpu_millicores(8000u32));
    let (status, text) = status_and_text(lopsided.unwrap_err());
    assert_eq!(status, 400);
    assert!(text.starts_with("BAD_REQUEST: invalid request: replicaMemoryGb: must be 4 per CPU core"), "{text}");

    // A database pipe is scaled with the service, and has no ingestion settings.
    let (status, text) =
        status_and_text(client.update_pipe_scaling(ORG, SERVICE, created.id, Scaling::default()).unwrap_err());
    assert_eq!(status, 400, "{text}");
    let (status, text) = status_and_text(client.get_pipe_settings(ORG, SERVICE, created.id).unwrap_err());
    assert_eq!((status, text), (404, format!("NOT_FOUND: ingestion for pipe \"{}\" not found", created.id)));
}

/// Sends `body` as is, past the client's validation, and returns the fake's status and error.
fn raw(client: &Client, method: http::Method, path: &str, body: Value) -> (u16, String) {
    let request = Raw::<Management>::new(method, path).unwrap().json(&body).unwrap();
    match client.call(&request) {
        Ok(reply) => (200, reply.value.to_string()),
        Err(error) => status_and_text(error),
    }
}

/// The fake checks what the client would have refused, on its own, naming the field.
#[test]
fn the_fake_refuses_what_the_contract_forbids() {
    let server = Fake::demo().serve().unwrap();
    let client = demo_client(&server);
    let pipe = format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes/{KAFKA_PIPE}");
    let cases: Vec<(http::Method, String, Value, &str)> = vec![
        (http::Method::PATCH, format!("{pipe}/scaling"), json!({ "replicas": 41 }), "replicas"),
        (http::Method::PATCH, format!("{pipe}/scaling"), json!({ "replicas": 0 }), "replicas"),
        (http::Method::PATCH, format!("{pipe}/scaling"), json!({ "concurrency": 35 }), "concurrency"),
        (
            http::Method::PATCH,
            format!("{pipe}/scaling"),
            json!({ "replicaCpuMillicores": 124 }),
            "replicaCpuMillicores",
        ),
        (http::Method::PATCH, format!("{pipe}/scaling"), json!({ "replicaMemoryGb": 8.5 }), "replicaMemoryGb"),
        (
            http::Method::PUT,
            format!("{pipe}/settings"),
            json!({ "streaming_max_insert_wait_ms": 499 }),
            "streaming_max_insert_wait_ms",
        ),
        (
            http::Method::PUT,
            format!("{pipe}/settings"),
            json!({ "object_storage_max_file_count": 10001 }),
            "object_storage_max_file_count",
        ),
        (
            http::Method::PUT,
            format!("{pipe}/settings"),
            json!({ "engine_parallel_view_processing": "yes" }),
            "engine_parallel_view_processing",
        ),
        (http::Method::PUT, format!("{pipe}/settings"), json!({ "nested": { "a": 1 } }), "nested"),
        (
            http::Method::POST,
            format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes/schemaDiscovery"),
            json!({ "source": { "objectStorage": { "type": "s3", "format": "JSONEachRow", "url": "https://b/x" } } }),
            "source.objectStorage",
        ),
        (
            http::Method::POST,
            format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes/schemaDiscovery"),
            json!({ "source": { "kinesis": { "format": "Protobuf", "streamName": "s", "region": "r", "iteratorType": "LATEST", "authentication": "IAM_ROLE" } } }),
            "source.kinesis.format",
        ),
        (
            http::Method::PATCH,
            format!("/v1/organizations/{ORG}/services/{SERVICE}/pipesCdcScaling"),
            json!({ "replicaCpuMillicores": 1500 }),
            "replicaCpuMillicores",
        ),
        (
            http::Method::PATCH,
            format!("/v1/organizations/{ORG}/services/{SERVICE}/pipesCdcScaling"),
            json!({ "replicaMemoryGb": 132 }),
            "replicaMemoryGb",
        ),
    ];
    for (method, path, body, field) in cases {
        let (status, text) = raw(&client, method.clone(), &path, body.clone());
        assert_eq!(status, 400, "{method} {path} {body}: {text}");
        assert!(text.starts_with(&format!("BAD_REQUEST: invalid request: {field}: ")), "{body}: {text}");
    }

    // Valid shapes the client cannot build are accepted: a setting as text, as the contract allows.
    let (status, text) = raw(&client, http::Method::PUT, &format!("{pipe}/settings"), json!({ "kafka_mode": "fast" }));
    assert_eq!(status, 200, "{text}");
}

/// Every tuning call on an idle service fails as pipe calls do there: 424 until it is awake.
#[test]
fn an_idle_service_answers_424_to_every_tuning_call() {
    let server = Fake::demo().serve().unwrap();
    let (client, fake) = (demo_client(&server), server.fake());
    fake.set_service_idle(ORG, SERVICE, true);
    let pipe = id(KAFKA_PIPE);
    let kafka = KafkaSource::new(KafkaType::Msk, DataFormat::JsonEachRow, "b:9092", "t", Authentication::IamRole)
        .iam_role("arn:aws:iam::123456789012:role/r");
    let errors = [
        client.update_pipe_scaling(ORG, SERVICE, pipe, Scaling::default().replicas(2u32)).map(drop),
        client.get_pipe_settings(ORG, SERVICE, pipe).map(drop),
        client.update_pipe_settings(ORG, SERVICE, pipe, PipeSettings::default()).map(drop),
        client.discover_pipe_schema(ORG, SERVICE, PipeSchemaDiscoveryRequest::kafka(kafka)).map(drop),
        client.get_pipes_cdc_scaling(ORG, SERVICE).map(drop),
    ];
    for error in errors {
        let (status, text) = status_and_text(error.unwrap_err());
        assert_eq!(status, 424, "{text}");
        assert!(text.starts_with("FAILED_DEPENDENCY: "), "{text}");
    }
    fake.set_service_idle(ORG, SERVICE, false);
    assert!(client.get_pipe_settings(ORG, SERVICE, pipe).is_ok());
}
