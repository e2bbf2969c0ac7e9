//! Ctrl-C during an apply: the step under way finishes (its wait included), nothing more is
//! sent, and the error says what was done and what was not started. No timing: the fake's
//! clock stands still until the test has seen the interrupt taken.

use std::io::{BufRead as _, BufReader};
use std::process::{Command, Stdio};
use std::sync::mpsc;
use std::time::Duration;

use pipe_api_fake::Fake;

use crate::common::{Run, Setup, assert_no_secret};

/// Sends lines read from `from` down a channel.
fn lines(from: impl std::io::Read + Send + 'static) -> (mpsc::Receiver<String>, std::thread::JoinHandle<String>) {
    let (send, receive) = mpsc::channel();
    let reader = std::thread::spawn(move || {
        let mut all = String::new();
        for line in BufReader::new(from).lines().map_while(Result::ok) {
            all.push_str(&line);
            all.push('\n');
            let _ = send.send(line);
        }
        all
    });
    (receive, reader)
}

/// Waits for a line holding `text`.
#[track_caller]
fn await_line(lines: &mpsc::Receiver<String>, text: &str) {
    loop {
        // Generous: only a broken binary takes this long.
        match lines.recv_timeout(Duration::from_secs(120)) {
            Ok(line) if line.contains(text) => return,
            Ok(_) => {}
            Err(error) => panic!("no line holding {text:?}: {error}"),
        }
    }
}

#[cfg(unix)]
#[test]
fn ctrl_c_stops_between_steps_and_says_what_was_done() {
    // The clock moves only when the test says: the stop's wait polls `Stopping` until then.
    let setup = Setup::with(Fake::demo(), "ctrl-c");
    let run = setup.run(&["export", "-o", "desired.json"]);
    run.exits(0);
    let file = std::fs::read_to_string(setup.path("desired.json")).unwrap();
    // Step 1 stops the Kafka pipe and waits; step 2 would create a pipe.
    let mut desired: serde_json::Value = serde_json::from_str(&file).unwrap();
    // The export declares the service, with its pipes under it.
    let pipes = &mut desired["services"][0]["pipes"];
    let mut late = pipes[0].clone();
    late["name"] = "late".into();
    pipes[0]["state"] = "stopped".into();
    pipes.as_array_mut().unwrap().push(late);
    std::fs::write(setup.path("two.json"), desired.to_string()).unwrap();

    let mut child = setup
        .command(&["apply", "-f", "two.json", "--auto-approve"])
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap();
    let (stdout, stdout_reader) = lines(child.stdout.take().unwrap());
    let (stderr, stderr_reader) = lines(child.stderr.take().unwrap());
    // In step 1's wait: Ctrl-C (SIGINT, as a terminal sends it).
    await_line(&stdout, r#"pipe "orders-from-kafka" of service "demo-warehouse" is Stopping"#);
    let status = Command::new("kill").args(["-INT", &child.id().to_string()]).status().unwrap();
    assert!(status.success());
    await_line(&stderr, "Ctrl-C: stopping after the step under way");
    // Now the pipe may stop: the wait ends, and step 2 is not sent.
    setup.fake().advance(Duration::from_secs(3600));
    let status = child.wait().unwrap();
    let run = Run { code: status.code(), stdout: stdout_reader.join().unwrap(), stderr: stderr_reader.join().unwrap() };
    assert_no_secret(&run.stdout);
    assert_no_secret(&run.stderr);
    run.exits(1);
    let kafka = r#"pipe "orders-from-kafka" of service "demo-warehouse""#;
    assert!(run.stdout.contains(&format!("{kafka}: wait done after")), "{}", run.stdout);
    let said = format!(
        r#"error: interrupted by Ctrl-C: 1 of 2 steps done (1. change_pipe_state {kafka}); not started: 2. create_pipe pipe "late" of service "demo-warehouse"; plan again to go on"#
    );
    assert!(run.stderr.lines().any(|line| line == said), "{}", run.stderr);
    assert_eq!(setup.pipe("orders-from-kafka").unwrap()["state"], "Stopped");
    assert!(setup.pipe("late").is_none(), "step 2 was sent");
}
