//! `pipe-api fake serve`: the library's fake with its demo data, on 127.0.0.1.

use std::io::Write as _;
use std::time::Duration;

use clap::Subcommand;
use pipe_api_fake::{DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake};
use pipe_api_ureq::{ENV_ALERTS_TOKEN, ENV_ALERTS_URL, ENV_API_KEY_ID, ENV_API_KEY_SECRET, ENV_API_URL};

use crate::Result;
use crate::connect::{ENV_ORG_ID, ENV_SERVICE_ID};

/// What to do with the fake.
#[derive(Debug, Subcommand)]
pub(crate) enum FakeCommand {
    /// Serves the fake of both interfaces with its demo data on 127.0.0.1 until stopped (Ctrl-C),
    /// printing the variables to export
    Serve {
        /// The port (0: a free one)
        #[arg(long, default_value_t = 0)]
        port: u16,
    },
}

/// Runs `command`.
pub(crate) fn run(command: FakeCommand) -> Result {
    match command {
        FakeCommand::Serve { port } => serve(port),
    }
}

/// Serves the demo fake on `port` until the process is stopped.
fn serve(port: u16) -> Result {
    let fake = Fake::demo();
    // Its clock moves 10 s with each request, as the quickstart's does, so that what takes the
    // real services minutes (a pipe provisioning, an endpoint becoming ready) ends within a few
    // polls.
    fake.advance_per_request(Duration::from_secs(10));
    let server = fake.serve_on(port).map_err(|error| format!("fake: cannot serve on 127.0.0.1:{port}: {error}"))?;
    let url = server.base_url();
    let mut out = std::io::stdout().lock();
    writeln!(out, "# pipe-api's built-in fake, serving on {url} until stopped (Ctrl-C).")?;
    writeln!(out, "# Its demo credentials open only this fake; paste these lines in another shell:")?;
    for (name, value) in [
        (ENV_API_URL, url.as_str()),
        (ENV_API_KEY_ID, DEMO_KEY_ID),
        (ENV_API_KEY_SECRET, DEMO_KEY_SECRET),
        (ENV_ORG_ID, &DEMO_ORGANIZATION_ID.to_string()),
        (ENV_SERVICE_ID, &DEMO_SERVICE_ID.to_string()),
        (ENV_ALERTS_URL, url.as_str()),
        (ENV_ALERTS_TOKEN, DEMO_ALERTS_TOKEN),
    ] {
        writeln!(out, "export {name}={value}")?;
    }
    out.flush()?;
    drop(out);
    // Serves until the process is stopped; the server is dropped with it.
    loop {
        std::thread::park();
    }
}
