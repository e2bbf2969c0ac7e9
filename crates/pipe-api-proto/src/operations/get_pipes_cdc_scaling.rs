//! `GET /v1/organizations/{organization_id}/services/{service_id}/pipesCdcScaling`: the contract's `pipeCdcScalingGet`.

use pipe_api_types::{OrganizationId, PipesCdcScaling, ServiceId};

operation! {
    /// Reads the scaling shared by a service's database (CDC) pipes.
    service.get_pipes_cdc_scaling: GetPipesCdcScaling(organization_id: OrganizationId, service_id: ServiceId)
        Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesCdcScaling" -> PipesCdcScaling;
}
