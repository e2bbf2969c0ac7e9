//! Services: the [`Service`] record and its endpoints.

use time::OffsetDateTime;

use crate::Text;
use crate::codec::{decimal, integer, rfc3339};
use crate::{IpAccessEntry, ServiceId};

open_enum! {
    /// The protocol of a service endpoint.
    pub enum EndpointProtocol {
        /// HTTPS interface.
        Https => "https",
        /// Native protocol over TLS.
        NativeSecure => "nativesecure",
        /// MySQL wire protocol.
        Mysql => "mysql",
    }
}

open_enum! {
    /// The state of a service (management OpenAPI, `Service.state`; service notes).
    pub enum ServiceState {
        /// Starting.
        Starting => "starting",
        /// Stopping.
        Stopping => "stopping",
        /// Being terminated.
        Terminating => "terminating",
        /// Being soft-deleted.
        Softdeleting => "softdeleting",
        /// Waking from idle.
        Awaking => "awaking",
        /// Some replicas run (not yet `running`).
        PartiallyRunning => "partially_running",
        /// Being created.
        Provisioning => "provisioning",
        /// Running.
        Running => "running",
        /// Stopped; not woken by calls.
        Stopped => "stopped",
        /// Terminated.
        Terminated => "terminated",
        /// Soft-deleted.
        Softdeleted => "softdeleted",
        /// Running with problems.
        Degraded => "degraded",
        /// Failed.
        Failed => "failed",
        /// Idle: pipe calls answer 424 until it is woken (`awake`).
        Idle => "idle",
    }
}

model! {
    /// A network endpoint of a service.
    pub struct ServiceEndpoint {
        /// The protocol spoken there.
        "protocol" protocol: EndpointProtocol,
        /// The host name.
        "host" host: Text,
        /// The port.
        "port" port: u16 as integer,
        /// The user name to connect with; real servers often send `null`.
        "username" username: Text,
    }
}

model! {
    /// A service of an organization.
    pub struct Service {
        /// The service's id.
        required "id" id: ServiceId,
        /// The service's name.
        "name" name: Text,
        /// The database engine version.
        "engineVersion" engine_version: Text,
        /// Where the service can be reached.
        "endpoints" endpoints: Vec<ServiceEndpoint>,
        /// Minimum total memory, in GB.
        "minTotalMemoryGb" min_total_memory_gb: f64 as decimal,
        /// Maximum total memory, in GB.
        "maxTotalMemoryGb" max_total_memory_gb: f64 as decimal,
        /// Minimum memory per replica, in GB.
        "minReplicaMemoryGb" min_replica_memory_gb: f64 as decimal,
        /// Maximum memory per replica, in GB.
        "maxReplicaMemoryGb" max_replica_memory_gb: f64 as decimal,
        /// Number of replicas.
        "numReplicas" num_replicas: f64 as decimal,
        /// Whether the service idles when unused.
        "idleScaling" idle_scaling: bool,
        /// Minutes without use before idling.
        "idleTimeoutMinutes" idle_timeout_minutes: f64 as decimal,
        /// Where the service may be reached from.
        "ipAccessList" ip_access_list: Vec<IpAccessEntry>,
        /// When the service was created.
        "createdAt" created_at: OffsetDateTime as rfc3339,
        /// The customer-managed encryption key.
        "encryptionKey" encryption_key: Text,
        /// The role assumed to use the encryption key.
        "encryptionAssumedRoleIdentifier" encryption_assumed_role_identifier: Text,
        /// The service's IAM role.
        "iamRole" iam_role: Text,
        /// Private endpoints attached to the service.
        "privateEndpointIds" private_endpoint_ids: Vec<Text>,
        /// Private endpoints that may be attached.
        "availablePrivateEndpointIds" available_private_endpoint_ids: Vec<Text>,
        /// The data warehouse the service belongs to.
        "dataWarehouseId" data_warehouse_id: Text,
        /// Whether this is the warehouse's primary service.
        "isPrimary" is_primary: bool,
        /// Whether the service is read-only.
        "isReadonly" is_readonly: bool,
        /// The bring-your-own-cloud deployment id.
        "byocId" byoc_id: Text,
        /// Whether transparent data encryption is on.
        "hasTransparentDataEncryption" has_transparent_data_encryption: bool,
        /// The transparent data encryption key's id.
        "transparentDataEncryptionKeyId" transparent_data_encryption_key_id: Text,
        /// The encryption role's id.
        "encryptionRoleId" encryption_role_id: Text,
        /// The service's state (newer servers).
        "state" state: ServiceState,
        /// The cloud provider (`aws`, `gcp`, `azure`).
        "provider" provider: Text,
        /// The provider's region.
        "region" region: Text,
        /// The service tier.
        "tier" tier: Text,
        /// The fewest replicas autoscaling keeps.
        "minReplicas" min_replicas: f64 as decimal,
        /// The most replicas autoscaling makes.
        "maxReplicas" max_replicas: f64 as decimal,
        /// `vertical` or `horizontal`.
        "autoscalingMode" autoscaling_mode: Text,
        /// Memory per replica, in GB.
        "replicaMemoryGb" replica_memory_gb: f64 as decimal,
        /// The release channel (`slow`, `default`, `fast`).
        "releaseChannel" release_channel: Text,
        /// The hardware profile.
        "profile" profile: Text,
        /// The compliance regime (`hipaa`, `pci`).
        "complianceType" compliance_type: Text,
        /// Whether core dumps are collected.
        "enableCoreDumps" enable_core_dumps: bool,
    }
}
