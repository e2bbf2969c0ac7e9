//! Models of the pipe management interface (`/v1`) and the alerting interface (`/api/v2`):
//! keys, services, pipes, reverse private endpoints and alerts, with their ids, open enums,
//! secrets and request validation. No HTTP and no IO here; see `pipe-api-proto` for that.
//!
//! ```
//! use pipe_api_types::{CreateKeyRequest, IpAccessEntry, Pipe, PipeState, Rule, Validate};
//!
//! // Reading: unknown enum values and unknown fields are kept, never an error.
//! let pipe: Pipe = serde_json::from_str(
//!     r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","state":"Hibernating","newField":[1,2]}"#,
//! )?;
//! assert_eq!(pipe.state.as_ref().map(PipeState::as_str), Some("Hibernating"));
//! assert!(serde_json::to_string(&pipe)?.contains(r#""newField":[1,2]"#));
//!
//! // Writing: requests are validated first, and every violation names its field and rule.
//! let mut request = CreateKeyRequest::new("ci", []);
//! request.ip_access_list = Some(vec![IpAccessEntry::new("10.0.0.0/33", "office")]);
//! let errors = request.validate().unwrap_err();
//! assert!(errors.contains("roles", &Rule::MinItems(1)));
//! assert!(errors.contains("ipAccessList[0].source", &Rule::IpAddressOrCidr));
//! # Ok::<(), Box<dyn std::error::Error>>(())
//! ```
//!
//! # What every model promises
//! * **Forward compatible**: enumerated strings the server owns are open
//!   ([`PipeState::Unrecognized`]): an unknown value is kept and written back. An unknown JSON
//!   field never fails a read. Only an object's own `id` is required when reading; everything
//!   else is optional.
//! * **Lossless**: fields this crate does not model are kept in each object's `unknown`
//!   ([`UnknownFields`]), at every level, and written back unchanged after the known fields;
//!   `unknown.get("name")` gives a field's raw JSON text (`"zstd"`, `[1,2]`),
//!   [`get_value`](UnknownFields::get_value) parses it.
//! * **Lenient reads**: a value that does not fit its field's type reads as absent and is kept,
//!   among the object's unknown fields, so it is written back. That holds for every scalar
//!   field: dates (`2024-05-01T10:00Z`, not RFC 3339), numbers (`port: 8443.5` or `70000`),
//!   quantities that are no number, text (`"name": 5`), bools (`"managedTable": "true"`), open
//!   enums (`"state": 3`), UUID ids (`"serviceId": "nope"`) and secrets; and for a list or object
//!   field given anything but a list or object (`"fieldMappings": "x"`). Numeric fields read any
//!   JSON number form (`5432.0`, `5.432e3`). A kept value is written back as the same JSON value
//!   (integers, bools, `null` and strings without escapes exactly; string escapes as serde_json
//!   writes them, floats in shortest form, a number beyond 64 bits as the nearest float, object
//!   members sorted by name), because it is captured only when it does not fit, so a value that
//!   fits costs nothing more to read. A list with an element that does not fit
//!   (`"roles": ["admin", 5]`) is kept whole, the same way. What still fails a read: an object's
//!   missing or malformed own `id`, and a number beyond a float's range (`1e400`) in a known
//!   field, which serde_json refuses to read as a number.
//! * **Secret-safe**: credentials (key secrets, passwords, secret keys, private keys,
//!   connection strings) are [`Secret`]s: `Debug` prints `Secret([redacted])`, and there is no
//!   `Display`.
//! * **Strict writes**: request models implement [`Validate`] and are checked before anything is
//!   sent, reporting every violation with its field path ([what is
//!   validated](#what-is-validated-before-sending)).
//! * **Plain serde**: one decode path. Models are `Serialize` and `DeserializeOwned` and own
//!   their data; a user's own endpoint (pipe-api-proto's `Endpoint`) takes any of them, or any
//!   `DeserializeOwned` type of the user's, as `type Output = Decoded<T>`. No decoded
//!   value keeps the response body alive.
//! * **Text** fields are [`Text`]s: an owned string that reads like `&str` (`as_deref()`, `==`
//!   with `&str`, `Display`), is built from `&str` or `String`, and keeps texts of up to 24 bytes
//!   inline (most names, types and states), so a decoded list does not allocate each one.
//! * **Setters take what you write** ([`IntoField`]): `.port(5432)`, `.replicas(2)`,
//!   `.name("orders")`, `.sorting_keys(["id", "at"])`, `.roles([KeyRole::Admin])`, and `[]` or
//!   `vec![]` for an empty list, with no annotation.
//! * **Quantities carry their unit in the type**: [`CpuMillicores`] (`Quantity<Millicores>`) and
//!   [`MemoryGb`] (`Quantity<Gigabytes>`), built with [`Quantity::millicores(500)`](Quantity::millicores)
//!   and [`Quantity::gigabytes(0.5)`](Quantity::gigabytes) (or a plain number in a setter:
//!   `.replica_cpu_millicores(500)`, `.replica_memory_gb(0.5)`), so gigabytes given where
//!   millicores belong do not compile. `replicaCpuMillicores` reads a number of millicores or a
//!   Kubernetes quantity of cores (`"500m"`, `"1.5"`); every memory field (`replicaMemoryGb`, the
//!   services' `...MemoryGb`) a number or numeric string of gigabytes (`"0.5"`) or a suffixed
//!   quantity of bytes (`"512Mi"`, `"2Gi"`). A value read as a string is written back as that
//!   string.
//!
//! # serde_json features
//! This crate switches on serde_json's `raw_value` feature, because [`UnknownFields`] keeps each
//! unknown field as its exact JSON text (a parsed tree would reorder keys and round numbers). No
//! other feature is switched on for you. The models are JSON models: they decode from
//! serde_json's deserializers and `serde_json::Value`, not from other formats.
//!
//! # What is validated before sending
//!
//! Every request model is checked before anything is built from it: `pipe-api-proto`'s
//! `build_request` and every `pipe-api-ureq` `Client` method refuse a request that breaks a rule,
//! send nothing, and list every violation at once with its JSON path and the rule
//! (`source.kafka.authentication must be one of PLAIN, MUTUAL_TLS for type confluent`). Each rule
//! comes from the specification, the vendor's OpenAPI contract or the notes on what the services
//! do, and the code names its source beside it. Nothing else is refused: what the contract leaves
//! open is sent as given, and the service has the last word (the fake checks the same rules on
//! its own, from its own reading of the contract).
//!
//! * **Everywhere:** required fields are present; texts are not blank and hold no control
//!   characters; an enum value this crate does not know is refused as a likely typo
//!   (`authentication("PLAN")`), unless built with the enum's `not_yet_known`, the one way to
//!   send a value newer than this crate.
//! * **Strict in, lenient out.** What a server sends is read leniently and losslessly (above).
//!   What a user writes (a request model read from JSON text, a desired state) is read strictly:
//!   at any depth, a member this crate does not know is refused at its whole path with the
//!   nearest known name (``source.objectStorage.isContinous` is not a field this crate knows
//!   (did you mean `isContinuous`?)``), and a value of the wrong type says what its field takes
//!   (``destination.managedTable` must be true or false; found a string``), before anything is
//!   sent. A member newer than this crate is sent on purpose: in JSON under
//!   [`"$notYetKnown"`](NOT_YET_KNOWN) (`{"replicas": 2, "$notYetKnown": {"burstReplicas": 4}}`
//!   sends `burstReplicas` as it is), in code with [`UnknownFields::insert`]. What a server sent
//!   can always be sent back: proto vouches for what it decodes ([`Vouch`]), so an alert read,
//!   changed and sent back with `PUT` keeps every member this crate does not know. (A value
//!   read with plain serde from a server's text is vouched for with [`Vouch::vouch`].)
//! * **Keys:** `roles` has at least 1 element, each known; `ipAccessList[].source` is an IPv4 or
//!   IPv6 address or CIDR block; `hashData` hashes are base64 of 32 bytes, and `keyIdSuffix` is
//!   either the key id's last 4 characters or a SHA-256 in base64 (the contract reads both ways).
//! * **Services:** name at most 50 characters; at most 50 tags per change, keys of up to 128 and
//!   values of up to 256 letters, digits, `.`, `_` and `-`; the MySQL endpoint's protocol; the
//!   state command.
//! * **Creating a pipe:** name at most 255 characters; exactly one source kind. Kafka needs
//!   `type`, `format`, `brokers`, `topics` and `authentication`; object storage `type` and
//!   `format`, and `azureContainerName` for Azure Blob Storage or `url` for every other type;
//!   Kinesis `format`, `streamName`, `region`, `iteratorType` and `authentication`; Postgres
//!   `host`, `port` (1 to 65535), `database` and at least one table mapping. The `format` must be
//!   one its kind allows, and the `authentication` one its Kafka or object storage `type` allows
//!   (Event Hubs: `PLAIN` with `credentials.connectionString`; MSK: `SCRAM-SHA-512`, `IAM_ROLE`,
//!   `IAM_USER`, `MUTUAL_TLS`; ...); each authentication needs its credentials (a user and
//!   password, a connection string, a service account key, an access key, an `iamRole`). A schema
//!   registry is reached over https; a Kafka offset `from_timestamp` and a Kinesis iterator
//!   `AT_TIMESTAMP` need their timestamp; `startAfter` is not sent with `skipInitialLoad`.
//!   Postgres settings respect their minimums, `replicationSlotName` goes only with `cdc_only`,
//!   table mappings have no repeated `excludedColumns` or `sortingKeys`, and
//!   `useCustomSortingKey` needs `sortingKeys`. The destination needs a `table` (except Postgres,
//!   whose tables are in the mappings); `database` is optional, as the service defaults it.
//! * **Changing a pipe:** the same source rules for what an update may change;
//!   `scaling.replicas` 1 to 40, `replicaCpuMillicores` 125 to 2000, `replicaMemoryGb` 0.5 to 8;
//!   every `settings` range of the contract (on create too); CDC scaling in whole cores from 1 to
//!   32 with 4 GB of memory per core; schema discovery for Kafka and Kinesis sources only.
//! * **Reverse private endpoints:** description at most 255 characters; what each `type` needs
//!   (a VPC endpoint service name, a resource configuration and share, an MSK cluster and its
//!   authentication, a GCP service attachment of the form
//!   `projects/{project}/regions/{region}/serviceAttachments/{name}`); custom DNS mappings are
//!   exact or leading-wildcard names, not repeated.
//! * **Alerts:** a source, a finite `threshold`, its type and interval; `thresholdMax` (not below
//!   `threshold`) for `between` and `not_between`; a schedule offset within a day; a `channel`
//!   or 1 to 10 distinct `channels` (the first equal to `channel` when both are sent: the
//!   constructors set `channel` only, and `channels` goes only when set); names and messages
//!   within their lengths.

#![forbid(unsafe_code)]
#![warn(missing_docs)]

#[macro_use]
mod macros;

mod alert;
mod codec;
mod id;
pub mod into_field;
mod key;
mod nullable;
mod organization;
mod pipe;
mod pipe_settings;
mod pipe_source;
mod pipe_update;
mod quantity;
mod reverse_private_endpoint;
mod schema_discovery;
mod secret;
mod service;
mod state;
mod text;
pub(crate) mod unknown;
pub(crate) mod validate;
mod vouch;

pub use alert::*;
pub use id::{
    AlertId, IdError, KeyId, OrganizationId, PipeId, ReversePrivateEndpointId, RoleId, ScalingScheduleEntryId,
    ServiceId,
};
pub use into_field::IntoField;
pub use key::*;
pub use nullable::Nullable;
pub use organization::*;
pub use pipe::*;
pub use pipe_settings::*;
pub use pipe_source::*;
pub use pipe_update::*;
pub use quantity::{CpuMillicores, Gigabytes, MemoryGb, Millicores, Quantity, Unit};
pub use reverse_private_endpoint::*;
pub use schema_discovery::*;
pub use secret::Secret;
pub use service::*;
pub use state::HasState;
pub use text::Text;
pub use unknown::{NOT_YET_KNOWN, UnknownFields, Unrecognized};
pub use validate::{Rule, Validate, ValidationErrors, Violation};
pub use vouch::Vouch;

#[cfg(test)]
mod tests;

/// This crate's README, compiled and run as doc tests, so it cannot drift from the API.
#[doc = include_str!("../README.md")]
#[cfg(doctest)]
pub struct ReadmeDoctests;
