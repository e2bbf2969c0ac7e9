//! Pipes as code: `export`, `plan`, `apply`, on the library's service handle.

use std::io::{BufRead as _, IsTerminal as _, Write as _};
use std::path::{Path, PathBuf};
use std::sync::Arc;

use clap::Args;
use pipe_api_ureq::plan::{
    Applied, ApplyError, ApplyOptions, DesiredState, ExportError, ExportOptions, Plan, PlanError, PlanOptions,
    ReadServices, SavedPlan, SavedPlanError, StepOutcome,
};
use pipe_api_ureq::{Client, OrganizationScope, ServiceScope};

use crate::connect::Connection;
use crate::progress::Progress;
use crate::{Outcome, Result, fail};

/// `pipe-api export`.
#[derive(Debug, Args)]
pub(crate) struct ExportArgs {
    /// Writes the file there instead of to standard output
    #[arg(short, long, value_name = "FILE")]
    output: Option<PathBuf>,
    /// Exports every alert the token sees too (alerts name no service: they are the whole team's)
    #[arg(long)]
    alerts: bool,
    /// Refuses the export when a resource does not read back as a desired one, instead of leaving it
    /// out with a warning
    #[arg(long)]
    strict: bool,
}

/// What a plan may do beyond creating and changing what the file names.
#[derive(Debug, Args)]
pub(crate) struct PlanFlags {
    /// Deletes the pipes and reverse private endpoints of the service that the file does not name
    /// (with services in the file: also every service of the organization it does not name,
    /// stopped first)
    #[arg(long)]
    prune: bool,
    /// Deletes the alerts the file does not name (every other alert of the team)
    #[arg(long)]
    prune_alerts: bool,
    /// Replaces (deletes, then creates) a resource whose differing field no update can change
    #[arg(long)]
    allow_replacement: bool,
}

impl PlanFlags {
    fn options(&self) -> PlanOptions {
        PlanOptions::default()
            .prune(self.prune)
            .prune_alerts(self.prune_alerts)
            .allow_replacement(self.allow_replacement)
    }

    fn any(&self) -> bool {
        self.prune || self.prune_alerts || self.allow_replacement
    }
}

/// `pipe-api plan`.
#[derive(Debug, Args)]
pub(crate) struct PlanArgs {
    /// The desired-state file (its secrets are references, {"env": "NAME"}, read from the environment)
    #[arg(short, long, value_name = "FILE")]
    file: PathBuf,
    /// Saves the plan there, to apply later with `pipe-api apply PLAN -f FILE`
    #[arg(short, long, value_name = "PLAN")]
    output: Option<PathBuf>,
    /// Exits 0 when there are no changes, 2 when there are (1 is an error)
    #[arg(long)]
    detailed_exitcode: bool,
    #[command(flatten)]
    flags: PlanFlags,
}

/// `pipe-api apply`.
#[derive(Debug, Args)]
pub(crate) struct ApplyArgs {
    /// A plan saved by `pipe-api plan -o PLAN`: applied only if the service has not changed since
    /// (needs -f, the file it was made from)
    #[arg(value_name = "PLAN")]
    plan: Option<PathBuf>,
    /// The desired-state file: the one a saved plan was made from, or, with no plan, the file to
    /// plan and apply at once
    #[arg(short, long, value_name = "FILE")]
    file: Option<PathBuf>,
    /// Applies a file's plan without asking (needed when standard input is not a terminal)
    #[arg(long)]
    auto_approve: bool,
    #[command(flatten)]
    flags: PlanFlags,
}

/// Where a desired state is planned and applied: the organization, for one that declares its
/// services (an environment: only the organization's id is needed); else the service.
enum Scope<'c> {
    Organization(OrganizationScope<'c>),
    Service(ServiceScope<'c>),
}

impl<'c> Scope<'c> {
    /// The scope of `desired` on `client`, its ids from the connection.
    fn of(connection: &Connection, client: &'c Client, desired: &DesiredState) -> Result<Scope<'c>> {
        let organization = client.organization(connection.organization()?);
        Ok(if desired.declares_services() {
            Scope::Organization(organization)
        } else {
            Scope::Service(organization.service(connection.service()?))
        })
    }

    fn plan(&self, desired: &DesiredState, options: &PlanOptions) -> std::result::Result<Plan, PlanError> {
        match self {
            Scope::Organization(organization) => organization.plan(desired, options),
            Scope::Service(service) => service.plan(desired, options),
        }
    }

    fn apply_with(&self, plan: &Plan, options: ApplyOptions) -> std::result::Result<Applied, ApplyError> {
        match self {
            Scope::Organization(organization) => organization.apply_with(plan, options),
            Scope::Service(service) => service.apply_with(plan, options),
        }
    }
}

/// `pipe-api export`: the service, declared with what it has, in a file planned for its
/// organization.
pub(crate) fn export(connection: &Connection, args: &ExportArgs) -> Result {
    let client = connection.client(&Arc::new(Progress::quiet()))?;
    let organization = client.organization(connection.organization()?);
    let options = ExportOptions::default().alerts(args.alerts).leave_out_unreadable(!args.strict);
    let exported = match organization.export_service(connection.service()?, &options) {
        Ok(exported) => exported,
        // The library's text names its Rust option; say the flag.
        Err(ExportError::UnreadableResource { resource, why }) => {
            return fail(format!(
                "export: {resource} does not read as a {why} (without --strict it is left out, with a warning)"
            ));
        }
        Err(error) => return Err(error.into()),
    };
    let document = exported.to_string();
    match &args.output {
        Some(path) => write(path, &document)?,
        None => print!("{document}"),
    }
    for note in exported.notes() {
        eprintln!("note: {note}");
    }
    if !exported.notes().is_empty() {
        eprintln!("(a plan of the file leaves what was left out alone; with --prune it deletes it)");
    }

    if !exported.secrets().is_empty() {
        eprintln!("set these variables before planning the file (the service never shows their values):");
        for secret in exported.secrets() {
            eprintln!("  {}    # {} at {}", secret.name, secret.resource, secret.path);
        }
    }
    if let Some(path) = &args.output {
        eprintln!("wrote {}: plan it with `pipe-api plan -f {}`", path.display(), path.display());
    }
    Ok(Outcome::Done)
}

/// `pipe-api plan`.
pub(crate) fn plan(connection: &Connection, args: &PlanArgs) -> Result {
    let desired = read_desired(&args.file)?;
    let client = connection.client(&Arc::new(Progress::quiet()))?;
    let plan = Scope::of(connection, &client, &desired)?.plan(&desired, &args.flags.options())?;
    print!("{plan}");
    if let Some(path) = &args.output {
        write(path, &plan.saved().to_string())?;
        eprintln!(
            "saved the plan to {}: apply it with `pipe-api apply {} -f {}`",
            path.display(),
            path.display(),
            args.file.display()
        );
    }
    Ok(if args.detailed_exitcode && !plan.is_empty() { Outcome::Changes } else { Outcome::Done })
}

/// `pipe-api apply`.
pub(crate) fn apply(connection: &Connection, args: &ApplyArgs) -> Result {
    let progress = Arc::new(Progress::quiet());
    match (&args.plan, &args.file) {
        (Some(saved), Some(file)) => {
            if args.flags.any() {
                return fail("a saved plan is applied with the options it was planned with: plan again to change them");
            }
            apply_saved(connection, &progress, saved, file)
        }
        (Some(_), None) => fail(
            "a saved plan is applied with the desired-state file it was made from (the plan holds no secret: the \
             file's references are read again): pipe-api apply PLAN -f FILE",
        ),
        (None, Some(file)) => apply_file(connection, &progress, file, args),
        (None, None) => fail("nothing to apply: pipe-api apply PLAN -f FILE, or pipe-api apply -f FILE --auto-approve"),
    }
}

/// Applies the plan saved at `path`, made from the file `file`, as the library's `apply_saved`
/// does (here step by step, so that the plan confirmed is shown while it applies).
fn apply_saved(connection: &Connection, progress: &Arc<Progress>, path: &Path, file: &Path) -> Result {
    let saved = SavedPlan::from_json(&read(path)?).map_err(|error| format!("{}: {error}", path.display()))?;
    let desired = read_desired(file)?;
    // The ids set, else the plan's own; a plan for another service is refused. A plan of an
    // organization's services is for no service.
    let organization = connection.organization_if_set()?.unwrap_or(saved.organization_id());
    let service_id = match saved.service_id() {
        Some(planned) => Some(connection.service_if_set()?.unwrap_or(planned)),
        None => None,
    };
    let client = connection.client(progress)?;
    saved.is_for(organization, service_id)?;
    let alerts = saved.needs_alerts() || !desired.alerts.is_empty();
    let (scope, current) = match service_id {
        Some(service_id) => {
            let service = client.service(organization, service_id);
            let current = service.current_state(alerts);
            (Scope::Service(service), current)
        }
        None => {
            let organization = client.organization(organization);
            let names = desired.services.iter().map(|service| service.name().to_owned()).collect();
            let current = organization.current_state(ReadServices::Named(names), alerts);
            (Scope::Organization(organization), current)
        }
    };
    let current = current.map_err(SavedPlanError::Read)?;
    let plan = saved.confirm(organization, service_id, &desired, &current)?;
    if plan.is_empty() {
        println!("no changes");
        return Ok(Outcome::Done);
    }
    run_apply(&scope, progress, &plan)
}

/// Plans `file` and applies the plan, once approved.
fn apply_file(connection: &Connection, progress: &Arc<Progress>, file: &Path, args: &ApplyArgs) -> Result {
    let desired = read_desired(file)?;
    let client = connection.client(progress)?;
    let scope = Scope::of(connection, &client, &desired)?;
    let plan = scope.plan(&desired, &args.flags.options())?;
    print!("{plan}");
    if plan.is_empty() {
        return Ok(Outcome::Done);
    }
    if !args.auto_approve && !approved(plan.steps().len())? {
        return fail("not applied");
    }
    run_apply(&scope, progress, &plan)
}

/// Asks on the terminal whether to apply `steps` steps.
fn approved(steps: usize) -> Result<bool> {
    if !std::io::stdin().is_terminal() {
        return fail(
            "refusing to apply without review: pass --auto-approve, or save the plan with `pipe-api plan -o PLAN` \
             and apply that",
        );
    }
    print!("\napply these {steps} steps? only 'yes' applies: ");
    std::io::stdout().flush()?;
    let mut answer = String::new();
    std::io::stdin().lock().read_line(&mut answer)?;
    Ok(answer.trim() == "yes")
}

/// Applies `plan` in `scope`, each step shown as it goes through; Ctrl-C stops it between
/// steps.
fn run_apply(scope: &Scope<'_>, progress: &Arc<Progress>, plan: &Plan) -> Result {
    let options = ApplyOptions::default();
    println!("\napplying {} step{}:", plan.steps().len(), if plan.steps().len() == 1 { "" } else { "s" });
    progress.start(plan, options.wait.deadline);
    let handler = Arc::clone(progress);
    // Only one handler per process, set here: a command that does not apply is stopped by
    // Ctrl-C as usual.
    ctrlc::set_handler(move || handler.interrupt())?;
    let result = scope.apply_with(plan, options);
    progress.finish(&result);
    match result {
        Ok(applied) => {
            println!("{applied}");
            Ok(Outcome::Done)
        }
        Err(error) if progress.interrupted() => fail(interrupted(&error, plan.steps().len())),
        Err(error) => Err(error.into()),
    }
}

/// What an apply stopped by Ctrl-C did, and did not.
fn interrupted(error: &ApplyError, total: usize) -> String {
    let list = |steps: &mut dyn Iterator<Item = &StepOutcome>| {
        let names: Vec<String> = steps.map(|step| format!("{}. {step}", step.index() + 1)).collect();
        if names.is_empty() { "none".to_owned() } else { names.join(", ") }
    };
    let mut text = format!(
        "interrupted by Ctrl-C: {} of {total} steps done ({})",
        error.done().len(),
        list(&mut error.done().iter())
    );
    let failed = error.failed();
    if let Some(step) = failed.filter(|step| step.effect().is_some()) {
        // Its request went through; what came after it did not finish.
        text += &format!("; step {} ({step}) was sent, and then stopped: {}", step.index() + 1, error.cause());
    }
    let not_started = failed.filter(|step| step.effect().is_none()).into_iter().chain(error.not_started());
    text += &format!("; not started: {}; plan again to go on", list(&mut not_started.into_iter()));
    text
}

/// Reads and checks a desired-state file, its references from the environment.
fn read_desired(path: &Path) -> Result<DesiredState> {
    let text = read(path)?;
    DesiredState::from_json(&text, |name| std::env::var(name).ok())
        .map_err(|error| format!("{}: {error}", path.display()).into())
}

/// The text of the file at `path`.
fn read(path: &Path) -> Result<String> {
    std::fs::read_to_string(path).map_err(|error| format!("{}: cannot read: {error}", path.display()).into())
}

/// Writes `text` to the file at `path`.
fn write(path: &Path, text: &str) -> Result<()> {
    std::fs::write(path, text).map_err(|error| format!("{}: cannot write: {error}", path.display()).into())
}
