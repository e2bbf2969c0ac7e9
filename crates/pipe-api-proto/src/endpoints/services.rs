//! `/v1/organizations/{organizationId}/services/{serviceId}`: get, update, delete, and the
//! service's state (`.../state`).

use pipe_api_types::{OrganizationId, Service, ServiceId, UpdateServiceRequest, UpdateServiceStateRequest};

endpoint! {
    /// Reads a service.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct GetService {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
    }
    /// Reads `service_id` of `organization_id`.
    fn new;
    Management "get_service": GET -> Service,
    path: |e| super::service_path(&e.organization_id, &e.service_id),
}

endpoint! {
    /// Changes a service: name, IP access list, private endpoints, release channel, endpoints,
    /// encryption key, tags, core dumps. The answer is the service as changed.
    #[derive(Clone, Debug)]
    pub struct UpdateService {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
        /// What to change.
        pub request: UpdateServiceRequest,
    }
    /// Applies `request` to `service_id` of `organization_id`.
    fn new;
    Management "update_service": PATCH -> Service,
    path: |e| super::service_path(&e.organization_id, &e.service_id),
    body: request,
}

endpoint! {
    /// Deletes a service. The answer has no result.
    #[derive(Clone, Debug, PartialEq, Eq)]
    pub struct DeleteService {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
    }
    /// Deletes `service_id` of `organization_id`.
    fn new;
    Management "delete_service": DELETE -> (),
    path: |e| super::service_path(&e.organization_id, &e.service_id),
}

endpoint! {
    /// Starts, stops or wakes a service (`PATCH .../state`). The answer is the service, usually in
    /// a passing state (`starting`, `stopping`, `awaking`): poll it, for instance with a wait on
    /// `service_running`, until it settles.
    #[derive(Clone, Debug)]
    pub struct UpdateServiceState {
        /// The organization.
        pub organization_id: OrganizationId,
        /// The service.
        pub service_id: ServiceId,
        /// The command.
        pub request: UpdateServiceStateRequest,
    }
    /// Sends `request`'s command to `service_id` of `organization_id`.
    fn new;
    Management "update_service_state": PATCH -> Service,
    path: |e| super::service_path(&e.organization_id, &e.service_id).literal("state"),
    body: request,
}
