//! Ids. Each kind of UUID id is its own type, so one cannot be passed where another is expected.

use std::fmt;

uuid_id! {
    /// The id of an organization (`organizationId`).
    pub struct OrganizationId;
}

uuid_id! {
    /// The id of a service (`serviceId`).
    pub struct ServiceId;
}

uuid_id! {
    /// The id of a pipe (`pipeId`).
    pub struct PipeId;
}

uuid_id! {
    /// The management id of an API key (`Key.id`). This is not the `keyId` that authenticates
    /// requests: that one is a credential, returned once by the create-key call.
    pub struct KeyId;
}

uuid_id! {
    /// The id of a role that can be assigned to a key (`assignedRoleIds`, newer servers).
    pub struct RoleId;
}

uuid_id! {
    /// The id of a reverse private endpoint.
    pub struct ReversePrivateEndpointId;
}

uuid_id! {
    /// The id of an entry of a service's scaling schedule (`ScalingScheduleEntry.id`,
    /// `activeEntryId`).
    pub struct ScalingScheduleEntryId;
}

/// The id of an alert. The alerting server's ids are not UUIDs (they look like
/// `65f5e4a3b9e77c001a123456`), so this is a string.
#[derive(Clone, Debug, PartialEq, Eq, Hash, PartialOrd, Ord, serde::Serialize, serde::Deserialize)]
#[serde(transparent)]
pub struct AlertId(String);

impl crate::IntoField<AlertId> for AlertId {
    fn into_field(self) -> AlertId {
        self
    }
}

impl AlertId {
    /// Wraps an alert id.
    pub fn new(id: impl Into<String>) -> Self {
        AlertId(id.into())
    }

    /// The id's text.
    pub fn as_str(&self) -> &str {
        &self.0
    }
}

impl fmt::Display for AlertId {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.0)
    }
}

impl From<&str> for AlertId {
    fn from(id: &str) -> Self {
        AlertId::new(id)
    }
}

impl From<String> for AlertId {
    fn from(id: String) -> Self {
        AlertId(id)
    }
}

/// A text that is not a UUID was given where an id of `kind` is expected.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct IdError {
    kind: &'static str,
    text: String,
}

impl IdError {
    pub(crate) fn new(kind: &'static str, text: &str) -> Self {
        // Bounded, so a hostile input cannot make the error huge.
        IdError { kind, text: text.chars().take(64).collect() }
    }

    /// The id type that was expected, such as `PipeId`.
    pub fn kind(&self) -> &'static str {
        self.kind
    }
}

impl fmt::Display for IdError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} is not a valid {} (expected a UUID)", self.text, self.kind)
    }
}

impl std::error::Error for IdError {}
