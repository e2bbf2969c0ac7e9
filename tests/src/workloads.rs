//! Deterministic response bodies for the benchmarks and the hostile-input tests: list-pipes
//! answers with a realistic mix of the four source kinds, list-alerts and get-service answers.
//! The same arguments always give the same bytes.

use serde_json::{Value, json};

/// Whether the generated answers carry what this crate does not know yet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Novelty {
    /// Only fields and enum values the models know.
    KnownOnly,
    /// Unknown fields at several levels and unknown enum values, as newer servers send.
    WithUnknowns,
}

/// A small deterministic generator (xorshift64*), so workloads need no external randomness.
struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_f491_4f6c_dd1d)
    }

    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    fn pick<'a>(&mut self, items: &[&'a str]) -> &'a str {
        items[self.below(items.len() as u64) as usize]
    }

    fn uuid(&mut self) -> String {
        let (a, b) = (self.next(), self.next());
        format!(
            "{:08x}-{:04x}-4{:03x}-{:04x}-{:012x}",
            a >> 32,
            (a >> 16) & 0xffff,
            a & 0xfff,
            0x8000 | (b >> 48) & 0x3fff,
            b & 0xffff_ffff_ffff
        )
    }
}

const COLUMN_TYPES: &[&str] =
    &["String", "UInt64", "Int32", "Float64", "DateTime64(3)", "LowCardinality(String)", "Nullable(String)"];
const STATES: &[&str] = &["Running", "Running", "Running", "Stopped", "Provisioning", "Failed", "Paused"];

/// `{"status":200,"requestId":...,"result":[...]}` with `count` pipes.
pub fn list_pipes_body(count: usize, novelty: Novelty) -> Vec<u8> {
    let mut rng = Rng(0x9e37_79b9_7f4a_7c15 ^ count as u64);
    let service = rng.uuid();
    let pipes: Vec<Value> = (0..count).map(|i| pipe(&mut rng, i, &service, novelty)).collect();
    envelope(&mut rng, Value::Array(pipes))
}

/// `{"status":200,"requestId":...,"result":{...}}` with one pipe.
pub fn get_pipe_body(novelty: Novelty) -> Vec<u8> {
    let mut rng = Rng(0x51ed_2701_f3a5_c4b9);
    let service = rng.uuid();
    let pipe = pipe(&mut rng, 0, &service, novelty);
    envelope(&mut rng, pipe)
}

fn envelope(rng: &mut Rng, result: Value) -> Vec<u8> {
    serde_json::to_vec(&json!({ "status": 200, "requestId": rng.uuid(), "result": result })).expect("serializes")
}

fn pipe(rng: &mut Rng, index: usize, service: &str, novelty: Novelty) -> Value {
    let unknowns = novelty == Novelty::WithUnknowns;
    let kind = index % 4;
    let columns: Vec<Value> = (0..5 + rng.below(6))
        .map(|c| {
            let mut column = json!({ "name": format!("column_{c}"), "type": rng.pick(COLUMN_TYPES) });
            if unknowns && c == 0 {
                column["codec"] = json!("ZSTD(3)");
            }
            column
        })
        .collect();
    let mappings: Vec<Value> = (0..2 + rng.below(4))
        .map(|m| json!({ "sourceField": format!("payload.field_{m}"), "destinationField": format!("column_{m}") }))
        .collect();
    let mut source = match kind {
        0 => json!({ "kafka": {
            "type": rng.pick(&["kafka", "confluent", "msk", "redpanda"]),
            "format": rng.pick(&["JSONEachRow", "Avro", "AvroConfluent"]),
            "brokers": format!("b-{}.kafka.eu-west-1.example.com:9092,b-{}.kafka.eu-west-1.example.com:9092", rng.below(9), rng.below(9)),
            "topics": format!("events.topic_{index}"),
            "consumerGroup": format!("pipe-consumer-{index}"),
            "authentication": rng.pick(&["PLAIN", "SCRAM-SHA-512", "IAM_ROLE"]),
            "offset": { "strategy": "from_timestamp", "timestamp": "2021-01-01T00:00" },
            "reversePrivateEndpointIds": [rng.uuid()]
        } }),
        1 => json!({ "objectStorage": {
            "type": rng.pick(&["s3", "gcs", "azureblobstorage"]),
            "format": "JSONEachRow",
            "url": format!("https://bucket-{index}.s3.eu-west-1.amazonaws.com/prefix/year=2026/**/*.ndjson.gz"),
            "compression": "gzip",
            "isContinuous": rng.below(2) == 0,
            "authentication": "IAM_ROLE",
            "iamRole": "arn:aws:iam::123456789012:role/clickpipes-ingest"
        } }),
        2 => json!({ "kinesis": {
            "format": "JSONEachRow",
            "streamName": format!("clickstream-{index}"),
            "region": rng.pick(&["eu-west-1", "us-east-1", "ap-southeast-2"]),
            "useEnhancedFanOut": rng.below(2) == 0,
            "iteratorType": rng.pick(&["TRIM_HORIZON", "LATEST", "AT_TIMESTAMP"]),
            "timestamp": 1_700_000_000 + rng.below(10_000_000),
            "authentication": "IAM_USER"
        } }),
        _ => json!({ "postgres": {
            "type": "postgres",
            "host": format!("db-{index}.cluster-abc.eu-west-1.rds.amazonaws.com"),
            "port": 5432,
            "database": "production",
            "settings": { "syncIntervalSeconds": 60, "pullBatchSize": 100000, "publicationName": "clickpipes_pub",
                "replicationMode": rng.pick(&["cdc", "snapshot", "cdc_only"]) },
            "tableMappings": [
                { "sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "public_orders" },
                { "sourceSchemaName": "public", "sourceTable": "customers", "targetTable": "public_customers",
                  "excludedColumns": ["ssn"], "tableEngine": "ReplacingMergeTree" }
            ]
        } }),
    };
    let cpu: Value = if rng.below(5) == 0 { json!("500m") } else { json!(250 * (1 + rng.below(8))) };
    let memory: Value = if rng.below(5) == 0 { json!("2Gi") } else { json!(1 + rng.below(8)) };
    let mut pipe = json!({
        "id": rng.uuid(),
        "serviceId": service,
        "name": format!("pipe_{index}_ingest"),
        "state": rng.pick(STATES),
        "scaling": { "replicas": 1 + rng.below(4), "concurrency": 1 + rng.below(2), "replicaCpuMillicores": cpu, "replicaMemoryGb": memory },
        "source": source.take(),
        "destination": {
            "database": "analytics",
            "table": format!("events_{index}"),
            "managedTable": true,
            "tableDefinition": { "engine": { "type": "MergeTree" }, "sortingKey": ["column_0", "column_1"], "partitionBy": "toYYYYMM(column_4)" },
            "columns": columns
        },
        "fieldMappings": mappings,
        "settings": { "streaming_max_insert_wait_ms": 5000, "engine_max_threads": 4 },
        "createdAt": format!("2026-0{}-1{}T0{}:15:30Z", 1 + rng.below(9), rng.below(9), rng.below(9)),
        "updatedAt": "2026-10-01T12:00:00.123Z"
    });
    if unknowns {
        pipe["description"] = json!(format!("Ingests stream {index} into the analytics tables"));
        pipe["labels"] = json!({ "team": "data", "tier": index % 3 });
        pipe["lastError"] = json!({ "at": "2026-10-01T12:00:00Z", "message": "broker unreachable" });
        pipe["destination"]["retention"] = json!("30d");
        if index % 5 == 0 {
            pipe["state"] = json!("Hibernating");
        }
        let kind_name = ["kafka", "objectStorage", "kinesis", "postgres"][kind];
        pipe["source"][kind_name]["throughputMiBps"] = json!(12.5);
        if kind == 0 && index % 7 == 0 {
            pipe["source"]["kafka"]["type"] = json!("bufstream");
        }
    }
    pipe
}

/// `{"data":[...],"meta":{...}}` with `count` alerts in the newer servers' shape.
pub fn list_alerts_body(count: usize) -> Vec<u8> {
    let mut rng = Rng(0xa1e7_5eed ^ count as u64);
    let alerts: Vec<Value> = (0..count)
        .map(|i| {
            let webhook = format!("65f1a2b3c4d5e6f7081{:05x}", rng.below(0xfffff));
            json!({
                "id": format!("65f1a2b3c4d5e6f708{:06x}", i),
                "name": format!("Alert {i}: ingestion lag"),
                "message": "Lag above threshold for {{pipe}}",
                "threshold": rng.below(1000),
                "interval": rng.pick(&["1m", "5m", "15m", "1h"]),
                "thresholdType": rng.pick(&["above", "below", "between"]),
                "source": rng.pick(&["saved_search", "tile"]),
                "state": rng.pick(&["OK", "ALERT", "INSUFFICIENT_DATA", "DISABLED", "PENDING"]),
                "channel": { "type": "webhook", "webhookId": webhook },
                "channels": [{ "type": "webhook", "webhookId": webhook }],
                "teamId": "65f1a2b3c4d5e6f708190100",
                "savedSearchId": format!("65f1a2b3c4d5e6f7082{:05x}", i),
                "groupBy": "service",
                "createdAt": "2026-06-01T00:00:00Z",
                "updatedAt": "2026-06-02T00:00:00Z"
            })
        })
        .collect();
    serde_json::to_vec(&json!({ "data": alerts, "meta": { "total": count, "limit": 1000, "offset": 0 } }))
        .expect("serializes")
}

/// `{"status":200,"requestId":...,"result":{...}}` with one service.
pub fn get_service_body() -> Vec<u8> {
    let mut rng = Rng(0x5e41_1ce0);
    let service = json!({
        "id": rng.uuid(),
        "name": "analytics-production",
        "engineVersion": "25.8",
        "endpoints": [
            { "protocol": "https", "host": "abc123.eu-west-1.aws.example.com", "port": 8443, "username": null },
            { "protocol": "nativesecure", "host": "abc123.eu-west-1.aws.example.com", "port": 9440, "username": null },
            { "protocol": "mysql", "host": "abc123.eu-west-1.aws.example.com", "port": 3306, "username": "abc123_user" }
        ],
        "minTotalMemoryGb": 24, "maxTotalMemoryGb": 360, "minReplicaMemoryGb": 8, "maxReplicaMemoryGb": 120,
        "numReplicas": 3, "idleScaling": true, "idleTimeoutMinutes": 15,
        "ipAccessList": [{ "source": "0.0.0.0/0", "description": "anywhere" }],
        "createdAt": "2025-11-03T09:12:44Z",
        "iamRole": "arn:aws:iam::123456789012:role/service-role",
        "privateEndpointIds": [], "availablePrivateEndpointIds": [],
        "dataWarehouseId": rng.uuid(), "isPrimary": true, "isReadonly": false
    });
    envelope(&mut rng, service)
}
