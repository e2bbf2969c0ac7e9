//! `export()` as the pure function it is: current states written as the server answers them
//! (no credentials, the server's own members), exported, filled in, and planned to no changes.

use pipe_api_plan::types::{Alert, Pipe, ReversePrivateEndpoint};
use pipe_api_plan::{Current, DesiredState, ExportError, ExportOptions, PlanOptions, export, plan};
use serde_json::{Value, json};

const ORG: &str = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";
const SERVICE: &str = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002";
const ENDPOINT_ID: &str = "7d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

fn pipe(id: u8, name: &str, state: &str, source: Value, destination: Value) -> Pipe {
    serde_json::from_value(json!({
        "id": format!("0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d{id:02x}"), "serviceId": SERVICE, "name": name,
        "state": state, "source": source, "destination": destination,
        "scaling": {"replicas": 1, "replicaCpuMillicores": "500m", "replicaMemoryGb": "2Gi"},
        "createdAt": "2026-01-01T00:00:00Z", "updatedAt": "2026-01-02T00:00:00Z"
    }))
    .unwrap()
}

fn table(name: &str) -> Value {
    json!({"database": "default", "table": name, "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]})
}

/// A pipe of every source kind, an endpoint a Kafka pipe reaches its brokers through, and an
/// alert, as the services answer them.
fn current() -> Current {
    let endpoint: ReversePrivateEndpoint = serde_json::from_value(json!({
        "id": ENDPOINT_ID, "serviceId": SERVICE, "description": "ingest brokers", "type": "VPC_ENDPOINT_SERVICE",
        "vpcEndpointServiceName": "com.amazonaws.vpce.eu-west-1.vpce-svc-0ingest", "endpointId": "vpce-0abc",
        "dnsNames": ["vpce-0abc.example.internal"], "privateDnsNames": [], "status": "Ready"
    }))
    .unwrap();
    let pipes = vec![
        pipe(
            1,
            "orders",
            "Running",
            json!({"kafka": {"type": "msk", "format": "JSONEachRow",
            "brokers": "b-1:9096", "topics": "orders", "authentication": "SCRAM-SHA-512",
            "consumerGroup": "clickpipes-orders", "reversePrivateEndpointIds": [ENDPOINT_ID]}}),
            table("orders"),
        ),
        pipe(
            2,
            "archive",
            "Stopped",
            json!({"objectStorage": {"type": "s3", "format": "Parquet",
            "url": "https://archive.s3.amazonaws.com/*.parquet", "authentication": "IAM_USER"}}),
            table("archive"),
        ),
        pipe(
            3,
            "events",
            "Running",
            json!({"kinesis": {"format": "JSONEachRow", "streamName": "events",
            "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_USER"}}),
            table("events"),
        ),
        pipe(
            4,
            "replica",
            "Paused",
            json!({"postgres": {"host": "db.example.com", "port": 5432,
            "database": "shop", "settings": {"replicationMode": "cdc"},
            "tableMappings": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "orders"}]}}),
            json!({"database": "shop"}),
        ),
    ];
    let alert: Alert = serde_json::from_value(json!({
        "id": "65f1a2b3c4d5e6f708190300", "name": "orders stalled", "source": "saved_search",
        "savedSearchId": "65f1a2b3c4d5e6f708190200", "threshold": 1, "thresholdType": "below", "interval": "5m",
        "state": "OK", "channel": {"type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190001"},
        "teamId": "65f1a2b3c4d5e6f708190099", "createdAt": "2026-01-01T00:00:00Z"
    }))
    .unwrap();
    Current::new(vec![endpoint], pipes, Some(vec![alert]))
}

#[test]
fn an_export_plans_to_no_changes_once_its_secrets_are_filled() {
    let current = current();
    let exported = export(&current, &ExportOptions::default().alerts(true)).unwrap();
    let names: Vec<&str> = exported.secrets().iter().map(|s| s.name.as_str()).collect();
    assert_eq!(
        names,
        [
            "PIPE_ORDERS_KAFKA_USERNAME",
            "PIPE_ORDERS_KAFKA_PASSWORD",
            "PIPE_ARCHIVE_OBJECT_STORAGE_ACCESS_KEY_ID",
            "PIPE_ARCHIVE_OBJECT_STORAGE_SECRET_KEY",
            "PIPE_EVENTS_KINESIS_ACCESS_KEY_ID",
            "PIPE_EVENTS_KINESIS_SECRET_KEY",
            "PIPE_REPLICA_POSTGRES_USERNAME",
            "PIPE_REPLICA_POSTGRES_PASSWORD",
        ],
        "{exported}"
    );
    assert_eq!(exported.secrets()[1].path, "pipes[0].source.kafka.credentials.password");
    let text = exported.to_string();
    // What the server fills itself is left out; the endpoint is named by its description.
    for server_owned in [
        "\"id\": \"0b9e",
        ENDPOINT_ID,
        "serviceId",
        "createdAt",
        "updatedAt",
        "\"status\"",
        "dnsNames",
        "teamId",
        "\"OK\"",
    ] {
        assert!(!text.contains(server_owned), "{server_owned} in {text}");
    }
    assert!(
        text.contains(
            r#""reversePrivateEndpointIds": [
            "ingest brokers"
          ]"#
        ),
        "{text}"
    );
    assert!(text.contains(r#""replicaCpuMillicores": 500,"#), "{text}");

    let desired = DesiredState::from_json(&text, |name| Some(format!("value of {name}"))).unwrap();
    let (org, service) = (ORG.parse().unwrap(), SERVICE.parse().unwrap());
    let plan = plan(org, service, &desired, &current, &PlanOptions::default()).unwrap();
    assert!(plan.is_empty(), "{plan}");
    assert!(plan.notes().is_empty(), "{:?}", plan.notes());
}

#[test]
fn alerts_are_exported_only_when_asked_and_only_when_read() {
    let exported = export(&current(), &ExportOptions::default()).unwrap();
    assert!(exported.to_json().get("alerts").is_none());
    let mut unread = current();
    unread.alerts = None;
    let error = export(&unread, &ExportOptions::default().alerts(true)).unwrap_err();
    assert!(matches!(error, ExportError::AlertsNotRead), "{error}");
}

#[test]
fn a_secret_the_server_echoes_is_never_written_and_an_unknown_member_is_left_out_and_said() {
    let mut current = current();
    let echoed: Pipe = serde_json::from_value(json!({
        "id": "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4dff", "name": "blobs", "state": "Running",
        "source": {"objectStorage": {"type": "azureblobstorage", "format": "CSV", "azureContainerName": "c",
            "authentication": "CONNECTION_STRING", "connectionString": "AccountKey=echoed-by-a-server",
            "lastPolledAt": "2026-01-01T00:00:00Z"}},
        "destination": table("blobs")
    }))
    .unwrap();
    current.pipes = vec![echoed];
    let exported = export(&current, &ExportOptions::default()).unwrap();
    let text = exported.to_string();
    assert!(!text.contains("echoed-by-a-server"), "{text}");
    assert!(
        text.contains(
            r#""connectionString": {
            "env": "PIPE_BLOBS_OBJECT_STORAGE_CONNECTION_STRING"
          }"#
        ),
        "{text}"
    );
    assert!(!text.contains("lastPolledAt"), "{text}");
    assert_eq!(exported.notes().len(), 1, "{:?}", exported.notes());
    assert!(exported.notes()[0].contains("source.objectStorage.lastPolledAt"), "{:?}", exported.notes());
}

#[test]
fn two_resources_of_one_name_are_refused_naming_both() {
    let mut current = current();
    let mut twin = current.pipes[0].clone();
    twin.id = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4dee".parse().unwrap();
    current.pipes.push(twin);
    let error = export(&current, &ExportOptions::default()).unwrap_err();
    assert!(error.to_string().contains("pipe \"orders\" names two resources on the server"), "{error}");
}

#[test]
fn a_resource_the_reader_refuses_refuses_the_export_or_if_asked_is_left_out_and_said() {
    let mut current = current();
    current.pipes[1].destination.as_mut().unwrap().columns = None;
    // Left out silently, a later plan that prunes would delete it: refused unless asked.
    let refused = export(&current, &ExportOptions::default()).unwrap_err().to_string();
    assert_eq!(
        refused,
        "export: pipe \"archive\" does not read as a desired state: invalid request: `destination.columns` must have at least 1 element: leave it out with ExportOptions::leave_out_unreadable (a plan of the file that prunes then deletes it)"
    );
    let exported = export(&current, &ExportOptions::default().leave_out_unreadable(true)).unwrap();
    let names: Vec<&str> =
        exported.to_json()["pipes"].as_array().unwrap().iter().map(|p| p["name"].as_str().unwrap()).collect();
    assert_eq!(names, ["orders", "events", "replica"]);
    assert_eq!(
        exported.notes(),
        [
            "pipe \"archive\" does not read as a desired state: invalid request: `destination.columns` must have at least 1 element: left out"
        ]
    );
    assert!(exported.secrets().iter().all(|secret| secret.resource.name != "archive"));
}
