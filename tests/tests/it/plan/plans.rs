//! `plan()` as the pure function it is: desired states and current states written from the
//! contract and the service notes, no server.

use pipe_api_plan::types::{Alert, OrganizationId, Pipe, ReversePrivateEndpoint, ServiceId};
use pipe_api_plan::{Awaited, Current, DesiredState, Plan, PlanError, PlanOptions, plan};
use serde_json::{Value, json};

const ORG: &str = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";
const SERVICE: &str = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002";
const PIPE_ID: &str = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e";

/// A Kafka pipe as desired: `kafka` holds the source's members beyond the required ones.
fn desired_kafka(kafka: Value, extra: Value) -> DesiredState {
    let mut source = json!({"type": "confluent", "format": "AvroConfluent", "brokers": "b:9092", "topics": "t",
        "authentication": "PLAIN", "credentials": {"username": "u", "password": {"env": "PASSWORD"}}});
    source.as_object_mut().unwrap().extend(kafka.as_object().unwrap().clone());
    let mut pipe = json!({"name": "orders", "source": {"kafka": source},
        "destination": {"table": "orders", "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]}});
    pipe.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    DesiredState::from_json(&json!({"pipes": [pipe]}).to_string(), |_| Some("secret-from-the-vault".into())).unwrap()
}

/// The same pipe as the server answers it: no credentials, the server's own members added.
fn current_kafka(kafka: Value, extra: Value) -> Current {
    let mut source = json!({"type": "confluent", "format": "AvroConfluent", "brokers": "b:9092", "topics": "t",
        "authentication": "PLAIN", "consumerGroup": "clickpipes-0b9e"});
    source.as_object_mut().unwrap().extend(kafka.as_object().unwrap().clone());
    let mut pipe = json!({"id": PIPE_ID, "name": "orders", "state": "Running", "source": {"kafka": source},
        "destination": {"database": "default", "table": "orders", "managedTable": true,
            "columns": [{"name": "id", "type": "UInt64"}]},
        "scaling": {"replicas": 1, "replicaCpuMillicores": "1", "replicaMemoryGb": "4Gi"},
        "createdAt": "2026-01-01T00:00:00Z"});
    pipe.as_object_mut().unwrap().extend(extra.as_object().unwrap().clone());
    Current::new(Vec::new(), vec![serde_json::from_value::<Pipe>(pipe).unwrap()], Some(Vec::new()))
}

fn ids() -> (OrganizationId, ServiceId) {
    (ORG.parse().unwrap(), SERVICE.parse().unwrap())
}

fn planned(desired: &DesiredState, current: &Current) -> Result<Plan, PlanError> {
    let (org, service) = ids();
    plan(org, service, desired, current, &PlanOptions::default())
}

#[test]
fn a_pipe_as_the_server_answers_it_needs_no_change_secrets_and_quantities_included() {
    let desired = desired_kafka(
        json!({}),
        json!({"scaling": {"replicas": 1, "replicaCpuMillicores": 1000, "replicaMemoryGb": 4}}),
    );
    let plan = planned(&desired, &current_kafka(json!({}), json!({}))).unwrap();
    assert!(plan.is_empty(), "{plan}");
    assert_eq!(plan.to_string(), "no changes\n");
}

#[test]
fn an_update_sends_only_what_differs_and_never_a_secret() {
    let desired = desired_kafka(json!({"caCertificate": "-----BEGIN CERTIFICATE-----"}), json!({}));
    let plan = planned(&desired, &current_kafka(json!({}), json!({}))).unwrap();
    assert_eq!(plan.steps().len(), 1, "{plan}");
    let step = &plan.steps()[0];
    assert_eq!(step.request().operation().name, "update_pipe");
    assert_eq!(step.reason(), "source.kafka.caCertificate differs");
    assert_eq!(
        step.request().redacted_body().unwrap(),
        json!({"source": {"kafka": {"caCertificate": "-----BEGIN CERTIFICATE-----"}}})
    );
    assert!(!plan.to_json().to_string().contains("secret-from-the-vault"));
}

/// The Terraform provider once sent an immutable schema registry in an update and got a 400.
#[test]
fn a_schema_registry_change_is_a_replacement_never_an_update() {
    let registry = |url: &str| json!({"schemaRegistry": {"url": url, "authentication": "PLAIN"}});
    let desired = desired_kafka(registry("https://registry-b.example.com"), json!({}));
    let current = current_kafka(registry("https://registry-a.example.com"), json!({}));
    match planned(&desired, &current).unwrap_err() {
        PlanError::ReplacementRefused { fields, cost, .. } => {
            let paths: Vec<&str> = fields.iter().map(|field| field.path.as_str()).collect();
            assert_eq!(paths, ["source.kafka.schemaRegistry"]);
            assert_eq!(fields[0].why, "no update can change it");
            assert!(cost.contains("offsets"), "{cost}");
        }
        other => panic!("{other}"),
    }
    let (org, service) = ids();
    let plan = plan(org, service, &desired, &current, &PlanOptions::default().allow_replacement(true)).unwrap();
    let operations: Vec<&str> = plan.steps().iter().map(|s| s.request().operation().name).collect();
    assert_eq!(operations, ["delete_pipe", "create_pipe"]);
    assert_eq!(plan.steps()[0].reason(), "replaced: source.kafka.schemaRegistry cannot be updated");
}

#[test]
fn another_source_kind_is_a_replacement() {
    let desired = DesiredState::from_json(
        &json!({"pipes": [{"name": "orders", "source": {"kinesis": {"format": "JSONEachRow", "streamName": "s",
            "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_ROLE", "iamRole": "arn:aws:iam::1:role/r"}},
            "destination": {"table": "orders", "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]}}]})
        .to_string(),
        |_| None,
    )
    .unwrap();
    let error = planned(&desired, &current_kafka(json!({}), json!({}))).unwrap_err();
    assert!(error.to_string().contains("source (the pipe reads from another kind than kinesis)"), "{error}");
    // The path and the reason apart, for code that reads them.
    let PlanError::ReplacementRefused { fields, .. } = &error else { panic!("{error}") };
    assert_eq!(
        (fields[0].path.as_str(), fields[0].why.as_str()),
        ("source", "the pipe reads from another kind than kinesis")
    );
}

#[test]
fn a_completed_pipe_is_not_updated_and_the_plan_says_so() {
    let desired = desired_kafka(json!({"caCertificate": "pem"}), json!({}));
    let plan = planned(&desired, &current_kafka(json!({}), json!({"state": "Completed"}))).unwrap();
    assert!(plan.is_empty());
    assert_eq!(
        plan.notes(),
        [
            r#"pipe "orders" is Completed and is not updated (only a resync changes it); differs: source.kafka.caCertificate"#
        ]
    );
}

#[test]
fn a_pipe_to_stop_is_stopped_and_waited_for_and_one_still_stopping_is_not_started() {
    let stopped = desired_kafka(json!({}), json!({"state": "stopped"}));
    let plan = planned(&stopped, &current_kafka(json!({}), json!({}))).unwrap();
    assert_eq!(plan.steps().len(), 1);
    assert_eq!(plan.steps()[0].then(), Some(Awaited::PipeStopped));
    assert_eq!(plan.steps()[0].request().redacted_body(), Some(json!({"command": "stop"})));

    let running = desired_kafka(json!({}), json!({}));
    let plan = planned(&running, &current_kafka(json!({}), json!({"state": "Stopping"}))).unwrap();
    assert!(plan.is_empty());
    assert!(plan.notes()[0].contains("still stopping"), "{plan}");
}

#[test]
fn alerts_not_read_are_neither_changed_nor_pruned() {
    let (org, service) = ids();
    let desired = desired_kafka(json!({}), json!({}));
    let mut current = current_kafka(json!({}), json!({}));
    current.alerts = None;
    let pruned =
        plan(org, service, &desired, &current, &PlanOptions::default().prune(true).prune_alerts(true)).unwrap();
    assert!(pruned.is_empty(), "{pruned}");

    let with_alert = DesiredState::from_json(
        r#"{"alerts": [{"name": "a", "source": "tile", "dashboardId": "d", "tileId": "t", "threshold": 1,
            "thresholdType": "above", "interval": "1m", "channel": {"type": "webhook", "webhookId": "w"}}]}"#,
        |_| None,
    )
    .unwrap();
    let error = plan(org, service, &with_alert, &current, &PlanOptions::default()).unwrap_err();
    assert!(matches!(error, PlanError::AlertsNotRead), "{error}");
}

#[test]
fn an_alert_is_replaced_whole_keeping_what_the_desired_state_does_not_name() {
    let desired = DesiredState::from_json(
        r#"{"alerts": [{"name": "lag", "source": "tile", "dashboardId": "d", "tileId": "t", "threshold": 7,
            "thresholdType": "above", "interval": "1m", "channel": {"type": "webhook", "webhookId": "w2"}}]}"#,
        |_| None,
    )
    .unwrap();
    // A newer server's alert with two channels and a note.
    let alert: Alert =
        serde_json::from_value(json!({"id": "65f1a2b3c4d5e6f708192a3c", "name": "lag", "source": "tile",
        "dashboardId": "d", "tileId": "t", "threshold": 5, "thresholdType": "above", "interval": "1m", "state": "OK",
        "note": "page the on-call",
        "channel": {"type": "webhook", "webhookId": "w1"},
        "channels": [{"type": "webhook", "webhookId": "w1"}, {"type": "webhook", "webhookId": "w3"}]}))
        .unwrap();
    // An endpoint of the resolved name still being deleted: the plan notes it.
    let deleting: ReversePrivateEndpoint = serde_json::from_value(json!({"id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2001",
        "description": "resolved-endpoint-name-e1", "type": "VPC_ENDPOINT_SERVICE",
        "vpcEndpointServiceName": "com.amazonaws.vpce.svc-1", "status": "Deleting"}))
    .unwrap();
    let current = Current::new(vec![deleting], Vec::new(), Some(vec![alert]));
    let plan = planned(&desired, &current).unwrap();
    let step = &plan.steps()[0];
    assert_eq!(step.request().operation().name, "update_alert");
    assert_eq!(step.reason(), "channel, threshold differ");
    let body = step.request().redacted_body().unwrap();
    assert_eq!(body["note"], "page the on-call");
    assert_eq!(body["threshold"], 7.0);
    assert_eq!(body["channel"]["webhookId"], "w2");
    // `channel` names the first of the channels; the others are kept (a `PUT` with `channel`
    // alone would cut the alert down to it).
    assert_eq!(
        body["channels"],
        json!([{"type": "webhook", "webhookId": "w2"}, {"type": "webhook", "webhookId": "w3"}])
    );
}

#[test]
fn an_endpoints_mappings_are_updated_and_another_type_replaces_it() {
    let endpoint: ReversePrivateEndpoint = serde_json::from_value(json!({"id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2001",
        "description": "brokers", "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": "com.amazonaws.vpce.svc-1",
        "status": "Ready", "customPrivateDnsMappings": [{"privateDnsName": "a.example.com"}]}))
    .unwrap();
    let current = Current::new(vec![endpoint], Vec::new(), None);
    let desired = |extra: &str| {
        DesiredState::from_json(
            &format!(
                r#"{{"reversePrivateEndpoints": [{{"description": "brokers", "type": "VPC_ENDPOINT_SERVICE",
                "vpcEndpointServiceName": "com.amazonaws.vpce.svc-1"{extra}}}]}}"#
            ),
            |_| None,
        )
        .unwrap()
    };
    let plan =
        planned(&desired(r#", "customPrivateDnsMappings": [{"privateDnsName": "b.example.com"}]"#), &current).unwrap();
    assert_eq!(plan.steps()[0].request().operation().name, "update_reverse_private_endpoint");
    assert_eq!(
        plan.steps()[0].request().redacted_body(),
        Some(json!({"customPrivateDnsMappings": [{"privateDnsName": "b.example.com"}]}))
    );
    assert!(planned(&desired(""), &current).unwrap().is_empty());

    let moved = DesiredState::from_json(
        r#"{"reversePrivateEndpoints": [{"description": "brokers", "type": "VPC_ENDPOINT_SERVICE",
            "vpcEndpointServiceName": "com.amazonaws.vpce.svc-2"}]}"#,
        |_| None,
    )
    .unwrap();
    let error = planned(&moved, &current).unwrap_err();
    assert!(
        matches!(&error, PlanError::ReplacementRefused { fields, .. } if fields[0].path == "vpcEndpointServiceName"),
        "{error}"
    );
}

#[test]
fn a_plan_as_json_names_each_step_and_redacts_its_secrets() {
    let desired = desired_kafka(json!({}), json!({}));
    let plan = planned(&desired, &Current::default()).unwrap();
    let json = plan.to_json();
    let step = &json["steps"][0];
    assert_eq!(step["operation"], "create_pipe");
    assert_eq!(step["method"], "POST");
    assert_eq!(step["path"], format!("/v1/organizations/{ORG}/services/{SERVICE}/pipes"));
    assert_eq!(step["resource"], json!({"kind": "pipe", "name": "orders"}));
    assert_eq!(step["body"]["source"]["kafka"]["credentials"]["password"], "[redacted]");
    assert!(!json.to_string().contains("secret-from-the-vault"));
}

/// Every value the desired state's lookup gives below, by the name it is looked up by: each is
/// put where a user could write a reference, secret-bearing or not.
const RESOLVED: [(&str, &str); 14] = [
    ("ENDPOINT_NAME", "resolved-endpoint-name-e1"),
    ("VPCE_SERVICE", "com.amazonaws.vpce.resolved-svc-e2"),
    ("PIPE_NAME", "resolved-pipe-name-p1"),
    ("BROKERS", "resolved-brokers-p2.internal:9096"),
    ("TOPICS", "resolved-topics-p3"),
    ("KAFKA_USER", "resolved-kafka-user-p4"),
    ("KAFKA_PASSWORD", "resolved kafka \"password\" p5\\"),
    ("TABLE", "resolved_table_p6"),
    ("EVENT_HUBS", "Endpoint=sb://resolved-hub-p7/;SharedAccessKey=k7"),
    ("BLOB_CONNECTION", "DefaultEndpointsProtocol=https;AccountKey=resolved-blob-p8"),
    ("ALERT_NAME", "resolved-alert-name-a1"),
    ("SAVED_SEARCH", "resolved-saved-search-a2"),
    ("ALERT_MESSAGE", "resolved alert message a3"),
    ("WEBHOOK", "resolved-webhook-a4"),
];

/// A desired state with a reference in every place above.
fn desired_with_references() -> DesiredState {
    let env = |name: &str| json!({"env": name});
    let destination =
        |table: Value| json!({"table": table, "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]});
    let desired = json!({
        "reversePrivateEndpoints": [{"description": env("ENDPOINT_NAME"), "type": "VPC_ENDPOINT_SERVICE",
            "vpcEndpointServiceName": env("VPCE_SERVICE")}],
        "pipes": [
            {"name": env("PIPE_NAME"), "source": {"kafka": {"type": "msk", "format": "JSONEachRow",
                "brokers": env("BROKERS"), "topics": env("TOPICS"), "authentication": "SCRAM-SHA-512",
                "credentials": {"username": env("KAFKA_USER"), "password": env("KAFKA_PASSWORD")},
                "reversePrivateEndpointIds": [env("ENDPOINT_NAME")]}},
             "destination": destination(env("TABLE"))},
            {"name": "events", "source": {"kafka": {"type": "azureeventhub", "format": "JSONEachRow",
                "brokers": "ns.servicebus.windows.net:9093", "topics": "events", "authentication": "PLAIN",
                "credentials": {"connectionString": env("EVENT_HUBS")}}},
             "destination": destination(json!("events"))},
            {"name": "blobs", "source": {"objectStorage": {"type": "azureblobstorage", "format": "Parquet",
                "azureContainerName": "archive", "path": "*.parquet", "authentication": "CONNECTION_STRING",
                "connectionString": env("BLOB_CONNECTION")}},
             "destination": destination(json!("blobs"))}
        ],
        "alerts": [{"name": env("ALERT_NAME"), "source": "saved_search", "savedSearchId": env("SAVED_SEARCH"),
            "threshold": 1, "thresholdType": "below", "interval": "5m", "message": env("ALERT_MESSAGE"),
            "channel": {"type": "webhook", "webhookId": env("WEBHOOK")}}]
    });
    let lookup = |name: &str| RESOLVED.iter().find(|(known, _)| *known == name).map(|(_, value)| (*value).to_owned());
    DesiredState::from_json(&desired.to_string(), lookup).unwrap()
}

/// Answers the reading an apply starts with (it checks the plan against the service) with the
/// service as `current` has it, and returns the first request after it: the first step's.
fn through_the_check(
    apply: &mut pipe_api_plan::Apply<'_>,
    current: &Current,
) -> pipe_api_proto::http::Request<Vec<u8>> {
    use pipe_api_proto::call::{Machine, Next};
    let now = std::time::Duration::ZERO;
    loop {
        let Next::Send { request, .. } = apply.next(now, None) else { panic!("the check and the step send requests") };
        let path = request.uri().path().to_owned();
        let body = match (request.method().as_str(), path.rsplit('/').next()) {
            ("GET", Some("pipesReversePrivateEndpoints")) => {
                json!({"status": 200, "requestId": "r", "result": current.reverse_private_endpoints})
            }
            ("GET", Some("pipes")) => json!({"status": 200, "requestId": "r", "result": current.pipes}),
            ("GET", Some("alerts")) => {
                let alerts = current.alerts.clone().unwrap_or_default();
                json!({"data": alerts, "meta": {"total": alerts.len(), "limit": 1000, "offset": 0}})
            }
            _ => return request,
        };
        let response =
            pipe_api_proto::http::Response::builder().status(200).body(body.to_string().into_bytes()).unwrap();
        apply.receive(Ok(response), now, pipe_api_proto::time::OffsetDateTime::UNIX_EPOCH, None);
    }
}

/// Applies `plan` by hand (sans IO) until its first request, which the server refuses with a
/// 400 quoting every resolved value: the error of the apply, and the body the request sent.
fn apply_refused_by_a_quoting_400(plan: &Plan, current: &Current) -> (pipe_api_plan::ApplyError, Vec<u8>) {
    use pipe_api_plan::{Apply, ApplyOptions};
    use pipe_api_proto::call::{Machine, Next};
    use pipe_api_proto::{Alerting, BaseUrl, BearerToken, Management, ManagementCredentials};

    let base = || BaseUrl::parse("https://api.example.com").unwrap();
    let management = Management::new(base(), ManagementCredentials::new("key-id", "key-secret").unwrap());
    let alerting = Alerting::new(base(), BearerToken::new("alerts-token").unwrap());
    let now = std::time::Duration::ZERO;
    let mut apply = Apply::new(plan, Some(&management), Some(&alerting), ApplyOptions::default(), 7, now);
    let request = through_the_check(&mut apply, current);
    let quoted: Vec<&str> = RESOLVED.iter().map(|(_, value)| *value).collect();
    let message = format!("BAD_REQUEST: cannot use {}", quoted.join(" or "));
    let body = json!({"status": 400, "error": message, "requestId": "r-1"}).to_string();
    let response = pipe_api_proto::http::Response::builder().status(400).body(body.into_bytes()).unwrap();
    apply.receive(Ok(response), now, pipe_api_proto::time::OffsetDateTime::UNIX_EPOCH, None);
    match apply.next(now, None) {
        Next::Done(Err(error)) => (error, request.into_body()),
        _ => panic!("a 400 on a create ends the apply"),
    }
}

/// A plan is committed as a snapshot: no value the lookup gave shows in any output of the
/// desired state, its plan, or an apply of it whose server quotes them all back.
#[test]
fn no_resolved_value_shows_in_any_output_of_a_desired_state_its_plan_or_its_apply() {
    let desired = desired_with_references();
    let alert: Alert = serde_json::from_value(json!({"id": "65f1a2b3c4d5e6f708192a3c", "name": "kept",
        "source": "tile", "dashboardId": "d", "tileId": "t", "threshold": 5, "thresholdType": "above",
        "interval": "1m", "channel": {"type": "webhook", "webhookId": "w1"}}))
    .unwrap();
    // An endpoint of the resolved name still being deleted: the plan notes it.
    let deleting: ReversePrivateEndpoint = serde_json::from_value(json!({"id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2001",
        "description": "resolved-endpoint-name-e1", "type": "VPC_ENDPOINT_SERVICE",
        "vpcEndpointServiceName": "com.amazonaws.vpce.svc-1", "status": "Deleting"}))
    .unwrap();
    let current = Current::new(vec![deleting], Vec::new(), Some(vec![alert]));
    let plan = planned(&desired, &current).unwrap();
    let operations: Vec<&str> = plan.steps().iter().map(|s| s.request().operation().name).collect();
    assert_eq!(
        operations,
        ["create_reverse_private_endpoint", "create_pipe", "create_pipe", "create_pipe", "create_alert"]
    );
    let (error, sent) = apply_refused_by_a_quoting_400(&plan, &current);
    // The values were resolved and are sent: only what is shown loses them.
    assert!(
        String::from_utf8_lossy(&sent).contains("com.amazonaws.vpce.resolved-svc-e2"),
        "{}",
        String::from_utf8_lossy(&sent)
    );
    let api = error.call_error().and_then(|e| e.as_api()).expect("the 400's error");

    // Every output, named: a new one goes here.
    let step = &plan.steps()[1];
    let outputs: Vec<(&str, String)> = vec![
        ("Plan Display", plan.to_string()),
        ("Plan::to_json", plan.to_json().to_string()),
        ("Plan Debug", format!("{plan:?}")),
        ("Plan Debug {:#?}", format!("{plan:#?}")),
        ("Plan::notes", plan.notes().join("\n")),
        ("PlanStep Debug", format!("{step:?}")),
        ("PlanStep::summary", plan.steps().iter().map(|s| s.summary()).collect::<Vec<_>>().join("\n")),
        ("PlannedRequest Debug", format!("{:?}", step.request())),
        ("PlannedRequest::redacted_body", format!("{:?}", step.request().redacted_body())),
        ("DesiredState Debug", format!("{desired:?}")),
        ("DesiredState Debug {:#?}", format!("{desired:#?}")),
        ("ApplyError Display", error.to_string()),
        ("ApplyError Debug", format!("{error:?}")),
        (
            "ApplyError::failed, ::not_started",
            format!("{} {:?} {:?}", error.failed().unwrap(), error.failed(), error.not_started()),
        ),
        ("ApplyError::cause Display", error.cause().to_string()),
        ("ApplyError::call_error Debug", format!("{:?}", error.call_error())),
        ("ApiError::message", api.message().unwrap_or_default().to_owned()),
        ("ApiError::body", String::from_utf8_lossy(api.body()).into_owned()),
    ];
    for (output, text) in &outputs {
        assert!(text.contains("[redacted]"), "{output} redacts nothing: {text}");
        for (name, value) in RESOLVED {
            // As written, and as Debug and JSON escape it.
            let debug = format!("{value:?}");
            let json = serde_json::to_string(value).unwrap();
            for form in [value, &debug[1..debug.len() - 1], &json[1..json.len() - 1]] {
                assert!(!text.contains(form), "{output} shows {name} ({form}): {text}");
            }
        }
    }
}

/// After a 502 on an alert create, the check reads every page; a listing that ends before the
/// last (here a page that repeats the one before) says it cannot tell, never "not created".
#[test]
fn a_lost_alert_create_whose_listing_ends_early_is_unknown_not_absent() {
    use pipe_api_plan::{Apply, ApplyOptions};
    use pipe_api_proto::call::{Machine, Next};
    use pipe_api_proto::{Alerting, BaseUrl, BearerToken};

    let desired = DesiredState::from_json(
        r#"{"alerts": [{"name": "lag", "source": "tile", "dashboardId": "d", "tileId": "t", "threshold": 7,
            "thresholdType": "above", "interval": "1m", "channel": {"type": "webhook", "webhookId": "w"}}]}"#,
        |_| None,
    )
    .unwrap();
    let current = Current::new(Vec::new(), Vec::new(), Some(Vec::new()));
    let plan = planned(&desired, &current).unwrap();
    let alerting =
        Alerting::new(BaseUrl::parse("https://api.example.com").unwrap(), BearerToken::new("alerts-token").unwrap());
    let mut apply = Apply::new(&plan, None, Some(&alerting), ApplyOptions::default(), 7, std::time::Duration::ZERO);
    // Without the management interface, the check reads the alerts alone.
    let create = through_the_check(&mut apply, &current);
    assert_eq!(create.method(), "POST");
    let mut create = Some(create);
    // A full page of other alerts, as the server answers every page asked for.
    let alerts: Vec<Value> = (0..1000)
        .map(|i| {
            json!({"id": format!("65f1a2b3c4d5e6f7081{i:05x}"), "name": format!("other {i}"), "source": "tile",
            "dashboardId": "d", "tileId": "t", "threshold": 1, "thresholdType": "above", "interval": "1m",
            "channel": {"type": "webhook", "webhookId": "w"}})
        })
        .collect();
    let page = json!({"data": alerts, "meta": {"total": 5000, "limit": 1000, "offset": 0}}).to_string();
    let now = std::time::Duration::ZERO;
    let mut sent = Vec::new();
    let error = loop {
        let next = match create.take() {
            Some(request) => Next::Send { request, timeout: std::time::Duration::from_secs(30) },
            None => apply.next(now, None),
        };
        match next {
            Next::Send { request, .. } => {
                sent.push(format!("{} {}", request.method(), request.uri()));
                let (status, body) = if sent.len() == 1 { (502, String::new()) } else { (200, page.clone()) };
                let response =
                    pipe_api_proto::http::Response::builder().status(status).body(body.into_bytes()).unwrap();
                apply.receive(Ok(response), now, pipe_api_proto::time::OffsetDateTime::UNIX_EPOCH, None);
            }
            Next::Wait { .. } => panic!("nothing to wait for"),
            Next::Done(result) => break result.unwrap_err(),
        }
    };
    assert_eq!(sent.len(), 3, "{sent:?}");
    assert!(sent[0].starts_with("POST "), "{sent:?}");
    assert!(sent[1].contains("limit=1000") && sent[2].contains("offset=1000"), "{sent:?}");
    let text = error.to_string();
    assert!(text.contains("whether it was created is unknown: listing afterwards did not read every alert"), "{text}");
    assert!(!text.contains("applying again creates it"), "{text}");
}

#[test]
fn a_plan_counts_in_english_and_cuts_a_servers_huge_name_in_every_rendering() {
    let huge = "n".repeat(1 << 20);
    let pipe: Pipe = serde_json::from_value(json!({"id": PIPE_ID, "name": huge, "state": "Running"})).unwrap();
    let desired = DesiredState::from_json("{}", |_| None).unwrap();
    let (org, service) = ids();
    let options = PlanOptions::default().prune(true);
    let plan = plan(org, service, &desired, &Current::new(Vec::new(), vec![pipe], None), &options).unwrap();
    let text = plan.to_string();
    assert!(text.starts_with("1 step, 1 destructive"), "{}", &text[..80]);
    assert!(text.len() < 4096, "{} bytes of text", text.len());
    let json = plan.to_json().to_string();
    assert!(json.len() < 4096, "{} bytes of JSON", json.len());
    assert!(format!("{plan:?}").len() < 8192);
}

/// Review: the server writes a quantity as a number one read and as `"1"`/`"4Gi"` the next
/// (service notes); the planner treats both as the same, the saved plan's fingerprint does not.
#[test]
fn a_saved_plan_is_not_stale_when_only_the_quantitys_spelling_changed() {
    let desired = desired_kafka(json!({"caCertificate": "-----BEGIN CERTIFICATE-----"}), json!({}));
    let (org, service) = ids();
    let then = current_kafka(json!({}), json!({})); // scaling "1" core, "4Gi"
    let saved = planned(&desired, &then).unwrap().saved();
    let now = current_kafka(
        json!({}),
        json!({"scaling": {"replicas": 1, "replicaCpuMillicores": 1000, "replicaMemoryGb": 4}}),
    );
    assert!(planned(&desired, &now).unwrap().steps().len() == 1, "the planner sees the same pipe");
    let confirmed = saved.confirm(org, Some(service), &desired, &now);
    assert!(confirmed.is_ok(), "{}", confirmed.unwrap_err());
}

/// A state the service reaches on its own (`Provisioning` or `Snapshot` to `Running`) leaves a
/// saved plan as it was; one the plan acts on otherwise (`Running` to `Stopped`) makes it stale,
/// named; and a plan for another service is refused, naming both.
#[test]
fn a_saved_plan_is_stale_only_when_a_state_moves_to_another_phase() {
    let desired = desired_kafka(json!({"caCertificate": "-----BEGIN CERTIFICATE-----"}), json!({}));
    let (org, service) = ids();
    let saved = planned(&desired, &current_kafka(json!({}), json!({"state": "Provisioning"}))).unwrap().saved();
    for state in ["Running", "Snapshot", "Degraded"] {
        let now = current_kafka(json!({}), json!({"state": state}));
        assert!(saved.confirm(org, Some(service), &desired, &now).is_ok(), "{state}");
    }
    let stopped = current_kafka(json!({}), json!({"state": "Stopped"}));
    let refused = saved.confirm(org, Some(service), &desired, &stopped).unwrap_err().to_string();
    assert!(refused.contains(r#"pipe "orders" changed since the plan (state Provisioning -> Stopped)"#), "{refused}");

    let other: ServiceId = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1099".parse().unwrap();
    let refused = saved.is_for(org, Some(other)).unwrap_err().to_string();
    assert!(refused.contains(&format!("planned for the service {service} of the organization {org}")), "{refused}");
    assert!(refused.ends_with(&format!("not the service {other} of {org}")), "{refused}");
}
