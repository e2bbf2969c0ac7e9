//! Services in the desired state (issue 47), against the fake's service lifecycle: a service
//! and its pipes applied from nothing (created, waited for, its password set by hash, its
//! pipes created), then planned empty; its export planned empty; a changed replica count
//! updated in place and waited for; a create lost at a gateway adopted; two services of a name
//! refused; a service pruned by stopping it first. The desired states are written here from
//! the contract and the service notes, as a user writes them.

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID, Fake};
use pipe_api_types::{ServiceId, ServiceState};
use pipe_api_ureq::Client;
use pipe_api_ureq::plan::{DesiredState, ExportError, ExportOptions, PlanError, PlanOptions, plan_organization};

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
