//! The one way a success body is decoded: serde_json into the endpoint's output, within a memory
//! budget proportional to the body.
//!
//! Why a budget: a hostile body of minimal elements (`[{"id":""},...]`, 10 bytes each) would
//! decode into models of hundreds of bytes each, a gigabyte from a 16 MiB body. The budget is
//! carried by a thin wrapper around serde_json's deserializer (no global or thread-local state):
//! each object, list slot, text and kept unknown field charges the memory its decoded form
//! takes, and the decode stops with an error once the body's budget is spent.
//!
//! The wrapper's methods are `#[inline]`, as are the models' readers they reach: the decode is
//! instantiated in the caller's crate, where without the hint each one-line forward stayed a
//! call per value (`BENCHMARKS.md`, "The decode path is marked `#[inline]`").

use std::cell::Cell;
use std::fmt;
use std::mem::size_of;

use serde::de::{self, DeserializeOwned, DeserializeSeed, Deserializer, MapAccess, SeqAccess, Visitor};

/// How many bytes of decoded values a body may become, per byte of body. Real answers need
/// about two (`memory` section of `cargo bench -p pipe-api-tests --bench ratios`); a hostile
/// body of minimal elements would need seventy and more.
pub const DECODED_BYTES_PER_BODY_BYTE: usize = 6;

/// The budget of any body, however small: one of every model fits.
const MIN_BUDGET: usize = 64 * 1024;

/// What a kept unknown field costs beyond its text: its name and the lengths written before both
/// in its object's buffer (`UnknownFields`), and that buffer's share of an allocation; rounded up,
/// as a model's unknown fields are few.
const UNKNOWN_FIELD_COST: usize = 64;

/// What an allocation costs beyond its bytes (the allocator's header and rounding).
const ALLOCATION_COST: usize = 16;

/// Where and why a body did not decode.
pub(crate) struct Failure {
    /// The JSON path that failed (`result[3].source.kafka`), `.` for the root.
    pub(crate) path: String,
    /// What was wrong there.
    pub(crate) message: String,
}

/// Decodes `body` as `T` within the body's budget. Only when that fails does it decode again,
/// within the same budget, tracking the JSON path to say where (tracking costs time on every
/// value, so the successful path never pays it).
pub(crate) fn decode<T: DeserializeOwned>(body: &[u8]) -> Result<T, Failure> {
    let first = match decode_budgeted::<T>(body) {
        Ok(value) => return Ok(value),
        Err(first) => first,
    };
    let budget = Budget::for_body(body);
    let mut json = serde_json::Deserializer::from_slice(body);
    let tracked = serde_path_to_error::deserialize::<_, T>(Budgeted::new(&mut json, &budget));
    let (path, message) = match tracked {
        Err(tracked) => (tracked.path().to_string(), tracked.into_inner().to_string()),
        Ok(_) => (".".to_owned(), first.to_string()),
    };
    Err(Failure { path, message })
}

fn decode_budgeted<T: DeserializeOwned>(body: &[u8]) -> Result<T, serde_json::Error> {
    let budget = Budget::for_body(body);
    // A body checked as UTF-8 once (every JSON body is) spares serde_json checking each string
    // on its own, which costs more on the many short texts of a list.
    match std::str::from_utf8(body) {
        Ok(text) => deserialize_all(&mut serde_json::Deserializer::from_str(text), &budget),
        Err(_) => deserialize_all(&mut serde_json::Deserializer::from_slice(body), &budget),
    }
}

fn deserialize_all<'de, R: serde_json::de::Read<'de>, T: DeserializeOwned>(
    json: &mut serde_json::Deserializer<R>,
    budget: &Budget,
) -> Result<T, serde_json::Error> {
    let value = T::deserialize(Budgeted::new(&mut *json, budget))?;
    json.end()?;
    Ok(value)
}

/// Bytes of decoded values still allowed.
struct Budget {
    left: Cell<usize>,
}

impl Budget {
    fn for_body(body: &[u8]) -> Budget {
        Budget { left: Cell::new(body.len().saturating_mul(DECODED_BYTES_PER_BODY_BYTE).max(MIN_BUDGET)) }
    }

    #[inline]
    fn charge<E: de::Error>(&self, bytes: usize) -> Result<(), E> {
        match self.left.get().checked_sub(bytes) {
            Some(left) => {
                self.left.set(left);
                Ok(())
            }
            None => Err(E::custom(format_args!(
                "the response would decode into more than {DECODED_BYTES_PER_BODY_BYTE} times its size; refused"
            ))),
        }
    }
}

/// A deserializer (or a visitor, seed or access) that passes the budget on to everything it
/// reaches.
struct Budgeted<'b, X> {
    inner: X,
    budget: &'b Budget,
    /// Whether text read here is kept: not for an object's key, which a model matches against
    /// its field names (an unknown field's name is charged with its value).
    keeps_text: bool,
}

impl<'b, X> Budgeted<'b, X> {
    fn new(inner: X, budget: &'b Budget) -> Self {
        Budgeted { inner, budget, keeps_text: true }
    }

    #[inline]
    fn wrap<Y>(&self, inner: Y) -> Budgeted<'b, Y> {
        Budgeted { inner, budget: self.budget, keeps_text: self.keeps_text }
    }

    #[inline]
    fn charge_text<E: de::Error>(&self, len: usize) -> Result<(), E> {
        if self.keeps_text && len > 0 { self.budget.charge(len + ALLOCATION_COST) } else { Ok(()) }
    }
}

/// Forwards `deserialize_*` methods, wrapping the visitor.
macro_rules! forward {
    ($($method:ident($($arg:ident: $ty:ty),*)),* $(,)?) => {
        $(
            #[inline]
            fn $method<V: Visitor<'de>>(self, $($arg: $ty,)* visitor: V) -> Result<V::Value, Self::Error> {
                let visitor = self.wrap(visitor);
                self.inner.$method($($arg,)* visitor)
            }
        )*
    };
}

impl<'de, D: Deserializer<'de>> Deserializer<'de> for Budgeted<'_, D> {
    type Error = D::Error;

    forward! {
        deserialize_any(), deserialize_bool(), deserialize_i8(), deserialize_i16(), deserialize_i32(),
        deserialize_i64(), deserialize_i128(), deserialize_u8(), deserialize_u16(), deserialize_u32(),
        deserialize_u64(), deserialize_u128(), deserialize_f32(), deserialize_f64(), deserialize_char(),
        deserialize_str(), deserialize_string(), deserialize_bytes(), deserialize_byte_buf(),
        deserialize_option(), deserialize_unit(), deserialize_unit_struct(name: &'static str),
        deserialize_seq(), deserialize_tuple(len: usize),
        deserialize_tuple_struct(name: &'static str, len: usize), deserialize_identifier(),
        deserialize_ignored_any(),
        deserialize_enum(name: &'static str, variants: &'static [&'static str]),
    }

    #[inline]
    fn deserialize_map<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        self.budget.charge(size_of::<V::Value>())?;
        let visitor = self.wrap(visitor);
        self.inner.deserialize_map(visitor)
    }

    #[inline]
    fn deserialize_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        fields: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.budget.charge(size_of::<V::Value>())?;
        let visitor = self.wrap(visitor);
        self.inner.deserialize_struct(name, fields, visitor)
    }

    /// Not wrapped: serde_json reads a raw value (an unknown field's text) through a newtype
    /// of its own, which must see serde_json's own access. Its text is charged as a kept
    /// unknown field.
    #[inline]
    fn deserialize_newtype_struct<V: Visitor<'de>>(
        self,
        name: &'static str,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        self.budget.charge(UNKNOWN_FIELD_COST)?;
        self.inner.deserialize_newtype_struct(name, visitor)
    }

    #[inline]
    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// Forwards `visit_*` methods of scalars unchanged.
macro_rules! visit_scalars {
    ($($method:ident($ty:ty)),* $(,)?) => {
        $(
            #[inline]
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

    #[inline]
    fn visit_str<E: de::Error>(self, v: &str) -> Result<Self::Value, E> {
        self.charge_text(v.len())?;
        self.inner.visit_str(v)
    }

    #[inline]
    fn visit_borrowed_str<E: de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        self.charge_text(v.len())?;
        self.inner.visit_borrowed_str(v)
    }

    #[inline]
    fn visit_string<E: de::Error>(self, v: String) -> Result<Self::Value, E> {
        self.charge_text(v.len())?;
        self.inner.visit_string(v)
    }

    #[inline]
    fn visit_none<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_none()
    }

    #[inline]
    fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
        self.inner.visit_unit()
    }

    #[inline]
    fn visit_some<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let deserializer = self.wrap(deserializer);
        self.inner.visit_some(deserializer)
    }

    #[inline]
    fn visit_newtype_struct<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let deserializer = self.wrap(deserializer);
        self.inner.visit_newtype_struct(deserializer)
    }

    #[inline]
    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        let seq = self.wrap(seq);
        self.inner.visit_seq(seq)
    }

    #[inline]
    fn visit_map<A: MapAccess<'de>>(self, map: A) -> Result<Self::Value, A::Error> {
        let map = self.wrap(map);
        self.inner.visit_map(map)
    }

    #[inline]
    fn visit_enum<A: de::EnumAccess<'de>>(self, data: A) -> Result<Self::Value, A::Error> {
        // No model is a serde enum; an enum's payload is left unbudgeted rather than mis-read.
        self.inner.visit_enum(data)
    }
}

impl<'de, S: DeserializeSeed<'de>> DeserializeSeed<'de> for Budgeted<'_, S> {
    type Value = S::Value;

    #[inline]
    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        let deserializer = self.wrap(deserializer);
        self.inner.deserialize(deserializer)
    }
}

impl<'de, A: SeqAccess<'de>> SeqAccess<'de> for Budgeted<'_, A> {
    type Error = A::Error;

    /// Each element charges its slot in the list, whatever it holds.
    #[inline]
    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, Self::Error> {
        self.budget.charge(size_of::<S::Value>())?;
        let seed = self.wrap(seed);
        self.inner.next_element_seed(seed)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}

impl<'de, A: MapAccess<'de>> MapAccess<'de> for Budgeted<'_, A> {
    type Error = A::Error;

    #[inline]
    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, Self::Error> {
        let seed = Budgeted { keeps_text: false, ..self.wrap(seed) };
        self.inner.next_key_seed(seed)
    }

    #[inline]
    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, Self::Error> {
        let seed = Budgeted { keeps_text: true, ..self.wrap(seed) };
        self.inner.next_value_seed(seed)
    }

    #[inline]
    fn size_hint(&self) -> Option<usize> {
        self.inner.size_hint()
    }
}
