//! Errors: one line that says why, exit 1.

use crate::common::Setup;

#[test]
fn a_misspelt_member_exits_1_naming_its_path() {
    let setup = Setup::new("misspelt");
    std::fs::write(
        setup.path("typo.json"),
        r#"{"pipes": [{"name": "orders", "scaling": {"replcas": 2},
            "source": {"kafka": {"type": "kafka", "format": "JSONEachRow", "brokers": "b:9092",
                "topics": "orders", "authentication": "PLAIN",
                "credentials": {"username": "ingest", "password": {"env": "PIPE_ORDERS_FROM_KAFKA_KAFKA_PASSWORD"}}}},
            "destination": {"table": "orders", "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]}}]}"#,
    )
    .unwrap();
    let requests = setup.fake().request_count();
    for command in [&["plan", "-f", "typo.json"][..], &["apply", "-f", "typo.json", "--auto-approve"]] {
        let run = setup.run(command);
        run.exits(1);
        assert!(run.stdout.is_empty(), "{}", run.stdout);
        assert_eq!(run.stderr.lines().count(), 1, "one line: {}", run.stderr);
        assert!(run.stderr.starts_with("error: typo.json: desired state: "), "{}", run.stderr);
        assert!(run.stderr.contains("`pipes[0].scaling.replcas`"), "{}", run.stderr);
        assert!(run.stderr.contains("did you mean `replicas`?"), "{}", run.stderr);
    }
    // Refused before anything was sent.
    assert_eq!(setup.fake().request_count(), requests);
}

#[test]
fn each_error_is_one_line_and_exits_1() {
    let setup = Setup::new("errors");
    std::fs::write(setup.path("broken.json"), r#"{"pipes": ["#).unwrap();
    std::fs::write(setup.path("clear.json"), r#"{"pipes": [{"name": "p", "source": {"kafka": {"credentials": {"username": "u", "password": "in clear"}}}}]}"#).unwrap();
    let cases: [(&[&str], &str); 6] = [
        (&["plan", "-f", "missing.json"], "error: missing.json: cannot read: "),
        (&["plan", "-f", "broken.json"], "error: broken.json: desired state: "),
        (&["plan", "-f", "clear.json"], "a secret is never written in the desired state"),
        (&["apply"], "error: nothing to apply"),
        (&["pipes", "--service", "not-an-id"], "error: PIPE_API_SERVICE_ID (or its flag) is not a service's id"),
        (&["services", "--url", "http://127.0.0.1:1"], "error: list_services: could not connect"),
    ];
    for (args, expected) in cases {
        let run = setup.run(args);
        run.exits(1);
        assert_eq!(run.stderr.lines().count(), 1, "{args:?}: one line: {}", run.stderr);
        assert!(run.stderr.contains(expected), "{args:?}: {}", run.stderr);
    }
    // A usage error is an error (1), never clap's 2, which means "changes" here.
    setup.run(&["plan"]).exits(1);
    setup.run(&["--help"]).exits(0);

    // No management interface: says what to set.
    let run = Run::of(setup.command(&["orgs"]).env_remove("PIPE_API_URL").output().unwrap());
    run.exits(1);
    assert!(run.stderr.contains("set PIPE_API_URL"), "{}", run.stderr);
    // Wrong credentials: the server's 401, and no secret (Run checks every output).
    let run =
        Run::of(setup.command(&["orgs"]).env("PIPE_API_KEY_SECRET", "wrong-secret-of-the-test").output().unwrap());
    run.exits(1);
    assert!(run.stderr.contains("401"), "{}", run.stderr);
}

use crate::common::Run;
