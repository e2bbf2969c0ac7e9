//! Create-pipe rules of the management OpenAPI that a request meets or breaks, one row each,
//! with the schema that states the rule: Postgres settings minimums and the replication slot
//! (`PipePostgresPipeSettings`), table mappings (`PipePostgresPipeTableMapping`) and the schema
//! registry's https (`PipeKafkaSchemaRegistry`); the `format` each source kind allows and the
//! `authentication` each Kafka and object storage `type` allows (`PipePostKafkaSource`,
//! `PipePostObjectStorageSource`, `PipePostKinesisSource`, `PipeMutatePostgresSource` and their
//! descriptions), with the lists written here by hand from the contract.

use crate::types::common;

use common::violations;

use pipe_api_types::{
    Authentication, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn, IteratorType,
    KafkaSource, KafkaType, KinesisSource, ObjectStorageSource, ObjectStorageType, Pipe, PipeSource, PostgresSettings,
    PostgresSource, PostgresTableMapping, ReplicationMode, Rule, SchemaRegistry, Validate, Vouch,
};

fn orders() -> PostgresTableMapping {
    PostgresTableMapping::new("public", "orders", "orders")
}

fn postgres(settings: PostgresSettings, mapping: PostgresTableMapping) -> CreatePipeRequest {
    let source = PostgresSource::new("db.example.com", 5432, "shop", [mapping])
        .credentials(Credentials::user_password("replicator", "secret"))
        .settings(settings);
    CreatePipeRequest::new("cdc", source, Destination::default().database("shop"))
}

fn table() -> Destination {
    Destination::default().table("events").managed_table(true).columns([DestinationColumn::new("id", "String")])
}

fn kafka(registry_url: &str) -> CreatePipeRequest {
    let source =
        KafkaSource::new(KafkaType::Confluent, DataFormat::AvroConfluent, "b:9092", "events", Authentication::Plain)
            .credentials(Credentials::user_password("u", "p"))
            .schema_registry(SchemaRegistry::default().url(registry_url));
    CreatePipeRequest::new("k", source, table())
}

const SETTINGS: &str = "source.postgres.settings";
const MAPPING: &str = "source.postgres.tableMappings[0]";

#[test]
fn postgres_settings_minimums_and_the_replication_slot() {
    let cases: Vec<(PostgresSettings, Option<(&str, Rule)>)> = vec![
        (PostgresSettings::default().sync_interval_seconds(1).pull_batch_size(1), None),
        (PostgresSettings::default().sync_interval_seconds(0), Some(("syncIntervalSeconds", Rule::Min(1)))),
        (PostgresSettings::default().pull_batch_size(0), Some(("pullBatchSize", Rule::Min(1)))),
        (PostgresSettings::default().initial_load_parallelism(0), Some(("initialLoadParallelism", Rule::Min(1)))),
        (PostgresSettings::default().snapshot_num_rows_per_partition(1000), None),
        (
            PostgresSettings::default().snapshot_num_rows_per_partition(999),
            Some(("snapshotNumRowsPerPartition", Rule::Min(1000))),
        ),
        (
            PostgresSettings::default().snapshot_number_of_parallel_tables(0),
            Some(("snapshotNumberOfParallelTables", Rule::Min(1))),
        ),
        (PostgresSettings::default().replication_mode(ReplicationMode::CdcOnly).replication_slot_name("slot"), None),
        (
            PostgresSettings::default().replication_mode(ReplicationMode::Cdc).replication_slot_name("slot"),
            Some(("replicationSlotName", Rule::NotAllowedBecause("unless replicationMode is cdc_only"))),
        ),
        (
            PostgresSettings::default().replication_slot_name("slot"),
            Some(("replicationSlotName", Rule::NotAllowedBecause("unless replicationMode is cdc_only"))),
        ),
    ];
    for (settings, expected) in cases {
        let found = violations(&postgres(settings.clone(), orders()));
        let expected: Vec<(String, Rule)> =
            expected.into_iter().map(|(field, rule)| (format!("{SETTINGS}.{field}"), rule)).collect();
        assert_eq!(found, expected, "{settings:?}");
    }
}

#[test]
fn table_mappings_follow_the_same_rules_on_create_as_on_update() {
    let cases: Vec<(PostgresTableMapping, Option<(&str, Rule)>)> = vec![
        (orders().excluded_columns(["a", "b"]).use_custom_sorting_key(true).sorting_keys(["id"]), None),
        (orders().excluded_columns(["a", "a"]), Some(("excludedColumns", Rule::UniqueItems))),
        (orders().sorting_keys(["id", "id"]), Some(("sortingKeys", Rule::UniqueItems))),
        (
            orders().use_custom_sorting_key(true),
            Some(("sortingKeys", Rule::RequiredBecause("when useCustomSortingKey is true"))),
        ),
    ];
    for (mapping, expected) in cases {
        let found = violations(&postgres(PostgresSettings::default(), mapping.clone()));
        let expected: Vec<(String, Rule)> =
            expected.into_iter().map(|(field, rule)| (format!("{MAPPING}.{field}"), rule)).collect();
        assert_eq!(found, expected, "{mapping:?}");
    }
}

#[test]
fn a_schema_registry_is_reached_over_https() {
    assert_eq!(violations(&kafka("https://psrc-aa00.us-east-2.aws.confluent.cloud/schemas/ids/100004")), []);
    assert_eq!(violations(&kafka("HTTPS://registry.example.com")), []);
    for url in ["http://registry.example.com", "registry.example.com", "ftp://x"] {
        assert_eq!(
            violations(&kafka(url)),
            [("source.kafka.schemaRegistry.url".to_owned(), Rule::Format("of an https URL"))],
            "{url}"
        );
    }
}

/// Every credential any method needs, so that only the rule under test can fail.
fn every_credential() -> Credentials {
    Credentials::user_password("u", "p")
        .access_key_id("AKIA")
        .secret_key("s")
        .connection_string("Endpoint=sb://ns/;SharedAccessKey=k")
        .certificate("-----BEGIN CERTIFICATE-----")
        .private_key("-----BEGIN PRIVATE KEY-----")
}

fn kafka_with(kind: KafkaType, format: DataFormat, authentication: Authentication) -> CreatePipeRequest {
    let source = KafkaSource::new(kind, format, "b:9092", "events", authentication)
        .credentials(every_credential())
        .iam_role("arn:aws:iam::123456789012:role/MyRole");
    CreatePipeRequest::new("k", source, table())
}

fn storage_with(
    kind: ObjectStorageType,
    format: DataFormat,
    authentication: Option<Authentication>,
) -> CreatePipeRequest {
    let mut source = match kind {
        ObjectStorageType::AzureBlobStorage => ObjectStorageSource::azure_blob_storage(format, "logs"),
        kind => ObjectStorageSource::new(kind, format, "https://bucket.example.com/*.json"),
    }
    .iam_role("arn:aws:iam::123456789012:role/MyRole")
    .access_key(Credentials::access_key("AKIA", "s"))
    .connection_string("DefaultEndpointsProtocol=https;AccountName=a;AccountKey=k")
    .service_account_key("eyJ0eXBlIjoic2VydmljZV9hY2NvdW50In0=");
    source.authentication = authentication;
    CreatePipeRequest::new("s", source, table())
}

fn kinesis_with(format: DataFormat, authentication: Authentication) -> CreatePipeRequest {
    let source = KinesisSource::new(format, "clicks", "us-east-1", IteratorType::Latest, authentication)
        .iam_role("arn:aws:iam::123456789012:role/MyRole")
        .access_key(Credentials::access_key("AKIA", "s"));
    CreatePipeRequest::new("c", source, table())
}

fn one_of_for(allowed: &[&'static str], owner: &'static str) -> Rule {
    Rule::OneOfFor { allowed: allowed.to_vec(), owner }
}

/// The one violation of `request` at `path`, if `allowed` lacks `value`; none if it has it.
fn expect(request: &CreatePipeRequest, path: &str, value: &str, allowed: &[&'static str], owner: &'static str) {
    let expected = if allowed.contains(&value) { vec![] } else { vec![(path.to_owned(), one_of_for(allowed, owner))] };
    assert_eq!(violations(request), expected, "{owner}: {value}");
}

/// The `format` enums of PipePostKafkaSource, PipePostObjectStorageSource and
/// PipePostKinesisSource.
const KAFKA_FORMATS: &[&str] = &["JSONEachRow", "Avro", "AvroConfluent", "Protobuf"];
const STORAGE_FORMATS: &[&str] =
    &["JSONEachRow", "JSONAsObject", "CSV", "CSVWithNames", "TabSeparated", "TabSeparatedWithNames", "Parquet", "Avro"];
const KINESIS_FORMATS: &[&str] = &["JSONEachRow", "Avro", "AvroConfluent"];

#[test]
fn each_source_kind_takes_only_its_formats() {
    for format in DataFormat::KNOWN {
        let text = format.as_str();
        let kafka = kafka_with(KafkaType::Kafka, format.clone(), Authentication::Plain);
        expect(&kafka, "source.kafka.format", text, KAFKA_FORMATS, "kafka");
        let s3 = storage_with(ObjectStorageType::S3, format.clone(), None);
        expect(&s3, "source.objectStorage.format", text, STORAGE_FORMATS, "objectStorage");
        let blobs = storage_with(ObjectStorageType::AzureBlobStorage, format.clone(), None);
        expect(&blobs, "source.objectStorage.format", text, STORAGE_FORMATS, "objectStorage");
        let kinesis = kinesis_with(format.clone(), Authentication::IamRole);
        expect(&kinesis, "source.kinesis.format", text, KINESIS_FORMATS, "kinesis");
    }
}

/// PipePostKafkaSource.authentication: "Supported authentication methods: kafka: PLAIN,
/// SCRAM-SHA-256, SCRAM-SHA-512, MUTUAL_TLS, msk: SCRAM-SHA-512, IAM_ROLE, IAM_USER, MUTUAL_TLS,
/// gcmk: PLAIN, MUTUAL_TLS, confluent: PLAIN, MUTUAL_TLS, warpstream: PLAIN, azureeventhub:
/// PLAIN, redpanda: SCRAM-SHA-256, SCRAM-SHA-512, MUTUAL_TLS, dokafka: SCRAM-SHA-256, MUTUAL_TLS".
#[test]
fn each_kafka_type_takes_only_its_authentications() {
    let by_type: [(KafkaType, &'static str, &[&'static str]); 8] = [
        (KafkaType::Kafka, "type kafka", &["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "MUTUAL_TLS"]),
        (KafkaType::Msk, "type msk", &["SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"]),
        (KafkaType::Gcmk, "type gcmk", &["PLAIN", "MUTUAL_TLS"]),
        (KafkaType::Confluent, "type confluent", &["PLAIN", "MUTUAL_TLS"]),
        (KafkaType::Warpstream, "type warpstream", &["PLAIN"]),
        (KafkaType::AzureEventHub, "type azureeventhub", &["PLAIN"]),
        (KafkaType::Redpanda, "type redpanda", &["SCRAM-SHA-256", "SCRAM-SHA-512", "MUTUAL_TLS"]),
        (KafkaType::DoKafka, "type dokafka", &["SCRAM-SHA-256", "MUTUAL_TLS"]),
    ];
    assert_eq!(by_type.len(), KafkaType::KNOWN.len(), "every Kafka type has its row");
    // The enum of PipePostKafkaSource.authentication: the methods a Kafka source may name.
    let methods = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"];
    for (kind, owner, allowed) in by_type {
        for method in methods {
            let request = kafka_with(kind.clone(), DataFormat::JsonEachRow, Authentication::from(method));
            expect(&request, "source.kafka.authentication", method, allowed, owner);
        }
        // A method no Kafka source has is refused against the type's own list.
        let request = kafka_with(kind, DataFormat::JsonEachRow, Authentication::ConnectionString);
        expect(&request, "source.kafka.authentication", "CONNECTION_STRING", allowed, owner);
    }
}

/// PipePostObjectStorageSource.authentication: "IAM_USER is for S3, GCS, and DigitalOcean
/// Spaces. IAM_ROLE is for S3 only. SERVICE_ACCOUNT is for GCS only. CONNECTION_STRING is for
/// Azure Blob Storage. PUBLIC uses no authentication." (R2 and OVH are named for none: the
/// "only" words exclude IAM_ROLE and SERVICE_ACCOUNT, CONNECTION_STRING is Azure's, and their
/// access key pair, IAM_USER, is not refused.)
#[test]
fn each_object_storage_type_takes_only_its_authentications() {
    let by_type: [(ObjectStorageType, &'static str, &[&'static str]); 6] = [
        (ObjectStorageType::S3, "type s3", &["IAM_ROLE", "IAM_USER"]),
        (ObjectStorageType::Gcs, "type gcs", &["IAM_USER", "SERVICE_ACCOUNT"]),
        (ObjectStorageType::DoSpaces, "type dospaces", &["IAM_USER"]),
        (ObjectStorageType::AzureBlobStorage, "type azureblobstorage", &["CONNECTION_STRING"]),
        (ObjectStorageType::CloudflareR2, "type cloudflarer2", &["IAM_USER"]),
        (ObjectStorageType::OvhObjectStorage, "type ovhobjectstorage", &["IAM_USER"]),
    ];
    assert_eq!(by_type.len(), ObjectStorageType::KNOWN.len(), "every object storage type has its row");
    let methods = ["IAM_ROLE", "IAM_USER", "CONNECTION_STRING", "SERVICE_ACCOUNT", "PLAIN"];
    for (kind, owner, allowed) in by_type {
        // No authentication: public files, fine for every type.
        assert_eq!(violations(&storage_with(kind.clone(), DataFormat::Parquet, None)), [], "{owner}");
        for method in methods {
            let request = storage_with(kind.clone(), DataFormat::Parquet, Some(Authentication::from(method)));
            expect(&request, "source.objectStorage.authentication", method, allowed, owner);
        }
    }
    // The rule's words when the type allows none.
    assert_eq!(one_of_for(&[], "type cloudflarer2").to_string(), "must be absent for type cloudflarer2");
    assert_eq!(
        one_of_for(&["IAM_ROLE", "IAM_USER"], "type s3").to_string(),
        "must be one of IAM_ROLE, IAM_USER for type s3"
    );
}

#[test]
fn kinesis_postgres_and_the_schema_registry_take_only_their_authentications() {
    // PipePostKinesisSource.authentication: IAM_ROLE, IAM_USER.
    for method in ["IAM_ROLE", "IAM_USER", "PLAIN", "MUTUAL_TLS"] {
        let request = kinesis_with(DataFormat::JsonEachRow, Authentication::from(method));
        expect(&request, "source.kinesis.authentication", method, &["IAM_ROLE", "IAM_USER"], "kinesis");
    }
    // PipeMutatePostgresSource.authentication: basic, IAM_ROLE.
    for method in ["basic", "IAM_ROLE", "PLAIN", "SCRAM-SHA-256"] {
        let mut request = postgres(PostgresSettings::default(), orders());
        let source = request.source.as_mut().and_then(|s| s.postgres.as_mut()).unwrap();
        source.authentication = Some(Authentication::from(method));
        source.iam_role = Some("arn:aws:iam::123456789012:role/MyApplicationRole".into());
        expect(&request, "source.postgres.authentication", method, &["basic", "IAM_ROLE"], "postgres");
    }
    // PipeMutateKafkaSchemaRegistry.authentication: PLAIN.
    for method in ["PLAIN", "SCRAM-SHA-512"] {
        let mut request = kafka("https://registry.example.com");
        let source = request.source.as_mut().and_then(|s| s.kafka.as_mut()).unwrap();
        source.schema_registry.as_mut().unwrap().authentication = Some(Authentication::from(method));
        expect(&request, "source.kafka.schemaRegistry.authentication", method, &["PLAIN"], "schemaRegistry");
    }
}

#[test]
fn a_newer_value_sent_with_not_yet_known_passes_and_a_typo_does_not() {
    // A newer format or method, vouched for: the client lets it through, the server decides.
    let newer_format = kafka_with(KafkaType::Kafka, DataFormat::not_yet_known("Arrow"), Authentication::Plain);
    assert_eq!(violations(&newer_format), []);
    let newer_method = kafka_with(KafkaType::Msk, DataFormat::Avro, Authentication::not_yet_known("OAUTHBEARER"));
    assert_eq!(violations(&newer_method), []);
    let newer_storage =
        storage_with(ObjectStorageType::not_yet_known("minio"), DataFormat::Csv, Some(Authentication::IamRole));
    assert_eq!(violations(&newer_storage), []);
    // A newer type takes any method of the kind's enum, and no other.
    let newer_type = KafkaType::not_yet_known("newkafka");
    assert_eq!(violations(&kafka_with(newer_type.clone(), DataFormat::Avro, Authentication::IamUser)), []);
    assert_eq!(
        violations(&kafka_with(newer_type, DataFormat::Avro, Authentication::ServiceAccount)),
        [(
            "source.kafka.authentication".to_owned(),
            one_of_for(&["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"], "kafka"),
        )]
    );
    // A known value is known: `not_yet_known` of it gives the variant, still checked per kind.
    let csv = kafka_with(KafkaType::Kafka, DataFormat::not_yet_known("CSV"), Authentication::Plain);
    assert_eq!(violations(&csv), [("source.kafka.format".to_owned(), one_of_for(KAFKA_FORMATS, "kafka"))]);
    // A typo is refused as an unknown value, once.
    let typo = kafka_with(KafkaType::Kafka, DataFormat::from("JSONEachRowz"), Authentication::Plain);
    assert!(
        matches!(violations(&typo).as_slice(), [(path, Rule::KnownValue { .. })] if path == "source.kafka.format"),
        "{:?}",
        violations(&typo)
    );
}

#[test]
fn a_pipe_read_back_with_a_newer_value_can_be_sent_again() {
    // A value a server sent is vouched for (proto vouches for what it decodes): written back,
    // it passes the client.
    let mut pipe: Pipe = serde_json::from_str(
        r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","source":{"kafka":{"type":"confluent","format":"Arrow",
            "brokers":"b:9092","topics":"t","authentication":"OAUTHBEARER"}}}"#,
    )
    .unwrap();
    // Read from JSON alone, as a user's file is, the same value is refused: it may be a typo.
    let unvouched = CreatePipeRequest::new("again", pipe.source.clone().unwrap(), table());
    assert!(unvouched.validate().unwrap_err().to_string().contains("`source.kafka.authentication` must be one of"));
    pipe.vouch();
    let source: PipeSource = pipe.source.unwrap();
    let request = CreatePipeRequest::new("again", source, table());
    assert!(request.validate().is_ok(), "{:?}", request.validate());
}
