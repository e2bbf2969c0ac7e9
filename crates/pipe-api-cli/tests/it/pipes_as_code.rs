//! export, plan, apply: the round trip the issue asks for, against the demo fake.

use crate::common::{PASSWORD_VARIABLE, Setup, USERNAME_VARIABLE};

/// The demo service exported to `desired.json` in the test's folder.
fn exported(setup: &Setup) -> String {
    let run = setup.run(&["export", "-o", "desired.json"]);
    run.exits(0);
    assert!(run.stdout.is_empty(), "the file went to -o:\n{}", run.stdout);
    // The variables the user must set, each named.
    assert!(run.stderr.contains(USERNAME_VARIABLE) && run.stderr.contains(PASSWORD_VARIABLE), "{}", run.stderr);
    // The demo pipe the desired state cannot hold is left out, and said.
    assert!(run.stderr.contains(r#"note: service "demo-warehouse": pipe "events-from-s3""#), "{}", run.stderr);
    // The file declares the service, with its pipes under it.
    let declared: serde_json::Value =
        serde_json::from_str(&std::fs::read_to_string(setup.path("desired.json")).unwrap()).unwrap();
    assert_eq!(declared["services"][0]["name"], "demo-warehouse");
    let file = std::fs::read_to_string(setup.path("desired.json")).expect("the export's file");
    assert!(file.contains(&format!(r#""env": "{PASSWORD_VARIABLE}""#)), "{file}");
    file
}

#[test]
fn an_export_plans_empty_a_changed_replica_count_plans_2_and_its_saved_plan_applies() {
    let setup = Setup::new("round-trip");
    let file = exported(&setup);

    // The export, planned: no changes (0 under --detailed-exitcode).
    let run = setup.run(&["plan", "-f", "desired.json", "--detailed-exitcode"]);
    run.exits(0);
    assert!(run.stdout.starts_with("no changes\n"), "{}", run.stdout);

    // One more replica: changes (2), the plan saved.
    let changed = file.replace(r#""replicas": 2"#, r#""replicas": 3"#);
    assert_ne!(changed, file);
    std::fs::write(setup.path("changed.json"), changed).unwrap();
    let run = setup.run(&["plan", "-f", "changed.json", "-o", "plan.json", "--detailed-exitcode"]);
    run.exits(2);
    assert!(
        run.stdout.contains(
            r#"1. update_pipe_scaling pipe "orders-from-kafka" of service "demo-warehouse": scaling differs"#
        ),
        "{}",
        run.stdout
    );
    assert!(run.stderr.contains("apply plan.json -f changed.json"), "{}", run.stderr);
    // Without --detailed-exitcode, changes are a success.
    setup.run(&["plan", "-f", "changed.json"]).exits(0);
    // Planning sent nothing that changes anything.
    assert_eq!(setup.pipe("orders-from-kafka").unwrap()["scaling"]["replicas"], 2);

    // The saved plan, applied: each step as it goes through.
    let run = setup.run(&["apply", "plan.json", "-f", "changed.json"]);
    run.exits(0);
    let step = r#"[1/1] update_pipe_scaling pipe "orders-from-kafka" of service "demo-warehouse": changed"#;
    assert!(run.stdout.contains(step), "{}", run.stdout);
    assert!(run.stdout.contains("applied 1 step"), "{}", run.stdout);
    assert_eq!(setup.pipe("orders-from-kafka").unwrap()["scaling"]["replicas"], 3);

    // Applied: the file plans empty, and the saved plan is stale now.
    setup.run(&["plan", "-f", "changed.json", "--detailed-exitcode"]).exits(0);
    let run = setup.run(&["apply", "plan.json", "-f", "changed.json"]);
    run.exits(1);
    assert!(run.stderr.starts_with("error: stale plan: "), "{}", run.stderr);
}

#[test]
fn a_stopped_state_plans_2_and_applies_at_once_waiting_until_it_is_stopped() {
    let setup = Setup::new("stopped");
    let file = exported(&setup);
    let stopped =
        file.replacen(r#""name": "orders-from-kafka","#, r#""name": "orders-from-kafka", "state": "stopped","#, 1);
    assert_ne!(stopped, file);
    std::fs::write(setup.path("stopped.json"), stopped).unwrap();
    setup.run(&["plan", "-f", "stopped.json", "--detailed-exitcode"]).exits(2);

    // Not on a terminal, an apply of a file needs --auto-approve.
    let run = setup.run(&["apply", "-f", "stopped.json"]);
    run.exits(1);
    assert!(run.stderr.contains("--auto-approve"), "{}", run.stderr);
    assert_eq!(setup.pipe("orders-from-kafka").unwrap()["state"], "Running");

    let run = setup.run(&["apply", "-f", "stopped.json", "--auto-approve"]);
    run.exits(0);
    // The step, then its wait, a line per state seen (not a terminal: no spinner).
    let kafka = r#"pipe "orders-from-kafka" of service "demo-warehouse""#;
    let step = format!("[1/1] change_pipe_state {kafka}: changed; then wait until it is Stopped or Paused");
    assert!(run.stdout.contains(&step), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("{kafka} is Stopped")), "{}", run.stdout);
    assert!(run.stdout.contains(&format!("{kafka}: wait done after")), "{}", run.stdout);
    assert_eq!(setup.pipe("orders-from-kafka").unwrap()["state"], "Stopped");
    setup.run(&["plan", "-f", "stopped.json", "--detailed-exitcode"]).exits(0);
}

#[test]
fn a_saved_plan_needs_its_file_and_refuses_another() {
    let setup = Setup::new("saved");
    let file = exported(&setup);
    std::fs::write(setup.path("changed.json"), file.replace(r#""replicas": 2"#, r#""replicas": 4"#)).unwrap();
    setup.run(&["plan", "-f", "changed.json", "-o", "plan.json"]).exits(0);

    let run = setup.run(&["apply", "plan.json"]);
    run.exits(1);
    assert!(run.stderr.contains("pipe-api apply PLAN -f FILE"), "{}", run.stderr);
    // The plan made now from another file is not the saved one: refused, nothing sent.
    let run = setup.run(&["apply", "plan.json", "-f", "desired.json"]);
    run.exits(1);
    assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
    assert_eq!(setup.pipe("orders-from-kafka").unwrap()["scaling"]["replicas"], 2);
}
