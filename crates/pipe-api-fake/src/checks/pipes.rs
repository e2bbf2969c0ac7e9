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
const REPLICATION_MODES: &[&str] = &["cdc", "snapshot", "cdc_only"];
const MYSQL_TYPES: &[&str] = &["mysql", "rdsmysql", "auroramysql", "mariadb", "rdsmariadb"];
const READ_PREFERENCES: &[&str] = &["primary", "primaryPreferred", "secondary", "secondaryPreferred", "nearest"];
const PUBSUB_FORMATS: &[&str] = &["JSONEachRow", "Avro", "Protobuf"];
const SEEK_TYPES: &[&str] = &["latest", "earliest", "timestamp"];
/// `Pipe*PipeTableMapping.tableEngine` of every database kind.
const DATABASE_TABLE_ENGINES: &[&str] = &["MergeTree", "ReplacingMergeTree", "Null"];

/// The source kinds of database pipes: their tables come from their table mappings, so their
/// destination names no table (`PipeMutateDestination.table`: "Required field for all pipe
/// types except database pipes (Postgres, MySQL, BigQuery)"; MongoDB maps collections the same
/// way, service notes).
pub(crate) const DATABASE_KINDS: &[&str] = &["postgres", "mysql", "mongodb", "bigquery"];

/// The members that name a database kind's table mapping (to add it, and to remove it again).
pub(crate) const TABLE_MAPPING_NAMES: &[(&str, [&str; 3])] = &[
    ("postgres", ["sourceSchemaName", "sourceTable", "targetTable"]),
    ("mysql", ["sourceSchemaName", "sourceTable", "targetTable"]),
    ("mongodb", ["sourceDatabaseName", "sourceCollection", "targetTable"]),
    ("bigquery", ["sourceDatasetName", "sourceTable", "targetTable"]),
];

/// The names of `kind`'s table mappings.
fn mapping_names(kind: &str) -> &'static [&'static str] {
    TABLE_MAPPING_NAMES.iter().find(|(name, _)| *name == kind).map_or(&[], |(_, names)| names)
}

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
            required_port(kind, path)?;
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
        "mysql" => mysql(kind)?,
        "mongodb" => mongodb(kind)?,
        "bigquery" => bigquery(kind)?,
        "pubsub" => pubsub(kind)?,
        _ => {}
    }
    let destination = object(members.get("destination").unwrap_or(&Value::Null), "destination")?;
    // Database (CDC) pipes name their tables in the table mappings; the others need one table.
    if !DATABASE_KINDS.contains(&kinds[0]) {
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

/// A required `port`, from 1 to 65535.
fn required_port(kind: &Map<String, Value>, path: &str) -> Checked {
    match kind.get("port") {
        Some(port) if port.as_i64().is_some_and(|p| (1..=65535).contains(&p)) => Ok(()),
        _ => fail(&format!("{path}port"), "must be an integer from 1 to 65535"),
    }
}

/// The minimums the database kinds' settings state (`PipePostgresPipeSettings`,
/// `PipeMySQLPipeSettings`, `PipeMongoDBPipeSettings`), for the members present.
fn settings_minimums(settings: &Map<String, Value>, path: &str) -> Checked {
    for (name, min) in [
        ("syncIntervalSeconds", 1),
        ("pullBatchSize", 1),
        ("initialLoadParallelism", 1),
        ("snapshotNumRowsPerPartition", 1000),
        ("snapshotNumberOfParallelTables", 1),
    ] {
        integer_in(settings, path, name, min, i64::MAX)?;
    }
    Ok(())
}

/// A database kind's `tableMappings`: at least one, each naming its tables, with an engine a
/// database pipe may create.
fn table_mappings(kind: &Map<String, Value>, path: &str, names: &[&str]) -> Checked {
    let mappings = kind.get("tableMappings").and_then(Value::as_array);
    if mappings.is_none_or(Vec::is_empty) {
        return fail(&format!("{path}tableMappings"), "must have at least 1 element");
    }
    objects_naming(kind, path, "tableMappings", names)?;
    engines(kind, path, "tableMappings")
}

/// The `tableEngine` of each mapping in the list `name`, when present.
fn engines(kind: &Map<String, Value>, path: &str, name: &str) -> Checked {
    let mappings = kind.get(name).and_then(Value::as_array).map_or(&[][..], Vec::as_slice);
    for (i, mapping) in mappings.iter().enumerate() {
        let mapping = object(mapping, &format!("{path}{name}[{i}]"))?;
        one_of(mapping, &format!("{path}{name}[{i}]."), "tableEngine", DATABASE_TABLE_ENGINES, false)?;
    }
    Ok(())
}

/// A required settings object with a required `replicationMode` (`PipeMySQLPipeSettings`,
/// `PipeMongoDBPipeSettings`: `required: [replicationMode]`).
fn cdc_settings<'v>(kind: &'v Map<String, Value>, path: &str) -> Result<&'v Map<String, Value>, Problem> {
    let settings = object(kind.get("settings").unwrap_or(&Value::Null), &format!("{path}settings"))?;
    let at = format!("{path}settings.");
    one_of(settings, &at, "replicationMode", REPLICATION_MODES, true)?;
    settings_minimums(settings, &at)?;
    Ok(settings)
}

/// A service account object (`ServiceAccount`) naming its key file.
fn service_account(value: Option<&Value>, path: &str) -> Checked {
    let account = object(value.unwrap_or(&Value::Null), path)?;
    required_text(account, &format!("{path}."), "serviceAccountFile")
}

/// `PipeMutateMySQLSource`: host, port, settings (with `replicationMode`) and table mappings
/// required; `serverId` 1 to 4294967295; "MariaDB supports GTID only".
fn mysql(kind: &Map<String, Value>) -> Checked {
    let path = "source.mysql.";
    one_of(kind, path, "type", MYSQL_TYPES, false)?;
    required_text(kind, path, "host")?;
    required_port(kind, path)?;
    one_of(kind, path, "authentication", &["basic", "IAM_ROLE"], false)?;
    if kind.get("authentication").and_then(Value::as_str) == Some("IAM_ROLE") {
        required_text(kind, path, "iamRole")?;
    }
    integer_in(kind, path, "serverId", 1, 4_294_967_295)?;
    let settings = cdc_settings(kind, path)?;
    one_of(settings, "source.mysql.settings.", "replicationMechanism", &["GTID", "FILE_POS"], false)?;
    let mariadb = matches!(kind.get("type").and_then(Value::as_str), Some("mariadb" | "rdsmariadb"));
    if mariadb && settings.get("replicationMechanism").and_then(Value::as_str) == Some("FILE_POS") {
        return fail("source.mysql.settings.replicationMechanism", "MariaDB supports GTID only");
    }
    table_mappings(kind, path, mapping_names("mysql"))
}

/// `PipeMutateMongoDBSource`: uri, readPreference, settings (with `replicationMode`) and
/// collection mappings required.
fn mongodb(kind: &Map<String, Value>) -> Checked {
    let path = "source.mongodb.";
    mongodb_uri(kind)?;
    one_of(kind, path, "readPreference", READ_PREFERENCES, true)?;
    cdc_settings(kind, path)?;
    table_mappings(kind, path, mapping_names("mongodb"))
}

/// A MongoDB `uri`: "standard URIs (mongodb://...) and SRV URIs (mongodb+srv://...)".
fn mongodb_uri(kind: &Map<String, Value>) -> Checked {
    required_text(kind, "source.mongodb.", "uri")?;
    let uri = kind.get("uri").and_then(Value::as_str).unwrap_or_default();
    if uri.starts_with("mongodb://") || uri.starts_with("mongodb+srv://") {
        Ok(())
    } else {
        fail("source.mongodb.uri", "must be a mongodb:// or mongodb+srv:// URI")
    }
}

/// `PipeMutateBigQuerySource`: nothing required; "BigQuery only supports snapshot mode".
fn bigquery(kind: &Map<String, Value>) -> Checked {
    let path = "source.bigquery.";
    if let Some(settings) = kind.get("settings").filter(|v| !v.is_null()) {
        let settings = object(settings, "source.bigquery.settings")?;
        one_of(settings, "source.bigquery.settings.", "replicationMode", &["snapshot"], false)?;
    }
    if let Some(credentials) = kind.get("credentials").filter(|v| !v.is_null()) {
        service_account(Some(credentials), "source.bigquery.credentials")?;
    }
    engines(kind, path, "tableMappings")
}

/// `PipePostPubSubSource`: format, projectId, topic, authentication, seekType and
/// serviceAccountKey required; `seekTimestamp` exactly when `seekType` is `timestamp`; a filter
/// of at most 256 characters; `ackDeadline` 10 to 600.
fn pubsub(kind: &Map<String, Value>) -> Checked {
    let path = "source.pubsub.";
    one_of(kind, path, "format", PUBSUB_FORMATS, true)?;
    required_text(kind, path, "projectId")?;
    required_text(kind, path, "topic")?;
    one_of(kind, path, "authentication", &["SERVICE_ACCOUNT"], true)?;
    one_of(kind, path, "seekType", SEEK_TYPES, true)?;
    let by_timestamp = kind.get("seekType").and_then(Value::as_str) == Some("timestamp");
    match kind.get("seekTimestamp").filter(|v| !v.is_null()) {
        None if by_timestamp => return fail("source.pubsub.seekTimestamp", "is required when seekType is timestamp"),
        Some(_) if !by_timestamp => {
            return fail("source.pubsub.seekTimestamp", "must be omitted unless seekType is timestamp");
        }
        _ => {}
    }
    if kind.get("filter").and_then(Value::as_str).is_some_and(|filter| filter.chars().count() > 256) {
        return fail("source.pubsub.filter", "must be at most 256 characters");
    }
    integer_in(kind, path, "ackDeadline", 10, 600)?;
    service_account(kind.get("serviceAccountKey"), "source.pubsub.serviceAccountKey")
}

/// `PipePostgresPipeSettings`: the stated minimums, and a replication slot named only in
/// `cdc_only` mode ("Only valid for cdc_only mode").
fn postgres_settings(settings: &Map<String, Value>) -> Checked {
    settings_minimums(settings, "source.postgres.settings.")?;
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
    nulls_where_allowed(members, "")?;
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
                "postgres" | "mysql" | "mongodb" => {
                    match kind {
                        // PipePatchMySQLSource: `required: [host, port]`, each of which
                        // may be `null` (`["string", "null"]`, `["integer", "null"]`).
                        "mysql" => {
                            present_or_null(fields, &path, "host", |fields| required_text(fields, &path, "host"))?;
                            present_or_null(fields, &path, "port", |fields| required_port(fields, &path))?;
                            one_of(fields, &path, "authentication", &["basic", "IAM_ROLE"], false)?;
                            integer_in(fields, &path, "serverId", 1, 4_294_967_295)?;
                        }
                        // PipePatchMongoDBSource: `required: [uri, readPreference]`, each
                        // of which may be `null`.
                        "mongodb" => {
                            present_or_null(fields, &path, "uri", mongodb_uri)?;
                            present_or_null(fields, &path, "readPreference", |fields| {
                                one_of(fields, &path, "readPreference", READ_PREFERENCES, true)
                            })?;
                        }
                        _ => integer_in(fields, &path, "port", 1, 65535)?,
                    }
                    if let Some(settings) = fields.get("settings").filter(|v| !v.is_null()) {
                        let settings = object(settings, &format!("source.{kind}.settings"))?;
                        settings_minimums(settings, &format!("source.{kind}.settings."))?;
                    }
                    let names = mapping_names(kind);
                    objects_naming(fields, &path, "tableMappingsToAdd", names)?;
                    engines(fields, &path, "tableMappingsToAdd")?;
                    objects_naming(fields, &path, "tableMappingsToRemove", names)?;
                }
                // PipePatchPubSubSource: `required: [authentication, serviceAccountKey]`, each
                // of which may be `null`.
                "pubsub" => {
                    present_or_null(fields, &path, "authentication", |fields| {
                        one_of(fields, &path, "authentication", &["SERVICE_ACCOUNT"], true)
                    })?;
                    integer_in(fields, &path, "ackDeadline", 10, 600)?;
                    present_or_null(fields, &path, "serviceAccountKey", |fields| {
                        service_account(fields.get("serviceAccountKey"), "source.pubsub.serviceAccountKey")
                    })?;
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

/// The members of each object of `PipePatchRequest` that the contract lets be `null` (a type
/// `[..., "null"]`, or a `oneOf` with `{"type": "null"}`), by the object's path. A `null` for any
/// other member of these objects is refused; the objects of lists (table mappings, columns),
/// credentials and settings are not walked.
const NULLABLE_IN_PATCH: &[(&str, &[&str])] = &[
    ("", &["name", "source", "destination", "settings"]),
    ("source", &["kafka", "objectStorage", "kinesis", "pubsub", "mysql", "mongodb"]),
    ("source.kafka", &["authentication", "iamRole", "caCertificate"]),
    (
        "source.objectStorage",
        &[
            "skipInitialLoad",
            "startAfter",
            "authentication",
            "iamRole",
            "connectionString",
            "path",
            "azureContainerName",
            "accessKey",
            "serviceAccountKey",
        ],
    ),
    ("source.kinesis", &["authentication", "iamRole", "accessKey"]),
    (
        "source.postgres",
        &["host", "port", "database", "tlsHost", "caCertificate", "disableTls", "skipCertVerification"],
    ),
    ("source.postgres.settings", &["syncIntervalSeconds", "pullBatchSize"]),
    (
        "source.mysql",
        &[
            "host",
            "port",
            "authentication",
            "iamRole",
            "tlsHost",
            "caCertificate",
            "disableTls",
            "skipCertVerification",
            "serverId",
        ],
    ),
    ("source.mysql.settings", &["syncIntervalSeconds", "pullBatchSize", "useCompression"]),
    ("source.mongodb", &["uri", "readPreference", "tlsHost", "disableTls", "skipCertVerification", "caCertificate"]),
    ("source.mongodb.settings", &["syncIntervalSeconds", "pullBatchSize"]),
    ("source.pubsub", &["authentication", "ackDeadline", "serviceAccountKey"]),
    ("destination", &[]),
    // `settings`: every setting may be `null` (`PipeSettings`), and so is not walked.
];

/// Refuses a `null` the contract does not allow in the object at `path` of a patch, and in the
/// objects below it that [`NULLABLE_IN_PATCH`] lists.
fn nulls_where_allowed(members: &Map<String, Value>, path: &str) -> Checked {
    let Some((_, nullable)) = NULLABLE_IN_PATCH.iter().find(|(at, _)| *at == path) else { return Ok(()) };
    for (name, value) in members {
        let at = if path.is_empty() { name.clone() } else { format!("{path}.{name}") };
        match value {
            Value::Null if !nullable.contains(&name.as_str()) => return fail(&at, "must not be null"),
            Value::Object(inner) => nulls_where_allowed(inner, &at)?,
            _ => {}
        }
    }
    Ok(())
}

/// A member a schema requires that may be `null` (`required` and `[..., "null"]`): present,
/// and checked by `check` unless `null`.
fn present_or_null(
    fields: &Map<String, Value>,
    path: &str,
    name: &str,
    check: impl FnOnce(&Map<String, Value>) -> Checked,
) -> Checked {
    match fields.get(name) {
        None => fail(&format!("{path}{name}"), "is required"),
        Some(Value::Null) => Ok(()),
        Some(_) => check(fields),
    }
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
