//! Models of the pipe management interface (`/v1`) and the alerting interface (`/api/v2`):
//! keys, services, pipes, reverse private endpoints and alerts, with their ids, open enums,
//! secrets and request validation. No HTTP and no IO here; see `pipe-api-proto` for that.
//!
//! ```
//! use pipe_api_types::{CreateKeyRequest, IpAccessEntry, KeyRole, Pipe, PipeState, Rule, Validate};
//!
//! // Reading: unknown enum values and unknown fields are kept, never an error.
//! let pipe: Pipe = serde_json::from_str(
//!     r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","state":"Hibernating","newField":[1,2]}"#,
//! )?;
//! assert_eq!(pipe.state.as_ref().map(PipeState::as_str), Some("Hibernating"));
//! assert!(serde_json::to_string(&pipe)?.contains(r#""newField":[1,2]"#));
//!
//! // Writing: requests are validated first, and every violation names its field and rule.
//! let mut request = CreateKeyRequest::new("ci", Vec::<KeyRole>::new());
//! request.ip_access_list = Some(vec![IpAccessEntry::new("10.0.0.0/33", "office")]);
//! let errors = request.validate().unwrap_err();
//! assert!(errors.contains("roles", &Rule::MinItems(1)));
//! assert!(errors.contains("ipAccessList[0].source", &Rule::IpAddressOrCidr));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What every model promises
//! * **Forward compatible**: enums the server owns are open ([`PipeState::Unrecognized`]); an
//!   unknown JSON field never fails a read. Only an object's own `id` is required.
//! * **Lossless**: fields this crate does not model are kept in each object's `unknown`
//!   ([`UnknownFields`]), at every level, and written back after the known fields.
//! * **Secret-safe**: credentials are [`Secret`]s: redacted in `Debug`, no `Display`.
//! * **Strict writes**: request models implement [`Validate`].
//! * **Plain serde**: models are `Serialize` and `DeserializeOwned` and own their data; text
//!   fields are [`Text`]s (owned, short ones inline). Setters take what a user writes ([`IntoField`]): `.port(5432)`,
//!   `.topics(["a", "b"])`.
//!
//! # serde_json features
//! This crate switches on serde_json's `raw_value` feature, because [`UnknownFields`] keeps each
//! unknown field as its exact JSON text (a parsed tree would reorder keys and round numbers).
//! The models are JSON models: they decode from serde_json's deserializers and
//! `serde_json::Value`, not from other formats.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[macro_use]
mod macros;

mod alert;
mod codec;
mod id;
mod into_field;
mod key;
mod pipe;
mod pipe_settings;
mod pipe_source;
mod pipe_update;
mod quantity;
mod reverse_private_endpoint;
mod secret;
mod service;
mod text;
pub(crate) mod unknown;
pub(crate) mod validate;

pub use alert::{
    Alert, AlertChannel, AlertErrorType, AlertExecutionError, AlertInterval, AlertRequest, AlertSilenced, AlertSource,
    AlertState, ChannelType, PaginationMeta, ThresholdType,
};
pub use codec::{format_zoneless, parse_rfc3339, parse_zoneless};
pub use id::{
    AlertId, IdError, KeyId, OrganizationId, PipeId, ReversePrivateEndpointId, RoleId, ScalingScheduleEntryId,
    ServiceId,
};
pub use into_field::IntoField;
pub use key::{
    AssignedRole, CreateKeyRequest, CreateKeyResponse, IpAccessEntry, Key, KeyExpiry, KeyHashData, KeyRole, KeyState,
    RoleType, UpdateKeyRequest,
};
pub use pipe::{
    CreatePipeRequest, Destination, DestinationColumn, FieldMapping, Pipe, PipeSettings, PipeState, Scaling,
    TableDefinition, TableEngine,
};
pub use pipe_settings::{
    PipeSchemaDiscoveryField, PipeSchemaDiscoveryMeta, PipeSchemaDiscoveryRequest, PipeSchemaDiscoveryResponse,
    PipesCdcScaling,
};
pub use pipe_source::{
    Authentication, Compression, Credentials, DataFormat, IteratorType, KafkaOffset, KafkaSource, KafkaType,
    KinesisSource, ObjectStorageSource, ObjectStorageType, OffsetStrategy, PipeSource, PostgresSettings,
    PostgresSource, PostgresTableMapping, PostgresType, ReplicationMode, SchemaRegistry, SourceKind, TableEngineType,
};
pub use pipe_update::{
    ChangePipeStateRequest, DestinationPatch, KafkaSourcePatch, KinesisSourcePatch, ObjectStorageSourcePatch,
    PipeCommand, PipeSourcePatch, PostgresSettingsPatch, PostgresSourcePatch, UpdatePipeRequest,
};
pub use quantity::{CpuMillicores, Gigabytes, MemoryGb, Millicores, Quantity, Unit, parse_kubernetes_quantity};
pub use reverse_private_endpoint::{
    CreateReversePrivateEndpointRequest, CustomPrivateDnsMapping, MskAuthentication, ReversePrivateEndpoint,
    ReversePrivateEndpointStatus, ReversePrivateEndpointType, UpdateReversePrivateEndpointRequest,
};
pub use secret::Secret;
pub use service::{
    AutoscalingMode, CloudProvider, ComplianceType, CurrentScaling, EndpointProtocol, InstanceProfile,
    IpAccessListPatch, ListPatch, PrivateEndpointIdsPatch, ReleaseChannel, ResourceTag, ScalingSchedule,
    ScalingScheduleBaseConfig, ScalingScheduleEntry, Service, ServiceCommand, ServiceEndpoint, ServiceEndpointChange,
    ServiceRegion, ServiceState, ServiceTier, TagsPatch, UpdateServiceRequest, UpdateServiceStateRequest,
};
pub use text::Text;
pub use unknown::{UnknownFields, Unrecognized};
pub use validate::{
    Rule, Validate, ValidationErrors, Violation, has_control_characters, is_base64_of_32_bytes, is_ip_address_or_cidr,
};

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
