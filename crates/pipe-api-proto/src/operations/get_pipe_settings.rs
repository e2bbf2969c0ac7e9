//! `GET /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}/settings`: the contract's `pipeSettingsGet`.

use pipe_api_types::{OrganizationId, PipeId, PipeSettings, ServiceId};

operation! {
    /// Reads a pipe's settings.
    pipe.get_pipe_settings: GetPipeSettings(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"settings" -> PipeSettings;
}
