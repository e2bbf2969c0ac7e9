//! What the server sends that this crate does not know yet, kept so that nothing is lost.

use std::borrow::Cow;
use std::fmt;

use serde::de::{Deserialize, Deserializer, Visitor};
use serde::ser::SerializeMap;
use serde_json::value::RawValue;

/// The fields of one JSON object that its model does not know, in the order received.
///
/// Each value is kept as the exact JSON text the server sent (not parsed into a tree, which
/// would reorder keys and round numbers), and written back unchanged after the known fields.
/// `Debug` shows only the names: an unknown field may carry a credential.
#[derive(Clone, Default)]
pub struct UnknownFields {
    /// Every field as its name and then its JSON text, each written as its length in bytes, `:`
    /// and itself (`6:labels15:{"team":"data"}`): all of an object's unknown fields in one
    /// allocation, where a list of separately allocated texts took two per field, the most
    /// allocations of a decoded list.
    fields: String,
}

impl UnknownFields {
    /// No unknown fields.
    pub fn new() -> Self {
        UnknownFields::default()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty()
    }

    /// How many there are.
    pub fn len(&self) -> usize {
        self.iter().count()
    }

    /// The raw JSON text of the field `name`, if it was received: `"zstd"` (with its quotes),
    /// `[1,2]`, `{"a":null}`.
    pub fn get(&self, name: &str) -> Option<&str> {
        self.iter().filter(|(key, _)| *key == name).last().map(|(_, value)| value)
    }

    /// The field `name` parsed as a JSON value.
    pub fn get_value(&self, name: &str) -> Option<serde_json::Value> {
        self.get(name).and_then(|raw| serde_json::from_str(raw).ok())
    }

    /// The names of the unknown fields, in the order received.
    pub fn names(&self) -> impl Iterator<Item = &str> {
        self.iter().map(|(key, _)| key)
    }

    /// Every unknown field as a name and its raw JSON text.
    pub fn iter(&self) -> impl Iterator<Item = (&str, &str)> {
        let mut rest = self.fields.as_str();
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let name = next_part(&mut rest);
            Some((name, next_part(&mut rest)))
        })
    }

    /// Sets the field `name` to `value`, replacing an earlier value of the same name. This is
    /// how a request sends a field this crate does not model yet.
    pub fn insert(&mut self, name: impl Into<String>, value: &impl serde::Serialize) -> serde_json::Result<()> {
        let raw = serde_json::value::to_raw_value(value)?;
        let name = name.into();
        self.remove(&name);
        self.insert_raw(&name, &raw);
        Ok(())
    }

    /// Removes the field `name` (every field of that name), returning its raw JSON text.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let removed = self.get(name)?.to_owned();
        let mut kept = UnknownFields::new();
        self.iter().filter(|(key, _)| *key != name).for_each(|(key, value)| kept.push(key, value));
        *self = kept;
        Some(removed)
    }

    /// Keeps a field as read. Repeated names are all kept, in order (as received; `get` sees
    /// the last, as JSON readers do); no search here, so hostile input cannot make a read
    /// quadratic.
    pub(crate) fn insert_raw(&mut self, name: &str, raw: &RawValue) {
        self.push(name, raw.get());
    }

    fn push(&mut self, name: &str, value: &str) {
        // Room for both parts and their lengths at once: one allocation for a first field.
        self.fields.reserve(name.len() + value.len() + 2 * MAX_PREFIX);
        for part in [name, value] {
            self.push_len(part.len());
            self.fields.push(':');
            self.fields.push_str(part);
        }
    }

    /// Writes `len` in decimal digits.
    fn push_len(&mut self, len: usize) {
        if len >= 10 {
            self.push_len(len / 10);
        }
        self.fields.push(char::from(b'0' + (len % 10) as u8));
    }

    /// Writes every field into a map being serialized, but those `shadowed` says a known field
    /// now holds.
    pub(crate) fn serialize_entries<M: SerializeMap>(
        &self,
        map: &mut M,
        shadowed: impl Fn(&str) -> bool,
    ) -> Result<(), M::Error> {
        self.iter().filter(|(key, _)| !shadowed(key)).try_for_each(|(key, value)| map.serialize_entry(key, &Raw(value)))
    }
}

/// The longest length prefix: 20 digits and `:`.
const MAX_PREFIX: usize = 21;

/// Takes one length-prefixed part off the front of `rest` (see [`UnknownFields`]).
fn next_part<'a>(rest: &mut &'a str) -> &'a str {
    let (len, after) = rest.split_once(':').expect("a part starts with its length");
    let (part, after) = after.split_at(len.parse().expect("a part's length is a number"));
    *rest = after;
    part
}

/// Kept JSON text, written as it is.
struct Raw<'a>(&'a str);

impl serde::Serialize for Raw<'_> {
    fn serialize<S: serde::Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        // Text that came from a `RawValue`, so it is JSON; reading it as one again only borrows
        // it, so that serde_json writes it out verbatim.
        serde_json::from_str::<&RawValue>(self.0).map_err(serde::ser::Error::custom)?.serialize(s)
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
/// It remembers whether it is vouched for: built with an enum's `not_yet_known` (the
/// forward-compatibility escape), or sent by a server ([`Vouch`](crate::Vouch)). A request refuses an unrecognized value that is not, because text
/// a user wrote or a JSON file holds that this crate does not know (`"PLAN"`) is almost always a
/// typo.
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

    /// Text named as not yet known on purpose: accepted in requests.
    pub(crate) fn vouched(text: impl Into<Box<str>>) -> Self {
        Unrecognized { text: text.into(), vouched: true }
    }

    /// Vouches for it: a server sent it (see [`Vouch`](crate::Vouch)).
    pub(crate) fn vouch(&mut self) {
        self.vouched = true;
    }

    /// The text as the server sent it.
    pub fn as_str(&self) -> &str {
        &self.text
    }

    /// Whether a request may carry it: built with `not_yet_known`, or sent by a server.
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
