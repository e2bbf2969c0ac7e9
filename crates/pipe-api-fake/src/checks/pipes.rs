//! The checks of a pipe's create, patch and state bodies, and of schema discovery (whose source is
//! shaped, and checked, as a create's).

use serde_json::{Map, Value};

use super::pipe_settings::settings_at;
use super::{Checked, Problem, fail, integer_in, object, one_of, required_text};

/// The source kinds, the older four and the newer servers' four: a pipe has exactly one.
const SOURCE_KINDS: &[&str] =
    &["kafka", "objectStorage", "kinesis", "postgres", "pubsub", "mysql", "mongodb", "bigquery"];

const KAFKA_TYPES: &[&str] =
    &["kafka", "redpanda", "msk", "gcmk", "confluent", "warpstream", "azureeventhub", "dokafka"];
const KAFKA_FORMATS: &[&str] = &["JSONEachRow", "Avro", "AvroConfluent", "Protobuf"];
const KINESIS_FORMATS: &[&str] = &["JSONEachRow", "Avro", "AvroConfluent"];
const STORAGE_FORMATS: &[&str] =
    &["JSONEachRow", "JSONAsObject", "CSV", "CSVWithNames", "TabSeparated", "TabSeparatedWithNames", "Parquet", "Avro"];
const STORAGE_AUTHENTICATIONS: &[&str] = &["IAM_ROLE", "IAM_USER", "CONNECTION_STRING", "SERVICE_ACCOUNT"];
const KAFKA_AUTHENTICATIONS: &[&str] =
    &["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"];
const STORAGE_TYPES: &[&str] = &["s3", "gcs", "dospaces", "azureblobstorage", "cloudflarer2", "ovhobjectstorage"];
const ITERATOR_TYPES: &[&str] = &["TRIM_HORIZON", "LATEST", "AT_TIMESTAMP"];

/// `PipePostKafkaSource.authentication`, narrowed per `type` by its description: "Supported
/// authentication methods: kafka: PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, MUTUAL_TLS, msk:
/// SCRAM-SHA-512, IAM_ROLE, IAM_USER, MUTUAL_TLS, gcmk: PLAIN, MUTUAL_TLS, confluent: PLAIN,
/// MUTUAL_TLS, warpstream: PLAIN, azureeventhub: PLAIN, redpanda: SCRAM-SHA-256, SCRAM-SHA-512,
/// MUTUAL_TLS, dokafka: SCRAM-SHA-256, MUTUAL_TLS".
const KAFKA_AUTHENTICATIONS_BY_TYPE: &[(&str, &[&str])] = &[
    ("kafka", &["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "MUTUAL_TLS"]),
    ("msk", &["SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"]),
    ("gcmk", &["PLAIN", "MUTUAL_TLS"]),
    ("confluent", &["PLAIN", "MUTUAL_TLS"]),
    ("warpstream", &["PLAIN"]),
    ("azureeventhub", &["PLAIN"]),
    ("redpanda", &["SCRAM-SHA-256", "SCRAM-SHA-512", "MUTUAL_TLS"]),
    ("dokafka", &["SCRAM-SHA-256", "MUTUAL_TLS"]),
];

/// `PipePostObjectStorageSource.authentication`, narrowed per `type` by its description:
/// "IAM_USER is for S3, GCS, and DigitalOcean Spaces. IAM_ROLE is for S3 only. SERVICE_ACCOUNT
/// is for GCS only. CONNECTION_STRING is for Azure Blob Storage. PUBLIC uses no
/// authentication." Cloudflare R2 and OVH are named for no method; the "only" words exclude
/// IAM_ROLE and SERVICE_ACCOUNT there, CONNECTION_STRING is Azure's, and an access key pair
/// (IAM_USER) is what an S3-compatible store takes, so that one is accepted.
const STORAGE_AUTHENTICATIONS_BY_TYPE: &[(&str, &[&str])] = &[
    ("s3", &["IAM_ROLE", "IAM_USER"]),
    ("gcs", &["IAM_USER", "SERVICE_ACCOUNT"]),
    ("dospaces", &["IAM_USER"]),
    ("azureblobstorage", &["CONNECTION_STRING"]),
    ("cloudflarer2", &["IAM_USER"]),
    ("ovhobjectstorage", &["IAM_USER"]),
];

/// A member that, when present and not `null`, must be one of the values `by_type` gives the
/// source's `kind` (its `type`: the body's on create, the stored pipe's on update).
fn allowed_for_type(
    members: &Map<String, Value>,
    kind: &str,
    path: &str,
    name: &str,
    by_type: &[(&str, &[&str])],
) -> Checked {
    let Some((_, allowed)) = by_type.iter().find(|(t, _)| *t == kind) else { return Ok(()) };
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(text)) if allowed.contains(&text.as_str()) => Ok(()),
        Some(_) if allowed.is_empty() => fail(&format!("{path}{name}"), &format!("must be absent for type {kind}")),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be one of {} for type {kind}", allowed.join(", "))),
    }
}

/// An update's `authentication` for a Kafka or object storage source, against the `type` the
/// stored pipe has (a `PipePatchRequest` carries no type): the same per-type tables as create.
pub(crate) fn patched_authentication(kind: &str, stored_type: Option<&Value>, patch: &Map<String, Value>) -> Checked {
    let by_type = match kind {
        "kafka" => KAFKA_AUTHENTICATIONS_BY_TYPE,
        "objectStorage" => STORAGE_AUTHENTICATIONS_BY_TYPE,
        _ => return Ok(()),
    };
    let stored_type = stored_type.and_then(Value::as_str).unwrap_or_default();
    allowed_for_type(patch, stored_type, &format!("source.{kind}."), "authentication", by_type)
}

/// `POST /pipes` (`PipePostRequest`): a name, exactly one source kind with what that kind
/// needs, a destination, and scaling within the service's bounds.
pub(crate) fn create_pipe(body: &Value) -> Checked {
    let members = object(body, "body")?;
    required_text(members, "", "name")?;
    let source = object(members.get("source").unwrap_or(&Value::Null), "source")?;
    let kinds: Vec<&str> = SOURCE_KINDS.iter().copied().filter(|kind| source.contains_key(*kind)).collect();
    if kinds.len() != 1 {
        return fail("source", &format!("must have exactly one source kind, found {}", kinds.len()));
    }
    let kind = object(&source[kinds[0]], &format!("source.{}", kinds[0]))?;
    match kinds[0] {
        "kafka" => {
            let path = "source.kafka.";
            one_of(kind, path, "type", KAFKA_TYPES, true)?;
            one_of(kind, path, "format", KAFKA_FORMATS, true)?;
            required_text(kind, path, "brokers")?;
            required_text(kind, path, "topics")?;
            one_of(kind, path, "authentication", KAFKA_AUTHENTICATIONS, true)?;
            let kafka_type = kind.get("type").and_then(Value::as_str).unwrap_or_default();
            allowed_for_type(kind, kafka_type, path, "authentication", KAFKA_AUTHENTICATIONS_BY_TYPE)?;
            let event_hubs = kafka_type == "azureeventhub";
            match kind.get("authentication").and_then(Value::as_str) {
                // Azure Event Hubs authenticate PLAIN with a connection string.
                Some("PLAIN") if event_hubs => {
                    let credentials =
                        object(kind.get("credentials").unwrap_or(&Value::Null), "source.kafka.credentials")?;
                    required_text(credentials, "source.kafka.credentials.", "connectionString")?;
                }
                Some("PLAIN" | "SCRAM-SHA-256" | "SCRAM-SHA-512") => {
                    let credentials =
                        object(kind.get("credentials").unwrap_or(&Value::Null), "source.kafka.credentials")?;
                    required_text(credentials, "source.kafka.credentials.", "username")?;
                    required_text(credentials, "source.kafka.credentials.", "password")?;
                }
                Some("IAM_ROLE") => required_text(kind, path, "iamRole")?,
                _ => {}
            }
            // PipeKafkaSchemaRegistry.url: "HTTPS required".
            if let Some(registry) = kind.get("schemaRegistry").filter(|v| !v.is_null()) {
                let registry = object(registry, "source.kafka.schemaRegistry")?;
                let url = registry.get("url").and_then(Value::as_str).unwrap_or_default();
                if !url.to_ascii_lowercase().starts_with("https://") {
                    return fail("source.kafka.schemaRegistry.url", "must be an https URL");
                }
                // PipeMutateKafkaSchemaRegistry.authentication: enum PLAIN.
                one_of(registry, "source.kafka.schemaRegistry.", "authentication", &["PLAIN"], false)?;
            }
        }
        "objectStorage" => {
            let path = "source.objectStorage.";
            one_of(kind, path, "type", STORAGE_TYPES, true)?;
            one_of(kind, path, "format", STORAGE_FORMATS, true)?;
            one_of(kind, path, "authentication", STORAGE_AUTHENTICATIONS, false)?;
            let storage_type = kind.get("type").and_then(Value::as_str).unwrap_or_default();
            allowed_for_type(kind, storage_type, path, "authentication", STORAGE_AUTHENTICATIONS_BY_TYPE)?;
            // connectionString, serviceAccountKey: "Required when authentication is ...".
            match kind.get("authentication").and_then(Value::as_str) {
                Some("CONNECTION_STRING") => required_text(kind, path, "connectionString")?,
                Some("SERVICE_ACCOUNT") => required_text(kind, path, "serviceAccountKey")?,
                Some("IAM_ROLE") => required_text(kind, path, "iamRole")?,
                _ => {}
            }
            if kind.get("type").and_then(Value::as_str) == Some("azureblobstorage") {
                required_text(kind, path, "azureContainerName")?;
            } else {
                required_text(kind, path, "url")?;
            }
        }
        "kinesis" => {
            let path = "source.kinesis.";
            one_of(kind, path, "format", KINESIS_FORMATS, true)?;
            required_text(kind, path, "streamName")?;
            required_text(kind, path, "region")?;
            one_of(kind, path, "iteratorType", ITERATOR_TYPES, true)?;
            one_of(kind, path, "authentication", &["IAM_ROLE", "IAM_USER"], true)?;
            // iamRole: "Required if IAM_ROLE is used".
            if kind.get("authentication").and_then(Value::as_str) == Some("IAM_ROLE") {
                required_text(kind, path, "iamRole")?;
            }
        }
        // `authentication` (basic or IAM_ROLE) defaults to basic.
        "postgres" => {
            let path = "source.postgres.";
            required_text(kind, path, "host")?;
            match kind.get("port") {
                Some(port) if port.as_i64().is_some_and(|p| (1..=65535).contains(&p)) => {}
                _ => return fail("source.postgres.port", "must be an integer from 1 to 65535"),
            }
            required_text(kind, path, "database")?;
            one_of(kind, path, "authentication", &["basic", "IAM_ROLE"], false)?;
            let mappings = kind.get("tableMappings").and_then(Value::as_array);
            if mappings.is_none_or(Vec::is_empty) {
                return fail("source.postgres.tableMappings", "must have at least 1 element");
            }
            if let Some(settings) = kind.get("settings").filter(|v| !v.is_null()) {
                postgres_settings(object(settings, "source.postgres.settings")?)?;
            }
        }
        _ => {}
    }
    let destination = object(members.get("destination").unwrap_or(&Value::Null), "destination")?;
    // Database (CDC) pipes name their tables in the table mappings; the others need one table.
    if kinds[0] != "postgres" {
        required_text(destination, "destination.", "table")?;
    }
    if let Some(scaling) = members.get("scaling") {
        let scaling = object(scaling, "scaling")?;
        // PipeScaling: replicas 1 to 40; concurrency has no bound on create.
        integer_in(scaling, "scaling.", "replicas", 1, 40)?;
    }
    if let Some(settings) = members.get("settings") {
        settings_at(object(settings, "settings")?, "settings.")?;
    }
    Ok(())
}

/// `PipePostgresPipeSettings`: the stated minimums, and a replication slot named only in
/// `cdc_only` mode ("Only valid for cdc_only mode").
fn postgres_settings(settings: &Map<String, Value>) -> Checked {
    let path = "source.postgres.settings.";
    for (name, min) in [
        ("syncIntervalSeconds", 1),
        ("pullBatchSize", 1),
        ("initialLoadParallelism", 1),
        ("snapshotNumRowsPerPartition", 1000),
        ("snapshotNumberOfParallelTables", 1),
    ] {
        integer_in(settings, path, name, min, i64::MAX)?;
    }
    let slot = settings.get("replicationSlotName").is_some_and(|v| !v.is_null());
    if slot && settings.get("replicationMode").and_then(Value::as_str) != Some("cdc_only") {
        return fail("source.postgres.settings.replicationSlotName", "is only valid for cdc_only mode");
    }
    Ok(())
}

/// A member that, when present and not `null`, must be an array of objects each naming
/// `required` as non-empty strings.
fn objects_naming(members: &Map<String, Value>, path: &str, name: &str, required: &[&str]) -> Checked {
    let Some(items) = members.get(name).filter(|v| !v.is_null()) else { return Ok(()) };
    let items = items.as_array().ok_or_else(|| Problem(format!("{path}{name}: must be an array")))?;
    for (i, item) in items.iter().enumerate() {
        let at = format!("{path}{name}[{i}]");
        let item = object(item, &at)?;
        for field in required {
            required_text(item, &format!("{at}."), field)?;
        }
    }
    Ok(())
}

/// `PATCH .../pipes/{pipeId}` (`PipePatchRequest`): everything optional; a name that is sent
/// is 1 to 255 characters; at most one source kind, with each kind's allowed authentication,
/// `startAfter` never with `skipInitialLoad: true`, a Postgres port, settings minimums and
/// table mappings that name their tables; columns and field mappings that name both sides;
/// `PipeSettings` within its bounds.
pub(crate) fn update_pipe(body: &Value) -> Checked {
    let members = object(body, "body")?;
    match members.get("name") {
        None | Some(Value::Null) => {}
        Some(Value::String(name)) if !name.trim().is_empty() && name.chars().count() <= 255 => {}
        Some(_) => return fail("name", "must be a string of 1 to 255 characters"),
    }
    if let Some(source) = members.get("source").filter(|v| !v.is_null()) {
        let source = object(source, "source")?;
        let kinds: Vec<&str> =
            SOURCE_KINDS.iter().copied().filter(|kind| source.get(*kind).is_some_and(|v| !v.is_null())).collect();
        if kinds.len() > 1 {
            return fail("source", &format!("must have at most one source kind, found {}", kinds.len()));
        }
        for kind in kinds {
            let path = format!("source.{kind}.");
            let fields = object(&source[kind], &format!("source.{kind}"))?;
            match kind {
                "kafka" => one_of(fields, &path, "authentication", KAFKA_AUTHENTICATIONS, false)?,
                "objectStorage" => {
                    one_of(fields, &path, "authentication", STORAGE_AUTHENTICATIONS, false)?;
                    let skips = fields.get("skipInitialLoad") == Some(&Value::Bool(true));
                    if skips && fields.get("startAfter").is_some_and(|v| !v.is_null()) {
                        return fail(
                            "source.objectStorage.startAfter",
                            "cannot be provided when skipInitialLoad is true",
                        );
                    }
                }
                "kinesis" => one_of(fields, &path, "authentication", &["IAM_ROLE", "IAM_USER"], false)?,
                "postgres" => {
                    integer_in(fields, &path, "port", 1, 65535)?;
                    if let Some(settings) = fields.get("settings").filter(|v| !v.is_null()) {
                        let settings = object(settings, "source.postgres.settings")?;
                        for name in ["syncIntervalSeconds", "pullBatchSize"] {
                            integer_in(settings, "source.postgres.settings.", name, 1, i64::MAX)?;
                        }
                    }
                    let names = ["sourceSchemaName", "sourceTable", "targetTable"];
                    objects_naming(fields, &path, "tableMappingsToAdd", &names)?;
                    objects_naming(fields, &path, "tableMappingsToRemove", &names)?;
                }
                _ => {}
            }
        }
    }
    if let Some(destination) = members.get("destination").filter(|v| !v.is_null()) {
        objects_naming(object(destination, "destination")?, "destination.", "columns", &["name", "type"])?;
    }
    objects_naming(members, "", "fieldMappings", &["sourceField", "destinationField"])?;
    if let Some(settings) = members.get("settings").filter(|v| !v.is_null()) {
        settings_at(object(settings, "settings")?, "settings.")?;
    }
    Ok(())
}

/// `PATCH .../pipes/{pipeId}/state` (`PipeStatePatchRequest`): `command` is one of the three.
pub(crate) fn change_pipe_state(body: &Value) -> Checked {
    one_of(object(body, "body")?, "", "command", &["start", "stop", "resync"], true)
}

/// `POST .../pipes/schemaDiscovery` (`PipeSchemaDiscoveryRequest`): a Kafka or Kinesis source,
/// shaped as in a create request (`PipePostKafkaSource`, `PipePostKinesisSource`).
pub(crate) fn schema_discovery(body: &Value) -> Checked {
    let members = object(body, "body")?;
    let source = object(members.get("source").unwrap_or(&Value::Null), "source")?;
    if let Some(kind) =
        SOURCE_KINDS.iter().find(|kind| !matches!(**kind, "kafka" | "kinesis") && source.contains_key(**kind))
    {
        return fail(&format!("source.{kind}"), "schema discovery supports kafka and kinesis sources only");
    }
    // The same schemas as a create's source: checked by the create's rules, in a create's body.
    create_pipe(&serde_json::json!({
        "name": "schema discovery",
        "source": source,
        "destination": { "table": "schema_discovery" },
    }))
}
