//! A pipe's whole life in the fake, driven by its manual clock: create, the states it moves
//! through on its own, stop, start, resync, update, delete, and the 400s and 404s on the way.
//! Raw requests go straight to `Fake::handle`, so every status and body is checked exactly.

use std::time::Duration;

use http::{Method, Response};
use pipe_api_fake::Fake;
use pipe_api_types::{PipeId, PipeState};
use serde_json::{Value, json};

use crate::fake::common::*;

/// The default length of each step of a pipe's life.
const STEP: Duration = Duration::from_secs(30);

/// Sends `method` to `path` under the service, as the admin key.
pub(crate) fn send(fake: &Fake, method: Method, path: &str, body: Option<Value>) -> Response<Vec<u8>> {
    admin(fake, method, &format!("/v1/organizations/{ORG}/services/{SERVICE}{path}"), body)
}

fn kafka_body() -> Value {
    json!({
        "name": "events",
        "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092", "topics": "t",
            "authentication": "PLAIN", "credentials": {"username": "u", "password": "PASSWORD-MARKER"}}},
        "destination": {"table": "events", "managedTable": true, "columns": [{"name": "id", "type": "String"}]}
    })
}

fn postgres_body(mode: &str) -> Value {
    json!({
        "name": "shop",
        "source": {"postgres": {"host": "db.example.com", "port": 5432, "database": "shop",
            "credentials": {"username": "replicator", "password": "PG-PASSWORD-MARKER"},
            "settings": {"replicationMode": mode},
            "tableMappings": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "public_orders"}]}},
        "destination": {"database": "shop"}
    })
}

/// Creates a pipe and returns its id.
fn create(fake: &Fake, body: Value) -> String {
    let created = ok(send(fake, Method::POST, "/pipes", Some(body)));
    assert_eq!(created["state"], "Provisioning");
    created["id"].as_str().unwrap().to_owned()
}

fn state_of(fake: &Fake, id: &str) -> Value {
    ok(send(fake, Method::GET, &format!("/pipes/{id}"), None))["state"].clone()
}

fn command(fake: &Fake, id: &str, command: &str) -> Response<Vec<u8>> {
    send(fake, Method::PATCH, &format!("/pipes/{id}/state"), Some(json!({"command": command})))
}

/// Moves the clock one step at a time and records the state seen after each.
fn states_over(fake: &Fake, id: &str, steps: usize) -> Vec<Value> {
    (0..steps)
        .map(|_| {
            fake.advance(STEP);
            state_of(fake, id)
        })
        .collect()
}

#[test]
fn a_streaming_pipe_provisions_then_runs_after_the_transition_time() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    fake.advance(STEP - Duration::from_secs(1));
    assert_eq!(state_of(&fake, &id), "Provisioning", "not before its time");
    fake.advance(Duration::from_secs(1));
    let pipe = ok(send(&fake, Method::GET, &format!("/pipes/{id}"), None));
    assert_eq!(pipe["state"], "Running");
    assert_eq!(pipe["updatedAt"], "2026-01-01T00:00:30Z", "stamped when the step was due");
    assert!(!pipe.to_string().contains("PASSWORD-MARKER"));
}

#[test]
fn the_transition_time_is_a_setting() {
    let fake = fake();
    fake.set_pipe_transition_time(Duration::from_secs(5));
    let id = create(&fake, kafka_body());
    fake.advance(Duration::from_secs(5));
    assert_eq!(state_of(&fake, &id), "Running");
    // Reading through the fake's own inspection settles too.
    let id = create(&fake, kafka_body());
    fake.advance(Duration::from_secs(5));
    let stored = fake.pipes(org(), service());
    assert_eq!(stored.iter().find(|p| p.id.to_string() == id).unwrap().state, Some(PipeState::Running));
}

#[test]
fn database_pipes_set_up_snapshot_and_run_or_complete_by_replication_mode() {
    let fake = fake();
    let cdc = create(&fake, postgres_body("cdc"));
    let cdc_only = create(&fake, postgres_body("cdc_only"));
    let snapshot = create(&fake, postgres_body("snapshot"));
    let (mut seen_cdc, mut seen_cdc_only, mut seen_snapshot) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..4 {
        fake.advance(STEP);
        seen_cdc.push(state_of(&fake, &cdc));
        seen_cdc_only.push(state_of(&fake, &cdc_only));
        seen_snapshot.push(state_of(&fake, &snapshot));
    }
    assert_eq!(seen_cdc, ["Setup", "Snapshot", "Running", "Running"]);
    assert_eq!(seen_cdc_only, ["Setup", "Running", "Running", "Running"]);
    assert_eq!(seen_snapshot, ["Setup", "Snapshot", "Completed", "Completed"]);
}

#[test]
fn a_long_jump_of_the_clock_lands_on_the_last_state_due() {
    let fake = fake();
    let id = create(&fake, postgres_body("cdc"));
    fake.advance(STEP * 10);
    assert_eq!(state_of(&fake, &id), "Running");
}

#[test]
fn stop_then_start_a_streaming_pipe() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    fake.advance(STEP);
    let stopping = ok(command(&fake, &id, "stop"));
    assert_eq!(stopping["state"], "Stopping");
    assert_eq!(states_over(&fake, &id, 2), ["Stopped", "Stopped"]);
    // Stopping what is stopped changes nothing.
    assert_eq!(ok(command(&fake, &id, "stop"))["state"], "Stopped");

    let starting = ok(command(&fake, &id, "start"));
    assert_eq!(starting["state"], "Provisioning");
    assert_eq!(states_over(&fake, &id, 2), ["Running", "Running"]);
}

#[test]
fn stop_works_from_any_state_even_mid_provisioning() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    assert_eq!(ok(command(&fake, &id, "stop"))["state"], "Stopping");
    // The provisioning that was due is called off.
    assert_eq!(states_over(&fake, &id, 3), ["Stopped", "Stopped", "Stopped"]);
}

#[test]
fn a_database_pipe_pauses_and_resumes() {
    let fake = fake();
    let id = create(&fake, postgres_body("cdc"));
    fake.advance(STEP * 3);
    assert_eq!(ok(command(&fake, &id, "stop"))["state"], "Pausing");
    assert_eq!(states_over(&fake, &id, 1), ["Paused"]);
    assert_eq!(ok(command(&fake, &id, "start"))["state"], "Provisioning");
    assert_eq!(states_over(&fake, &id, 1), ["Running"]);
}

#[test]
fn start_is_refused_unless_stopped_paused_or_failed() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    assert_error(
        &command(&fake, &id, "start"),
        409,
        "CONFLICT: pipe is Provisioning: a state transition is in progress",
    );
    fake.advance(STEP);
    assert_error(&command(&fake, &id, "start"), 400, "BAD_REQUEST: pipe is already running");
    assert_eq!(state_of(&fake, &id), "Running", "a refused command changes nothing");
}

#[test]
fn a_seeded_failed_pipe_stays_failed_until_started() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    let pipe: PipeId = id.parse().unwrap();
    assert!(fake.set_pipe_state(org(), service(), pipe, PipeState::Failed));
    assert_eq!(states_over(&fake, &id, 3), ["Failed", "Failed", "Failed"], "the planned Running is dropped");
    assert_eq!(ok(command(&fake, &id, "start"))["state"], "Provisioning");
    assert_eq!(states_over(&fake, &id, 1), ["Running"]);
    let missing: PipeId = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e".parse().unwrap();
    assert!(!fake.set_pipe_state(org(), service(), missing, PipeState::Failed));
}

#[test]
fn resync_only_for_database_pipes() {
    let fake = fake();
    let kafka = create(&fake, kafka_body());
    fake.advance(STEP);
    assert_error(&command(&fake, &kafka, "resync"), 400, "BAD_REQUEST: resync is only supported for database pipes");
    assert_eq!(state_of(&fake, &kafka), "Running");

    let cdc = create(&fake, postgres_body("cdc"));
    fake.advance(STEP * 3);
    assert_eq!(ok(command(&fake, &cdc, "resync"))["state"], "Resync");
    assert_eq!(states_over(&fake, &cdc, 3), ["Snapshot", "Running", "Running"]);
}

#[test]
fn a_completed_pipe_can_only_be_resynced() {
    let fake = fake();
    let id = create(&fake, postgres_body("snapshot"));
    fake.advance(STEP * 3);
    assert_eq!(state_of(&fake, &id), "Completed");
    assert_error(&command(&fake, &id, "start"), 400, "BAD_REQUEST: a completed pipe can only be resynced");
    assert_error(&command(&fake, &id, "stop"), 400, "BAD_REQUEST: a completed pipe can only be resynced");
    assert_eq!(ok(command(&fake, &id, "resync"))["state"], "Resync");
    assert_eq!(states_over(&fake, &id, 2), ["Snapshot", "Completed"]);
}

#[test]
fn a_state_body_is_checked_by_the_fake() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    let path = format!("/pipes/{id}/state");
    for (body, error) in [
        (json!({"command": "pause"}), "BAD_REQUEST: invalid request: command: must be one of start, stop, resync"),
        (json!({}), "BAD_REQUEST: invalid request: command: is required"),
        (json!([]), "BAD_REQUEST: invalid request: body: must be an object"),
    ] {
        assert_error(&send(&fake, Method::PATCH, &path, Some(body)), 400, error);
    }
}

#[test]
fn an_update_shows_in_the_next_get_without_credentials() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    fake.advance(STEP);
    let patch = json!({
        "name": "events-v2",
        "source": {"kafka": {"authentication": "SCRAM-SHA-512", "credentials": {"username": "u2", "password": "NEW-PASSWORD-MARKER"}}},
        "destination": {"columns": [{"name": "id", "type": "String"}, {"name": "at", "type": "DateTime"}]},
        "fieldMappings": [{"sourceField": "ts", "destinationField": "at"}],
        "settings": {"streaming_max_insert_wait_ms": 1000}
    });
    let answered = ok(send(&fake, Method::PATCH, &format!("/pipes/{id}"), Some(patch)));
    let got = ok(send(&fake, Method::GET, &format!("/pipes/{id}"), None));
    assert_eq!(answered, got);
    assert_eq!(got["name"], "events-v2");
    assert_eq!(got["source"]["kafka"]["authentication"], "SCRAM-SHA-512");
    assert_eq!(got["source"]["kafka"]["brokers"], "b:9092", "what the update does not name stays");
    assert_eq!(got["destination"]["columns"][1]["name"], "at");
    assert_eq!(got["destination"]["table"], "events");
    assert_eq!(got["fieldMappings"], json!([{"sourceField": "ts", "destinationField": "at"}]));
    assert_eq!(got["settings"]["streaming_max_insert_wait_ms"], 1000);
    assert_eq!(got["state"], "Running");
    assert_eq!(got["updatedAt"], "2026-01-01T00:00:30Z");
    assert!(!got.to_string().contains("PASSWORD-MARKER"), "credentials are never echoed back");
}

#[test]
fn a_database_pipes_tables_change_only_while_paused() {
    let fake = fake();
    let id = create(&fake, postgres_body("cdc"));
    fake.advance(STEP * 3);
    let add = json!({"source": {"postgres": {
        "tableMappingsToAdd": [{"sourceSchemaName": "public", "sourceTable": "users", "targetTable": "public_users"}],
        "tableMappingsToRemove": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "public_orders"}]
    }}});
    let path = format!("/pipes/{id}");
    assert_error(
        &send(&fake, Method::PATCH, &path, Some(add.clone())),
        400,
        "BAD_REQUEST: pipe must be paused to edit table mappings",
    );
    // Settings are not tables: they change while it runs.
    let settings = json!({"source": {"postgres": {"settings": {"syncIntervalSeconds": 30}, "tableMappingsToAdd": []}}});
    let changed = ok(send(&fake, Method::PATCH, &path, Some(settings)));
    assert_eq!(changed["source"]["postgres"]["settings"]["syncIntervalSeconds"], 30);
    assert_eq!(changed["source"]["postgres"]["settings"]["replicationMode"], "cdc");

    ok(command(&fake, &id, "stop"));
    fake.advance(STEP);
    let changed = ok(send(&fake, Method::PATCH, &path, Some(add)));
    let tables = &changed["source"]["postgres"]["tableMappings"];
    assert_eq!(tables.as_array().unwrap().len(), 1, "{tables}");
    assert_eq!(tables[0]["sourceTable"], "users");
}

#[test]
fn an_update_of_another_source_kind_is_refused() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    let patch = json!({"source": {"kinesis": {"authentication": "IAM_ROLE", "iamRole": "arn:aws:iam::1:role/r"}}});
    assert_error(
        &send(&fake, Method::PATCH, &format!("/pipes/{id}"), Some(patch)),
        400,
        "BAD_REQUEST: source.kinesis: the pipe has no kinesis source",
    );
}

#[test]
fn an_update_body_is_checked_by_the_fake() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    let path = format!("/pipes/{id}");
    let long_name = "n".repeat(256);
    let cases = [
        (json!({"name": ""}), "name: must be a string of 1 to 255 characters"),
        (json!({"name": long_name}), "name: must be a string of 1 to 255 characters"),
        (json!({"source": {"kafka": {}, "kinesis": {}}}), "source: must have at most one source kind, found 2"),
        (
            json!({"source": {"kafka": {"authentication": "CONNECTION_STRING"}}}),
            "source.kafka.authentication: must be one of PLAIN, SCRAM-SHA-256, SCRAM-SHA-512, IAM_ROLE, IAM_USER, MUTUAL_TLS",
        ),
        (
            json!({"source": {"objectStorage": {"skipInitialLoad": true, "startAfter": "a/b"}}}),
            "source.objectStorage.startAfter: cannot be provided when skipInitialLoad is true",
        ),
        (
            json!({"source": {"kinesis": {"authentication": "PLAIN"}}}),
            "source.kinesis.authentication: must be one of IAM_ROLE, IAM_USER",
        ),
        (json!({"source": {"postgres": {"port": 0}}}), "source.postgres.port: must be an integer from 1 to 65535"),
        (
            json!({"source": {"postgres": {"settings": {"pullBatchSize": 0}}}}),
            "source.postgres.settings.pullBatchSize: must be an integer from 1 to 9223372036854775807",
        ),
        (
            json!({"source": {"postgres": {"tableMappingsToRemove": [{"sourceSchemaName": "public", "sourceTable": "t"}]}}}),
            "source.postgres.tableMappingsToRemove[0].targetTable: is required",
        ),
        (json!({"destination": {"columns": [{"name": "id"}]}}), "destination.columns[0].type: is required"),
        (json!({"fieldMappings": [{"sourceField": "a"}]}), "fieldMappings[0].destinationField: is required"),
        (
            json!({"settings": {"object_storage_concurrency": 36}}),
            "settings.object_storage_concurrency: must be an integer from 1 to 35",
        ),
    ];
    for (body, problem) in cases {
        assert_error(
            &send(&fake, Method::PATCH, &path, Some(body)),
            400,
            &format!("BAD_REQUEST: invalid request: {problem}"),
        );
    }
    assert_eq!(ok(send(&fake, Method::GET, &path, None))["name"], "events", "nothing refused was applied");
}

#[test]
fn delete_removes_the_pipe_and_its_plan() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    let path = format!("/pipes/{id}");
    let response = send(&fake, Method::DELETE, &path, None);
    assert_eq!(response.status(), 200);
    let body = json_of(&response);
    assert_eq!(body["status"], 200);
    assert!(body["requestId"].is_string());
    assert!(body.get("result").is_none(), "a delete answers no result: {body}");

    fake.advance(STEP);
    for (method, body) in [(Method::GET, None), (Method::DELETE, None), (Method::PATCH, Some(json!({"name": "x"})))] {
        assert_error(&send(&fake, method, &path, body), 404, &format!("NOT_FOUND: {id}"));
    }
    assert_error(&command(&fake, &id, "start"), 404, &format!("NOT_FOUND: {id}"));
    assert!(fake.pipes(org(), service()).is_empty());
}

#[test]
fn an_idle_service_answers_424_to_every_pipe_call() {
    let fake = fake();
    let id = create(&fake, kafka_body());
    fake.set_service_idle(org(), service(), true);
    assert_eq!(command(&fake, &id, "stop").status(), 424);
    assert_eq!(send(&fake, Method::DELETE, &format!("/pipes/{id}"), None).status(), 424);
    assert_eq!(send(&fake, Method::PATCH, &format!("/pipes/{id}"), Some(json!({"name": "x"}))).status(), 424);
}

#[test]
fn the_clock_moving_per_request_carries_a_pipe_through_its_life() {
    let fake = fake();
    fake.advance_per_request(Duration::from_secs(10));
    let id = create(&fake, kafka_body());
    // Each answer moves the clock 10 s: the create to 10 s, the reads to 20 s and 30 s.
    let seen: Vec<Value> = (0..4).map(|_| state_of(&fake, &id)).collect();
    assert_eq!(seen, ["Provisioning", "Provisioning", "Running", "Running"]);
}
