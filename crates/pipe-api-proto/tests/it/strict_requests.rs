//! Strict in: a request read from JSON text refuses, at every depth, a member this crate does not
//! know (with the nearest known name) and a value of the wrong type (saying what the field
//! takes), before anything is built; a member sent on purpose under `$notYetKnown` is sent as it
//! is; and a server's answer, vouched for by the decoder, goes back whole.
//!
//! Driven by the table of operations: every operation with a body has its requests in
//! `fixtures/operations/<name>/request*.json`, written from the contracts, and each is mutated at
//! every object (a member added, a member misspelt) and at every scalar member (a value of
//! another JSON type). An operation added to the table without them fails here, naming it.

use std::path::Path;

use pipe_api_proto::operations::OPERATIONS;
use pipe_api_proto::{BaseUrl, EndpointExt, Management, ManagementCredentials, UpdateAlert};
use pipe_api_types::*;
use serde::de::DeserializeOwned;
use serde_json::Value;

/// Reads `json` as the request type the table names, and validates it.
fn check(request_type: &str, json: &Value) -> Result<(), ValidationErrors> {
    fn read<T: DeserializeOwned + Validate>(json: &Value) -> Result<(), ValidationErrors> {
        serde_json::from_value::<T>(json.clone()).expect("a request model reads any object").validate()
    }
    match request_type {
        "CreateKeyRequest" => read::<CreateKeyRequest>(json),
        "UpdateKeyRequest" => read::<UpdateKeyRequest>(json),
        "CreateServiceRequest" => read::<CreateServiceRequest>(json),
        "UpdateOrganizationRequest" => read::<UpdateOrganizationRequest>(json),
        "UpdateServiceRequest" => read::<UpdateServiceRequest>(json),
        "UpdateServicePasswordRequest" => read::<UpdateServicePasswordRequest>(json),
        "UpdateServiceReplicaScalingRequest" => read::<UpdateServiceReplicaScalingRequest>(json),
        "UpdateServiceStateRequest" => read::<UpdateServiceStateRequest>(json),
        "CreatePipeRequest" => read::<CreatePipeRequest>(json),
        "UpdatePipeRequest" => read::<UpdatePipeRequest>(json),
        "ChangePipeStateRequest" => read::<ChangePipeStateRequest>(json),
        "UpdatePipeScalingRequest" => read::<UpdatePipeScalingRequest>(json),
        "PipeSettings" => read::<PipeSettings>(json),
        "PipesCdcScaling" => read::<PipesCdcScaling>(json),
        "PipeSchemaDiscoveryRequest" => read::<PipeSchemaDiscoveryRequest>(json),
        "CreateReversePrivateEndpointRequest" => read::<CreateReversePrivateEndpointRequest>(json),
        "UpdateReversePrivateEndpointRequest" => read::<UpdateReversePrivateEndpointRequest>(json),
        "AlertRequest" => read::<AlertRequest>(json),
        other => panic!("{other}: a request type this test cannot read yet: add it to `check`"),
    }
}

/// Every (operation, request type, fixture name, request) of the table.
fn every_request() -> Vec<(&'static str, &'static str, String, Value)> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/fixtures/operations");
    let mut all = Vec::new();
    for operation in OPERATIONS {
        let Some(request_type) = operation.request else { continue };
        let mut found = 0;
        for entry in std::fs::read_dir(root.join(operation.name)).unwrap() {
            let path = entry.unwrap().path();
            let name = path.file_stem().unwrap().to_string_lossy().into_owned();
            if name.starts_with("request") {
                let json = serde_json::from_slice(&std::fs::read(&path).unwrap()).unwrap();
                all.push((operation.name, request_type, name, json));
                found += 1;
            }
        }
        assert!(found > 0, "{}: no request*.json fixture for its {request_type} body", operation.name);
    }
    all
}

/// Every object in `value` with its path (`source.kafka`, `destination.columns[0]`), the root
/// first.
fn objects(value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            out.push(path.to_owned());
            for (name, child) in members {
                objects(child, &join(path, name), out);
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                objects(item, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// Every member of an object whose value is a scalar, with its path.
fn scalar_members(value: &Value, path: &str, out: &mut Vec<String>) {
    match value {
        Value::Object(members) => {
            for (name, child) in members {
                let at = join(path, name);
                if matches!(child, Value::Object(_) | Value::Array(_)) {
                    scalar_members(child, &at, out);
                } else {
                    out.push(at);
                }
            }
        }
        Value::Array(items) => {
            for (i, item) in items.iter().enumerate() {
                scalar_members(item, &format!("{path}[{i}]"), out);
            }
        }
        _ => {}
    }
}

/// `path.name`, or `name` at the root.
fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") }
}

/// The value at `path` (as [`objects`] writes them).
fn at<'a>(value: &'a mut Value, path: &str) -> &'a mut Value {
    if path.is_empty() {
        return value;
    }
    let mut current = value;
    for segment in path.split('.') {
        let (name, indices) = segment.split_once('[').map_or((segment, ""), |(name, rest)| (name, rest));
        current = &mut current[name];
        for index in indices.split('[').filter(|i| !i.is_empty()) {
            current = &mut current[index.trim_end_matches(']').parse::<usize>().unwrap()];
        }
    }
    current
}

#[test]
fn every_request_fixture_is_valid_as_written() {
    for (operation, request_type, name, json) in every_request() {
        assert_eq!(check(request_type, &json), Ok(()), "{operation}/{name}");
    }
}

#[test]
fn a_member_this_crate_does_not_know_is_refused_at_every_depth_with_its_whole_path() {
    let mut checked = 0;
    for (operation, request_type, name, json) in every_request() {
        let mut paths = Vec::new();
        objects(&json, "", &mut paths);
        for path in paths {
            let mut changed = json.clone();
            at(&mut changed, &path).as_object_mut().unwrap().insert("zzUnheardOf".into(), Value::from(1));
            let errors = check(request_type, &changed).expect_err(&format!("{operation}/{name}: at `{path}`"));
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
    for (operation, request_type, name, json) in every_request() {
        let mut paths = Vec::new();
        scalar_members(&json, "", &mut paths);
        for path in paths {
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
            let errors = check(request_type, &changed).expect_err(&format!("{operation}/{name}: `{path}` as `{typo}`"));
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
    for (operation, request_type, name, json) in every_request() {
        let mut paths = Vec::new();
        scalar_members(&json, "", &mut paths);
        for path in paths {
            let mut changed = json.clone();
            let value = at(&mut changed, &path);
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
            let errors = check(request_type, &changed).expect_err(&format!("{operation}/{name}: `{path}`"));
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
    let api = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new("key-id", "key-secret").unwrap(),
    );
    let create = pipe_api_proto::CreatePipe::new(
        "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".parse().unwrap(),
        "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002".parse().unwrap(),
        storage,
    );
    assert!(create.build_request(&api).is_err());
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
    let api = crate::every_operation::alerting();
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
