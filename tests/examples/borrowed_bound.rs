//! A lower bound for any owned, typed decode of the list-pipes answer: a serde-derive mirror of
//! the models whose text fields borrow from the body (`&str`: no allocation, no reference
//! count), that keeps no unknown field and parses no date or quantity. Whatever our models
//! cost beyond this is their own; what this costs beyond the floor, every typed decode pays.
#![allow(dead_code, non_snake_case)]

use std::hint::black_box;
use std::time::{Duration, Instant};

use pipe_api_tests::workloads::{self, Novelty};
use serde::Deserialize;
use serde_json::value::RawValue;

#[derive(Deserialize)]
struct Envelope<'a> {
    #[serde(borrow)]
    result: Vec<Pipe<'a>>,
}

#[derive(Deserialize)]
struct Pipe<'a> {
    id: &'a str,
    serviceId: Option<&'a str>,
    name: Option<&'a str>,
    state: Option<&'a str>,
    #[serde(borrow)]
    scaling: Option<Scaling<'a>>,
    #[serde(borrow)]
    source: Option<Source<'a>>,
    #[serde(borrow)]
    destination: Option<Destination<'a>>,
    #[serde(borrow)]
    fieldMappings: Option<Vec<Mapping<'a>>>,
    settings: Option<Settings>,
    createdAt: Option<&'a str>,
    updatedAt: Option<&'a str>,
}

#[derive(Deserialize)]
struct Scaling<'a> {
    replicas: Option<u32>,
    concurrency: Option<u32>,
    #[serde(borrow)]
    replicaCpuMillicores: Option<&'a RawValue>,
    #[serde(borrow)]
    replicaMemoryGb: Option<&'a RawValue>,
}

#[derive(Deserialize)]
struct Source<'a> {
    #[serde(borrow)]
    kafka: Option<Box<Kafka<'a>>>,
    #[serde(borrow)]
    objectStorage: Option<Box<Storage<'a>>>,
    #[serde(borrow)]
    kinesis: Option<Box<Kinesis<'a>>>,
    #[serde(borrow)]
    postgres: Option<Box<Postgres<'a>>>,
}

#[derive(Deserialize)]
struct Kafka<'a> {
    r#type: Option<&'a str>,
    format: Option<&'a str>,
    brokers: Option<&'a str>,
    topics: Option<&'a str>,
    consumerGroup: Option<&'a str>,
    authentication: Option<&'a str>,
    #[serde(borrow)]
    offset: Option<Offset<'a>>,
    #[serde(borrow)]
    reversePrivateEndpointIds: Option<Vec<&'a str>>,
}

#[derive(Deserialize)]
struct Offset<'a> {
    strategy: Option<&'a str>,
    timestamp: Option<&'a str>,
}

#[derive(Deserialize)]
struct Storage<'a> {
    r#type: Option<&'a str>,
    format: Option<&'a str>,
    url: Option<&'a str>,
    compression: Option<&'a str>,
    isContinuous: Option<bool>,
    authentication: Option<&'a str>,
    iamRole: Option<&'a str>,
}

#[derive(Deserialize)]
struct Kinesis<'a> {
    format: Option<&'a str>,
    streamName: Option<&'a str>,
    region: Option<&'a str>,
    useEnhancedFanOut: Option<bool>,
    iteratorType: Option<&'a str>,
    timestamp: Option<i64>,
    authentication: Option<&'a str>,
}

#[derive(Deserialize)]
struct Postgres<'a> {
    r#type: Option<&'a str>,
    host: Option<&'a str>,
    port: Option<u16>,
    database: Option<&'a str>,
    #[serde(borrow)]
    settings: Option<PostgresSettings<'a>>,
    #[serde(borrow)]
    tableMappings: Option<Vec<TableMapping<'a>>>,
}

#[derive(Deserialize)]
struct PostgresSettings<'a> {
    syncIntervalSeconds: Option<u32>,
    pullBatchSize: Option<u32>,
    publicationName: Option<&'a str>,
    replicationMode: Option<&'a str>,
}

#[derive(Deserialize)]
struct TableMapping<'a> {
    sourceSchemaName: Option<&'a str>,
    sourceTable: Option<&'a str>,
    targetTable: Option<&'a str>,
    #[serde(borrow)]
    excludedColumns: Option<Vec<&'a str>>,
    tableEngine: Option<&'a str>,
}

#[derive(Deserialize)]
struct Destination<'a> {
    database: Option<&'a str>,
    table: Option<&'a str>,
    managedTable: Option<bool>,
    #[serde(borrow)]
    tableDefinition: Option<TableDefinition<'a>>,
    #[serde(borrow)]
    columns: Option<Vec<Column<'a>>>,
}

#[derive(Deserialize)]
struct TableDefinition<'a> {
    #[serde(borrow)]
    engine: Option<Engine<'a>>,
    #[serde(borrow)]
    sortingKey: Option<Vec<&'a str>>,
    partitionBy: Option<&'a str>,
}

#[derive(Deserialize)]
struct Engine<'a> {
    r#type: Option<&'a str>,
}

#[derive(Deserialize)]
struct Column<'a> {
    name: Option<&'a str>,
    r#type: Option<&'a str>,
}

#[derive(Deserialize)]
struct Mapping<'a> {
    sourceField: Option<&'a str>,
    destinationField: Option<&'a str>,
}

#[derive(Deserialize)]
struct Settings {
    streaming_max_insert_wait_ms: Option<u64>,
    engine_max_threads: Option<u64>,
}

fn main() {
    let body = workloads::list_pipes_body(10_000, Novelty::KnownOnly);
    let text = std::str::from_utf8(&body).unwrap();
    let rounds = 20;
    let (mut floor, mut bound) = (Duration::ZERO, Duration::ZERO);
    for _ in 0..rounds {
        let start = Instant::now();
        black_box(serde_json::from_slice::<serde::de::IgnoredAny>(&body).unwrap());
        floor += start.elapsed();
        let start = Instant::now();
        let decoded: Envelope<'_> = serde_json::from_str(text).unwrap();
        assert_eq!(decoded.result.len(), 10_000);
        drop(black_box(decoded));
        bound += start.elapsed();
    }
    println!(
        "floor {:?}; borrowed derive mirror (decode + drop) {:?} = {:.2}x the floor",
        floor / rounds,
        bound / rounds,
        bound.as_secs_f64() / floor.as_secs_f64()
    );
}
