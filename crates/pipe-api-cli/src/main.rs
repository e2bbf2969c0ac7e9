//! `pipe-api`: the pipe management and alerting interfaces from the command line. List what an
//! organization has, export a service's pipes as a desired-state file, plan the changes a file
//! asks for, and apply them, all against the built-in fake with no account:
//!
//! ```sh
//! pipe-api fake serve --port 8181 &        # prints the variables to export
//! export PIPE_API_URL=http://127.0.0.1:8181 PIPE_API_KEY_ID=... # (as printed)
//! pipe-api pipes                           # a table; --json for scripts
//! pipe-api export -o desired.json          # and the secret variables to set
//! pipe-api plan -f desired.json -o plan.json --detailed-exitcode   # 0: no changes, 2: changes
//! pipe-api apply plan.json -f desired.json # only if the service has not changed since
//! ```
//!
//! Credentials and ids come from the environment the library's quickstart reads
//! (`PIPE_API_URL`, `PIPE_API_KEY_ID`, `PIPE_API_KEY_SECRET`, `PIPE_API_ORG_ID`,
//! `PIPE_API_SERVICE_ID`, and `PIPE_ALERTS_URL` with `PIPE_ALERTS_TOKEN` for alerts), or from
//! flags for everything but the two secrets, which a command line would show to every user of
//! the machine. The desired-state file's secrets are references, `{"env": "NAME"}`, read from
//! the environment. No output shows a credential or a secret the file's references resolved
//! to.
//!
//! Exit codes: 0 success, 1 an error (one line on standard error that says why), 2 a plan
//! with changes when `--detailed-exitcode` asks for it (as Terraform's).

#![forbid(unsafe_code)]

mod code;
mod connect;
mod fake;
mod list;
mod progress;

use std::process::ExitCode;

use clap::{Args, Parser, Subcommand};

use connect::Connection;

/// The command line.
#[derive(Debug, Parser)]
#[command(name = "pipe-api", version, about = "The pipe management and alerting interfaces from the command line")]
#[command(after_help = "Environment: PIPE_API_URL, PIPE_API_KEY_ID, PIPE_API_KEY_SECRET, PIPE_API_ORG_ID, \
                        PIPE_API_SERVICE_ID, PIPE_ALERTS_URL, PIPE_ALERTS_TOKEN.\n\
                        Exit codes: 0 success, 1 error, 2 changes (plan --detailed-exitcode).")]
struct Cli {
    #[command(flatten)]
    connection: Connection,
    #[command(subcommand)]
    command: Command,
}

/// What to do.
#[derive(Debug, Subcommand)]
enum Command {
    /// Lists the organizations the key sees.
    Orgs(Listing),
    /// Lists the organization's services.
    Services(Listing),
    /// Lists the service's pipes.
    Pipes(Listing),
    /// Writes what the service has as a desired-state file, its secrets as references to set.
    Export(code::ExportArgs),
    /// Plans the requests that make the service what a desired-state file says.
    Plan(code::PlanArgs),
    /// Applies a saved plan (with the file it was made from), or a file's plan at once.
    Apply(code::ApplyArgs),
    /// The built-in fake of both interfaces.
    #[command(subcommand)]
    Fake(fake::FakeCommand),
}

/// How a listing is shown.
#[derive(Debug, Args)]
struct Listing {
    /// The models' whole JSON (a list), for scripts, instead of a table.
    #[arg(long)]
    json: bool,
}

/// How a command ended: its exit code.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Outcome {
    /// Done (exit 0).
    Done,
    /// A plan with changes, under `--detailed-exitcode` (exit 2).
    Changes,
}

/// Why a command failed: one line, shown after `error: `.
#[derive(Debug)]
struct Failure(String);

impl<E: std::fmt::Display> From<E> for Failure {
    fn from(error: E) -> Self {
        Failure(error.to_string())
    }
}

/// A command's result.
type Result<T = Outcome> = std::result::Result<T, Failure>;

/// A failure with `why` as its line.
fn fail<T>(why: impl Into<String>) -> Result<T> {
    Err(Failure(why.into()))
}

fn main() -> ExitCode {
    let cli = match Cli::try_parse() {
        Ok(cli) => cli,
        Err(error) => {
            // Help and version go to standard output with 0; a usage error is an error (1, not
            // clap's 2, which means "changes" here).
            let _ = error.print();
            return if error.use_stderr() { ExitCode::FAILURE } else { ExitCode::SUCCESS };
        }
    };
    match run(cli) {
        Ok(Outcome::Done) => ExitCode::SUCCESS,
        Ok(Outcome::Changes) => ExitCode::from(2),
        Err(Failure(why)) => {
            eprintln!("error: {}", one_line(&why));
            ExitCode::FAILURE
        }
    }
}

/// Runs the command.
fn run(cli: Cli) -> Result {
    let connection = cli.connection;
    match cli.command {
        Command::Orgs(listing) => list::organizations(&connection, listing.json),
        Command::Services(listing) => list::services(&connection, listing.json),
        Command::Pipes(listing) => list::pipes(&connection, listing.json),
        Command::Export(args) => code::export(&connection, &args),
        Command::Plan(args) => code::plan(&connection, &args),
        Command::Apply(args) => code::apply(&connection, &args),
        Command::Fake(command) => fake::run(command),
    }
}

/// `text` on one line: an error's lines joined, so that a log keeps it whole.
fn one_line(text: &str) -> String {
    text.lines().map(str::trim).filter(|line| !line.is_empty()).collect::<Vec<_>>().join(" ")
}
