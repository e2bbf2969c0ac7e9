//! The rules of the newer source kinds' schemas (`PipeMutateMySQLSource`,
//! `PipeMutateMongoDBSource`, `PipeMutateBigQuerySource`, `PipePostPubSubSource`, their settings,
//! table mappings and patch forms), one row each, written by hand from the contract: required
//! members, ranges, the exclusive pairs, and the destination rule of database pipes.

use crate::types::common::violations;

use pipe_api_types::{
    BigQuerySource, BigQueryTableMapping, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn,
    MongoDbSource, MongoDbSourcePatch, MongoDbTableMapping, MySqlSource, MySqlSourcePatch, MySqlTableMapping,
    MySqlType, PipeSourcePatch, PubSubSource, PubSubSourcePatch, ReadPreference, ReplicationMechanism, ReplicationMode,
    Rule, SeekType, ServiceAccount, UpdatePipeRequest,
};

fn only_a_database() -> Destination {
    Destination::default().database("replica")
}

fn mysql() -> MySqlSource {
    MySqlSource::new("db.example.com", 3306, ReplicationMode::Cdc, [MySqlTableMapping::new("shop", "orders", "o")])
        .credentials(Credentials::user_password("replicator", "secret"))
}

fn pubsub() -> PubSubSource {
    PubSubSource::new(DataFormat::JsonEachRow, "project", "topic", SeekType::Earliest, ServiceAccount::new("a2V5"))
}

fn table() -> Destination {
    Destination::default().table("events").managed_table(true).columns([DestinationColumn::new("id", "String")])
}

fn one(path: &str, rule: Rule) -> Vec<(String, Rule)> {
    vec![(path.to_owned(), rule)]
}

#[test]
fn mysql_and_bigquery_creates_naming_only_a_destination_database_are_accepted() {
    let bigquery = BigQuerySource::new(
        "gs://bucket/staging/",
        ServiceAccount::new("a2V5"),
        [BigQueryTableMapping::new("sales", "orders", "sales_orders")],
    );
    let mongodb = MongoDbSource::new(
        "mongodb://db.example.com:27017",
        ReadPreference::Primary,
        ReplicationMode::Cdc,
        [MongoDbTableMapping::new("mydb", "users", "mydb_users")],
    );
    for request in [
        CreatePipeRequest::new("m", mysql(), only_a_database()),
        CreatePipeRequest::new("b", bigquery, only_a_database()),
        CreatePipeRequest::new("g", mongodb, only_a_database()),
    ] {
        assert_eq!(violations(&request), [], "{request:?}");
    }
    // A streaming kind still names its table.
    let streaming = violations(&CreatePipeRequest::new("p", pubsub(), only_a_database()));
    assert!(streaming.contains(&("destination.table".to_owned(), Rule::Required)), "{streaming:?}");
}

#[test]
fn a_mysql_create_missing_host_is_refused_naming_the_path() {
    let mut source = mysql();
    source.host = None;
    let request = CreatePipeRequest::new("m", source, only_a_database());
    assert_eq!(violations(&request), one("source.mysql.host", Rule::Required));
}

#[test]
fn mysql_rules() {
    let cases: Vec<(MySqlSource, Vec<(String, Rule)>)> = vec![
        (mysql().port(0), one("source.mysql.port", Rule::Range { min: 1, max: 65535 })),
        (mysql().server_id(0), one("source.mysql.serverId", Rule::Range { min: 1, max: 4_294_967_295 })),
        (
            {
                let mut source = mysql();
                source.settings = None;
                source
            },
            one("source.mysql.settings", Rule::Required),
        ),
        (
            mysql().settings(pipe_api_types::MySqlSettings::default()),
            one("source.mysql.settings.replicationMode", Rule::Required),
        ),
        (
            mysql().kind(MySqlType::MariaDb).settings(
                pipe_api_types::MySqlSettings::default()
                    .replication_mode(ReplicationMode::Cdc)
                    .replication_mechanism(ReplicationMechanism::FilePos),
            ),
            one(
                "source.mysql.settings.replicationMechanism",
                Rule::NotAllowedBecause("when type is mariadb or rdsmariadb"),
            ),
        ),
        (
            mysql().settings(
                pipe_api_types::MySqlSettings::default()
                    .replication_mode(ReplicationMode::Cdc)
                    .snapshot_num_rows_per_partition(999u64),
            ),
            one("source.mysql.settings.snapshotNumRowsPerPartition", Rule::Min(1000)),
        ),
        (mysql().table_mappings(Vec::<MySqlTableMapping>::new()), one("source.mysql.tableMappings", Rule::MinItems(1))),
        (
            mysql().table_mappings([MySqlTableMapping::new("shop", "orders", "o").use_custom_sorting_key(true)]),
            one("source.mysql.tableMappings[0].sortingKeys", Rule::RequiredBecause("when useCustomSortingKey is true")),
        ),
        (
            mysql().authentication(pipe_api_types::Authentication::IamRole),
            one("source.mysql.iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE")),
        ),
    ];
    for (source, expected) in cases {
        let request = CreatePipeRequest::new("m", source, only_a_database());
        assert_eq!(violations(&request), expected);
    }
}

#[test]
fn pubsub_rules() {
    let cases: Vec<(PubSubSource, Vec<(String, Rule)>)> = vec![
        (pubsub(), vec![]),
        (
            pubsub().seek_type(SeekType::Timestamp),
            one("source.pubsub.seekTimestamp", Rule::RequiredBecause("when seekType is timestamp")),
        ),
        (
            pubsub().seek_timestamp(time::macros::datetime!(2026-04-10 12:00 UTC)),
            one("source.pubsub.seekTimestamp", Rule::NotAllowedBecause("unless seekType is timestamp")),
        ),
        (pubsub().ack_deadline(9u32), one("source.pubsub.ackDeadline", Rule::Range { min: 10, max: 600 })),
        (pubsub().filter("x".repeat(257)), one("source.pubsub.filter", Rule::MaxChars(256))),
        (
            pubsub().format(DataFormat::Csv),
            one(
                "source.pubsub.format",
                Rule::OneOfFor { allowed: vec!["JSONEachRow", "Avro", "Protobuf"], owner: "pubsub" },
            ),
        ),
        (
            pubsub().service_account_key(ServiceAccount::default()),
            one("source.pubsub.serviceAccountKey.serviceAccountFile", Rule::Required),
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(violations(&CreatePipeRequest::new("p", source, table())), expected);
    }
}

#[test]
fn mongodb_rules() {
    let mapping = MongoDbTableMapping::new("mydb", "users", "mydb_users");
    let good =
        MongoDbSource::new("mongodb+srv://c.example.net", ReadPreference::Nearest, ReplicationMode::Cdc, [mapping]);
    assert_eq!(violations(&CreatePipeRequest::new("g", good.clone(), only_a_database())), []);
    let cases = vec![
        (
            {
                let mut source = good.clone();
                source.uri = None;
                source
            },
            one("source.mongodb.uri", Rule::Required),
        ),
        (
            good.clone().table_mappings([MongoDbTableMapping::default().source_database_name("mydb")]),
            vec![
                ("source.mongodb.tableMappings[0].sourceCollection".to_owned(), Rule::Required),
                ("source.mongodb.tableMappings[0].targetTable".to_owned(), Rule::Required),
            ],
        ),
        (
            {
                let mut source = good.clone();
                source.read_preference = None;
                source
            },
            one("source.mongodb.readPreference", Rule::Required),
        ),
    ];
    for (source, expected) in cases {
        assert_eq!(violations(&CreatePipeRequest::new("g", source, only_a_database())), expected);
    }
}

#[test]
fn patches_of_the_newer_kinds() {
    let update = |source: PipeSourcePatch| UpdatePipeRequest::default().source(source);
    let mysql = MySqlSourcePatch::default().host("db.example.com").port(3306u16);
    assert_eq!(violations(&update(PipeSourcePatch::default().mysql(mysql.clone().server_id(7u32)))), []);
    assert_eq!(
        violations(&update(PipeSourcePatch::default().mysql(MySqlSourcePatch::default().port(3306u16)))),
        one("source.mysql.host", Rule::Required)
    );
    assert_eq!(
        violations(&update(PipeSourcePatch::default().mysql(
            mysql.table_mappings_to_remove([MySqlTableMapping::default().source_schema_name("shop").source_table("o")])
        ))),
        one("source.mysql.tableMappingsToRemove[0].targetTable", Rule::Required)
    );
    let mongodb = MongoDbSourcePatch::default().uri("mongodb://c.example.net").read_preference(ReadPreference::Primary);
    assert_eq!(violations(&update(PipeSourcePatch::default().mongodb(mongodb))), []);
    assert_eq!(
        violations(&update(PipeSourcePatch::default().mongodb(MongoDbSourcePatch::default().uri("mongodb://c")))),
        one("source.mongodb.readPreference", Rule::Required)
    );
    let pubsub = PubSubSourcePatch::default()
        .authentication(pipe_api_types::Authentication::ServiceAccount)
        .service_account_key(ServiceAccount::new("a2V5"));
    assert_eq!(violations(&update(PipeSourcePatch::default().pubsub(pubsub.clone()))), []);
    assert_eq!(
        violations(&update(PipeSourcePatch::default().pubsub(pubsub.ack_deadline(601u32)))),
        one("source.pubsub.ackDeadline", Rule::Range { min: 10, max: 600 })
    );
}

#[test]
fn a_patch_sends_null_where_the_contract_allows_it() {
    use pipe_api_types::{KafkaSourcePatch, Nullable, PostgresSourcePatch};
    let update = UpdatePipeRequest::default().source(
        PipeSourcePatch::default().mysql(
            MySqlSourcePatch::default()
                .host("db.example.com")
                .port(3306u16)
                .server_id(Nullable::Null)
                .ca_certificate(Nullable::Null)
                .iam_role("arn:aws:iam::123456789012:role/R"),
        ),
    );
    assert_eq!(violations(&update), []);
    assert_eq!(
        serde_json::to_value(&update).unwrap(),
        serde_json::json!({"source": {"mysql": {
            "host": "db.example.com", "port": 3306, "iamRole": "arn:aws:iam::123456789012:role/R",
            "caCertificate": null, "serverId": null
        }}})
    );
    // What a user writes as `null` is read as `null` and sent so; absent stays absent.
    let written = serde_json::json!({"source": {
        "objectStorage": {"startAfter": null, "path": "logs/*.json", "iamRole": null}
    }});
    let read: UpdatePipeRequest = serde_json::from_value(written.clone()).unwrap();
    let source = read.source.as_ref().and_then(Nullable::value).unwrap();
    let storage = source.object_storage.as_ref().and_then(Nullable::value).unwrap();
    assert_eq!(storage.start_after, Some(Nullable::Null));
    assert_eq!(storage.path, Some(Nullable::Value("logs/*.json".into())));
    assert_eq!(storage.azure_container_name, None);
    assert_eq!(violations(&read), []);
    assert_eq!(serde_json::to_value(&read).unwrap(), written);
    // A null is no value: IAM_ROLE still needs a role.
    let cleared = PipeSourcePatch::default().mysql(
        MySqlSourcePatch::default()
            .host("h")
            .port(1u16)
            .authentication(pipe_api_types::Authentication::IamRole)
            .iam_role(Nullable::Null),
    );
    assert_eq!(
        violations(&UpdatePipeRequest::default().source(cleared)),
        one("source.mysql.iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE"))
    );
    let _ = (KafkaSourcePatch::default().ca_certificate(Nullable::Null), PostgresSourcePatch::default().tls_host("h"));
}
