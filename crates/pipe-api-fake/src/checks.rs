//! The fake's own server-side checks of request bodies, read as plain JSON and written from the
//! contract (the management OpenAPI document's `KeyPostRequest` and `PipePostRequest`, and the
//! service notes), never from the client's models or validator: a client rule or wire name that
//! is wrong cannot hide behind them. Each check names the field the way the service does.

use serde_json::{Map, Value};

/// A refused body: the field's path and what is wrong with it.
pub(crate) struct Problem(pub String);

type Checked = Result<(), Problem>;

fn fail(path: &str, why: &str) -> Checked {
    Err(Problem(format!("{path}: {why}")))
}

/// The members of an object, or a refusal naming `path`.
fn object<'v>(value: &'v Value, path: &str) -> Result<&'v Map<String, Value>, Problem> {
    value.as_object().ok_or_else(|| Problem(format!("{path}: must be an object")))
}

/// A member that must be a non-empty string.
fn required_text(members: &Map<String, Value>, path: &str, name: &str) -> Checked {
    match members.get(name) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(()),
        Some(Value::String(_)) => fail(&format!("{path}{name}"), "must not be empty"),
        Some(_) => fail(&format!("{path}{name}"), "must be a string"),
        None => fail(&format!("{path}{name}"), "is required"),
    }
}

/// A member that, when present, must be one of `allowed`; required when `required`.
fn one_of(members: &Map<String, Value>, path: &str, name: &str, allowed: &[&str], required: bool) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) if !required => Ok(()),
        None | Some(Value::Null) => fail(&format!("{path}{name}"), "is required"),
        Some(Value::String(text)) if allowed.contains(&text.as_str()) => Ok(()),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be one of {}", allowed.join(", "))),
    }
}

/// A member that, when present, must be an integer within `min..=max`.
fn integer_in(members: &Map<String, Value>, path: &str, name: &str, min: i64, max: i64) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(value) if value.as_i64().is_some_and(|n| (min..=max).contains(&n)) => Ok(()),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be an integer from {min} to {max}")),
    }
}

/// `POST /keys` (`KeyPostRequest`): roles from the three the service knows, at least one (the
/// spec's own rule); state enabled or disabled; `expireAt` a date-time, or `null` or `""` for
/// never; IP access entries an address or a block.
pub(crate) fn create_key(body: &Value) -> Checked {
    let members = object(body, "body")?;
    roles(members)?;
    one_of(members, "", "state", &["enabled", "disabled"], false)?;
    expire_at(members)?;
    ip_access_list(members)
}

/// `PATCH /keys/{keyId}` (`ApiKeyPatchRequest`): what is sent follows the create rules (roles,
/// when sent, at least one); `expireAt` a date-time, or `null` or `""` for never;
/// `assignedRoleIds` UUIDs.
pub(crate) fn update_key(body: &Value) -> Checked {
    let members = object(body, "body")?;
    if members.get("name").is_some_and(|name| !name.is_string()) {
        return fail("name", "must be a string");
    }
    roles(members)?;
    one_of(members, "", "state", &["enabled", "disabled"], false)?;
    ip_access_list(members)?;
    expire_at(members)?;
    if let Some(ids) = members.get("assignedRoleIds") {
        let ids = ids.as_array().ok_or_else(|| Problem("assignedRoleIds: must be an array".to_owned()))?;
        for (i, id) in ids.iter().enumerate() {
            if id.as_str().is_none_or(|id| uuid::Uuid::try_parse(id).is_err()) {
                return fail(&format!("assignedRoleIds[{i}]"), "must be a UUID");
            }
        }
    }
    Ok(())
}

/// `expireAt`, when sent: the notes say absent, `null` or `""` all mean "never expires".
fn expire_at(members: &Map<String, Value>) -> Checked {
    match members.get("expireAt") {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(text)) if text.is_empty() || is_date_time(text) => Ok(()),
        Some(_) => fail("expireAt", "must be an RFC 3339 date-time, null or empty"),
    }
}

/// An RFC 3339 date-time, checked with `time`'s own parser (the fake does not reuse the
/// client's codecs).
fn is_date_time(text: &str) -> bool {
    time::OffsetDateTime::parse(text, &time::format_description::well_known::Rfc3339).is_ok()
}

/// `roles`, when sent: an array of at least one of the three roles the service knows.
fn roles(members: &Map<String, Value>) -> Checked {
    if let Some(roles) = members.get("roles") {
        let roles = roles.as_array().ok_or_else(|| Problem("roles: must be an array".to_owned()))?;
        if roles.is_empty() {
            return fail("roles", "must have at least 1 element");
        }
        for (i, role) in roles.iter().enumerate() {
            if !matches!(role.as_str(), Some("admin" | "developer" | "query_endpoints")) {
                return fail(&format!("roles[{i}]"), "must be one of admin, developer, query_endpoints");
            }
        }
    }
    Ok(())
}

/// `ipAccessList`, when sent: entries whose `source` is an address or a block.
fn ip_access_list(members: &Map<String, Value>) -> Checked {
    match members.get("ipAccessList") {
        Some(entries) => ip_access_entries(entries, "ipAccessList"),
        None => Ok(()),
    }
}

fn ip_access_entries(entries: &Value, path: &str) -> Checked {
    let entries = entries.as_array().ok_or_else(|| Problem(format!("{path}: must be an array")))?;
    for (i, entry) in entries.iter().enumerate() {
        let entry = object(entry, &format!("{path}[{i}]"))?;
        let source = entry.get("source").and_then(Value::as_str).unwrap_or_default();
        if !is_address_or_block(source) {
            return fail(&format!("{path}[{i}].source"), "must be an IP address or a CIDR block");
        }
    }
    Ok(())
}

/// `PATCH /services/{serviceId}` (`ServicePatchRequest`): a name of 1 to 50 characters; the
/// list patches `{add, remove}`, IP entries an address or a block, tags (at most 50 each way)
/// with a key of 1 to 128 and a value of up to 256 letters, digits, `.`, `_`, `-`; the release
/// channel and an endpoint's protocol (only `mysql`) from the contract's values.
pub(crate) fn update_service(body: &Value) -> Checked {
    let members = object(body, "body")?;
    match members.get("name") {
        None => {}
        Some(Value::String(name)) if (1..=50).contains(&name.chars().count()) => {}
        Some(_) => return fail("name", "must be a string of 1 to 50 characters"),
    }
    if let Some(patch) = members.get("ipAccessList") {
        list_patch(patch, "ipAccessList", ip_access_entries)?;
    }
    if let Some(patch) = members.get("privateEndpointIds") {
        list_patch(patch, "privateEndpointIds", |ids, path| {
            let ids = ids.as_array().ok_or_else(|| Problem(format!("{path}: must be an array")))?;
            match ids.iter().position(|id| !id.is_string()) {
                Some(i) => fail(&format!("{path}[{i}]"), "must be a string"),
                None => Ok(()),
            }
        })?;
    }
    one_of(members, "", "releaseChannel", &["slow", "default", "fast"], false)?;
    if let Some(endpoints) = members.get("endpoints") {
        let endpoints = endpoints.as_array().ok_or_else(|| Problem("endpoints: must be an array".to_owned()))?;
        for (i, endpoint) in endpoints.iter().enumerate() {
            let path = format!("endpoints[{i}].");
            let endpoint = object(endpoint, &format!("endpoints[{i}]"))?;
            one_of(endpoint, &path, "protocol", &["mysql"], false)?;
            if endpoint.get("enabled").is_some_and(|enabled| !enabled.is_boolean()) {
                return fail(&format!("{path}enabled"), "must be a boolean");
            }
        }
    }
    if members.get("transparentDataEncryptionKeyId").is_some_and(|id| !id.is_string()) {
        return fail("transparentDataEncryptionKeyId", "must be a string");
    }
    if let Some(patch) = members.get("tags") {
        list_patch(patch, "tags", |tags, path| {
            let tags = tags.as_array().ok_or_else(|| Problem(format!("{path}: must be an array")))?;
            if tags.len() > 50 {
                return fail(path, "must have at most 50 elements");
            }
            for (i, tag) in tags.iter().enumerate() {
                let tag = object(tag, &format!("{path}[{i}]"))?;
                match tag.get("key").and_then(Value::as_str) {
                    Some(key) if key.len() <= 128 && is_tag_text(key) => {}
                    _ => return fail(&format!("{path}[{i}].key"), "must be 1 to 128 letters, digits, '.', '_' or '-'"),
                }
                match tag.get("value") {
                    None => {}
                    Some(Value::String(value)) if value.len() <= 256 && is_tag_text(value) => {}
                    Some(_) => {
                        return fail(
                            &format!("{path}[{i}].value"),
                            "must be up to 256 letters, digits, '.', '_' or '-'",
                        );
                    }
                }
            }
            Ok(())
        })?;
    }
    if members.get("enableCoreDumps").is_some_and(|on| !on.is_boolean()) {
        return fail("enableCoreDumps", "must be a boolean");
    }
    Ok(())
}

/// `ResourceTagsV1`'s pattern `^[a-zA-Z0-9._-]+$`.
fn is_tag_text(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

/// An `{add, remove}` object, each list checked by `items`.
fn list_patch(patch: &Value, path: &str, items: impl Fn(&Value, &str) -> Checked) -> Checked {
    let patch = object(patch, path)?;
    for name in ["add", "remove"] {
        if let Some(list) = patch.get(name) {
            items(list, &format!("{path}.{name}"))?;
        }
    }
    Ok(())
}

/// `PATCH /services/{serviceId}/state` (`ServiceStatePatchRequest`): one of the three commands.
pub(crate) fn service_state(body: &Value) -> Checked {
    let members = object(body, "body")?;
    one_of(members, "", "command", &["start", "stop", "awake"], true)
}

fn is_address_or_block(text: &str) -> bool {
    let (address, bits) = text.split_once('/').map_or((text, None), |(a, b)| (a, Some(b)));
    let Ok(address) = address.parse::<std::net::IpAddr>() else { return false };
    let max = if address.is_ipv4() { 32 } else { 128 };
    bits.is_none_or(|bits| bits.bytes().all(|b| b.is_ascii_digit()) && bits.parse::<u8>().is_ok_and(|b| b <= max))
}

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

const ENDPOINT_TYPES: &[&str] =
    &["VPC_ENDPOINT_SERVICE", "VPC_RESOURCE", "MSK_MULTI_VPC", "GCP_PSC_SERVICE_ATTACHMENT"];

/// `POST .../pipesReversePrivateEndpoints` (`CreateReversePrivateEndpoint`): a type, what that
/// type requires ("Required for ... type"), a description of at most 255 characters, and
/// mappings only where they are supported (not for MSK multi-VPC).
pub(crate) fn create_reverse_private_endpoint(body: &Value) -> Checked {
    let members = object(body, "body")?;
    one_of(members, "", "type", ENDPOINT_TYPES, true)?;
    match members.get("description") {
        None | Some(Value::Null) => {}
        Some(Value::String(text)) if text.chars().count() <= 255 => {}
        Some(_) => return fail("description", "must be a string of at most 255 characters"),
    }
    match members.get("type").and_then(Value::as_str) {
        Some("VPC_ENDPOINT_SERVICE") => required_text(members, "", "vpcEndpointServiceName")?,
        Some("VPC_RESOURCE") => {
            required_text(members, "", "vpcResourceConfigurationId")?;
            required_text(members, "", "vpcResourceShareArn")?;
        }
        Some("MSK_MULTI_VPC") => {
            required_text(members, "", "mskClusterArn")?;
            one_of(members, "", "mskAuthentication", &["SASL_IAM", "SASL_SCRAM"], true)?;
            if members.get("customPrivateDnsMappings").and_then(Value::as_array).is_some_and(|m| !m.is_empty()) {
                return fail("customPrivateDnsMappings", "is not supported for MSK_MULTI_VPC");
            }
        }
        _ => {
            required_text(members, "", "gcpServiceAttachment")?;
            let uri = members.get("gcpServiceAttachment").and_then(Value::as_str).unwrap_or_default();
            let parts: Vec<&str> = uri.split('/').collect();
            let well_formed = parts.len() == 6
                && parts[0] == "projects"
                && parts[2] == "regions"
                && parts[4] == "serviceAttachments"
                && [parts[1], parts[3], parts[5]].iter().all(|part| !part.is_empty());
            if !well_formed {
                return fail(
                    "gcpServiceAttachment",
                    "must be projects/{project}/regions/{region}/serviceAttachments/{name}",
                );
            }
        }
    }
    match members.get("customPrivateDnsMappings") {
        None | Some(Value::Null) => Ok(()),
        Some(mappings) => dns_mappings(mappings),
    }
}

/// `PATCH .../pipesReversePrivateEndpoints/{id}` (`UpdateReversePrivateEndpoint`): the mappings,
/// a full replacement list.
pub(crate) fn update_reverse_private_endpoint(body: &Value) -> Checked {
    let members = object(body, "body")?;
    match members.get("customPrivateDnsMappings") {
        Some(mappings) => dns_mappings(mappings),
        None => fail("customPrivateDnsMappings", "is required"),
    }
}

/// Each mapping a `{privateDnsName}` with an exact name or a leading wildcard, none twice.
fn dns_mappings(mappings: &Value) -> Checked {
    let mappings =
        mappings.as_array().ok_or_else(|| Problem("customPrivateDnsMappings: must be an array".to_owned()))?;
    let mut names = Vec::new();
    for (i, mapping) in mappings.iter().enumerate() {
        let path = format!("customPrivateDnsMappings[{i}]");
        let mapping = object(mapping, &path)?;
        required_text(mapping, &format!("{path}."), "privateDnsName")?;
        let name = mapping.get("privateDnsName").and_then(Value::as_str).unwrap_or_default().to_ascii_lowercase();
        if name.trim_start_matches("*.").contains('*') {
            return fail(&format!("{path}.privateDnsName"), "only a leading wildcard (*.) is supported");
        }
        if names.contains(&name) {
            return fail(&format!("{path}.privateDnsName"), "must be unique");
        }
        names.push(name);
    }
    Ok(())
}

/// A member that, when present, must be a number within `min..=max`.
fn number_in(members: &Map<String, Value>, path: &str, name: &str, min: f64, max: f64) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(value) if value.as_f64().is_some_and(|n| (min..=max).contains(&n)) => Ok(()),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be a number from {min} to {max}")),
    }
}

/// A member that, when present, must be a number that is a whole multiple of `step`.
fn multiple_of(members: &Map<String, Value>, name: &str, step: f64) -> Checked {
    match members.get(name).and_then(Value::as_f64) {
        Some(n) if n % step != 0.0 => fail(name, &format!("must be a multiple of {step}")),
        _ => Ok(()),
    }
}

/// `PATCH .../pipes/{pipeId}/scaling` (`PipeScalingPatchRequest`): replicas 1 to 40, the
/// deprecated concurrency 0 to 34, CPU 125 to 2000 millicores, memory 0.5 to 8 GB.
pub(crate) fn scale_pipe(body: &Value) -> Checked {
    let members = object(body, "body")?;
    integer_in(members, "", "replicas", 1, 40)?;
    integer_in(members, "", "concurrency", 0, 34)?;
    integer_in(members, "", "replicaCpuMillicores", 125, 2000)?;
    number_in(members, "", "replicaMemoryGb", 0.5, 8.0)
}

/// The integer settings of `PipeSettings` / `PipeSettingsPutRequest` and their ranges.
const SETTING_RANGES: &[(&str, i64, i64)] = &[
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

/// `PATCH .../pipes/{pipeId}/state` (`PipeStatePatchRequest`): `command` is one of the three.
pub(crate) fn change_pipe_state(body: &Value) -> Checked {
    one_of(object(body, "body")?, "", "command", &["start", "stop", "resync"], true)
}

/// The boolean settings of `PipeSettings`.
const SETTING_FLAGS: &[&str] = &["object_storage_use_cluster_function", "engine_parallel_view_processing"];

/// `PUT .../pipes/{pipeId}/settings` (`PipeSettingsPutRequest`): "key-value pairs where values
/// can be strings, numbers, or booleans", the known ones within their ranges.
pub(crate) fn pipe_settings(body: &Value) -> Checked {
    settings_at(object(body, "body")?, "")
}

fn settings_at(members: &Map<String, Value>, path: &str) -> Checked {
    for (name, min, max) in SETTING_RANGES {
        integer_in(members, path, name, *min, *max)?;
    }
    for name in SETTING_FLAGS {
        if !matches!(members.get(*name), None | Some(Value::Null | Value::Bool(_))) {
            return fail(&format!("{path}{name}"), "must be a boolean");
        }
    }
    match members.iter().find(|(_, value)| matches!(value, Value::Array(_) | Value::Object(_))) {
        Some((name, _)) => fail(&format!("{path}{name}"), "must be a string, number or boolean"),
        None => Ok(()),
    }
}

/// `PATCH .../pipesCdcScaling` (`PipesCdcScalingPatchRequest`): CPU 1000 to 32000 millicores in
/// steps of 1000, memory 4 to 128 GiB in steps of 4. The 4 GiB per core is checked on the
/// scaling the patch leads to ([`cdc_memory_per_core`]).
pub(crate) fn cdc_scaling(body: &Value) -> Checked {
    let members = object(body, "body")?;
    integer_in(members, "", "replicaCpuMillicores", 1000, 32_000)?;
    multiple_of(members, "replicaCpuMillicores", 1000.0)?;
    number_in(members, "", "replicaMemoryGb", 4.0, 128.0)?;
    multiple_of(members, "replicaMemoryGb", 4.0)
}

/// "Must be 4× the CPU core count" (`PipesCdcScaling.replicaMemoryGb`), on the whole scaling.
pub(crate) fn cdc_memory_per_core(scaling: &Map<String, Value>) -> Checked {
    let cpu = scaling.get("replicaCpuMillicores").and_then(Value::as_f64).unwrap_or_default();
    let memory = scaling.get("replicaMemoryGb").and_then(Value::as_f64).unwrap_or_default();
    if memory == cpu / 1000.0 * 4.0 {
        Ok(())
    } else {
        fail("replicaMemoryGb", &format!("must be 4 per CPU core ({} for {cpu} millicores)", cpu / 250.0))
    }
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

const ALERT_INTERVALS: &[(&str, i64)] =
    &[("1m", 1), ("5m", 5), ("15m", 15), ("30m", 30), ("1h", 60), ("6h", 360), ("12h", 720), ("1d", 1440)];
const NEWER_THRESHOLD_TYPES: &[&str] =
    &["above", "below", "above_exclusive", "below_or_equal", "equal", "not_equal", "between", "not_between"];
const OLDER_THRESHOLD_TYPES: &[&str] = &["above", "below"];

/// `POST /api/v2/alerts` and `PUT /api/v2/alerts/{id}` (`CreateAlertRequest`,
/// `UpdateAlertRequest`, and the checks the service notes list). `newer`: a newer server (any
/// threshold, every threshold type, `channels`); an older one wants `threshold >= 0`, knows
/// `above` and `below` only, and needs `channel` (it strips `channels` as unknown).
pub(crate) fn alert(body: &Value, newer: bool) -> Checked {
    let members = object(body, "body")?;
    one_of(members, "", "source", &["saved_search", "tile"], true)?;
    if members.get("source").and_then(Value::as_str) == Some("saved_search") {
        required_text(members, "", "savedSearchId")?;
    } else {
        required_text(members, "", "dashboardId")?;
        required_text(members, "", "tileId")?;
    }
    let threshold = members.get("threshold").and_then(Value::as_f64);
    match threshold {
        None => return fail("threshold", "is required and must be a number"),
        Some(value) if !newer && value < 0.0 => return fail("threshold", "must be greater than or equal to 0"),
        Some(_) => {}
    }
    let types = if newer { NEWER_THRESHOLD_TYPES } else { OLDER_THRESHOLD_TYPES };
    one_of(members, "", "thresholdType", types, true)?;
    let names: Vec<&str> = ALERT_INTERVALS.iter().map(|(name, _)| *name).collect();
    one_of(members, "", "interval", &names, true)?;
    if newer {
        let bounded = matches!(members.get("thresholdType").and_then(Value::as_str), Some("between" | "not_between"));
        match members.get("thresholdMax") {
            None | Some(Value::Null) if bounded => {
                return fail("thresholdMax", "is required for between and not_between");
            }
            None | Some(Value::Null) => {}
            Some(max) => match (max.as_f64(), threshold) {
                (Some(max), Some(min)) if max >= min => {}
                _ => return fail("thresholdMax", "must be a number greater than or equal to threshold"),
            },
        }
        let interval = members.get("interval").and_then(Value::as_str);
        let minutes = ALERT_INTERVALS.iter().find(|(name, _)| Some(*name) == interval).map_or(1440, |(_, m)| *m);
        integer_in(members, "", "scheduleOffsetMinutes", 0, 1439.min(minutes - 1))?;
        let anchored = members.get("scheduleStartAt").is_some_and(|at| !at.is_null());
        if anchored && members.get("scheduleOffsetMinutes").and_then(Value::as_i64).is_some_and(|m| m != 0) {
            return fail("scheduleOffsetMinutes", "must be 0 when scheduleStartAt is set");
        }
        integer_in(members, "", "numConsecutiveWindows", 1, i64::MAX)?;
        optional_text_of(members, "note", 4096)?;
    }
    let channel = members.get("channel").filter(|c| !c.is_null());
    let channels = if newer { members.get("channels").filter(|c| !c.is_null()) } else { None };
    if let Some(channel) = channel {
        webhook_channel(channel, "channel")?;
    }
    match (channel, channels) {
        (None, None) if newer => return fail("channel", "at least one of channel or channels is required"),
        (None, None) => return fail("channel", "is required"),
        (_, Some(channels)) => {
            let list = channels.as_array().ok_or_else(|| Problem("channels: must be an array".to_owned()))?;
            if list.is_empty() || list.len() > 10 {
                return fail("channels", "must hold 1 to 10 channels");
            }
            for (i, entry) in list.iter().enumerate() {
                webhook_channel(entry, &format!("channels[{i}]"))?;
                if list[..i].contains(entry) {
                    return fail(&format!("channels[{i}]"), "is a duplicate");
                }
            }
            if channel.is_some_and(|channel| Some(channel) != list.first()) {
                return fail("channel", "must match the first entry of channels");
            }
        }
        _ => {}
    }
    optional_text_of(members, "name", 512)?;
    optional_text_of(members, "message", 4096)?;
    Ok(())
}

/// `{type: "webhook", webhookId}`.
fn webhook_channel(channel: &Value, path: &str) -> Checked {
    let members = object(channel, path)?;
    one_of(members, &format!("{path}."), "type", &["webhook"], true)?;
    required_text(members, &format!("{path}."), "webhookId")
}

/// A member that, when present and not null, is a text of 1 to `max` characters.
fn optional_text_of(members: &Map<String, Value>, name: &str, max: usize) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(Value::String(text)) if (1..=max).contains(&text.chars().count()) => Ok(()),
        Some(_) => fail(name, &format!("must be a string of 1 to {max} characters")),
    }
}
