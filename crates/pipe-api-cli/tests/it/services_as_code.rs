//! A file that declares a service (an environment), planned and applied with only the
//! organization's id: the service is created and waited for, its password set by hash, its pipe
//! created; then the file plans no changes.

use crate::common::{Run, Setup};

/// The service `analytics` and an S3 pipe on it (no secret but the service's password).
const ENVIRONMENT: &str = r#"{
  "services": [
    {
      "name": "analytics",
      "provider": "aws",
      "region": "eu-west-1",
      "numReplicas": 2,
      "minReplicaMemoryGb": 8,
      "maxReplicaMemoryGb": 32,
      "password": {"env": "ANALYTICS_PASSWORD"},
      "pipes": [
        {"name": "archive",
         "source": {"objectStorage": {"type": "s3", "format": "Parquet",
           "url": "https://archive.s3.eu-west-1.amazonaws.com/*.parquet",
           "authentication": "IAM_ROLE", "iamRole": "arn:aws:iam::123456789012:role/archive"}},
         "destination": {"table": "archive", "managedTable": true,
           "columns": [{"name": "id", "type": "UInt64"}]}}
      ]
    }
  ]
}"#;

/// The password the environment's reference resolves to: in no output.
const PASSWORD: &str = "analytics-password-resolved-51d0";

/// `pipe-api args` with the organization's id and no service id.
fn run(setup: &Setup, args: &[&str]) -> Run {
    let mut command = setup.command(args);
    command.env_remove("PIPE_API_SERVICE_ID").env("ANALYTICS_PASSWORD", PASSWORD);
    let run = Run::of(command.output().expect("the binary runs"));
    assert!(!run.stdout.contains(PASSWORD) && !run.stderr.contains(PASSWORD), "{run:?}");
    run
}

#[test]
fn a_file_with_a_service_plans_2_applies_then_plans_0_with_only_the_organization_id() {
    let setup = Setup::new("services");
    std::fs::write(setup.path("environment.json"), ENVIRONMENT).unwrap();

    let planned = run(&setup, &["plan", "-f", "environment.json", "--detailed-exitcode"]);
    planned.exits(2);
    let create = r#"1. create_service service "analytics": not on the server; then wait until it is running"#;
    assert!(planned.stdout.contains(create), "{}", planned.stdout);
    assert!(planned.stdout.contains(r#""newPasswordHash": "[redacted]""#), "{}", planned.stdout);
    assert!(planned.stdout.contains(r#"3. create_pipe pipe "archive" of service "analytics""#), "{}", planned.stdout);

    let applied = run(&setup, &["apply", "-f", "environment.json", "--auto-approve"]);
    applied.exits(0);
    assert!(applied.stdout.contains(r#"create_service service "analytics": created"#), "{}", applied.stdout);
    assert!(applied.stdout.contains("applied 3 steps"), "{}", applied.stdout);

    let listed = run(&setup, &["services", "--json"]);
    let services: Vec<serde_json::Value> = serde_json::from_str(&listed.exits(0).stdout).unwrap();
    let analytics = services.iter().find(|service| service["name"] == "analytics").expect("created");
    assert_eq!(analytics["state"], "running", "waited for before its pipe");

    run(&setup, &["plan", "-f", "environment.json", "--detailed-exitcode"]).exits(0);
}
