//! The newer source kinds in the fake, by raw requests and its manual clock: MySQL and MongoDB
//! live as CDC pipes (setup, snapshot, running, pause, resync, table mappings edited only while
//! paused), BigQuery as a snapshot that ends `Completed`, Pub/Sub as a stream; their bodies are
//! checked as the contract states (`PipeMutateMySQLSource`, `PipeMutateMongoDBSource`,
//! `PipeMutateBigQuerySource`, `PipePostPubSubSource`, `PipePatch*Source`).

use std::time::Duration;

use http::{Method, Response};
use pipe_api_fake::Fake;
use serde_json::{Value, json};

use crate::fake::common::{fake, ok};
use crate::fake::pipe_lifecycle::send;

const STEP: Duration = Duration::from_secs(30);

/// [`fake`] with each step of a pipe's life [`STEP`] long.
fn stepped() -> Fake {
    let fake = fake();
    fake.set_pipe_transition_time(STEP);
    fake
}

/// The error text of a 400.
fn refused(response: Response<Vec<u8>>) -> String {
    let body: Value = serde_json::from_slice(response.body()).unwrap();
    assert_eq!(response.status(), 400, "{body}");
    body["error"].as_str().unwrap_or_default().to_owned()
}

fn create(fake: &Fake, body: Value) -> String {
    let created = ok(send(fake, Method::POST, "/pipes", Some(body)));
    assert_eq!(created["state"], "Provisioning");
    created["id"].as_str().unwrap().to_owned()
}

fn states_over(fake: &Fake, id: &str, steps: usize) -> Vec<Value> {
    (0..steps)
        .map(|_| {
            fake.advance(STEP);
            ok(send(fake, Method::GET, &format!("/pipes/{id}"), None))["state"].clone()
        })
        .collect()
}

fn command(fake: &Fake, id: &str, command: &str) -> Value {
    ok(send(fake, Method::PATCH, &format!("/pipes/{id}/state"), Some(json!({"command": command}))))
}

fn mysql() -> Value {
    json!({
        "name": "orders",
        "source": {"mysql": {"host": "db.example.com", "port": 3306,
            "credentials": {"username": "replicator", "password": "MYSQL-PASSWORD-MARKER"},
            "settings": {"replicationMode": "cdc"},
            "tableMappings": [{"sourceSchemaName": "shop", "sourceTable": "orders", "targetTable": "shop_orders"}]}},
        "destination": {"database": "shop"}
    })
}

fn mongodb() -> Value {
    json!({
        "name": "users",
        "source": {"mongodb": {"uri": "mongodb+srv://cluster0.example.net/mydb", "readPreference": "primary",
            "settings": {"replicationMode": "cdc"},
            "tableMappings": [{"sourceDatabaseName": "mydb", "sourceCollection": "users", "targetTable": "mydb_users"}]}},
        "destination": {"database": "mongo"}
    })
}

fn bigquery() -> Value {
    json!({
        "name": "sales",
        "source": {"bigquery": {"snapshotStagingPath": "gs://bucket/staging/",
            "credentials": {"serviceAccountFile": "BQ-KEY-MARKER"},
            "tableMappings": [{"sourceDatasetName": "sales", "sourceTable": "orders", "targetTable": "sales_orders"}]}},
        "destination": {"database": "sales"}
    })
}

fn pubsub() -> Value {
    json!({
        "name": "clicks",
        "source": {"pubsub": {"format": "JSONEachRow", "projectId": "p", "topic": "t",
            "authentication": "SERVICE_ACCOUNT", "seekType": "earliest",
            "serviceAccountKey": {"serviceAccountFile": "PUBSUB-KEY-MARKER"}}},
        "destination": {"table": "clicks", "managedTable": true, "columns": [{"name": "id", "type": "String"}]}
    })
}

#[test]
fn each_kind_lives_its_own_life_and_answers_no_credential() {
    let fake = stepped();
    let ids = [mysql(), mongodb(), bigquery(), pubsub()].map(|body| create(&fake, body));
    let seen: Vec<Vec<Value>> = (0..4).map(|_| Vec::new()).collect();
    let mut seen = seen;
    for _ in 0..4 {
        fake.advance(STEP);
        for (id, states) in ids.iter().zip(&mut seen) {
            states.push(ok(send(&fake, Method::GET, &format!("/pipes/{id}"), None))["state"].clone());
        }
    }
    assert_eq!(seen[0], ["Setup", "Snapshot", "Running", "Running"], "mysql");
    assert_eq!(seen[1], ["Setup", "Snapshot", "Running", "Running"], "mongodb");
    assert_eq!(seen[2], ["Setup", "Snapshot", "Completed", "Completed"], "bigquery");
    assert_eq!(seen[3], ["Running", "Running", "Running", "Running"], "pubsub");
    let listed = String::from_utf8(send(&fake, Method::GET, "/pipes", None).into_body()).unwrap();
    for marker in ["MYSQL-PASSWORD-MARKER", "BQ-KEY-MARKER", "PUBSUB-KEY-MARKER"] {
        assert!(!listed.contains(marker), "{marker} answered: {listed}");
    }
    // Pub/Sub is a stream: it stops, and has nothing to resync; BigQuery can only be resynced.
    assert_eq!(command(&fake, &ids[3], "stop")["state"], "Stopping");
    assert!(
        refused(send(&fake, Method::PATCH, &format!("/pipes/{}/state", ids[3]), Some(json!({"command": "resync"}))))
            .contains("only supported for database pipes")
    );
    assert_eq!(command(&fake, &ids[2], "resync")["state"], "Resync");
    assert_eq!(states_over(&fake, &ids[2], 2), ["Snapshot", "Completed"]);
}

#[test]
fn mysql_and_mongodb_pause_resync_and_edit_tables_only_while_paused() {
    for (body, kind, mapping) in [
        (mysql(), "mysql", json!({"sourceSchemaName": "shop", "sourceTable": "users", "targetTable": "shop_users"})),
        (
            mongodb(),
            "mongodb",
            json!({"sourceDatabaseName": "mydb", "sourceCollection": "events", "targetTable": "mydb_events"}),
        ),
    ] {
        let fake = stepped();
        let id = create(&fake, body);
        fake.advance(STEP * 3);
        // The contract requires these members in every update of the kind.
        let required = match kind {
            "mysql" => json!({"host": "db.example.com", "port": 3306}),
            _ => json!({"uri": "mongodb+srv://cluster0.example.net/mydb", "readPreference": "primary"}),
        };
        let mut patch = required.clone();
        patch["tableMappingsToAdd"] = json!([mapping]);
        patch["settings"] = json!({"pullBatchSize": 500});
        let path = format!("/pipes/{id}");
        let edit = json!({"source": {kind: patch}});
        assert!(refused(send(&fake, Method::PATCH, &path, Some(edit.clone()))).contains("must be paused"), "{kind}");

        assert_eq!(command(&fake, &id, "stop")["state"], "Pausing", "{kind}");
        assert_eq!(states_over(&fake, &id, 1), ["Paused"], "{kind}");
        let changed = ok(send(&fake, Method::PATCH, &path, Some(edit)));
        assert_eq!(changed["source"][kind]["tableMappings"].as_array().unwrap().len(), 2, "{kind}");
        assert_eq!(changed["source"][kind]["settings"]["pullBatchSize"], 500, "{kind}");
        assert_eq!(changed["source"][kind]["settings"]["replicationMode"], "cdc", "{kind}");

        assert_eq!(command(&fake, &id, "start")["state"], "Provisioning", "{kind}");
        assert_eq!(states_over(&fake, &id, 1), ["Running"], "{kind}");
        assert_eq!(command(&fake, &id, "resync")["state"], "Resync", "{kind}");
        assert_eq!(states_over(&fake, &id, 2), ["Snapshot", "Running"], "{kind}");

        // Without the members the contract requires, an update is refused.
        let missing = json!({"source": {kind: {"settings": {"pullBatchSize": 1}}}});
        let error = refused(send(&fake, Method::PATCH, &path, Some(missing)));
        assert!(error.contains(&format!("source.{kind}.")), "{kind}: {error}");
    }
}

#[test]
fn the_newer_kinds_bodies_are_checked_as_the_contract_states() {
    let fake = stepped();
    let with = |mut body: Value, pointer: &str, value: Option<Value>| {
        let (parent, name) = pointer.rsplit_once('/').unwrap();
        let parent = body.pointer_mut(parent).unwrap().as_object_mut().unwrap();
        match value {
            Some(value) => parent.insert(name.to_owned(), value),
            None => parent.remove(name),
        };
        body
    };
    let cases = [
        (with(mysql(), "/source/mysql/host", None), "source.mysql.host"),
        (with(mysql(), "/source/mysql/port", Some(json!(0))), "source.mysql.port"),
        (with(mysql(), "/source/mysql/serverId", Some(json!(0))), "source.mysql.serverId"),
        (with(mysql(), "/source/mysql/settings", Some(json!({}))), "source.mysql.settings.replicationMode"),
        (
            with(
                with(mysql(), "/source/mysql/type", Some(json!("mariadb"))),
                "/source/mysql/settings/replicationMechanism",
                Some(json!("FILE_POS")),
            ),
            "source.mysql.settings.replicationMechanism",
        ),
        (with(mysql(), "/source/mysql/tableMappings", Some(json!([]))), "source.mysql.tableMappings"),
        (with(mongodb(), "/source/mongodb/uri", Some(json!("https://x"))), "source.mongodb.uri"),
        (with(mongodb(), "/source/mongodb/readPreference", Some(json!("any"))), "source.mongodb.readPreference"),
        (
            with(bigquery(), "/source/bigquery/settings", Some(json!({"replicationMode": "cdc"}))),
            "source.bigquery.settings.replicationMode",
        ),
        (with(pubsub(), "/source/pubsub/seekType", Some(json!("timestamp"))), "source.pubsub.seekTimestamp"),
        (
            with(pubsub(), "/source/pubsub/seekTimestamp", Some(json!("2026-04-10T12:00:00Z"))),
            "source.pubsub.seekTimestamp",
        ),
        (with(pubsub(), "/source/pubsub/ackDeadline", Some(json!(601))), "source.pubsub.ackDeadline"),
        (with(pubsub(), "/source/pubsub/format", Some(json!("CSV"))), "source.pubsub.format"),
        (with(pubsub(), "/source/pubsub/serviceAccountKey", None), "source.pubsub.serviceAccountKey"),
        (with(pubsub(), "/destination/table", None), "destination.table"),
    ];
    for (body, path) in cases {
        let error = refused(send(&fake, Method::POST, "/pipes", Some(body)));
        assert!(error.contains(path), "{path}: {error}");
    }
}
