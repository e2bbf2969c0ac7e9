//! Pipes as code on the service handle (feature `plan`): read what a service has, plan, apply
//! ([`pipe_api_plan`], re-exported as [`crate::plan`]).

use pipe_api_plan::{
    Applied, Apply, ApplyError, Current, DesiredState, ExportError, ExportOptions, Exported, Plan, PlanError,
    PlanOptions, SavedPlan, SavedPlanError, export, plan,
};
use pipe_api_proto::wait::WaitPolicy;
use pipe_api_proto::{Alerting, Error, Management};

use crate::{Client, ServiceScope};

impl ServiceScope<'_> {
    /// What the service has: its reverse private endpoints and pipes, and, when `alerts` is
    /// set, every alert (page by page). The alerts are `None` when the listing ended before
    /// reading every one ([`End::read_every_alert`](pipe_api_proto::pages::End::read_every_alert)):
    /// a plan then creates none again that it did not see (and changes and prunes none).
    pub fn current_state(&self, alerts: bool) -> Result<Current, Error> {
        let endpoints = self.list_reverse_private_endpoints()?;
        let pipes = self.list_pipes()?;
        let alerts = if alerts { self.client().every_alert()? } else { None };
        Ok(Current::new(endpoints, pipes, alerts))
    }

    /// The plan that makes the service what `desired` says: reads what it has (the alerts too
    /// when `desired` names any, or when pruning alerts), then
    /// [`plan`](pipe_api_plan::plan()).
    pub fn plan(&self, desired: &DesiredState, options: &PlanOptions) -> Result<Plan, PlanError> {
        let alerts = !desired.alerts.is_empty() || options.prune_alerts;
        let current = self.current_state(alerts).map_err(PlanError::Read)?;
        plan(self.organization_id(), self.service_id(), desired, &current, options)
    }

    /// Applies `plan` (made by [`ServiceScope::plan`]): each step in order, each request with
    /// the client's retries and pacing, each wait under the default [`WaitPolicy`]; see
    /// [`Apply`]. The steps' paths are the plan's own, made for the service it was planned for.
    pub fn apply(&self, plan: &Plan) -> Result<Applied, ApplyError> {
        self.apply_with(plan, WaitPolicy::default())
    }

    /// As [`ServiceScope::apply`], waiting under `wait`.
    pub fn apply_with(&self, plan: &Plan, wait: WaitPolicy) -> Result<Applied, ApplyError> {
        let client = self.client();
        let management = client.api::<Management>("apply").ok();
        let alerting = client.api::<Alerting>("apply").ok();
        client.drive(Apply::new(plan, management, alerting, client.retry.clone(), wait, client.next_seed()))
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
