//! A pipe's whole life over real HTTP, between the ureq client and the fake served on
//! 127.0.0.1 with the demo's admin key: create, wait until it runs, update, stop, start, resync,
//! delete, and a typed 404 after. The fake's clock moves after each request
//! (`advance_per_request`), so the client's polls see time pass and nothing sleeps for long.

use std::time::Duration;

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::{
    Authentication, Credentials, FieldMapping, KafkaSourcePatch, PipeSettings, PipeSourcePatch, PipeState,
    PostgresSourcePatch, PostgresTableMapping,
};
use pipe_api_ureq::types::{PipeCommand, UpdatePipeRequest};
use pipe_api_ureq::{Client, Verdict, WaitPolicy, pipe_settled, pipe_stopped};

use crate::clients::*;

/// The demo's Kafka pipe, seeded `Running`.
const DEMO_KAFKA_PIPE: &str = "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19001";
/// The demo's object-storage pipe, seeded `Stopped`.
const DEMO_S3_PIPE: &str = "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19002";

/// The demo fake, served, with its clock moving 10 s after each answer (a third of a lifecycle
/// step), and an admin client over it.
fn served() -> (pipe_api_fake::FakeServer, Client) {
    let server = Fake::demo().serve().unwrap();
    server.fake().advance_per_request(Duration::from_secs(10));
    let client = demo_client(&server);
    (server, client)
}

/// Polls every few milliseconds of real time; the fake's clock does the rest.
fn fast_wait() -> WaitPolicy {
    let mut policy = WaitPolicy::default();
    policy.initial_delay = Duration::from_millis(2);
    policy.max_delay = Duration::from_millis(5);
    policy.deadline = Duration::from_secs(3);
    policy
}

/// `Running` itself (`pipe_settled` also ends on a CDC pipe's `Snapshot`, or on `Stopped`); a
/// failure ends the wait.
fn running(pipe: &pipe_api_types::Pipe) -> Verdict {
    match pipe.state {
        Some(PipeState::Running) => Verdict::Done,
        Some(PipeState::Failed | PipeState::InternalError) => Verdict::Failed,
        _ => Verdict::Continue,
    }
}

#[test]
fn a_kafka_pipe_from_create_to_a_typed_404_after_delete() {
    let (server, client) = served();
    let kafka = create_pipe_requests("E2E-MARKER").remove(0);

    let created = client.create_pipe(ORG, SERVICE, kafka).unwrap();
    assert_eq!(created.state, Some(PipeState::Provisioning));
    let id = created.id;

    let ran = client.wait_for_pipe(ORG, SERVICE, id, pipe_settled, fast_wait()).unwrap();
    assert_eq!(ran.state, Some(PipeState::Running));

    let update = UpdatePipeRequest::default()
        .name("kafka-events-v2")
        .source(
            PipeSourcePatch::default().kafka(
                KafkaSourcePatch::default()
                    // Confluent takes PLAIN or MUTUAL_TLS; the fake checks the stored type.
                    .authentication(Authentication::MutualTls)
                    .credentials(Credentials::client_certificate("CERT", "new-private-key-E2E-MARKER")),
            ),
        )
        .field_mappings([FieldMapping::new("event_id", "id")])
        .settings(PipeSettings::default().streaming_max_insert_wait_ms(1000u64));
    let updated = client.update_pipe(ORG, SERVICE, id, update).unwrap();
    let got = client.get_pipe(ORG, SERVICE, id).unwrap();
    for pipe in [&updated, &got] {
        assert_eq!(pipe.name.as_deref(), Some("kafka-events-v2"));
        let kafka = pipe.source.as_ref().and_then(|s| s.kafka.as_ref()).unwrap();
        assert_eq!(kafka.authentication, Some(Authentication::MutualTls));
        assert_eq!(kafka.topics.as_deref(), Some("events"), "what the update does not name stays");
        assert!(kafka.credentials.is_none(), "credentials are never echoed back");
        assert_eq!(pipe.field_mappings, Some(vec![FieldMapping::new("event_id", "id")]));
        assert_eq!(
            pipe.settings.as_ref().and_then(|s| s.streaming_max_insert_wait_ms),
            Some(pipe_api_types::Nullable::Value(1000))
        );
    }
    assert!(!serde_json::to_string(&got).unwrap().contains("E2E-MARKER"));

    let stopping = client.change_pipe_state(ORG, SERVICE, id, PipeCommand::Stop).unwrap();
    assert_eq!(stopping.state, Some(PipeState::Stopping));
    let stopped = client.wait_for_pipe(ORG, SERVICE, id, pipe_stopped, fast_wait()).unwrap();
    assert_eq!(stopped.state, Some(PipeState::Stopped));

    let starting = client.change_pipe_state(ORG, SERVICE, id, PipeCommand::Start).unwrap();
    assert_eq!(starting.state, Some(PipeState::Provisioning));
    client.wait_for_pipe(ORG, SERVICE, id, running, fast_wait()).unwrap();
    let error = client.change_pipe_state(ORG, SERVICE, id, PipeCommand::Start).unwrap_err();
    let api = error.as_api().expect("an API error");
    assert_eq!(
        (api.status().as_u16(), api.code(), api.message()),
        (400, Some("BAD_REQUEST"), Some("pipe is already running"))
    );

    client.delete_pipe(ORG, SERVICE, id).unwrap();
    let error = client.get_pipe(ORG, SERVICE, id).unwrap_err();
    assert!(error.is_not_found(), "{error}");
    assert_eq!(error.as_api().and_then(|api| api.message()), Some(id.to_string().as_str()));
    assert!(server.fake().pipes(ORG, SERVICE).iter().all(|p| p.id != id));
}

#[test]
fn resync_is_refused_for_a_kafka_pipe_and_accepted_for_a_postgres_one() {
    let (_server, client) = served();
    let error =
        client.change_pipe_state(ORG, SERVICE, DEMO_KAFKA_PIPE.parse().unwrap(), PipeCommand::Resync).unwrap_err();
    let api = error.as_api().expect("an API error");
    assert_eq!(api.status().as_u16(), 400);
    assert_eq!(api.message(), Some("resync is only supported for database pipes"));

    let postgres = create_pipe_requests("E2E-MARKER").remove(3);
    let id = client.create_pipe(ORG, SERVICE, postgres).unwrap().id;
    let ran = client.wait_for_pipe(ORG, SERVICE, id, running, fast_wait()).unwrap();
    assert_eq!(ran.state, Some(PipeState::Running));

    let resyncing = client.change_pipe_state(ORG, SERVICE, id, PipeCommand::Resync).unwrap();
    assert_eq!(resyncing.state, Some(PipeState::Resync));
    let ran = client.wait_for_pipe(ORG, SERVICE, id, running, fast_wait()).unwrap();
    assert_eq!(ran.state, Some(PipeState::Running));
}

#[test]
fn a_postgres_pipes_tables_change_only_once_it_is_paused() {
    let (_server, client) = served();
    let postgres = create_pipe_requests("E2E-MARKER").remove(3);
    let id = client.create_pipe(ORG, SERVICE, postgres).unwrap().id;
    client.wait_for_pipe(ORG, SERVICE, id, running, fast_wait()).unwrap();

    let users = PostgresTableMapping::new("public", "users", "public_users");
    let add_users = || {
        UpdatePipeRequest::default().source(
            PipeSourcePatch::default().postgres(PostgresSourcePatch::default().table_mappings_to_add([users.clone()])),
        )
    };
    let error = client.update_pipe(ORG, SERVICE, id, add_users()).unwrap_err();
    assert_eq!(error.as_api().and_then(|api| api.message()), Some("pipe must be paused to edit table mappings"));

    assert_eq!(client.change_pipe_state(ORG, SERVICE, id, PipeCommand::Stop).unwrap().state, Some(PipeState::Pausing));
    let paused = client.wait_for_pipe(ORG, SERVICE, id, pipe_stopped, fast_wait()).unwrap();
    assert_eq!(paused.state, Some(PipeState::Paused));
    let updated = client.update_pipe(ORG, SERVICE, id, add_users()).unwrap();
    let tables = updated.source.and_then(|s| s.postgres).and_then(|p| p.table_mappings).unwrap();
    assert_eq!(tables.iter().filter_map(|t| t.source_table.as_deref()).collect::<Vec<_>>(), ["orders", "users"]);
}

#[test]
fn a_seeded_stopped_pipe_starts_and_a_seeded_failed_one_stays_failed() {
    let (server, client) = served();
    let s3 = DEMO_S3_PIPE.parse().unwrap();
    assert_eq!(
        client.change_pipe_state(ORG, SERVICE, s3, PipeCommand::Start).unwrap().state,
        Some(PipeState::Provisioning)
    );
    assert_eq!(client.wait_for_pipe(ORG, SERVICE, s3, running, fast_wait()).unwrap().state, Some(PipeState::Running));

    let kafka = DEMO_KAFKA_PIPE.parse().unwrap();
    assert!(server.fake().set_pipe_state(ORG, SERVICE, kafka, PipeState::Failed));
    let error = client.wait_for_pipe(ORG, SERVICE, kafka, pipe_settled, fast_wait()).unwrap_err();
    assert!(!error.is_timeout(), "a failed pipe ends the wait: {error:?}");
    assert_eq!(
        client.change_pipe_state(ORG, SERVICE, kafka, PipeCommand::Start).unwrap().state,
        Some(PipeState::Provisioning)
    );
    assert_eq!(
        client.wait_for_pipe(ORG, SERVICE, kafka, running, fast_wait()).unwrap().state,
        Some(PipeState::Running)
    );
}
