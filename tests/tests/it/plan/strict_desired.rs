//! Strict in, for a desired state: a member this crate does not know, at any level of a desired
//! pipe (each source kind), endpoint or alert, is refused with its whole path from the root and
//! the nearest known name, and a value of the wrong type says what its field takes; nothing is
//! planned from it. The desired state is made of the operations' request fixtures (proto's,
//! written from the contracts), their secrets written as references.

use pipe_api_plan::types::Rule;
use pipe_api_plan::{DesiredState, DesiredStateError, Problem};
use pipe_api_tests::fixtures::json_fixture;
use pipe_api_tests::json_paths::{self, Paths, at};
use serde_json::{Value, json};

/// Request fixture `name` of `operation`.
fn request(operation: &str, name: &str) -> Value {
    json_fixture(&format!("operations/{operation}/{name}.json"))
}

/// Every secret written in clear made a reference, as a desired state must hold it.
fn references(value: &mut Value) {
    const SECRETS: [&str; 5] = ["password", "secretKey", "connectionString", "privateKey", "serviceAccountKey"];
    match value {
        Value::Object(members) => {
            for (name, child) in members.iter_mut() {
                if SECRETS.contains(&name.as_str()) && child.is_string() {
                    *child = json!({"env": "SECRET"});
                } else {
                    references(child);
                }
            }
        }
        Value::Array(items) => items.iter_mut().for_each(references),
        _ => {}
    }
}

/// A desired state with a pipe of each source kind, two endpoints and two alerts.
fn desired() -> Value {
    let mut pipes: Vec<Value> = ["request_kafka", "request_object_storage", "request_kinesis", "request_postgres"]
        .into_iter()
        .map(|name| request("create_pipe", name))
        .collect();
    pipes[0]["state"] = json!("stopped");
    let mut state = json!({
        "reversePrivateEndpoints": [request("create_reverse_private_endpoint", "request"),
            request("create_reverse_private_endpoint", "request_msk")],
        "pipes": pipes,
        "alerts": [request("create_alert", "request"), request("create_alert", "request_tile")],
    });
    references(&mut state);
    state
}

fn read(state: &Value) -> Result<DesiredState, DesiredStateError> {
    DesiredState::from_json(&state.to_string(), |_| Some("from-the-vault".into()))
}

/// Every object of `value` and every scalar member, with their paths; secret references left
/// out (they are read before the models).
fn walk(value: &Value) -> Paths {
    json_paths::walk(value, |object| object.get("env").is_some())
}

#[test]
fn the_desired_state_of_every_kind_reads_as_written() {
    let state = read(&desired()).unwrap();
    assert_eq!((state.pipes.len(), state.reverse_private_endpoints.len(), state.alerts.len()), (4, 2, 2));
}

#[test]
fn a_misspelt_member_at_any_level_is_refused_with_its_whole_path_and_the_name_meant() {
    let state = desired();
    let Paths { objects, scalars } = walk(&state);
    let mut checked = 0;
    // Each object below a resource gets an unknown member; each member of four letters or more
    // is misspelt (a letter dropped).
    for path in objects.iter().filter(|path| path.contains('[')) {
        let mut changed = state.clone();
        at(&mut changed, path).as_object_mut().unwrap().insert("zzUnheardOf".into(), json!(1));
        let error = read(&changed).expect_err(path);
        assert_eq!(error.path(), format!("{path}.zzUnheardOf"), "{error}");
        checked += 1;
    }
    for path in scalars.iter().filter(|path| path.contains('[')) {
        let (parent, field) = path.rsplit_once('.').unwrap();
        // A pipe's `state` is the desired state's own member, not the request's.
        if field.len() < 4 || field == "state" && parent.starts_with("pipes[") && !parent.contains('.') {
            continue;
        }
        let middle = field.len() / 2;
        let typo = format!("{}{}", &field[..middle], &field[middle + 1..]);
        let mut changed = state.clone();
        let object = at(&mut changed, parent).as_object_mut().unwrap();
        let value = object.remove(field).unwrap();
        object.insert(typo.clone(), value);
        let error = read(&changed).expect_err(path);
        let Problem::Invalid(errors) = error.problem() else { panic!("{path}: {error}") };
        let meant = Rule::UnknownField { did_you_mean: Some(Box::leak(field.to_owned().into_boxed_str())) };
        assert!(errors.contains(&format!("{parent}.{typo}"), &meant), "{path}: {error}");
        checked += 1;
    }
    assert!(checked > 150, "{checked}");
}

#[test]
fn a_value_of_the_wrong_type_at_any_level_says_what_its_field_takes() {
    let state = desired();
    let scalars = walk(&state).scalars;
    let mut checked = 0;
    for path in scalars.iter().filter(|path| path.contains('.')) {
        let mut changed = state.clone();
        let value = at(&mut changed, path);
        *value = if value.is_string() { json!(7) } else { json!("seven") };
        let error = read(&changed).expect_err(path);
        let field = match path.strip_suffix(']') {
            Some(element) => element.rsplit_once('[').unwrap().0.to_owned(),
            None => path.clone(),
        };
        match error.problem() {
            Problem::Invalid(errors) => {
                let wrong = errors.violations().iter().find(|v| v.path == field);
                assert!(matches!(wrong.map(|v| &v.rule), Some(Rule::WrongType { .. })), "{path}: {error}");
            }
            // A pipe's own `state`, read before the request.
            Problem::Malformed(_) => assert!(path.ends_with("].state"), "{path}: {error}"),
            _ => panic!("{path}: {error}"),
        }
        checked += 1;
    }
    assert!(checked > 100, "{checked}");
}

#[test]
fn what_the_issue_found_in_a_desired_state_reads_as_a_user_needs() {
    let mut state = desired();
    state["pipes"][0]["scaling"]["replcas"] = state["pipes"][0]["scaling"]["replicas"].take();
    state["pipes"][0]["scaling"].as_object_mut().unwrap().remove("replicas");
    let error = read(&state).unwrap_err();
    assert_eq!(error.path(), "pipes[0].scaling.replcas");
    assert_eq!(
        error.to_string(),
        "desired state: invalid request: `pipes[0].scaling.replcas` is not a field this crate knows (did you mean \
         `replicas`?); a field newer than this crate is sent under `$notYetKnown`"
    );

    let mut state = desired();
    state["pipes"][1]["destination"]["managedTable"] = json!("yes");
    let error = read(&state).unwrap_err();
    assert_eq!(error.path(), "pipes[1].destination.managedTable");
    assert_eq!(
        error.to_string(),
        "desired state: invalid request: `pipes[1].destination.managedTable` must be true or false; found a string"
    );

    // A member newer than this crate, on purpose.
    let mut state = desired();
    state["pipes"][0]["source"]["kafka"]["$notYetKnown"] = json!({"compressionLevel": 3});
    let read = read(&state).unwrap();
    let kafka = read.pipes[0].pipe.source.as_ref().unwrap().kafka.as_ref().unwrap();
    assert_eq!(kafka.unknown.get("compressionLevel"), Some("3"));
}
