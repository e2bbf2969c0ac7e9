//! Bringing what exists under a file, and applying a reviewed plan later: a service's pipes of
//! every source kind, an endpoint and an alert made through the client, exported, filled in
//! and planned to no changes; a plan saved as a file, applied when nothing changed, and
//! refused, before any write, when something did.

use pipe_api_fake::Fake;
use pipe_api_ureq::plan::{DesiredState, ExportOptions, PlanOptions, SavedPlan, SavedPlanError};
use pipe_api_ureq::types::{
    AlertRequest, CreatePipeRequest, CreateReversePrivateEndpointRequest, KeyRole, OrganizationId, PipeCommand, PipeId,
    Service, ServiceId,
};
use pipe_api_ureq::{Client, VirtualClock};
use serde_json::json;

const BASE: &str = "https://api.example.com";
const ORG: &str = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";
const SERVICE: &str = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002";
const TOKEN: &str = "0c9b7a65-4e3d-4c2b-8a19-f8e7d6c5b403";

pub(crate) fn ids() -> (OrganizationId, ServiceId) {
    (ORG.parse().unwrap(), SERVICE.parse().unwrap())
}

/// An empty running service and the alerting interface, and a client of both whose waits
/// move the fake's clock instead of sleeping.
pub(crate) fn setup() -> (Fake, Client) {
    let (org, service) = ids();
    let fake = Fake::new();
    fake.seed_key(org, "key-id", "key-secret", [KeyRole::Admin]);
    fake.seed_service(org, Service::new(service));
    fake.seed_alerts_token(TOKEN);
    let follower = fake.clone();
    let clock = VirtualClock::new(fake.now()).follow_with(move |step| follower.advance(step));
    let client = Client::builder()
        .management(BASE, "key-id", "key-secret")
        .alerting(BASE, TOKEN)
        .transport(fake.clone())
        .clock(clock)
        .build()
        .unwrap();
    (fake, client)
}

/// A model read from JSON written here as a user would.
fn model<T: serde::de::DeserializeOwned>(value: serde_json::Value) -> T {
    serde_json::from_value(value).unwrap()
}

fn table(name: &str) -> serde_json::Value {
    json!({"table": name, "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]})
}

/// What a console user made: an endpoint, a pipe of each source kind (the Kafka one through
/// the endpoint, the object storage one stopped), and an alert.
fn made_in_the_console(client: &Client) {
    let (org, service_id) = ids();
    let service = client.service(org, service_id);
    let endpoint = service
        .create_reverse_private_endpoint(model::<CreateReversePrivateEndpointRequest>(json!({
            "description": "ingest brokers", "type": "VPC_ENDPOINT_SERVICE",
            "vpcEndpointServiceName": "com.amazonaws.vpce.eu-west-1.vpce-svc-0ingest"
        })))
        .unwrap();
    let secret = json!({"username": "console-user", "password": "typed-in-the-console"});
    let key = json!({"accessKeyId": "AKIA0CONSOLE", "secretKey": "typed-in-the-console"});
    let pipes = [
        json!({"name": "orders", "source": {"kafka": {"type": "msk", "format": "JSONEachRow",
            "brokers": "b-1.ingest.internal:9096", "topics": "orders", "authentication": "SCRAM-SHA-512",
            "credentials": secret, "reversePrivateEndpointIds": [endpoint.id.to_string()]}},
            "destination": table("orders"), "scaling": {"replicas": 2}}),
        json!({"name": "archive", "source": {"objectStorage": {"type": "s3", "format": "Parquet",
            "url": "https://archive.s3.eu-west-1.amazonaws.com/*.parquet", "authentication": "IAM_USER",
            "accessKey": key}}, "destination": table("archive")}),
        json!({"name": "events", "source": {"kinesis": {"format": "JSONEachRow", "streamName": "events",
            "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_USER", "accessKey": key}},
            "destination": table("events")}),
        json!({"name": "replica", "source": {"postgres": {"host": "db.example.com", "port": 5432,
            "database": "shop", "credentials": secret, "settings": {"replicationMode": "cdc"},
            "tableMappings": [{"sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "orders"}]}},
            "destination": {"database": "shop"}}),
    ];
    for pipe in pipes {
        let created = service.create_pipe(model::<CreatePipeRequest>(pipe)).unwrap();
        if created.name.as_deref() == Some("archive") {
            service.pipe(created.id).change_pipe_state(PipeCommand::Stop).unwrap();
        }
    }
    client
        .create_alert(model::<AlertRequest>(json!({
            "name": "orders stalled", "source": "saved_search", "savedSearchId": "65f1a2b3c4d5e6f708190200",
            "threshold": 1, "thresholdType": "below", "interval": "5m",
            "channel": {"type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190001"}
        })))
        .unwrap();
}

#[test]
fn an_exported_service_plans_to_no_changes_over_every_source_kind_an_endpoint_and_an_alert() {
    let (_fake, client) = setup();
    made_in_the_console(&client);
    let (org, service_id) = ids();
    let service = client.service(org, service_id);

    let exported = service.export(&ExportOptions::default().alerts(true)).unwrap();
    let text = exported.to_string();
    assert!(!text.contains("typed-in-the-console"), "{text}");
    let secrets: Vec<String> = exported.secrets().iter().map(ToString::to_string).collect();
    insta::assert_snapshot!(format!("{text}\nsecrets to fill:\n{}\n", secrets.join("\n")));

    // The user fills each reference (here from a map; `std::env::var` for the environment).
    let filled = |name: &str| exported.secrets().iter().any(|s| s.name == name).then(|| format!("vault:{name}"));
    let desired = DesiredState::from_json(&text, filled).unwrap();
    let plan = service.plan(&desired, &PlanOptions::default()).unwrap();
    assert!(plan.is_empty(), "{plan}");
}

/// A pipe running on the service, and a desired state that scales it.
fn running_orders(fake: &Fake) -> (PipeId, DesiredState) {
    let (org, service) = ids();
    let id: PipeId = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e".parse().unwrap();
    let source = json!({"kafka": {"type": "confluent", "format": "JSONEachRow", "brokers": "b:9092",
        "topics": "orders", "authentication": "PLAIN"}});
    fake.seed_pipe_json(
        org,
        service,
        json!({"id": id, "name": "orders", "state": "Running", "source": source,
            "destination": table("orders"), "scaling": {"replicas": 1}}),
    );
    let desired = json!({"pipes": [{"name": "orders", "source": {"kafka": {"type": "confluent",
        "format": "JSONEachRow", "brokers": "b:9092", "topics": "orders", "authentication": "PLAIN",
        "credentials": {"username": "ingest", "password": {"env": "KAFKA_PASSWORD"}}}},
        "destination": table("orders"), "scaling": {"replicas": 3}}]});
    let lookup = |name: &str| (name == "KAFKA_PASSWORD").then(|| "the-password-itself".to_owned());
    (id, DesiredState::from_json(&desired.to_string(), lookup).unwrap())
}

/// The plan of `desired`, saved as a file and read back as a later job would.
fn saved(client: &Client, desired: &DesiredState) -> SavedPlan {
    let (org, service) = ids();
    let plan = client.service(org, service).plan(desired, &PlanOptions::default()).unwrap();
    let file = plan.saved().to_string();
    assert!(!file.contains("the-password-itself"), "{file}");
    SavedPlan::from_json(&file).unwrap()
}

fn writes(fake: &Fake) -> Vec<String> {
    fake.requests()
        .iter()
        .filter(|r| r.method != http::Method::GET)
        .map(|r| format!("{} {}", r.method, r.path))
        .collect()
}

#[test]
fn a_saved_plan_applies_when_nothing_changed_since() {
    let (fake, client) = setup();
    let (_, desired) = running_orders(&fake);
    let saved = saved(&client, &desired);
    assert!(!saved.is_empty());

    let (org, service) = ids();
    let applied = client.service(org, service).apply_saved(&saved, &desired).unwrap();
    assert_eq!(applied.steps().len(), 1, "{applied:?}");
    assert_eq!(writes(&fake).len(), 1, "{:?}", writes(&fake));
    assert!(client.service(org, service).plan(&desired, &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn a_stale_plan_is_refused_naming_the_change_and_nothing_is_written() {
    let (fake, client) = setup();
    let (id, desired) = running_orders(&fake);
    let saved = saved(&client, &desired);
    let (org, service) = ids();
    // Someone stops the pipe after the review.
    client.service(org, service).pipe(id).change_pipe_state(PipeCommand::Stop).unwrap();
    fake.clear_requests();

    let refused = client.service(org, service).apply_saved(&saved, &desired).unwrap_err();
    assert_eq!(
        refused.to_string(),
        "stale plan: pipe \"orders\" changed since the plan (state Running -> Stopping): plan again"
    );
    assert_eq!(refused.changes().len(), 1);
    assert!(writes(&fake).is_empty(), "{:?}", writes(&fake));
}

#[test]
fn a_saved_plan_whose_create_exists_now_or_whose_desired_state_changed_is_refused() {
    let (fake, client) = setup();
    let (org, service_id) = ids();
    let service = client.service(org, service_id);
    let desired = DesiredState::from_json(
        &json!({"pipes": [{"name": "events", "source": {"kinesis": {"format": "JSONEachRow", "streamName": "events",
            "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_ROLE",
            "iamRole": "arn:aws:iam::123456789012:role/events"}}, "destination": table("events")}]})
        .to_string(),
        |_| None,
    )
    .unwrap();
    let saved = saved(&client, &desired);

    // The desired state given at apply time is not the one planned.
    let other = DesiredState::from_json(&json!({"pipes": []}).to_string(), |_| None).unwrap();
    let refused = service.apply_saved(&saved, &other).unwrap_err();
    assert!(matches!(refused, SavedPlanError::NotTheSaved { number: 1, .. }), "{refused}");
    assert!(refused.to_string().contains("(saved: create_pipe pipe \"events\"; now: none)"), "{refused}");

    // Someone made the pipe in the console meanwhile.
    service.apply(&service.plan(&desired, &PlanOptions::default()).unwrap()).unwrap();
    fake.clear_requests();
    let refused = service.apply_saved(&saved, &desired).unwrap_err();
    assert_eq!(refused.to_string(), "stale plan: pipe \"events\" exists now, and the plan creates it: plan again");
    assert!(writes(&fake).is_empty(), "{:?}", writes(&fake));
}

#[test]
fn a_saved_plan_is_read_strictly() {
    let (fake, client) = setup();
    let (_, desired) = running_orders(&fake);
    let (org, service) = ids();
    let plan = client.service(org, service).plan(&desired, &PlanOptions::default()).unwrap();
    let file = plan.saved().to_string();
    let typo = file.replacen("\"name\": \"orders\"", "\"nmae\": \"orders\"", 1);
    let refused = SavedPlan::from_json(&typo).unwrap_err();
    assert_eq!(refused.to_string(), "saved plan: seen[0].nmae: is not a member of a saved plan");
    let newer = file.replacen("\"savedPlan\": 1", "\"savedPlan\": 2", 1);
    assert_eq!(
        SavedPlan::from_json(&newer).unwrap_err().to_string(),
        "saved plan: savedPlan: must be 1, the version this crate reads"
    );
    assert_eq!(SavedPlan::from_json(&file).unwrap(), plan.saved());
}
