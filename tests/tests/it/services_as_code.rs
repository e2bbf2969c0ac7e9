//! Services in the desired state (issue 47), against the fake's service lifecycle: a service
//! and its pipes applied from nothing (created, waited for, its password set by hash, its
//! pipes created), then planned empty; its export planned empty; a changed replica count
//! updated in place and waited for; a create lost at a gateway adopted; two services of a name
//! refused; a service pruned by stopping it first. The desired states are written here from
//! the contract and the service notes, as a user writes them.

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID, Fake, Fault, FaultRule};
use pipe_api_types::{ServiceId, ServiceState};
use pipe_api_ureq::plan::{
    Awaited, DesiredState, Effect, ExportError, ExportOptions, Kind, PlanError, PlanOptions, SavedPlan,
    plan_organization,
};
use pipe_api_ureq::{Client, Error};

/// An environment: the service `analytics`, its password a reference, and a Kafka pipe and
/// the endpoint it reaches its brokers through, under it.
const ENVIRONMENT: &str = r#"{
  "services": [
    {
      "name": "analytics",
      "provider": "aws",
      "region": "eu-west-1",
      "numReplicas": 2,
      "minReplicaMemoryGb": 8,
      "maxReplicaMemoryGb": 32,
      "idleScaling": true,
      "idleTimeoutMinutes": 15,
      "ipAccessList": [{"source": "10.0.0.0/8", "description": "office"}],
      "tags": [{"key": "env", "value": "production"}],
      "password": {"env": "ANALYTICS_PASSWORD"},
      "reversePrivateEndpoints": [
        {"description": "ingest brokers", "type": "VPC_ENDPOINT_SERVICE",
         "vpcEndpointServiceName": "com.amazonaws.vpce.eu-west-1.vpce-svc-0ingest"}
      ],
      "pipes": [
        {"name": "clicks",
         "source": {"kafka": {"type": "msk", "format": "JSONEachRow", "brokers": "b-1.ingest.internal:9096",
           "topics": "clicks", "authentication": "SCRAM-SHA-512",
           "credentials": {"username": "ingest", "password": {"env": "KAFKA_PASSWORD"}},
           "reversePrivateEndpointIds": ["ingest brokers"]}},
         "destination": {"table": "clicks", "managedTable": true,
           "columns": [{"name": "id", "type": "UInt64"}]}}
      ]
    }
  ]
}"#;

/// The service's password, as the user's vault answers it: never to be sent or shown.
const PASSWORD: &str = "analytics-password-from-the-vault";
/// `echo -n "$PASSWORD" | sha256sum | xxd -r -p | base64` (the contract's `newPasswordHash`).
const PASSWORD_SHA256_BASE64: &str = "glORcek+0ge0uEVLDBGpW9+peQcFMXUdXzIo9WxNaoI=";
/// `echo -n "$PASSWORD" | sha1sum | xxd -r -p | sha1sum` (the contract's `newDoubleSha1Hash`).
const PASSWORD_DOUBLE_SHA1: &str = "906485aa1bbe0e0f889b97719a6f283447afe9f4";

fn secrets(name: &str) -> Option<String> {
    match name {
        "ANALYTICS_PASSWORD" => Some(PASSWORD.to_owned()),
        "KAFKA_PASSWORD" => Some("kafka-password-from-the-vault".to_owned()),
        _ => None,
    }
}

fn desired(text: &str) -> DesiredState {
    DesiredState::from_json(text, secrets).unwrap()
}

fn setup() -> (Fake, Client) {
    crate::pipes_as_code::setup()
}

/// The id of the one service named `name`, as the fake lists it.
fn service_named(client: &Client, name: &str) -> ServiceId {
    let services = client.list_all_services(ORG).unwrap();
    let mut named = services.into_iter().filter(|service| service.name.as_deref() == Some(name));
    let service = named.next().expect("the service is listed");
    assert!(named.next().is_none(), "one service of the name");
    service.id
}

/// `environment` applied from nothing: what it plans, applied; the id of its service.
fn applied(client: &Client, environment: &str) -> ServiceId {
    let organization = client.organization(ORG);
    let plan = organization.plan(&desired(environment), &PlanOptions::default()).unwrap();
    organization.apply(&plan).unwrap();
    service_named(client, "analytics")
}

#[test]
fn a_service_and_its_pipes_applied_from_nothing_are_created_waited_for_and_then_plan_empty() {
    let (fake, client) = setup();
    let organization = client.organization(ORG);
    let desired = desired(ENVIRONMENT);

    let plan = organization.plan(&desired, &PlanOptions::default()).unwrap();
    let steps: Vec<String> = plan.steps().iter().map(|step| step.summary()).collect();
    assert_eq!(
        steps,
        [
            r#"create_service service "analytics""#,
            r#"update_service_password service "analytics""#,
            r#"create_reverse_private_endpoint reverse private endpoint "ingest brokers" of service "analytics""#,
            r#"create_pipe pipe "clicks" of service "analytics""#,
        ]
    );
    // The service is waited for before anything runs on it.
    assert_eq!(plan.steps()[0].then(), Some(Awaited::ServiceRunning));
    assert_eq!(plan.service_id(), None, "a plan of the organization's services");
    // The demo's own service is not in the file: left alone without pruning, and said.
    assert!(plan.notes().iter().any(|note| note.contains(r#"service "demo-warehouse" is not in the desired state"#)));

    let applied = organization.apply(&plan).unwrap();
    assert_eq!(applied.steps().len(), 4, "{applied}");
    assert_eq!(applied.steps()[0].effect(), Some(Effect::Created));

    let id = service_named(&client, "analytics");
    let service = client.get_service(ORG, id).unwrap();
    assert_eq!(service.state, Some(ServiceState::Running));
    assert_eq!(service.num_replicas, Some(2.0));
    let pipes = fake.pipes(ORG, id);
    assert_eq!(pipes.iter().filter_map(|pipe| pipe.name.as_deref()).collect::<Vec<_>>(), ["clicks"]);
    // The pipe reaches its brokers through the endpoint made before it, on the new service.
    let endpoints = client.list_reverse_private_endpoints(ORG, id).unwrap();
    let kafka = pipes[0].source.as_ref().unwrap().kafka.as_ref().unwrap();
    assert_eq!(kafka.reverse_private_endpoint_ids.as_deref().unwrap(), [endpoints[0].id.to_string().as_str()]);

    let again = organization.plan(&desired, &PlanOptions::default()).unwrap();
    assert!(again.is_empty(), "{again}");
}

#[test]
fn the_password_is_sent_only_as_its_hashes_and_shown_nowhere() {
    let (fake, client) = setup();
    let organization = client.organization(ORG);
    let desired = desired(ENVIRONMENT);
    let plan = organization.plan(&desired, &PlanOptions::default()).unwrap();

    // Nothing shown holds the password, nor its hashes (as good as it to a guesser).
    let saved = plan.saved().to_string();
    let applied = organization.apply(&plan).unwrap();
    for shown in [
        plan.to_string(),
        plan.to_json().to_string(),
        format!("{plan:?}"),
        format!("{desired:?}"),
        saved,
        applied.to_string(),
        format!("{applied:?}"),
    ] {
        for secret in [PASSWORD, PASSWORD_SHA256_BASE64, PASSWORD_DOUBLE_SHA1] {
            assert!(!shown.contains(secret), "{secret} shown in:\n{shown}");
        }
    }
    assert!(plan.to_string().contains(r#""newPasswordHash": "[redacted]""#), "{plan}");

    // The server got the hashes the contract defines, and never the password.
    let id = service_named(&client, "analytics");
    assert_eq!(fake.service_password_hash(ORG, id).as_deref(), Some(PASSWORD_SHA256_BASE64));
    let requests = fake.requests();
    assert!(requests.iter().all(|request| !String::from_utf8_lossy(&request.body).contains(PASSWORD)));
    let set = requests.iter().find(|request| request.path.ends_with("/password")).expect("the password was set");
    let body: serde_json::Value = serde_json::from_slice(&set.body).unwrap();
    assert_eq!(
        body,
        serde_json::json!({"newPasswordHash": PASSWORD_SHA256_BASE64, "newDoubleSha1Hash": PASSWORD_DOUBLE_SHA1})
    );
}

#[test]
fn an_export_of_the_service_plans_empty() {
    let (_fake, client) = setup();
    let id = applied(&client, ENVIRONMENT);
    let organization = client.organization(ORG);

    let exported = organization.export_service(id, &ExportOptions::default()).unwrap();
    let document = exported.to_json();
    assert_eq!(document["services"][0]["name"], "analytics");
    assert_eq!(document["services"][0]["numReplicas"], 2);
    assert_eq!(document["services"][0]["pipes"][0]["name"], "clicks");
    // Its password is never shown, so never written; the pipe's credentials are references.
    assert!(document["services"][0].get("password").is_none(), "{document}");
    let references: Vec<&str> = exported.secrets().iter().map(|secret| secret.path.as_str()).collect();
    assert!(references.contains(&"services[0].pipes[0].source.kafka.credentials.password"), "{references:?}");

    let read = DesiredState::from_json(&exported.to_string(), |name| Some(format!("value of {name}"))).unwrap();
    let plan = organization.plan(&read, &PlanOptions::default()).unwrap();
    assert!(plan.is_empty(), "{plan}");
}

#[test]
fn a_stopped_service_or_one_of_no_id_is_not_exported() {
    let (fake, client) = setup();
    let organization = client.organization(ORG);
    fake.set_service_state(ORG, DEMO_SERVICE_ID, ServiceState::Stopped);
    let error = organization.export_service(DEMO_SERVICE_ID, &ExportOptions::default()).unwrap_err();
    let ExportError::ServiceNotRead { service, state } = &error else { panic!("{error}") };
    assert_eq!((*service, state.as_deref()), (DEMO_SERVICE_ID, Some("stopped")));
    assert!(error.to_string().contains("is stopped: what it has is read only while it runs"), "{error}");

    let none: ServiceId = "0b3f6f0e-1c2d-4e5f-8a9b-0c1d2e3f4a09".parse().unwrap();
    let error = organization.export_service(none, &ExportOptions::default()).unwrap_err();
    assert!(matches!(error, ExportError::ServiceNotRead { state: None, .. }), "{error}");
}

#[test]
fn a_changed_replica_count_is_updated_in_place_and_waited_for() {
    let (_fake, client) = setup();
    let id = applied(&client, ENVIRONMENT);
    let organization = client.organization(ORG);
    let changed = desired(&ENVIRONMENT.replace(r#""numReplicas": 2"#, r#""numReplicas": 3"#));

    let plan = organization.plan(&changed, &PlanOptions::default()).unwrap();
    assert_eq!(plan.steps().len(), 1, "{plan}");
    let step = &plan.steps()[0];
    assert_eq!(step.summary(), r#"update_service_replica_scaling service "analytics""#);
    assert_eq!(step.reason(), "numReplicas differs");
    assert_eq!(step.then(), Some(Awaited::ServiceScaled));
    assert!(step.destructive().is_none());
    assert_eq!(step.request().redacted_body().unwrap()["numReplicas"], 3);

    organization.apply(&plan).unwrap();
    // The fake applies a scaling change after its transition time: the apply waited for it.
    assert_eq!(client.get_service(ORG, id).unwrap().num_replicas, Some(3.0));
    assert!(organization.plan(&changed, &PlanOptions::default()).unwrap().is_empty());
}

/// Vertical to horizontal: the whole declared scaling is sent at once (a mode with its band and
/// its fixed memory), and waited for until the service reports it.
#[test]
fn a_switch_to_horizontal_scaling_is_sent_whole_and_waited_for() {
    let (_fake, client) = setup();
    let id = applied(&client, ENVIRONMENT);
    let organization = client.organization(ORG);
    let horizontal = ENVIRONMENT.replace(
        r#""numReplicas": 2,
      "minReplicaMemoryGb": 8,
      "maxReplicaMemoryGb": 32,"#,
        r#""autoscalingMode": "horizontal", "minReplicas": 2, "maxReplicas": 5,
      "minReplicaMemoryGb": 16, "maxReplicaMemoryGb": 16,"#,
    );
    assert_ne!(horizontal, ENVIRONMENT);
    let horizontal = desired(&horizontal);

    let plan = organization.plan(&horizontal, &PlanOptions::default()).unwrap();
    assert_eq!(plan.steps().len(), 1, "{plan}");
    let body = plan.steps()[0].request().redacted_body().unwrap();
    let sent: Vec<&str> = body.as_object().unwrap().keys().map(String::as_str).collect();
    let whole = ["autoscalingMode", "idleScaling", "idleTimeoutMinutes", "maxReplicaMemoryGb", "maxReplicas"];
    assert_eq!(sent, [&whole[..], &["minReplicaMemoryGb", "minReplicas"]].concat(), "{body}");

    organization.apply(&plan).unwrap();
    let service = client.get_service(ORG, id).unwrap();
    assert_eq!((service.min_replicas, service.max_replicas, service.num_replicas), (Some(2), Some(5), None));
    assert!(organization.plan(&horizontal, &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn tags_and_the_ip_access_list_are_patched_in_place() {
    let (_fake, client) = setup();
    let id = applied(&client, ENVIRONMENT);
    let organization = client.organization(ORG);
    let changed = ENVIRONMENT
        .replace(r#"{"key": "env", "value": "production"}"#, r#"{"key": "env", "value": "staging"}"#)
        .replace(r#""source": "10.0.0.0/8""#, r#""source": "192.168.0.0/16""#);

    let plan = organization.plan(&desired(&changed), &PlanOptions::default()).unwrap();
    assert_eq!(plan.steps().len(), 1, "{plan}");
    let body = plan.steps()[0].request().redacted_body().unwrap();
    assert_eq!(plan.steps()[0].reason(), "ipAccessList, tags differ");
    assert_eq!(body["ipAccessList"]["remove"][0]["source"], "10.0.0.0/8");
    assert_eq!(body["ipAccessList"]["add"][0]["source"], "192.168.0.0/16");
    assert_eq!(body["tags"]["add"][0]["value"], "staging");

    organization.apply(&plan).unwrap();
    let service = client.get_service(ORG, id).unwrap();
    assert_eq!(service.tags.unwrap()[0].value.as_deref(), Some("staging"));
    assert!(organization.plan(&desired(&changed), &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn a_changed_region_is_refused_even_when_replacing_is_allowed() {
    let (_fake, client) = setup();
    applied(&client, ENVIRONMENT);
    let moved = desired(&ENVIRONMENT.replace(r#""region": "eu-west-1""#, r#""region": "us-east-1""#));

    let options = PlanOptions::default().allow_replacement(true);
    let error = client.organization(ORG).plan(&moved, &options).unwrap_err();
    let PlanError::ReplacementRefused { resource, fields, .. } = &error else { panic!("{error}") };
    assert_eq!(resource.kind, Kind::Service);
    assert_eq!(fields.iter().map(|field| field.path.as_str()).collect::<Vec<_>>(), ["region"]);
    assert!(error.to_string().contains("a plan never replaces one"), "{error}");
}

#[test]
fn a_create_lost_at_a_gateway_is_adopted_by_name() {
    let (fake, client) = setup();
    let organization = client.organization(ORG);
    let desired = desired(ENVIRONMENT);
    let plan = organization.plan(&desired, &PlanOptions::default()).unwrap();
    // The service is created, and the gateway loses the answer.
    let lost = Fault::status(502).after_handling();
    fake.inject(FaultRule::path_ends_with("/services", lost).method(http::Method::POST).times(1));

    let applied = organization.apply(&plan).unwrap();
    assert_eq!(applied.steps()[0].effect(), Some(Effect::Adopted), "{applied}");
    assert_eq!(applied.steps()[0].to_string(), r#"create_service service "analytics""#);
    // One service of the name: the create was not sent again.
    let id = service_named(&client, "analytics");
    assert_eq!(fake.pipes(ORG, id).len(), 1);
    assert!(organization.plan(&desired, &PlanOptions::default()).unwrap().is_empty());
}

#[test]
fn two_services_of_a_declared_name_are_a_conflict() {
    let (fake, client) = setup();
    for id in ["0b3f6f0e-1c2d-4e5f-8a9b-0c1d2e3f4a01", "0b3f6f0e-1c2d-4e5f-8a9b-0c1d2e3f4a02"] {
        let service = serde_json::json!({"id": id, "name": "analytics", "provider": "aws", "region": "eu-west-1"});
        fake.seed_service_json(ORG, service);
    }
    let error = client.organization(ORG).plan(&desired(ENVIRONMENT), &PlanOptions::default()).unwrap_err();
    let PlanError::SameNameOnServer { resource, ids } = &error else { panic!("{error}") };
    assert_eq!(resource.to_string(), r#"service "analytics""#);
    assert!(ids.iter().all(|id| id.starts_with("0b3f6f0e")), "{ids:?}");
}

#[test]
fn pruning_stops_a_running_service_waits_until_it_is_stopped_then_deletes_it() {
    let (fake, client) = setup();
    let id = applied(&client, ENVIRONMENT);
    let organization = client.organization(ORG);
    let desired = desired(ENVIRONMENT);
    let options = PlanOptions::default().prune(true);

    let plan = organization.plan(&desired, &options).unwrap();
    let steps: Vec<String> = plan.steps().iter().map(|step| step.summary()).collect();
    assert_eq!(
        steps,
        [r#"update_service_state service "demo-warehouse""#, r#"delete_service service "demo-warehouse""#]
    );
    assert_eq!(plan.steps()[0].then(), Some(Awaited::ServiceStopped));
    assert!(plan.steps()[1].destructive().is_some_and(|cost| cost.contains("every table")), "{plan}");

    // A saved plan of it holds the same steps, and applies.
    let saved = SavedPlan::from_json(&plan.saved().to_string()).unwrap();
    assert_eq!(saved.service_id(), None);
    organization.apply_saved(&saved, &desired).unwrap();

    // Deleted only once stopped (the fake refuses a running one): it terminates, then is gone.
    let demo = client.get_service(ORG, DEMO_SERVICE_ID).unwrap();
    assert_eq!(demo.state, Some(ServiceState::Terminating));
    fake.advance(std::time::Duration::from_secs(60));
    assert!(matches!(client.get_service(ORG, DEMO_SERVICE_ID), Err(Error::Api(_))));
    assert_eq!(client.get_service(ORG, id).unwrap().state, Some(ServiceState::Running));
    assert!(organization.plan(&desired, &options).unwrap().is_empty());
}

#[test]
fn a_file_with_services_is_planned_for_the_organization_only() {
    let desired = desired(ENVIRONMENT);
    let (_fake, client) = setup();
    let error = client.service(ORG, DEMO_SERVICE_ID).plan(&desired, &PlanOptions::default()).unwrap_err();
    assert!(matches!(error, PlanError::Scope { .. }), "{error}");
    // One without services is refused for the organization: pruning would delete every service.
    let pipes_only = DesiredState::from_json(r#"{"pipes": []}"#, secrets).unwrap();
    let current = pipe_api_ureq::plan::Current::of_organization(Vec::new(), None);
    let error = plan_organization(ORG, &pipes_only, &current, &PlanOptions::default()).unwrap_err();
    assert!(matches!(error, PlanError::Scope { .. }), "{error}");
}
