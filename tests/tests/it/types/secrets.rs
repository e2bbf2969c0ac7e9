//! The redacted `Debug` of every type that holds a secret, pinned exactly, and the proof that
//! the secret is still sent (serialized) while never shown.

use pipe_api_types::{
    CreateKeyResponse, CreatePipeRequest, Credentials, Destination, KafkaSource, Key, KeyId, ObjectStorageSource,
    PipeSource, PostgresSource, SchemaRegistry, Secret,
};

const MARKER: &str = "hunter2-MARKER";

#[test]
fn a_secret_prints_redacted_and_is_read_only_through_its_accessor() {
    let secret = Secret::new(MARKER);
    assert_eq!(format!("{secret:?}"), "Secret([redacted])");
    assert_eq!(format!("{secret:#?}"), "Secret([redacted])");
    assert_eq!(secret.expose_secret(), MARKER);
    assert_eq!(serde_json::to_string(&secret).unwrap(), format!("\"{MARKER}\""));
}

#[test]
fn every_kind_of_credentials_prints_redacted() {
    let cases = [
        (
            Credentials::user_password("ingest", MARKER),
            r#"Credentials { username: Some("ingest"), password: Some(Secret([redacted])), access_key_id: None, secret_key: None, connection_string: None, certificate: None, private_key: None, unknown: {} }"#,
        ),
        (
            Credentials::access_key("AKIAEXAMPLE", MARKER),
            r#"Credentials { username: None, password: None, access_key_id: Some("AKIAEXAMPLE"), secret_key: Some(Secret([redacted])), connection_string: None, certificate: None, private_key: None, unknown: {} }"#,
        ),
        (
            Credentials::from_connection_string(MARKER),
            r#"Credentials { username: None, password: None, access_key_id: None, secret_key: None, connection_string: Some(Secret([redacted])), certificate: None, private_key: None, unknown: {} }"#,
        ),
        (
            Credentials::client_certificate("-----BEGIN CERTIFICATE-----", MARKER),
            r#"Credentials { username: None, password: None, access_key_id: None, secret_key: None, connection_string: None, certificate: Some("-----BEGIN CERTIFICATE-----"), private_key: Some(Secret([redacted])), unknown: {} }"#,
        ),
    ];
    for (credentials, expected) in cases {
        assert_eq!(format!("{credentials:?}"), expected);
        assert!(serde_json::to_string(&credentials).unwrap().contains(MARKER), "sent");
    }
}

#[test]
fn a_created_key_prints_its_secret_redacted() {
    let response = CreateKeyResponse::default()
        .key(Key::new(KeyId::from_uuid(uuid::Uuid::nil())))
        .key_id("AbCdEfGhIjKlMnOpQrSt")
        .key_secret(MARKER);
    assert_eq!(
        format!("{response:?}"),
        r#"CreateKeyResponse { key: Some(Key { id: KeyId(00000000-0000-0000-0000-000000000000), name: None, state: None, roles: None, assigned_roles: None, key_suffix: None, created_at: None, expire_at: None, used_at: None, ip_access_list: None, unknown: {} }), key_id: Some("AbCdEfGhIjKlMnOpQrSt"), key_secret: Some(Secret([redacted])), unknown: {} }"#
    );
    // Read from the wire, the same.
    let read: CreateKeyResponse =
        serde_json::from_str(&format!(r#"{{"keyId":"K","keySecret":"{MARKER}","secretHint":"{MARKER}"}}"#)).unwrap();
    assert_eq!(
        format!("{read:?}"),
        r#"CreateKeyResponse { key: None, key_id: Some("K"), key_secret: Some(Secret([redacted])), unknown: {"secretHint"} }"#
    );
}

#[test]
fn sources_holding_secrets_never_show_them() {
    let kafka = KafkaSource::default()
        .brokers("b:9092")
        .credentials(Credentials::user_password("u", MARKER))
        .schema_registry(SchemaRegistry::default().credentials(Credentials::user_password("r", MARKER)));
    let storage = ObjectStorageSource::default()
        .connection_string(MARKER)
        .service_account_key(MARKER)
        .access_key(Credentials::access_key("AKIA", MARKER));
    let postgres = PostgresSource::default().credentials(Credentials::user_password("replicator", MARKER));
    assert_eq!(
        format!("{storage:?}"),
        "ObjectStorageSource { kind: None, format: None, url: None, delimiter: None, compression: None, is_continuous: None, queue_url: None, authentication: None, iam_role: None, connection_string: Some(Secret([redacted])), path: None, azure_container_name: None, skip_initial_load: None, start_after: None, access_key: Some(Credentials { username: None, password: None, access_key_id: Some(\"AKIA\"), secret_key: Some(Secret([redacted])), connection_string: None, certificate: None, private_key: None, unknown: {} }), service_account_key: Some(Secret([redacted])), unknown: {} }"
    );
    for source in [
        PipeSource::default().kafka(kafka),
        PipeSource::default().object_storage(storage),
        PipeSource::default().postgres(postgres),
    ] {
        let request = CreatePipeRequest::new("p", source, Destination::default().database("d"));
        let shown = format!("{request:?} {request:#?}");
        assert!(!shown.contains(MARKER), "{shown}");
        assert!(shown.contains("Secret([redacted])"));
        assert!(serde_json::to_string(&request).unwrap().contains(MARKER), "still sent");
    }
}

#[test]
fn unknown_fields_show_their_names_only() {
    // A field this crate does not know may carry a credential: its value is never shown.
    let source: PipeSource =
        serde_json::from_str(&format!(r#"{{"futureKind":{{"serviceAccountKey":"{MARKER}"}}}}"#)).unwrap();
    // Checked by what it holds, not as a whole: a new source kind adds a member to the line.
    let shown = format!("{source:?}");
    assert!(shown.ends_with(r#"unknown: {"futureKind"} }"#), "{shown}");
    assert!(!shown.contains(MARKER) && !shown.contains("serviceAccountKey"), "{shown}");
    assert!(serde_json::to_string(&source).unwrap().contains(MARKER));
}
