//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/pipesCdcScaling`: the contract's `pipeCdcScalingUpdate`.

use pipe_api_types::{OrganizationId, PipesCdcScaling, ServiceId};

operation! {
    /// Changes the scaling shared by a service's database (CDC) pipes.
    service.update_pipes_cdc_scaling: UpdatePipesCdcScaling(organization_id: OrganizationId, service_id: ServiceId; request: PipesCdcScaling)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesCdcScaling" -> PipesCdcScaling;
}
