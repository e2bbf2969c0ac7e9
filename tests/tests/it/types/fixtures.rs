//! One realistic payload per resource shape, read field by field and written back: nothing the
//! server sent is lost (unknown fields at every level, unknown enum values, quantity strings).

use pipe_api_types::{
    Alert, AlertInterval, AlertState, Authentication, ChannelType, DataFormat, EndpointProtocol, IteratorType, Key,
    KeyRole, KeyState, MemoryGb, MskAuthentication, OffsetStrategy, Pipe, PipeState, ReadPreference,
    ReplicationMechanism, ReplicationMode, ReversePrivateEndpoint, ReversePrivateEndpointStatus,
    ReversePrivateEndpointType, SeekType, Service, SourceKind, TableEngineType, ThresholdType,
};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::Value;
use time::macros::datetime;

/// The payload `models/<name>`.
fn model_json(name: &str) -> String {
    String::from_utf8(pipe_api_tests::fixtures::fixture(&format!("models/{name}"))).unwrap()
}

/// Drops what means "absent" (a `null`), which a model writes back as absent.
fn without_nulls(value: Value) -> Value {
    match value {
        Value::Object(map) => {
            Value::Object(map.into_iter().filter(|(_, v)| !v.is_null()).map(|(k, v)| (k, without_nulls(v))).collect())
        }
        Value::Array(items) => Value::Array(items.into_iter().map(without_nulls).collect()),
        other => other,
    }
}

/// Reads the fixture, checks that writing it back loses nothing, and returns the model.
fn read_lossless<T: DeserializeOwned + Serialize>(name: &str, normalize: impl Fn(&mut Value)) -> T {
    let text = model_json(name);
    let model: T = serde_json::from_str(&text).unwrap_or_else(|e| panic!("{name}: {e}"));
    let mut original: Value = without_nulls(serde_json::from_str(&text).unwrap());
    normalize(&mut original);
    let written = serde_json::to_value(&model).unwrap();
    let mut differences = Vec::new();
    diff("", &original, &written, &mut differences);
    assert!(differences.is_empty(), "{name}: written back differs at {differences:#?}");
    model
}

/// Where two JSON values differ, by path.
fn diff(path: &str, expected: &Value, actual: &Value, out: &mut Vec<String>) {
    match (expected, actual) {
        (Value::Object(a), Value::Object(b)) => {
            for key in a.keys().chain(b.keys().filter(|k| !a.contains_key(*k))) {
                let (x, y) = (a.get(key).unwrap_or(&Value::Null), b.get(key).unwrap_or(&Value::Null));
                diff(&format!("{path}.{key}"), x, y, out);
            }
        }
        (Value::Array(a), Value::Array(b)) if a.len() == b.len() => {
            for (i, (x, y)) in a.iter().zip(b).enumerate() {
                diff(&format!("{path}[{i}]"), x, y, out);
            }
        }
        (a, b) if a != b => out.push(format!("{path}: expected {a}, written {b}")),
        _ => {}
    }
}

fn same(_: &mut Value) {}

#[test]
fn kafka_pipe() {
    let pipe: Pipe = read_lossless("pipe_kafka.json", same);
    assert_eq!(pipe.id.to_string(), "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19001");
    assert_eq!(pipe.service_id.unwrap().to_string(), "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402");
    assert_eq!(pipe.name.as_deref(), Some("orders-from-kafka"));
    assert_eq!(pipe.state, Some(PipeState::Running));
    let scaling = pipe.scaling.as_ref().unwrap();
    assert_eq!((scaling.replicas, scaling.concurrency), (Some(2), Some(1)));
    assert_eq!(scaling.replica_cpu_millicores.as_ref().unwrap().value(), 500.0);
    assert_eq!(scaling.replica_memory_gb.as_ref().unwrap().value(), 2.0);
    assert_eq!(scaling.replica_memory_gb.as_ref().unwrap().original_text(), Some("2Gi"));
    assert_eq!(scaling.unknown.names().collect::<Vec<_>>(), ["autoscale"]);

    let source = pipe.source.as_ref().unwrap();
    assert_eq!(source.kinds(), [SourceKind::Kafka]);
    assert_eq!(source.unknown.names().collect::<Vec<_>>(), ["sourceLabels"]);
    let kafka = source.kafka.as_ref().unwrap();
    assert_eq!(kafka.kind.as_ref().unwrap().as_str(), "confluent");
    assert_eq!(kafka.format, Some(DataFormat::AvroConfluent));
    assert_eq!(kafka.brokers.as_deref(), Some("pkc-1234.eu-west-1.aws.confluent.cloud:9092"));
    assert_eq!(kafka.topics.as_deref(), Some("orders,refunds"));
    assert_eq!(kafka.consumer_group.as_deref(), Some("clickpipes-orders"));
    assert_eq!(kafka.authentication, Some(Authentication::Plain));
    let offset = kafka.offset.as_ref().unwrap();
    assert_eq!(offset.strategy, Some(OffsetStrategy::FromTimestamp));
    assert_eq!(offset.timestamp, Some(datetime!(2021-01-01 00:00)));
    assert_eq!(offset.unknown.names().collect::<Vec<_>>(), ["partitionHint"]);
    assert_eq!(
        kafka.schema_registry.as_ref().unwrap().url.as_deref(),
        Some("https://psrc-1234.eu-west-1.aws.confluent.cloud")
    );
    assert_eq!(kafka.reverse_private_endpoint_ids.as_ref().unwrap().len(), 1);
    assert_eq!(kafka.exactly_once, Some(false));
    assert_eq!(kafka.unknown.get("compressionHint"), Some(r#""zstd""#));

    let destination = pipe.destination.as_ref().unwrap();
    assert_eq!((destination.database.as_deref(), destination.table.as_deref()), (Some("shop"), Some("orders")));
    assert_eq!(destination.managed_table, Some(true));
    let definition = destination.table_definition.as_ref().unwrap();
    assert_eq!(definition.engine.as_ref().unwrap().kind, Some(TableEngineType::ReplacingMergeTree));
    assert_eq!(definition.sorting_key.as_ref().unwrap(), &["id"]);
    assert_eq!(definition.unknown.names().collect::<Vec<_>>(), ["ttl"]);
    let columns = destination.columns.as_ref().unwrap();
    assert_eq!(columns.len(), 3);
    assert_eq!((columns[1].name.as_deref(), columns[1].kind.as_deref()), (Some("total"), Some("Decimal(18, 2)")));
    assert_eq!(columns[0].unknown.names().collect::<Vec<_>>(), ["codec"]);
    let mappings = pipe.field_mappings.as_ref().unwrap();
    assert_eq!(mappings[0].source_field.as_deref(), Some("order_id"));
    assert_eq!(mappings[0].unknown.names().collect::<Vec<_>>(), ["transform"]);
    let settings = pipe.settings.as_ref().unwrap();
    assert_eq!(
        (settings.streaming_max_insert_wait_ms, settings.engine_max_threads),
        (Some(pipe_api_types::Nullable::Value(5000)), Some(pipe_api_types::Nullable::Value(4)))
    );
    assert_eq!(pipe.created_at, Some(datetime!(2025-12-01 08:00:00 UTC)));
    assert_eq!(pipe.updated_at, Some(datetime!(2025-12-02 10:30:00.5 UTC)));
    assert_eq!(pipe.unknown.names().collect::<Vec<_>>(), ["lastError", "labels"]);
}

#[test]
fn object_storage_pipe_with_an_unknown_state_and_numeric_quantities() {
    // The +02:00 offset is kept as sent.
    let pipe: Pipe = read_lossless("pipe_object_storage.json", same);
    assert_eq!(pipe.state.as_ref().unwrap().as_str(), "Hibernating");
    assert!(!pipe.state.as_ref().unwrap().is_known());
    let scaling = pipe.scaling.unwrap();
    assert_eq!(scaling.replica_cpu_millicores.unwrap().value(), 1000.0);
    assert_eq!(scaling.replica_memory_gb.unwrap().value(), 4.5);
    let storage = pipe.source.as_ref().unwrap().object_storage.as_ref().unwrap();
    assert_eq!(storage.kind.as_ref().unwrap().as_str(), "s3");
    assert_eq!(storage.format.as_ref().unwrap().as_str(), "Parquet");
    assert_eq!(storage.is_continuous, Some(true));
    assert_eq!(storage.iam_role.as_deref(), Some("arn:aws:iam::123456789012:role/clickpipes"));
    assert_eq!(pipe.created_at, Some(datetime!(2025-12-05 12:00:00 +2)));
}

#[test]
fn kinesis_pipe_with_an_integer_timestamp() {
    let pipe: Pipe = read_lossless("pipe_kinesis.json", same);
    let scaling = pipe.scaling.as_ref().unwrap();
    assert_eq!(scaling.replica_cpu_millicores.as_ref().unwrap().value(), 1500.0);
    assert_eq!(scaling.replica_memory_gb.as_ref().unwrap().value(), 0.5);
    let kinesis = pipe.source.as_ref().unwrap().kinesis.as_ref().unwrap();
    assert_eq!(kinesis.stream_name.as_deref(), Some("clickstream"));
    assert_eq!(kinesis.iterator_type, Some(IteratorType::AtTimestamp));
    assert_eq!(kinesis.timestamp, Some(datetime!(2024-01-01 00:00:00 UTC)));
    assert_eq!(kinesis.use_enhanced_fan_out, Some(true));
    assert_eq!(kinesis.unknown.names().collect::<Vec<_>>(), ["shardFilter"]);
}

#[test]
fn postgres_pipe_with_settings_and_table_mappings() {
    let pipe: Pipe = read_lossless("pipe_postgres.json", same);
    assert_eq!(pipe.state, Some(PipeState::Snapshot));
    let postgres = pipe.source.as_ref().unwrap().postgres.as_ref().unwrap();
    assert_eq!(postgres.kind.as_ref().unwrap().as_str(), "rds");
    assert_eq!(postgres.port, Some(5432));
    let settings = postgres.settings.as_ref().unwrap();
    assert_eq!(settings.replication_mode, Some(ReplicationMode::Cdc));
    assert_eq!(settings.pull_batch_size, Some(100_000));
    assert_eq!(settings.snapshot_num_rows_per_partition, Some(1_000_000));
    assert_eq!(settings.unknown.names().collect::<Vec<_>>(), ["walSenderTimeout"]);
    let mapping = &postgres.table_mappings.as_ref().unwrap()[0];
    assert_eq!(mapping.target_table.as_deref(), Some("public_orders"));
    assert_eq!(mapping.excluded_columns.as_ref().unwrap(), &["card_number"]);
    assert_eq!(mapping.table_engine, Some(TableEngineType::ReplacingMergeTree));
    assert!(mapping.partition_key.is_some(), "a modelled field of the contract");
    assert!(mapping.unknown.is_empty());
}

#[test]
fn older_alert_names() {
    let alert: Alert = read_lossless("alert_older.json", same);
    assert_eq!(alert.id.as_str(), "65f1a2b3c4d5e6f708192a3b");
    assert_eq!(alert.interval, Some(AlertInterval::FiveMinutes));
    assert_eq!(alert.threshold_type, Some(ThresholdType::Above));
    assert_eq!(alert.state, Some(AlertState::Ok));
    assert_eq!(alert.channel.as_ref().unwrap().kind, Some(ChannelType::Webhook));
    assert_eq!(alert.resolved_team_id(), Some("65f1a2b3c4d5e6f708190100"));
    assert_eq!(alert.resolved_saved_search_id(), Some("65f1a2b3c4d5e6f708190200"));
    assert_eq!(alert.resolved_dashboard_id(), None);
    assert_eq!(alert.resolved_channels().len(), 1);
}

#[test]
fn newer_alert_names_and_fields() {
    let alert: Alert = read_lossless("alert_newer.json", same);
    assert_eq!(alert.threshold_max, Some(5000.0));
    assert_eq!(alert.threshold_type.as_ref().unwrap().as_str(), "not_between");
    assert_eq!(alert.state.as_ref().unwrap().as_str(), "PENDING");
    assert_eq!(alert.resolved_team_id(), Some("65f1a2b3c4d5e6f708190100"));
    assert_eq!(alert.resolved_dashboard_id(), Some("65f1a2b3c4d5e6f708190300"));
    assert_eq!(alert.group_by.as_deref(), Some("pipe"));
    assert_eq!(alert.note.as_deref(), Some("page the on-call"));
    let channels = alert.resolved_channels();
    assert_eq!(channels.len(), 2);
    assert_eq!(channels[1].kind.as_ref().unwrap().as_str(), "pagerduty");
    assert_eq!(channels[1].unknown.names().collect::<Vec<_>>(), ["serviceKey"]);
    let silenced = alert.silenced.as_ref().unwrap();
    assert_eq!(silenced.until, Some(datetime!(2026-06-11 00:00:00 UTC)));
    assert_eq!(silenced.unknown.names().collect::<Vec<_>>(), ["reason"]);
    assert_eq!((alert.schedule_offset_minutes, alert.num_consecutive_windows), (Some(5), Some(3)));
    let error = &alert.execution_errors.as_ref().unwrap()[0];
    assert_eq!(error.message.as_deref(), Some("timeout"));
    assert_eq!(error.unknown.names().collect::<Vec<_>>(), ["attempt"]);
    assert_eq!(alert.unknown.names().collect::<Vec<_>>(), ["ownerId"]);
}

#[test]
fn service_with_null_usernames_and_newer_fields() {
    let service: Service = read_lossless("service.json", same);
    assert_eq!(service.name.as_deref(), Some("analytics"));
    let endpoints = service.endpoints.as_ref().unwrap();
    assert_eq!(endpoints.len(), 4);
    assert_eq!(endpoints[0].protocol, Some(EndpointProtocol::Https));
    assert_eq!(endpoints[0].username, None);
    assert_eq!(endpoints[2].username.as_deref(), Some("abc_user"));
    assert_eq!(endpoints[3].protocol.as_ref().unwrap().as_str(), "grpc");
    assert_eq!(service.min_total_memory_gb, Some(MemoryGb::gigabytes(24.0)));
    assert_eq!(service.num_replicas, Some(3.0));
    assert_eq!(service.idle_scaling, Some(true));
    assert_eq!(service.ip_access_list.as_ref().unwrap()[0].source.as_deref(), Some("0.0.0.0/0"));
    assert_eq!(service.private_endpoint_ids.as_ref().unwrap(), &["vpce-0a1b2c3d"]);
    // The newer server's fields are modelled: nothing is left unknown.
    assert!(
        service.state.is_some() && service.provider.is_some() && service.region.is_some() && service.tier.is_some()
    );
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
}

#[test]
fn key_whose_expiry_is_an_empty_string() {
    // `""` means "never expires", written back as absent.
    let key: Key = read_lossless("key.json", |v| {
        v.as_object_mut().unwrap().remove("expireAt");
    });
    assert!(key.never_expires());
    assert_eq!(key.state, Some(KeyState::Enabled));
    assert_eq!(key.roles.as_ref().unwrap(), &[KeyRole::Developer, KeyRole::QueryEndpoints]);
    assert_eq!(key.used_at, Some(datetime!(2026-03-02 11:00:00 UTC)));
    assert_eq!(key.ip_access_list.as_ref().unwrap()[1].source.as_deref(), Some("2001:db8::1"));
    // An assigned role in a shape this crate does not know: its members are kept, not lost.
    let assigned = key.assigned_roles.as_ref().unwrap();
    assert_eq!(assigned[0].unknown.names().collect::<Vec<_>>(), ["id", "name"]);
    assert!(key.unknown.is_empty());
}

#[test]
fn reverse_private_endpoint_with_an_unknown_status() {
    let endpoint: ReversePrivateEndpoint = read_lossless("reverse_private_endpoint.json", same);
    assert_eq!(endpoint.kind, Some(ReversePrivateEndpointType::MskMultiVpc));
    assert_eq!(endpoint.msk_authentication, Some(MskAuthentication::SaslScram));
    assert_eq!(endpoint.status.as_ref().unwrap().as_str(), "Migrating");
    assert!(!ReversePrivateEndpointStatus::KNOWN.contains(endpoint.status.as_ref().unwrap()));
    assert_eq!(endpoint.dns_names.as_ref().unwrap().len(), 1);
    assert_eq!(endpoint.unknown.names().collect::<Vec<_>>(), ["statusMessage"]);
}

/// A field the spec types as `number` reads any JSON number, and a newer server's service
/// fields (state, provider, region, ...) are modelled.
#[test]
fn a_service_reads_any_number_and_its_newer_fields() {
    use pipe_api_types::{ServiceRegion, ServiceState};
    let service: Service = serde_json::from_str(
        r#"{"id":"4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002","numReplicas":3.0,"idleTimeoutMinutes":7.5,
            "state":"partially_running","provider":"aws","region":"eu-west-1","tier":"production",
            "minReplicas":2,"maxReplicas":6,"autoscalingMode":"vertical","replicaMemoryGb":32,
            "releaseChannel":"fast","profile":"v1-default","complianceType":"pci","enableCoreDumps":false}"#,
    )
    .unwrap();
    assert_eq!(service.num_replicas, Some(3.0));
    assert_eq!(service.idle_timeout_minutes, Some(7.5));
    assert_eq!(service.state, Some(ServiceState::PartiallyRunning));
    assert_eq!(service.region, Some(ServiceRegion::AwsEuWest1));
    assert_eq!(service.max_replicas, Some(6));
    assert_eq!(service.enable_core_dumps, Some(false));
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
    // Written back as it came (whole numbers without a fraction, as the servers write them).
    let written = serde_json::to_value(&service).unwrap();
    assert_eq!(written["idleTimeoutMinutes"], 7.5);
    assert_eq!(written["state"], "partially_running");
}

/// The names a model kept as unknown.
fn unknown_names(unknown: &pipe_api_types::UnknownFields) -> Vec<&str> {
    unknown.names().collect()
}

#[test]
fn mysql_pipe_with_settings_table_mappings_and_an_unknown_type() {
    let pipe: Pipe = read_lossless("pipe_mysql.json", same);
    let source = pipe.source.as_ref().unwrap();
    assert_eq!(source.kind(), Some(SourceKind::Mysql));
    let mysql = source.mysql.as_ref().unwrap();
    assert_eq!(mysql.kind.as_ref().unwrap().as_str(), "tidb");
    assert!(!mysql.kind.as_ref().unwrap().is_known());
    assert_eq!((mysql.port, mysql.server_id), (Some(3306), Some(4_294_967_295)));
    assert_eq!(mysql.authentication, Some(Authentication::IamRole));
    assert_eq!(mysql.skip_cert_verification, Some(true));
    assert_eq!(unknown_names(&mysql.unknown), ["binlogRetentionHours"]);
    let settings = mysql.settings.as_ref().unwrap();
    assert_eq!(settings.replication_mode, Some(ReplicationMode::Cdc));
    assert_eq!(settings.replication_mechanism, Some(ReplicationMechanism::FilePos));
    assert_eq!(settings.snapshot_num_rows_per_partition, Some(100_000));
    assert_eq!(unknown_names(&settings.unknown), ["heartbeatSeconds"]);
    let mapping = &mysql.table_mappings.as_ref().unwrap()[0];
    assert_eq!(mapping.partition_key.as_deref(), Some("id"));
    assert_eq!(mapping.table_engine, Some(TableEngineType::ReplacingMergeTree));
    assert_eq!(unknown_names(&mapping.unknown), ["rowsSynced"]);
    assert!(source.unknown.is_empty() && pipe.unknown.is_empty());
}

#[test]
fn mongodb_pipe_keeps_its_uri_secret() {
    let pipe: Pipe = read_lossless("pipe_mongodb.json", same);
    let mongodb = pipe.source.as_ref().unwrap().mongodb.as_ref().unwrap();
    assert_eq!(mongodb.uri.as_ref().unwrap().expose_secret(), "mongodb+srv://cluster0.example.mongodb.net/mydb");
    assert!(!format!("{pipe:?}").contains("cluster0.example.mongodb.net/mydb"), "the uri is a secret");
    assert_eq!(mongodb.read_preference, Some(ReadPreference::Nearest));
    assert_eq!(unknown_names(&mongodb.unknown), ["changeStreamFullDocument"]);
    let settings = mongodb.settings.as_ref().unwrap();
    assert_eq!(settings.replication_mode, Some(ReplicationMode::CdcOnly));
    assert_eq!(settings.use_json_native_format, Some(true));
    assert_eq!(unknown_names(&settings.unknown), ["resumeTokenTtl"]);
    let mapping = &mongodb.table_mappings.as_ref().unwrap()[0];
    assert_eq!(mapping.source_collection.as_deref(), Some("users"));
    assert_eq!(unknown_names(&mapping.unknown), ["documentsSynced"]);
}

#[test]
fn bigquery_pipe_completed() {
    let pipe: Pipe = read_lossless("pipe_bigquery.json", same);
    assert_eq!(pipe.state, Some(PipeState::Completed));
    let bigquery = pipe.source.as_ref().unwrap().bigquery.as_ref().unwrap();
    assert_eq!(bigquery.snapshot_staging_path.as_deref(), Some("gs://my-bucket/staging/"));
    assert_eq!(unknown_names(&bigquery.unknown), ["projectId"]);
    let settings = bigquery.settings.as_ref().unwrap();
    assert_eq!(settings.replication_mode, Some(ReplicationMode::Snapshot));
    assert_eq!(settings.initial_load_parallelism, Some(4));
    assert_eq!(unknown_names(&settings.unknown), ["exportFormat"]);
    let mapping = &bigquery.table_mappings.as_ref().unwrap()[0];
    assert_eq!(mapping.source_dataset_name.as_deref(), Some("sales"));
    assert_eq!(mapping.sorting_keys.as_ref().unwrap(), &["order_id"]);
    assert_eq!(unknown_names(&mapping.unknown), ["rowsLoaded"]);
}

#[test]
fn pubsub_pipe_with_a_seek_timestamp() {
    let pipe: Pipe = read_lossless("pipe_pubsub.json", same);
    let pubsub = pipe.source.as_ref().unwrap().pubsub.as_ref().unwrap();
    assert_eq!(pubsub.format, Some(DataFormat::Protobuf));
    assert_eq!(pubsub.seek_type, Some(SeekType::Timestamp));
    assert_eq!(pubsub.seek_timestamp, Some(datetime!(2026-04-10 12:00:00 UTC)));
    assert_eq!((pubsub.ack_deadline, pubsub.enable_ordering), (Some(600), Some(true)));
    assert_eq!(pubsub.authentication, Some(Authentication::ServiceAccount));
    assert_eq!(unknown_names(&pubsub.unknown), ["subscription"]);
}
