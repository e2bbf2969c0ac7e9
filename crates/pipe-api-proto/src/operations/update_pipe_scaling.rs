//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}/scaling`: the contract's `pipeScalingUpdate`.

use pipe_api_types::{OrganizationId, Pipe, PipeId, Scaling, ServiceId};

operation! {
    /// Changes a pipe's scaling (replicas, CPU and memory per replica).
    pipe.update_pipe_scaling: UpdatePipeScaling(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: Scaling)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"scaling" -> Pipe;
}
