//! How one field's value travels as JSON when it is not the value type's own serde form.
//!
//! A [`model!`](crate::macros) field names its codec with `as`: a module holding a serde
//! `serialize`/`deserialize` pair, like `#[serde(with = "...")]`; the default is [`plain`], which
//! reads through the type's [`Field`] impl. Every codec reads a [`Read`], so that `null` means
//! "absent" the same way everywhere (but for a [`Nullable`](crate::Nullable) member, where it
//! is the value), and so that a value that does not fit its field's type (a
//! date that is not RFC 3339, `port: 8443.5`, a number where text was expected, `"state": 3`)
//! never fails a response: the field reads as absent and the model keeps the value's JSON among
//! its unknown fields, writing it back (as it came, or as the same JSON value: see [`Field`]).

use std::fmt;
use std::marker::PhantomData;

use serde::de::value::{MapAccessDeserializer, SeqAccessDeserializer};
use serde::de::{MapAccess, SeqAccess, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use time::format_description::well_known::Rfc3339 as Rfc3339Format;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};

/// What reading one field gave.
pub(crate) enum Read<T> {
    /// Absent: for dates, `""`.
    Absent,
    /// `null`: absent too, but a model notes it, so that a request a user wrote refuses `null`
    /// for a member the contract does not let be `null` (one that does is a
    /// [`Nullable`](crate::Nullable), which reads `null` as its value).
    Null,
    /// A value of the field's type.
    Value(T),
    /// A value that does not fit the field's type, kept as its JSON text.
    Kept(Box<RawValue>),
}

impl<T> From<Option<T>> for Read<T> {
    fn from(value: Option<T>) -> Self {
        value.map_or(Read::Absent, Read::Value)
    }
}

impl<T> Read<T> {
    /// A value read as a `T`, made a `U` (or absent); absent and kept values stay as they are.
    fn and_then<U>(self, f: impl FnOnce(T) -> Option<U>) -> Read<U> {
        match self {
            Read::Value(value) => f(value).into(),
            Read::Absent => Read::Absent,
            Read::Null => Read::Null,
            Read::Kept(raw) => Read::Kept(raw),
        }
    }
}

/// Reads a scalar field leniently from its JSON text: `null` is absent, what `parse` makes a
/// value of is the value, anything else is kept as it came. For the few fields whose value must
/// be read from the exact text ([`decimal`]); every other field reads through [`Field`], which
/// allocates nothing for a value that fits.
pub(crate) fn lenient<'de, D: Deserializer<'de>, T>(
    d: D,
    parse: impl FnOnce(&str) -> Option<Read<T>>,
) -> Result<Read<T>, D::Error> {
    let raw = Box::<RawValue>::deserialize(d)?;
    if raw.get() == "null" {
        return Ok(Read::Null);
    }
    Ok(parse(raw.get()).unwrap_or(Read::Kept(raw)))
}

/// The text of a JSON string given as its raw JSON (`"abc"`, with its quotes); `None` for any
/// other JSON value.
pub(crate) fn json_string(raw: &str) -> Option<std::borrow::Cow<'_, str>> {
    let inner = raw.strip_prefix('"')?.strip_suffix('"')?;
    if inner.contains('\\') {
        serde_json::from_str::<String>(raw).ok().map(std::borrow::Cow::Owned)
    } else {
        Some(std::borrow::Cow::Borrowed(inner))
    }
}

/// The default codec: the value's own serde form, read through its [`Field`] impl, so that a
/// JSON value of the wrong type is kept instead of failing the response.
pub(crate) mod plain {
    use super::*;

    pub(crate) fn expected<T: Field>() -> &'static str {
        T::EXPECTED
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: Field>(d: D) -> Result<Read<T>, D::Error> {
        T::read(d)
    }
}

/// Reads a field of a composite type `T` (a model, a list) as its [`Field::read`] says, as the
/// seed of an object's value or a list's element ([`composite_reading!`]); every scalar type
/// shares [`ScalarSeed`] instead.
pub(crate) struct FieldSeed<T>(PhantomData<T>);

impl<T> FieldSeed<T> {
    pub(crate) fn new() -> Self {
        FieldSeed(PhantomData)
    }
}

impl<'de, T: Field> serde::de::DeserializeSeed<'de> for FieldSeed<T> {
    type Value = Read<T>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Read<T>, D::Error> {
        T::read(d)
    }
}

/// Reads the value of the member `name` of the object being read (`map`) as a field of type `T`
/// by the default codec, and settles it ([`settle`]).
///
/// Why a function and not the macro's own code: it is compiled once per field type (and reader),
/// where code written out in each model's `visit_map` was compiled once per field, hundreds of
/// times over the same few dozen types.
pub(crate) fn next_field<'de, T: Field, A: MapAccess<'de>>(
    map: &mut A,
    name: &str,
    unknown: &mut crate::UnknownFields,
) -> Result<Option<T>, A::Error> {
    Ok(settle(T::next_value(map)?, name, unknown))
}

/// [`next_field`] for a field read by the codec `C`.
pub(crate) fn next_codec_field<'de, C: Codec, A: MapAccess<'de>>(
    map: &mut A,
    name: &str,
    unknown: &mut crate::UnknownFields,
) -> Result<Option<C::Value>, A::Error> {
    Ok(settle(map.next_value_seed(CodecSeed::<C>::new())?, name, unknown))
}

/// Keeps the value of the member `name`, one this crate does not model, as it came.
pub(crate) fn next_unknown<'de, A: MapAccess<'de>>(
    map: &mut A,
    name: &str,
    unknown: &mut crate::UnknownFields,
) -> Result<(), A::Error> {
    unknown.insert_raw(name, &map.next_value::<Box<RawValue>>()?);
    Ok(())
}

/// Keeps the members written as not yet known ([`NOT_YET_KNOWN`](crate::unknown::NOT_YET_KNOWN)).
pub(crate) fn next_not_yet_known<'de, A: MapAccess<'de>>(
    map: &mut A,
    unknown: &mut crate::UnknownFields,
) -> Result<(), A::Error> {
    unknown.insert_not_yet_known(&map.next_value::<Box<RawValue>>()?);
    Ok(())
}

/// What a model keeps of one member's reading: its value, or none; a `null` is noted (a request
/// refuses it where the contract does not let the member be `null`: one that may be is a
/// [`Nullable`](crate::Nullable), which reads `null` as its value), and a value that does not fit
/// the field's type is kept among the unknown fields.
fn settle<T>(read: Read<T>, name: &str, unknown: &mut crate::UnknownFields) -> Option<T> {
    match read {
        Read::Absent => None,
        Read::Null => {
            unknown.insert_null(name);
            None
        }
        Read::Value(value) => Some(value),
        Read::Kept(raw) => {
            unknown.insert_raw(name, &raw);
            None
        }
    }
}

/// A codec module (`as rfc3339`) as a type, `Codec`, inside it ([`codec_type!`]): so that a
/// field read or written by a codec goes through one seed type per codec ([`CodecSeed`],
/// [`Written`]), not one per field, and every generic step between the object and the value
/// is compiled once per codec.
pub(crate) trait Codec {
    /// The type the codec reads and writes.
    type Value;

    /// Reads the value, as the module's `deserialize`.
    fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Self::Value>, D::Error>;

    /// Writes the value, as the module's `serialize`.
    fn serialize<S: Serializer>(value: &Self::Value, s: S) -> Result<S::Ok, S::Error>;
}

/// Makes the enclosing codec module's `deserialize` and `serialize` of `$value` the [`Codec`]
/// type `Codec`.
macro_rules! codec_type {
    ($value:ty) => {
        /// This module as a [`Codec`](crate::codec::Codec).
        pub(crate) struct Codec;

        impl crate::codec::Codec for Codec {
            type Value = $value;

            fn deserialize<'de, D: serde::Deserializer<'de>>(d: D) -> Result<crate::codec::Read<$value>, D::Error> {
                deserialize(d)
            }

            fn serialize<S: serde::Serializer>(value: &$value, s: S) -> Result<S::Ok, S::Error> {
                serialize(value, s)
            }
        }
    };
}

pub(crate) use codec_type;

/// Reads a field by the codec `C`, as the seed of an object's value.
pub(crate) struct CodecSeed<C>(PhantomData<C>);

impl<C> CodecSeed<C> {
    pub(crate) fn new() -> Self {
        CodecSeed(PhantomData)
    }
}

impl<'de, C: Codec> serde::de::DeserializeSeed<'de> for CodecSeed<C> {
    type Value = Read<C::Value>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Read<C::Value>, D::Error> {
        C::deserialize(d)
    }
}

/// Writes a field's value by the codec `C`.
pub(crate) struct Written<'a, C: Codec>(pub(crate) &'a C::Value);

impl<C: Codec> Serialize for Written<'_, C> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        C::serialize(self.0, s)
    }
}

/// A type read by the default codec ([`plain`]) or a codec built on it: it says which JSON
/// values it is made from (text, a bool, a number, an array or an object); `null` is absent,
/// and a value of any other JSON type, or one it refuses (`"serviceId": "nope"`, `port: 8443.5`,
/// a date that is no RFC 3339), is kept.
///
/// Why not [`lenient`]'s raw text: that allocates the raw text of every field read, about 50 per
/// pipe. Here a value that fits is built straight from serde_json's visit, with no allocation or
/// second parse; only a kept value is written out again, as JSON made from what serde_json
/// parsed. That is the same JSON value, but not always the same text: a string's escapes are
/// written serde_json's way (`"\u00e9"` comes back as `"é"`), a float in shortest form (`8443.50`
/// comes back as `8443.5`; a whole number beyond 64 bits, which serde_json reads as a float, as
/// that float), and an object's members sorted by name. Integers, bools and `null` come back as
/// they were.
pub(crate) trait Field: Sized {
    /// What the field takes, in words, for the error that refuses a user's value of another
    /// type (`a whole number from 0 to 65535`).
    const EXPECTED: &'static str;

    /// The value of a JSON string; `None` when the text does not fit (kept).
    fn from_text(_text: &str) -> Option<Self> {
        None
    }

    /// The value of a JSON bool; `None` when bools do not fit (kept).
    fn from_bool(_value: bool) -> Option<Self> {
        None
    }

    /// The value of a JSON number serde_json read as a whole number `>= 0`; `None` when it does
    /// not fit (kept).
    fn from_u64(_value: u64) -> Option<Self> {
        None
    }

    /// The value of a JSON number serde_json read as a negative whole number; `None` when it
    /// does not fit (kept).
    fn from_i64(_value: i64) -> Option<Self> {
        None
    }

    /// The value of any other JSON number (`1.5`, `5.432e3`, or beyond 64 bits), as serde_json
    /// read it; `None` when it does not fit (kept).
    fn from_f64(_value: f64) -> Option<Self> {
        None
    }

    /// Reads the field. A scalar type reads through [`read_scalar`] (the default): the JSON value
    /// first read by one visitor shared by every scalar type, then made into this one, so that
    /// the deserializer's code is compiled once for all of them rather than once per type. A
    /// type that reads arrays or objects (overriding [`Field::from_seq`] or
    /// [`Field::from_map`]) reads through [`read_composite`] instead, and is made of no scalar:
    /// there, every scalar is kept.
    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Self>, D::Error> {
        read_scalar(d)
    }

    /// Reads the value of the member being read of an object (`map`) as [`Field::read`] does. A
    /// scalar type reads it through the seed every scalar type shares ([`ScalarSeed`]), then
    /// makes it into this one, so that every step of the reader between the object and the value
    /// is compiled once for all scalar types rather than once per type; a composite type reads
    /// through a seed of its own ([`composite_reading!`]).
    fn next_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Read<Self>, A::Error> {
        made(map.next_value_seed(ScalarSeed)?)
    }

    /// Reads the next element of a list (`seq`), as [`Field::next_value`] reads a member.
    fn next_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<Option<Read<Self>>, A::Error> {
        match seq.next_element_seed(ScalarSeed)? {
            Some(scalar) => made(scalar).map(Some),
            None => Ok(None),
        }
    }

    /// Reads a JSON array; one that does not fit is kept whole.
    fn from_seq<'de, A: SeqAccess<'de>>(seq: A) -> Result<Read<Self>, A::Error> {
        kept(&serde_json::Value::deserialize(SeqAccessDeserializer::new(seq))?)
    }

    /// Reads a JSON object; one that does not fit (any object, unless the type reads objects)
    /// is kept whole.
    fn from_map<'de, A: MapAccess<'de>>(map: A) -> Result<Read<Self>, A::Error> {
        kept(&serde_json::Value::deserialize(MapAccessDeserializer::new(map))?)
    }
}

/// The [`Field`] methods of a type that reads arrays or objects (a model, a list), each
/// through a seed of its own: such a type is made of no scalar, and keeps every one.
macro_rules! composite_reading {
    () => {
        fn read<'de, D: serde::Deserializer<'de>>(d: D) -> Result<$crate::codec::Read<Self>, D::Error> {
            $crate::codec::read_composite(d)
        }

        fn next_value<'de, A: serde::de::MapAccess<'de>>(map: &mut A) -> Result<$crate::codec::Read<Self>, A::Error> {
            map.next_value_seed($crate::codec::FieldSeed::<Self>::new())
        }

        fn next_element<'de, A: serde::de::SeqAccess<'de>>(
            seq: &mut A,
        ) -> Result<Option<$crate::codec::Read<Self>>, A::Error> {
            seq.next_element_seed($crate::codec::FieldSeed::<Self>::new())
        }
    };
}

pub(crate) use composite_reading;

/// Reads one field of a type that reads arrays or objects as its [`Field`] impl says.
pub(crate) fn read_composite<'de, T: Field, D: Deserializer<'de>>(d: D) -> Result<Read<T>, D::Error> {
    d.deserialize_any(FieldVisitor(PhantomData))
}

/// Reads one field of a scalar type: the JSON value as [`Scalar`], then made into `T`.
pub(crate) fn read_scalar<'de, T: Field, D: Deserializer<'de>>(d: D) -> Result<Read<T>, D::Error> {
    made(serde::de::DeserializeSeed::deserialize(ScalarSeed, d)?)
}

/// The value `T` makes of a scalar, or the scalar kept when it makes none: the rule of every
/// scalar type's reading ([`read_scalar`]; a composite's, [`FieldVisitor`], keeps every
/// scalar). Only the choice of a `from_*` is generic; keeping a misfit is compiled once
/// ([`Scalar::kept`]).
fn made<T: Field, E: serde::de::Error>(scalar: Scalar<'_>) -> Result<Read<T>, E> {
    let value = match &scalar {
        Scalar::Text(text) => T::from_text(text),
        Scalar::Bool(value) => T::from_bool(*value),
        Scalar::U64(value) => T::from_u64(*value),
        Scalar::I64(value) => T::from_i64(*value),
        Scalar::F64(value) => T::from_f64(*value),
        Scalar::Null => return Ok(Read::Null),
        Scalar::Kept(_) => None,
    };
    match value {
        Some(value) => Ok(Read::Value(value)),
        None => scalar.kept().map(Read::Kept).map_err(E::custom),
    }
}

/// A JSON value as a scalar type's field first reads it: an array or an object is no scalar's,
/// and is kept as it is.
enum Scalar<'de> {
    Text(std::borrow::Cow<'de, str>),
    Bool(bool),
    U64(u64),
    I64(i64),
    F64(f64),
    Null,
    Kept(Box<serde_json::value::RawValue>),
}

impl Scalar<'_> {
    /// The scalar as the JSON text a model keeps for a value that does not fit its field.
    fn kept(self) -> Result<Box<RawValue>, serde_json::Error> {
        match self {
            Scalar::Text(text) => serde_json::value::to_raw_value(&*text),
            Scalar::Bool(value) => serde_json::value::to_raw_value(&value),
            Scalar::U64(value) => serde_json::value::to_raw_value(&value),
            Scalar::I64(value) => serde_json::value::to_raw_value(&value),
            Scalar::F64(value) => serde_json::value::to_raw_value(&value),
            Scalar::Null => serde_json::value::to_raw_value(&()),
            Scalar::Kept(raw) => Ok(raw),
        }
    }
}

/// A member an update may send as `null` ([`Nullable`](crate::Nullable)), a scalar or an
/// object: `null` reads as `Null` rather than as absent; the rest as the member's own type reads
/// it.
impl<T: Field> Field for crate::Nullable<T> {
    const EXPECTED: &'static str = T::EXPECTED;

    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Self>, D::Error> {
        Ok(nullable(T::read(d)?))
    }

    fn next_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Read<Self>, A::Error> {
        Ok(nullable(T::next_value(map)?))
    }

    fn next_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<Option<Read<Self>>, A::Error> {
        Ok(T::next_element(seq)?.map(nullable))
    }
}

/// A member's reading as a [`Nullable`](crate::Nullable) one: `null` is its value.
fn nullable<T>(read: Read<T>) -> Read<crate::Nullable<T>> {
    match read {
        Read::Value(value) => Read::Value(crate::Nullable::Value(value)),
        Read::Null => Read::Value(crate::Nullable::Null),
        Read::Absent => Read::Absent,
        Read::Kept(raw) => Read::Kept(raw),
    }
}

/// Reads a member or an element as a [`Scalar`]: one seed for every scalar type.
struct ScalarSeed;

impl<'de> serde::de::DeserializeSeed<'de> for ScalarSeed {
    type Value = Scalar<'de>;

    fn deserialize<D: Deserializer<'de>>(self, d: D) -> Result<Scalar<'de>, D::Error> {
        d.deserialize_any(ScalarVisitor)
    }
}

/// Reads any JSON value as a [`Scalar`]: one visitor for every scalar type.
struct ScalarVisitor;

impl<'de> Visitor<'de> for ScalarVisitor {
    type Value = Scalar<'de>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, text: &'de str) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Text(std::borrow::Cow::Borrowed(text)))
    }

    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Text(std::borrow::Cow::Owned(text.to_owned())))
    }

    fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Text(std::borrow::Cow::Owned(text)))
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Bool(value))
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::I64(value))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::U64(value))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Scalar<'de>, E> {
        Ok(Scalar::F64(value))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Scalar<'de>, E> {
        Ok(Scalar::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Scalar<'de>, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Scalar<'de>, A::Error> {
        let value = serde_json::Value::deserialize(SeqAccessDeserializer::new(seq))?;
        serde_json::value::to_raw_value(&value).map(Scalar::Kept).map_err(serde::de::Error::custom)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Scalar<'de>, A::Error> {
        let value = serde_json::Value::deserialize(MapAccessDeserializer::new(map))?;
        serde_json::value::to_raw_value(&value).map(Scalar::Kept).map_err(serde::de::Error::custom)
    }
}

/// Reads one field as its [`Field`] type says; see there.
struct FieldVisitor<T>(PhantomData<T>);

/// A scalar where a composite was expected, kept as its text.
fn kept_scalar<T, E: serde::de::Error>(scalar: Scalar<'_>) -> Result<Read<T>, E> {
    match scalar.kept() {
        Ok(raw) => Ok(Read::Kept(raw)),
        Err(error) => Err(E::custom(error)),
    }
}

/// A JSON value that does not fit, kept as its text. Written from a `Value`, so serde_json's
/// writer is compiled once for every field type, not once per type that does not fit.
fn kept<T, E: serde::de::Error>(value: &serde_json::Value) -> Result<Read<T>, E> {
    serde_json::value::to_raw_value(value).map(Read::Kept).map_err(E::custom)
}

impl<'de, T: Field> Visitor<'de> for FieldVisitor<T> {
    type Value = Read<T>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    // A composite (a list, an object) is made of no scalar: each is kept, without the
    // `from_*` choice of `made` compiled once more for every composite type.
    fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Read<T>, E> {
        kept_scalar(Scalar::Text(std::borrow::Cow::Borrowed(text)))
    }

    fn visit_bool<E: serde::de::Error>(self, value: bool) -> Result<Read<T>, E> {
        kept_scalar(Scalar::Bool(value))
    }

    fn visit_i64<E: serde::de::Error>(self, value: i64) -> Result<Read<T>, E> {
        kept_scalar(Scalar::I64(value))
    }

    fn visit_u64<E: serde::de::Error>(self, value: u64) -> Result<Read<T>, E> {
        kept_scalar(Scalar::U64(value))
    }

    fn visit_f64<E: serde::de::Error>(self, value: f64) -> Result<Read<T>, E> {
        kept_scalar(Scalar::F64(value))
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Read<T>, E> {
        Ok(Read::Null)
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Read<T>, E> {
        Ok(Read::Null)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Read<T>, D::Error> {
        d.deserialize_any(self)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Read<T>, A::Error> {
        T::from_seq(seq)
    }

    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Read<T>, A::Error> {
        T::from_map(map)
    }
}

/// Reads an object model through its own `Deserialize` (for `model!` types and other objects).
pub(crate) fn object_from_map<'de, T: Deserialize<'de>, A: MapAccess<'de>>(map: A) -> Result<Read<T>, A::Error> {
    T::deserialize(MapAccessDeserializer::new(map)).map(Read::Value)
}

impl Field for crate::Text {
    const EXPECTED: &'static str = "a string";

    fn from_text(text: &str) -> Option<Self> {
        Some(text.into())
    }
}

impl Field for crate::Secret {
    const EXPECTED: &'static str = "a string";

    fn from_text(text: &str) -> Option<Self> {
        Some(text.into())
    }
}

impl Field for bool {
    const EXPECTED: &'static str = "true or false";

    fn from_bool(value: bool) -> Option<Self> {
        Some(value)
    }
}

/// A list: anything but an array is kept whole, and so is an array with an element that does
/// not fit its type (`"roles": ["admin", 5]`, a `null` element): the field reads as absent and
/// the whole array is kept, the elements that fit written again from their values.
impl<T: Field + Serialize> Field for Vec<T> {
    const EXPECTED: &'static str = "a list";

    composite_reading!();

    fn from_seq<'de, A: SeqAccess<'de>>(mut seq: A) -> Result<Read<Self>, A::Error> {
        let mut values = Vec::new();
        while let Some(element) = T::next_element(&mut seq)? {
            match element {
                Read::Value(value) => values.push(value),
                misfit => return kept_list(values, misfit, seq),
            }
        }
        Ok(Read::Value(values))
    }
}

/// A list with an element that does not fit, kept whole: the elements read so far (written
/// again from their values), the misfit, and the rest of the array as it came, as one JSON array.
/// The rest is read as JSON values, by one reading for every list type.
fn kept_list<'de, T: Field + Serialize, A: SeqAccess<'de>>(
    read: Vec<T>,
    misfit: Read<T>,
    mut seq: A,
) -> Result<Read<Vec<T>>, A::Error> {
    use serde::de::Error as _;
    let mut all = Vec::with_capacity(read.len() + 1);
    for value in &read {
        all.push(serde_json::to_value(value).map_err(A::Error::custom)?);
    }
    all.push(match misfit {
        Read::Absent | Read::Null => serde_json::Value::Null,
        Read::Value(value) => serde_json::to_value(&value).map_err(A::Error::custom)?,
        Read::Kept(raw) => serde_json::from_str(raw.get()).map_err(A::Error::custom)?,
    });
    while let Some(next) = seq.next_element::<serde_json::Value>()? {
        all.push(next);
    }
    kept(&serde_json::Value::Array(all))
}

/// A boxed value reads as the value.
impl<T: Field> Field for Box<T> {
    const EXPECTED: &'static str = T::EXPECTED;

    fn read<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Self>, D::Error> {
        Ok(T::read(d)?.and_then(|value| Some(Box::new(value))))
    }

    fn next_value<'de, A: MapAccess<'de>>(map: &mut A) -> Result<Read<Self>, A::Error> {
        Ok(T::next_value(map)?.and_then(|value| Some(Box::new(value))))
    }

    fn next_element<'de, A: SeqAccess<'de>>(seq: &mut A) -> Result<Option<Read<Self>>, A::Error> {
        Ok(T::next_element(seq)?.map(|read| read.and_then(|value| Some(Box::new(value)))))
    }
}

/// Integer fields (`port`, `replicas`, a schedule's `weekdays`, ...): any JSON number that is a
/// whole number in the type's range (`5432`, `5432.0`, `5.432e3`), since the contract's `number`
/// allows any form. Anything else (`8443.5`, `-1` for an unsigned field, `"5432"`) reads as
/// absent and is kept.
macro_rules! whole_number_fields {
    ($($int:ty => $expected:literal),*) => {$(
        impl Field for $int {
            const EXPECTED: &'static str = $expected;

            fn from_u64(value: u64) -> Option<Self> {
                value.try_into().ok()
            }

            fn from_i64(value: i64) -> Option<Self> {
                value.try_into().ok()
            }

            fn from_f64(value: f64) -> Option<Self> {
                whole_number(value)?.try_into().ok()
            }
        }
    )*};
}

whole_number_fields!(
    u8 => "a whole number from 0 to 255",
    u16 => "a whole number from 0 to 65535",
    u32 => "a whole number from 0 to 4294967295",
    u64 => "a whole number from 0",
    i64 => "a whole number"
);

/// A float that is a whole number small enough to be held exactly (`5432.0`, `5.432e3`).
fn whole_number(value: f64) -> Option<i64> {
    (value.fract() == 0.0 && value.abs() < 9.0e15).then_some(value as i64)
}

/// A date written as JSON text, read by `T`'s format: `""` is absent like `null` (the services
/// send both for "not set"), other text that is no such date is kept.
struct DateText<T>(Option<T>);

impl<T> DateText<T> {
    fn parse(text: &str, parse: fn(&str) -> Option<T>) -> Option<Self> {
        if text.is_empty() { Some(DateText(None)) } else { parse(text).map(|date| DateText(Some(date))) }
    }

    /// Reads a field through this type.
    fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<T>, D::Error>
    where
        Self: Field,
    {
        Ok(plain::deserialize::<D, Self>(d)?.and_then(|date| date.0))
    }
}

impl Field for DateText<OffsetDateTime> {
    const EXPECTED: &'static str = rfc3339::EXPECTED;

    fn from_text(text: &str) -> Option<Self> {
        DateText::parse(text, parse_rfc3339)
    }
}

impl Field for DateText<PrimitiveDateTime> {
    const EXPECTED: &'static str = zoneless::EXPECTED;

    fn from_text(text: &str) -> Option<Self> {
        DateText::parse(text, parse_zoneless)
    }
}

/// An RFC 3339 date-time (`createdAt`, `updatedAt`, `usedAt`, `expireAt`, ...). `null` and `""`
/// both read as absent: the key service sends `expireAt: ""` for "never expires". Other text
/// (`2024-05-01T10:00Z`, no seconds) reads as absent and is kept.
pub(crate) mod rfc3339 {
    use super::*;

    codec_type!(OffsetDateTime);

    pub(crate) const EXPECTED: &str = "an RFC 3339 date-time string (2024-05-01T10:00:00Z)";

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<OffsetDateTime>, D::Error> {
        DateText::deserialize(d)
    }

    pub(crate) fn serialize<S: Serializer>(value: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&value.format(&Rfc3339Format).map_err(serde::ser::Error::custom)?)
    }
}

/// Parses an RFC 3339 date-time; `None` when the text is not one.
pub(crate) fn parse_rfc3339(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &Rfc3339Format).ok()
}

/// A date-time without zone designator, minute precision with optional seconds
/// (`"2021-01-01T00:00"`), as the Kafka `offset.timestamp` is written. It is UTC by contract.
pub(crate) mod zoneless {
    use super::*;

    codec_type!(PrimitiveDateTime);

    pub(crate) const EXPECTED: &str = "a date-time string without zone (2024-05-01T10:00)";

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<PrimitiveDateTime>, D::Error> {
        DateText::deserialize(d)
    }

    pub(crate) fn serialize<S: Serializer>(value: &PrimitiveDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_zoneless(value))
    }
}

/// Parses `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`.
pub(crate) fn parse_zoneless(text: &str) -> Option<PrimitiveDateTime> {
    let minutes = format_description!("[year]-[month]-[day]T[hour]:[minute]");
    let seconds = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    PrimitiveDateTime::parse(text, &minutes).or_else(|_| PrimitiveDateTime::parse(text, &seconds)).ok()
}

/// Formats as `YYYY-MM-DDTHH:MM`, adding `:SS` only when the seconds are not zero.
pub(crate) fn format_zoneless(value: &PrimitiveDateTime) -> String {
    let (year, month, day) = (value.year(), u8::from(value.month()), value.day());
    let (hour, minute, second) = (value.hour(), value.minute(), value.second());
    if second == 0 {
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}")
    } else {
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}")
    }
}

/// An integer UNIX time in seconds (the Kinesis `timestamp`). A number out of range, or not a
/// whole number, reads as absent and is kept.
pub(crate) mod unix_seconds {
    use super::*;

    codec_type!(OffsetDateTime);

    /// A time read from its whole number of seconds.
    struct UnixSeconds(OffsetDateTime);

    pub(crate) const EXPECTED: &str = "a whole number of seconds since 1970";

    impl Field for UnixSeconds {
        const EXPECTED: &'static str = EXPECTED;

        // Whole seconds as an `i64` field reads them, then a time in range.
        fn from_u64(value: u64) -> Option<Self> {
            i64::from_u64(value).and_then(Self::from_i64)
        }

        fn from_i64(value: i64) -> Option<Self> {
            OffsetDateTime::from_unix_timestamp(value).ok().map(UnixSeconds)
        }

        fn from_f64(value: f64) -> Option<Self> {
            i64::from_f64(value).and_then(Self::from_i64)
        }
    }

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<OffsetDateTime>, D::Error> {
        Ok(plain::deserialize::<D, UnixSeconds>(d)?.and_then(|seconds| Some(seconds.0)))
    }

    pub(crate) fn serialize<S: Serializer>(value: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(value.unix_timestamp())
    }
}

/// A JSON number held as `f64` (`threshold`, memory sizes), read exactly and written without a
/// fraction when it has none (`100`, not `100.0`), as the servers write it, so a value read and
/// written back is the same JSON. Anything but a number reads as absent and is kept.
pub(crate) mod decimal {
    use super::*;

    codec_type!(f64);

    pub(crate) const EXPECTED: &str = "a number";

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<f64>, D::Error> {
        lenient(d, |raw| parse_decimal(raw).map(Read::Value))
    }

    pub(crate) fn serialize<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
        serialize_number(*value, s)
    }
}

/// A JSON number's raw text as `f64`, read from its exact text: `f64::from_str` rounds
/// correctly, where serde_json's default float parsing may be off by one unit in the last place.
/// `None` for anything but a JSON number.
pub(crate) fn parse_decimal(raw: &str) -> Option<f64> {
    match raw.as_bytes().first() {
        Some(b'-' | b'0'..=b'9') => raw.parse().ok(),
        _ => None,
    }
}

/// Writes a whole number below 2^53 as an integer, any other as a float.
pub(crate) fn serialize_number<S: Serializer>(value: f64, s: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.abs() < 9.0e15 { s.serialize_i64(value as i64) } else { s.serialize_f64(value) }
}

/// A codec for a member that may also be sent as `null` ([`Nullable`](crate::Nullable)): `null`
/// reads as `Null` and is written as `null`; anything else as codec `$inner` reads and writes
/// it.
macro_rules! nullable_codec {
    ($(#[$meta:meta])* $name:ident: $inner:ident, $ty:ty) => {
        $(#[$meta])*
        pub(crate) mod $name {
            use super::*;
            use crate::Nullable;

            codec_type!(Nullable<$ty>);

            pub(crate) const EXPECTED: &str = $inner::EXPECTED;

            pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Nullable<$ty>>, D::Error> {
                let raw = Box::<RawValue>::deserialize(d)?;
                if raw.get() == "null" {
                    return Ok(Read::Value(Nullable::Null));
                }
                // Read again from its text (it is JSON): the one copy is of a value that is set.
                let read = $inner::deserialize(&mut serde_json::Deserializer::from_str(raw.get()))
                    .map_err(serde::de::Error::custom)?;
                Ok(match read {
                    Read::Value(value) => Read::Value(Nullable::Value(value)),
                    Read::Null => Read::Value(Nullable::Null),
                    Read::Absent => Read::Absent,
                    Read::Kept(raw) => Read::Kept(raw),
                })
            }

            pub(crate) fn serialize<S: Serializer>(value: &Nullable<$ty>, s: S) -> Result<S::Ok, S::Error> {
                match value {
                    Nullable::Value(value) => $inner::serialize(value, s),
                    Nullable::Null => s.serialize_none(),
                }
            }
        }
    };
}

nullable_codec!(
    /// [`rfc3339`], or `null`.
    nullable_rfc3339: rfc3339, OffsetDateTime
);
nullable_codec!(
    /// [`decimal`], or `null`.
    nullable_decimal: decimal, f64
);
