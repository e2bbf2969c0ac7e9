//! Pipes as code bounded like every call, through the public API with hostile input: every
//! message it shows is cut (1 MiB names, members and states), a stale refusal names the change
//! with both values, reading the current state stops a listing without end and keeps a
//! deadline of its own, and a plan applied twice never creates twice. The memory of its
//! readers is measured with the answers' in `decode_memory.rs` (`PLAN_READERS`).

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fault, FaultRule};
use pipe_api_proto::Error;
use pipe_api_ureq::plan::{
    ApplyFailure, Current, DesiredState, ExportOptions, MAX_SHOWN, PlanOptions, ReadOptions, SavedPlan, export, plan,
};
use pipe_api_ureq::{Client, VirtualClock};
use serde_json::{Value, json};

use crate::pipes_as_code::setup;

const MIB: usize = 1024 * 1024;

/// Asserts that `{}` and `{:?}` of `shown` are at most [`MAX_SHOWN`] bytes (and a little more
/// for `Debug`'s own words), and returns `{}`.
fn cut(what: &str, shown: &(impl std::fmt::Display + std::fmt::Debug)) -> String {
    let (display, debug) = (shown.to_string(), format!("{shown:?}"));
    assert!(display.len() <= MAX_SHOWN, "{what}: Display is {} bytes", display.len());
    assert!(debug.len() <= MAX_SHOWN + 256, "{what}: Debug is {} bytes", debug.len());
    display
}

/// A Kafka pipe as the server answers it, named `name`, in `state`.
fn pipe_json(name: &str, state: &str) -> Value {
    json!({"id": "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e", "serviceId": SERVICE, "name": name, "state": state,
        "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092", "topics": "t",
            "authentication": "PLAIN"}},
        "destination": {"database": "default", "table": "t", "managedTable": true,
            "columns": [{"name": "id", "type": "UInt64"}]}})
}

/// The desired state of that pipe, stopped.
fn desired_stopped(name: &str) -> DesiredState {
    let desired = json!({"pipes": [{"name": name, "state": "stopped",
        "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092", "topics": "t",
            "authentication": "PLAIN", "credentials": {"username": "u", "password": {"env": "P"}}}},
        "destination": {"database": "default", "table": "t", "managedTable": true,
            "columns": [{"name": "id", "type": "UInt64"}]}}]});
    DesiredState::from_json(&desired.to_string(), |_| Some("a-password".to_owned())).unwrap()
}

fn current_of(pipes: &[Value]) -> Current {
    let pipes = pipes.iter().map(|pipe| serde_json::from_value(pipe.clone()).unwrap()).collect();
    Current::new(Vec::new(), pipes, None)
}

fn ids() -> (pipe_api_ureq::types::OrganizationId, pipe_api_ureq::types::ServiceId) {
    (ORG, SERVICE)
}

/// Every message pipes as code shows, each made from 1 MiB of what a file or a server holds:
/// a new output goes in this list.
#[test]
fn every_message_of_pipes_as_code_is_cut_whatever_it_holds() {
    let huge = "x".repeat(MIB);
    let (org, service) = ids();

    // A saved plan's file with a member named with 1 MiB (it named it whole: 1,048,621 bytes).
    let file = format!(r#"{{"savedPlan": 1, "{huge}": 1}}"#);
    let refused = SavedPlan::from_json(&file).unwrap_err();
    assert!(cut("a malformed saved plan", &refused).contains("is not a member of a saved plan"));

    // A stale saved plan whose pipe's state now reads 1 MiB (shown whole: 1,048,662 bytes).
    let desired = desired_stopped("orders");
    let planned = plan(org, service, &desired, &current_of(&[pipe_json("orders", "Running")]), &PlanOptions::default());
    let saved = planned.unwrap().saved();
    let now = current_of(&[pipe_json("orders", &huge)]);
    let stale = saved.confirm(org, Some(service), &desired, &now).unwrap_err();
    let text = cut("a stale saved plan", &stale);
    assert!(text.contains("state Running -> xxx"), "{text}");
    for change in stale.changes() {
        cut("a stale change", change);
    }

    // A desired state with a member named with 1 MiB, at the root and within a pipe.
    let file = format!(r#"{{"{huge}": []}}"#);
    cut("a desired state's unknown kind", &DesiredState::from_json(&file, |_| None).unwrap_err());
    let file = json!({"pipes": [{"name": "orders", huge.clone(): 1}]}).to_string();
    cut("a desired pipe's unknown member", &DesiredState::from_json(&file, |_| None).unwrap_err());

    // Two pipes of a 1 MiB name: the plan's notes, the export's refusal.
    let twice = current_of(&[pipe_json(&huge, "Running"), pipe_json(&huge, "Running")]);
    let planned = plan(org, service, &desired_stopped("orders"), &twice, &PlanOptions::default()).unwrap();
    assert!(!planned.notes().is_empty());
    for note in planned.notes() {
        assert!(note.len() <= MAX_SHOWN, "a plan's note is {} bytes", note.len());
    }
    cut("an export's refusal", &export(&twice, &ExportOptions::default()).unwrap_err());

    // An export's notes: a pipe that does not read as a desired one, left out.
    let mut unreadable = pipe_json(&huge, "Running");
    unreadable["source"]["kafka"][&huge] = json!(1);
    let exported = export(&current_of(&[unreadable]), &ExportOptions::default().leave_out_unreadable(true)).unwrap();
    for note in exported.notes() {
        assert!(note.len() <= MAX_SHOWN, "an export's note is {} bytes", note.len());
    }
}

/// A state this crate does not know is a phase of its own: the refusal names the change with
/// both values (it said "saved: change_pipe_state pipe \"x\"; now: change_pipe_state pipe
/// \"x\"", the same text twice).
#[test]
fn a_stale_refusal_names_the_change_it_found_with_both_values() {
    let (org, service) = ids();
    let desired = desired_stopped("x");
    let planned = plan(org, service, &desired, &current_of(&[pipe_json("x", "Running")]), &PlanOptions::default());
    let saved = planned.unwrap().saved();
    let now = current_of(&[pipe_json("x", "Rebalancing")]);
    let text = saved.confirm(org, Some(service), &desired, &now).unwrap_err().to_string();
    assert!(text.contains(r#"pipe "x" changed since the plan (state Running -> Rebalancing)"#), "{text}");
}

/// A client whose transport answers the service's listings with nothing and every alert page
/// with a full page of new alerts and a total that never comes, `step` of its clock passing
/// per exchange; and the number of requests sent.
fn endless_alerts(step: Duration) -> (Client, Arc<AtomicUsize>) {
    let sent = Arc::new(AtomicUsize::new(0));
    let counted = sent.clone();
    let clock = VirtualClock::new(pipe_api_proto::time::OffsetDateTime::UNIX_EPOCH);
    let moved = clock.clone();
    let transport = move |request: http::Request<Vec<u8>>| {
        let n = counted.fetch_add(1, Ordering::Relaxed);
        moved.advance(step);
        let body = if request.uri().path().ends_with("/alerts") {
            let alerts: Vec<Value> = (0..1000)
                .map(|i| {
                    json!({"id": format!("{n:012x}{i:012x}"), "name": format!("alert {n} {i}"), "source": "tile",
                        "dashboardId": "d", "tileId": "t", "threshold": 1, "thresholdType": "above",
                        "interval": "1m", "channel": {"type": "webhook", "webhookId": "w"}})
                })
                .collect();
            json!({"data": alerts, "meta": {"total": 1_000_000_000u64, "limit": 1000, "offset": (n - 2) * 1000}})
        } else {
            json!({"status": 200, "requestId": "r", "result": []})
        };
        Ok(http::Response::builder().status(200).body(body.to_string().into_bytes()).unwrap())
    };
    let client = Client::builder()
        .management("https://api.example.com", "key-id", "key-secret")
        .alerting("https://api.example.com", "alerts-token")
        .transport(transport)
        .clock(clock)
        .build()
        .unwrap();
    (client, sent)
}

/// A listing without end stops once it holds what one answer may (it went on for 1,002
/// requests and 736 MiB), and reading has a deadline of its own (at a page a minute it ran for
/// hours): the alerts are then not read, or the reading ends with `NotSent`.
#[test]
fn reading_the_current_state_stops_a_listing_without_end_and_keeps_its_deadline() {
    let (client, sent) = endless_alerts(Duration::ZERO);
    let current = client.service(ORG, SERVICE).current_state(true).unwrap();
    assert!(current.alerts.is_none(), "a listing cut short is not every alert");
    let requests = sent.load(Ordering::Relaxed);
    // Each page is about 220 KB: 16 MiB of them is some 75 pages.
    assert!((10..=120).contains(&requests), "{requests} requests");

    let (client, sent) = endless_alerts(Duration::from_secs(60));
    let options = ReadOptions::default().alerts(true).deadline(Duration::from_secs(15 * 60));
    let error = client.service(ORG, SERVICE).current_state_with(options).unwrap_err();
    assert!(matches!(error, Error::NotSent(_)), "{error}");
    assert_eq!(error.operation(), "list_alerts", "{error}");
    assert!(
        sent.load(Ordering::Relaxed) <= 16,
        "{} requests in 15 minutes at one a minute",
        sent.load(Ordering::Relaxed)
    );
}

const ALERT: &str = r#"{"alerts": [{"name": "lag", "source": "tile", "dashboardId": "d", "tileId": "t",
    "threshold": 7, "thresholdType": "above", "interval": "1m", "channel": {"type": "webhook", "webhookId": "w"}}]}"#;

fn alert_creates(fake: &pipe_api_fake::Fake) -> usize {
    let requests = fake.requests().into_iter();
    requests.filter(|r| r.method == http::Method::POST && r.path.ends_with("/alerts")).count()
}

/// An apply checks the service as a saved plan does: the same plan applied twice is refused
/// the second time, before anything is sent (it created the alert again).
#[test]
fn a_plan_applied_twice_never_creates_twice() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let desired = DesiredState::from_json(ALERT, |_| None).unwrap();
    let planned = service.plan(&desired, &PlanOptions::default()).unwrap();
    service.apply(&planned).unwrap();
    assert_eq!(alert_creates(&fake), 1);

    let again = service.apply(&planned).unwrap_err();
    assert!(matches!(again.cause(), ApplyFailure::Stale(_)), "{again}");
    let text = again.to_string();
    assert!(text.contains(r#"alert "lag" exists now, and the plan creates it"#), "{text}");
    assert!(text.contains("nothing was sent"), "{text}");
    assert_eq!(alert_creates(&fake), 1);
    assert!(again.failed().is_none() && again.done().is_empty());
}

/// Two resources of one name after a lost create are a conflict shown to the user, not a
/// guess (it adopted one of them without saying so).
#[test]
fn two_of_a_name_after_a_lost_create_are_a_conflict() {
    let (fake, _) = setup();
    // The create is made, and its answer lost (502); meanwhile someone else made one of the
    // same name.
    fake.inject(FaultRule::path_ends_with("/alerts", Fault::status(502).after_handling()).method(http::Method::POST));
    let server = fake.clone();
    let transport = move |request: http::Request<Vec<u8>>| {
        let creates = request.method() == http::Method::POST && request.uri().path().ends_with("/alerts");
        let answer = server.handle(request.clone());
        if creates {
            server.handle(request);
        }
        Ok(answer)
    };
    let client = Client::builder()
        .management("https://api.example.com", pipe_api_fake::DEMO_KEY_ID, pipe_api_fake::DEMO_KEY_SECRET)
        .alerting("https://api.example.com", pipe_api_fake::DEMO_ALERTS_TOKEN)
        .transport(transport)
        .retry_policy(pipe_api_tests::fast_retries())
        .build()
        .unwrap();
    let service = client.service(ORG, SERVICE);
    let desired = DesiredState::from_json(ALERT, |_| None).unwrap();
    let planned = service.plan(&desired, &PlanOptions::default()).unwrap();
    let error = service.apply(&planned).unwrap_err();
    let text = error.to_string();
    assert!(text.contains("found 2 of the name, a conflict"), "{text}");
    assert!(error.done().is_empty(), "nothing adopted: {text}");
}
