//! The rules of the pipe tuning requests, each at its edges, each from the management OpenAPI
//! (`PipeScalingPatchRequest`, `PipeSettingsPutRequest`, `PipeSchemaDiscoveryRequest`,
//! `PipesCdcScalingPatchRequest`).

use crate::types::common;

use common::violations;

use pipe_api_types::{
    Authentication, CreatePipeRequest, DataFormat, Destination, IteratorType, KafkaSource, KafkaType, KinesisSource,
    ObjectStorageSource, PipeSchemaDiscoveryRequest, PipeSettings, PipeSource, PipesCdcScaling, PostgresSource, Rule,
    UpdatePipeScalingRequest,
};

fn one(path: &str, rule: Rule) -> Vec<(String, Rule)> {
    vec![(path.to_owned(), rule)]
}

/// `PipeScalingPatchRequest`: the bounds of `PipeScaling` (the create's rule, shared) and the
/// patch's own `concurrency` 0 to 34. An empty patch is valid: every field is optional.
#[test]
fn scaling_patch_bounds() {
    assert_eq!(violations(&UpdatePipeScalingRequest::default()), []);
    let replicas = Rule::Range { min: 1, max: 40 };
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replicas(0u32)), one("replicas", replicas.clone()));
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replicas(1u32)), []);
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replicas(40u32)), []);
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replicas(41u32)), one("replicas", replicas));

    let cpu = Rule::Range { min: 125, max: 2000 };
    assert_eq!(
        violations(&UpdatePipeScalingRequest::default().replica_cpu_millicores(124u32)),
        one("replicaCpuMillicores", cpu.clone())
    );
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replica_cpu_millicores(125u32)), []);
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replica_cpu_millicores(2000u32)), []);
    assert_eq!(
        violations(&UpdatePipeScalingRequest::default().replica_cpu_millicores(2001u32)),
        one("replicaCpuMillicores", cpu)
    );

    let memory = Rule::DecimalRange { min: "0.5", max: "8" };
    assert_eq!(
        violations(&UpdatePipeScalingRequest::default().replica_memory_gb(0.49)),
        one("replicaMemoryGb", memory.clone())
    );
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replica_memory_gb(0.5)), []);
    assert_eq!(violations(&UpdatePipeScalingRequest::default().replica_memory_gb(8.0)), []);
    assert_eq!(
        violations(&UpdatePipeScalingRequest::default().replica_memory_gb(8.01)),
        one("replicaMemoryGb", memory)
    );

    assert_eq!(violations(&UpdatePipeScalingRequest::default().concurrency(0u32)), []);
    assert_eq!(violations(&UpdatePipeScalingRequest::default().concurrency(34u32)), []);
    assert_eq!(
        violations(&UpdatePipeScalingRequest::default().concurrency(35u32)),
        one("concurrency", Rule::Range { min: 0, max: 34 })
    );
}

/// Every integer range of `PipeSettings` / `PipeSettingsPutRequest`: the name, the smallest and
/// largest allowed values, as the contract states them.
const RANGES: [(&str, u64, u64); 10] = [
    ("streaming_max_insert_wait_ms", 500, 60_000),
    ("object_storage_concurrency", 1, 35),
    ("object_storage_polling_interval_ms", 100, 3_600_000),
    ("object_storage_max_insert_bytes", 10_485_760, 53_687_091_200),
    ("object_storage_max_file_count", 1, 10_000),
    ("engine_max_threads", 0, 64),
    ("engine_max_insert_threads", 0, 16),
    ("engine_min_insert_block_size_bytes", 0, 10_737_418_240),
    ("engine_max_download_threads", 0, 32),
    ("engine_parallel_distributed_insert_select", 0, 2),
];

/// Settings with one field set, by its wire name (through JSON, so this test does not lean on
/// the model's own names).
fn setting(name: &str, value: u64) -> PipeSettings {
    let settings: PipeSettings = serde_json::from_value(serde_json::json!({ name: value })).unwrap();
    assert!(settings.unknown.is_empty(), "{name} is a modelled setting");
    settings
}

#[test]
fn settings_ranges_at_their_edges() {
    for (name, min, max) in RANGES {
        let rule = Rule::Range { min: min as i64, max: max as i64 };
        assert_eq!(violations(&setting(name, min)), [], "{name} = {min}");
        assert_eq!(violations(&setting(name, max)), [], "{name} = {max}");
        assert_eq!(violations(&setting(name, max + 1)), one(name, rule.clone()), "{name} = {}", max + 1);
        if min > 0 {
            assert_eq!(violations(&setting(name, min - 1)), one(name, rule), "{name} = {}", min - 1);
        }
    }
    // A value beyond i64 is out of range, not wrapped into it.
    assert_eq!(
        violations(&setting("engine_max_threads", u64::MAX)),
        one("engine_max_threads", Rule::Range { min: 0, max: 64 })
    );
}

/// Settings this crate does not model are the server's to judge: any value goes.
#[test]
fn settings_unknown_fields_are_not_judged() {
    let mut settings = PipeSettings::default().object_storage_use_cluster_function(true);
    settings.unknown.insert("kafka_read_committed", &true).unwrap();
    settings.unknown.insert("future_limit", &u64::MAX).unwrap();
    assert_eq!(violations(&settings), []);
}

/// The create request's `settings` follow the same ranges, at `settings.<name>`.
#[test]
fn create_pipe_settings_are_checked_at_their_path() {
    let kafka = KafkaSource::new(KafkaType::Kafka, DataFormat::JsonEachRow, "b:9092", "t", Authentication::MutualTls);
    let destination = Destination::default()
        .table("t")
        .managed_table(true)
        .columns([pipe_api_types::DestinationColumn::new("id", "String")]);
    let mut request = CreatePipeRequest::new("p", kafka, destination);
    request.settings = Some(setting("streaming_max_insert_wait_ms", 499));
    let found = violations(&request);
    assert!(
        found.contains(&("settings.streaming_max_insert_wait_ms".to_owned(), Rule::Range { min: 500, max: 60_000 })),
        "{found:?}"
    );
}

/// `PipeSchemaDiscoverySource` has `kafka` and `kinesis` only; the kind follows the create's
/// rules (`PipePostKafkaSource`, `PipePostKinesisSource`).
#[test]
fn schema_discovery_reads_kafka_and_kinesis_only() {
    let kinesis =
        KinesisSource::new(DataFormat::JsonEachRow, "s", "eu-west-1", IteratorType::Latest, Authentication::IamRole)
            .iam_role("arn:aws:iam::123456789012:role/r");
    assert_eq!(violations(&PipeSchemaDiscoveryRequest::kinesis(kinesis)), []);

    assert_eq!(violations(&PipeSchemaDiscoveryRequest::default()), one("source", Rule::Required));

    let storage = ObjectStorageSource::new(
        pipe_api_types::ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://bucket.s3.amazonaws.com/*.json",
    );
    let found = violations(&PipeSchemaDiscoveryRequest::default().source(PipeSource::from(storage)));
    assert!(
        found.iter().any(|(path, rule)| path == "source.objectStorage" && matches!(rule, Rule::Unsupported(_))),
        "{found:?}"
    );

    let postgres = PostgresSource::default().host("db").port(5432u16).database("d");
    let found = violations(&PipeSchemaDiscoveryRequest::default().source(PipeSource::from(postgres)));
    assert!(
        found.iter().any(|(path, rule)| path == "source.postgres" && matches!(rule, Rule::Unsupported(_))),
        "{found:?}"
    );

    // A Kafka source missing its brokers is refused as a create's would be.
    let kafka = KafkaSource::default()
        .kind(KafkaType::Msk)
        .format(DataFormat::JsonEachRow)
        .topics("t")
        .authentication(Authentication::IamRole)
        .iam_role("arn:aws:iam::123456789012:role/r");
    assert_eq!(violations(&PipeSchemaDiscoveryRequest::kafka(kafka)), one("source.kafka.brokers", Rule::Required));
}

/// `PipesCdcScalingPatchRequest`: CPU 1000 to 32000 millicores in steps of 1000, memory 4 to 128
/// GiB in steps of 4, and "4× the CPU core count" when both are sent.
#[test]
fn cdc_scaling_bounds_steps_and_ratio() {
    let cpu = |m: u32| PipesCdcScaling::default().replica_cpu_millicores(m);
    let memory = |gb: f64| PipesCdcScaling::default().replica_memory_gb(gb);
    let cpu_range = Rule::Range { min: 1000, max: 32000 };
    let memory_range = Rule::Range { min: 4, max: 128 };

    assert_eq!(violations(&PipesCdcScaling::default()), []);
    assert_eq!(violations(&cpu(1000)), []);
    assert_eq!(violations(&cpu(32000)), []);
    assert_eq!(violations(&cpu(0)), one("replicaCpuMillicores", cpu_range.clone()));
    assert_eq!(violations(&cpu(33000)), one("replicaCpuMillicores", cpu_range));
    assert_eq!(violations(&cpu(1500)), one("replicaCpuMillicores", Rule::MultipleOf(1000)));

    assert_eq!(violations(&memory(4.0)), []);
    assert_eq!(violations(&memory(128.0)), []);
    assert_eq!(violations(&memory(0.0)), one("replicaMemoryGb", memory_range.clone()));
    assert_eq!(violations(&memory(132.0)), one("replicaMemoryGb", memory_range));
    assert_eq!(violations(&memory(6.0)), one("replicaMemoryGb", Rule::MultipleOf(4)));

    for cores in [1, 2, 8, 32] {
        assert_eq!(violations(&PipesCdcScaling::with_cores(cores)), [], "{cores} cores");
    }
    let lopsided = cpu(2000).replica_memory_gb(16.0);
    let found = violations(&lopsided);
    assert_eq!(found.len(), 1, "{found:?}");
    assert_eq!(found[0].0, "replicaMemoryGb");
    assert!(matches!(found[0].1, Rule::Consistent(_)));
}
