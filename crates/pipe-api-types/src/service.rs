//! Services: the [`Service`] record, its endpoints and scaling (the baseline, the schedule and
//! what is in effect now), and the update-service requests.

use time::OffsetDateTime;

use crate::Text;
use crate::codec::{decimal, rfc3339};
use crate::key::check_ip_access_entry;
use crate::quantity::MemoryGb;
use crate::validate::{Checker, OpenEnum as _, Rule, Validate, ValidationErrors};
use crate::{IntoField, IpAccessEntry, ScalingScheduleEntryId, Secret, ServiceId};

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

open_enum! {
    /// The cloud provider a service runs on (management OpenAPI, `Service.provider`).
    pub enum CloudProvider {
        /// Amazon Web Services.
        Aws => "aws",
        /// Google Cloud.
        Gcp => "gcp",
        /// Microsoft Azure.
        Azure => "azure",
    }
}

open_enum! {
    /// The region a service runs in (management OpenAPI, `Service.region`): the provider's own
    /// region name. Regions are added over time; a new one is kept as `Unrecognized`.
    pub enum ServiceRegion {
        /// AWS, Tokyo.
        AwsApNortheast1 => "ap-northeast-1",
        /// AWS, Seoul.
        AwsApNortheast2 => "ap-northeast-2",
        /// AWS, Mumbai.
        AwsApSouth1 => "ap-south-1",
        /// AWS, Singapore.
        AwsApSoutheast1 => "ap-southeast-1",
        /// AWS, Sydney.
        AwsApSoutheast2 => "ap-southeast-2",
        /// AWS, Canada (Central).
        AwsCaCentral1 => "ca-central-1",
        /// AWS, Frankfurt.
        AwsEuCentral1 => "eu-central-1",
        /// AWS, Ireland.
        AwsEuWest1 => "eu-west-1",
        /// AWS, London.
        AwsEuWest2 => "eu-west-2",
        /// AWS, Tel Aviv.
        AwsIlCentral1 => "il-central-1",
        /// AWS, N. Virginia.
        AwsUsEast1 => "us-east-1",
        /// AWS, Ohio.
        AwsUsEast2 => "us-east-2",
        /// AWS, Oregon.
        AwsUsWest2 => "us-west-2",
        /// Google Cloud, South Carolina.
        GcpUsEast1 => "us-east1",
        /// Google Cloud, Iowa.
        GcpUsCentral1 => "us-central1",
        /// Google Cloud, London.
        GcpEuropeWest2 => "europe-west2",
        /// Google Cloud, Netherlands.
        GcpEuropeWest4 => "europe-west4",
        /// Google Cloud, Singapore.
        GcpAsiaSoutheast1 => "asia-southeast1",
        /// Google Cloud, Tokyo.
        GcpAsiaNortheast1 => "asia-northeast1",
        /// Azure, East US.
        AzureEastUs => "eastus",
        /// Azure, East US 2.
        AzureEastUs2 => "eastus2",
        /// Azure, West US 3.
        AzureWestUs3 => "westus3",
        /// Azure, Germany West Central.
        AzureGermanyWestCentral => "germanywestcentral",
        /// Azure, Central US.
        AzureCentralUs => "centralus",
    }
}

open_enum! {
    /// A service's tier (management OpenAPI, `Service.tier`; deprecated there for the BASIC,
    /// SCALE and ENTERPRISE organization tiers, which read `minReplicaMemoryGb`,
    /// `maxReplicaMemoryGb` and `numReplicas` instead).
    pub enum ServiceTier {
        /// Fixed size (not on Azure).
        Development => "development",
        /// Scales.
        Production => "production",
        /// Dedicated, memory-heavy.
        DedicatedHighMem => "dedicated_high_mem",
        /// Dedicated, CPU-heavy.
        DedicatedHighCpu => "dedicated_high_cpu",
        /// Dedicated, standard.
        DedicatedStandard => "dedicated_standard",
        /// Dedicated, `n2d-standard-4` machines.
        DedicatedStandardN2dStandard4 => "dedicated_standard_n2d_standard_4",
        /// Dedicated, `n2d-standard-8` machines.
        DedicatedStandardN2dStandard8 => "dedicated_standard_n2d_standard_8",
        /// Dedicated, `n2d-standard-32` machines.
        DedicatedStandardN2dStandard32 => "dedicated_standard_n2d_standard_32",
        /// Dedicated, `n2d-standard-128` machines.
        DedicatedStandardN2dStandard128 => "dedicated_standard_n2d_standard_128",
        /// Dedicated, `n2d-standard-32` machines with 16 local SSDs.
        DedicatedStandardN2dStandard32With16Ssd => "dedicated_standard_n2d_standard_32_16SSD",
        /// Dedicated, `n2d-standard-64` machines with 24 local SSDs.
        DedicatedStandardN2dStandard64With24Ssd => "dedicated_standard_n2d_standard_64_24SSD",
    }
}

open_enum! {
    /// A service's custom instance profile (management OpenAPI, `Service.profile`; ENTERPRISE
    /// organization tiers only).
    pub enum InstanceProfile {
        /// The default profile.
        V1Default => "v1-default",
        /// High memory, extra small.
        V1HighmemXs => "v1-highmem-xs",
        /// High memory, small.
        V1HighmemS => "v1-highmem-s",
        /// High memory, medium.
        V1HighmemM => "v1-highmem-m",
        /// High memory, large.
        V1HighmemL => "v1-highmem-l",
        /// High memory, extra large.
        V1HighmemXl => "v1-highmem-xl",
    }
}

open_enum! {
    /// The regulatory compliance regime of a service (management OpenAPI,
    /// `Service.complianceType`).
    pub enum ComplianceType {
        /// HIPAA.
        Hipaa => "hipaa",
        /// PCI DSS.
        Pci => "pci",
    }
}

open_enum! {
    /// How a service autoscales (management OpenAPI, `Service.autoscalingMode`, and the same
    /// values in `ScalingScheduleEntry`, `ScalingScheduleBaseConfig` and `CurrentScaling`).
    pub enum AutoscalingMode {
        /// A fixed replica count; memory per replica scales between `minReplicaMemoryGb` and
        /// `maxReplicaMemoryGb`.
        Vertical => "vertical",
        /// A fixed memory per replica (`replicaMemoryGb`); the replica count scales between
        /// `minReplicas` and `maxReplicas`.
        Horizontal => "horizontal",
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
        "port" port: u16,
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
        /// The database engine version: `engineVersion` in the spec, `clickhouseVersion` in the
        /// contract and in real answers.
        "engineVersion" | "clickhouseVersion" engine_version: Text,
        /// Where the service can be reached.
        "endpoints" endpoints: Vec<ServiceEndpoint>,
        /// Minimum total memory of three replicas while autoscaling (deprecated in the contract:
        /// read `minReplicaMemoryGb`).
        "minTotalMemoryGb" min_total_memory_gb: MemoryGb,
        /// Maximum total memory of three replicas while autoscaling (deprecated in the contract:
        /// read `maxReplicaMemoryGb`).
        "maxTotalMemoryGb" max_total_memory_gb: MemoryGb,
        /// Minimum memory per replica while autoscaling (equal to the maximum in horizontal
        /// mode).
        "minReplicaMemoryGb" min_replica_memory_gb: MemoryGb,
        /// Maximum memory per replica while autoscaling (equal to the minimum in horizontal
        /// mode).
        "maxReplicaMemoryGb" max_replica_memory_gb: MemoryGb,
        /// Number of replicas (vertical mode): a number in the spec, an integer from 1 to 20 in
        /// the contract.
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
        /// The cloud provider.
        "provider" provider: CloudProvider,
        /// The provider's region.
        "region" region: ServiceRegion,
        /// The service tier (deprecated in the contract for most organizations).
        "tier" tier: ServiceTier,
        /// The fewest replicas horizontal autoscaling keeps (horizontal mode only).
        "minReplicas" min_replicas: u32,
        /// The most replicas horizontal autoscaling makes (horizontal mode only).
        "maxReplicas" max_replicas: u32,
        /// The configured autoscaling mode: the baseline. The mode in effect now, which a
        /// schedule entry may change, is `currentScaling.effectiveAutoscalingMode`.
        "autoscalingMode" autoscaling_mode: AutoscalingMode,
        /// The fixed memory per replica (horizontal mode only).
        "replicaMemoryGb" replica_memory_gb: MemoryGb,
        /// The release channel.
        "releaseChannel" release_channel: ReleaseChannel,
        /// The custom instance profile.
        "profile" profile: InstanceProfile,
        /// The compliance regime.
        "complianceType" compliance_type: ComplianceType,
        /// Whether core dumps are collected (experimental).
        "enableCoreDumps" enable_core_dumps: bool,
        /// The service's tags (at most 50).
        "tags" tags: Vec<ResourceTag>,
        /// The weekly scaling schedule, if the service has one.
        "scalingSchedule" scaling_schedule: ScalingSchedule,
        /// The scaling in effect now: the baseline, or the active schedule entry's.
        "currentScaling" current_scaling: CurrentScaling,
    }
}

impl crate::HasState for Service {
    fn state(&self) -> Option<&str> {
        self.state.as_ref().map(ServiceState::as_str)
    }
}

model! {
    /// A service's weekly scaling schedule (management OpenAPI, `ScalingSchedule`): entries that
    /// change the scaling during given hours, and the scaling when none is active. Read only:
    /// no request of this interface sends it.
    pub struct ScalingSchedule {
        /// The schedule's entries.
        "entries" entries: Vec<ScalingScheduleEntry>,
        /// The scaling when no entry is active.
        "baseConfig" base_config: ScalingScheduleBaseConfig,
        /// The entry active now; absent when the base config is in effect.
        "activeEntryId" active_entry_id: ScalingScheduleEntryId,
    }
}

impl ScalingSchedule {
    /// The entry active now (the one `activeEntryId` names), if any.
    pub fn active_entry(&self) -> Option<&ScalingScheduleEntry> {
        let active = self.active_entry_id?;
        self.entries.iter().flatten().find(|entry| entry.id == Some(active))
    }
}

model! {
    /// An entry of a service's scaling schedule (management OpenAPI, `ScalingScheduleEntry`):
    /// the scaling from `startHourUtc` (inclusive) to `endHourUtc` (exclusive) on `weekdays`.
    /// Scheduled times are indicative: the service applies them on a best-effort basis.
    pub struct ScalingScheduleEntry {
        /// The entry's id.
        "id" id: ScalingScheduleEntryId,
        /// The entry's label.
        "name" name: Text,
        /// The days it applies to: 0 is Sunday, 1 Monday, ..., 6 Saturday.
        "weekdays" weekdays: Vec<u8>,
        /// The UTC hour it becomes active (0 to 23, inclusive).
        "startHourUtc" start_hour_utc: u8,
        /// The UTC hour it ends (1 to 24, exclusive; 24 is midnight). Below `startHourUtc`, the
        /// window spans midnight.
        "endHourUtc" end_hour_utc: u8,
        /// The autoscaling mode in the window (`vertical` for entries stored before modes).
        "autoscalingMode" autoscaling_mode: AutoscalingMode,
        /// Minimum memory per replica in the window.
        "minReplicaMemoryGb" min_replica_memory_gb: MemoryGb,
        /// Maximum memory per replica in the window.
        "maxReplicaMemoryGb" max_replica_memory_gb: MemoryGb,
        /// Minimum replicas in the window (in vertical mode, the fixed count).
        "minReplicas" min_replicas: u32,
        /// Maximum replicas in the window (in vertical mode, the fixed count).
        "maxReplicas" max_replicas: u32,
        /// Whether the service may idle in the window.
        "idleScaling" idle_scaling: bool,
        /// Minutes without use before idling, in the window.
        "idleTimeoutMinutes" idle_timeout_minutes: u32,
        /// Whether the entry is active now.
        "isActiveNow" is_active_now: bool,
    }
}

model! {
    /// A service's scaling when no schedule entry is active (management OpenAPI,
    /// `ScalingScheduleBaseConfig`).
    pub struct ScalingScheduleBaseConfig {
        /// The autoscaling mode.
        "autoscalingMode" autoscaling_mode: AutoscalingMode,
        /// Minimum memory per replica.
        "minReplicaMemoryGb" min_replica_memory_gb: MemoryGb,
        /// Maximum memory per replica.
        "maxReplicaMemoryGb" max_replica_memory_gb: MemoryGb,
        /// Minimum replicas.
        "minReplicas" min_replicas: u32,
        /// Maximum replicas.
        "maxReplicas" max_replicas: u32,
        /// Whether the service may idle.
        "idleScaling" idle_scaling: bool,
        /// Minutes without use before idling.
        "idleTimeoutMinutes" idle_timeout_minutes: u32,
    }
}

model! {
    /// The scaling in effect on a service now (management OpenAPI, `CurrentScaling`): the
    /// service's baseline fields, or the active schedule entry's values.
    pub struct CurrentScaling {
        /// The autoscaling mode in effect.
        "effectiveAutoscalingMode" effective_autoscaling_mode: AutoscalingMode,
        /// Minimum memory per replica in effect.
        "effectiveMinReplicaMemoryGb" effective_min_replica_memory_gb: MemoryGb,
        /// Maximum memory per replica in effect (a legacy service may report a range in
        /// horizontal mode).
        "effectiveMaxReplicaMemoryGb" effective_max_replica_memory_gb: MemoryGb,
        /// Minimum replicas in effect (a legacy service may report a range in vertical mode).
        "effectiveMinReplicas" effective_min_replicas: u32,
        /// Maximum replicas in effect.
        "effectiveMaxReplicas" effective_max_replicas: u32,
        /// Whether idling is in effect.
        "effectiveIdleScaling" effective_idle_scaling: bool,
        /// Minutes without use before idling, in effect.
        "effectiveIdleTimeoutMinutes" effective_idle_timeout_minutes: u32,
        /// The schedule entry whose values are in effect; absent when none is active.
        "activeEntryId" active_entry_id: ScalingScheduleEntryId,
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

    /// A tag that is only a key.
    pub fn key_only(key: impl Into<Text>) -> Self {
        ResourceTag { key: Some(key.into()), ..Default::default() }
    }
}

/// Changes to a list of a service, as the update-service request sends them (the contract's
/// `IpAccessListPatch`, `InstancePrivateEndpointsPatch`, `InstanceTagsPatch`): `remove` is
/// applied first, then `add`. Read from JSON as every model is: another member is kept in
/// `unknown`, and refused in a request unless vouched for.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct ListPatch<T> {
    /// Elements to add, after the removals.
    pub add: Option<Vec<T>>,
    /// Elements to remove, before the additions.
    pub remove: Option<Vec<T>>,
    /// Members this crate does not model, as every model keeps them.
    pub unknown: crate::UnknownFields,
}

impl<T: serde::Serialize> serde::Serialize for ListPatch<T> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        use serde::ser::SerializeMap as _;
        let mut map = serializer.serialize_map(None)?;
        for (name, items) in [("add", &self.add), ("remove", &self.remove)] {
            if let Some(items) = items {
                map.serialize_entry(name, items)?;
            }
        }
        self.unknown.serialize_entries(&mut map, &|name| match name {
            "add" => self.add.is_some(),
            "remove" => self.remove.is_some(),
            _ => false,
        })?;
        map.end()
    }
}

impl<'de, T: serde::de::DeserializeOwned> serde::Deserialize<'de> for ListPatch<T> {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PatchVisitor<T>(std::marker::PhantomData<T>);

        impl<'de, T: serde::de::DeserializeOwned> serde::de::Visitor<'de> for PatchVisitor<T> {
            type Value = ListPatch<T>;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a list patch object (add, remove)")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<ListPatch<T>, A::Error> {
                let mut patch = ListPatch::default();
                while let Some(key) = map.next_key::<crate::unknown::FieldName<'de>>()? {
                    let raw = map.next_value::<Box<serde_json::value::RawValue>>()?;
                    let slot = match key.as_str() {
                        "add" => &mut patch.add,
                        "remove" => &mut patch.remove,
                        crate::unknown::NOT_YET_KNOWN => {
                            patch.unknown.insert_not_yet_known(&raw);
                            continue;
                        }
                        other => {
                            patch.unknown.insert_raw(other, &raw);
                            continue;
                        }
                    };
                    // A list of another shape is kept, and refused as the wrong type.
                    match serde_json::from_str(raw.get()) {
                        Ok(items) => *slot = items,
                        Err(_) => patch.unknown.insert_raw(key.as_str(), &raw),
                    }
                }
                Ok(patch)
            }
        }

        deserializer.deserialize_map(PatchVisitor(std::marker::PhantomData))
    }
}

/// A field of this type: an object; anything else is kept.
impl<T: serde::de::DeserializeOwned> crate::codec::Field for ListPatch<T> {
    const EXPECTED: &'static str = "an object (add, remove)";

    crate::codec::composite_reading!();

    fn from_map<'de, A: serde::de::MapAccess<'de>>(map: A) -> Result<crate::codec::Read<Self>, A::Error> {
        crate::codec::object_from_map(map)
    }
}

impl<T> Default for ListPatch<T> {
    fn default() -> Self {
        ListPatch { add: None, remove: None, unknown: crate::UnknownFields::new() }
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
    pub fn add<Form>(mut self, items: impl IntoField<Vec<T>, Form>) -> Self {
        self.add = Some(items.into_field());
        self
    }

    /// Sets the elements to remove.
    #[must_use]
    pub fn remove<Form>(mut self, items: impl IntoField<Vec<T>, Form>) -> Self {
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
        Checker::run(self, |c| {
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
        Checker::run(self, |c| {
            // The command is the whole request: without one it asks for nothing.
            c.present("command", &self.command, Rule::Required, |c, command| {
                if !command.may_be_sent() {
                    c.fail(Rule::KnownValue { known: ServiceCommand::known_texts() });
                }
            });
        })
    }
}

impl From<ServiceCommand> for UpdateServiceStateRequest {
    fn from(command: ServiceCommand) -> Self {
        UpdateServiceStateRequest::new(command)
    }
}

/// Which services `list_services` returns (the contract's `filter` query parameter, of which
/// only resource tags are supported): every service, or those carrying every tag named here,
/// each with its value or only its key (`tag:Environment=Production`, `tag:isActive`).
#[derive(Clone, Debug, Default, PartialEq)]
#[non_exhaustive]
pub struct ServiceFilter {
    /// The tags a service must carry: a key alone matches any value.
    pub tags: Vec<ResourceTag>,
}

impl ServiceFilter {
    /// Every service.
    pub fn any() -> Self {
        ServiceFilter::default()
    }

    /// Narrows to services tagged `key` with `value`.
    #[must_use]
    pub fn tag(mut self, key: impl Into<Text>, value: impl Into<Text>) -> Self {
        self.tags.push(ResourceTag::new(key, value));
        self
    }

    /// Narrows to services tagged `key`, whatever its value.
    #[must_use]
    pub fn tag_key(mut self, key: impl Into<Text>) -> Self {
        self.tags.push(ResourceTag::key_only(key));
        self
    }

    /// The `filter` parameter's values, one per tag, in order.
    pub fn values(&self) -> Vec<String> {
        let tag = |tag: &ResourceTag| match (&tag.key, &tag.value) {
            (Some(key), Some(value)) => format!("tag:{key}={value}"),
            (key, _) => format!("tag:{}", key.as_deref().unwrap_or_default()),
        };
        self.tags.iter().map(tag).collect()
    }
}

/// Each tag follows the tag rules (its key and value within the contract's characters and
/// lengths), so that a filter is never sent that could not match.
impl Validate for ServiceFilter {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(&(), |c| c.field("filter", |c| c.each(&self.tags, check_tag)))
    }
}

/// The contract's replica memory bounds (`minReplicaMemoryGb`, `maxReplicaMemoryGb`): 8 to
/// 356 gigabytes, a multiple of 4.
const REPLICA_MEMORY_GB: (i64, i64, i64) = (8, 356, 4);
/// The contract's replica count bounds (`numReplicas`, `minReplicas`, `maxReplicas`).
const REPLICAS: (i64, i64) = (1, 20);
/// The contract's `idleTimeoutMinutes`: at least 5.
const MIN_IDLE_TIMEOUT_MINUTES: i64 = 5;

/// The scaling members the create-service and replica-scaling requests share, checked by the
/// contract's rules: memory per replica from 8 to 356 gigabytes in steps of 4, the minimum not
/// above the maximum; replica counts from 1 to 20; `numReplicas` excludes `minReplicas` and
/// `maxReplicas`, which come together, the minimum not above the maximum; horizontal mode takes
/// no `numReplicas` and one memory size; the idle timeout at least 5 minutes.
struct ScalingMembers<'a> {
    mode: &'a Option<AutoscalingMode>,
    min_memory: &'a Option<MemoryGb>,
    max_memory: &'a Option<MemoryGb>,
    num_replicas: Option<u32>,
    min_replicas: Option<u32>,
    max_replicas: Option<u32>,
    idle_timeout_minutes: Option<f64>,
}

impl ScalingMembers<'_> {
    fn check(&self, c: &mut Checker) {
        let (min_gb, max_gb, step) = REPLICA_MEMORY_GB;
        for (name, memory) in [("minReplicaMemoryGb", self.min_memory), ("maxReplicaMemoryGb", self.max_memory)] {
            if let Some(memory) = memory {
                let gb = memory.value();
                if !gb.is_finite() {
                    c.fail_at(name, Rule::FiniteNumber);
                } else if gb < min_gb as f64 || gb > max_gb as f64 {
                    c.fail_at(name, Rule::Range { min: min_gb, max: max_gb });
                } else if gb % step as f64 != 0.0 {
                    c.fail_at(name, Rule::MultipleOf(step));
                }
            }
        }
        if let (Some(min), Some(max)) = (self.min_memory, self.max_memory) {
            if min.value() > max.value() {
                c.fail_at("maxReplicaMemoryGb", Rule::NotLessThan("minReplicaMemoryGb"));
            }
        }
        let (fewest, most) = REPLICAS;
        for (name, count) in
            [("numReplicas", self.num_replicas), ("minReplicas", self.min_replicas), ("maxReplicas", self.max_replicas)]
        {
            if count.is_some_and(|count| !(fewest..=most).contains(&i64::from(count))) {
                c.fail_at(name, Rule::Range { min: fewest, max: most });
            }
        }
        let band = self.min_replicas.is_some() || self.max_replicas.is_some();
        if self.num_replicas.is_some() && band {
            c.fail_at("numReplicas", Rule::NotAllowedBecause("minReplicas or maxReplicas is set"));
        }
        match (self.min_replicas, self.max_replicas) {
            (Some(_), None) => c.fail_at("maxReplicas", Rule::RequiredBecause("minReplicas is set")),
            (None, Some(_)) => c.fail_at("minReplicas", Rule::RequiredBecause("maxReplicas is set")),
            (Some(min), Some(max)) if min > max => c.fail_at("maxReplicas", Rule::NotLessThan("minReplicas")),
            _ => {}
        }
        if self.mode.as_ref() == Some(&AutoscalingMode::Horizontal) {
            if self.num_replicas.is_some() {
                c.fail_at("numReplicas", Rule::NotAllowedBecause("autoscalingMode is horizontal"));
            }
            if let (Some(min), Some(max)) = (self.min_memory, self.max_memory) {
                if min.value() != max.value() {
                    c.fail_at("maxReplicaMemoryGb", Rule::Equals("minReplicaMemoryGb"));
                }
            }
        }
        c.known("autoscalingMode", self.mode);
        if let Some(minutes) = self.idle_timeout_minutes {
            if !minutes.is_finite() {
                c.fail_at("idleTimeoutMinutes", Rule::FiniteNumber);
            } else if minutes < MIN_IDLE_TIMEOUT_MINUTES as f64 {
                c.fail_at("idleTimeoutMinutes", Rule::Min(MIN_IDLE_TIMEOUT_MINUTES));
            }
        }
    }
}

model! {
    /// The body of the create-service request (`POST .../services`, the contract's
    /// `ServicePostRequest`). `name`, `provider` and `region` are required; the scaling is
    /// `minReplicaMemoryGb`/`maxReplicaMemoryGb` with `numReplicas` (vertical, the default), or
    /// `autoscalingMode` horizontal with `minReplicas`/`maxReplicas`.
    pub struct CreateServiceRequest {
        /// The service's name: 1 to 50 characters (names are not unique).
        "name" name: Text,
        /// The cloud provider.
        "provider" provider: CloudProvider,
        /// The provider's region.
        "region" region: ServiceRegion,
        /// The tier (deprecated for most organizations: set the replica memory instead).
        "tier" tier: ServiceTier,
        /// Where the service may be reached from.
        "ipAccessList" ip_access_list: Vec<IpAccessEntry>,
        /// Minimum total memory of three replicas (deprecated: `minReplicaMemoryGb`).
        "minTotalMemoryGb" min_total_memory_gb: MemoryGb,
        /// Maximum total memory of three replicas (deprecated: `maxReplicaMemoryGb`).
        "maxTotalMemoryGb" max_total_memory_gb: MemoryGb,
        /// How the service autoscales (`vertical` when absent).
        "autoscalingMode" autoscaling_mode: AutoscalingMode,
        /// Minimum memory per replica: 8 to 356, a multiple of 4.
        "minReplicaMemoryGb" min_replica_memory_gb: MemoryGb,
        /// Maximum memory per replica: 8 to 356, a multiple of 4.
        "maxReplicaMemoryGb" max_replica_memory_gb: MemoryGb,
        /// The fixed replica count (vertical mode): 1 to 20.
        "numReplicas" num_replicas: u32,
        /// The fewest replicas (horizontal mode): 1 to 20, with `maxReplicas`.
        "minReplicas" min_replicas: u32,
        /// The most replicas (horizontal mode): 1 to 20, with `minReplicas`.
        "maxReplicas" max_replicas: u32,
        /// Whether the service may idle when unused.
        "idleScaling" idle_scaling: bool,
        /// Minutes without use before idling: at least 5.
        "idleTimeoutMinutes" idle_timeout_minutes: f64 as decimal,
        /// Whether the service is read-only (only within a data warehouse).
        "isReadonly" is_readonly: bool,
        /// The data warehouse the service joins.
        "dataWarehouseId" data_warehouse_id: Text,
        /// A backup to start from.
        "backupId" backup_id: Text,
        /// The customer-managed disk encryption key.
        "encryptionKey" encryption_key: Text,
        /// The role assumed to use the encryption key.
        "encryptionAssumedRoleIdentifier" encryption_assumed_role_identifier: Text,
        /// Private endpoints to attach (deprecated: attach them with an update).
        "privateEndpointIds" private_endpoint_ids: Vec<Text>,
        /// Accepts the private preview terms.
        "privatePreviewTermsChecked" private_preview_terms_checked: bool,
        /// The release channel.
        "releaseChannel" release_channel: ReleaseChannel,
        /// The bring-your-own-cloud region id.
        "byocId" byoc_id: Text,
        /// Whether transparent data encryption is on (ENTERPRISE tiers only).
        "hasTransparentDataEncryption" has_transparent_data_encryption: bool,
        /// Endpoints to turn on or off (only `mysql`).
        "endpoints" endpoints: Vec<ServiceEndpointChange>,
        /// The custom instance profile (ENTERPRISE tiers only).
        "profile" profile: InstanceProfile,
        /// The compliance regime.
        "complianceType" compliance_type: ComplianceType,
        /// The service's tags (at most 50).
        "tags" tags: Vec<ResourceTag>,
        /// Whether to collect core dumps.
        "enableCoreDumps" enable_core_dumps: bool,
    }
}

impl CreateServiceRequest {
    /// A request for a service named `name` on `provider` in `region`.
    pub fn new(name: impl Into<Text>, provider: CloudProvider, region: ServiceRegion) -> Self {
        CreateServiceRequest {
            name: Some(name.into()),
            provider: Some(provider),
            region: Some(region),
            ..Default::default()
        }
    }
}

impl Validate for CreateServiceRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            c.present("name", &self.name, Rule::Required, |c, name| {
                c.text(name);
                if name.chars().count() > MAX_SERVICE_NAME_CHARS {
                    c.fail(Rule::MaxChars(MAX_SERVICE_NAME_CHARS));
                }
            });
            c.present("provider", &self.provider, Rule::Required, |c, provider| {
                if !provider.may_be_sent() {
                    c.fail(Rule::KnownValue { known: CloudProvider::known_texts() });
                }
            });
            c.present("region", &self.region, Rule::Required, |c, region| {
                if !region.may_be_sent() {
                    c.fail(Rule::KnownValue { known: ServiceRegion::known_texts() });
                }
            });
            for (name, value) in [
                ("tier", self.tier.as_ref().map(|v| (v.may_be_sent(), ServiceTier::known_texts()))),
                (
                    "releaseChannel",
                    self.release_channel.as_ref().map(|v| (v.may_be_sent(), ReleaseChannel::known_texts())),
                ),
                ("profile", self.profile.as_ref().map(|v| (v.may_be_sent(), InstanceProfile::known_texts()))),
                (
                    "complianceType",
                    self.compliance_type.as_ref().map(|v| (v.may_be_sent(), ComplianceType::known_texts())),
                ),
            ] {
                if let Some((false, known)) = value {
                    c.fail_at(name, Rule::KnownValue { known });
                }
            }
            ScalingMembers {
                mode: &self.autoscaling_mode,
                min_memory: &self.min_replica_memory_gb,
                max_memory: &self.max_replica_memory_gb,
                num_replicas: self.num_replicas,
                min_replicas: self.min_replicas,
                max_replicas: self.max_replicas,
                idle_timeout_minutes: self.idle_timeout_minutes,
            }
            .check(c);
            if let Some(entries) = &self.ip_access_list {
                c.field("ipAccessList", |c| c.each(entries, check_ip_access_entry));
            }
            if let Some(tags) = &self.tags {
                c.field("tags", |c| {
                    if tags.len() > MAX_TAGS_PER_PATCH {
                        c.fail(Rule::MaxItems(MAX_TAGS_PER_PATCH));
                    }
                    c.each(tags, check_tag);
                });
            }
            if let Some(endpoints) = &self.endpoints {
                c.field("endpoints", |c| c.each(endpoints, check_endpoint_change));
            }
        })
    }
}

/// The contract's `ServiceEndpointChange.protocol` lists only `mysql`.
fn check_endpoint_change(c: &mut Checker, change: &ServiceEndpointChange) {
    let changeable =
        change.protocol.as_ref().is_none_or(|p| *p == EndpointProtocol::Mysql || (!p.is_known() && p.may_be_sent()));
    if !changeable {
        c.fail_at("protocol", Rule::KnownValue { known: vec!["mysql"] });
    }
}

model! {
    /// The result of the create-service call: the new service (normally `provisioning`) and the
    /// password of its default user, which the server shows only this once.
    pub struct CreateServiceResponse {
        /// The new service.
        "service" service: Service,
        /// The default user's password: shown in this answer only, never again.
        "password" password: Secret,
    }
}

model! {
    /// The body of the replica-scaling request (`PATCH .../services/{serviceId}/replicaScaling`,
    /// the contract's `ServiceReplicaScalingPatchRequest`): only what is set is changed. The
    /// server applies it asynchronously: the service reports it once applied.
    pub struct UpdateServiceReplicaScalingRequest {
        /// Minimum memory per replica: 8 to 356, a multiple of 4.
        "minReplicaMemoryGb" min_replica_memory_gb: MemoryGb,
        /// Maximum memory per replica: 8 to 356, a multiple of 4.
        "maxReplicaMemoryGb" max_replica_memory_gb: MemoryGb,
        /// The target autoscaling mode; absent keeps the current one.
        "autoscalingMode" autoscaling_mode: AutoscalingMode,
        /// The fixed replica count (vertical mode): 1 to 20.
        "numReplicas" num_replicas: u32,
        /// The fewest replicas (horizontal mode): 1 to 20, with `maxReplicas`.
        "minReplicas" min_replicas: u32,
        /// The most replicas (horizontal mode): 1 to 20, with `minReplicas`.
        "maxReplicas" max_replicas: u32,
        /// Whether the service may idle when unused.
        "idleScaling" idle_scaling: bool,
        /// Minutes without use before idling: at least 5.
        "idleTimeoutMinutes" idle_timeout_minutes: f64 as decimal,
    }
}

impl UpdateServiceReplicaScalingRequest {
    /// A request that changes nothing yet: set what should change with the setters.
    pub fn new() -> Self {
        UpdateServiceReplicaScalingRequest::default()
    }
}

impl Validate for UpdateServiceReplicaScalingRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            ScalingMembers {
                mode: &self.autoscaling_mode,
                min_memory: &self.min_replica_memory_gb,
                max_memory: &self.max_replica_memory_gb,
                num_replicas: self.num_replicas,
                min_replicas: self.min_replicas,
                max_replicas: self.max_replicas,
                idle_timeout_minutes: self.idle_timeout_minutes,
            }
            .check(c);
        })
    }
}

model! {
    /// The body of the service-password request (`PATCH .../services/{serviceId}/password`, the
    /// contract's `ServicePasswordPatchRequest`): empty, the server generates a password and
    /// answers it once; with `newPasswordHash`, the password is the one hashed and nothing
    /// secret is answered, so a password chosen by the user never travels in clear. The hashes
    /// are [`Secret`]s all the same: a password's unsalted hash can be cracked offline, so
    /// `Debug`, renderings and errors show neither; the body sent carries both.
    pub struct UpdateServicePasswordRequest {
        /// The base64 of the SHA-256 of the password (`echo -n "$password" | sha256sum | tr
        /// -d '-' | xxd -r -p | base64`).
        "newPasswordHash" new_password_hash: Secret,
        /// The hex of the SHA-1 of the SHA-1 of the password, for the MySQL protocol (`echo -n
        /// "$password" | sha1sum | tr -d '-' | xxd -r -p | sha1sum | tr -d '-'`); only with
        /// `newPasswordHash` (without it the server ignores it).
        "newDoubleSha1Hash" new_double_sha1_hash: Secret,
    }
}

impl UpdateServicePasswordRequest {
    /// A request for a password the server generates and answers once.
    pub fn generate() -> Self {
        UpdateServicePasswordRequest::default()
    }

    /// A request setting the password whose SHA-256, in base64, is `sha256_base64`: the
    /// password itself is never sent. Add [`new_double_sha1_hash`](Self::new_double_sha1_hash)
    /// for the MySQL protocol.
    pub fn hashed(sha256_base64: impl Into<Secret>) -> Self {
        UpdateServicePasswordRequest { new_password_hash: Some(sha256_base64.into()), ..Default::default() }
    }
}

/// What `newDoubleSha1Hash` is: a SHA-1 digest in hex.
const DOUBLE_SHA1_FORM: &str = "of 40 hexadecimal digits (a SHA-1 digest)";

impl Validate for UpdateServicePasswordRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            if let Some(hash) = &self.new_password_hash {
                if !crate::validate::is_base64_of_32_bytes(hash.expose_secret()) {
                    c.fail_at("newPasswordHash", Rule::Base64Of32Bytes);
                }
            }
            if let Some(hash) = &self.new_double_sha1_hash {
                if self.new_password_hash.is_none() {
                    c.fail_at(
                        "newDoubleSha1Hash",
                        Rule::NotAllowedBecause("newPasswordHash is absent: the server would ignore it"),
                    );
                }
                let hash = hash.expose_secret();
                if hash.len() != 40 || !hash.bytes().all(|b| b.is_ascii_hexdigit()) {
                    c.fail_at("newDoubleSha1Hash", Rule::Format(DOUBLE_SHA1_FORM));
                }
            }
        })
    }
}

model! {
    /// The result of the service-password call (the contract's `ServicePasswordPatchResponse`):
    /// the generated password, shown this once; absent when the request sent `newPasswordHash`.
    pub struct UpdateServicePasswordResponse {
        /// The new password, if the server generated it.
        "password" password: Secret,
    }
}
