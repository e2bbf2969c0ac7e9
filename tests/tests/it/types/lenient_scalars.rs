//! A value that does not fit its field's type never fails a response and is never dropped: it
//! reads as absent, is kept among its object's unknown fields and is written back (issue "faithful
//! to the real contract", section 2). One table: each field type read by the default codec (text,
//! bool, open enum, UUID id, secret, nested object, list), given a value of every other JSON type
//! inside a real response body.

use pipe_api_types::{Alert, CreateKeyResponse, Key, Pipe, Service, UnknownFields};
use serde::Serialize;
use serde::de::DeserializeOwned;
use serde_json::{Value, json};

/// The JSON type a field expects: a value of any other type does not fit.
#[derive(Clone, Copy, PartialEq)]
enum Expects {
    /// Any string (text, open enums, secrets).
    Text,
    /// Only a string that is a UUID.
    Uuid,
    Bool,
    Array,
    Object,
}

/// Values of every JSON type but `null` (which is absent, not kept), with what a re-written
/// value could lose: escapes, floats, nested members out of name order.
fn misfits(expects: Expects) -> Vec<Value> {
    let all = [
        (Expects::Text, json!("text")),
        (Expects::Text, json!("a\"b\u{e9}\n")),
        (Expects::Text, json!("")),
        (Expects::Bool, json!(true)),
        (Expects::Bool, json!(false)),
        (Expects::Object, json!({ "z": [1, { "b": null }], "a": 2.5 })),
        (Expects::Object, json!({})),
        (Expects::Array, json!([1, "a", { "b": false }])),
        (Expects::Array, json!([])),
    ];
    let numbers = [json!(5), json!(-7), json!(1.5), json!(18446744073709551615u64), json!(1e300)];
    let uuid_misfits = [json!("nope"), json!("8f3e1d2c-4b5a-4697-a8b9")];
    let mut values: Vec<Value> = numbers.to_vec();
    values.extend(
        all.into_iter()
            .filter(|(kind, _)| {
                // A UUID field refuses every string above: none is a UUID.
                *kind != expects && !(expects == Expects::Uuid && *kind == Expects::Text)
            })
            .map(|(_, value)| value),
    );
    if expects == Expects::Uuid {
        values.extend(uuid_misfits);
    }
    values
}

/// Puts `misfit` at `field` of the object at `at` (a JSON pointer) in `body`, reads the body as
/// `M`, and checks that the read succeeds, `view` says the field is absent and its object keeps
/// the value, and writing back gives the body.
fn check<M: DeserializeOwned + Serialize>(
    body: &Value,
    at: &str,
    field: &str,
    misfit: &Value,
    view: fn(&M) -> (bool, &UnknownFields),
) {
    let mut body = body.clone();
    body.pointer_mut(at).and_then(Value::as_object_mut).expect(at).insert(field.to_owned(), misfit.clone());
    let case = format!("{at}/{field} = {misfit}");
    let model: M = serde_json::from_value(body.clone()).unwrap_or_else(|e| panic!("{case}: {e}"));
    // The same from text, as a client reads a response.
    let from_text: M = serde_json::from_str(&body.to_string()).unwrap_or_else(|e| panic!("{case} (text): {e}"));
    let (absent, unknown) = view(&model);
    assert!(absent, "{case}: the field is not absent");
    assert_eq!(unknown.get_value(field).as_ref(), Some(misfit), "{case}: not kept");
    assert_eq!(serde_json::to_value(&model).unwrap(), body, "{case}: written back differently");
    assert_eq!(serde_json::to_value(&from_text).unwrap(), body, "{case}: written back differently (text)");
}

const PIPE: &str = include_str!("../fixtures/models/pipe_kafka.json");
const KEY: &str = include_str!("../fixtures/models/key.json");
const SERVICE: &str = include_str!("../fixtures/models/service.json");
const ALERT: &str = include_str!("../fixtures/models/alert_newer.json");

/// A fixture without its `null` members: `null` reads as absent, so it is not written back, and
/// the check compares the whole body.
fn body(text: &str) -> Value {
    fn drop_nulls(value: &mut Value) {
        match value {
            Value::Object(members) => {
                members.retain(|_, member| !member.is_null());
                members.values_mut().for_each(drop_nulls);
            }
            Value::Array(items) => items.iter_mut().for_each(drop_nulls),
            _ => {}
        }
    }
    let mut value = serde_json::from_str(text).unwrap();
    drop_nulls(&mut value);
    value
}

#[test]
fn a_misfit_of_each_field_type_reads_as_absent_and_is_written_back() {
    let pipe = body(PIPE);
    let mut key = body(KEY);
    // `"expireAt": ""` is the services' "never", read as absent and so not written back.
    key.as_object_mut().unwrap().remove("expireAt");
    let service = body(SERVICE);
    let alert = body(ALERT);
    let created_key = json!({ "key": key, "keyId": "AKIAEXAMPLE", "keySecret": "s3cr3t" });
    let scheduled = json!({ "id": "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402", "scalingSchedule": { "entries": [] } });

    for (expects, name) in [
        (Expects::Text, "Pipe.name (Text)"),
        (Expects::Text, "Pipe.state (open enum)"),
        (Expects::Uuid, "Pipe.serviceId (UUID id)"),
        (Expects::Bool, "Destination.managedTable (bool)"),
        (Expects::Object, "Pipe.destination (object)"),
        (Expects::Array, "Pipe.fieldMappings (list)"),
        (Expects::Text, "Key.keySuffix (Text)"),
        (Expects::Text, "Key.state (open enum)"),
        (Expects::Array, "Key.roles (list of open enums)"),
        (Expects::Text, "CreateKeyResponse.keySecret (Secret)"),
        (Expects::Object, "CreateKeyResponse.key (object)"),
        (Expects::Bool, "Service.idleScaling (bool)"),
        (Expects::Text, "Service.provider (open enum)"),
        (Expects::Uuid, "ScalingSchedule.activeEntryId (UUID id)"),
        (Expects::Text, "Alert.name (Text)"),
        (Expects::Text, "Alert.state (open enum)"),
    ] {
        for misfit in &misfits(expects) {
            match name {
                "Pipe.name (Text)" => check::<Pipe>(&pipe, "", "name", misfit, |m| (m.name.is_none(), &m.unknown)),
                "Pipe.state (open enum)" => {
                    check::<Pipe>(&pipe, "", "state", misfit, |m| (m.state.is_none(), &m.unknown));
                }
                "Pipe.serviceId (UUID id)" => {
                    check::<Pipe>(&pipe, "", "serviceId", misfit, |m| (m.service_id.is_none(), &m.unknown));
                }
                "Destination.managedTable (bool)" => {
                    check::<Pipe>(&pipe, "/destination", "managedTable", misfit, |m| {
                        let destination = m.destination.as_ref().unwrap();
                        (destination.managed_table.is_none(), &destination.unknown)
                    })
                }
                "Pipe.destination (object)" => {
                    check::<Pipe>(&pipe, "", "destination", misfit, |m| (m.destination.is_none(), &m.unknown));
                }
                "Pipe.fieldMappings (list)" => {
                    check::<Pipe>(&pipe, "", "fieldMappings", misfit, |m| (m.field_mappings.is_none(), &m.unknown));
                }
                "Key.keySuffix (Text)" => {
                    check::<Key>(&key, "", "keySuffix", misfit, |m| (m.key_suffix.is_none(), &m.unknown));
                }
                "Key.state (open enum)" => check::<Key>(&key, "", "state", misfit, |m| (m.state.is_none(), &m.unknown)),
                "Key.roles (list of open enums)" => {
                    check::<Key>(&key, "", "roles", misfit, |m| (m.roles.is_none(), &m.unknown));
                }
                "CreateKeyResponse.keySecret (Secret)" => {
                    check::<CreateKeyResponse>(&created_key, "", "keySecret", misfit, |m| {
                        (m.key_secret.is_none(), &m.unknown)
                    })
                }
                "CreateKeyResponse.key (object)" => {
                    check::<CreateKeyResponse>(&created_key, "", "key", misfit, |m| (m.key.is_none(), &m.unknown));
                }
                "Service.idleScaling (bool)" => {
                    check::<Service>(&service, "", "idleScaling", misfit, |m| (m.idle_scaling.is_none(), &m.unknown));
                }
                "Service.provider (open enum)" => {
                    check::<Service>(&service, "", "provider", misfit, |m| (m.provider.is_none(), &m.unknown));
                }
                "ScalingSchedule.activeEntryId (UUID id)" => {
                    check::<Service>(&scheduled, "/scalingSchedule", "activeEntryId", misfit, |m| {
                        let schedule = m.scaling_schedule.as_ref().unwrap();
                        (schedule.active_entry_id.is_none(), &schedule.unknown)
                    });
                }
                "Alert.name (Text)" => check::<Alert>(&alert, "", "name", misfit, |m| (m.name.is_none(), &m.unknown)),
                "Alert.state (open enum)" => {
                    check::<Alert>(&alert, "", "state", misfit, |m| (m.state.is_none(), &m.unknown));
                }
                other => panic!("no case {other}"),
            }
        }
    }
}

#[test]
fn values_that_fit_still_read() {
    let pipe: Pipe = serde_json::from_value(json!({
        "id": "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e",
        "serviceId": "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402",
        "name": "orders \u{e9}\"",
        "state": "Hibernating",
        "destination": { "managedTable": false, "roles": [] },
        "fieldMappings": [],
    }))
    .unwrap();
    assert_eq!(pipe.name.as_deref(), Some("orders \u{e9}\""));
    assert_eq!(pipe.state.as_ref().map(|s| s.as_str()), Some("Hibernating"));
    assert!(pipe.state.as_ref().is_some_and(|s| !s.is_known()));
    assert_eq!(pipe.service_id.map(|id| id.to_string()).as_deref(), Some("8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402"));
    assert_eq!(pipe.destination.as_ref().and_then(|d| d.managed_table), Some(false));
    assert_eq!(pipe.field_mappings.as_deref().map(<[_]>::len), Some(0));
    assert!(pipe.unknown.is_empty());
    // `null` is absent, not kept.
    let pipe: Pipe = serde_json::from_str(r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":null}"#).unwrap();
    assert!(pipe.name.is_none() && pipe.unknown.is_empty());
}

#[test]
fn a_field_set_after_a_misfit_was_kept_is_written_once_with_its_new_value() {
    let mut pipe: Pipe =
        serde_json::from_str(r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":5,"managed":"yes"}"#).unwrap();
    assert_eq!(pipe.unknown.get("name"), Some("5"));
    pipe.name = Some("orders".into());
    assert_eq!(
        serde_json::to_value(&pipe).unwrap(),
        json!({ "id": "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e", "name": "orders", "managed": "yes" })
    );
}

#[test]
fn a_kept_integer_bool_or_plain_string_is_written_back_as_its_exact_text() {
    let text = r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":-12,"state":true,"serviceId":"nope"}"#;
    let pipe: Pipe = serde_json::from_str(text).unwrap();
    assert_eq!(serde_json::to_string(&pipe).unwrap(), text);
}

/// A list with an element that does not fit its type (a number among roles, a `null` sorting
/// key, a column that is no object) reads as absent and is kept whole, with the elements that
/// fit written again as they were read.
#[test]
fn a_list_with_an_element_that_does_not_fit_is_kept_whole() {
    let mut key = body(KEY);
    // `expireAt: ""` reads as "never expires" and is not written back; not what this checks.
    key.as_object_mut().unwrap().remove("expireAt");
    for roles in [json!(["admin", 5]), json!([5, "developer"]), json!(["admin", null, "developer"]), json!([[]])] {
        check::<Key>(&key, "", "roles", &roles, |m| (m.roles.is_none(), &m.unknown));
    }
    let pipe = body(PIPE);
    let columns = json!([{"name": "id", "type": "UInt64"}, "not a column", {"name": "at", "type": "DateTime"}]);
    check::<Pipe>(&pipe, "/destination", "columns", &columns, |m| {
        let destination = m.destination.as_ref().unwrap();
        (destination.columns.is_none(), &destination.unknown)
    });
    // Elements that fit still read, in order.
    let mut fits = key.clone();
    fits["roles"] = json!(["admin", "developer"]);
    let read: Key = serde_json::from_value(fits).unwrap();
    assert_eq!(read.roles.map(|roles| roles.len()), Some(2));
}

/// Numbers, quantities and dates read through the same visit as every other field: a value
/// that is no whole number in range, no quantity, or no RFC 3339 date is kept and written back
/// as the same JSON value.
#[test]
fn a_misfit_of_a_number_quantity_or_date_field_reads_as_absent_and_is_written_back() {
    let pipe = body(PIPE);
    let shapes = [json!(true), json!([1]), json!({ "a": 1 })];
    let integer_misfits =
        [json!(-7), json!(1.5), json!(4294967296u64), json!(18446744073709551615u64), json!(1e300), json!("5")];
    for misfit in integer_misfits.iter().chain(&shapes) {
        check::<Pipe>(&pipe, "/scaling", "replicas", misfit, |m| {
            let scaling = m.scaling.as_ref().unwrap();
            (scaling.replicas.is_none(), &scaling.unknown)
        });
    }
    for misfit in [json!("lots"), json!("500x"), json!("")].iter().chain(&shapes) {
        check::<Pipe>(&pipe, "/scaling", "replicaCpuMillicores", misfit, |m| {
            let scaling = m.scaling.as_ref().unwrap();
            (scaling.replica_cpu_millicores.is_none(), &scaling.unknown)
        });
    }
    let date_misfits = [json!(5), json!(1.5), json!("2024-05-01T10:00Z"), json!("yesterday")];
    for misfit in date_misfits.iter().chain(&shapes) {
        check::<Pipe>(&pipe, "", "createdAt", misfit, |m| (m.created_at.is_none(), &m.unknown));
    }
}

/// What fits reads, in every number form; `""` is an absent date, not a kept one.
#[test]
fn numbers_in_any_form_and_empty_dates_read() {
    for (replicas, expected) in [(json!(3), 3), (json!(3.0), 3), (json!(3e0), 3), (json!(0.03e2), 3)] {
        let pipe: Pipe = serde_json::from_value(json!({
            "id": "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e",
            "scaling": { "replicas": replicas },
            "createdAt": "",
        }))
        .unwrap();
        assert_eq!(pipe.scaling.unwrap().replicas, Some(expected), "{replicas}");
        assert!(pipe.created_at.is_none() && pipe.unknown.is_empty());
    }
}

/// A number beyond what a float holds (`1e400`) fails the read where a known field has it,
/// because serde_json refuses to read it as a number; in an unknown field it is kept as text.
#[test]
fn a_number_beyond_a_float_fails_only_in_a_known_field() {
    let with =
        |field: &str| format!(r#"{{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","scaling":{{"{field}":1e400}}}}"#);
    assert!(serde_json::from_str::<Pipe>(&with("replicas")).is_err());
    let pipe: Pipe = serde_json::from_str(&with("burst")).unwrap();
    assert_eq!(pipe.scaling.unwrap().unknown.get("burst"), Some("1e400"));
}

/// Unknown fields keep their order, repeated names, names with any text and values of any
/// length; `insert` replaces, `remove` takes every field of the name.
#[test]
fn unknown_fields_keep_what_they_are_given() {
    let long = "x".repeat(300);
    let body = format!(r#"{{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","b":1,"a:9":"{long}","":[],"b":{{"c":"é"}}}}"#);
    let mut pipe: Pipe = serde_json::from_str(&body).unwrap();
    let long_json = format!("\"{long}\"");
    let fields: Vec<(&str, &str)> = pipe.unknown.iter().collect();
    assert_eq!(fields, [("b", "1"), ("a:9", long_json.as_str()), ("", "[]"), ("b", r#"{"c":"é"}"#)]);
    assert_eq!(pipe.unknown.len(), 4);
    assert_eq!(pipe.unknown.get("b"), Some(r#"{"c":"é"}"#), "the last of a repeated name");
    assert_eq!(serde_json::to_string(&pipe).unwrap(), body, "written back as read");

    pipe.unknown.insert("a:9", &json!(2)).unwrap();
    assert_eq!(pipe.unknown.remove("b").as_deref(), Some(r#"{"c":"é"}"#));
    assert_eq!(pipe.unknown.names().collect::<Vec<_>>(), ["", "a:9"]);
    assert_eq!(pipe.unknown.get("a:9"), Some("2"));
    assert_eq!(pipe.unknown.remove("nothing"), None);
}
