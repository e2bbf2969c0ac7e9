//! Services: the [`Service`] record and its endpoints.

use time::OffsetDateTime;

use crate::Text;
use crate::codec::{decimal, integer, rfc3339};
use crate::key::check_ip_access_entry;
use crate::quantity::{MemoryGb, amount};
use crate::validate::{Checker, OpenEnum as _, Rule, Validate, ValidationErrors};
use crate::{IntoField, IpAccessEntry, ServiceId};

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
        "minTotalMemoryGb" min_total_memory_gb: MemoryGb as amount,
        /// Maximum total memory, in GB.
        "maxTotalMemoryGb" max_total_memory_gb: MemoryGb as amount,
        /// Minimum memory per replica, in GB.
        "minReplicaMemoryGb" min_replica_memory_gb: MemoryGb as amount,
        /// Maximum memory per replica, in GB.
        "maxReplicaMemoryGb" max_replica_memory_gb: MemoryGb as amount,
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
        "replicaMemoryGb" replica_memory_gb: MemoryGb as amount,
        /// The release channel (`slow`, `default`, `fast`).
        "releaseChannel" release_channel: Text,
        /// The hardware profile.
        "profile" profile: Text,
        /// The compliance regime (`hipaa`, `pci`).
        "complianceType" compliance_type: Text,
        /// Whether core dumps are collected.
        "enableCoreDumps" enable_core_dumps: bool,
        /// The service's tags.
        "tags" tags: Vec<ResourceTag>,
    }
}

open_enum! {
    /// A service's release channel (management OpenAPI, `ServicePatchRequest.releaseChannel`).
    pub enum ReleaseChannel {
        /// Defers releases, to leave time to test.
        Slow => "slow",
        /// The regular channel.
        Default => "default",
        /// New releases as soon as they are available.
        Fast => "fast",
    }
}

open_enum! {
    /// What the service-state call asks of a service (management OpenAPI,
    /// `ServiceStatePatchRequest.command`).
    pub enum ServiceCommand {
        /// Start a stopped service.
        Start => "start",
        /// Stop the service.
        Stop => "stop",
        /// Wake an idle service.
        Awake => "awake",
    }
}

model! {
    /// A tag of a service (the contract's `ResourceTagsV1`).
    pub struct ResourceTag {
        /// The tag's key: 1 to 128 letters, digits, `.`, `_` or `-`.
        "key" key: Text,
        /// The tag's value: up to 256 letters, digits, `.`, `_` or `-`.
        "value" value: Text,
    }
}

impl ResourceTag {
    /// A tag `key` with `value`.
    pub fn new(key: impl Into<Text>, value: impl Into<Text>) -> Self {
        ResourceTag { key: Some(key.into()), value: Some(value.into()), ..Default::default() }
    }
}

/// Changes to a list of a service, as the update-service request sends them (the contract's
/// `IpAccessListPatch`, `InstancePrivateEndpointsPatch`, `InstanceTagsPatch`): `remove` is
/// applied first, then `add`.
#[derive(Clone, Debug, PartialEq, serde::Serialize, serde::Deserialize)]
#[non_exhaustive]
pub struct ListPatch<T> {
    /// Elements to add, after the removals.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub add: Option<Vec<T>>,
    /// Elements to remove, before the additions.
    #[serde(skip_serializing_if = "Option::is_none")]
    pub remove: Option<Vec<T>>,
}

impl<T> Default for ListPatch<T> {
    fn default() -> Self {
        ListPatch { add: None, remove: None }
    }
}

impl<T> ListPatch<T> {
    /// A patch that changes nothing yet.
    pub fn new() -> Self {
        ListPatch::default()
    }

    /// Sets the elements to add.
    #[must_use]
    // Named after the wire field, as every setter is; not arithmetic.
    #[allow(clippy::should_implement_trait)]
    pub fn add(mut self, items: impl IntoField<Vec<T>>) -> Self {
        self.add = Some(items.into_field());
        self
    }

    /// Sets the elements to remove.
    #[must_use]
    pub fn remove(mut self, items: impl IntoField<Vec<T>>) -> Self {
        self.remove = Some(items.into_field());
        self
    }

    /// Runs `check` on every element, under `add[i]` and `remove[i]`.
    fn check_each(&self, c: &mut Checker, check: impl Fn(&mut Checker, &T)) {
        for (name, items) in [("add", &self.add), ("remove", &self.remove)] {
            if let Some(items) = items {
                c.field(name, |c| c.each(items, &check));
            }
        }
    }
}

impl<T> IntoField<ListPatch<T>> for ListPatch<T> {
    fn into_field(self) -> ListPatch<T> {
        self
    }
}

/// Changes to a service's IP access list.
pub type IpAccessListPatch = ListPatch<IpAccessEntry>;
/// Changes to the private endpoints attached to a service.
pub type PrivateEndpointIdsPatch = ListPatch<Text>;
/// Changes to a service's tags (at most 50 added and 50 removed).
pub type TagsPatch = ListPatch<ResourceTag>;

model! {
    /// Turns an endpoint of a service on or off (the contract's `ServiceEndpointChange`).
    pub struct ServiceEndpointChange {
        /// The endpoint's protocol: only `mysql` can be changed.
        "protocol" protocol: EndpointProtocol,
        /// Whether the endpoint is on.
        "enabled" enabled: bool,
    }
}

impl ServiceEndpointChange {
    /// Turns the `protocol` endpoint on (`true`) or off.
    pub fn new(protocol: EndpointProtocol, enabled: bool) -> Self {
        ServiceEndpointChange { protocol: Some(protocol), enabled: Some(enabled), ..Default::default() }
    }
}

model! {
    /// The body of the update-service request (`PATCH .../services/{serviceId}`, the contract's
    /// `ServicePatchRequest`): only what is set is changed.
    pub struct UpdateServiceRequest {
        /// The service's new name: 1 to 50 characters.
        "name" name: Text,
        /// Addresses to remove from and add to the IP access list.
        "ipAccessList" ip_access_list: IpAccessListPatch,
        /// Private endpoints to detach and attach.
        "privateEndpointIds" private_endpoint_ids: PrivateEndpointIdsPatch,
        /// The release channel.
        "releaseChannel" release_channel: ReleaseChannel,
        /// Endpoints to turn on or off.
        "endpoints" endpoints: Vec<ServiceEndpointChange>,
        /// The id of the transparent data encryption key to rotate to.
        "transparentDataEncryptionKeyId" transparent_data_encryption_key_id: Text,
        /// Tags to remove and add.
        "tags" tags: TagsPatch,
        /// Whether to collect core dumps.
        "enableCoreDumps" enable_core_dumps: bool,
    }
}

impl UpdateServiceRequest {
    /// A request that changes nothing yet: set what should change with the setters.
    pub fn new() -> Self {
        UpdateServiceRequest::default()
    }
}

/// The contract's `ServicePatchRequest.name`: `minLength` 1, `maxLength` 50.
const MAX_SERVICE_NAME_CHARS: usize = 50;
/// The contract's `InstanceTagsPatch`: `maxItems` 50 for `add` and for `remove`.
const MAX_TAGS_PER_PATCH: usize = 50;
/// The contract's `ResourceTagsV1`: `key` at most 128 characters, `value` at most 256.
const MAX_TAG_KEY_CHARS: usize = 128;
const MAX_TAG_VALUE_CHARS: usize = 256;
/// The contract's `ResourceTagsV1` pattern `^[a-zA-Z0-9._-]+$`, for key and value.
const TAG_CHARACTERS: &str = "letters, digits, `.`, `_` and `-`";

fn is_tag_text(text: &str) -> bool {
    !text.is_empty() && text.bytes().all(|b| b.is_ascii_alphanumeric() || matches!(b, b'.' | b'_' | b'-'))
}

impl Validate for UpdateServiceRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(|c| {
            if let Some(name) = &self.name {
                c.field("name", |c| {
                    c.text(name);
                    if name.chars().count() > MAX_SERVICE_NAME_CHARS {
                        c.fail(Rule::MaxChars(MAX_SERVICE_NAME_CHARS));
                    }
                });
            }
            if let Some(patch) = &self.ip_access_list {
                c.field("ipAccessList", |c| patch.check_each(c, check_ip_access_entry));
            }
            if let Some(patch) = &self.private_endpoint_ids {
                c.field("privateEndpointIds", |c| patch.check_each(c, |c, id| c.text(id)));
            }
            c.known("releaseChannel", &self.release_channel);
            if let Some(endpoints) = &self.endpoints {
                c.field("endpoints", |c| {
                    c.each(endpoints, |c, change| {
                        // The contract's `ServiceEndpointChange.protocol` lists only `mysql`.
                        let changeable = change
                            .protocol
                            .as_ref()
                            .is_none_or(|p| *p == EndpointProtocol::Mysql || (!p.is_known() && p.may_be_sent()));
                        if !changeable {
                            c.fail_at("protocol", Rule::KnownValue { known: vec!["mysql"] });
                        }
                    });
                });
            }
            if let Some(id) = &self.transparent_data_encryption_key_id {
                c.field("transparentDataEncryptionKeyId", |c| c.text(id));
            }
            if let Some(patch) = &self.tags {
                c.field("tags", |c| {
                    for (name, items) in [("add", &patch.add), ("remove", &patch.remove)] {
                        if items.as_ref().is_some_and(|items| items.len() > MAX_TAGS_PER_PATCH) {
                            c.fail_at(name, Rule::MaxItems(MAX_TAGS_PER_PATCH));
                        }
                    }
                    patch.check_each(c, check_tag);
                });
            }
        })
    }
}

/// A tag's key is required; key and value follow the contract's length and character rules.
fn check_tag(c: &mut Checker, tag: &ResourceTag) {
    c.present("key", &tag.key, Rule::Required, |c, key| check_tag_text(c, key, MAX_TAG_KEY_CHARS));
    if let Some(value) = &tag.value {
        c.field("value", |c| check_tag_text(c, value, MAX_TAG_VALUE_CHARS));
    }
}

fn check_tag_text(c: &mut Checker, text: &str, max: usize) {
    if !is_tag_text(text) {
        c.fail(Rule::OnlyCharacters(TAG_CHARACTERS));
    }
    if text.len() > max {
        c.fail(Rule::MaxChars(max));
    }
}

model! {
    /// The body of the service-state request (`PATCH .../services/{serviceId}/state`, the
    /// contract's `ServiceStatePatchRequest`).
    pub struct UpdateServiceStateRequest {
        /// What to do: `start`, `stop` or `awake`.
        "command" command: ServiceCommand,
    }
}

impl UpdateServiceStateRequest {
    /// A request to `command` the service.
    pub fn new(command: ServiceCommand) -> Self {
        UpdateServiceStateRequest { command: Some(command), ..Default::default() }
    }
}

impl Validate for UpdateServiceStateRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(|c| {
            // The command is the whole request: without one it asks for nothing.
            c.present("command", &self.command, Rule::Required, |c, command| {
                if !command.may_be_sent() {
                    c.fail(Rule::KnownValue { known: ServiceCommand::known_texts() });
                }
            });
        })
    }
}
