//! Pipes as code on the service handle (feature `plan`): read what a service has, plan, apply
//! ([`pipe_api_plan`], re-exported as [`crate::plan`]).

use pipe_api_plan::{
    Applied, Apply, ApplyError, ApplyOptions, Current, DesiredState, ExportError, ExportOptions, Exported, Plan,
    PlanError, PlanOptions, SavedPlan, SavedPlanError, export, plan,
};
use pipe_api_proto::wait::{IdleRecovery, Wake, WakeError, is_idle_service_error};
use pipe_api_proto::{Alerting, Error, Management};

use crate::{Client, ServiceScope};

impl ServiceScope<'_> {
    /// What the service has: its reverse private endpoints and pipes, and, when `alerts` is
    /// set, every alert (page by page). The alerts are `None` when the listing ended before
    /// reading every one ([`End::read_every_alert`](pipe_api_proto::pages::End::read_every_alert)):
    /// a plan then creates none again that it did not see (and changes and prunes none).
    ///
    /// A service found idle (`424`) is woken as a wait and an apply wake it
    /// ([`Wake`](pipe_api_proto::wait::Wake), within [`IdleRecovery`]'s budget), and read
    /// again, once: a plan or an export of an idle service reads what it has. A service that
    /// cannot be woken (stopped, or out of time) gives the idle answer itself.
    pub fn current_state(&self, alerts: bool) -> Result<Current, Error> {
        let endpoints = match self.list_reverse_private_endpoints() {
            Err(idle) if is_idle_service_error(&idle) => {
                match self.wake() {
                    Ok(()) => {}
                    Err(WakeError::Call(error)) => return Err(error),
                    // Stopped, or no time left: the service stays idle, as its answer says.
                    Err(_) => return Err(idle),
                }
                self.list_reverse_private_endpoints()?
            }
            listed => listed?,
        };
        let pipes = self.list_pipes()?;
        let alerts = if alerts { self.client().every_alert()? } else { None };
        Ok(Current::new(endpoints, pipes, alerts))
    }

    /// Wakes the idle service, under the client's retry policy, within the recovery's budget.
    fn wake(&self) -> Result<(), WakeError> {
        let client = self.client();
        let management = client.api::<Management>("wake").map_err(WakeError::Call)?;
        let recovery = IdleRecovery::new(self.organization_id(), self.service_id());
        let now = client.now();
        let whole = (now, recovery.budget);
        client.drive(Wake::new(recovery, management, client.retry.clone(), whole, client.next_seed(), now))
    }

    /// The plan that makes the service what `desired` says: reads what it has (the alerts too
    /// when `desired` names any, or when pruning alerts), then
    /// [`plan`](pipe_api_plan::plan()).
    pub fn plan(&self, desired: &DesiredState, options: &PlanOptions) -> Result<Plan, PlanError> {
        let alerts = !desired.alerts.is_empty() || options.prune_alerts;
        let current = self.current_state(alerts).map_err(PlanError::Read)?;
        plan(self.organization_id(), self.service_id(), desired, &current, options)
    }

    /// Applies `plan` (made by [`ServiceScope::plan`] on this service) under the default
    /// [`ApplyOptions`]: each step in order, each request with the client's retries and pacing,
    /// an idle service woken, the whole within an hour; see [`Apply`]. A plan made for another
    /// service is refused before anything is sent
    /// ([`ApplyFailure::OtherService`](pipe_api_plan::ApplyFailure::OtherService)).
    pub fn apply(&self, plan: &Plan) -> Result<Applied, ApplyError> {
        self.apply_with(plan, ApplyOptions::default())
    }

    /// As [`ServiceScope::apply`], under `options`: the waits' policy, the requests' retry
    /// policy (the client's unless set), the apply's own deadline, whether to wake an idle
    /// service.
    pub fn apply_with(&self, plan: &Plan, options: ApplyOptions) -> Result<Applied, ApplyError> {
        let client = self.client();
        let management = client.api::<Management>("apply").ok();
        let alerting = client.api::<Alerting>("apply").ok();
        let options = match options.retry {
            Some(_) => options,
            None => options.retry(client.retry.clone()),
        };
        let apply = Apply::new(plan, management, alerting, options, client.next_seed(), client.now());
        client.drive(apply.for_service(self.organization_id(), self.service_id()))
    }
}

/// Export and saved plans: apart from the apply methods above, which they call.
impl ServiceScope<'_> {
    /// What the service has, as a desired-state document that plans to no changes on it once
    /// its secret references are filled: reads what it has (every alert too when
    /// `options` asks for them), then [`export`](pipe_api_plan::export()).
    pub fn export(&self, options: &ExportOptions) -> Result<Exported, ExportError> {
        let current = self.current_state(options.alerts).map_err(ExportError::Read)?;
        export(&current, options)
    }

    /// Applies a plan saved earlier ([`Plan::saved`](pipe_api_plan::Plan::saved)) only if the
    /// service is still as it was when planned: reads what it has now, then
    /// [`SavedPlan::confirm`] with `desired` (the same desired state, read with its lookup
    /// now: the saved plan holds no secret), which refuses a stale plan before anything is
    /// sent; then applies as [`ServiceScope::apply`].
    pub fn apply_saved(&self, saved: &SavedPlan, desired: &DesiredState) -> Result<Applied, SavedPlanError> {
        // Another service's plan is refused before this one is read (or woken).
        saved.is_for(self.organization_id(), self.service_id())?;
        let alerts = saved.needs_alerts() || !desired.alerts.is_empty();
        let current = self.current_state(alerts).map_err(SavedPlanError::Read)?;
        let plan = saved.confirm(self.organization_id(), self.service_id(), desired, &current)?;
        self.apply(&plan).map_err(SavedPlanError::Apply)
    }
}

impl Client {
    /// Every alert, page by page; `None` when the listing ended before reading every one.
    fn every_alert(&self) -> Result<Option<Vec<pipe_api_types::Alert>>, Error> {
        let mut alerts = Vec::new();
        let mut pages = self.alert_pages(pipe_api_proto::MAX_ALERTS_LIMIT);
        for page in &mut pages {
            alerts.extend(page?.alerts);
        }
        Ok(pages.end().is_some_and(pipe_api_proto::pages::End::read_every_alert).then_some(alerts))
    }
}
