//! Pipes as code: the desired state of a service kept in a file (`desired-state.json` beside
//! this example), planned against what the service has, reviewed, applied, and planned again
//! (no changes).
//!
//! With no configuration it runs against the built-in fake served on 127.0.0.1, and the
//! secret the file references (`KAFKA_PASSWORD`) defaults to a demo value. Against a real
//! deployment set `PIPE_API_URL`, `PIPE_API_KEY_ID`, `PIPE_API_KEY_SECRET`, `PIPE_API_ORG_ID`,
//! `PIPE_API_SERVICE_ID` (and `PIPE_ALERTS_URL`, `PIPE_ALERTS_TOKEN`) and `KAFKA_PASSWORD`: it
//! then only plans, and applies with `-- --apply`.
//!
//! ```sh
//! cargo run -p pipe-api-ureq --features plan --example pipes_as_code
//! ```

use std::process::ExitCode;
use std::time::Duration;

use pipe_api_fake::Fake;
use pipe_api_ureq::Client;
use pipe_api_ureq::plan::{DesiredState, PlanOptions};
use pipe_api_ureq::types::{OrganizationId, ServiceId};

type Outcome = Result<(), Box<dyn std::error::Error>>;

const DESIRED_STATE: &str = include_str!("desired-state.json");

fn main() -> ExitCode {
    let apply = std::env::args().any(|arg| arg == "--apply");
    let result = match std::env::var("PIPE_API_URL") {
        Ok(url) if !url.is_empty() => against_deployment(apply),
        _ => against_fake(),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(error) => {
            // Says which step failed and why, which were done and which were not started.
            eprintln!("error: {error}");
            ExitCode::FAILURE
        }
    }
}

fn against_fake() -> Outcome {
    let fake = Fake::demo();
    // The fake's clock moves 10 s a request, so an endpoint becomes ready within a few polls.
    fake.advance_per_request(Duration::from_secs(10));
    let server = fake.serve()?;
    let client = Client::builder()
        .management(&server.base_url(), pipe_api_fake::DEMO_KEY_ID, pipe_api_fake::DEMO_KEY_SECRET)
        .alerting(&server.base_url(), pipe_api_fake::DEMO_ALERTS_TOKEN)
        .build()?;
    let secrets = |name: &str| std::env::var(name).ok().or_else(|| Some(format!("demo value of {name}")));
    run(&client, pipe_api_fake::DEMO_ORGANIZATION_ID, pipe_api_fake::DEMO_SERVICE_ID, secrets, true)
}

fn against_deployment(apply: bool) -> Outcome {
    let client = Client::from_env()?;
    let org: OrganizationId = std::env::var("PIPE_API_ORG_ID")?.parse()?;
    let service: ServiceId = std::env::var("PIPE_API_SERVICE_ID")?.parse()?;
    run(&client, org, service, |name| std::env::var(name).ok(), apply)
}

fn run(
    client: &Client,
    org: OrganizationId,
    service: ServiceId,
    secrets: impl Fn(&str) -> Option<String>,
    apply: bool,
) -> Outcome {
    // Secrets are references in the file ({"env": "KAFKA_PASSWORD"}), looked up here.
    let desired = DesiredState::from_json(DESIRED_STATE, secrets)?;
    let service = client.service(org, service);

    // What would go out, secrets redacted: what a pull request's snapshot keeps.
    let plan = service.plan(&desired, &PlanOptions::default())?;
    println!("== plan\n{plan}");
    if !apply {
        println!("(not applied: run with -- --apply)");
        return Ok(());
    }

    let applied = service.apply(&plan)?;
    println!("== {applied}");

    let again = service.plan(&desired, &PlanOptions::default())?;
    println!("== plan again\n{again}");
    assert!(again.is_empty(), "applying twice changes nothing");
    Ok(())
}
