//! `PUT /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}/settings`: the contract's `pipeSettingsUpdate`.

use pipe_api_types::{OrganizationId, PipeId, PipeSettings, ServiceId};

operation! {
    /// Replaces a pipe's settings (`PUT`, a full replace: a setting left out returns to
    /// its default). Start from the settings as read to keep what this crate does not
    /// model.
    pipe.update_pipe_settings: UpdatePipeSettings(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; settings: PipeSettings)
        Management PUT "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"settings" -> PipeSettings;
}
