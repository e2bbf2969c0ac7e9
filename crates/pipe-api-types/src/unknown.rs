//! What the server sends that this crate does not know yet, kept so that nothing is lost.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Visitor};
use serde::ser::SerializeMap;
use serde_json::value::RawValue;

use crate::Text;

/// The fields of one JSON object that its model does not know, in the order received.
///
/// Each value is kept as the exact JSON text the server sent (not parsed into a tree, which
/// would reorder keys and round numbers), and written back unchanged after the known fields.
/// `Debug` shows only the names: an unknown field may carry a credential.
#[derive(Clone, Default)]
pub struct UnknownFields {
    entries: Vec<(Text, Box<RawValue>)>,
}

impl UnknownFields {
    /// No unknown fields.
    pub fn new() -> Self {
        UnknownFields::default()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    /// The raw JSON text of the field `name`, if it was received: `"zstd"` (with its quotes),
    /// `[1,2]`, `{"a":null}`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.entries.iter().rev().find(|(key, _)| key == name).map(|(_, value)| value.get())
    }

    /// The field `name` parsed as a JSON value.
    pub fn get_value(&self, name: &str) -> Option<serde_json::Value> {
        self.get(name).and_then(|raw| serde_json::from_str(raw).ok())
    }

    /// The names of the unknown fields, in the order received.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.entries.iter().map(|(key, _)| key.as_str())
    }

    /// Every unknown field as a name and its raw JSON text.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        self.entries.iter().map(|(key, value)| (key.as_str(), value.get()))
    }

    /// Sets the field `name` to `value`, replacing an earlier value of the same name. This is
    /// how a request sends a field this crate does not model yet.
    pub fn insert(&mut self, name: impl Into<String>, value: &impl serde::Serialize) -> serde_json::Result<()> {
        let raw = serde_json::value::to_raw_value(value)?;
        let name = Text::from(name.into());
        self.entries.retain(|(key, _)| *key != name);
        self.entries.push((name, raw));
        Ok(())
    }

    /// Removes the field `name`, returning its raw JSON text.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let index = self.entries.iter().position(|(key, _)| key == name)?;
        Some(String::from(Box::<str>::from(self.entries.remove(index).1)))
    }

    /// Keeps a field as read. Repeated names are all kept, in order (as received; `get` sees
    /// the last, as JSON readers do); no search here, so hostile input cannot make a read
    /// quadratic.
    pub(crate) fn insert_raw(&mut self, name: Text, raw: Box<RawValue>) {
        self.entries.push((name, raw));
    }

    /// Writes every field into a map being serialized, but those `shadowed` says a known field
    /// now holds.
    pub(crate) fn serialize_entries<M: SerializeMap>(
        &self,
        map: &mut M,
        shadowed: impl Fn(&str) -> bool,
    ) -> Result<(), M::Error> {
        self.entries
            .iter()
            .filter(|(key, _)| !shadowed(key))
            .try_for_each(|(key, value)| map.serialize_entry(key, value))
    }
}

impl PartialEq for UnknownFields {
    fn eq(&self, other: &Self) -> bool {
        self.iter().eq(other.iter())
    }
}

impl fmt::Debug for UnknownFields {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_set().entries(self.names()).finish()
    }
}

/// An object key, borrowed from the input when it can be (no allocation for known names).
pub(crate) struct FieldName<'de>(Cow<'de, str>);

impl FieldName<'_> {
    pub(crate) fn as_str(&self) -> &str {
        &self.0
    }

    pub(crate) fn into_text(self) -> Text {
        Text::from(self.0)
    }
}

impl<'de> Deserialize<'de> for FieldName<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;

        impl<'de> Visitor<'de> for NameVisitor {
            type Value = FieldName<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a field name")
            }

            fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
                Ok(FieldName(Cow::Borrowed(v)))
            }

            fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
                Ok(FieldName(Cow::Owned(v.to_owned())))
            }

            fn visit_string<E: serde::de::Error>(self, v: String) -> Result<Self::Value, E> {
                Ok(FieldName(Cow::Owned(v)))
            }
        }

        deserializer.deserialize_str(NameVisitor)
    }
}

/// The text of an enum value this crate does not know. Only this crate makes one, so a known
/// value is always its variant and two equal texts are always equal values.
///
/// It remembers whether it is vouched for: read from a server, or built with an enum's
/// `not_yet_known` (the forward-compatibility escape). A request refuses an unrecognized value
/// that is not, because text a user wrote that this crate does not know (`"PLAN"`) is almost
/// always a typo.
#[derive(Clone, Debug)]
pub struct Unrecognized {
    text: Box<str>,
    vouched: bool,
}

impl Unrecognized {
    /// Text a user wrote: refused in requests.
    pub(crate) fn new(text: impl Into<Box<str>>) -> Self {
        Unrecognized { text: text.into(), vouched: false }
    }

    /// Text read from a server, or named as not yet known on purpose: accepted in requests.
    pub(crate) fn vouched(text: impl Into<Box<str>>) -> Self {
        Unrecognized { text: text.into(), vouched: true }
    }

    /// The text as the server sent it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether a request may carry it: read from a server, or built with `not_yet_known`.
    pub fn is_vouched_for(&self) -> bool {
        self.vouched
    }
}

/// Equal, ordered and hashed by text alone: how a value was made does not change what it is.
impl PartialEq for Unrecognized {
    fn eq(&self, other: &Self) -> bool {
        self.text == other.text
    }
}

impl Eq for Unrecognized {}

impl PartialOrd for Unrecognized {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Unrecognized {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.text.cmp(&other.text)
    }
}

impl std::hash::Hash for Unrecognized {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        self.text.hash(state);
    }
}

impl fmt::Display for Unrecognized {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.text)
    }
}
