//! An organization (management OpenAPI, `Organization`): what `GET /v1/organizations` lists
//! (the one organization a key belongs to) and `GET /v1/organizations/{id}` reads, so that a
//! user finds the id every other call needs instead of copying it from the console.

use time::OffsetDateTime;

use crate::codec::rfc3339;
use crate::validate::{Checker, Validate, ValidationErrors};
use crate::{CloudProvider, ListPatch, OrganizationId, ServiceRegion, Text};

model! {
    /// An organization.
    pub struct Organization {
        /// Its id: every management path starts with it.
        required "id" id: OrganizationId,
        /// Its name.
        "name" name: Text,
        /// When it was created.
        "createdAt" created_at: OffsetDateTime as rfc3339,
        /// Its private endpoints.
        "privateEndpoints" private_endpoints: Vec<OrganizationPrivateEndpoint>,
        /// Its bring-your-own-cloud configurations.
        "byocConfig" byoc_config: Vec<ByocConfig>,
        /// Whether crash reports (core dumps) may be collected for its services: when off here,
        /// no service may turn them on.
        "enableCoreDumps" enable_core_dumps: bool,
    }
}

model! {
    /// A private endpoint of an organization (`OrganizationPrivateEndpoint`).
    pub struct OrganizationPrivateEndpoint {
        /// The cloud provider's identifier of the endpoint.
        "id" id: Text,
        /// Its description.
        "description" description: Text,
        /// The cloud provider it is in.
        "cloudProvider" cloud_provider: CloudProvider,
        /// The region it is in.
        "region" region: ServiceRegion,
    }
}

model! {
    /// A bring-your-own-cloud configuration of an organization (`ByocConfig`).
    pub struct ByocConfig {
        /// Its identifier.
        "id" id: Text,
        /// The state of its infrastructure.
        "state" state: ByocState,
        /// The name of the cloud account.
        "accountName" account_name: Text,
        /// The region services may be created in with it.
        "regionId" region_id: ServiceRegion,
        /// The cloud provider of that region.
        "cloudProvider" cloud_provider: CloudProvider,
        /// A name for people.
        "displayName" display_name: Text,
    }
}

open_enum! {
    /// The state of a BYOC configuration's infrastructure (`ByocConfig.state`).
    pub enum ByocState {
        /// Ready: services can be created in it.
        InfraReady => "infra-ready",
        /// Being provisioned.
        InfraProvisioning => "infra-provisioning",
        /// Torn down.
        InfraTerminated => "infra-terminated",
    }
}

model! {
    /// A private endpoint as the update-organization request names it (the contract's
    /// `OrganizationPatchPrivateEndpoint`).
    pub struct OrganizationPatchPrivateEndpoint {
        /// The cloud provider's identifier of the endpoint.
        "id" id: Text,
        /// Its description.
        "description" description: Text,
        /// The cloud provider it is in.
        "cloudProvider" cloud_provider: CloudProvider,
        /// The region it is in.
        "region" region: ServiceRegion,
    }
}

impl OrganizationPatchPrivateEndpoint {
    /// The endpoint `id`.
    pub fn new(id: impl Into<Text>) -> Self {
        OrganizationPatchPrivateEndpoint { id: Some(id.into()), ..Default::default() }
    }
}

/// Changes to an organization's private endpoints (the contract's
/// `OrganizationPrivateEndpointsPatch`): `remove` first, then `add` (deprecated by the contract:
/// attach endpoints to a service with its update instead).
pub type OrganizationPrivateEndpointsPatch = ListPatch<OrganizationPatchPrivateEndpoint>;

model! {
    /// The body of the update-organization request (`PATCH /v1/organizations/{organizationId}`,
    /// the contract's `OrganizationPatchRequest`): only what is set is changed. Admin keys only.
    pub struct UpdateOrganizationRequest {
        /// The organization's new name.
        "name" name: Text,
        /// Private endpoints to remove (and, deprecated, to add).
        "privateEndpoints" private_endpoints: OrganizationPrivateEndpointsPatch,
        /// Whether core dumps may be collected for its services.
        "enableCoreDumps" enable_core_dumps: bool,
    }
}

impl UpdateOrganizationRequest {
    /// A request that changes nothing yet: set what should change with the setters.
    pub fn new() -> Self {
        UpdateOrganizationRequest::default()
    }
}

impl Validate for UpdateOrganizationRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            if let Some(name) = &self.name {
                c.field("name", |c| c.text(name));
            }
            if let Some(patch) = &self.private_endpoints {
                c.field("privateEndpoints", |c| {
                    for (name, items) in [("add", &patch.add), ("remove", &patch.remove)] {
                        let Some(items) = items else { continue };
                        c.field(name, |c| {
                            c.each(items, |c, endpoint| {
                                c.required_text("id", &endpoint.id);
                                c.known("cloudProvider", &endpoint.cloud_provider);
                                c.known("region", &endpoint.region);
                            });
                        });
                    }
                });
            }
        })
    }
}
