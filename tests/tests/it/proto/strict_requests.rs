//! Strict in: a request read from JSON text refuses, at every depth, a member this crate does not
//! know (with the nearest known name) and a value of the wrong type (saying what the field
//! takes), before anything is built; a member sent on purpose under `$notYetKnown` is sent as it
//! is; and a server's answer, vouched for by the decoder, goes back whole.
//!
//! Driven by the table of operations: every operation with a body has its requests in
//! `fixtures/operations/<name>/request*.json`, written from the contracts, and each is mutated at
//! every object (a member added, a member misspelt) and at every scalar member (a value of
//! another JSON type), then read as the operation's body and built.

use pipe_api_proto::operations::OPERATIONS;
use pipe_api_proto::{Alerting, BuildError, BuildErrorKind, Endpoint, EndpointExt, Management, UpdateAlert};
use pipe_api_tests::every_operation::{Visit, alerting, management, visit};
use pipe_api_tests::fixtures::{Role, operation_fixtures};
use pipe_api_tests::json_paths::{at, join, walk};
use pipe_api_types::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Reads `json` as the body of operation `operation` (the type its row names) and builds its
/// request: the violations that refuse it, if any. Reached through the table, so a new
/// operation needs no line here.
fn check(operation: &'static str, json: &Value) -> Result<(), ValidationErrors> {
    /// Builds the endpoint [`visit`] hands it, with `json` as its body.
    struct Build<'a> {
        json: &'a Value,
        built: Option<Result<(), ValidationErrors>>,
    }
    impl Visit for Build<'_> {
        fn body<B: Default + DeserializeOwned + 'static>(&mut self, _operation: &'static str) -> B {
            serde_json::from_value(self.json.clone()).expect("a request model reads any object")
        }
        fn management<E: Endpoint<Api = Management>>(&mut self, endpoint: E) {
            self.built = Some(refusal(endpoint.build_request(&management()).map(drop)));
        }
        fn alerting<E: Endpoint<Api = Alerting>>(&mut self, endpoint: E) {
            self.built = Some(refusal(endpoint.build_request(&alerting()).map(drop)));
        }
    }
    /// The violations of a refused build; panics on any other failure.
    fn refusal(built: Result<(), BuildError>) -> Result<(), ValidationErrors> {
        built.map_err(|error| match error.kind() {
            BuildErrorKind::Invalid(errors) => errors.clone(),
            other => panic!("refused for another reason: {other:?}"),
        })
    }
    let mut build = Build { json, built: None };
    visit(operation, &mut build);
    build.built.unwrap_or_else(|| panic!("{operation}: not a row of the table"))
}

/// Every (operation, fixture name, request) of the table. A row with a body and no request
/// fixture is named by `every_operation_sends_and_reads_its_fixtures_as_its_snapshots_show`.
fn every_request() -> Vec<(&'static str, String, Value)> {
    let mut all = Vec::new();
    for operation in OPERATIONS.iter().filter(|operation| operation.request.is_some()) {
        for fixture in operation_fixtures(operation.name).unwrap_or_default() {
            if fixture.role == Some(Role::Request) {
                let json = serde_json::from_slice(&fixture.bytes).unwrap();
                all.push((operation.name, fixture.stem, json));
            }
        }
    }
    all
}

#[test]
fn every_request_fixture_is_valid_as_written() {
    for (operation, name, json) in every_request() {
        assert_eq!(check(operation, &json), Ok(()), "{operation}/{name}");
    }
}

#[test]
fn a_member_this_crate_does_not_know_is_refused_at_every_depth_with_its_whole_path() {
    let mut checked = 0;
    for (operation, name, json) in every_request() {
        for path in walk(&json, |_| false).objects {
            let mut changed = json.clone();
            at(&mut changed, &path).as_object_mut().unwrap().insert("zzUnheardOf".into(), Value::from(1));
            let errors = check(operation, &changed).expect_err(&format!("{operation}/{name}: at `{path}`"));
            let member = join(&path, "zzUnheardOf");
            assert_eq!(
                errors.violations(),
                [Violation::new(member.clone(), Rule::UnknownField { did_you_mean: None })],
                "{operation}/{name}"
            );
            checked += 1;
        }
    }
    assert!(checked > 80, "{checked} objects");
}

#[test]
fn a_misspelt_member_is_refused_naming_the_field_meant() {
    let mut checked = 0;
    for (operation, name, json) in every_request() {
        for path in walk(&json, |_| false).scalars {
            let (parent, field) = path.rsplit_once('.').unwrap_or(("", &path));
            if field.len() < 4 {
                continue;
            }
            // One letter dropped from the middle: `replcas` for `replicas`.
            let middle = field.len() / 2;
            let typo = format!("{}{}", &field[..middle], &field[middle + 1..]);
            let mut changed = json.clone();
            let object = at(&mut changed, parent).as_object_mut().unwrap();
            let value = object.remove(field).unwrap();
            object.insert(typo.clone(), value);
            let errors = check(operation, &changed).expect_err(&format!("{operation}/{name}: `{path}` as `{typo}`"));
            let wanted =
                Violation::new(join(parent, &typo), Rule::UnknownField { did_you_mean: Some(field_name(field)) });
            assert!(errors.violations().contains(&wanted), "{operation}/{name}: {errors}");
            checked += 1;
        }
    }
    assert!(checked > 150, "{checked} members");
}

/// The known name `field` as `&'static str`, as a violation holds it.
fn field_name(field: &str) -> &'static str {
    Box::leak(field.to_owned().into_boxed_str())
}

#[test]
fn a_value_of_the_wrong_type_is_refused_saying_what_its_field_takes() {
    let mut checked = 0;
    for (operation, name, json) in every_request() {
        for path in walk(&json, |_| false).scalars {
            let mut changed = json.clone();
            let value = at(&mut changed, &path);
            // A `null` (sent where the contract allows it) has no type to be the wrong one of:
            // `nullable_members.rs` tries it, and a `null` where it is not allowed.
            if value.is_null() {
                continue;
            }
            let (other, found) = match value {
                Value::String(_) => (Value::from(7), "a number"),
                _ => (Value::from("seven"), "a string"),
            };
            *value = other;
            // A list's element of the wrong type makes the whole list the misfit.
            let field = match path.strip_suffix(']') {
                Some(element) => element.rsplit_once('[').unwrap().0.to_owned(),
                None => path.clone(),
            };
            let found = if field == path { found } else { "a list" };
            let errors = check(operation, &changed).expect_err(&format!("{operation}/{name}: `{path}`"));
            let wrong_type = errors.violations().iter().find(|v| v.path == field);
            match wrong_type.map(|v| &v.rule) {
                Some(Rule::WrongType { expected, found: was }) => {
                    assert!(!expected.is_empty());
                    assert_eq!(*was, found, "{operation}/{name}: `{path}`");
                }
                other => panic!("{operation}/{name}: `{path}`: {other:?} in {errors}"),
            }
            assert!(
                !errors.violations().iter().any(|v| v.path == field && v.rule == Rule::Required),
                "{operation}/{name}: `{field}` reported missing too: {errors}"
            );
            checked += 1;
        }
    }
    assert!(checked > 200, "{checked} members");
}

#[test]
fn what_the_issue_found_reads_as_a_user_needs() {
    // A misspelt optional member is no longer sent unset.
    let storage: CreatePipeRequest = serde_json::from_str(
        r#"{"name":"logs","source":{"objectStorage":{"type":"s3","format":"CSV","url":"https://b.example/*.csv","isContinous":true}},
            "destination":{"table":"logs","managedTable":true,"columns":[{"name":"line","type":"String"}]}}"#,
    )
    .unwrap();
    assert_eq!(
        storage.validate().unwrap_err().to_string(),
        "invalid request: `source.objectStorage.isContinous` is not a field this crate knows (did you mean \
         `isContinuous`?); a field newer than this crate is sent under `$notYetKnown`"
    );
    // A value of the wrong type says so, not that it is missing.
    let mut wrong: CreatePipeRequest = storage.clone();
    wrong.source.as_mut().unwrap().object_storage.as_mut().unwrap().unknown = UnknownFields::new();
    let mut json = serde_json::to_value(&wrong).unwrap();
    json["destination"]["managedTable"] = Value::from("yes");
    let wrong: CreatePipeRequest = serde_json::from_value(json).unwrap();
    assert_eq!(
        wrong.validate().unwrap_err().to_string(),
        "invalid request: `destination.managedTable` must be true or false; found a string"
    );
    // Nothing is built from it.
    let create = pipe_api_proto::CreatePipe::new(pipe_api_tests::org(), pipe_api_tests::service(), storage);
    assert!(create.build_request(&management()).is_err());
}

#[test]
fn a_member_newer_than_this_crate_is_sent_when_written_under_not_yet_known() {
    let scaling: UpdatePipeScalingRequest =
        serde_json::from_str(r#"{"replicas":2,"$notYetKnown":{"burstReplicas":4}}"#).unwrap();
    assert_eq!(scaling.validate(), Ok(()));
    assert_eq!(serde_json::to_string(&scaling).unwrap(), r#"{"replicas":2,"burstReplicas":4}"#);
    // In code: a field set with `insert` is sent too.
    let mut scaling = UpdatePipeScalingRequest::default().replicas(2);
    scaling.unknown.insert("burstReplicas", &4).unwrap();
    assert_eq!(scaling.validate(), Ok(()));
    // `$notYetKnown` holds members: anything else under it is refused.
    let odd: UpdatePipeScalingRequest = serde_json::from_str(r#"{"$notYetKnown":4}"#).unwrap();
    assert!(odd.validate().unwrap_err().contains("$notYetKnown", &Rule::UnknownField { did_you_mean: None }));
}

#[test]
fn an_alert_read_from_a_server_goes_back_whole() {
    let api = alerting();
    let read = pipe_api_proto::GetAlert::new(AlertId::new("a1"))
        .parse_response(
            &api,
            http::Response::new(
                br#"{"data":{"id":"a1","name":"n","source":"saved_search","savedSearchId":"s","threshold":1,
                    "thresholdType":"above","interval":"5m","channel":{"type":"webhook","webhookId":"w","priority":"high"},
                    "muteOnWeekends":true}}"#
                    .to_vec(),
            ),
        )
        .unwrap()
        .value;
    let update = UpdateAlert::new(AlertId::new("a1"), AlertRequest::from(read));
    let request = update.build_request(&api).unwrap();
    let body: Value = serde_json::from_slice(request.body()).unwrap();
    assert_eq!(body["muteOnWeekends"], Value::from(true));
    assert_eq!(body["channel"]["priority"], Value::from("high"));
}
