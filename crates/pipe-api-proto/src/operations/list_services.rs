//! `GET /v1/organizations/{organization_id}/services`: the contract's `instanceGetList`.

use pipe_api_types::{OrganizationId, Service, ServiceFilter};

operation! {
    /// Lists the services of an organization as full records (no pagination): those
    /// carrying the tags a `ServiceFilter` names, every one for `ServiceFilter::any()`
    /// (the `Client`'s `list_all_services` is that plain call).
    services.list_services: ListServices(organization_id: OrganizationId; filter: ServiceFilter as query)
        Management GET "v1"/"organizations"/{organization_id}/"services" -> Vec<Service>;
}
