//! Runs the binary against a fake, and checks that no output holds a secret.

use std::path::{Path, PathBuf};
use std::process::{Command, Output};
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use pipe_api_fake::{
    DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake, FakeServer,
};
use serde_json::Value;

/// The binary under test.
pub const BINARY: &str = env!("CARGO_BIN_EXE_pipe-api");

/// What the desired state's references resolve to in these tests: never to be shown.
pub const KAFKA_USERNAME: &str = "kafka-user-resolved-7f3a";
pub const KAFKA_PASSWORD: &str = "kafka-password-resolved-9c41";

/// The variables an export of the demo service names for its Kafka pipe's credentials.
pub const USERNAME_VARIABLE: &str = "PIPE_ORDERS_FROM_KAFKA_KAFKA_USERNAME";
pub const PASSWORD_VARIABLE: &str = "PIPE_ORDERS_FROM_KAFKA_KAFKA_PASSWORD";

/// What no output may hold.
const SECRETS: [&str; 4] = [DEMO_KEY_SECRET, DEMO_ALERTS_TOKEN, KAFKA_USERNAME, KAFKA_PASSWORD];

/// The demo fake served on 127.0.0.1, its clock moving 10 s a request (as `pipe-api fake
/// serve`'s), and a folder of the test's own for files.
pub struct Setup {
    pub server: FakeServer,
    pub dir: PathBuf,
}

impl Setup {
    /// The demo fake, served; `name` names the test's folder.
    pub fn new(name: &str) -> Setup {
        let fake = Fake::demo();
        fake.advance_per_request(Duration::from_secs(10));
        Setup::with(fake, name)
    }

    /// `fake`, served.
    pub fn with(fake: Fake, name: &str) -> Setup {
        static RUN: AtomicUsize = AtomicUsize::new(0);
        let dir = Path::new(env!("CARGO_TARGET_TMPDIR")).join(format!(
            "pipe-api-cli-{}-{}-{name}",
            std::process::id(),
            RUN.fetch_add(1, Ordering::Relaxed)
        ));
        std::fs::create_dir_all(&dir).expect("the test's folder");
        Setup { server: fake.serve().expect("the fake serves"), dir }
    }

    pub fn fake(&self) -> &Fake {
        self.server.fake()
    }

    /// A file of the test's folder.
    pub fn path(&self, name: &str) -> PathBuf {
        self.dir.join(name)
    }

    /// The command `pipe-api args`, with the fake's credentials and ids, the references'
    /// values, and no other variable of the test's environment; run in the test's folder.
    pub fn command(&self, args: &[&str]) -> Command {
        let mut command = Command::new(BINARY);
        let url = self.server.base_url();
        command
            .args(args)
            .current_dir(&self.dir)
            .env_clear()
            .env("PIPE_API_URL", &url)
            .env("PIPE_API_KEY_ID", DEMO_KEY_ID)
            .env("PIPE_API_KEY_SECRET", DEMO_KEY_SECRET)
            .env("PIPE_API_ORG_ID", DEMO_ORGANIZATION_ID.to_string())
            .env("PIPE_API_SERVICE_ID", DEMO_SERVICE_ID.to_string())
            .env("PIPE_ALERTS_URL", &url)
            .env("PIPE_ALERTS_TOKEN", DEMO_ALERTS_TOKEN)
            .env(USERNAME_VARIABLE, KAFKA_USERNAME)
            .env(PASSWORD_VARIABLE, KAFKA_PASSWORD);
        command
    }

    /// Runs `pipe-api args` to its end; no output holds a secret.
    pub fn run(&self, args: &[&str]) -> Run {
        Run::of(self.command(args).output().expect("the binary runs"))
    }

    /// The demo service's pipes, as the fake keeps them.
    pub fn pipes(&self) -> Vec<Value> {
        self.fake().pipes_json(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID)
    }

    /// The pipe named `name`, if the fake has it.
    pub fn pipe(&self, name: &str) -> Option<Value> {
        self.pipes().into_iter().find(|pipe| pipe["name"] == name)
    }
}

/// What a run of the binary gave.
#[derive(Debug)]
pub struct Run {
    pub code: Option<i32>,
    pub stdout: String,
    pub stderr: String,
}

impl Run {
    /// The outputs of `output`, checked for secrets.
    pub fn of(output: Output) -> Run {
        let run = Run {
            code: output.status.code(),
            stdout: String::from_utf8(output.stdout).expect("standard output is UTF-8"),
            stderr: String::from_utf8(output.stderr).expect("standard error is UTF-8"),
        };
        assert_no_secret(&run.stdout);
        assert_no_secret(&run.stderr);
        run
    }

    /// Asserts the exit code, showing both outputs when it is not.
    #[track_caller]
    pub fn exits(&self, code: i32) -> &Run {
        assert_eq!(self.code, Some(code), "exit code\nstdout:\n{}\nstderr:\n{}", self.stdout, self.stderr);
        self
    }
}

/// `text` holds none of [`SECRETS`].
#[track_caller]
pub fn assert_no_secret(text: &str) {
    for secret in SECRETS {
        assert!(!text.contains(secret), "an output holds a secret:\n{text}");
    }
}
