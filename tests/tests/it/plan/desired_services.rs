//! A desired state that declares services, read strictly: a member this crate does not know
//! under a service (or under a pipe under it) is refused at its whole path; a password written
//! in clear is refused; a file's top level holds no pipe once it declares services; alerts under
//! a service join the top level's. Planned against an organization with nothing (and with a
//! service of another name), the plan's steps and what it shows. Written from the contract's
//! `ServicePostRequest` and the service notes.

use pipe_api_plan::types::OrganizationId;
use pipe_api_plan::{Current, CurrentService, DesiredState, PlanOptions, Problem, plan_organization};
use serde_json::{Value, json};

fn environment() -> Value {
    json!({"services": [{
        "name": "analytics", "provider": "gcp", "region": "europe-west4",
        "autoscalingMode": "horizontal", "minReplicas": 2, "maxReplicas": 4,
        "minReplicaMemoryGb": 16, "maxReplicaMemoryGb": 16,
        "password": {"env": "ANALYTICS_PASSWORD"},
        "pipes": [{"name": "archive",
            "source": {"objectStorage": {"type": "s3", "format": "Parquet",
                "url": "https://archive.s3.eu-west-1.amazonaws.com/*.parquet",
                "authentication": "IAM_ROLE", "iamRole": "arn:aws:iam::123456789012:role/archive"}},
            "destination": {"table": "archive", "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]}}],
        "alerts": [{"name": "archive stalled", "source": "saved_search", "savedSearchId": "65f1a2b3c4d5e6f708190200",
            "threshold": 1, "thresholdType": "below", "interval": "5m",
            "channel": {"type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190001"}}]
    }]})
}

fn read(value: &Value) -> Result<DesiredState, pipe_api_plan::DesiredStateError> {
    DesiredState::from_json(&value.to_string(), |name| (name == "ANALYTICS_PASSWORD").then(|| "s3cret-pw-0e1d".into()))
}

const ORG: &str = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";

#[test]
fn a_declared_service_reads_with_its_pipes_under_it_and_its_alerts_at_the_top() {
    let desired = read(&environment()).unwrap();
    assert!(desired.declares_services());
    let service = desired.service("analytics").unwrap();
    assert!(service.declares_password());
    assert_eq!(service.resources.pipes[0].name(), "archive");
    assert!(service.resources.alerts.is_empty(), "alerts name no service: they join the top level's");
    assert_eq!(desired.alerts[0].name, Some(pipe_api_types::Nullable::Value("archive stalled".into())));
    let shown = format!("{desired:?}");
    assert!(!shown.contains("s3cret-pw-0e1d"), "{shown}");
}

#[test]
fn a_misspelt_member_under_a_service_is_refused_at_its_whole_path() {
    let mut misspelt = environment();
    misspelt["services"][0]["numReplcas"] = json!(2);
    let error = read(&misspelt).unwrap_err();
    assert!(error.path().starts_with("services[0]"), "{error}");
    assert!(error.to_string().contains("numReplcas"), "{error}");

    let mut deeper = environment();
    deeper["services"][0]["pipes"][0]["destination"]["tabel"] = json!("x");
    let error = read(&deeper).unwrap_err();
    assert_eq!(error.path(), "services[0].pipes[0].destination.tabel", "{error}");

    let mut state = environment();
    state["services"][0]["pipes"][0]["state"] = json!("paused");
    assert_eq!(read(&state).unwrap_err().path(), "services[0].pipes[0].state");
}

#[test]
fn a_password_in_clear_and_pipes_beside_services_are_refused() {
    let mut clear = environment();
    clear["services"][0]["password"] = json!("in clear");
    let error = read(&clear).unwrap_err();
    assert!(matches!(error.problem(), Problem::SecretInClear), "{error}");
    assert_eq!(error.path(), "services[0].password");

    let mut beside = environment();
    beside["pipes"] = beside["services"][0]["pipes"].clone();
    let error = read(&beside).unwrap_err();
    assert_eq!(error.path(), "pipes", "{error}");

    let mut twice = environment();
    let copy = twice["services"][0].clone();
    twice["services"].as_array_mut().unwrap().push(copy);
    let error = read(&twice).unwrap_err();
    assert!(matches!(error.problem(), Problem::SameName { .. }), "{error}");
    assert_eq!(error.path(), "services[1]");
}

#[test]
fn planned_from_nothing_the_service_is_created_waited_for_and_its_password_redacted() {
    let desired = read(&environment()).unwrap();
    let other: pipe_api_plan::types::Service = serde_json::from_value(json!({
        "id": "0b3f6f0e-1c2d-4e5f-8a9b-0c1d2e3f4a01", "name": "staging", "state": "running"
    }))
    .unwrap();
    let current = Current::of_organization(vec![CurrentService::new(other, None)], Some(Vec::new()));
    let org: OrganizationId = ORG.parse().unwrap();
    let plan = plan_organization(org, &desired, &current, &PlanOptions::default()).unwrap();
    let text = plan.to_string();
    for line in [
        "4 steps, 0 destructive",
        r#"1. create_service service "analytics": not on the server; then wait until it is running"#,
        "   POST /v1/organizations/6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001/services",
        r#"2. update_service_password service "analytics": its declared password, sent as its hashes (the one the create answers is never kept)"#,
        r#"   PATCH /v1/organizations/6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001/services/{id of service "analytics"}/password"#,
        r#"     "newDoubleSha1Hash": "[redacted]","#,
        r#"     "newPasswordHash": "[redacted]""#,
        r#"3. create_pipe pipe "archive" of service "analytics": not on the server"#,
        r#"   POST /v1/organizations/6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001/services/{id of service "analytics"}/pipes"#,
        r#"4. create_alert alert "archive stalled": not on the server"#,
        r#"- service "staging" is not in the desired state (pruning not asked)"#,
    ] {
        assert!(text.lines().any(|shown| shown == line), "{line:?} not in:\n{text}");
    }
    // The hashes a guesser could test passwords against are as hidden as the password (each
    // computed by hand: `echo -n "$password" | sha256sum | xxd -r -p | base64`, and `sha1sum`
    // twice), in the text, the JSON, `Debug` and the saved plan.
    let hashes = ["YN8SZ63u7eku7aQeMuSOFVuDwG2jrqG+tgjJ510y9a4=", "8bbbc5c7988ec37533d8aa856cfed2407032562e"];
    let shown = [text.clone(), plan.to_json().to_string(), format!("{plan:?}"), plan.saved().to_string()];
    for (shown, secret) in shown.iter().flat_map(|shown| ["s3cret-pw-0e1d", hashes[0], hashes[1]].map(|s| (shown, s))) {
        assert!(!shown.contains(secret), "{secret} in:\n{shown}");
    }

    let pruned = plan_organization(org, &desired, &current, &PlanOptions::default().prune(true)).unwrap();
    // After the declared services (and before the alerts): stopped, waited for, deleted.
    let steps: Vec<String> = pruned.steps().iter().map(|step| step.summary()).collect();
    assert_eq!(steps[3..5], [r#"update_service_state service "staging""#, r#"delete_service service "staging""#]);
    assert_eq!(pruned.steps()[3].then(), Some(pipe_api_plan::Awaited::ServiceStopped));
}
