//! What an apply shows while it runs, and Ctrl-C.
//!
//! The library's apply has no per-step callback: [`ServiceScope::apply_with`] runs the whole
//! plan and returns. What it does offer, and what this builds on:
//! - the client's attempt observer ([`ClientBuilder::on_attempt`]), called as each request's
//!   outcome is known, with its operation's name: a step's request that went through is the
//!   next step of the plan whose operation it is (steps run in order, one request each);
//! - the client's transport ([`ClientBuilder::transport`]), wrapped ([`Watched`]): it sees each
//!   answer, so a wait's polls show the resource's state, and it refuses to send a request that
//!   would change anything once Ctrl-C was pressed. The apply then stops as at any refused
//!   request, before that step, and its error says which steps were done and which were not
//!   started.
//!
//! The step the apply is in when Ctrl-C comes finishes (its wait included: its polls are
//! reads), unless Ctrl-C comes again, which quits at once.
//!
//! [`ServiceScope::apply_with`]: pipe_api_ureq::ServiceScope::apply_with
//! [`ClientBuilder::on_attempt`]: pipe_api_ureq::ClientBuilder::on_attempt
//! [`ClientBuilder::transport`]: pipe_api_ureq::ClientBuilder::transport

use std::io::IsTerminal as _;
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex, MutexGuard};
use std::time::{Duration, Instant};

use indicatif::{ProgressBar, ProgressStyle};
use pipe_api_ureq::plan::{Applied, ApplyError, Effect, Plan, StepOutcome};
use pipe_api_ureq::proto::attempts::AttemptOutcome;
use pipe_api_ureq::proto::http::{Method, Request, Response};
use pipe_api_ureq::proto::{Transport, TransportError, TransportErrorKind};
use pipe_api_ureq::{AttemptRecord, UreqTransport};
use serde_json::Value;

/// The largest answer read for a resource's state while waiting.
const STATE_READ_LIMIT: usize = 1 << 20;

/// What is shown while requests run: nothing (listings, export, plan), or an apply's steps.
pub(crate) struct Progress {
    interrupted: AtomicBool,
    state: Mutex<State>,
}

/// An apply's progress.
#[derive(Default)]
struct State {
    /// Whether anything is shown.
    active: bool,
    /// Whether standard error is a terminal: a spinner for waits, else a line per change.
    terminal: bool,
    /// The plan's steps, in order.
    steps: Vec<Step>,
    /// The next step whose request has not been seen to go through.
    next: usize,
    /// Each wait's deadline, shown with it.
    wait_deadline: Duration,
    /// The wait under way.
    waiting: Option<Waiting>,
    /// The state the last answer of a wait's poll named.
    seen: Option<String>,
}

/// A plan's step, as shown.
struct Step {
    operation: &'static str,
    /// `update_pipe_scaling pipe "orders"`.
    summary: String,
    /// `pipe "orders"`.
    resource: String,
    /// `wait until it is Ready`.
    then: Option<String>,
    /// What its request did once it went through: `created`, `deleted`, `changed`.
    done: &'static str,
}

/// A step's wait under way.
struct Waiting {
    step: usize,
    started: Instant,
    /// The last state seen, to show each change once.
    last: Option<String>,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// Shows nothing.
    pub(crate) fn quiet() -> Self {
        Progress { interrupted: AtomicBool::new(false), state: Mutex::new(State::default()) }
    }

    /// Shows `plan`'s steps as they go through, and each wait (`wait_deadline` at most).
    pub(crate) fn start(&self, plan: &Plan, wait_deadline: Duration) {
        let mut state = self.lock();
        state.active = true;
        state.terminal = std::io::stderr().is_terminal();
        state.wait_deadline = wait_deadline;
        state.steps = plan
            .steps()
            .iter()
            .map(|step| Step {
                operation: step.request().operation().name,
                summary: step.summary(),
                resource: step.resource().to_string(),
                then: step.then().map(|then| then.to_string()),
                done: match step.request().method() {
                    _ if step.creates() => "created",
                    &Method::DELETE => "deleted",
                    _ => "changed",
                },
            })
            .collect();
    }

    /// Stops sending what changes anything, at the first Ctrl-C; quits at the second.
    pub(crate) fn interrupt(&self) {
        if self.interrupted.swap(true, Ordering::SeqCst) {
            eprintln!("\ninterrupted again: quitting at once; the step under way may be half done");
            std::process::exit(130);
        }
        let state = self.lock();
        let line = "Ctrl-C: stopping after the step under way (Ctrl-C again quits at once)";
        match state.waiting.as_ref().and_then(|waiting| waiting.bar.as_ref()) {
            Some(bar) => bar.println(line),
            None => eprintln!("{line}"),
        }
    }

    /// Whether Ctrl-C was pressed.
    pub(crate) fn interrupted(&self) -> bool {
        self.interrupted.load(Ordering::SeqCst)
    }

    /// An attempt's outcome is known (the client's observer).
    pub(crate) fn attempt(&self, record: &AttemptRecord) {
        let mut state = self.lock();
        if !state.active {
            return;
        }
        let went_through = matches!(record.outcome, AttemptOutcome::Status(status) if status.is_success());
        let read = record.method == Method::GET;
        if !read {
            // The apply has moved on: the wait before this request is over.
            state.end_wait("done");
        }
        if !went_through {
            let refused = matches!(record.outcome, AttemptOutcome::Transport(TransportErrorKind::Refused));
            if !(refused && self.interrupted()) {
                // A retry, an idle service, a failure: the record names no secret (its path is
                // the operation's template).
                state.println(&format!("      {record}"));
            }
            return;
        }
        if read {
            state.polled();
            return;
        }
        let next = state.next;
        match state.steps.get(next) {
            Some(step) if step.operation == record.operation => {
                let line = format!("[{}/{}] {}: {}", next + 1, state.steps.len(), step.summary, step.done);
                let then = step.then.clone();
                state.next += 1;
                match then {
                    Some(then) => {
                        state.println(&format!("{line}; then {then}"));
                        state.begin_wait(next);
                    }
                    None => state.println(&line),
                }
            }
            // Not a step of the plan: waking an idle service.
            _ => state.println(&format!("      {} {} -> {}", record.operation, record.method, record.outcome)),
        }
    }

    /// A `GET` was answered with `response`: while a step waits, the state it names.
    fn answered(&self, response: &Response<Vec<u8>>) {
        let mut state = self.lock();
        if state.waiting.is_none() || !response.status().is_success() || response.body().len() > STATE_READ_LIMIT {
            return;
        }
        let Ok(answer) = serde_json::from_slice::<Value>(response.body()) else { return };
        let result = &answer["result"];
        let named = result["state"].as_str().or_else(|| result["status"].as_str());
        state.seen = named.map(|named| named.chars().take(40).collect());
    }

    /// The apply ended with `result`: its wait ends, and the steps not shown yet are.
    pub(crate) fn finish(&self, result: &Result<Applied, ApplyError>) {
        let mut state = self.lock();
        if !state.active {
            return;
        }
        let total = state.steps.len();
        match result {
            Ok(applied) => {
                state.end_wait("done");
                // Steps the observer could not tell apart (a create adopted after a lost
                // answer is a listing, not a request that went through).
                for step in applied.steps().iter().skip(state.next) {
                    state.println(&format!("[{}/{total}] {step}: {}", step.index() + 1, effect(step)));
                }
            }
            Err(error) => {
                let failed = error.failed().map(|step| (step.index(), step.effect()));
                let how = match failed {
                    Some((_, Some(_))) if self.interrupted() => "cut by Ctrl-C",
                    _ => "failed",
                };
                state.end_wait(how);
                for step in error.done().iter().skip(state.next) {
                    state.println(&format!("[{}/{total}] {step}: {}", step.index() + 1, effect(step)));
                }
            }
        }
        state.active = false;
    }

    fn lock(&self) -> MutexGuard<'_, State> {
        self.state.lock().unwrap_or_else(|poisoned| poisoned.into_inner())
    }
}

impl State {
    /// Prints a line of progress (above the spinner, if there is one).
    fn println(&self, line: &str) {
        match self.waiting.as_ref().and_then(|waiting| waiting.bar.as_ref()) {
            Some(bar) => bar.println(line),
            None => println!("{line}"),
        }
    }

    /// Step `step`'s request went through: its wait starts.
    fn begin_wait(&mut self, step: usize) {
        let bar = self.terminal.then(|| {
            let bar = ProgressBar::new_spinner();
            let template = "{spinner} {msg} ({elapsed}, at most {prefix})";
            bar.set_style(ProgressStyle::with_template(template).expect("the template is valid"));
            bar.set_prefix(minutes(self.wait_deadline));
            bar.set_message(format!("{}: waiting", self.steps[step].resource));
            bar.enable_steady_tick(Duration::from_millis(120));
            bar
        });
        self.seen = None;
        self.waiting = Some(Waiting { step, started: Instant::now(), last: None, bar });
    }

    /// A poll of the wait under way was answered.
    fn polled(&mut self) {
        let seen = self.seen.take();
        let Some(waiting) = self.waiting.as_mut() else { return };
        let Some(seen) = seen else { return };
        let step = &self.steps[waiting.step];
        match &waiting.bar {
            Some(bar) => bar.set_message(format!("{} is {seen}", step.resource)),
            None if waiting.last.as_deref() != Some(seen.as_str()) => {
                println!("      {} is {seen} ({} s)", step.resource, waiting.started.elapsed().as_secs());
            }
            None => {}
        }
        waiting.last = Some(seen);
    }

    /// The wait under way ended (`how`).
    fn end_wait(&mut self, how: &str) {
        let Some(waiting) = self.waiting.take() else { return };
        let step = &self.steps[waiting.step];
        let last = waiting.last.as_deref().map(|last| format!(", {last}")).unwrap_or_default();
        let line = format!("      {}: wait {how} after {} s{last}", step.resource, waiting.started.elapsed().as_secs());
        match waiting.bar {
            Some(bar) => {
                bar.finish_and_clear();
                println!("{line}");
            }
            None => println!("{line}"),
        }
    }
}

/// What a step's request did, in words.
fn effect(step: &StepOutcome) -> &'static str {
    match step.effect() {
        Some(Effect::Created) => "created",
        Some(Effect::Adopted) => "adopted (created by an attempt whose answer was lost)",
        Some(Effect::Deleted) => "deleted",
        Some(Effect::Changed) => "changed",
        Some(_) => "done",
        None => "not started",
    }
}

/// `10 min`, `90 s`.
fn minutes(duration: Duration) -> String {
    match duration.as_secs() {
        seconds if seconds >= 120 && seconds % 60 == 0 => format!("{} min", seconds / 60),
        seconds => format!("{seconds} s"),
    }
}

/// The client's transport: ureq's, watched by [`Progress`].
pub(crate) struct Watched {
    inner: UreqTransport,
    progress: Arc<Progress>,
}

impl Watched {
    /// `inner`, watched by `progress`.
    pub(crate) fn new(inner: UreqTransport, progress: Arc<Progress>) -> Self {
        Watched { inner, progress }
    }

    /// Sends `request` with `send`, unless it changes something and Ctrl-C was pressed.
    fn exchange(
        &self,
        request: Request<Vec<u8>>,
        send: impl FnOnce(Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError>,
    ) -> Result<Response<Vec<u8>>, TransportError> {
        let read = request.method() == Method::GET;
        if !read && self.progress.interrupted() {
            // Never retried, and known not to have reached the server: the apply stops before
            // this step and says so.
            return Err(TransportError::new(TransportErrorKind::Refused, "interrupted by Ctrl-C"));
        }
        let response = send(request)?;
        if read {
            self.progress.answered(&response);
        }
        Ok(response)
    }
}

impl Transport for Watched {
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        self.exchange(request, |request| Transport::send(&self.inner, request))
    }

    fn send_within(&self, request: Request<Vec<u8>>, timeout: Duration) -> Result<Response<Vec<u8>>, TransportError> {
        self.exchange(request, |request| Transport::send_within(&self.inner, request, timeout))
    }
}
