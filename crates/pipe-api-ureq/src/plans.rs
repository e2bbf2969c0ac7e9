//! Pipes as code on the service handle (feature `plan`): read what a service has, plan, apply
//! ([`pipe_api_plan`], re-exported as [`crate::plan`]); and on the organization handle, for a
//! desired state that declares services.

use pipe_api_plan::{
    Applied, Apply, ApplyError, ApplyOptions, Current, DesiredState, ExportError, ExportOptions, Exported, Plan,
    PlanError, PlanOptions, ReadCurrent, ReadOptions, ReadServices, SavedPlan, SavedPlanError, export, plan,
    plan_organization,
};
use pipe_api_proto::{Alerting, Error, Management};
use pipe_api_types::ServiceId;

use crate::{Client, OrganizationScope, ServiceScope};

/// Applies `plan` on `client` under `options` (each request with the client's retries and
/// pacing unless `options` sets its own), for what `aim` says the apply is for.
fn apply_on<'a>(
    client: &'a Client,
    plan: &'a Plan,
    options: ApplyOptions,
    aim: impl FnOnce(Apply<'a>) -> Apply<'a>,
) -> Result<Applied, ApplyError> {
    let management = client.api::<Management>("apply").ok();
    let alerting = client.api::<Alerting>("apply").ok();
    let options = match options.retry {
        Some(_) => options,
        None => options.retry(client.retry.clone()),
    };
    let apply = Apply::new(plan, management, alerting, options, client.next_seed(), client.now());
    client.drive(aim(apply))
}

/// `options` with `client`'s retry policy unless it sets its own.
fn with_client_retry(options: ReadOptions, client: &Client) -> ReadOptions {
    match options.retry {
        Some(_) => options,
        None => options.retry(client.retry.clone()),
    }
}

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
        let options = with_client_retry(options, client);
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
        let (organization_id, service_id) = (self.organization_id(), self.service_id());
        apply_on(self.client(), plan, options, |apply| apply.for_service(organization_id, service_id))
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
        saved.is_for(self.organization_id(), Some(self.service_id()))?;
        let alerts = saved.needs_alerts() || !desired.alerts.is_empty();
        let current = self.current_state(alerts).map_err(SavedPlanError::Read)?;
        let plan = saved.confirm(self.organization_id(), Some(self.service_id()), desired, &current)?;
        self.apply(&plan).map_err(SavedPlanError::Apply)
    }
}

/// Services as code on the organization handle: a desired state that declares services (an
/// environment) is read, planned and applied for the organization.
impl OrganizationScope<'_> {
    /// What the organization has: every service, what each of those `services` selects has
    /// (when it runs or idles), and every alert when `alerts` is set, under the default
    /// [`ReadOptions`]: see [`OrganizationScope::current_state_with`].
    pub fn current_state(&self, services: ReadServices, alerts: bool) -> Result<Current, Error> {
        self.current_state_with(services, ReadOptions::default().alerts(alerts))
    }

    /// What the organization has, read by [`ReadCurrent::of_organization`] under `options`
    /// (each request with the client's retries and pacing unless `options` sets its own):
    /// the whole within its own deadline, an idle service woken once.
    pub fn current_state_with(&self, services: ReadServices, options: ReadOptions) -> Result<Current, Error> {
        let client = self.client();
        let management = client.api::<Management>("current_state")?;
        let alerting = if options.alerts { Some(client.api::<Alerting>("list_alerts")?) } else { None };
        let options = with_client_retry(options, client);
        let (organization_id, seed) = (self.organization_id(), client.next_seed());
        client.drive(ReadCurrent::of_organization(
            organization_id,
            services,
            management,
            alerting,
            options,
            seed,
            client.now(),
        ))
    }

    /// What `desired` needs read: its services, and the alerts when it names any or `prune_alerts`.
    fn read_for(&self, desired: &DesiredState, prune_alerts: bool) -> Result<Current, Error> {
        let names = desired.services.iter().map(|service| service.name().to_owned()).collect();
        self.current_state(ReadServices::Named(names), !desired.alerts.is_empty() || prune_alerts)
    }

    /// The plan that makes the organization what `desired` (which declares services) says:
    /// reads what it has, then [`plan_organization`](pipe_api_plan::plan_organization()).
    pub fn plan(&self, desired: &DesiredState, options: &PlanOptions) -> Result<Plan, PlanError> {
        let current = self.read_for(desired, options.prune_alerts).map_err(PlanError::Read)?;
        plan_organization(self.organization_id(), desired, &current, options)
    }

    /// Applies `plan` (made by [`OrganizationScope::plan`]) under the default
    /// [`ApplyOptions`]; a plan made for a service, or another organization, is refused before
    /// anything is sent.
    pub fn apply(&self, plan: &Plan) -> Result<Applied, ApplyError> {
        self.apply_with(plan, ApplyOptions::default())
    }

    /// As [`OrganizationScope::apply`], under `options`.
    pub fn apply_with(&self, plan: &Plan, options: ApplyOptions) -> Result<Applied, ApplyError> {
        let organization_id = self.organization_id();
        apply_on(self.client(), plan, options, |apply| apply.for_organization(organization_id))
    }

    /// Applies a plan saved earlier for the organization only if what it touches is still as
    /// it was: as [`ServiceScope::apply_saved`], for the organization.
    pub fn apply_saved(&self, saved: &SavedPlan, desired: &DesiredState) -> Result<Applied, SavedPlanError> {
        saved.is_for(self.organization_id(), None)?;
        let current = self.read_for(desired, saved.needs_alerts()).map_err(SavedPlanError::Read)?;
        let plan = saved.confirm(self.organization_id(), None, desired, &current)?;
        self.apply(&plan).map_err(SavedPlanError::Apply)
    }

    /// The service `service_id` and what it has, as a desired-state document that declares it
    /// (`services`), which plans to no changes for the organization once its secret references
    /// are filled: reads it (every alert too when `options` asks), then
    /// [`export`](pipe_api_plan::export()).
    /// A service that is not listed, or neither runs nor idles (what it has is read only then),
    /// is [`ExportError::ServiceNotRead`].
    pub fn export_service(&self, service_id: ServiceId, options: &ExportOptions) -> Result<Exported, ExportError> {
        let current = self.current_state(ReadServices::Only(service_id), options.alerts).map_err(ExportError::Read)?;
        let listed = current.services.iter().flatten().find(|read| read.service.id == service_id);
        if let Some(listed) = listed.filter(|listed| listed.resources.is_none()) {
            let state = listed.service.state.as_ref().map_or("in no state", |state| state.as_str()).to_owned();
            return Err(ExportError::ServiceNotRead { service: service_id, state: Some(state) });
        }
        if listed.is_none() {
            return Err(ExportError::ServiceNotRead { service: service_id, state: None });
        }
        export(&current, options)
    }
}
