//! Dates, times and quantities as the servers write them, and leniency towards their quirks.

use pipe_api_types::{
    CpuMillicores, CurrentScaling, Gigabytes, KafkaOffset, Key, KinesisSource, MemoryGb, Millicores, Pipe,
    PipesCdcScaling, Quantity, Scaling, Service, Unit,
};
use serde_json::json;
use time::macros::datetime;

const ID: &str = "3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4";

#[test]
fn expire_at_absent_null_or_empty_all_mean_never() {
    for expire_at in [None, Some(json!(null)), Some(json!(""))] {
        let mut key = json!({ "id": ID });
        if let Some(value) = expire_at.clone() {
            key["expireAt"] = value;
        }
        let key: Key = serde_json::from_value(key).unwrap();
        assert!(key.never_expires(), "{expire_at:?}");
    }
    let key: Key = serde_json::from_value(json!({ "id": ID, "expireAt": "2027-01-01T00:00:00+01:00" })).unwrap();
    assert_eq!(key.expire_at, Some(datetime!(2026-12-31 23:00:00 UTC)));
    assert!(!key.never_expires());
}

#[test]
fn kafka_offset_timestamps_have_no_zone_with_or_without_seconds() {
    let minutes: KafkaOffset = serde_json::from_value(json!({ "timestamp": "2021-01-01T00:00" })).unwrap();
    assert_eq!(minutes.timestamp, Some(datetime!(2021-01-01 00:00)));
    assert_eq!(serde_json::to_value(&minutes).unwrap(), json!({ "timestamp": "2021-01-01T00:00" }));
    let seconds: KafkaOffset = serde_json::from_value(json!({ "timestamp": "2021-06-30T23:59:58" })).unwrap();
    assert_eq!(seconds.timestamp, Some(datetime!(2021-06-30 23:59:58)));
    assert_eq!(serde_json::to_value(&seconds).unwrap(), json!({ "timestamp": "2021-06-30T23:59:58" }));
}

#[test]
fn the_kinesis_timestamp_is_an_integer() {
    let kinesis: KinesisSource = serde_json::from_value(json!({ "timestamp": 1_704_067_200 })).unwrap();
    assert_eq!(kinesis.timestamp, Some(datetime!(2024-01-01 00:00:00 UTC)));
    assert_eq!(serde_json::to_value(&kinesis).unwrap(), json!({ "timestamp": 1_704_067_200 }));
}

#[test]
fn quantities_read_numbers_and_strings_alike() {
    let cases = [
        (json!(500), 500.0, json!(1), 1.0),
        (json!("500m"), 500.0, json!("2Gi"), 2.0),
        (json!("2"), 2000.0, json!("512Mi"), 0.5),
        (json!(250.5), 250.5, json!(1.5), 1.5),
        // A plain numeric string is a Kubernetes quantity of cores for CPU, but gigabytes for
        // memory, as the number is (issue 17): never half a byte.
        (json!("0.25"), 250.0, json!("0.5"), 0.5),
        (json!(125), 125.0, json!("2"), 2.0),
    ];
    for (cpu, cpu_value, memory, memory_value) in cases {
        let scaling: Scaling =
            serde_json::from_value(json!({ "replicaCpuMillicores": cpu, "replicaMemoryGb": memory })).unwrap();
        assert_eq!(scaling.replica_cpu_millicores.as_ref().unwrap().value(), cpu_value, "{cpu}");
        assert_eq!(scaling.replica_memory_gb.as_ref().unwrap().value(), memory_value, "{memory}");
        // Written back as received.
        let written = serde_json::to_value(&scaling).unwrap();
        assert_eq!(written, json!({ "replicaCpuMillicores": cpu, "replicaMemoryGb": memory }));
    }
}

#[test]
fn a_value_that_does_not_fit_its_type_reads_as_absent_and_is_written_back_as_it_came() {
    let received = json!({
        "id": ID,
        "createdAt": "yesterday",
        "updatedAt": "2024-05-01T10:00Z",
        "scaling": { "replicaCpuMillicores": "lots", "replicaMemoryGb": true, "replicas": 2 },
        "source": {
            "kafka": { "offset": { "timestamp": "2021-01-01T00:00Z" } },
            "postgres": { "port": 70000, "settings": { "pullBatchSize": -5, "syncIntervalSeconds": 10.5 } },
            "kinesis": { "timestamp": 1.5 }
        }
    });
    let pipe: Pipe = serde_json::from_value(received.clone()).unwrap();
    assert_eq!((pipe.created_at, pipe.updated_at), (None, None));
    let scaling = pipe.scaling.as_ref().unwrap();
    assert_eq!((&scaling.replica_cpu_millicores, &scaling.replica_memory_gb), (&None, &None));
    assert_eq!(scaling.replicas, Some(2));
    let source = pipe.source.as_ref().unwrap();
    assert_eq!(source.kafka.as_ref().unwrap().offset.as_ref().unwrap().timestamp, None);
    let postgres = source.postgres.as_ref().unwrap();
    assert_eq!(postgres.port, None);
    let settings = postgres.settings.as_ref().unwrap();
    assert_eq!((settings.pull_batch_size, settings.sync_interval_seconds), (None, None));
    assert_eq!(source.kinesis.as_ref().unwrap().timestamp, None);
    // Nothing is lost: every value is written back as it came.
    assert_eq!(serde_json::to_value(&pipe).unwrap(), received);
}

#[test]
fn a_field_given_a_value_after_a_misfit_read_writes_only_that_value() {
    let mut pipe: Pipe = serde_json::from_value(json!({ "id": ID, "createdAt": "yesterday" })).unwrap();
    pipe.created_at = Some(datetime!(2026-01-01 00:00 UTC));
    let written = serde_json::to_string(&pipe).unwrap();
    assert_eq!(written.matches("createdAt").count(), 1, "{written}");
    assert!(written.contains(r#""createdAt":"2026-01-01T00:00:00Z""#), "{written}");
}

#[test]
fn whole_numbers_read_from_any_json_number_form() {
    use pipe_api_types::PostgresSource;
    for port in [json!(5432), json!(5432.0), json!(5.432e3)] {
        let postgres: PostgresSource = serde_json::from_value(json!({ "port": port })).unwrap();
        assert_eq!(postgres.port, Some(5432), "{port}");
    }
    let service: Service = serde_json::from_value(json!({
        "id": ID, "numReplicas": 3.0, "idleTimeoutMinutes": 7.5,
        "endpoints": [{ "protocol": "https", "host": "h", "port": 8443.0 }]
    }))
    .unwrap();
    assert_eq!(service.num_replicas, Some(3.0));
    assert_eq!(service.idle_timeout_minutes, Some(7.5));
    assert_eq!(service.endpoints.unwrap()[0].port, Some(8443));
}

/// Reads `sent` as one quantity field of a model and gives the field and whether the model
/// writes back exactly what it read.
type Reader<U> = fn(&serde_json::Value) -> (Option<Quantity<U>>, bool);

/// Reads `{ name: sent }` (plus the object's id, if it has one) as a `T`.
fn read_in<T: serde::de::DeserializeOwned + serde::Serialize>(
    mut object: serde_json::Value,
    name: &str,
    sent: &serde_json::Value,
) -> (T, bool) {
    object[name] = sent.clone();
    let model: T = serde_json::from_value(object.clone()).unwrap();
    let lossless = serde_json::to_value(&model).unwrap() == object;
    (model, lossless)
}

/// Every field in millicores.
fn millicore_fields() -> [(&'static str, Reader<Millicores>); 2] {
    [
        ("Scaling.replicaCpuMillicores", |sent| {
            let (m, lossless) = read_in::<Scaling>(json!({}), "replicaCpuMillicores", sent);
            (m.replica_cpu_millicores, lossless)
        }),
        ("PipesCdcScaling.replicaCpuMillicores", |sent| {
            let (m, lossless) = read_in::<PipesCdcScaling>(json!({}), "replicaCpuMillicores", sent);
            (m.replica_cpu_millicores, lossless)
        }),
    ]
}

/// A sample of the fields in gigabytes: pipes, database pipes, services and their current
/// scaling all read memory the same way.
fn gigabyte_fields() -> [(&'static str, Reader<Gigabytes>); 5] {
    [
        ("Scaling.replicaMemoryGb", |sent| {
            let (m, lossless) = read_in::<Scaling>(json!({}), "replicaMemoryGb", sent);
            (m.replica_memory_gb, lossless)
        }),
        ("PipesCdcScaling.replicaMemoryGb", |sent| {
            let (m, lossless) = read_in::<PipesCdcScaling>(json!({}), "replicaMemoryGb", sent);
            (m.replica_memory_gb, lossless)
        }),
        ("Service.replicaMemoryGb", |sent| {
            let (m, lossless) = read_in::<Service>(json!({ "id": ID }), "replicaMemoryGb", sent);
            (m.replica_memory_gb, lossless)
        }),
        ("Service.minTotalMemoryGb", |sent| {
            let (m, lossless) = read_in::<Service>(json!({ "id": ID }), "minTotalMemoryGb", sent);
            (m.min_total_memory_gb, lossless)
        }),
        ("CurrentScaling.effectiveMaxReplicaMemoryGb", |sent| {
            let (m, lossless) = read_in::<CurrentScaling>(json!({}), "effectiveMaxReplicaMemoryGb", sent);
            (m.effective_max_replica_memory_gb, lossless)
        }),
    ]
}

/// Checks each `(sent, value)` case on each field: the field reads `value` in its unit, keeps
/// the text when a string was sent, and is written back as sent.
fn check_readings<U: Unit>(fields: &[(&str, Reader<U>)], cases: &[(serde_json::Value, f64)]) {
    for (field, read) in fields {
        for (sent, value) in cases {
            let (quantity, lossless) = read(sent);
            let quantity = quantity.unwrap_or_else(|| panic!("{field} = {sent}: not read"));
            assert_eq!(quantity.value(), *value, "{field} = {sent}");
            assert_eq!(quantity.original_text(), sent.as_str(), "{field} = {sent}: the text is kept");
            assert!(lossless, "{field} = {sent}: written back as sent");
        }
    }
}

#[test]
fn each_reading_rule_holds_for_millicores() {
    check_readings(
        &millicore_fields(),
        &[
            // A plain JSON number is the field's unit.
            (json!(500), 500.0),
            (json!(250.5), 250.5),
            (json!(125), 125.0),
            // A suffixed Kubernetes quantity is of cores.
            (json!("500m"), 500.0),
            (json!("1k"), 1_000_000.0),
            (json!("250000u"), 250.0),
            // A plain CPU string is cores, as Kubernetes writes it.
            (json!("2"), 2000.0),
            (json!("0.25"), 250.0),
            (json!("1e0"), 1000.0),
        ],
    );
}

#[test]
fn each_reading_rule_holds_for_gigabytes() {
    check_readings(
        &gigabyte_fields(),
        &[
            // A plain JSON number is the field's unit.
            (json!(16), 16.0),
            (json!(0.5), 0.5),
            (json!(0.125), 0.125),
            // A suffixed Kubernetes quantity is of bytes: binary and decimal suffixes.
            (json!("2Gi"), 2.0),
            (json!("512Mi"), 0.5),
            (json!("1Ti"), 1024.0),
            (json!("1073741824k"), 1000.0),
            // A plain memory string is gigabytes, as the number would be: never bytes.
            (json!("0.5"), 0.5),
            (json!("2"), 2.0),
            (json!("1e3"), 1000.0),
        ],
    );
}

#[test]
fn a_quantity_that_is_no_amount_is_kept_in_either_unit() {
    let misfits =
        [json!("lots"), json!(""), json!("1.5.2"), json!("inf"), json!("Gi"), json!(true), json!([1]), json!({})];
    for sent in &misfits {
        for (field, read) in millicore_fields() {
            assert_eq!(read(sent), (None, true), "{field} = {sent}: absent, and kept as sent");
        }
        for (field, read) in gigabyte_fields() {
            assert_eq!(read(sent), (None, true), "{field} = {sent}: absent, and kept as sent");
        }
    }
}

#[test]
fn constructors_say_the_unit_and_write_plain_numbers() {
    let cpu = Quantity::millicores(500);
    let memory = Quantity::gigabytes(0.5);
    assert_eq!((cpu.value(), cpu.original_text()), (500.0, None));
    assert_eq!((memory.value(), memory.original_text()), (0.5, None));
    assert_eq!(CpuMillicores::from(1000), Quantity::millicores(1000));
    assert_eq!(MemoryGb::from(4.0), Quantity::gigabytes(4.0));
    let scaling = Scaling::default().replica_cpu_millicores(cpu.clone()).replica_memory_gb(memory.clone());
    assert_eq!(serde_json::to_value(&scaling).unwrap(), json!({ "replicaCpuMillicores": 500, "replicaMemoryGb": 0.5 }));
    // The setters take a plain number in the field's unit.
    let cdc = PipesCdcScaling::default().replica_cpu_millicores(2000).replica_memory_gb(8.0);
    assert_eq!(serde_json::to_value(&cdc).unwrap(), json!({ "replicaCpuMillicores": 2000, "replicaMemoryGb": 8 }));
    // Debug names the unit; Display is the text sent, or the number.
    assert_eq!(format!("{cpu:?}"), r#"Quantity { value: 500.0, unit: "Millicores" }"#);
    let read: Scaling = serde_json::from_value(json!({ "replicaMemoryGb": "2Gi" })).unwrap();
    let read = read.replica_memory_gb.unwrap();
    assert_eq!(format!("{read:?}"), r#"Quantity { value: 2.0, unit: "Gigabytes", text: "2Gi" }"#);
    assert_eq!((read.to_string(), memory.to_string()), ("2Gi".to_owned(), "0.5".to_owned()));
}
