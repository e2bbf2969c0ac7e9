//! `orgs`, `services`, `pipes`: tables, and `--json` that parses.

use pipe_api_fake::{DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID};
use serde_json::Value;

use crate::common::Setup;

#[test]
fn json_output_parses_and_is_the_models_whole_json() {
    let setup = Setup::new("json");
    let parse = |args: &[&str]| -> Vec<Value> {
        let run = setup.run(args);
        run.exits(0);
        serde_json::from_str(&run.stdout).unwrap_or_else(|error| panic!("{args:?}: {error}:\n{}", run.stdout))
    };
    let organizations = parse(&["orgs", "--json"]);
    assert_eq!(organizations.len(), 1);
    assert_eq!(organizations[0]["id"], DEMO_ORGANIZATION_ID.to_string());

    let services = parse(&["services", "--json"]);
    assert_eq!(services[0]["id"], DEMO_SERVICE_ID.to_string());
    assert_eq!(services[0]["name"], "demo-warehouse");
    assert_eq!(services[0]["numReplicas"], 3);

    let pipes = parse(&["pipes", "--json"]);
    let names: Vec<&str> = pipes.iter().filter_map(|pipe| pipe["name"].as_str()).collect();
    assert_eq!(names, ["orders-from-kafka", "events-from-s3"]);
    // Whole: nested members too, as the server sent them.
    assert_eq!(pipes[0]["source"]["kafka"]["topics"], "orders");
    assert_eq!(pipes[0]["scaling"]["replicas"], 2);
}

#[test]
fn tables_have_a_header_and_a_row_each() {
    let setup = Setup::new("tables");
    let run = setup.run(&["pipes"]);
    run.exits(0);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(lines.len(), 3, "{}", run.stdout);
    assert!(lines[0].split_whitespace().eq(["ID", "NAME", "SOURCE", "STATE", "REPLICAS"]), "{}", lines[0]);
    assert!(lines[1].split_whitespace().eq([
        "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19001",
        "orders-from-kafka",
        "kafka",
        "Running",
        "2"
    ]));

    let run = setup.run(&["services"]);
    run.exits(0);
    assert!(run.stdout.contains("demo-warehouse"), "{}", run.stdout);
    let run = setup.run(&["orgs"]);
    run.exits(0);
    assert!(run.stdout.contains(&DEMO_ORGANIZATION_ID.to_string()), "{}", run.stdout);
}
