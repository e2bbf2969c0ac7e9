//! Pipes as code on the service handle (feature `plan`): read what a service has, plan, apply
//! ([`pipe_api_plan`], re-exported as [`crate::plan`]).

use pipe_api_plan::{
    Applied, Apply, ApplyError, ApplyOptions, Current, DesiredState, ExportError, ExportOptions, Exported, Plan,
    PlanError, PlanOptions, ReadCurrent, ReadOptions, SavedPlan, SavedPlanError, export, plan,
};
use pipe_api_proto::{Alerting, Error, Management};

use crate::ServiceScope;

impl ServiceScope<'_> {
    /// What the service has: its reverse private endpoints and pipes, and, when `alerts` is
    /// set, every alert (page by page), under the default [`ReadOptions`]: see
    /// [`ServiceScope::current_state_with`].
    pub fn current_state(&self, alerts: bool) -> Result<Current, Error> {
        self.current_state_with(ReadOptions::default().alerts(alerts))
    }

    /// What the service has, read by [`ReadCurrent`] under `options` (each request with the
    /// client's retries and pacing unless `options` sets its own): the whole within its own
    /// deadline, the alerts `None` when their listing ended before reading every one or went
    /// past [`MAX_ALERT_LISTING_BYTES`](pipe_api_plan::MAX_ALERT_LISTING_BYTES) (a plan then
    /// creates, changes and prunes none). A service found idle (`424`) is woken, as a wait and
    /// an apply wake it, and read again, once; one that cannot be woken (stopped, or out of
    /// time) gives the idle answer itself.
    pub fn current_state_with(&self, options: ReadOptions) -> Result<Current, Error> {
        let client = self.client();
        let management = client.api::<Management>("current_state")?;
        let alerting = if options.alerts { Some(client.api::<Alerting>("list_alerts")?) } else { None };
        let options = match options.retry {
            Some(_) => options,
            None => options.retry(client.retry.clone()),
        };
        let (organization_id, service_id) = (self.organization_id(), self.service_id());
        let seed = client.next_seed();
        client.drive(ReadCurrent::new(organization_id, service_id, management, alerting, options, seed, client.now()))
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
