//! Every model through JSON and back, on proptest-generated values: JSON shaped like the
//! model (known fields present or not, enum values known or not, unknown fields at every
//! level) reads, writes back as the same JSON, and reads again as the same model; the direct
//! reader (`pipe_api_types::read`) takes every such text and reads the same model, and the
//! direct writer (`pipe_api_types::write`) writes the same bytes as serde_json.

use pipe_api_types::*;
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Map, Value, json};

/// What a field holds, to generate it.
#[derive(Clone)]
enum Kind {
    Text,
    Uuid,
    Bool,
    Integer(u64),
    Decimal,
    Time,
    Zoneless,
    UnixSeconds,
    Quantity(&'static [&'static str]),
    Enum(Vec<&'static str>),
    List(Box<Kind>),
    Object(Vec<(&'static str, Kind)>),
}

fn known<T: AsRef<str> + 'static>(values: &'static [T]) -> Kind {
    Kind::Enum(values.iter().map(|v| v.as_ref()).collect())
}

fn object(fields: &[(&'static str, Kind)]) -> Kind {
    Kind::Object(fields.to_vec())
}

fn list(kind: Kind) -> Kind {
    Kind::List(Box::new(kind))
}

use Kind::{Bool, Decimal, Text, Time, Uuid};

fn credentials() -> Kind {
    object(&[
        ("username", Text),
        ("password", Text),
        ("accessKeyId", Text),
        ("secretKey", Text),
        ("connectionString", Text),
        ("certificate", Text),
        ("privateKey", Text),
    ])
}

fn ip_access() -> Kind {
    object(&[("source", Text), ("description", Text)])
}

fn key() -> Kind {
    object(&[
        ("id", Uuid),
        ("name", Text),
        ("state", known(KeyState::KNOWN)),
        ("roles", list(known(KeyRole::KNOWN))),
        ("keySuffix", Text),
        ("createdAt", Time),
        ("expireAt", Time),
        ("usedAt", Time),
        ("ipAccessList", list(ip_access())),
    ])
}

fn source() -> Kind {
    let kafka = object(&[
        ("type", known(KafkaType::KNOWN)),
        ("format", known(DataFormat::KNOWN)),
        ("brokers", Text),
        ("topics", Text),
        ("consumerGroup", Text),
        ("authentication", known(Authentication::KNOWN)),
        ("iamRole", Text),
        ("offset", object(&[("strategy", known(OffsetStrategy::KNOWN)), ("timestamp", Kind::Zoneless)])),
        (
            "schemaRegistry",
            object(&[
                ("url", Text),
                ("authentication", known(Authentication::KNOWN)),
                ("caCertificate", Text),
                ("credentials", credentials()),
            ]),
        ),
        ("caCertificate", Text),
        ("reversePrivateEndpointIds", list(Uuid)),
        ("exactlyOnce", Bool),
        ("credentials", credentials()),
    ]);
    let storage = object(&[
        ("type", known(ObjectStorageType::KNOWN)),
        ("format", known(DataFormat::KNOWN)),
        ("url", Text),
        ("delimiter", Text),
        ("compression", known(Compression::KNOWN)),
        ("isContinuous", Bool),
        ("queueUrl", Text),
        ("authentication", known(Authentication::KNOWN)),
        ("iamRole", Text),
        ("connectionString", Text),
        ("path", Text),
        ("azureContainerName", Text),
        ("accessKey", credentials()),
        ("serviceAccountKey", Text),
    ]);
    let kinesis = object(&[
        ("format", known(DataFormat::KNOWN)),
        ("streamName", Text),
        ("region", Text),
        ("useEnhancedFanOut", Bool),
        ("iteratorType", known(IteratorType::KNOWN)),
        ("timestamp", Kind::UnixSeconds),
        ("authentication", known(Authentication::KNOWN)),
        ("iamRole", Text),
        ("accessKey", credentials()),
    ]);
    let postgres = object(&[
        ("type", known(PostgresType::KNOWN)),
        ("host", Text),
        ("port", Kind::Integer(65_535)),
        ("database", Text),
        ("authentication", known(Authentication::KNOWN)),
        ("iamRole", Text),
        ("caCertificate", Text),
        ("credentials", credentials()),
        (
            "settings",
            object(&[
                ("syncIntervalSeconds", Kind::Integer(u64::from(u32::MAX))),
                ("pullBatchSize", Kind::Integer(u64::from(u32::MAX))),
                ("publicationName", Text),
                ("replicationMode", known(ReplicationMode::KNOWN)),
                ("replicationSlotName", Text),
                ("allowNullableColumns", Bool),
                ("initialLoadParallelism", Kind::Integer(64)),
                ("snapshotNumRowsPerPartition", Kind::Integer(u64::MAX)),
                ("snapshotNumberOfParallelTables", Kind::Integer(64)),
                ("enableFailoverSlots", Bool),
            ]),
        ),
        (
            "tableMappings",
            list(object(&[
                ("sourceSchemaName", Text),
                ("sourceTable", Text),
                ("targetTable", Text),
                ("excludedColumns", list(Text)),
                ("useCustomSortingKey", Bool),
                ("sortingKeys", list(Text)),
                ("tableEngine", known(TableEngineType::KNOWN)),
            ])),
        ),
    ]);
    object(&[("kafka", kafka), ("objectStorage", storage), ("kinesis", kinesis), ("postgres", postgres)])
}

fn destination() -> Kind {
    object(&[
        ("database", Text),
        ("table", Text),
        ("managedTable", Bool),
        (
            "tableDefinition",
            object(&[
                (
                    "engine",
                    object(&[
                        ("type", known(TableEngineType::KNOWN)),
                        ("versionColumnId", Text),
                        ("columnIds", list(Text)),
                    ]),
                ),
                ("sortingKey", list(Text)),
                ("partitionBy", Text),
                ("primaryKey", Text),
            ]),
        ),
        ("columns", list(object(&[("name", Text), ("type", Text)]))),
    ])
}

fn pipe_body_fields() -> Vec<(&'static str, Kind)> {
    let settings = [
        "streaming_max_insert_wait_ms",
        "object_storage_concurrency",
        "object_storage_polling_interval_ms",
        "object_storage_max_insert_bytes",
        "object_storage_max_file_count",
        "engine_max_threads",
        "engine_max_insert_threads",
        "engine_min_insert_block_size_bytes",
        "engine_max_download_threads",
        "engine_parallel_distributed_insert_select",
    ];
    let mut settings: Vec<(&'static str, Kind)> =
        settings.iter().map(|name| (*name, Kind::Integer(u64::MAX))).collect();
    settings.push(("object_storage_use_cluster_function", Bool));
    settings.push(("engine_parallel_view_processing", Bool));
    vec![
        ("name", Text),
        (
            "scaling",
            object(&[
                ("replicas", Kind::Integer(u64::from(u32::MAX))),
                ("concurrency", Kind::Integer(u64::from(u32::MAX))),
                ("replicaCpuMillicores", Kind::Quantity(&["500m", "1", "2.5", "250m"])),
                ("replicaMemoryGb", Kind::Quantity(&["2Gi", "512Mi", "1Ti"])),
            ]),
        ),
        ("source", source()),
        ("destination", destination()),
        ("fieldMappings", list(object(&[("sourceField", Text), ("destinationField", Text)]))),
        ("settings", Kind::Object(settings)),
    ]
}

fn pipe() -> Kind {
    let mut fields = vec![("id", Uuid), ("serviceId", Uuid), ("state", known(PipeState::KNOWN))];
    fields.extend(pipe_body_fields());
    fields.extend([("createdAt", Time), ("updatedAt", Time)]);
    Kind::Object(fields)
}

fn service() -> Kind {
    object(&[
        ("id", Uuid),
        ("name", Text),
        ("engineVersion", Text),
        (
            "endpoints",
            list(object(&[
                ("protocol", known(EndpointProtocol::KNOWN)),
                ("host", Text),
                ("port", Kind::Integer(65_535)),
                ("username", Text),
            ])),
        ),
        ("minTotalMemoryGb", memory()),
        ("maxTotalMemoryGb", memory()),
        ("minReplicaMemoryGb", memory()),
        ("maxReplicaMemoryGb", memory()),
        ("numReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("idleScaling", Bool),
        ("idleTimeoutMinutes", Kind::Integer(u64::from(u32::MAX))),
        ("ipAccessList", list(ip_access())),
        ("createdAt", Time),
        ("encryptionKey", Text),
        ("iamRole", Text),
        ("privateEndpointIds", list(Text)),
        ("availablePrivateEndpointIds", list(Text)),
        ("dataWarehouseId", Text),
        ("isPrimary", Bool),
        ("isReadonly", Bool),
        ("byocId", Text),
        ("hasTransparentDataEncryption", Bool),
        ("transparentDataEncryptionKeyId", Text),
        ("encryptionRoleId", Text),
        ("state", known(ServiceState::KNOWN)),
        ("provider", known(CloudProvider::KNOWN)),
        ("region", known(ServiceRegion::KNOWN)),
        ("tier", known(ServiceTier::KNOWN)),
        ("minReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("maxReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("autoscalingMode", known(AutoscalingMode::KNOWN)),
        ("replicaMemoryGb", memory()),
        ("releaseChannel", known(ReleaseChannel::KNOWN)),
        ("profile", known(InstanceProfile::KNOWN)),
        ("complianceType", known(ComplianceType::KNOWN)),
        ("enableCoreDumps", Bool),
        ("tags", list(object(&[("key", Text), ("value", Text)]))),
        ("scalingSchedule", scaling_schedule()),
        ("currentScaling", current_scaling()),
    ])
}

/// A memory size in gigabytes: a number, a plain numeric string or a Kubernetes quantity.
fn memory() -> Kind {
    Kind::Quantity(&["16Gi", "512Mi", "0.5", "8"])
}

/// The scaling fields a schedule entry and the base config share.
fn schedule_scaling() -> Vec<(&'static str, Kind)> {
    vec![
        ("autoscalingMode", known(AutoscalingMode::KNOWN)),
        ("minReplicaMemoryGb", memory()),
        ("maxReplicaMemoryGb", memory()),
        ("minReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("maxReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("idleScaling", Bool),
        ("idleTimeoutMinutes", Kind::Integer(u64::from(u32::MAX))),
    ]
}

fn scaling_schedule() -> Kind {
    let mut entry = vec![
        ("id", Uuid),
        ("name", Text),
        ("weekdays", list(Kind::Integer(6))),
        ("startHourUtc", Kind::Integer(23)),
        ("endHourUtc", Kind::Integer(24)),
        ("isActiveNow", Bool),
    ];
    entry.extend(schedule_scaling());
    object(&[
        ("entries", list(Kind::Object(entry))),
        ("baseConfig", Kind::Object(schedule_scaling())),
        ("activeEntryId", Uuid),
    ])
}

fn current_scaling() -> Kind {
    object(&[
        ("effectiveAutoscalingMode", known(AutoscalingMode::KNOWN)),
        ("effectiveMinReplicaMemoryGb", memory()),
        ("effectiveMaxReplicaMemoryGb", memory()),
        ("effectiveMinReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("effectiveMaxReplicas", Kind::Integer(u64::from(u32::MAX))),
        ("effectiveIdleScaling", Bool),
        ("effectiveIdleTimeoutMinutes", Kind::Integer(u64::from(u32::MAX))),
        ("activeEntryId", Uuid),
    ])
}

fn reverse_private_endpoint() -> Kind {
    object(&[
        ("id", Uuid),
        ("serviceId", Uuid),
        ("description", Text),
        ("type", known(ReversePrivateEndpointType::KNOWN)),
        ("vpcEndpointServiceName", Text),
        ("mskClusterArn", Text),
        ("mskAuthentication", known(MskAuthentication::KNOWN)),
        ("endpointId", Text),
        ("dnsNames", list(Text)),
        ("privateDnsNames", list(Text)),
        ("status", known(ReversePrivateEndpointStatus::KNOWN)),
        ("vpcResourceConfigurationId", Text),
        ("vpcResourceShareArn", Text),
        ("gcpServiceAttachment", Text),
        ("customPrivateDnsMappings", list(object(&[("privateDnsName", Text)]))),
    ])
}

fn alert() -> Kind {
    let channel = object(&[("type", known(ChannelType::KNOWN)), ("webhookId", Text)]);
    object(&[
        ("id", Text),
        ("name", Text),
        ("message", Text),
        ("threshold", Decimal),
        ("thresholdMax", Decimal),
        ("interval", known(AlertInterval::KNOWN)),
        ("thresholdType", known(ThresholdType::KNOWN)),
        ("source", known(AlertSource::KNOWN)),
        ("state", known(AlertState::KNOWN)),
        ("channel", channel.clone()),
        ("channels", list(channel)),
        ("team", Text),
        ("teamId", Text),
        ("tileId", Text),
        ("dashboard", Text),
        ("dashboardId", Text),
        ("savedSearch", Text),
        ("savedSearchId", Text),
        ("groupBy", Text),
        ("silenced", object(&[("by", Text), ("at", Time), ("until", Time)])),
        ("note", Text),
        ("scheduleOffsetMinutes", Kind::Integer(u64::from(u32::MAX))),
        ("scheduleStartAt", Time),
        ("numConsecutiveWindows", Kind::Integer(u64::from(u32::MAX))),
        (
            "executionErrors",
            list(object(&[("timestamp", Time), ("type", known(AlertErrorType::KNOWN)), ("message", Text)])),
        ),
        ("createdAt", Time),
        ("updatedAt", Time),
    ])
}

fn create_key_request() -> Kind {
    object(&[
        ("name", Text),
        ("expireAt", Time),
        ("state", known(KeyState::KNOWN)),
        ("hashData", object(&[("keyIdHash", Text), ("keyIdSuffix", Text), ("keySecretHash", Text)])),
        ("roles", list(known(KeyRole::KNOWN))),
        ("ipAccessList", list(ip_access())),
    ])
}

fn create_key_response() -> Kind {
    object(&[("key", key()), ("keyId", Text), ("keySecret", Text)])
}

/// A value of `kind`: required fields (`id`) always, others half the time, plus unknown
/// fields and, for enums, unknown values.
fn generate(kind: &Kind, depth: u32) -> BoxedStrategy<Value> {
    match kind {
        Kind::Text => "[ -~]{0,12}|\\PC{0,6}".prop_map(Value::from).boxed(),
        Kind::Uuid => any::<u128>().prop_map(|n| Value::from(uuid::Uuid::from_u128(n).to_string())).boxed(),
        Kind::Bool => any::<bool>().prop_map(Value::from).boxed(),
        Kind::Integer(max) => (0..=*max).prop_map(Value::from).boxed(),
        Kind::Decimal => {
            prop_oneof![(0u32..100_000).prop_map(Value::from), (-1.0e6f64..1.0e6).prop_map(|f| json!(f)),].boxed()
        }
        Kind::Time => (0i64..4_102_444_800, prop::bool::ANY)
            .prop_map(|(seconds, millis)| {
                let time = time::OffsetDateTime::from_unix_timestamp(seconds).unwrap();
                let time = if millis { time + time::Duration::milliseconds(250) } else { time };
                Value::from(time.format(&time::format_description::well_known::Rfc3339).unwrap())
            })
            .boxed(),
        Kind::Zoneless => (0i64..4_102_444_800, prop::bool::ANY)
            .prop_map(|(seconds, with_seconds)| {
                let time = time::OffsetDateTime::from_unix_timestamp(seconds).unwrap();
                let time = if with_seconds { time } else { time.replace_second(0).unwrap() };
                // As the servers write it: seconds only when they are not zero.
                let (date, clock) = (time.date(), time.time());
                let mut text = format!("{date}T{:02}:{:02}", clock.hour(), clock.minute());
                if clock.second() != 0 {
                    text.push_str(&format!(":{:02}", clock.second()));
                }
                Value::from(text)
            })
            .boxed(),
        Kind::UnixSeconds => (0i64..4_102_444_800).prop_map(Value::from).boxed(),
        Kind::Quantity(texts) => prop_oneof![
            (0u32..1_000_000).prop_map(Value::from),
            prop::sample::select(texts.to_vec()).prop_map(Value::from),
        ]
        .boxed(),
        Kind::Enum(values) => prop_oneof![
            3 => prop::sample::select(values.clone()).prop_map(Value::from),
            1 => "[A-Za-z_]{1,12}".prop_map(Value::from),
        ]
        .boxed(),
        Kind::List(element) if depth < 4 => {
            prop::collection::vec(generate(element, depth + 1), 0..3).prop_map(Value::Array).boxed()
        }
        Kind::List(_) => Just(Value::Array(Vec::new())).boxed(),
        Kind::Object(fields) => {
            let known: Vec<BoxedStrategy<Option<(String, Value)>>> = fields
                .iter()
                .map(|(name, kind)| {
                    let name = (*name).to_owned();
                    let value = generate(kind, depth + 1);
                    if name == "id" {
                        value.prop_map(move |v| Some((name.clone(), v))).boxed()
                    } else {
                        prop::option::weighted(0.5, value.prop_map(move |v| (name.clone(), v))).boxed()
                    }
                })
                .collect();
            let unknown = prop::collection::vec(("x[A-Za-z]{1,8}", unknown_value()), 0..2);
            (known, unknown)
                .prop_map(|(known, unknown)| {
                    let mut map = Map::new();
                    for (name, value) in known.into_iter().flatten() {
                        map.insert(name, value);
                    }
                    for (name, value) in unknown {
                        map.insert(name, value);
                    }
                    Value::Object(map)
                })
                .boxed()
        }
    }
}

/// Anything a newer server might add.
fn unknown_value() -> impl Strategy<Value = Value> {
    let leaf = prop_oneof![
        Just(Value::Null),
        any::<bool>().prop_map(Value::from),
        any::<i64>().prop_map(Value::from),
        "\\PC{0,8}".prop_map(Value::from),
    ];
    leaf.prop_recursive(2, 8, 3, |inner| {
        prop_oneof![
            prop::collection::vec(inner.clone(), 0..3).prop_map(Value::Array),
            prop::collection::btree_map("[a-z]{1,5}", inner, 0..3).prop_map(|m| Value::Object(m.into_iter().collect())),
        ]
    })
}

/// Reads `json` as `T`, writes it back, and checks both directions, from a tree and from text.
fn round_trip<T: DeserializeOwned + Serialize + PartialEq + std::fmt::Debug>(
    json: &Value,
) -> Result<(), TestCaseError> {
    let model: T = serde_json::from_value(json.clone()).map_err(|e| TestCaseError::fail(format!("{e}: {json}")))?;
    let written = serde_json::to_value(&model).unwrap();
    // Numbers compare by value: a whole `0.0` is written as the servers write it, `0`.
    prop_assert_eq!(by_value(&written), by_value(json));
    let again: T = serde_json::from_value(written).unwrap();
    prop_assert_eq!(again, model);
    // Through text as well (the path responses take).
    let text = serde_json::to_string(json).unwrap();
    let from_text: T = serde_json::from_str(&text).unwrap();
    prop_assert_eq!(by_value(&serde_json::to_value(&from_text).unwrap()), by_value(json));
    Ok(())
}

/// The same JSON with every number as a float, so `0` and `0.0` compare equal.
fn by_value(value: &Value) -> Value {
    match value {
        Value::Number(n) => json!(n.as_f64()),
        Value::Array(items) => Value::Array(items.iter().map(by_value).collect()),
        Value::Object(map) => Value::Object(map.iter().map(|(k, v)| (k.clone(), by_value(v))).collect()),
        other => other.clone(),
    }
}

macro_rules! round_trips {
    ($($test:ident: $model:ty = $kind:expr;)*) => {
        proptest! {
            #![proptest_config(ProptestConfig { cases: 300, failure_persistence: None, ..ProptestConfig::default() })]
            $(
                #[test]
                fn $test(json in generate(&$kind, 0)) {
                    round_trip::<$model>(&json)?;
                }
            )*
        }
    };
}

round_trips! {
    pipe_round_trips: Pipe = pipe();
    create_pipe_request_round_trips: CreatePipeRequest = Kind::Object(pipe_body_fields());
    pipe_source_round_trips: PipeSource = source();
    destination_round_trips: Destination = destination();
    credentials_round_trip: Credentials = credentials();
    service_round_trips: Service = service();
    key_round_trips: Key = key();
    create_key_request_round_trips: CreateKeyRequest = create_key_request();
    create_key_response_round_trips: CreateKeyResponse = create_key_response();
    reverse_private_endpoint_round_trips: ReversePrivateEndpoint = reverse_private_endpoint();
    alert_round_trips: Alert = alert();
}

proptest! {
    /// Any text reads as an enum value, known or not, and writes back unchanged.
    #[test]
    fn every_enum_keeps_any_text(text in "\\PC{0,24}") {
        fn check<T: DeserializeOwned + Serialize + AsRef<str>>(text: &str) -> Result<(), TestCaseError> {
            let value: T = serde_json::from_value(Value::from(text)).unwrap();
            prop_assert_eq!(value.as_ref(), text);
            prop_assert_eq!(serde_json::to_value(&value).unwrap(), Value::from(text));
            Ok(())
        }
        check::<PipeState>(&text)?;
        check::<KeyRole>(&text)?;
        check::<KeyState>(&text)?;
        check::<AlertState>(&text)?;
        check::<ThresholdType>(&text)?;
        check::<AlertInterval>(&text)?;
        check::<ChannelType>(&text)?;
        check::<KafkaType>(&text)?;
        check::<DataFormat>(&text)?;
        check::<Authentication>(&text)?;
        check::<ReversePrivateEndpointStatus>(&text)?;
        check::<ReversePrivateEndpointType>(&text)?;
        check::<EndpointProtocol>(&text)?;
        check::<ReplicationMode>(&text)?;
    }
}
