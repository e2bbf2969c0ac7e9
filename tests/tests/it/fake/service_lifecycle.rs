//! A service's lifecycle on the fake's manual clock: `awake`, `stop`, `start` pass through
//! their passing state for the transition time and settle; pipe and reverse-private-endpoint
//! calls answer 424 with the current state until it runs; update and delete. Raw requests go
//! straight to `Fake::handle`, so every status and body is checked exactly.

use std::time::Duration;

use http::Method;
use pipe_api_fake::Fake;
use pipe_api_types::{Service, ServiceState};
use serde_json::{Value, json};

use crate::fake::common::*;

fn service_path() -> String {
    format!("/v1/organizations/{ORG}/services/{SERVICE}")
}

/// A fake whose service has an endpoint, an IP access list and a tag.
fn with_a_full_service() -> Fake {
    let endpoint = json!({"protocol": "https", "host": "svc.example.invalid", "port": 8443});
    let seeded: Service = serde_json::from_value(json!({
        "id": SERVICE, "name": "svc", "endpoints": [endpoint],
        "ipAccessList": [{"source": "10.0.0.0/8", "description": "vpn"}],
        "tags": [{"key": "team", "value": "data"}]
    }))
    .unwrap();
    with_admin(seeded)
}

/// The service's `state` as its GET answers it.
fn state(fake: &Fake) -> String {
    let response = admin(fake, Method::GET, &service_path(), None);
    assert_eq!(response.status(), 200);
    json_of(&response)["result"]["state"].as_str().unwrap().to_owned()
}

/// Sends a state command; the answer's status and the state it shows.
fn command(fake: &Fake, command: &str) -> (u16, Value) {
    let response = admin(fake, Method::PATCH, &format!("{}/state", service_path()), Some(json!({"command": command})));
    (response.status().as_u16(), json_of(&response))
}

fn pipes_status(fake: &Fake) -> (u16, Value) {
    let response = admin(fake, Method::GET, &format!("{}/pipes", service_path()), None);
    (response.status().as_u16(), json_of(&response))
}

#[test]
fn a_seeded_service_runs_and_shows_its_state() {
    let fake = with_a_full_service();
    assert_eq!(state(&fake), "running");
    assert_eq!(pipes_status(&fake).0, 200);
}

#[test]
fn awake_takes_an_idle_service_through_awaking_to_running_on_the_clock() {
    let fake = with_a_full_service();
    fake.set_service_transition_time(Duration::from_secs(20));
    fake.set_service_idle(org(), service(), true);
    assert_eq!(state(&fake), "idle");
    let (status, body) = pipes_status(&fake);
    assert_eq!(status, 424);
    assert_eq!(body["error"], "FAILED_DEPENDENCY: Service is not running. Current state: idle");

    let (status, body) = command(&fake, "awake");
    assert_eq!(status, 200);
    assert_eq!(body["result"]["state"], "awaking");
    assert_eq!(body["result"]["id"], SERVICE);
    let (status, body) = pipes_status(&fake);
    assert_eq!(status, 424, "still waking");
    assert_eq!(body["error"], "FAILED_DEPENDENCY: Service is not running. Current state: awaking");
    // A second awake while waking changes nothing.
    assert_eq!(command(&fake, "awake").0, 200);

    fake.advance(Duration::from_secs(19));
    assert_eq!(state(&fake), "awaking");
    fake.advance(Duration::from_secs(1));
    assert_eq!(state(&fake), "running");
    assert_eq!(pipes_status(&fake).0, 200);
}

#[test]
fn stop_and_start_walk_their_states_with_the_default_time() {
    let fake = with_a_full_service();
    let (status, body) = command(&fake, "stop");
    assert_eq!(status, 200);
    assert_eq!(body["result"]["state"], "stopping");
    // Going the other way while a transition is under way is a conflict, as the service says.
    let (status, body) = command(&fake, "start");
    assert_eq!(status, 409);
    assert_eq!(body["error"], "CONFLICT: a state transition is in progress. Current state: stopping");
    fake.advance(Duration::from_secs(30));
    assert_eq!(state(&fake), "stopped");
    let (status, body) = pipes_status(&fake);
    assert_eq!(status, 424);
    assert_eq!(body["error"], "FAILED_DEPENDENCY: Service is not running. Current state: stopped");
    let reverse = admin(&fake, Method::GET, &format!("{}/pipesReversePrivateEndpoints", service_path()), None);
    assert_eq!(reverse.status(), 424);

    // A stopped service is started, not woken.
    let (status, body) = command(&fake, "awake");
    assert_eq!(status, 400);
    assert_eq!(
        body["error"],
        "BAD_REQUEST: cannot awake the service: a stopped service is started, not woken. Current state: stopped"
    );
    assert_eq!(command(&fake, "stop").0, 200, "stopping a stopped service changes nothing");
    assert_eq!(state(&fake), "stopped");

    let (status, body) = command(&fake, "start");
    assert_eq!(status, 200);
    assert_eq!(body["result"]["state"], "starting");
    fake.advance(Duration::from_secs(29));
    assert_eq!(state(&fake), "starting");
    fake.advance(Duration::from_secs(1));
    assert_eq!(state(&fake), "running");
    assert_eq!(command(&fake, "start").0, 200, "starting a running service changes nothing");
}

#[test]
fn a_seeded_state_is_kept_and_set_service_state_ends_a_transition() {
    let fake = with_a_full_service();
    fake.set_service_state(org(), service(), ServiceState::Degraded);
    assert_eq!(state(&fake), "degraded");
    let (status, body) = command(&fake, "start");
    assert_eq!(status, 400);
    assert_eq!(body["error"], "BAD_REQUEST: cannot start the service: not from this state. Current state: degraded");
    fake.set_service_state(org(), service(), ServiceState::Running);
    assert_eq!(command(&fake, "stop").0, 200);
    fake.set_service_idle(org(), service(), false);
    fake.advance(Duration::from_secs(60));
    assert_eq!(state(&fake), "running", "the stop under way was ended by the seeding");
}

#[test]
fn state_commands_are_checked_by_the_fake() {
    let fake = with_a_full_service();
    for (body, error) in [
        (json!({"command": "restart"}), "BAD_REQUEST: invalid request: command: must be one of start, stop, awake"),
        (json!({}), "BAD_REQUEST: invalid request: command: is required"),
        (json!([]), "BAD_REQUEST: invalid request: body: must be an object"),
    ] {
        let response = admin(&fake, Method::PATCH, &format!("{}/state", service_path()), Some(body));
        assert_eq!(response.status(), 400);
        assert_eq!(json_of(&response)["error"], error);
    }
    assert_eq!(state(&fake), "running");
}

#[test]
fn update_applies_each_patch_and_shows_in_the_next_get() {
    let fake = with_a_full_service();
    let body = json!({
        "name": "renamed",
        "releaseChannel": "fast",
        "enableCoreDumps": true,
        "transparentDataEncryptionKeyId": "tde-2",
        "ipAccessList": {"remove": [{"source": "10.0.0.0/8"}], "add": [{"source": "203.0.113.7", "description": "office"}]},
        "privateEndpointIds": {"add": ["vpce-1", "vpce-2"], "remove": ["vpce-none"]},
        "tags": {"remove": [{"key": "team"}], "add": [{"key": "env", "value": "prod"}]},
        "endpoints": [{"protocol": "mysql", "enabled": true}]
    });
    let response = admin(&fake, Method::PATCH, &service_path(), Some(body));
    assert_eq!(response.status(), 200, "{}", String::from_utf8_lossy(response.body()));
    let read = json_of(&admin(&fake, Method::GET, &service_path(), None))["result"].clone();
    assert_eq!(json_of(&response)["result"], read, "the update's answer is what a get reads");
    assert_eq!(read["name"], "renamed");
    assert_eq!(read["releaseChannel"], "fast");
    assert_eq!(read["enableCoreDumps"], true);
    assert_eq!(read["transparentDataEncryptionKeyId"], "tde-2");
    assert_eq!(read["ipAccessList"], json!([{"source": "203.0.113.7", "description": "office"}]));
    assert_eq!(read["privateEndpointIds"], json!(["vpce-1", "vpce-2"]));
    assert_eq!(read["tags"], json!([{"key": "env", "value": "prod"}]));
    let endpoints = read["endpoints"].as_array().unwrap();
    assert_eq!(endpoints.len(), 2);
    // `ServiceEndpoint.username` is `string | null`; the fake writes the `null` (notes: "may be null").
    assert_eq!(
        endpoints[1],
        json!({"protocol": "mysql", "host": "svc.example.invalid", "port": 3306, "username": null})
    );

    let off = admin(
        &fake,
        Method::PATCH,
        &service_path(),
        Some(json!({"endpoints": [{"protocol": "mysql", "enabled": false}]})),
    );
    assert_eq!(json_of(&off)["result"]["endpoints"].as_array().unwrap().len(), 1);
}

#[test]
fn update_bodies_are_checked_by_the_fake() {
    let fake = with_a_full_service();
    let long = "x".repeat(51);
    for (body, error) in [
        (json!({"name": ""}), "name: must be a string of 1 to 50 characters"),
        (json!({"name": long}), "name: must be a string of 1 to 50 characters"),
        (json!({"releaseChannel": "beta"}), "releaseChannel: must be one of slow, default, fast"),
        (
            json!({"ipAccessList": {"add": [{"source": "10.0.0.0/33"}]}}),
            "ipAccessList.add[0].source: must be an IP address or a CIDR block",
        ),
        (json!({"ipAccessList": [{"source": "10.0.0.1"}]}), "ipAccessList: must be an object"),
        (json!({"privateEndpointIds": {"remove": [1]}}), "privateEndpointIds.remove[0]: must be a string"),
        (json!({"endpoints": [{"protocol": "https", "enabled": true}]}), "endpoints[0].protocol: must be one of mysql"),
        (json!({"endpoints": [{"protocol": "mysql", "enabled": "yes"}]}), "endpoints[0].enabled: must be a boolean"),
        (json!({"tags": {"add": [{"key": "a b"}]}}), "tags.add[0].key: must be 1 to 128 letters"),
        (json!({"tags": {"add": [{"value": "v"}]}}), "tags.add[0].key: must be 1 to 128 letters"),
        (json!({"tags": {"add": [{"key": "k", "value": "a/b"}]}}), "tags.add[0].value: must be up to 256 letters"),
        (json!({"tags": {"remove": vec![json!({"key": "k"}); 51]}}), "tags.remove: must have at most 50 elements"),
        (json!({"enableCoreDumps": "true"}), "enableCoreDumps: must be a boolean"),
    ] {
        let response = admin(&fake, Method::PATCH, &service_path(), Some(body.clone()));
        assert_eq!(response.status(), 400, "{body}");
        let message = json_of(&response)["error"].as_str().unwrap().to_owned();
        assert!(message.starts_with(&format!("BAD_REQUEST: invalid request: {error}")), "{body}: {message}");
    }
    assert_eq!(json_of(&admin(&fake, Method::GET, &service_path(), None))["result"]["name"], "svc");
}

/// The service notes: a delete is accepted only for a stopped service; the deletion then runs
/// on its own (`terminating`), and the service is gone when it ends.
#[test]
fn delete_is_refused_until_stopped_then_the_service_terminates_and_is_gone() {
    let fake = with_a_full_service();
    let refused = admin(&fake, Method::DELETE, &service_path(), None);
    assert_eq!(refused.status(), 400);
    let message = "BAD_REQUEST: cannot delete the service: it must be stopped first. Current state: running";
    assert_eq!(json_of(&refused)["error"], message);
    assert_eq!(command(&fake, "stop").0, 200);
    assert_eq!(admin(&fake, Method::DELETE, &service_path(), None).status(), 400, "still stopping");
    fake.advance(Duration::from_secs(30));

    let response = admin(&fake, Method::DELETE, &service_path(), None);
    assert_eq!(response.status(), 200);
    let body = json_of(&response);
    assert_eq!(body["status"], 200);
    assert!(body["requestId"].is_string());
    assert!(body.get("result").is_none(), "a delete answers no result");
    assert_eq!(state(&fake), "terminating");
    let listed = admin(&fake, Method::GET, &format!("/v1/organizations/{ORG}/services"), None);
    assert_eq!(json_of(&listed)["result"][0]["state"], "terminating", "listed while it terminates");
    fake.advance(Duration::from_secs(30));
    let listed = admin(&fake, Method::GET, &format!("/v1/organizations/{ORG}/services"), None);
    assert_eq!(json_of(&listed)["result"], json!([]), "gone from the list");
    for (method, path) in [
        (Method::GET, service_path()),
        (Method::DELETE, service_path()),
        (Method::GET, format!("{}/pipes", service_path())),
    ] {
        let response = admin(&fake, method, &path, None);
        assert_eq!(response.status(), 404);
        assert_eq!(json_of(&response)["error"], format!("NOT_FOUND: {SERVICE}"));
    }
}
