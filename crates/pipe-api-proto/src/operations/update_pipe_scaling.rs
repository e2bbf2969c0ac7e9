//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/pipes/{pipe_id}/scaling`: the contract's `pipeScalingUpdate`.

use pipe_api_types::{OrganizationId, Pipe, PipeId, ServiceId, UpdatePipeScalingRequest};

operation! {
    /// Changes a pipe's scaling (replicas, CPU and memory per replica); each member may be sent
    /// as `null` (a `Scaling` converts into the request).
    pipe.update_pipe_scaling: UpdatePipeScaling(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: UpdatePipeScalingRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"scaling" -> Pipe;
}
