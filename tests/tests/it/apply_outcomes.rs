//! What an apply finishes and what it says, through the blocking client against the fake: an
//! idle service is woken, the apply's own deadline holds (on the virtual clock), a plan for
//! another service is refused, and every step's outcome is typed (index, operation, resource,
//! id, path, effect) in a success and in a failure, a failed wait included.

use std::time::Duration;

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fault, FaultRule};
use pipe_api_proto::wait::{WaitError, WaitPolicy};
use pipe_api_types::{ReversePrivateEndpointStatus, ServiceId};
use pipe_api_ureq::Client;
use pipe_api_ureq::plan::{
    ApplyError, ApplyFailure, ApplyOptions, DesiredState, Effect, Plan, PlanOptions, ResourceId, WaitFailure,
};

// The fake and a client over it on a virtual clock that moves the fake's: `fake.now()` is
// the client's time.
use crate::pipes_as_code::setup;

/// The README example's desired state: an endpoint (then waited for), a Kafka pipe through it,
/// an S3 pipe created then stopped (and waited for), and an alert.
const DESIRED: &str = include_str!("../../../crates/pipe-api-ureq/examples/desired-state.json");

fn desired() -> DesiredState {
    DesiredState::from_json(DESIRED, |_| Some("kafka-password-from-the-vault".to_owned())).unwrap()
}

fn plan(client: &Client) -> Plan {
    client.service(ORG, SERVICE).plan(&desired(), &PlanOptions::default()).unwrap()
}

#[test]
fn an_apply_against_an_idle_service_wakes_it_and_completes() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let plan = plan(&client);
    let endpoints = service.list_reverse_private_endpoints().unwrap().len();
    fake.set_service_idle(ORG, SERVICE, true);
    fake.clear_requests();

    let applied = service.apply(&plan).unwrap();
    assert_eq!(applied.steps().len(), plan.steps().len(), "{applied}");
    // The first request found it idle; the service was woken, read until running, and the
    // request sent again: once.
    let seen: Vec<String> = fake.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    let awake = seen.iter().position(|r| r.starts_with("PATCH ") && r.ends_with("/state")).expect("woken");
    assert!(seen[..awake].iter().all(|r| r.ends_with("/pipesReversePrivateEndpoints")), "{seen:#?}");
    let creates = seen.iter().filter(|r| *r == &seen[0]).count();
    assert_eq!(creates, 2, "{seen:#?}");
    assert_eq!(service.list_reverse_private_endpoints().unwrap().len(), endpoints + 1);
    assert!(service.plan(&desired(), &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn told_not_to_wake_an_apply_stops_at_the_idle_services_424() {
    let (fake, client) = setup();
    let plan = plan(&client);
    fake.set_service_idle(ORG, SERVICE, true);

    let error = client.service(ORG, SERVICE).apply_with(&plan, ApplyOptions::default().wake_idle(false)).unwrap_err();
    assert!(error.done().is_empty());
    // The apply's first request, the reading that checks the plan, found it idle: no step
    // was started.
    assert!(error.failed().is_none(), "{error}");
    let pipe_api_ureq::plan::ApplyFailure::Read(read) = error.cause() else { panic!("{error}") };
    assert_eq!(read.status().map(|s| s.as_u16()), Some(424));
    assert!(error.to_string().contains("idle"), "{error}");
    assert!(!fake.requests().iter().any(|r| r.path.ends_with("/state")), "not woken");
}

#[test]
fn planning_and_exporting_an_idle_service_wake_it_first() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    fake.set_service_idle(ORG, SERVICE, true);
    fake.clear_requests();

    let plan = service.plan(&desired(), &PlanOptions::default()).unwrap();
    assert!(!plan.is_empty(), "{plan}");
    let seen: Vec<String> = fake.requests().iter().map(|r| format!("{} {}", r.method, r.path)).collect();
    let awake = seen.iter().filter(|r| r.starts_with("PATCH ") && r.ends_with("/state")).count();
    assert_eq!(awake, 1, "{seen:#?}");
    // Found idle by its first read, woken, read until running, then read again.
    assert!(seen[0].ends_with("/pipesReversePrivateEndpoints") && seen[1].ends_with("/state"), "{seen:#?}");
    assert!(seen.iter().filter(|r| r.ends_with("/pipesReversePrivateEndpoints")).count() == 2, "{seen:#?}");

    fake.set_service_idle(ORG, SERVICE, true);
    let exported = service.export(&pipe_api_ureq::plan::ExportOptions::default().leave_out_unreadable(true)).unwrap();
    assert!(exported.to_string().contains("pipes"), "{exported}");
}

/// An endpoint that takes an hour to be ready, an apply given a minute: it stops within the
/// minute on the virtual clock, says its deadline ended it, and that the endpoint was created
/// (with its id).
#[test]
fn an_apply_stops_within_its_own_deadline() {
    let (fake, client) = setup();
    let plan = plan(&client);
    fake.set_reverse_private_endpoint_durations(Duration::from_secs(3600), Duration::from_secs(30));
    let deadline = Duration::from_secs(60);

    let start = fake.now();
    let error = client.service(ORG, SERVICE).apply_with(&plan, ApplyOptions::default().deadline(deadline)).unwrap_err();
    let took: Duration = (fake.now() - start).try_into().unwrap();
    assert!(took <= deadline, "{took:?}");
    assert!(took >= deadline / 2, "it used its time: {took:?}");
    let ApplyFailure::Deadline { deadline: said, elapsed } = error.cause() else { panic!("{error}") };
    assert_eq!((*said, *elapsed <= deadline), (deadline, true));
    let failed = error.failed().unwrap();
    assert_eq!((failed.index(), failed.effect()), (0, Some(Effect::Created)));
    let endpoint = client.service(ORG, SERVICE).list_reverse_private_endpoints().unwrap();
    let endpoint = endpoint.iter().find(|e| e.description.as_deref() == Some("ingest brokers")).unwrap();
    assert_eq!(failed.id(), Some(&ResourceId::ReversePrivateEndpoint(endpoint.id)));
    assert_eq!(error.not_started().len(), plan.steps().len() - 1);
    let text = error.to_string();
    assert!(text.contains("deadline") && !text.contains('\n'), "{text}");
}

/// Every step's outcome, typed: its index and row, its resource, the id it created or changed,
/// its path as sent, what it did; and the plan's requests' own paths and methods.
#[test]
fn an_applied_plan_says_each_steps_id_path_and_effect() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let plan = plan(&client);
    // Before applying: known ids in place, an id a step creates as its placeholder.
    let stop = &plan.steps()[3];
    assert_eq!(stop.request().method(), http::Method::PATCH);
    assert!(stop.request().resolved_path().ends_with(r#"/pipes/{id of pipe "archive"}/state"#));

    let applied = service.apply(&plan).unwrap();
    let steps = applied.steps();
    let indexes: Vec<usize> = steps.iter().map(|step| step.index()).collect();
    assert_eq!(indexes, [0, 1, 2, 3, 4]);
    for (outcome, step) in steps.iter().zip(plan.steps()) {
        assert!(std::ptr::eq(outcome.operation(), step.request().operation()));
        assert_eq!(outcome.resource(), step.resource());
        assert_eq!(outcome.method(), step.request().method());
    }
    let effects: Vec<Option<Effect>> = steps.iter().map(|step| step.effect()).collect();
    let created = Some(Effect::Created);
    assert_eq!(effects, [created, created, created, Some(Effect::Changed), created]);

    let endpoint = service.list_reverse_private_endpoints().unwrap();
    let endpoint = endpoint.iter().find(|e| e.description.as_deref() == Some("ingest brokers")).unwrap();
    let archive = fake.pipes(ORG, SERVICE).into_iter().find(|p| p.name.as_deref() == Some("archive")).unwrap();
    let clicks = fake.pipes(ORG, SERVICE).into_iter().find(|p| p.name.as_deref() == Some("clicks")).unwrap();
    assert_eq!(steps[0].id(), Some(&ResourceId::ReversePrivateEndpoint(endpoint.id)));
    assert_eq!(steps[1].id(), Some(&ResourceId::Pipe(clicks.id)));
    assert_eq!(steps[2].id(), Some(&ResourceId::Pipe(archive.id)));
    // The stop names the pipe the create before it made: its path is the one sent.
    assert_eq!(steps[3].id(), Some(&ResourceId::Pipe(archive.id)));
    assert_eq!(steps[3].path(), format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes/{}/state", archive.id));
    let sent = fake.requests().into_iter().any(|r| r.method == http::Method::PATCH && r.path == steps[3].path());
    assert!(sent, "the path sent");
    let Some(ResourceId::Alert(alert)) = steps[4].id() else { panic!("{:?}", steps[4]) };
    assert_eq!(client.get_alert(alert.clone()).unwrap().name.as_deref(), Some("clicks stalled"));
    assert_eq!(steps[4].to_string(), r#"create_alert alert "clicks stalled""#);
}

/// A failing apply: the steps done with their ids, the failed one with its index and none, the
/// rest not started, an id no step made shown as its placeholder.
#[test]
fn a_failed_apply_says_what_was_done_what_failed_and_what_was_not_started() {
    let (fake, client) = setup();
    let plan = plan(&client);
    // The second pipe create (the archive) is refused.
    fake.inject(FaultRule::path_ends_with("/pipes", Fault::status(400)).method(http::Method::POST).nth(2));

    let error = client.service(ORG, SERVICE).apply(&plan).unwrap_err();
    let done: Vec<(usize, Option<Effect>)> = error.done().iter().map(|step| (step.index(), step.effect())).collect();
    assert_eq!(done, [(0, Some(Effect::Created)), (1, Some(Effect::Created))]);
    assert!(error.done().iter().all(|step| step.id().is_some()), "{:?}", error.done());
    let failed = error.failed().unwrap();
    assert_eq!((failed.index(), failed.operation().name, failed.effect()), (2, "create_pipe", None));
    assert_eq!(failed.resource().name, "archive");
    assert_eq!(failed.id(), None);
    assert_eq!(error.call_error().and_then(|e| e.status()).map(|s| s.as_u16()), Some(400));
    let not_started: Vec<(usize, &str)> =
        error.not_started().iter().map(|step| (step.index(), step.operation().name)).collect();
    assert_eq!(not_started, [(3, "change_pipe_state"), (4, "create_alert")]);
    assert!(error.not_started()[0].path().ends_with(r#"/pipes/{id of pipe "archive"}/state"#));
    assert_eq!(error.not_started()[0].id(), None);
    let text = error.to_string();
    assert!(text.starts_with(r#"apply: step 3 (create_pipe pipe "archive") failed: create_pipe: HTTP 400"#), "{text}");
    assert!(!text.contains('\n'), "{text}");
    assert!(!format!("{:?}", error.done()).contains("kafka-password-from-the-vault"));
}

/// A wait that fails inside an apply is typed by what it polled: no downcasting.
#[test]
fn a_failed_wait_is_typed_by_what_it_polled() {
    let (fake, client) = setup();
    let plan = plan(&client);
    fake.set_reverse_private_endpoint_durations(Duration::from_secs(3600), Duration::from_secs(30));
    let options = ApplyOptions::default().wait(WaitPolicy::default().deadline(Duration::from_secs(20)));

    let error = client.service(ORG, SERVICE).apply_with(&plan, options).unwrap_err();
    let Some(WaitFailure::ReversePrivateEndpoint(wait)) = error.wait_error() else { panic!("{error}") };
    assert!(matches!(**wait, WaitError::TimedOut { .. }), "{wait}");
    assert_eq!(wait.last().and_then(|e| e.status.clone()), Some(ReversePrivateEndpointStatus::Provisioning));
    assert!(matches!(error.cause(), ApplyFailure::Wait(_)));
    assert_eq!(error.failed().and_then(|step| step.effect()), Some(Effect::Created));
    assert!(error.to_string().starts_with("apply: step 1 (create_reverse_private_endpoint"), "{error}");
}

/// A plan made for one service, applied through another's handle, is refused before anything
/// is sent: its paths name the service it was made for.
#[test]
fn a_plan_for_another_service_is_refused_before_anything_is_sent() {
    let (fake, client) = setup();
    let plan = plan(&client);
    let other: ServiceId = "11111111-2222-4333-8444-555555555555".parse().unwrap();
    fake.clear_requests();

    let error: ApplyError = client.service(ORG, other).apply(&plan).unwrap_err();
    assert!(fake.requests().is_empty(), "{:?}", fake.requests());
    let ApplyFailure::OtherService { planned_service, service, .. } = error.cause() else { panic!("{error}") };
    assert_eq!((*planned_service, *service), (Some(SERVICE), Some(other)));
    assert!(error.failed().is_none() && error.done().is_empty());
    assert_eq!(error.not_started().len(), plan.steps().len());
    let text = error.to_string();
    assert!(text.starts_with("apply: refused: the plan was made for service"), "{text}");
    assert!(text.contains("nothing was sent") && !text.contains('\n'), "{text}");
}

/// Review: an endpoint replaced (delete, then create under the same description) whose create
/// is lost (504 after it took effect) is looked for by description: the old one, still
/// `Deleting`, is listed first and adopted.
#[test]
fn a_lost_create_of_a_replaced_endpoint_adopts_the_new_one_not_the_one_being_deleted() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    fake.set_reverse_private_endpoint_durations(Duration::from_secs(1), Duration::from_secs(600));
    let only_endpoint = |name: &str| {
        DesiredState::from_json(
            &serde_json::json!({"reversePrivateEndpoints": [{"description": "ingest brokers",
                "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": name}]})
            .to_string(),
            |_| None,
        )
        .unwrap()
    };
    let first = service.plan(&only_endpoint("com.amazonaws.vpce.eu-west-1.vpce-svc-0a"), &PlanOptions::default());
    service.apply(&first.unwrap()).unwrap();
    let old = service.list_reverse_private_endpoints().unwrap()[0].id.to_string();
    let options = PlanOptions::default().allow_replacement(true);
    let replace = service.plan(&only_endpoint("com.amazonaws.vpce.eu-west-1.vpce-svc-0b"), &options).unwrap();
    fake.inject(
        FaultRule::path_ends_with(
            "/pipesReversePrivateEndpoints",
            Fault::status(504).body("upstream request timeout").after_handling(),
        )
        .method(http::Method::POST),
    );
    let outcome = service.apply(&replace);
    let steps: Vec<String> = match &outcome {
        Ok(applied) => applied.steps().iter().map(|s| format!("{:?} {:?}", s.effect(), s.id())).collect(),
        Err(error) => vec![error.to_string()],
    };
    assert!(outcome.is_ok(), "{steps:#?}");
    let adopted = outcome.as_ref().ok().and_then(|a| a.steps().last()).and_then(|s| s.id()).map(|id| id.to_string());
    assert!(adopted.is_some_and(|id| id != old), "{steps:#?}");
}
