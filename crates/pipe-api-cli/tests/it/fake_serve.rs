//! `pipe-api fake serve`: the demo fake on 127.0.0.1, and the variables to export.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};

use crate::common::{BINARY, Run};

#[test]
fn fake_serve_prints_the_variables_that_reach_it() {
    let mut child = Command::new(BINARY)
        .args(["fake", "serve", "--port", "0"])
        .env_clear()
        .stdout(Stdio::piped())
        .stderr(Stdio::null())
        .spawn()
        .unwrap();
    let mut variables = Vec::new();
    for line in BufReader::new(child.stdout.take().unwrap()).lines() {
        let line = line.unwrap();
        if let Some((name, value)) = line.strip_prefix("export ").and_then(|line| line.split_once('=')) {
            variables.push((name.to_owned(), value.to_owned()));
        }
        if line.starts_with("export PIPE_ALERTS_TOKEN=") {
            break;
        }
    }
    let names: Vec<&str> = variables.iter().map(|(name, _)| name.as_str()).collect();
    assert_eq!(
        names,
        [
            "PIPE_API_URL",
            "PIPE_API_KEY_ID",
            "PIPE_API_KEY_SECRET",
            "PIPE_API_ORG_ID",
            "PIPE_API_SERVICE_ID",
            "PIPE_ALERTS_URL",
            "PIPE_ALERTS_TOKEN"
        ]
    );
    assert!(variables[0].1.starts_with("http://127.0.0.1:"), "{variables:?}");

    // Those variables, and nothing else, reach the served fake.
    let output = Command::new(BINARY).args(["pipes", "--json"]).env_clear().envs(variables).output().unwrap();
    child.kill().unwrap();
    child.wait().unwrap();
    let run = Run::of(output);
    run.exits(0);
    let pipes: serde_json::Value = serde_json::from_str(&run.stdout).unwrap();
    assert_eq!(pipes[0]["name"], "orders-from-kafka");
}
