//! The fake behaves like the real services: credentials, errors in the real shapes, state,
//! alerts as newer and older servers answer, fault injection, determinism and recording. Raw
//! requests go straight to `Fake::handle`, so every status and body is checked exactly.

use std::time::Duration;

use http::Method;
use pipe_api_fake::{AlertingVersion, Fake, Fault, FaultRule};
use pipe_api_types::{Alert, AlertId, Key, KeyId, KeyRole, KeyState, Pipe, PipeState, ReversePrivateEndpoint, Service};
use serde_json::{Value, json};

use crate::fake::common::*;

const OTHER_ORG: &str = "7b2f4c2d-9a72-4b4f-8d4a-1e2a7cc3b002";

/// A fake with one organization, an admin key, a service with one pipe and one endpoint, a
/// second organization, and one alert behind a token.
fn seeded() -> Fake {
    let fake = fake();
    fake.seed_pipe(org(), service(), Pipe::new(PIPE.parse().unwrap()).name("p").state(PipeState::Running));
    fake.seed_reverse_private_endpoint(
        org(),
        service(),
        ReversePrivateEndpoint::new("7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2001".parse().unwrap()),
    );
    fake.seed_service(
        OTHER_ORG.parse().unwrap(),
        Service::new("5d1e3b8f-6c8a-4b66-9e2f-3d0b8a7f2003".parse().unwrap()),
    );
    fake.seed_alerts_token("token-1");
    fake.seed_alert(Alert::new(AlertId::new("a1")).name("first"));
    fake
}

fn service_path() -> String {
    format!("/v1/organizations/{ORG}/services/{SERVICE}")
}

// ---- routing ---------------------------------------------------------------------------------

#[test]
fn a_path_or_method_no_row_has_is_refused_on_either_interface() {
    let fake = seeded();
    let management = [
        (Method::GET, format!("/v1/organizations/{ORG}/usage")),
        (Method::POST, format!("{}/pipes/{PIPE}", service_path())),
        (Method::GET, format!("/v1/organizations/{ORG}/keys/k/roles")),
    ];
    for (method, path) in management {
        let answer = admin(&fake, method.clone(), &path, "");
        assert_error(&answer, 404, &format!("NOT_MODELLED_BY_FAKE: {method} {path} is not an operation of this fake"));
    }
    for (method, path) in [(Method::PATCH, "/api/v2/alerts/a1"), (Method::GET, "/api/v2/alerts/a1/history")] {
        let answer = call(&fake, method.clone(), path, Some("Bearer token-1"), "");
        assert_eq!(answer.status(), 404);
        let expected = format!("NOT_MODELLED_BY_FAKE: {method} {path} is not an operation of this fake");
        assert_eq!(json_of(&answer)["message"], expected.as_str());
    }
    let elsewhere = admin(&fake, Method::GET, "/v2/organizations", "");
    assert_eq!((elsewhere.status().as_u16(), text(&elsewhere).as_str()), (404, "Not Found"));
}

// ---- credentials -----------------------------------------------------------------------------

#[test]
fn missing_or_wrong_credentials_get_the_plain_401() {
    let fake = seeded();
    for authorization in
        [None, Some(basic("admin-id", "wrong").as_str()), Some("Bearer admin-secret"), Some("Basic !!!")]
    {
        let response = call(&fake, Method::GET, &service_path(), authorization, "");
        assert_eq!(response.status(), 401);
        assert_eq!(text(&response), "Unauthorized");
        assert_eq!(response.headers()["content-type"], "text/plain");
    }
}

#[test]
fn a_disabled_or_expired_key_is_refused_and_query_endpoints_alone_is_forbidden() {
    let fake = seeded();
    let disabled =
        Key::new(KeyId::from_uuid(uuid::Uuid::from_u128(1))).state(KeyState::Disabled).roles([KeyRole::Admin]);
    fake.seed_key_as(org(), disabled, "disabled-id", "s");
    let expiring = Key::new(KeyId::from_uuid(uuid::Uuid::from_u128(2)))
        .roles([KeyRole::Admin])
        .expire_at(fake.now() + Duration::from_secs(60));
    fake.seed_key_as(org(), expiring, "expiring-id", "s");
    fake.seed_key(org(), "query-id", "s", [KeyRole::QueryEndpoints]);

    assert_eq!(call(&fake, Method::GET, &service_path(), Some(&basic("disabled-id", "s")), "").status(), 401);
    assert_eq!(call(&fake, Method::GET, &service_path(), Some(&basic("expiring-id", "s")), "").status(), 200);
    fake.advance(Duration::from_secs(61));
    assert_eq!(call(&fake, Method::GET, &service_path(), Some(&basic("expiring-id", "s")), "").status(), 401);
    let forbidden = call(&fake, Method::GET, &service_path(), Some(&basic("query-id", "s")), "");
    assert_error(&forbidden, 403, "FORBIDDEN: the key's roles do not allow this call");
}

#[test]
fn another_organization_is_forbidden_and_an_unknown_one_not_found() {
    let fake = seeded();
    let other = admin(&fake, Method::GET, &format!("/v1/organizations/{OTHER_ORG}/services/{SERVICE}"), "");
    assert_error(&other, 403, &format!("FORBIDDEN: the key has no access to organization {OTHER_ORG}"));
    let unknown = "00000000-0000-4000-8000-0000000000aa";
    let response = admin(&fake, Method::GET, &format!("/v1/organizations/{unknown}/services/{SERVICE}"), "");
    assert_error(&response, 404, &format!("NOT_FOUND: {unknown}"));
    let malformed = admin(&fake, Method::GET, "/v1/organizations/not-a-uuid/services/x", "");
    assert_error(&malformed, 400, "BAD_REQUEST: invalid organization id: not-a-uuid");
}

// ---- keys ------------------------------------------------------------------------------------

#[test]
fn a_created_key_returns_its_credentials_once_and_they_work_at_once() {
    let fake = seeded();
    let body = r#"{"name":"ci","roles":["developer"],"ipAccessList":[{"source":"10.0.0.0/8","description":"vpn"}]}"#;
    let response = admin(&fake, Method::POST, &format!("/v1/organizations/{ORG}/keys"), body);
    assert_eq!(response.status(), 200, "{}", text(&response));
    let result = &json_of(&response)["result"];
    let (key_id, secret) = (result["keyId"].as_str().unwrap(), result["keySecret"].as_str().unwrap());
    assert_eq!(result["key"]["name"], "ci");
    assert_eq!(result["key"]["state"], "enabled");
    assert_eq!(result["key"]["roles"], json!(["developer"]));
    assert_eq!(result["key"]["keySuffix"], key_id[key_id.len() - 4..]);
    assert_eq!(result["key"]["createdAt"], "2026-01-01T00:00:00Z");
    assert_eq!(result["key"]["ipAccessList"], json!([{"source": "10.0.0.0/8", "description": "vpn"}]));
    assert_eq!(call(&fake, Method::GET, &service_path(), Some(&basic(key_id, secret)), "").status(), 200);
    assert_eq!(fake.keys(org()).len(), 2);
}

#[test]
fn a_key_made_by_the_client_from_hash_data_works_and_its_secret_is_never_returned() {
    use base64::Engine as _;
    use sha2::Digest as _;
    let hash = |text: &str| base64::engine::general_purpose::STANDARD.encode(sha2::Sha256::digest(text.as_bytes()));
    let fake = seeded();
    let body = json!({"name": "hashed", "roles": ["admin"], "hashData": {
        "keyIdHash": hash("my-own-id"), "keyIdSuffix": hash("suffix"), "keySecretHash": hash("my-own-secret")
    }});
    let response = admin(&fake, Method::POST, &format!("/v1/organizations/{ORG}/keys"), &body.to_string());
    assert_eq!(response.status(), 200, "{}", text(&response));
    let result = &json_of(&response)["result"];
    assert!(result.get("keyId").is_none() && result.get("keySecret").is_none(), "{result}");
    assert_eq!(call(&fake, Method::GET, &service_path(), Some(&basic("my-own-id", "my-own-secret")), "").status(), 200);
    assert_eq!(call(&fake, Method::GET, &service_path(), Some(&basic("my-own-id", "other")), "").status(), 401);
}

#[test]
fn an_invalid_key_body_is_a_bad_request_naming_the_field() {
    let fake = seeded();
    let path = format!("/v1/organizations/{ORG}/keys");
    let cases = [
        (r#"{"name":"k","roles":[]}"#, "BAD_REQUEST: invalid request: roles: must have at least 1 element"),
        (
            r#"{"name":"k","roles":["admin"],"ipAccessList":[{"source":"300.1.1.1"}]}"#,
            "BAD_REQUEST: invalid request: ipAccessList[0].source: must be an IP address or a CIDR block",
        ),
        (
            r#"{"name":"k","roles":["owner"]}"#,
            "BAD_REQUEST: invalid request: roles[0]: must be one of admin, developer, query_endpoints",
        ),
        (r#"{"name":"k","roles":"admin"}"#, "BAD_REQUEST: invalid request: roles: must be an array"),
    ];
    for (body, error) in cases {
        assert_error(&admin(&fake, Method::POST, &path, body), 400, error);
    }
    let not_json = admin(&fake, Method::POST, &path, "{not json");
    assert_eq!(not_json.status(), 400);
    assert!(json_of(&not_json)["error"].as_str().unwrap().starts_with("BAD_REQUEST: invalid body"));
    let wrong_type = admin(&fake, Method::POST, &path, r#"{"name":"k","roles":["admin"],"expireAt":7}"#);
    assert_error(
        &wrong_type,
        400,
        "BAD_REQUEST: invalid request: expireAt: must be an RFC 3339 date-time, null or empty",
    );
    assert_eq!(fake.keys(org()).len(), 1, "nothing was created");
}

#[test]
fn an_organization_holds_at_most_100_keys() {
    let fake = seeded();
    let path = format!("/v1/organizations/{ORG}/keys");
    for i in 1..100 {
        let response = admin(&fake, Method::POST, &path, &format!(r#"{{"name":"k{i}","roles":["admin"]}}"#));
        assert_eq!(response.status(), 200);
    }
    let refused = admin(&fake, Method::POST, &path, r#"{"name":"one too many","roles":["admin"]}"#);
    assert_error(&refused, 400, "BAD_REQUEST: an organization has at most 100 keys");
}

// ---- services, pipes, endpoints --------------------------------------------------------------

#[test]
fn services_pipes_and_endpoints_read_as_seeded_and_unknown_ids_are_not_found() {
    let fake = seeded();
    assert_eq!(json_of(&admin(&fake, Method::GET, &service_path(), ""))["result"]["name"], "svc");
    let pipes = json_of(&admin(&fake, Method::GET, &format!("{}/pipes", service_path()), ""));
    assert_eq!(pipes["result"][0]["id"], PIPE);
    let pipe = json_of(&admin(&fake, Method::GET, &format!("{}/pipes/{PIPE}", service_path()), ""));
    assert_eq!(pipe["result"]["state"], "Running");
    let endpoints =
        json_of(&admin(&fake, Method::GET, &format!("{}/pipesReversePrivateEndpoints", service_path()), ""));
    assert_eq!(endpoints["result"].as_array().unwrap().len(), 1);

    let missing = "00000000-0000-4000-8000-0000000000bb";
    let unknown_service = admin(&fake, Method::GET, &format!("/v1/organizations/{ORG}/services/{missing}"), "");
    assert_error(&unknown_service, 404, &format!("NOT_FOUND: {missing}"));
    let unknown_pipe = admin(&fake, Method::GET, &format!("{}/pipes/{missing}", service_path()), "");
    assert_error(&unknown_pipe, 404, &format!("NOT_FOUND: {missing}"));
}

#[test]
fn a_created_pipe_is_provisioning_listed_and_never_echoes_credentials() {
    let fake = seeded();
    let body = json!({
        "name": "events",
        "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092", "topics": "t",
            "authentication": "PLAIN", "credentials": {"username": "u", "password": "PASSWORD-MARKER"}}},
        "destination": {"database": "default", "table": "events", "managedTable": true,
            "columns": [{"name": "id", "type": "String"}]}
    });
    fake.advance(Duration::from_secs(90));
    let response = admin(&fake, Method::POST, &format!("{}/pipes", service_path()), &body.to_string());
    assert_eq!(response.status(), 200, "{}", text(&response));
    assert!(!text(&response).contains("PASSWORD-MARKER"));
    let created = &json_of(&response)["result"];
    assert_eq!(created["state"], "Provisioning");
    assert_eq!(created["createdAt"], "2026-01-01T00:01:30Z");
    assert_eq!(created["serviceId"], SERVICE);
    let id = created["id"].as_str().unwrap();
    let listed = admin(&fake, Method::GET, &format!("{}/pipes", service_path()), "");
    assert!(!text(&listed).contains("PASSWORD-MARKER"));
    assert_eq!(json_of(&listed)["result"][1]["id"], id);
    assert!(fake.set_pipe_state(org(), service(), id.parse().unwrap(), PipeState::Running));
    let got = admin(&fake, Method::GET, &format!("{}/pipes/{id}", service_path()), "");
    assert_eq!(json_of(&got)["result"]["state"], "Running");
}

/// The fake builds its answers from its own record, in the contract's names written by hand
/// here: a create answers the management OpenAPI's `Pipe` (the `PipePostRequest` members it
/// keeps, the kind's `PipeKafkaSource` less credentials, the server's `id`, `serviceId`,
/// `state`, `createdAt`, `updatedAt`), so a client model with a wrong wire name fails against
/// it, and what the contract has no place for (an unknown member, `validateSamples`,
/// `destination.roles`, every credential) is not kept.
#[test]
fn a_created_pipe_answers_exactly_the_contracts_pipe() {
    let fake = seeded();
    let body = json!({
        "name": "orders",
        "colour": "blue",
        "source": {
            "validateSamples": true,
            "kafka": {
                "type": "confluent", "format": "AvroConfluent", "brokers": "b:9092", "topics": "orders",
                "consumerGroup": "pipe-orders", "authentication": "PLAIN",
                "credentials": {"username": "u", "password": "PASSWORD-MARKER"},
                "offset": {"strategy": "from_timestamp", "timestamp": "2021-01-01T00:00"},
                "schemaRegistry": {"url": "https://registry.example.invalid/schemas/ids/7", "authentication": "PLAIN",
                    "credentials": {"username": "r", "password": "REGISTRY-MARKER"}},
                "notInTheContract": 1
            }
        },
        "destination": {"database": "default", "table": "orders", "managedTable": true, "roles": ["writer"],
            "columns": [{"name": "id", "type": "UInt64"}]},
        "fieldMappings": [{"sourceField": "order_id", "destinationField": "id"}],
        "scaling": {"replicas": 2, "concurrency": 1},
        "settings": {"streaming_max_insert_wait_ms": 500}
    });
    let response = admin(&fake, Method::POST, &format!("{}/pipes", service_path()), &body.to_string());
    assert_eq!(response.status(), 200, "{}", text(&response));
    let created = json_of(&response)["result"].clone();
    let id = created["id"].as_str().expect("the server gives the id").to_owned();
    let expected = |state: &str, updated_at: &str| {
        json!({
            "id": id,
            "serviceId": SERVICE,
            "name": "orders",
            "state": state,
            "scaling": {"replicas": 2, "concurrency": 1},
            "source": {"kafka": {
                "type": "confluent", "format": "AvroConfluent", "brokers": "b:9092", "topics": "orders",
                "consumerGroup": "pipe-orders", "authentication": "PLAIN",
                "offset": {"strategy": "from_timestamp", "timestamp": "2021-01-01T00:00"},
                "schemaRegistry": {"url": "https://registry.example.invalid/schemas/ids/7", "authentication": "PLAIN"}
            }},
            "destination": {"database": "default", "table": "orders", "managedTable": true,
                "columns": [{"name": "id", "type": "UInt64"}]},
            "fieldMappings": [{"sourceField": "order_id", "destinationField": "id"}],
            "settings": {"streaming_max_insert_wait_ms": 500},
            "createdAt": "2026-01-01T00:00:00Z",
            "updatedAt": updated_at
        })
    };
    assert_eq!(created, expected("Provisioning", "2026-01-01T00:00:00Z"));
    let got = admin(&fake, Method::GET, &format!("{}/pipes/{id}", service_path()), "");
    assert_eq!(json_of(&got)["result"], created, "a get answers what the create answered");
    fake.advance(Duration::from_secs(30));
    let got = admin(&fake, Method::GET, &format!("{}/pipes/{id}", service_path()), "");
    assert_eq!(json_of(&got)["result"], expected("Running", "2026-01-01T00:00:30Z"));
    assert_eq!(fake.pipes_json(org(), service())[1], expected("Running", "2026-01-01T00:00:30Z"));
}

/// The same for a key: `ApiKeyPostResponse` with exactly `key`, `keyId`, `keySecret`, and the
/// key exactly the contract's `ApiKey` members the fake fills, whatever else the body carried.
#[test]
fn a_created_key_answers_exactly_the_contracts_api_key() {
    let fake = seeded();
    let body = json!({
        "name": "ci", "roles": ["developer"], "state": "disabled", "expireAt": "2027-01-01T00:00:00Z",
        "ipAccessList": [{"source": "10.0.0.0/8", "description": "vpn"}], "colour": "blue"
    });
    let response = admin(&fake, Method::POST, &format!("/v1/organizations/{ORG}/keys"), &body.to_string());
    assert_eq!(response.status(), 200, "{}", text(&response));
    let result = json_of(&response)["result"].clone();
    let members: Vec<&str> = result.as_object().unwrap().keys().map(String::as_str).collect();
    assert_eq!(members, ["key", "keyId", "keySecret"]);
    let key_id = result["keyId"].as_str().unwrap();
    assert_eq!(key_id.len(), 20);
    let expected = json!({
        "id": result["key"]["id"],
        "name": "ci",
        "state": "disabled",
        "roles": ["developer"],
        "keySuffix": &key_id[16..],
        "createdAt": "2026-01-01T00:00:00Z",
        "expireAt": "2027-01-01T00:00:00Z",
        "ipAccessList": [{"source": "10.0.0.0/8", "description": "vpn"}]
    });
    assert!(result["key"]["id"].as_str().is_some_and(|id| uuid::Uuid::try_parse(id).is_ok()));
    assert_eq!(result["key"], expected);
    let id = result["key"]["id"].as_str().unwrap();
    let got = admin(&fake, Method::GET, &format!("/v1/organizations/{ORG}/keys/{id}"), "");
    assert_eq!(json_of(&got)["result"], expected);

    // An update changes the record by the contract's names: `expireAt: ""` means never.
    let patch =
        json!({"state": "enabled", "expireAt": "", "assignedRoleIds": ["00000000-0000-4000-8000-000000000001"]});
    let updated = admin(&fake, Method::PATCH, &format!("/v1/organizations/{ORG}/keys/{id}"), &patch.to_string());
    let mut expected = expected;
    let key = expected.as_object_mut().unwrap();
    key.insert("state".into(), json!("enabled"));
    key.remove("expireAt");
    key.insert("assignedRoles".into(), json!([{"roleId": "00000000-0000-4000-8000-000000000001"}]));
    assert_eq!(json_of(&updated)["result"], expected);
}

/// A pipe seeded as JSON answers exactly as seeded: quantity strings, fields beyond this
/// crate's models and all.
#[test]
fn a_pipe_seeded_as_json_answers_as_seeded() {
    let fake = seeded();
    let seeded = json!({
        "id": "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19009", "serviceId": SERVICE, "name": "raw", "state": "Resync",
        "scaling": {"replicas": 1, "replicaCpuMillicores": "500m", "replicaMemoryGb": "2Gi"},
        "source": {"pubsub": {"subscription": "s"}}, "newerField": {"a": 1}
    });
    fake.seed_pipe_json(org(), service(), seeded.clone());
    let got = admin(&fake, Method::GET, &format!("{}/pipes/2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19009", service_path()), "");
    assert_eq!(json_of(&got)["result"], seeded);
}

#[test]
fn a_create_pipe_body_with_two_source_kinds_is_refused() {
    let fake = seeded();
    let body = json!({"name": "x", "source": {"kinesis": {"streamName": "s", "region": "r"}, "kafka": {"brokers": "b", "topics": "t"}},
        "destination": {"database": "d", "table": "t", "managedTable": false}});
    let response = admin(&fake, Method::POST, &format!("{}/pipes", service_path()), &body.to_string());
    assert_eq!(response.status(), 400);
    assert_eq!(
        json_of(&response)["error"],
        "BAD_REQUEST: invalid request: source: must have exactly one source kind, found 2"
    );
    assert_eq!(fake.pipes(org(), service()).len(), 1);
}

/// The fake's own checks, from the contract (`PipePostRequest`): raw bodies that bypass the
/// client's validation. Each documented shape is accepted; each broken rule is refused with the
/// field it names.
#[test]
fn create_pipe_bodies_are_checked_as_the_service_checks_them() {
    let fake = seeded();
    let path = format!("{}/pipes", service_path());
    let destination = json!({"table": "events", "managedTable": true, "columns": [{"name": "a", "type": "String"}]});
    let accepted = [
        // Azure Event Hubs: PLAIN with a connection string, no destination.database.
        json!({"name": "hubs", "source": {"kafka": {"type": "azureeventhub", "format": "JSONEachRow",
            "brokers": "ns.servicebus.windows.net:9093", "topics": "events", "authentication": "PLAIN",
            "credentials": {"connectionString": "Endpoint=sb://ns/;SharedAccessKey=x"}}}, "destination": destination}),
        // Azure Blob Storage: a container and a path, no url.
        json!({"name": "blobs", "source": {"objectStorage": {"type": "azureblobstorage", "format": "Parquet",
            "azureContainerName": "logs", "path": "2026/*.parquet", "authentication": "CONNECTION_STRING",
            "connectionString": "DefaultEndpointsProtocol=https;AccountKey=x"}}, "destination": destination}),
        // S3 without destination.database.
        json!({"name": "s3", "source": {"objectStorage": {"type": "s3", "format": "CSVWithNames",
            "url": "https://bucket.s3.amazonaws.com/*.csv"}}, "destination": destination}),
        json!({"name": "clicks", "source": {"kinesis": {"format": "JSONEachRow", "streamName": "clicks",
            "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_ROLE", "iamRole": "arn:aws:iam::1:role/r"}},
            "destination": destination}),
        json!({"name": "cdc", "source": {"postgres": {"host": "db", "port": 5432, "database": "shop",
            "credentials": {"username": "u", "password": "p"}, "settings": {"replicationMode": "cdc"},
            "tableMappings": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "orders"}]}},
            "destination": {"database": "shop"}}),
        // CDC only, with the replication slot it may name.
        json!({"name": "cdc-only", "source": {"postgres": {"host": "db", "port": 5432, "database": "shop",
            "credentials": {"username": "u", "password": "p"},
            "settings": {"replicationMode": "cdc_only", "replicationSlotName": "pipes_slot", "snapshotNumRowsPerPartition": 1000},
            "tableMappings": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "orders"}]}},
            "destination": {"database": "shop"}}),
        json!({"name": "avro", "source": {"kafka": {"type": "confluent", "format": "AvroConfluent", "brokers": "b:9092",
            "topics": "t", "authentication": "PLAIN", "credentials": {"username": "u", "password": "p"},
            "schemaRegistry": {"url": "https://psrc-aa00.us-east-2.aws.confluent.cloud/schemas/ids/100004"}}},
            "destination": destination}),
    ];
    for body in &accepted {
        let response = admin(&fake, Method::POST, &path, &body.to_string());
        assert_eq!(response.status(), 200, "{body}: {}", text(&response));
    }
    let kafka = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut body = json!({"name": "k", "source": {"kafka": {"type": "kafka", "format": "Avro", "brokers": "b:9092",
            "topics": "t", "authentication": "SCRAM-SHA-512", "credentials": {"username": "u", "password": "p"}}},
            "destination": destination.clone(), "scaling": {"replicas": 2}});
        change(&mut body);
        body
    };
    let postgres = |change: &dyn Fn(&mut serde_json::Value)| {
        let mut body = accepted[4].clone();
        change(&mut body);
        body
    };
    let refused = [
        (kafka(&|b| b["name"] = json!("")), "name: must not be empty"),
        (kafka(&|b| b["source"]["kafka"]["type"] = json!("kafkaa")), "source.kafka.type: must be one of"),
        (kafka(&|b| b["source"]["kafka"]["format"] = json!("CSV")), "source.kafka.format: must be one of"),
        (
            kafka(&|b| b["source"]["kafka"]["authentication"] = json!("PLAN")),
            "source.kafka.authentication: must be one of",
        ),
        (
            kafka(&|b| b["source"]["kafka"]["credentials"] = json!({"username": "u"})),
            "source.kafka.credentials.password: is required",
        ),
        (kafka(&|b| b["scaling"]["replicas"] = json!(41)), "scaling.replicas: must be an integer from 1 to 40"),
        (kafka(&|b| b["scaling"]["replicas"] = json!(0)), "scaling.replicas: must be an integer from 1 to 40"),
        (kafka(&|b| b["destination"] = json!({"database": "d"})), "destination.table: is required"),
        (
            json!({"name": "blobs", "source": {"objectStorage": {"type": "azureblobstorage", "format": "Parquet"}}, "destination": destination}),
            "source.objectStorage.azureContainerName: is required",
        ),
        (
            json!({"name": "s3", "source": {"objectStorage": {"type": "s3", "format": "Parquet"}}, "destination": destination}),
            "source.objectStorage.url: is required",
        ),
        (
            json!({"name": "x", "source": {"kinesis": {"format": "Protobuf", "streamName": "s", "region": "r",
                "iteratorType": "LATEST", "authentication": "IAM_USER"}}, "destination": destination}),
            "source.kinesis.format: must be one of",
        ),
        (
            json!({"name": "x", "source": {"postgres": {"host": "db", "port": 70000, "database": "d", "tableMappings": []}},
                "destination": {}}),
            "source.postgres.port: must be an integer from 1 to 65535",
        ),
        // PipePostObjectStorageSource: connectionString and serviceAccountKey "Required when
        // authentication is ..."; PipePostKinesisSource.iamRole "Required if IAM_ROLE is used".
        (
            json!({"name": "gcs", "source": {"objectStorage": {"type": "gcs", "format": "Parquet", "url": "https://storage.googleapis.com/b/*",
                "authentication": "SERVICE_ACCOUNT"}}, "destination": destination}),
            "source.objectStorage.serviceAccountKey: is required",
        ),
        (
            json!({"name": "blobs", "source": {"objectStorage": {"type": "azureblobstorage", "format": "Parquet",
                "azureContainerName": "logs", "authentication": "CONNECTION_STRING"}}, "destination": destination}),
            "source.objectStorage.connectionString: is required",
        ),
        (
            json!({"name": "x", "source": {"kinesis": {"format": "Avro", "streamName": "s", "region": "r",
                "iteratorType": "LATEST", "authentication": "IAM_ROLE"}}, "destination": destination}),
            "source.kinesis.iamRole: is required",
        ),
        (
            kafka(&|b| b["source"]["kafka"]["schemaRegistry"] = json!({"url": "http://registry:8081"})),
            "source.kafka.schemaRegistry.url: must be an https URL",
        ),
        (
            postgres(&|b| b["source"]["postgres"]["settings"] = json!({"snapshotNumRowsPerPartition": 999})),
            "source.postgres.settings.snapshotNumRowsPerPartition: must be an integer from 1000",
        ),
        (
            postgres(&|b| b["source"]["postgres"]["settings"] = json!({"pullBatchSize": 0})),
            "source.postgres.settings.pullBatchSize: must be an integer from 1",
        ),
        (
            postgres(&|b| {
                b["source"]["postgres"]["settings"] = json!({"replicationMode": "cdc", "replicationSlotName": "s"})
            }),
            "source.postgres.settings.replicationSlotName: is only valid for cdc_only mode",
        ),
    ];
    let before = fake.pipes(org(), service()).len();
    for (body, error) in refused {
        let response = admin(&fake, Method::POST, &path, &body.to_string());
        assert_eq!(response.status(), 400, "{body}");
        let message = json_of(&response)["error"].as_str().unwrap().to_owned();
        assert!(message.starts_with(&format!("BAD_REQUEST: invalid request: {error}")), "{message}");
    }
    assert_eq!(fake.pipes(org(), service()).len(), before, "nothing refused was created");
}

/// The formats each source kind allows and the authentications each Kafka and object storage
/// type allows, as the management OpenAPI states them (`PipePostKafkaSource`,
/// `PipePostObjectStorageSource`, `PipePostKinesisSource` and their descriptions), written here
/// by hand: the fake accepts each allowed one and refuses each other one, naming the source.
#[test]
fn each_source_kind_and_type_takes_only_its_formats_and_authentications() {
    let fake = seeded();
    let path = format!("{}/pipes", service_path());
    let destination = json!({"table": "events", "managedTable": true, "columns": [{"name": "a", "type": "String"}]});
    let post = |source: Value| {
        let body = json!({"name": "p", "source": source, "destination": destination});
        let response = admin(&fake, Method::POST, &path, &body.to_string());
        let message = if response.status() == 200 { None } else { Some(json_of(&response)["error"].to_string()) };
        (response.status().as_u16(), message, body)
    };
    let every_credential = json!({"username": "u", "password": "p", "accessKeyId": "AKIA", "secretKey": "s",
        "connectionString": "Endpoint=sb://ns/;SharedAccessKey=k", "certificate": "CERT", "privateKey": "KEY"});
    let kafka_methods = ["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"];
    let kafka_types: [(&str, &[&str]); 8] = [
        ("kafka", &["PLAIN", "SCRAM-SHA-256", "SCRAM-SHA-512", "MUTUAL_TLS"]),
        ("msk", &["SCRAM-SHA-512", "IAM_ROLE", "IAM_USER", "MUTUAL_TLS"]),
        ("gcmk", &["PLAIN", "MUTUAL_TLS"]),
        ("confluent", &["PLAIN", "MUTUAL_TLS"]),
        ("warpstream", &["PLAIN"]),
        ("azureeventhub", &["PLAIN"]),
        ("redpanda", &["SCRAM-SHA-256", "SCRAM-SHA-512", "MUTUAL_TLS"]),
        ("dokafka", &["SCRAM-SHA-256", "MUTUAL_TLS"]),
    ];
    for (kind, allowed) in kafka_types {
        for method in kafka_methods {
            let (status, message, body) = post(json!({"kafka": {"type": kind, "format": "JSONEachRow",
                "brokers": "b:9092", "topics": "t", "authentication": method, "iamRole": "arn:aws:iam::1:role/r",
                "credentials": every_credential}}));
            if allowed.contains(&method) {
                assert_eq!(status, 200, "{body}: {message:?}");
            } else {
                let expected = format!(
                    "BAD_REQUEST: invalid request: source.kafka.authentication: must be one of {} for type {kind}",
                    allowed.join(", ")
                );
                assert_eq!((status, message), (400, Some(format!("\"{expected}\""))), "{body}");
            }
        }
    }
    let storage_methods = ["IAM_ROLE", "IAM_USER", "CONNECTION_STRING", "SERVICE_ACCOUNT"];
    let storage_types: [(&str, &[&str]); 6] = [
        ("s3", &["IAM_ROLE", "IAM_USER"]),
        ("gcs", &["IAM_USER", "SERVICE_ACCOUNT"]),
        ("dospaces", &["IAM_USER"]),
        ("azureblobstorage", &["CONNECTION_STRING"]),
        ("cloudflarer2", &["IAM_USER"]),
        ("ovhobjectstorage", &["IAM_USER"]),
    ];
    for (kind, allowed) in storage_types {
        let storage = |method: Option<&str>| {
            let mut storage = json!({"type": kind, "format": "Parquet", "url": "https://bucket.example.com/*.parquet",
                "azureContainerName": "logs", "iamRole": "arn:aws:iam::1:role/r",
                "accessKey": {"accessKeyId": "AKIA", "secretKey": "s"},
                "connectionString": "DefaultEndpointsProtocol=https;AccountKey=k", "serviceAccountKey": "eyJ9"});
            if let Some(method) = method {
                storage["authentication"] = json!(method);
            }
            json!({"objectStorage": storage})
        };
        // No authentication: public files, for every type.
        let (status, message, _) = post(storage(None));
        assert_eq!(status, 200, "{kind}: {message:?}");
        for method in storage_methods {
            let (status, message, body) = post(storage(Some(method)));
            if allowed.contains(&method) {
                assert_eq!(status, 200, "{body}: {message:?}");
            } else {
                let rule = if allowed.is_empty() {
                    format!("must be absent for type {kind}")
                } else {
                    format!("must be one of {} for type {kind}", allowed.join(", "))
                };
                let expected = format!("BAD_REQUEST: invalid request: source.objectStorage.authentication: {rule}");
                assert_eq!((status, message), (400, Some(format!("\"{expected}\""))), "{body}");
            }
        }
    }
    // Each kind's formats; every format of any kind is tried against each.
    let formats = [
        "JSONEachRow",
        "JSONAsObject",
        "CSV",
        "CSVWithNames",
        "TabSeparated",
        "TabSeparatedWithNames",
        "Parquet",
        "Avro",
        "AvroConfluent",
        "Protobuf",
    ];
    let kinds: [(&str, &[&str], Value); 3] = [
        (
            "kafka",
            &["JSONEachRow", "Avro", "AvroConfluent", "Protobuf"],
            json!({"type": "confluent",
            "brokers": "b:9092", "topics": "t", "authentication": "PLAIN", "credentials": {"username": "u", "password": "p"}}),
        ),
        (
            "objectStorage",
            &[
                "JSONEachRow",
                "JSONAsObject",
                "CSV",
                "CSVWithNames",
                "TabSeparated",
                "TabSeparatedWithNames",
                "Parquet",
                "Avro",
            ],
            json!({"type": "s3", "url": "https://bucket.example.com/*"}),
        ),
        (
            "kinesis",
            &["JSONEachRow", "Avro", "AvroConfluent"],
            json!({"streamName": "s", "region": "us-east-1",
            "iteratorType": "LATEST", "authentication": "IAM_USER", "accessKey": {"accessKeyId": "AKIA", "secretKey": "s"}}),
        ),
    ];
    for (kind, allowed, mut source) in kinds {
        for format in formats {
            source["format"] = json!(format);
            let (status, message, body) = post(json!({ kind: source }));
            if allowed.contains(&format) {
                assert_eq!(status, 200, "{body}: {message:?}");
            } else {
                assert_eq!(status, 400, "{body}");
                let expected = format!("BAD_REQUEST: invalid request: source.{kind}.format: must be one of");
                assert!(message.as_deref().unwrap_or_default().starts_with(&format!("\"{expected}")), "{message:?}");
            }
        }
    }
    // A schema registry authenticates PLAIN (PipeMutateKafkaSchemaRegistry.authentication).
    let (status, message, _) =
        post(json!({"kafka": {"type": "confluent", "format": "AvroConfluent", "brokers": "b:9092",
        "topics": "t", "authentication": "PLAIN", "credentials": {"username": "u", "password": "p"},
        "schemaRegistry": {"url": "https://registry.example.com", "authentication": "SCRAM-SHA-512"}}}));
    assert_eq!(
        (status, message.as_deref()),
        (
            400,
            Some("\"BAD_REQUEST: invalid request: source.kafka.schemaRegistry.authentication: must be one of PLAIN\"")
        )
    );
}

#[test]
fn an_idle_service_fails_pipe_calls_with_424_but_reads_itself() {
    let fake = seeded();
    fake.set_service_idle(org(), service(), true);
    for path in [format!("{}/pipes", service_path()), format!("{}/pipesReversePrivateEndpoints", service_path())] {
        let response = admin(&fake, Method::GET, &path, "");
        assert_error(&response, 424, "FAILED_DEPENDENCY: Service is not running. Current state: idle");
    }
    assert_eq!(admin(&fake, Method::GET, &service_path(), "").status(), 200);
    fake.set_service_idle(org(), service(), false);
    assert_eq!(admin(&fake, Method::GET, &format!("{}/pipes", service_path()), "").status(), 200);
}

// ---- alerts ----------------------------------------------------------------------------------

fn alerts_fake() -> Fake {
    let fake = seeded();
    for i in 2..=5 {
        fake.seed_alert(Alert::new(AlertId::new(format!("a{i}"))));
    }
    fake
}

#[test]
fn alerts_page_like_newer_servers() {
    let fake = alerts_fake();
    let bearer = Some("Bearer token-1");
    let page = call(&fake, Method::GET, "/api/v2/alerts?limit=2&offset=3", bearer, "");
    assert_eq!(page.status(), 200);
    let body = json_of(&page);
    assert_eq!(body["data"].as_array().unwrap().iter().map(|a| a["id"].clone()).collect::<Vec<_>>(), ["a4", "a5"]);
    assert_eq!(body["meta"], json!({"total": 5, "limit": 2, "offset": 3}));
    assert_eq!(page.headers()["x-total-count"], "5");
    for query in ["limit=0", "limit=1001", "limit=x", "offset=-1"] {
        let refused = call(&fake, Method::GET, &format!("/api/v2/alerts?{query}"), bearer, "");
        assert_eq!(refused.status(), 400, "{query}");
        assert!(json_of(&refused)["message"].is_string(), "{query}");
    }
}

#[test]
fn alerts_ignore_paging_like_older_servers_and_need_the_token() {
    let fake = alerts_fake();
    fake.set_alerting_version(AlertingVersion::Older);
    let all = call(&fake, Method::GET, "/api/v2/alerts?limit=2", Some("Bearer token-1"), "");
    let body = json_of(&all);
    assert_eq!(body["data"].as_array().unwrap().len(), 5);
    assert!(body.get("meta").is_none());
    for authorization in [None, Some("Bearer wrong"), Some("Basic dG9rZW4tMQ==")] {
        let refused = call(&fake, Method::GET, "/api/v2/alerts", authorization, "");
        assert_eq!((refused.status().as_u16(), text(&refused)), (401, "Unauthorized".to_owned()));
    }
}

// ---- faults ----------------------------------------------------------------------------------

#[test]
fn the_next_n_requests_get_the_fault_then_normal_answers() {
    let fake = seeded();
    fake.inject(FaultRule::next(2, Fault::rate_limited("3.2")));
    for _ in 0..2 {
        let limited = admin(&fake, Method::GET, &service_path(), "");
        assert_eq!(limited.status(), 429);
        assert_eq!(limited.headers()["x-ratelimit-reset"], "3.2");
        assert_eq!(text(&limited), r#"{"error":"TOO_MANY_REQUESTS"}"#);
    }
    assert_eq!(admin(&fake, Method::GET, &service_path(), "").status(), 200);
}

#[test]
fn path_and_method_rules_and_presets() {
    let fake = seeded();
    fake.inject(FaultRule::path_ends_with("/pipes", Fault::bad_gateway_html()).method(Method::POST).times(1));
    fake.inject(FaultRule::path_ends_with("/pipesReversePrivateEndpoints", Fault::unavailable("7")));
    // The GET on /pipes does not match the POST rule.
    assert_eq!(admin(&fake, Method::GET, &format!("{}/pipes", service_path()), "").status(), 200);
    let html = admin(&fake, Method::POST, &format!("{}/pipes", service_path()), "{}");
    assert_eq!(html.status(), 502);
    assert!(text(&html).contains("<h1>502 Bad Gateway</h1>"));
    // Used up after one.
    assert_eq!(admin(&fake, Method::POST, &format!("{}/pipes", service_path()), "{}").status(), 400);
    for _ in 0..3 {
        let busy = admin(&fake, Method::GET, &format!("{}/pipesReversePrivateEndpoints", service_path()), "");
        assert_eq!((busy.status().as_u16(), &busy.headers()["retry-after"]), (503, &"7".parse().unwrap()));
    }
    fake.clear_faults();
    assert_eq!(
        admin(&fake, Method::GET, &format!("{}/pipesReversePrivateEndpoints", service_path()), "").status(),
        200
    );
    fake.inject(FaultRule::next(1, Fault::unauthorized()));
    assert_eq!(text(&admin(&fake, Method::GET, &service_path(), "")), "Unauthorized");
}

#[test]
fn a_fault_after_handling_takes_effect_and_a_delay_answers_normally() {
    let fake = seeded();
    fake.inject(FaultRule::next(1, Fault::status(504).body("upstream request timeout").after_handling()));
    let body = json!({"name": "late",
        "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092", "topics": "t",
            "authentication": "PLAIN", "credentials": {"username": "u", "password": "p"}}},
        "destination": {"database": "d", "table": "t", "managedTable": true, "columns": [{"name": "id", "type": "String"}]}});
    let lost = admin(&fake, Method::POST, &format!("{}/pipes", service_path()), &body.to_string());
    assert_eq!((lost.status().as_u16(), text(&lost)), (504, "upstream request timeout".to_owned()));
    assert_eq!(fake.pipes(org(), service()).len(), 2, "the create took effect");

    fake.inject(FaultRule::next(1, Fault::delay(Duration::from_millis(10))));
    assert_eq!(json_of(&admin(&fake, Method::GET, &service_path(), ""))["result"]["name"], "svc");
}

// ---- determinism and recording ---------------------------------------------------------------

fn created_key(fake: &Fake) -> Value {
    json_of(&admin(fake, Method::POST, &format!("/v1/organizations/{ORG}/keys"), r#"{"name":"k","roles":["admin"]}"#))
}

#[test]
fn the_same_seed_gives_the_same_ids_secrets_and_request_ids() {
    let (a, b, c) = (Fake::with_seed(7), Fake::with_seed(7), Fake::with_seed(8));
    for fake in [&a, &b, &c] {
        fake.seed_key(org(), "admin-id", "admin-secret", [KeyRole::Admin]);
    }
    let (first, second, other) = (created_key(&a), created_key(&b), created_key(&c));
    assert_eq!(first, second);
    assert_ne!(first["result"]["keySecret"], other["result"]["keySecret"]);
    assert_ne!(first["requestId"], other["requestId"]);
}

#[test]
fn every_request_is_recorded_and_debug_shows_no_credentials_or_body() {
    let fake = seeded();
    admin(&fake, Method::POST, &format!("/v1/organizations/{ORG}/keys"), r#"{"name":"BODY-MARKER","roles":["admin"]}"#);
    call(&fake, Method::GET, "/api/v2/alerts?limit=1", Some("Bearer token-1"), "");
    let seen = fake.requests();
    assert_eq!(seen.len(), 2);
    assert_eq!(
        (seen[0].method.clone(), seen[0].path.as_str()),
        (Method::POST, format!("/v1/organizations/{ORG}/keys").as_str())
    );
    assert_eq!(seen[0].json().unwrap()["name"], "BODY-MARKER");
    assert_eq!(seen[1].query.as_deref(), Some("limit=1"));
    assert_eq!(seen[1].header("authorization"), Some("Bearer token-1"));
    let shown = format!("{seen:?} {fake:?}");
    for secret in ["admin-secret", "token-1", "BODY-MARKER", &basic("admin-id", "admin-secret")] {
        assert!(!shown.contains(secret), "{shown}");
    }
    fake.clear_requests();
    assert_eq!(fake.request_count(), 0);
}

#[test]
fn the_clock_moves_after_each_request_when_asked() {
    let fake = pipe_api_fake::Fake::demo();
    let start = fake.now();
    let get = || {
        let request = http::Request::get("http://127.0.0.1/api/v2/alerts").body(Vec::new()).unwrap();
        fake.handle(request)
    };
    get();
    assert_eq!(fake.now(), start, "off by default");
    fake.advance_per_request(std::time::Duration::from_secs(5));
    get();
    get();
    assert_eq!(fake.now(), start + std::time::Duration::from_secs(10));
}

/// `PipePatchRequest` carries no `type`, so the service checks an update's `authentication`
/// against the type the pipe has: the create tables (`PipePostKafkaSource.authentication`,
/// `PipePostObjectStorageSource.authentication`) apply to the patch.
#[test]
fn an_update_takes_only_the_authentications_the_stored_type_allows() {
    let fake = seeded();
    let path = format!("{}/pipes", service_path());
    let body = json!({"name": "c", "destination": {"table": "t", "managedTable": true},
        "source": {"kafka": {"type": "confluent", "format": "JSONEachRow", "brokers": "b:9092", "topics": "t",
            "authentication": "PLAIN", "credentials": {"username": "u", "password": "p"}}}});
    let created = admin(&fake, Method::POST, &path, &body.to_string());
    assert_eq!(created.status(), 200, "{}", text(&created));
    let id = json_of(&created)["result"]["id"].as_str().unwrap().to_owned();
    let patch = |method: &str| {
        let patch = json!({"source": {"kafka": {"authentication": method, "iamRole": "arn:aws:iam::1:role/r",
            "credentials": {"username": "u", "password": "p"}}}});
        admin(&fake, Method::PATCH, &format!("{path}/{id}"), &patch.to_string())
    };
    let refused = patch("IAM_ROLE");
    assert_eq!(refused.status(), 400);
    assert_eq!(
        json_of(&refused)["error"],
        "BAD_REQUEST: invalid request: source.kafka.authentication: must be one of PLAIN, MUTUAL_TLS for type confluent"
    );
    let read = admin(&fake, Method::GET, &format!("{path}/{id}"), "");
    assert_eq!(
        json_of(&read)["result"]["source"]["kafka"]["authentication"],
        "PLAIN",
        "a refused patch changes nothing"
    );
    let accepted = patch("MUTUAL_TLS");
    assert_eq!(accepted.status(), 200, "{}", text(&accepted));
    assert_eq!(json_of(&accepted)["result"]["source"]["kafka"]["authentication"], "MUTUAL_TLS");
}

#[test]
fn serve_on_a_port_serves_there_and_a_taken_port_is_the_binds_error() {
    let first = Fake::demo().serve_on(0).expect("a free port");
    let port = first.address().port();
    assert_ne!(port, 0);
    assert_eq!(first.base_url(), format!("http://127.0.0.1:{port}"));
    // The port is held by the first server: a second one on it fails to bind, it does not share.
    let error = Fake::demo().serve_on(port).expect_err("the port is taken");
    assert_eq!(error.kind(), std::io::ErrorKind::AddrInUse);
}
