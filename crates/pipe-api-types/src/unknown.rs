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
///
/// Each field remembers whether it is vouched for, as an open enum's value does
/// ([`Unrecognized`]): sent by a server ([`Vouch`](crate::Vouch)), set with [`insert`](Self::insert),
/// or written under `"$notYetKnown"` in JSON text. A request refuses a field that is not: a
/// member a user's JSON holds that this crate does not know (`"replcas"`) is almost always a
/// typo, and so is a value of the wrong type in a known field (kept here under that field's name).
#[derive(Clone, Default)]
pub struct UnknownFields {
    /// Every field as its name and then its JSON text, each written as its length in bytes, a
    /// separator and itself (`6Vlabels15V{"team":"data"}`): all of an object's unknown fields in
    /// one allocation, where a list of separately allocated texts took two per field, the most
    /// allocations of a decoded list. The name's separator says whether the field was vouched
    /// for when it was kept (`V`) or was read from JSON text (`v`); vouching for it later moves
    /// `vouched_to` past it instead. A name with `n` and an empty value is no field but the
    /// note of a known field read from `null` ([`UnknownFields::insert_null`]).
    fields: String,
    /// The fields written before this byte of `fields` are all vouched for, whatever their
    /// separators say: vouching for a decoded object's fields moves this mark to the end, where
    /// rewriting each separator walked every field of every object a list holds. (A `u32`, so
    /// that the flag below costs no room: an object's unknown text is far below 4 GiB under any
    /// body budget, and a mark that saturates only leaves later fields to their separators.)
    vouched_to: u32,
    /// Whether the object's known fields came under their other names (a field declared
    /// `"engineVersion" | "clickhouseVersion"`), to be written back under those: one flag per
    /// object, as a server writes all of an object's members in one generation of names.
    other_names: bool,
}

/// The name JSON text writes a member newer than this crate under, on purpose:
/// `{"$notYetKnown": {"newField": 1}}` sends `newField` as it is.
pub const NOT_YET_KNOWN: &str = "$notYetKnown";

impl UnknownFields {
    /// No unknown fields.
    pub fn new() -> Self {
        UnknownFields::default()
    }

    /// Whether there are none.
    pub fn is_empty(&self) -> bool {
        self.fields.is_empty() || self.entries().next().is_none()
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
        self.entries().map(|(name, value, _)| (name, value))
    }

    /// Sets the field `name` to `value`, replacing an earlier value of the same name. This is
    /// how a request sends a field this crate does not model yet: a field set here is vouched
    /// for (sent as it is), where one read from a user's JSON is refused as a likely typo.
    pub fn insert(&mut self, name: impl Into<String>, value: &impl serde::Serialize) -> serde_json::Result<()> {
        let raw = serde_json::value::to_raw_value(value)?;
        let name = name.into();
        self.remove(&name);
        self.push(&name, raw.get(), true);
        Ok(())
    }

    /// Removes the field `name` (every field of that name), returning its raw JSON text.
    pub fn remove(&mut self, name: &str) -> Option<String> {
        let removed = self.get(name)?.to_owned();
        let mut kept = UnknownFields::new();
        self.entries()
            .filter(|(key, ..)| *key != name)
            .for_each(|(key, value, vouched)| kept.push(key, value, vouched));
        *self = kept;
        Some(removed)
    }

    /// Keeps a field as read from JSON text, not vouched for. Repeated names are all kept, in
    /// order (as received; `get` sees the last, as JSON readers do); no search here, so hostile
    /// input cannot make a read quadratic.
    pub(crate) fn insert_raw(&mut self, name: &str, raw: &RawValue) {
        self.push(name, raw.get(), false);
    }

    /// Keeps the members of a `"$notYetKnown"` object, vouched for; anything else under that
    /// name is kept as an unknown field (and so refused in a request).
    pub(crate) fn insert_not_yet_known(&mut self, raw: &RawValue) {
        match serde_json::from_str::<Members<'_>>(raw.get()) {
            Ok(Members(members)) => {
                members.iter().for_each(|(name, value)| self.push(name.as_str(), value.get(), true))
            }
            Err(_) => self.insert_raw(NOT_YET_KNOWN, raw),
        }
    }

    /// Notes that the known field `name` was read from `null`, which reads as absent: not a
    /// field, so neither listed nor written back, only refused by a request nobody vouched for
    /// ([`nulls`](Self::nulls)), as `null` is no value of that field.
    pub(crate) fn insert_null(&mut self, name: &str) {
        self.push_part(name, NULLED);
        self.push_len(0);
        self.fields.push(VOUCHED);
    }

    /// The known fields read from `null` (see [`insert_null`](Self::insert_null)) that no one
    /// vouched for.
    pub(crate) fn nulls(&self) -> impl Iterator<Item = &str> {
        self.parts().filter(|part| part.kind == NULLED && !part.vouched).map(|part| part.name)
    }

    fn push(&mut self, name: &str, value: &str, vouched: bool) {
        // Room for both parts and their lengths at once: one allocation for a first field.
        self.fields.reserve(name.len() + value.len() + 2 * MAX_PREFIX);
        self.push_part(name, if vouched { VOUCHED } else { UNVOUCHED });
        self.push_len(value.len());
        self.fields.push(VOUCHED);
        self.fields.push_str(value);
    }

    /// Writes a field's name with its separator.
    fn push_part(&mut self, name: &str, kind: char) {
        self.push_len(name.len());
        self.fields.push(kind);
        self.fields.push_str(name);
    }

    /// Every field as its name, its raw JSON text, and whether it is vouched for.
    pub(crate) fn entries(&self) -> impl Iterator<Item = (&str, &str, bool)> {
        self.parts().filter(|part| part.kind != NULLED).map(|part| (part.name, part.value, part.vouched))
    }

    /// Every part kept, fields and notes of a `null` alike.
    fn parts(&self) -> impl Iterator<Item = Part<'_>> {
        let mut rest = self.fields.as_str();
        std::iter::from_fn(move || {
            if rest.is_empty() {
                return None;
            }
            let before_vouch = self.fields.len() - rest.len() < self.vouched_to as usize;
            let (name, kind) = next_part(&mut rest);
            let value = next_part(&mut rest).0;
            Some(Part { name, value, kind, vouched: kind == VOUCHED || before_vouch })
        })
    }

    /// Vouches for every field: a server sent them (see [`Vouch`](crate::Vouch)). Nothing is
    /// rewritten or walked: the mark moves past the last field.
    pub(crate) fn vouch(&mut self) {
        self.vouched_to = u32::try_from(self.fields.len()).unwrap_or(u32::MAX);
    }

    /// Notes that a known field came under its other name (see `other_names`).
    pub(crate) fn mark_other_names(&mut self) {
        self.other_names = true;
    }

    /// Whether known fields came under their other names, and are written back so.
    pub(crate) fn other_names(&self) -> bool {
        self.other_names
    }

    /// Writes `len` in decimal digits.
    fn push_len(&mut self, len: usize) {
        if len >= 10 {
            self.push_len(len / 10);
        }
        self.fields.push(char::from(b'0' + (len % 10) as u8));
    }

    /// Writes every field into a map being serialized, but those `shadowed` says a known field
    /// now holds. `shadowed` is a reference to a closure, and the loop a plain one, so that this
    /// is compiled once per serializer, not once per model and serializer.
    pub(crate) fn serialize_entries<M: SerializeMap>(
        &self,
        map: &mut M,
        shadowed: &dyn Fn(&str) -> bool,
    ) -> Result<(), M::Error> {
        for (key, value) in self.iter() {
            if !shadowed(key) {
                map.serialize_entry(key, &Raw(value))?;
            }
        }
        Ok(())
    }
}

/// The longest length prefix: 20 digits and `:`.
const MAX_PREFIX: usize = 21;

/// A JSON object's members in order, each as its raw JSON text.
struct Members<'de>(Vec<(FieldName<'de>, &'de RawValue)>);

impl<'de> Deserialize<'de> for Members<'de> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct MembersVisitor;

        impl<'de> Visitor<'de> for MembersVisitor {
            type Value = Members<'de>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("an object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<Members<'de>, A::Error> {
                let mut members = Vec::new();
                while let Some(entry) = map.next_entry()? {
                    members.push(entry);
                }
                Ok(Members(members))
            }
        }

        deserializer.deserialize_map(MembersVisitor)
    }
}

/// The separator of a part vouched for, and of every value.
const VOUCHED: char = 'V';
/// The separator of a name read from JSON text and not vouched for: [`VOUCHED`] in lower case.
const UNVOUCHED: char = 'v';
/// The separator of the name of a known field read from `null` (its value is empty).
const NULLED: char = 'n';

/// One part kept: a field, or the note of a known field read from `null`.
struct Part<'a> {
    name: &'a str,
    value: &'a str,
    /// The name's separator.
    kind: char,
    vouched: bool,
}

/// Takes one length-prefixed part off the front of `rest` (see [`UnknownFields`]), and its
/// separator.
fn next_part<'a>(rest: &mut &'a str) -> (&'a str, char) {
    let at = rest.find([VOUCHED, UNVOUCHED, NULLED]).expect("a part starts with its length");
    let (len, after) = rest.split_at(at);
    let kind = after.chars().next().expect("found above");
    let (part, after) = after[1..].split_at(len.parse().expect("a part's length is a number"));
    *rest = after;
    (part, kind)
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

#[cfg(test)]
mod tests {
    use super::UnknownFields;
    use serde_json::value::RawValue;

    fn raw(text: &str) -> Box<RawValue> {
        RawValue::from_string(text.to_owned()).unwrap()
    }

    fn vouched(fields: &UnknownFields) -> Vec<(&str, bool)> {
        fields.entries().map(|(name, _, vouched)| (name, vouched)).collect()
    }

    /// Vouching covers the fields kept so far, not one read after it; removing a field keeps
    /// what the others were.
    #[test]
    fn vouching_covers_the_fields_kept_before_it() {
        let mut fields = UnknownFields::new();
        fields.insert_raw("labels", &raw(r#"{"team":"data"}"#));
        fields.insert_raw("tier", &raw("3"));
        assert_eq!(vouched(&fields), [("labels", false), ("tier", false)]);
        fields.vouch();
        fields.insert_raw("replcas", &raw("2"));
        fields.insert("burstReplicas", &4).unwrap();
        assert_eq!(vouched(&fields), [("labels", true), ("tier", true), ("replcas", false), ("burstReplicas", true)]);
        assert_eq!(fields.remove("labels").as_deref(), Some(r#"{"team":"data"}"#));
        assert_eq!(vouched(&fields), [("tier", true), ("replcas", false), ("burstReplicas", true)]);
        assert_eq!(fields.get("tier"), Some("3"));
    }
}
