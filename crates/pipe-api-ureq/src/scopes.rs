//! Ids given once: scoped handles on a [`Client`], as `client.service(org, svc).pipe(id)`, whose
//! methods are the operations of proto's table of operations under that scope (each row names
//! its scope: the resource it acts on), each taking only what is left: its body, if any.
//!
//! ```no_run
//! use std::time::Duration;
//!
//! use pipe_api_ureq::{Client, WaitPolicy, pipe_running};
//! use pipe_api_ureq::types::PipeCommand;
//! # fn demo(client: &Client, org: pipe_api_ureq::types::OrganizationId, svc: pipe_api_ureq::types::ServiceId, id: pipe_api_ureq::types::PipeId) -> Result<(), Box<dyn std::error::Error>> {
//! let service = client.service(org, svc);
//! let pipes = service.list_pipes()?;
//! println!("{} pipes", pipes.len());
//! let pipe = service.pipe(id);
//! pipe.change_pipe_state(PipeCommand::Start)?;
//! pipe.wait(pipe_running, WaitPolicy::default().deadline(Duration::from_secs(300)))?;
//! # Ok(()) }
//! ```

use pipe_api_proto::wait::{Condition, WaitError, WaitPolicy};
use pipe_api_proto::*;
use pipe_api_types::*;

use crate::Client;

/// The organizations the client's key reaches: where the ids every other call needs come from.
#[derive(Clone, Copy, Debug)]
pub struct OrganizationsScope<'c> {
    client: &'c Client,
}

/// An organization: its API keys, and its services.
#[derive(Clone, Copy, Debug)]
pub struct OrganizationScope<'c> {
    client: &'c Client,
    organization_id: OrganizationId,
}

/// The services of an organization: listed and created here.
#[derive(Clone, Copy, Debug)]
pub struct ServicesScope<'c> {
    client: &'c Client,
    organization_id: OrganizationId,
}

/// An API key of an organization.
#[derive(Clone, Copy, Debug)]
pub struct KeyScope<'c> {
    client: &'c Client,
    organization_id: OrganizationId,
    key_id: KeyId,
}

/// A service: its settings and state, its pipes and its reverse private endpoints.
#[derive(Clone, Copy, Debug)]
pub struct ServiceScope<'c> {
    client: &'c Client,
    organization_id: OrganizationId,
    service_id: ServiceId,
}

/// A pipe of a service.
#[derive(Clone, Copy, Debug)]
pub struct PipeScope<'c> {
    client: &'c Client,
    organization_id: OrganizationId,
    service_id: ServiceId,
    pipe_id: PipeId,
}

/// A reverse private endpoint of a service.
#[derive(Clone, Copy, Debug)]
pub struct ReversePrivateEndpointScope<'c> {
    client: &'c Client,
    organization_id: OrganizationId,
    service_id: ServiceId,
    endpoint_id: ReversePrivateEndpointId,
}

/// The alerts of the alerting interface.
#[derive(Clone, Copy, Debug)]
pub struct AlertsScope<'c> {
    client: &'c Client,
}

/// One alert.
#[derive(Clone, Debug)]
pub struct AlertScope<'c> {
    client: &'c Client,
    alert_id: AlertId,
}

impl Client {
    /// The organizations the key reaches (`client.organizations().list_organizations()`).
    pub fn organizations(&self) -> OrganizationsScope<'_> {
        OrganizationsScope { client: self }
    }

    /// The organization `organization_id`: its keys and services.
    pub fn organization(&self, organization_id: OrganizationId) -> OrganizationScope<'_> {
        OrganizationScope { client: self, organization_id }
    }

    /// The service `service_id` of `organization_id`.
    pub fn service(&self, organization_id: OrganizationId, service_id: ServiceId) -> ServiceScope<'_> {
        ServiceScope { client: self, organization_id, service_id }
    }

    /// The alerts.
    pub fn alerts(&self) -> AlertsScope<'_> {
        AlertsScope { client: self }
    }
}

impl<'c> OrganizationScope<'c> {
    /// Its services (`.services().list_all_services()`).
    pub fn services(&self) -> ServicesScope<'c> {
        ServicesScope { client: self.client, organization_id: self.organization_id }
    }

    /// One of its keys.
    pub fn key(&self, key_id: KeyId) -> KeyScope<'c> {
        KeyScope { client: self.client, organization_id: self.organization_id, key_id }
    }

    /// One of its services.
    pub fn service(&self, service_id: ServiceId) -> ServiceScope<'c> {
        ServiceScope { client: self.client, organization_id: self.organization_id, service_id }
    }

    /// The client (for pipes as code, which reads and applies through it).
    #[cfg(feature = "plan")]
    pub(crate) fn client(&self) -> &'c Client {
        self.client
    }

    /// The organization's id.
    pub fn organization_id(&self) -> OrganizationId {
        self.organization_id
    }
}

impl ServicesScope<'_> {
    /// Lists every service ([`Client::list_all_services`]); `list_services` takes a filter.
    pub fn list_all_services(&self) -> Result<Vec<Service>, Error> {
        self.client.list_all_services(self.organization_id)
    }
}

impl<'c> ServiceScope<'c> {
    /// One of its pipes.
    pub fn pipe(&self, pipe_id: PipeId) -> PipeScope<'c> {
        PipeScope { client: self.client, organization_id: self.organization_id, service_id: self.service_id, pipe_id }
    }

    /// One of its reverse private endpoints.
    pub fn reverse_private_endpoint(&self, endpoint_id: ReversePrivateEndpointId) -> ReversePrivateEndpointScope<'c> {
        let (client, organization_id, service_id) = (self.client, self.organization_id, self.service_id);
        ReversePrivateEndpointScope { client, organization_id, service_id, endpoint_id }
    }

    /// The client (for pipes as code, which reads and applies through it).
    #[cfg(feature = "plan")]
    pub(crate) fn client(&self) -> &'c Client {
        self.client
    }

    /// The organization's id.
    pub fn organization_id(&self) -> OrganizationId {
        self.organization_id
    }

    /// The service's id.
    pub fn service_id(&self) -> ServiceId {
        self.service_id
    }

    /// Waits until the service is running ([`Client::wait_for_service`]).
    pub fn wait(&self, policy: WaitPolicy) -> Result<Service, WaitError<Service>> {
        self.client.wait_for_service(self.organization_id, self.service_id, policy)
    }

    /// A wait policy that wakes this service when it is idle.
    pub fn idle_recovery(&self, policy: WaitPolicy) -> WaitPolicy {
        policy.with_idle_recovery(self.organization_id, self.service_id)
    }
}

impl PipeScope<'_> {
    /// Waits until the pipe satisfies `condition` ([`Client::wait_for_pipe`]).
    pub fn wait(&self, condition: impl Condition<Pipe>, policy: WaitPolicy) -> Result<Pipe, WaitError<Pipe>> {
        self.client.wait_for_pipe(self.organization_id, self.service_id, self.pipe_id, condition, policy)
    }
}

impl ReversePrivateEndpointScope<'_> {
    /// Waits until the endpoint satisfies `condition`
    /// ([`Client::wait_for_reverse_private_endpoint`]).
    pub fn wait(
        &self,
        condition: impl Condition<ReversePrivateEndpoint>,
        policy: WaitPolicy,
    ) -> Result<ReversePrivateEndpoint, WaitError<ReversePrivateEndpoint>> {
        let (organization_id, service_id) = (self.organization_id, self.service_id);
        self.client.wait_for_reverse_private_endpoint(organization_id, service_id, self.endpoint_id, condition, policy)
    }
}

impl<'c> AlertsScope<'c> {
    /// One alert.
    pub fn alert(&self, alert_id: AlertId) -> AlertScope<'c> {
        AlertScope { client: self.client, alert_id }
    }
}

/// The operations of each scope, from the table: each row names its scope.
macro_rules! scoped_methods {
    ($({
        docs: [$($doc:tt)*], name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: $fields:tt, body: [$($body:ident : $body_type:ty)?], query: [$($query:ident : $query_type:ty)?],
        interface: $api:ident, method: $method:ident, path: $path:tt, output: $output:ty, success: $success:ident,
        scope: $scope:ident, $($more:tt)*
    })*) => {
        $(scoped_method! {
            $scope $declared [$($doc)*] $name $endpoint [$($body: $body_type)? $($query: $query_type)?] $output
        })*
    };
}

/// One operation, on the scope its row names, taking what the scope does not hold: its body or
/// its query. A row written by hand takes its endpoint whole. A scope whose ids are not the
/// row's path fields fails to compile here.
macro_rules! scoped_method {
    (alerts hand [$($doc:tt)*] $name:ident $endpoint:ident [] $output:ty) => {
        impl AlertsScope<'_> {
            $($doc)*
            pub fn $name(&self, endpoint: $endpoint) -> Result<$output, Error> {
                self.client.$name(endpoint)
            }
        }
    };
    (organizations table $($row:tt)*) => { scoped_method!(@ OrganizationsScope [] $($row)*); };
    (organization table $($row:tt)*) => { scoped_method!(@ OrganizationScope [organization_id] $($row)*); };
    (services table $($row:tt)*) => { scoped_method!(@ ServicesScope [organization_id] $($row)*); };
    (key table $($row:tt)*) => { scoped_method!(@ KeyScope [organization_id key_id] $($row)*); };
    (service table $($row:tt)*) => { scoped_method!(@ ServiceScope [organization_id service_id] $($row)*); };
    (pipe table $($row:tt)*) => { scoped_method!(@ PipeScope [organization_id service_id pipe_id] $($row)*); };
    (reverse_private_endpoint table $($row:tt)*) => {
        scoped_method!(@ ReversePrivateEndpointScope [organization_id service_id endpoint_id] $($row)*);
    };
    (alerts table $($row:tt)*) => { scoped_method!(@ AlertsScope [] $($row)*); };
    // An alert's id is not `Copy`.
    (alert table [$($doc:tt)*] $name:ident $endpoint:ident [$($body:ident : $body_type:ty)?] $output:ty) => {
        impl AlertScope<'_> {
            $($doc)*
            pub fn $name(&self, $($body: impl Into<$body_type>)?) -> Result<$output, Error> {
                self.client.$name(self.alert_id.clone(), $($body)?)
            }
        }
    };
    (@ $scope:ident [$($id:ident)*] [$($doc:tt)*] $name:ident $endpoint:ident [$($left:ident : $left_type:ty)?] $output:ty) => {
        impl $scope<'_> {
            $($doc)*
            pub fn $name(&self, $($left: impl Into<$left_type>)?) -> Result<$output, Error> {
                self.client.$name($(self.$id,)* $($left)?)
            }
        }
    };
}

pipe_api_proto::operations!(scoped_methods);
