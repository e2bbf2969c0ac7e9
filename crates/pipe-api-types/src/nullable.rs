//! [`Nullable`]: a member of an update that the contract lets be `null`.

use serde::{Serialize, Serializer};

use crate::IntoField;
use crate::into_field::{NullableValue, Plain};
use crate::validate::{CheckMembers, Checker};

/// A member of a request that may be sent as `null`: a value, or `null` to clear what was set
/// before. Every request member the contracts mark nullable (`"type": ["string", "null"]`,
/// `"nullable": true`, `oneOf` with `{"type": "null"}`) has this type: in a pipe update
/// (`PipePatchRequest`) the name, source, destination and settings, each source kind but
/// Postgres and most members of each kind's patch; each of a pipe's settings
/// ([`PipeSettings`](crate::PipeSettings), one schema in the contract for reads, creates,
/// updates and the settings `PUT`); each member of the scaling patch
/// ([`UpdatePipeScalingRequest`](crate::UpdatePipeScalingRequest)); and an alert's optional
/// members ([`AlertRequest`](crate::AlertRequest)). (A key's `expireAt` has its own
/// [`KeyExpiry`](crate::KeyExpiry).) Absent (`None`) leaves the member as it is. A setter takes
/// the value itself (`.iam_role("arn:...")`) or [`Nullable::Null`]; JSON `null` reads as `Null`
/// (where a member that is not `Nullable` refuses it, in a request read from JSON).
///
/// What `null` does is the service's: for an optional setting it clears it, returning it to its
/// default; the contract does not say what it does to a member a pipe cannot go without (its
/// name, a host), and the fake keeps what the pipe has.
///
/// ```
/// use pipe_api_types::{KafkaSourcePatch, Nullable};
///
/// let clear = KafkaSourcePatch::default().ca_certificate(Nullable::Null);
/// assert_eq!(serde_json::to_string(&clear)?, r#"{"caCertificate":null}"#);
/// let set = KafkaSourcePatch::default().ca_certificate("-----BEGIN CERTIFICATE-----");
/// assert_eq!(serde_json::to_string(&set)?, r#"{"caCertificate":"-----BEGIN CERTIFICATE-----"}"#);
/// # Ok::<(), serde_json::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Nullable<T> {
    /// Set the member to this value.
    Value(T),
    /// Send `null`: clear the member.
    Null,
}

impl<T> Nullable<T> {
    /// The value, unless this is `Null`.
    pub fn value(&self) -> Option<&T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Null => None,
        }
    }

    /// The value, unless this is `Null`, taken out: a member that may be absent or `null` read
    /// as an `Option` (`settings.engine_max_threads.and_then(Nullable::into_value)`).
    pub fn into_value(self) -> Option<T> {
        match self {
            Nullable::Value(value) => Some(value),
            Nullable::Null => None,
        }
    }

    /// Whether this is `Null`.
    pub fn is_null(&self) -> bool {
        matches!(self, Nullable::Null)
    }
}

/// The value an optional nullable member holds, if it holds one (neither absent nor `null`).
pub(crate) fn set<T>(member: &Option<Nullable<T>>) -> Option<&T> {
    member.as_ref().and_then(Nullable::value)
}

impl<T: Serialize> Serialize for Nullable<T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self {
            Nullable::Value(value) => value.serialize(serializer),
            Nullable::Null => serializer.serialize_none(),
        }
    }
}

impl<T: crate::Vouch> crate::Vouch for Nullable<T> {
    fn vouch(&mut self) {
        if let Nullable::Value(value) = self {
            value.vouch();
        }
    }
}

impl<T: CheckMembers> CheckMembers for Nullable<T> {
    fn check_members(&self, c: &mut Checker<'_>) {
        if let Nullable::Value(value) = self {
            value.check_members(c);
        }
    }
}

impl<T> IntoField<Nullable<T>> for Nullable<T> {
    fn into_field(self) -> Nullable<T> {
        self
    }
}

/// What the member's own setter would take.
impl<T, V: IntoField<T, Plain>> IntoField<Nullable<T>, NullableValue> for V {
    fn into_field(self) -> Nullable<T> {
        Nullable::Value(self.into_field())
    }
}
