//! The newer source kinds as code: a desired state holding a MySQL, a MongoDB, a BigQuery and a
//! Pub/Sub pipe (secrets as `{"env": ...}` references) plans, applies against the fake, plans
//! empty, exports with its secrets as references again, and the export filled in plans empty;
//! a changed MySQL pipe plans the update its patch schema allows, with the members that schema
//! requires.

use pipe_api_ureq::plan::{DesiredState, ExportOptions, PlanOptions};
use serde_json::json;

use crate::export::{ids, setup};

/// A secret for each reference: a MongoDB URI where one is asked for.
fn lookup(name: &str) -> Option<String> {
    Some(if name.contains("URI") {
        format!("mongodb+srv://u:{name}@cluster0.example.net/mydb")
    } else {
        format!("secret-of-{name}")
    })
}

fn desired(mysql_batch: u32) -> serde_json::Value {
    json!({"pipes": [
        {"name": "orders", "source": {"mysql": {
            "type": "mysql", "host": "db.example.com", "port": 3306,
            "credentials": {"username": "replicator", "password": {"env": "MYSQL_PASSWORD"}},
            "settings": {"replicationMode": "cdc", "pullBatchSize": mysql_batch},
            "tableMappings": [{"sourceSchemaName": "shop", "sourceTable": "orders", "targetTable": "shop_orders"}]}},
         "destination": {"database": "shop"}},
        {"name": "users", "source": {"mongodb": {
            "uri": {"env": "MONGODB_URI"}, "readPreference": "secondaryPreferred",
            "settings": {"replicationMode": "cdc"},
            "tableMappings": [{"sourceDatabaseName": "mydb", "sourceCollection": "users", "targetTable": "mydb_users"}]}},
         "destination": {"database": "mongo"}},
        {"name": "sales", "source": {"bigquery": {
            "snapshotStagingPath": "gs://bucket/staging/",
            "credentials": {"serviceAccountFile": {"env": "BIGQUERY_KEY"}},
            "settings": {"replicationMode": "snapshot"},
            "tableMappings": [{"sourceDatasetName": "sales", "sourceTable": "orders", "targetTable": "sales_orders"}]}},
         "destination": {"database": "sales"}},
        {"name": "clicks", "source": {"pubsub": {
            "format": "JSONEachRow", "projectId": "p", "topic": "clicks", "authentication": "SERVICE_ACCOUNT",
            "seekType": "earliest", "ackDeadline": 60,
            "serviceAccountKey": {"serviceAccountFile": {"env": "PUBSUB_KEY"}}}},
         "destination": {"table": "clicks", "managedTable": true, "columns": [{"name": "id", "type": "String"}]}}
    ]})
}

#[test]
fn each_newer_kind_plans_applies_plans_empty_exports_and_plans_empty_again() {
    let (_fake, client) = setup();
    let (org, service_id) = ids();
    let service = client.service(org, service_id);
    let desired = DesiredState::from_json(&desired(1000).to_string(), lookup).unwrap();

    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert_eq!(plan.steps().len(), 4, "{plan}");
    let shown = plan.to_string();
    for secret in ["secret-of-", "u:MONGODB_URI@"] {
        assert!(!shown.contains(secret), "{shown}");
    }
    service.apply(&plan).unwrap();
    let again = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert!(again.is_empty(), "{again}");

    let exported = service.export(&ExportOptions::default()).unwrap();
    let text = exported.to_string();
    assert!(!text.contains("secret-of-") && !text.contains("u:MONGODB_URI@"), "{text}");
    let mut references: Vec<String> = exported.secrets().iter().map(|s| s.path.clone()).collect();
    references.sort();
    assert_eq!(
        references,
        [
            "pipes[0].source.mysql.credentials.password",
            "pipes[0].source.mysql.credentials.username",
            "pipes[1].source.mongodb.uri",
            "pipes[3].source.pubsub.serviceAccountKey.serviceAccountFile",
        ],
        "{text}"
    );
    let from_export = DesiredState::from_json(&text, lookup).unwrap();
    let after_export = service.plan(&from_export, &PlanOptions::default()).unwrap();
    assert!(after_export.is_empty(), "{after_export}");
}

#[test]
fn a_changed_mysql_pipe_is_updated_with_the_members_its_patch_schema_requires() {
    let (fake, client) = setup();
    let (org, service_id) = ids();
    let service = client.service(org, service_id);
    let first = DesiredState::from_json(&desired(1000).to_string(), lookup).unwrap();
    service.apply(&service.plan(&first, &PlanOptions::default()).unwrap()).unwrap();

    let changed = DesiredState::from_json(&desired(500).to_string(), lookup).unwrap();
    let plan = service.plan(&changed, &PlanOptions::default()).unwrap();
    assert_eq!(plan.steps().len(), 1, "{plan}");
    fake.clear_requests();
    service.apply(&plan).unwrap();
    let sent: Vec<serde_json::Value> = fake
        .requests()
        .iter()
        .filter(|r| r.method == http::Method::PATCH)
        .map(|r| serde_json::from_slice(&r.body).unwrap())
        .collect();
    assert_eq!(
        sent,
        [json!({"source": {"mysql": {"host": "db.example.com", "port": 3306, "settings": {"pullBatchSize": 500}}}})]
    );
    assert!(service.plan(&changed, &PlanOptions::default()).unwrap().is_empty());
}
