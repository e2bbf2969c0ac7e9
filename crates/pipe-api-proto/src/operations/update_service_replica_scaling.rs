//! `PATCH /v1/organizations/{organization_id}/services/{service_id}/replicaScaling`: the contract's `instanceReplicaScalingUpdate`.

use pipe_api_types::{OrganizationId, Service, ServiceId, UpdateServiceReplicaScalingRequest};

operation! {
    /// Changes a service's replica scaling and idling: only what the request names. The
    /// answer is the service with the scaling in effect (`currentScaling`); the server
    /// applies the change asynchronously, so a later read shows it once applied.
    service.update_service_replica_scaling: UpdateServiceReplicaScaling(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServiceReplicaScalingRequest)
        Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"replicaScaling" -> Service;
}
