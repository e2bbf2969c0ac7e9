//! Pipes' update, delete and state changes: what the harness over the fixtures
//! (`every_operation`) does not check. An update sends only what it sets; a command this crate
//! does not know is sent only on purpose; nothing is built from an invalid update.

use crate::proto::common;

use common::*;
use pipe_api_proto::{ChangePipeState, EndpointExt, UpdatePipe, render_request};
use pipe_api_types::{
    KafkaSourcePatch, PipeCommand, PipeSourcePatch, PostgresSourcePatch, PostgresTableMapping, Rule, UpdatePipeRequest,
};

#[test]
fn snapshot_update_pipe_name_only() {
    let request = UpdatePipeRequest::default().name("renamed");
    let built = UpdatePipe::new(org(), service(), pipe(), request).build_request(&management()).unwrap();
    insta::assert_snapshot!("update_pipe_name_only", render_request(&built));
}

#[test]
fn a_command_this_crate_does_not_know_is_sent_only_on_purpose() {
    let typo = ChangePipeState::new(org(), service(), pipe(), PipeCommand::from("stpo"));
    let error = typo.build_request(&management()).unwrap_err();
    assert_eq!(error.operation(), "change_pipe_state");
    let known = vec!["start", "stop", "resync"];
    assert!(error.validation().unwrap().contains("command", &Rule::KnownValue { known }));

    let newer = ChangePipeState::new(org(), service(), pipe(), PipeCommand::not_yet_known("hibernate"));
    let built = newer.build_request(&management()).unwrap();
    assert_eq!(built.body(), br#"{"command":"hibernate"}"#);
}

#[test]
fn an_invalid_update_builds_nothing() {
    let request = UpdatePipeRequest::default().name(" ").source(
        PipeSourcePatch::default().kafka(KafkaSourcePatch::default()).postgres(
            PostgresSourcePatch::default()
                .port(0)
                .table_mappings_to_remove([PostgresTableMapping::default().source_table("orders")]),
        ),
    );
    let error = UpdatePipe::new(org(), service(), pipe(), request).build_request(&management()).unwrap_err();
    assert_eq!(error.operation(), "update_pipe");
    let errors = error.validation().unwrap();
    assert!(errors.contains("name", &Rule::NotBlank));
    assert!(errors.contains("source", &Rule::ExactlyOneSourceKind { found: 2 }));
    assert!(errors.contains("source.postgres.port", &Rule::Range { min: 1, max: 65535 }));
    assert!(errors.contains("source.postgres.tableMappingsToRemove[0].sourceSchemaName", &Rule::Required));
    assert!(errors.contains("source.postgres.tableMappingsToRemove[0].targetTable", &Rule::Required));
    assert_eq!(errors.violations().len(), 5, "{errors}");
}
