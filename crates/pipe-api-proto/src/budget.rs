//! The budgeted reader: a thin wrapper around serde_json's deserializer that charges each
//! object, list slot, text and kept unknown field the memory its decoded form takes, and stops
//! once a body's budget is spent. Every success body, typed or JSON value, is read through it
//! (see `crate::decode`, its one user), and it is where each text read is scrubbed of what the
//! call sent.
//!
//! Why a budget: a hostile body of minimal elements (`[{"id":""},...]`, 10 bytes each) would
//! decode into models of hundreds of bytes each, a gigabyte from a 16 MiB body. No global or
//! thread-local state: the budget travels with the deserializer.

use std::cell::{Cell, RefCell};
use std::fmt::{self, Write as _};
use std::mem::size_of;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

use crate::redact::SentSecrets;

/// How many bytes of decoded values a body may become, per byte of body. Real answers need
/// about two (`memory` section of `cargo bench -p pipe-api-tests --bench ratios`); a hostile
/// body of minimal elements would need seventy and more.
pub const DECODED_BYTES_PER_BODY_BYTE: usize = 6;

/// What any body may decode into beyond its rate per byte. Charging by the byte alone refused
/// small lists the contracts allow (a hundred alerts of an id, a name and a state: each model
/// is far larger than its few bytes of JSON); with this, a thousand models of every kind fit,
/// whatever their size in the body, and a hostile body of the 16 MiB a response may hold still
/// decodes into at most about 4 times its size.
pub const DECODE_ALLOWANCE: usize = 8 * 1024 * 1024;

/// What a kept unknown field costs beyond its text: its name and the lengths written before both
/// in its object's buffer (`UnknownFields`), and that buffer's share of an allocation; rounded up,
/// as a model's unknown fields are few.
const UNKNOWN_FIELD_COST: usize = 64;

/// What an allocation costs beyond its bytes (the allocator's header and rounding).
const ALLOCATION_COST: usize = 16;

/// Reads `text` as a whole `T` within `budget`; a failure comes with its path (`.` unless the
/// budget tracks it).
pub(crate) fn read<T: DeserializeOwned>(text: &str, budget: Budget<'_>) -> Result<T, (serde_json::Error, String)> {
    let mut json = serde_json::Deserializer::from_str(text);
    T::deserialize(Budgeted::new(&mut json, &budget))
        .and_then(|value| json.end().map(|()| value))
        .map_err(|error| (error, budget.path()))
}

/// Bytes of decoded values still allowed, what every text read is scrubbed of, and, on a
/// reading that tracks it, where a failure is.
pub(crate) struct Budget<'s> {
    left: Cell<usize>,
    /// `None` unless the reading tracks the path of a failure.
    path: Option<Path>,
    /// What the call sent: taken out of every text read (values and names) before the model,
    /// the JSON value or an error sees it.
    secrets: &'s SentSecrets,
    /// Whether the body holds none of `secrets` as written: then a text read as a slice of the
    /// body (one without escapes) holds none either, and only an escaped text, which the
    /// body's bytes do not show as it reads, is searched. One pass over the body instead of a
    /// search per text.
    body_is_clean: bool,
}

/// The path of a failure, gathered as the error passes out through each list and object.
#[derive(Default)]
struct Path {
    /// The last object key read.
    key: RefCell<String>,
    /// The keys of the values being read, outermost first.
    open: RefCell<Vec<String>>,
    /// The failure's path, innermost segment first.
    segments: RefCell<Vec<Segment>>,
}

enum Segment {
    Key(String),
    Index(usize),
}

impl Path {
    fn enter_value(&self) {
        let key = self.key.borrow().clone();
        self.open.borrow_mut().push(key);
    }

    fn leave_value(&self, failed: bool) {
        let key = self.open.borrow_mut().pop();
        if let (true, Some(key)) = (failed, key) {
            self.segments.borrow_mut().push(Segment::Key(key));
        }
    }
}

/// The budget is spent: the error that ends the reading.
struct Spent;

impl fmt::Display for Spent {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(
            f,
            "the JSON would decode into more than {DECODED_BYTES_PER_BODY_BYTE} times its size and {} MiB; refused",
            DECODE_ALLOWANCE / (1024 * 1024)
        )
    }
}

impl<'s> Budget<'s> {
    pub(crate) fn for_body(body: &[u8], track: bool, secrets: &'s SentSecrets) -> Budget<'s> {
        let left = Cell::new(body.len().saturating_mul(DECODED_BYTES_PER_BODY_BYTE).saturating_add(DECODE_ALLOWANCE));
        let body_is_clean = !secrets.is_in(body);
        Budget { left, path: track.then(Path::default), secrets, body_is_clean }
    }

    fn charge<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        self.take(bytes).map_err(E::custom)
    }

    /// Takes `bytes` from what is left (not generic: compiled once, not per error type).
    fn take(&self, bytes: usize) -> Result<(), Spent> {
        let left = self.left.get().checked_sub(bytes).ok_or(Spent)?;
        self.left.set(left);
        Ok(())
    }

    /// What becomes of a text a visitor is given: charged when it is kept, noted when it is a
    /// key and the path is tracked, and, when `search`, scrubbed of what the call sent
    /// (`Some`: the text to pass on instead). Not generic: each visitor's `visit_*str*` only
    /// passes on what this says.
    fn text(&self, text: &str, search: bool, kept: bool, key: bool) -> Result<Option<String>, Spent> {
        let scrubbed = if search { self.secrets.scrubbed(text) } else { None };
        let shown = scrubbed.as_deref().unwrap_or(text);
        if kept && !shown.is_empty() {
            self.take(shown.len() + ALLOCATION_COST)?;
        }
        if key {
            self.key_read(shown);
        }
        Ok(scrubbed)
    }

    /// Notes an object key just read, when tracking.
    fn key_read(&self, key: &str) {
        if let Some(path) = &self.path {
            let mut last = path.key.borrow_mut();
            last.clear();
            last.push_str(key);
        }
    }

    /// Enters the value of the last key read, when tracking (inline: the check only; the work
    /// is compiled once, not per field).
    #[inline]
    fn enter_value(&self) {
        if let Some(path) = &self.path {
            path.enter_value();
        }
    }

    /// Leaves the value entered last, when tracking; a failure passed out through its key.
    #[inline]
    fn leave_value(&self, failed: bool) {
        if let Some(path) = &self.path {
            path.leave_value(failed);
        }
    }

    /// Notes that a failure passed out through `segment`.
    fn failed_in(&self, segment: Segment) {
        if let Some(path) = &self.path {
            path.segments.borrow_mut().push(segment);
        }
    }

    /// The failure's path (`result[3].source.kafka`, `.` for the root).
    fn path(&self) -> String {
        let Some(path) = &self.path else { return ".".to_owned() };
        let segments = path.segments.borrow();
        if segments.is_empty() {
            return ".".to_owned();
        }
        let mut text = String::new();
        for (i, segment) in segments.iter().rev().enumerate() {
            match segment {
                Segment::Index(index) => {
                    let _ = write!(text, "[{index}]");
                }
                Segment::Key(key) => {
                    if i > 0 {
                        text.push('.');
                    }
                    text.push_str(key);
                }
            }
        }
        text
    }
}

/// A deserializer (or a visitor, seed or access) that passes the budget on to everything it
/// reaches.
struct Budgeted<'b, X> {
    inner: X,
    budget: &'b Budget<'b>,
    /// A list's next index (for the path of a failure).
    index: usize,
    /// Whether text read here is kept: not for an object's key, which a model matches against
    /// its field names (an unknown field's name is charged with its value).
    keeps_text: bool,
    /// Whether what is read here is a JSON value (whose every object, member, slot and name is
    /// a node of its own), charged as such.
    value: bool,
}

/// What an object of a JSON value costs besides its members: the first node of its B-tree
/// (eleven names and values, about 640 bytes) and its allocation, charged at what it may
/// take at most, as a value's tree outlives its reading.
const VALUE_OBJECT_COST: usize = 1024;

/// What a member of an object of a JSON value costs besides its name's and value's texts: its
/// slots in the tree's node (a `String` and a `Value`), the node's share of them, and the
/// name's allocation.
const VALUE_MEMBER_COST: usize = 160;

/// What an element of a list of a JSON value costs besides its slot: the list's growth by
/// doubling (twice the slots, three times while it moves).
const VALUE_ELEMENT_COST: usize = 2 * size_of::<serde_json::Value>();

impl<'b, X> Budgeted<'b, X> {
    fn new(inner: X, budget: &'b Budget<'b>) -> Self {
        Budgeted { inner, budget, index: 0, keeps_text: true, value: false }
    }

    fn wrap<Y>(&self, inner: Y) -> Budgeted<'b, Y> {
        Budgeted { inner, budget: self.budget, index: 0, keeps_text: self.keeps_text, value: self.value }
    }

    /// [`Budget::given`] for a text this visitor is given.
    fn text<E: de::Error>(&self, text: &str, search: bool) -> Result<Option<String>, E> {
        self.budget.given(text, search, self.keeps_text, self.value).map_err(E::custom)
    }
}

impl Budget<'_> {
    /// What becomes of a text a visitor is given ([`Budget::text`]), where it is kept when read
    /// as a value (`keeps_text`, not an object's key) or as part of a JSON value. Not generic:
    /// compiled once, not once per visitor; inline, as most texts are a slice of a clean body,
    /// only charged, and a call out per text cost more than that work.
    #[inline]
    fn given(&self, text: &str, search: bool, keeps_text: bool, value: bool) -> Result<Option<String>, Spent> {
        let key = !keeps_text && self.path.is_some();
        let kept = keeps_text || value;
        if !search && !key {
            if kept && !text.is_empty() {
                self.take(text.len() + ALLOCATION_COST)?;
            }
            return Ok(None);
        }
        self.text(text, search, kept, key)
    }
}

/// Forwards `deserialize_*` methods, wrapping the visitor.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
                        fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
                let visitor = self.wrap(visitor);
                self.inner.$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Budgeted<'_, D> {
    type Error = D::Error;

    /// A JSON value (the output of `Raw`, a value a model keeps, and each of their parts): its
    /// objects, members, names and list slots are charged as the nodes of its tree. Known by
    /// its type's name: models read their fields through `deserialize_any` too (their lenient
    /// codec), and are charged as models.
    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        let value = std::any::type_name::<V::Value>() == std::any::type_name::<serde_json::Value>();
        let visitor = Budgeted { value, ..self.wrap(visitor) };
        self.inner.deserialize_any(visitor)
    }

    forward! {
        deserialize_bool(), deserialize_i8(), deserialize_i16(), deserialize_i32(),
        deserialize_i64(), deserialize_i128(), deserialize_u8(), deserialize_u16(), deserialize_u32(),
        deserialize_u64(), deserialize_u128(), deserialize_f32(), deserialize_f64(), deserialize_char(),
        deserialize_str(), deserialize_string(), deserialize_bytes(), deserialize_byte_buf(),
        deserialize_option(), deserialize_unit(), deserialize_unit_struct(name: &'static str),
        deserialize_seq(), deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize), deserialize_identifier(),
        deserialize_ignored_any(),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
    }

    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.budget.charge(size_of::<V::Value>())?;
        let visitor = Budgeted { value: false, ..self.wrap(visitor) };
        self.inner.deserialize_map(visitor)
    }

    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.budget.charge(size_of::<V::Value>())?;
        let visitor = Budgeted { value: false, ..self.wrap(visitor) };
        self.inner.deserialize_struct(name, fields, visitor)
    }

    /// Not wrapped: serde_json reads a raw value (an unknown field's text) through a newtype
    /// of its own, which must see serde_json's own access. Its text is charged as a kept
    /// unknown field.
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.budget.charge(UNKNOWN_FIELD_COST)?;
        self.inner.deserialize_newtype_struct(name, visitor)
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// Forwards `visit_*` methods of scalars unchanged.
macro_rules! visit_scalars {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
                        fn $method<E: de::Error>(self, v: $ty) -> Result<Self::Value, E> {
                self.inner.$method(v)
            }
        )*
    };
}

impl<'de, V: Visitor<'de>> Visitor<'de> for Budgeted<'_, V> {
    type Value = V::Value;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        self.inner.expecting(f)
    }

    visit_scalars! {
        visit_bool(bool), visit_i8(i8), visit_i16(i16), visit_i32(i32), visit_i64(i64), visit_i128(i128),
        visit_u8(u8), visit_u16(u16), visit_u32(u32), visit_u64(u64), visit_u128(u128), visit_f32(f32),
        visit_f64(f64), visit_char(char), visit_bytes(&[u8]), visit_borrowed_bytes(&'de [u8]),
        visit_byte_buf(Vec<u8>),
    }

    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        match self.text(v, true)? {
            Some(scrubbed) => self.inner.visit_string(scrubbed),
            None => self.inner.visit_str(v),
        }
    }

    /// A text borrowed from the body is a slice of it, as written: searched only when the
    /// body holds something the call sent.
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        match self.text(v, !self.budget.body_is_clean)? {
            Some(scrubbed) => self.inner.visit_string(scrubbed),
            None => self.inner.visit_borrowed_str(v),
        }
    }

    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        match self.text(&v, true)? {
            Some(scrubbed) => self.inner.visit_string(scrubbed),
            None => self.inner.visit_string(v),
        }
    }

    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let deserializer = self.wrap(deserializer);
        self.inner.visit_some(deserializer)
    }

    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let deserializer = self.wrap(deserializer);
        self.inner.visit_newtype_struct(deserializer)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let seq = self.wrap(seq);
        self.inner.visit_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        if self.value {
            self.budget.charge(VALUE_OBJECT_COST)?;
        }
        let map = self.wrap(map);
        self.inner.visit_map(map)
    }

    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        // No model is a serde enum; an enum's payload is left unbudgeted rather than mis-read.
        self.inner.visit_enum(data)
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Budgeted<'_, S> {
    type Value = S::Value;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let deserializer = self.wrap(deserializer);
        self.inner.deserialize(deserializer)
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Budgeted<'_, A> {
    type Error = A::Error;

    /// Each element charges its slot in the list, whatever it holds.
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Self::Error> {
        let index = self.index;
        self.index += 1;
        let seed = self.wrap(seed);
        let slot = size_of::<S::Value>() + if self.value { VALUE_ELEMENT_COST } else { 0 };
        let element = self.budget.charge(slot).and_then(|()| self.inner.next_element_seed(seed));
        if element.is_err() {
            self.budget.failed_in(Segment::Index(index));
        }
        element
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Budgeted<'_, A> {
    type Error = A::Error;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let seed = Budgeted { keeps_text: false, ..self.wrap(seed) };
        self.inner.next_key_seed(seed)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        if self.value {
            self.budget.charge(VALUE_MEMBER_COST)?;
        }
        let seed = Budgeted { keeps_text: true, ..self.wrap(seed) };
        // The path is tracked only when reading again for a failure's path (both calls check
        // that inline, and do nothing on the common reading).
        self.budget.enter_value();
        let value = self.inner.next_value_seed(seed);
        self.budget.leave_value(value.is_err());
        value
    }

    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

#[cfg(test)]
mod tests {
    use super::{Budget, read};
    use crate::redact::{REDACTED, SentSecrets};

    fn secrets() -> SentSecrets {
        let mut secrets = SentSecrets::NONE;
        secrets.add(["hunter2-secret".to_owned()]);
        secrets
    }

    /// A body that holds no secret as written skips the search of the texts borrowed from it,
    /// but a text with an escape is read unescaped, which the body's bytes do not show: it is
    /// still searched, and an escaped secret is taken out.
    #[test]
    fn an_escaped_secret_is_taken_out_of_a_clean_body() {
        let secrets = secrets();
        let body = r#"["plain text", "h\u0075nter2-secret", "before hunter2\u002dsecret after"]"#;
        assert!(!secrets.is_in(body.as_bytes()));
        let texts: Vec<String> = read(body, Budget::for_body(body.as_bytes(), false, &secrets)).unwrap();
        assert_eq!(texts, ["plain text", REDACTED, &format!("before {REDACTED} after")]);
    }

    /// A body that holds a secret as written has it taken out of every text, escaped or not.
    #[test]
    fn a_written_secret_is_taken_out_of_every_text() {
        let secrets = secrets();
        let body = r#"{"hunter2-secret": "hunter2-secret", "b": "x\nhunter2-secret"}"#;
        let map: std::collections::BTreeMap<String, String> =
            read(body, Budget::for_body(body.as_bytes(), false, &secrets)).unwrap();
        assert_eq!(map.get(REDACTED).map(String::as_str), Some(REDACTED));
        assert_eq!(map.get("b").map(String::as_str), Some(&*format!("x\n{REDACTED}")));
    }
}
