//! Building, beyond what the harness over the fixtures (`every_operation`) checks: headers, base
//! URL joining, credentials, query parameters, raw requests, secrets sent but not shown, and
//! validation before anything is built.

use crate::proto::common;

use common::*;
use http::Method;
use pipe_api_proto::{
    Alerting, BaseUrl, BearerToken, BuildErrorKind, CreateKey, CreatePipe, EndpointExt, GetService, ListAlerts,
    Management, ManagementCredentials, Raw, render_request,
};
use pipe_api_tests::every_operation::TOKEN;
use pipe_api_types::{
    Authentication, CreateKeyRequest, CreatePipeRequest, Credentials, DataFormat, Destination, DestinationColumn,
    FieldMapping, IpAccessEntry, IteratorType, KafkaOffset, KafkaSource, KafkaType, KeyHashData, KeyRole, KeyState,
    KinesisSource, ObjectStorageSource, ObjectStorageType, OffsetStrategy, PostgresSettings, PostgresSource,
    PostgresTableMapping, ReplicationMode, Rule, Scaling,
};
use time::macros::datetime;

fn events_table() -> Destination {
    Destination::default()
        .database("default")
        .table("events")
        .managed_table(true)
        .columns([DestinationColumn::new("id", "String"), DestinationColumn::new("at", "DateTime64(3)")])
}

fn kafka_request() -> CreatePipeRequest {
    let kafka = KafkaSource::new(
        KafkaType::Confluent,
        DataFormat::AvroConfluent,
        "pkc-1234.eu-west-1.aws.confluent.cloud:9092",
        "events",
        Authentication::Plain,
    )
    .consumer_group("analytics")
    .credentials(Credentials::user_password("ingest", "kafka-password"))
    .offset(KafkaOffset::default().strategy(OffsetStrategy::FromTimestamp).timestamp(datetime!(2021-01-01 00:00)));
    CreatePipeRequest::new("kafka-events", kafka, events_table())
        .field_mappings([FieldMapping::new("id", "id"), FieldMapping::new("ts", "at")])
        .scaling(Scaling::default().replicas(2u32).replica_cpu_millicores(500u32).replica_memory_gb(2.0))
}

fn object_storage_request() -> CreatePipeRequest {
    let storage = ObjectStorageSource::new(
        ObjectStorageType::S3,
        DataFormat::JsonEachRow,
        "https://bucket.s3.eu-west-1.amazonaws.com/logs/**.ndjson.gz",
    )
    .authentication(Authentication::IamUser)
    .access_key(Credentials::access_key("AKIAEXAMPLE", "s3-secret-key"))
    .is_continuous(true);
    CreatePipeRequest::new("s3-logs", storage, events_table())
}

fn kinesis_request() -> CreatePipeRequest {
    let kinesis = KinesisSource::new(
        DataFormat::JsonEachRow,
        "clicks",
        "eu-west-1",
        IteratorType::AtTimestamp,
        Authentication::IamRole,
    )
    .timestamp(datetime!(2021-03-15 00:00:00 UTC))
    .iam_role("arn:aws:iam::123456789012:role/ingest");
    CreatePipeRequest::new("kinesis-clicks", kinesis, events_table())
}

fn postgres_request() -> CreatePipeRequest {
    let postgres = PostgresSource::new(
        "db.example.com",
        5432,
        "shop",
        [PostgresTableMapping::new("public", "orders", "public_orders")],
    )
    .credentials(Credentials::user_password("replicator", "pg-password"))
    .settings(PostgresSettings::default().replication_mode(ReplicationMode::Cdc).sync_interval_seconds(60u32));
    CreatePipeRequest::new("postgres-shop", postgres, Destination::default().database("shop"))
}

fn full_key_request() -> CreateKeyRequest {
    let hash = "n4bQgYhMfWWaL+qgxVrQFaO/TxsrC4Is0V1sFbDwCgg=";
    CreateKeyRequest::new("ci-deployer", [KeyRole::Developer, KeyRole::QueryEndpoints])
        .expire_at(datetime!(2027-01-01 00:00:00 UTC))
        .state(KeyState::Disabled)
        .hash_data(KeyHashData::default().key_id_hash(hash).key_id_suffix(hash).key_secret_hash(hash))
        .ip_access_list([IpAccessEntry::new("203.0.113.0/24", "office"), IpAccessEntry::new("2001:db8::1", "vpn")])
}

#[test]
fn snapshot_create_key_minimal() {
    // Only what is set is sent.
    let minimal = CreateKey::new(org(), CreateKeyRequest::new("reader", [KeyRole::Developer]));
    insta::assert_snapshot!("create_key_minimal", render_request(&minimal.build_request(&management()).unwrap()));
}

#[test]
fn snapshot_list_alerts_paged() {
    let paged = ListAlerts::new().limit(50).offset(100);
    insta::assert_snapshot!("list_alerts_paged", render_request(&paged.build_request(&alerting()).unwrap()));
}

#[test]
fn snapshot_raw() {
    let raw =
        Raw::<Management>::new(Method::PATCH, format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes/{PIPE}/state"))
            .unwrap()
            .json(&serde_json::json!({"command": "stop"}))
            .unwrap();
    insta::assert_snapshot!(render_request(&raw.build_request(&management()).unwrap()));
}

#[test]
fn headers_of_every_request() {
    let get = GetService::new(org(), service()).build_request(&management()).unwrap();
    let headers = get.headers();
    assert_eq!(headers["accept"], "application/json");
    assert!(headers.get("content-type").is_none(), "no body, no content type");
    assert_eq!(headers["user-agent"], concat!("pipe-api-proto/", env!("CARGO_PKG_VERSION")));
    // base64("sample-key-id:sample-key-secret-5e1f"), the sample key of `common::management`.
    assert_eq!(headers["authorization"], "Basic c2FtcGxlLWtleS1pZDpzYW1wbGUta2V5LXNlY3JldC01ZTFm");
    assert!(headers["authorization"].is_sensitive());

    let post = CreateKey::new(org(), full_key_request()).build_request(&management()).unwrap();
    assert_eq!(post.headers()["content-type"], "application/json");
    assert_eq!(post.method(), Method::POST);

    let alerts = ListAlerts::new().build_request(&alerting()).unwrap();
    assert_eq!(alerts.headers()["authorization"], format!("Bearer {TOKEN}"));
    assert!(alerts.headers()["authorization"].is_sensitive());
    assert!(!format!("{alerts:?}").contains(TOKEN), "a sensitive header is not in Debug");
}

#[test]
fn base_url_joining() {
    let expected = format!("/v1/organizations/{ORG}/services/{SERVICE}");
    for (base, prefix) in [
        ("https://api.example.com", ""),
        ("https://api.example.com/", ""),
        ("https://api.example.com/gateway", "/gateway"),
        ("https://api.example.com/gateway/", "/gateway"),
        ("http://127.0.0.1:8080/a/b//", "/a/b"),
    ] {
        let api = Management::new(BaseUrl::parse(base).unwrap(), ManagementCredentials::new("k", "s").unwrap());
        let request = GetService::new(org(), service()).build_request(&api).unwrap();
        assert_eq!(request.uri().path(), format!("{prefix}{expected}"), "{base}");
        assert_eq!(request.uri().query(), None);
    }
}

#[test]
fn base_url_refusals() {
    for (base, reason) in [
        ("ftp://api.example.com", "must use http or https"),
        ("api.example.com", "must be absolute (http:// or https://)"),
        ("https://api.example.com/?x=1", "must not have a query"),
        ("https://api.example.com/#top", "must not have a fragment"),
        ("https://user:pw@api.example.com", "must not carry user info (credentials go in the Authorization header)"),
        ("not a url", "is not a valid URL"),
    ] {
        let error = BaseUrl::parse(base).unwrap_err();
        assert_eq!(error.reason(), reason, "{base}");
    }
}

#[test]
fn credentials_refusals() {
    assert!(ManagementCredentials::new("key:id", "secret").is_err(), "':' in a key id");
    assert!(ManagementCredentials::new("key\r\nX-Evil: 1", "secret").is_err(), "CR LF in a key id");
    assert!(ManagementCredentials::new("key", "sec\nret").is_err(), "LF in a secret");
    assert!(ManagementCredentials::new("", "secret").is_err(), "empty key id");
    assert!(ManagementCredentials::new("key", "se:cret").is_ok(), "':' is fine in a secret");
    assert!(BearerToken::new("tok en").is_err());
    assert!(BearerToken::new("token\r\n").is_err());
    assert!(BearerToken::new("").is_err());
    let error = ManagementCredentials::new("key", "MARKER\nSECRET").unwrap_err();
    assert!(!error.to_string().contains("MARKER"), "the error never shows the secret");
    assert!(!format!("{:?}", ManagementCredentials::new("key", "MARKER").unwrap()).contains("MARKER"));
    assert!(!format!("{:?}", BearerToken::new("MARKER").unwrap()).contains("MARKER"));
}

#[test]
fn invalid_models_build_nothing() {
    let mut bad_key = CreateKeyRequest::new("ci", Vec::<KeyRole>::new());
    bad_key.ip_access_list = Some(vec![
        IpAccessEntry::new("10.0.0.1", "a"),
        IpAccessEntry::new("10.0.0.0/8", "b"),
        IpAccessEntry::new("300.1.1.1", "c"),
    ]);
    let error = CreateKey::new(org(), bad_key).build_request(&management()).unwrap_err();
    assert_eq!(error.operation(), "create_key");
    let errors = error.validation().expect("a validation error");
    assert!(errors.contains("roles", &Rule::MinItems(1)));
    assert!(errors.contains("ipAccessList[2].source", &Rule::IpAddressOrCidr));
    assert_eq!(errors.violations().len(), 2);
    assert!(error.to_string().contains("nothing was sent"));

    let mut two_kinds = kafka_request();
    two_kinds.source.as_mut().unwrap().kinesis = kinesis_request().source.unwrap().kinesis;
    let error = CreatePipe::new(org(), service(), two_kinds).build_request(&management()).unwrap_err();
    assert!(error.validation().unwrap().contains("source", &Rule::ExactlyOneSourceKind { found: 2 }));

    let error = ListAlerts::new().limit(0).build_request(&alerting()).unwrap_err();
    assert!(error.validation().unwrap().contains("limit", &Rule::Range { min: 1, max: 1000 }));
    assert!(ListAlerts::new().limit(1001).build_request(&alerting()).is_err());
    assert!(ListAlerts::new().limit(1000).build_request(&alerting()).is_ok());
}

#[test]
fn raw_paths_are_checked() {
    for (path, ok) in [
        ("/v1/organizations", true),
        ("v1/organizations", false),
        ("/v1/x?y=1", false),
        ("/v1/x#y", false),
        ("/v1/a b", false),
        ("/v1/../admin", false),
        ("/v1/a\r\nb", false),
    ] {
        let built = Raw::<Alerting>::new(Method::GET, path);
        assert_eq!(built.is_ok(), ok, "{path}");
        if let Err(error) = built {
            assert!(matches!(error.kind(), BuildErrorKind::InvalidPath(_)));
        }
    }
}

#[test]
fn query_is_sent_only_when_asked() {
    let plain = ListAlerts::new().build_request(&alerting()).unwrap();
    assert_eq!(plain.uri().query(), None);
    let limited = ListAlerts::new().limit(5).build_request(&alerting()).unwrap();
    assert_eq!(limited.uri().query(), Some("limit=5"));
    let offset = ListAlerts::new().offset(10).build_request(&alerting()).unwrap();
    assert_eq!(offset.uri().query(), Some("offset=10"));
}

#[test]
fn a_create_pipe_sends_its_secrets_and_its_rendering_redacts_them() {
    for request in [kafka_request(), object_storage_request(), kinesis_request(), postgres_request()] {
        let built = CreatePipe::new(org(), service(), request).build_request(&management()).unwrap();
        let body = String::from_utf8(built.body().clone()).unwrap();
        let shown = render_request(&built);
        for secret in ["kafka-password", "s3-secret-key", "pg-password"] {
            assert!(!shown.contains(secret), "the rendering redacts {secret}");
            if body.contains(secret) {
                assert!(shown.contains("[redacted]"));
            }
        }
    }
    let kafka = CreatePipe::new(org(), service(), kafka_request()).build_request(&management()).unwrap();
    assert!(String::from_utf8(kafka.body().clone()).unwrap().contains("kafka-password"), "secrets are sent");
}
