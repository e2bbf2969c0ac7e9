//! Pipes as code against the fake's lifecycles: plan, snapshot, apply, and the empty plan
//! after it; changes, replacements, pruning, and faults (a 503 on a create, a 429); an idle
//! service, the apply's deadline and its typed outcomes are in `apply_outcomes.rs`. The
//! desired states are written here from the contract, as a user writes them.

use pipe_api_fake::{
    DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake,
    Fault, FaultRule,
};
use pipe_api_proto::ListAlerts;
use pipe_api_types::{AlertChannel, AlertRequest, PipeState};
use pipe_api_ureq::plan::{Applied, DesiredState, Effect, PlanError, PlanOptions, Problem};
use pipe_api_ureq::{Client, VirtualClock};

const BASE: &str = "https://api.example.com";

/// A service's ingestion as a user keeps it, the README's example's file: an endpoint, a Kafka
/// pipe reaching its brokers through it, an S3 pipe kept stopped, and an alert.
const DESIRED: &str = include_str!("../../../crates/pipe-api-ureq/examples/desired-state.json");

fn secrets(name: &str) -> Option<String> {
    (name == "KAFKA_PASSWORD").then(|| "kafka-password-from-the-vault".to_owned())
}

fn desired(text: &str) -> DesiredState {
    DesiredState::from_json(text, secrets).unwrap()
}

/// The fake with demo data, and a client of both interfaces over it whose waits move the
/// fake's clock instead of sleeping.
pub(crate) fn setup() -> (Fake, Client) {
    let fake = Fake::demo();
    let follower = fake.clone();
    let clock = VirtualClock::new(fake.now()).follow_with(move |step| follower.advance(step));
    let client = Client::builder()
        .management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET)
        .alerting(BASE, DEMO_ALERTS_TOKEN)
        .transport(fake.clone())
        .clock(clock)
        .build()
        .unwrap();
    (fake, client)
}

/// The summaries of the steps an apply adopted.
fn adopted(applied: &Applied) -> Vec<String> {
    let steps = applied.steps().iter().filter(|step| step.effect() == Some(Effect::Adopted));
    steps.map(ToString::to_string).collect()
}

#[test]
fn a_first_apply_creates_everything_and_a_second_plan_is_empty() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let desired = desired(DESIRED);

    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    insta::assert_snapshot!(plan.to_string());
    assert!(!plan.to_string().contains("kafka-password-from-the-vault"));
    assert!(!plan.to_json().to_string().contains("kafka-password-from-the-vault"));
    assert!(!format!("{plan:?}").contains("kafka-password-from-the-vault"));

    let applied = service.apply(&plan).unwrap();
    assert_eq!(applied.steps().len(), plan.steps().len());
    assert!(applied.steps().iter().all(|step| step.effect().is_some_and(|effect| effect != Effect::Adopted)));

    // What the server now has: the pipe reaches its brokers through the endpoint made first,
    // with the secret sent; the archive pipe is stopped.
    let endpoint = service.list_reverse_private_endpoints().unwrap();
    let endpoint = endpoint.iter().find(|e| e.description.as_deref() == Some("ingest brokers")).unwrap();
    let pipes = fake.pipes(ORG, SERVICE);
    let clicks = pipes.iter().find(|p| p.name.as_deref() == Some("clicks")).unwrap();
    let kafka = clicks.source.as_ref().unwrap().kafka.as_ref().unwrap();
    assert_eq!(kafka.reverse_private_endpoint_ids.as_deref().unwrap(), [endpoint.id.to_string().as_str()]);
    let sent = fake.requests().into_iter().find(|r| r.method == http::Method::POST && r.path.ends_with("/pipes"));
    assert!(String::from_utf8_lossy(&sent.unwrap().body).contains("kafka-password-from-the-vault"));

    let again = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert!(again.is_empty(), "{again}");
    assert!(again.to_string().starts_with("no changes\n"), "{again}");
    let archive = service.list_pipes().unwrap().into_iter().find(|p| p.name.as_deref() == Some("archive")).unwrap();
    assert!(matches!(archive.state, Some(PipeState::Stopped | PipeState::Stopping)), "{:?}", archive.state);
}

#[test]
fn a_changed_desired_state_gives_the_minimal_plan_and_then_none() {
    let (_fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    service.apply(&service.plan(&desired(DESIRED), &PlanOptions::default()).unwrap()).unwrap();

    let changed = DESIRED
        .replace(r#""sourceField": "click_id""#, r#""sourceField": "click""#)
        .replace(r#""scaling": { "replicas": 2 }"#, r#""scaling": { "replicas": 3 }"#)
        .replace(r#""state": "stopped""#, r#""state": "running""#)
        .replace(r#""threshold": 1,"#, r#""threshold": 5,"#);
    let plan = service.plan(&desired(&changed), &PlanOptions::default()).unwrap();
    insta::assert_snapshot!(plan.to_string());
    let operations: Vec<&str> = plan.steps().iter().map(|s| s.request().operation().name).collect();
    assert_eq!(operations, ["update_pipe", "update_pipe_scaling", "change_pipe_state", "update_alert"]);

    service.apply(&plan).unwrap();
    let again = service.plan(&desired(&changed), &PlanOptions::default()).unwrap();
    assert!(again.is_empty(), "{again}");
}

#[test]
fn a_field_no_update_can_change_is_a_replacement_refused_unless_allowed() {
    let (_fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    service.apply(&service.plan(&desired(DESIRED), &PlanOptions::default()).unwrap()).unwrap();
    let moved = desired(&DESIRED.replace("b-1.ingest.internal:9096", "b-2.ingest.internal:9096"));

    let refused = service.plan(&moved, &PlanOptions::default()).unwrap_err();
    match &refused {
        PlanError::ReplacementRefused { resource, fields, .. } => {
            assert_eq!(resource.name, "clicks");
            assert_eq!(fields.iter().map(|field| field.path.as_str()).collect::<Vec<_>>(), ["source.kafka.brokers"]);
        }
        other => panic!("{other}"),
    }
    assert!(refused.to_string().contains("replacement is not allowed"), "{refused}");

    let plan = service.plan(&moved, &PlanOptions::default().allow_replacement(true)).unwrap();
    let operations: Vec<&str> = plan.steps().iter().map(|s| s.request().operation().name).collect();
    assert_eq!(operations, ["delete_pipe", "create_pipe"]);
    assert!(plan.steps()[0].destructive().is_some());
    assert!(plan.to_string().contains("DESTRUCTIVE"), "{plan}");
    service.apply(&plan).unwrap();
    assert!(service.plan(&moved, &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn pruning_deletes_what_is_not_named_only_when_asked() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let desired = desired(DESIRED);

    // The demo's two pipes, two endpoints and three alerts are left alone, and said so.
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert!(plan.steps().iter().all(|s| !s.request().operation().name.starts_with("delete_")));
    assert_eq!(plan.notes().len(), 2 + 2 + 3, "{plan}");
    service.apply(&plan).unwrap();
    assert_eq!(fake.pipes(ORG, SERVICE).len(), 4);

    // Pruning the service leaves the team's alerts alone; pruning alerts is asked apart.
    let service_only = service.plan(&desired, &PlanOptions::default().prune(true)).unwrap();
    assert_eq!(service_only.steps().len(), 4, "{service_only}");
    let prune = service.plan(&desired, &PlanOptions::default().prune(true).prune_alerts(true)).unwrap();
    let operations: Vec<&str> = prune.steps().iter().map(|s| s.request().operation().name).collect();
    assert_eq!(
        operations,
        [
            "delete_pipe",
            "delete_pipe",
            "delete_reverse_private_endpoint",
            "delete_reverse_private_endpoint",
            "delete_alert",
            "delete_alert",
            "delete_alert"
        ]
    );
    assert!(prune.steps().iter().all(|s| s.destructive().is_some()));
    service.apply(&prune).unwrap();
    let names: Vec<String> =
        fake.pipes(ORG, SERVICE).into_iter().filter_map(|p| p.name.map(|n| n.to_string())).collect();
    assert_eq!(names, ["clicks", "archive"]);
    let again = service.plan(&desired, &PlanOptions::default().prune(true).prune_alerts(true)).unwrap();
    assert!(again.is_empty(), "{again}");
}

#[test]
fn a_503_on_a_create_that_did_nothing_stops_the_apply_and_says_what_was_done() {
    let (_fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let desired = desired(DESIRED);
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    _fake.inject(FaultRule::path_ends_with("/pipes", Fault::unavailable("1")).method(http::Method::POST).times(1));

    let error = service.apply(&plan).unwrap_err();
    assert_eq!(error.failed().unwrap().to_string(), r#"create_pipe pipe "clicks""#);
    assert_eq!(error.done().len(), 1, "{error}");
    assert_eq!(error.not_started().len(), plan.steps().len() - 2, "{error}");
    assert_eq!(error.call_error().and_then(|e| e.status()).map(|s| s.as_u16()), Some(503));
    let text = error.to_string();
    assert!(text.contains(r#"listed afterwards: no pipe "clicks" was created"#), "{text}");
    assert!(text.contains("not started: create_pipe pipe \"archive\""), "{text}");

    // The create was not sent again; a new plan picks up where it stopped.
    let rest = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert_eq!(rest.steps()[0].request().operation().name, "create_pipe");
    service.apply(&rest).unwrap();
    assert!(service.plan(&desired, &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn a_create_whose_answer_was_lost_is_adopted_not_sent_again() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let desired = desired(DESIRED);
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    let lost = Fault::unavailable("1").after_handling();
    fake.inject(FaultRule::path_ends_with("/pipes", lost).method(http::Method::POST).times(1));

    let applied = service.apply(&plan).unwrap();
    let adopted = adopted(&applied);
    assert_eq!(adopted, [r#"create_pipe pipe "clicks""#]);
    assert!(applied.to_string().contains("1 adopted"), "{applied}");
    let clicks = fake.pipes(ORG, SERVICE).into_iter().filter(|p| p.name.as_deref() == Some("clicks")).count();
    assert_eq!(clicks, 1);
    assert!(service.plan(&desired, &PlanOptions::default()).unwrap().is_empty());
}

/// Each kind's create, its answer lost: listed by its kind's list operation and adopted (an
/// endpoint then waited for as if created).
#[test]
fn a_lost_create_of_every_kind_is_adopted() {
    for (path, step) in [
        (
            "/pipesReversePrivateEndpoints",
            r#"create_reverse_private_endpoint reverse private endpoint "ingest brokers""#,
        ),
        ("/pipes", r#"create_pipe pipe "clicks""#),
        ("/api/v2/alerts", r#"create_alert alert "clicks stalled""#),
    ] {
        let (fake, client) = setup();
        let service = client.service(ORG, SERVICE);
        let desired = desired(DESIRED);
        let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
        let lost = Fault::status(502).after_handling();
        fake.inject(FaultRule::path_ends_with(path, lost).method(http::Method::POST).times(1));

        let applied = service.apply(&plan).unwrap();
        let adopted = adopted(&applied);
        assert_eq!(adopted, [step]);
        let again = service.plan(&desired, &PlanOptions::default()).unwrap();
        assert!(again.is_empty(), "{path}: {again}");
    }
}

/// A service with many pipes: the listing after a lost create is read typed, as the planner's
/// (a JSON value of it would cost many times its body, which the decode budget refuses).
#[test]
fn a_lost_create_is_found_among_four_thousand_pipes() {
    let (fake, client) = setup();
    for i in 0..4000u32 {
        let pipe = serde_json::json!({"id": format!("0b9e3c55-6d5f-4a8e-9a43-{i:012}"), "name": format!("other-{i}"),
            "state": "Running", "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092",
            "topics": format!("topic-{i}"), "authentication": "PLAIN"}},
            "destination": {"database": "default", "table": format!("t{i}"), "managedTable": true,
            "columns": [{"name": "id", "type": "UInt64"}, {"name": "payload", "type": "String"}]}});
        fake.seed_pipe_json(ORG, SERVICE, pipe);
    }
    let service = client.service(ORG, SERVICE);
    let desired = desired(DESIRED);
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    let lost = Fault::status(502).after_handling();
    fake.inject(FaultRule::path_ends_with("/pipes", lost).method(http::Method::POST).times(1));

    let applied = service.apply(&plan).unwrap();
    assert_eq!(adopted(&applied).len(), 1, "{applied}");
    let clicks = fake.pipes(ORG, SERVICE).into_iter().filter(|p| p.name.as_deref() == Some("clicks")).count();
    assert_eq!(clicks, 1);
}

/// An alert with two channels on the server, a file naming only its first (`channel`) and a
/// new threshold: the `PUT` keeps the second channel (one with `channel` alone would cut the
/// alert down to it), and the next plan is empty.
#[test]
fn an_alerts_other_channels_are_kept_when_the_file_names_only_its_first() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    service.apply(&service.plan(&desired(DESIRED), &PlanOptions::default()).unwrap()).unwrap();
    let first = AlertChannel::webhook("65f1a2b3c4d5e6f708190001");
    let second = AlertChannel::webhook("65f1a2b3c4d5e6f708190002");
    let alert = client
        .alerts()
        .list_alerts(ListAlerts::new())
        .unwrap()
        .alerts
        .into_iter()
        .find(|alert| alert.name.as_deref() == Some("clicks stalled"))
        .unwrap();
    let both = AlertRequest::from(alert.clone()).channels([first.clone(), second.clone()]);
    client.update_alert(alert.id.clone(), both).unwrap();

    let changed = DESIRED.replace(r#""threshold": 1,"#, r#""threshold": 3,"#);
    let plan = service.plan(&desired(&changed), &PlanOptions::default()).unwrap();
    assert_eq!(plan.steps().len(), 1, "{plan}");
    service.apply(&plan).unwrap();
    let after = client.get_alert(alert.id.clone()).unwrap();
    assert_eq!(after.threshold, Some(3.0));
    assert_eq!(after.channels, Some(vec![first, second]), "{after:?}");
    assert!(service.plan(&desired(&changed), &PlanOptions::default()).unwrap().is_empty());
    let _ = fake;
}

#[test]
fn a_429_in_the_middle_is_waited_out() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let desired = desired(DESIRED);
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    fake.inject(FaultRule::path_ends_with("/pipes", Fault::rate_limited("2")).method(http::Method::POST).times(1));

    service.apply(&plan).unwrap();
    assert!(service.plan(&desired, &PlanOptions::default()).unwrap().is_empty());
}

/// A database pipe's tables change only while it is paused: the plan pauses it, waits,
/// updates it and starts it again.
#[test]
fn a_database_pipes_tables_change_while_it_is_paused() {
    let (_fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let cdc = r#"{"pipes": [{"name": "orders-cdc",
      "source": {"postgres": {"host": "db.internal", "port": 5432, "database": "shop",
        "credentials": {"username": "replicator", "password": {"env": "KAFKA_PASSWORD"}},
        "tableMappings": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "orders"}]}},
      "destination": {"database": "shop"}}]}"#;
    service.apply(&service.plan(&desired(cdc), &PlanOptions::default()).unwrap()).unwrap();

    let more = cdc.replace(
        r#""targetTable": "orders"}]"#,
        r#""targetTable": "orders"}, {"sourceSchemaName": "public", "sourceTable": "items", "targetTable": "items"}]"#,
    );
    let plan = service.plan(&desired(&more), &PlanOptions::default()).unwrap();
    insta::assert_snapshot!(plan.to_string());
    let operations: Vec<&str> = plan.steps().iter().map(|s| s.request().operation().name).collect();
    assert_eq!(operations, ["change_pipe_state", "update_pipe", "change_pipe_state"]);

    service.apply(&plan).unwrap();
    assert!(service.plan(&desired(&more), &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn a_name_two_pipes_share_on_the_server_is_an_error_naming_both() {
    let (fake, client) = setup();
    let twin = |id: &str| {
        serde_json::json!({"id": id, "name": "clicks", "state": "Running",
            "source": {"kafka": {"type": "msk", "format": "JSONEachRow", "brokers": "b:9092", "topics": "clicks"}}})
    };
    fake.seed_pipe_json(ORG, SERVICE, twin("0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d01"));
    fake.seed_pipe_json(ORG, SERVICE, twin("0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d02"));

    let error = client.service(ORG, SERVICE).plan(&desired(DESIRED), &PlanOptions::default()).unwrap_err();
    let text = error.to_string();
    assert!(
        text.contains("0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d01") && text.contains("0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d02"),
        "{text}"
    );
}

#[test]
fn a_desired_state_never_holds_a_secret_in_clear_and_is_checked_like_a_request() {
    let clear = DESIRED.replace(r#"{ "env": "KAFKA_PASSWORD" }"#, r#""hunter2-in-the-repo""#);
    let error = DesiredState::from_json(&clear, secrets).unwrap_err();
    assert_eq!(error.path(), "pipes[0].source.kafka.credentials.password");
    assert!(matches!(error.problem(), Problem::SecretInClear));
    assert!(!error.to_string().contains("hunter2"), "{error}");

    let error = DesiredState::from_json(DESIRED, |_| None).unwrap_err();
    assert!(matches!(error.problem(), Problem::SecretNotFound(name) if name == "KAFKA_PASSWORD"), "{error}");

    let typo = DESIRED.replace(r#""authentication": "SCRAM-SHA-512""#, r#""authentication": "SCRAM""#);
    let error = DesiredState::from_json(&typo, secrets).unwrap_err();
    // The whole path, in the error's path and in its text alike.
    assert_eq!(error.path(), "pipes[0].source.kafka.authentication");
    assert!(error.to_string().contains("`pipes[0].source.kafka.authentication` must be one of"), "{error}");

    let twice = DESIRED.replace(r#""name": "archive""#, r#""name": "clicks""#);
    let error = DesiredState::from_json(&twice, secrets).unwrap_err();
    assert!(error.to_string().contains(r#"the name "clicks" is already pipes[0]'s"#), "{error}");

    // A resolved secret put where an object belongs is not quoted back.
    let misplaced = DESIRED.replace(
        r#"{ "username": "ingest", "password": { "env": "KAFKA_PASSWORD" } }"#,
        r#"{ "env": "KAFKA_PASSWORD" }"#,
    );
    let error = DesiredState::from_json(&misplaced, secrets).unwrap_err();
    assert!(!error.to_string().contains("kafka-password-from-the-vault"), "{error}");

    let misspelt = DESIRED.replace(r#"["ingest brokers"]"#, r#"["ingest broker"]"#);
    let error = DesiredState::from_json(&misspelt, secrets).unwrap_err();
    assert_eq!(error.path(), "pipes[0].source.kafka.reversePrivateEndpointIds[0]");
    assert!(error.to_string().contains("names no reverse private endpoint"), "{error}");

    let read = desired(DESIRED);
    assert!(!format!("{read:?}").contains("kafka-password-from-the-vault"));
}

/// What `{}` and `{:?}` of an apply that stopped print: one message, the same, bounded however
/// long the plan.
#[test]
fn an_apply_error_reads_as_a_message_bounded_however_long_the_plan() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let pipes: Vec<String> = (0..12)
        .map(|i| {
            format!(
                r#"{{"name": "p{i}", "source": {{"kinesis": {{"format": "JSONEachRow", "streamName": "s{i}",
                "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_ROLE",
                "iamRole": "arn:aws:iam::1:role/r"}}}}, "destination": {{"table": "t{i}", "managedTable": true,
                "columns": [{{"name": "id", "type": "UInt64"}}]}}}}"#
            )
        })
        .collect();
    let many = desired(&format!(r#"{{"pipes": [{}]}}"#, pipes.join(",")));
    let plan = service.plan(&many, &PlanOptions::default()).unwrap();
    // The first create is refused: nothing done, eleven steps not started.
    fake.inject(FaultRule::path_ends_with("/pipes", Fault::status(400)).method(http::Method::POST).times(1));
    let error = service.apply(&plan).unwrap_err();
    let (display, debug) = (error.to_string(), format!("{error:?}"));
    assert_eq!(display, debug);
    assert!(display.starts_with(r#"apply: step 1 (create_pipe pipe "p0") failed: create_pipe: HTTP 400"#), "{display}");
    assert!(display.ends_with(r#"and 6 more"#), "{display}");
    assert_eq!(error.not_started().len(), 11);
    assert!(display.len() < 1200, "{} bytes: {display}", display.len());
}

/// A server's 400 that quotes what the request sent: a value the desired state resolved from a
/// reference (the brokers) and the Kafka password show in no output of the apply's error, nor in
/// the plan.
#[test]
fn a_400_quoting_resolved_values_shows_none_of_them() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    let brokers = "b-9.resolved-brokers.internal:9096";
    let text = DESIRED.replace(r#""b-1.ingest.internal:9096""#, r#"{ "env": "BROKERS" }"#);
    let desired = DesiredState::from_json(&text, |name| match name {
        "BROKERS" => Some(brokers.to_owned()),
        name => secrets(name),
    })
    .unwrap();
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    for shown in [plan.to_string(), plan.to_json().to_string(), format!("{plan:?}"), format!("{desired:?}")] {
        assert!(!shown.contains(brokers) && !shown.contains("kafka-password-from-the-vault"), "{shown}");
    }
    let quoting = serde_json::json!({"status": 400, "requestId": "r-1",
        "error": format!("BAD_REQUEST: cannot reach {brokers} as ingest with kafka-password-from-the-vault")});
    let refused = Fault::status(400).header("Content-Type", "application/json").body(quoting.to_string());
    fake.inject(FaultRule::path_ends_with("/pipes", refused).method(http::Method::POST).times(1));

    let error = service.apply(&plan).unwrap_err();
    // The values were resolved and sent; the server quoted them.
    let sent = fake.requests().into_iter().find(|r| r.method == http::Method::POST && r.path.ends_with("/pipes"));
    assert!(String::from_utf8_lossy(&sent.unwrap().body).contains(brokers));
    let call = error.call_error().expect("the 400");
    let api = call.as_api().expect("the 400");
    for shown in [
        error.to_string(),
        format!("{error:?}"),
        call.to_string(),
        format!("{call:?}"),
        api.message().unwrap_or_default().to_owned(),
        String::from_utf8_lossy(api.body()).into_owned(),
    ] {
        assert!(shown.contains("[redacted]"), "{shown}");
        assert!(!shown.contains(brokers) && !shown.contains("kafka-password-from-the-vault"), "{shown}");
    }
}

/// On a team with more alerts than a page holds, the alert a lost create made is on a later
/// page: the check after the 502 reads every page, adopts it, and nothing makes a second copy.
#[test]
fn a_lost_alert_create_is_found_past_the_first_page_and_never_made_twice() {
    let (fake, client) = setup();
    let service = client.service(ORG, SERVICE);
    // The demo's three and a thousand more: the new alert is the 1,004th, on page two.
    for index in 0..1000 {
        let alert = serde_json::json!({"id": format!("65f1a2b3c4d5e6f7081{index:05x}"), "name": format!("team alert {index}"),
            "source": "tile", "dashboardId": "d", "tileId": "t", "threshold": 1, "thresholdType": "above",
            "interval": "5m", "channel": {"type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190001"}});
        fake.seed_alert(serde_json::from_value(alert).unwrap());
    }
    let desired = desired(DESIRED);
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    let lost = Fault::status(502).after_handling();
    fake.inject(FaultRule::path_ends_with("/api/v2/alerts", lost).method(http::Method::POST).times(1));

    let applied = service.apply(&plan).unwrap();
    let adopted = adopted(&applied);
    assert_eq!(adopted, [r#"create_alert alert "clicks stalled""#]);

    let again = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert!(again.is_empty(), "{again}");
    service.apply(&again).unwrap();
    let creates =
        fake.requests().iter().filter(|r| r.method == http::Method::POST && r.path.ends_with("/alerts")).count();
    assert_eq!(creates, 1);
    let mut copies = 0;
    for page in client.alert_pages(1000) {
        copies += page.unwrap().alerts.iter().filter(|a| a.name.as_deref() == Some("clicks stalled")).count();
    }
    assert_eq!(copies, 1);
}

/// The planner's listing of alerts is complete or not used: a listing that ends early (here a
/// second page that is the first again) is no ground to create an alert it did not see.
#[test]
fn a_plan_whose_alert_listing_ends_early_creates_no_alert() {
    let (fake, client) = setup();
    let alerts: Vec<serde_json::Value> = (0..1000)
        .map(|i| {
            serde_json::json!({"id": format!("65f1a2b3c4d5e6f7081{i:05x}"), "name": format!("team alert {i}"),
                "source": "tile", "dashboardId": "d", "tileId": "t", "threshold": 1, "thresholdType": "above",
                "interval": "5m", "channel": {"type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190001"}})
        })
        .collect();
    let page = serde_json::json!({"data": alerts, "meta": {"total": 5000, "limit": 1000, "offset": 0}});
    let same = Fault::status(200).header("Content-Type", "application/json").body(page.to_string());
    fake.inject(FaultRule::path_ends_with("/api/v2/alerts", same).method(http::Method::GET).times(2));

    let planned = client.service(ORG, SERVICE).plan(&desired(DESIRED), &PlanOptions::default());
    let Err(error) = planned else { panic!("a plan made from a partial listing of alerts") };
    assert!(matches!(error, PlanError::AlertsNotRead), "{error}");
    assert!(error.to_string().contains("not every one"), "{error}");
}
