//! How one field's value travels as JSON when it is not the value type's own serde form.
//!
//! A [`model!`](crate::macros) field names its codec with `as`: a module holding a serde
//! `serialize`/`deserialize` pair, like `#[serde(with = "...")]`. Every codec reads `Option<T>`
//! so that `null` means "absent" the same way everywhere.

use serde::de::{DeserializeOwned, Error as _};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use serde_json::value::RawValue;
use time::format_description::well_known::Rfc3339 as Rfc3339Format;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};

/// The value's own serde form.
pub(crate) mod plain {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>, T: DeserializeOwned>(d: D) -> Result<Option<T>, D::Error> {
        Option::<T>::deserialize(d)
    }

    pub(crate) fn serialize<S: Serializer, T: Serialize>(value: &T, s: S) -> Result<S::Ok, S::Error> {
        value.serialize(s)
    }
}

/// Reads an optional string, treating `""` like `null`: the services send both for "not set".
/// A [`Text`](crate::Text) keeps a date inline: reading it allocates nothing.
fn optional_text<'de, D: Deserializer<'de>>(d: D) -> Result<Option<crate::Text>, D::Error> {
    Ok(Option::<crate::Text>::deserialize(d)?.filter(|text| !text.is_empty()))
}

/// An RFC 3339 date-time (`createdAt`, `updatedAt`, `usedAt`, `expireAt`, ...). `null` and `""`
/// both read as absent: the key service sends `expireAt: ""` for "never expires". A response model
/// is lenient: text that is no date-time also reads as absent rather than failing the answer.
pub(crate) mod rfc3339 {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<OffsetDateTime>, D::Error> {
        Ok(optional_text(d)?.and_then(|text| parse_rfc3339(&text)))
    }

    pub(crate) fn serialize<S: Serializer>(value: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&value.format(&Rfc3339Format).map_err(serde::ser::Error::custom)?)
    }
}

/// Parses an RFC 3339 date-time; `None` when the text is not one.
pub fn parse_rfc3339(text: &str) -> Option<OffsetDateTime> {
    OffsetDateTime::parse(text, &Rfc3339Format).ok()
}

/// A date-time without zone designator, minute precision with optional seconds
/// (`"2021-01-01T00:00"`), as the Kafka `offset.timestamp` is written. It is UTC by contract.
pub(crate) mod zoneless {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<PrimitiveDateTime>, D::Error> {
        Ok(optional_text(d)?.and_then(|text| parse_zoneless(&text)))
    }

    pub(crate) fn serialize<S: Serializer>(value: &PrimitiveDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_str(&format_zoneless(value))
    }
}

/// Parses `YYYY-MM-DDTHH:MM` or `YYYY-MM-DDTHH:MM:SS`.
pub fn parse_zoneless(text: &str) -> Option<PrimitiveDateTime> {
    let minutes = format_description!("[year]-[month]-[day]T[hour]:[minute]");
    let seconds = format_description!("[year]-[month]-[day]T[hour]:[minute]:[second]");
    PrimitiveDateTime::parse(text, &minutes).or_else(|_| PrimitiveDateTime::parse(text, &seconds)).ok()
}

/// Formats as `YYYY-MM-DDTHH:MM`, adding `:SS` only when the seconds are not zero.
pub fn format_zoneless(value: &PrimitiveDateTime) -> String {
    let (year, month, day) = (value.year(), u8::from(value.month()), value.day());
    let (hour, minute, second) = (value.hour(), value.minute(), value.second());
    if second == 0 {
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}")
    } else {
        format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}")
    }
}

/// An integer UNIX time in seconds (the Kinesis `timestamp`).
pub(crate) mod unix_seconds {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<OffsetDateTime>, D::Error> {
        match Option::<i64>::deserialize(d)? {
            None => Ok(None),
            Some(seconds) => OffsetDateTime::from_unix_timestamp(seconds)
                .map(Some)
                .map_err(|err| D::Error::custom(format_args!("UNIX time {seconds} out of range: {err}"))),
        }
    }

    pub(crate) fn serialize<S: Serializer>(value: &OffsetDateTime, s: S) -> Result<S::Ok, S::Error> {
        s.serialize_i64(value.unix_timestamp())
    }
}

/// A JSON number held as `f64` (`threshold`, memory sizes), read exactly and written without a
/// fraction when it has none (`100`, not `100.0`), as the servers write it, so a value read and
/// written back is the same JSON.
pub(crate) mod decimal {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
        match Number::deserialize(d)? {
            Number::Null => Ok(None),
            Number::Value(value) => Ok(Some(value)),
            Number::Text(_) => Err(D::Error::custom("expected a number")),
        }
    }

    pub(crate) fn serialize<S: Serializer>(value: &f64, s: S) -> Result<S::Ok, S::Error> {
        serialize_number(*value, s)
    }
}

/// A scalar that should be a number, read from its exact JSON text: `f64::from_str` rounds
/// correctly, where serde_json's default float parsing may be off by one unit in the last place
/// (its exact mode is a crate feature we do not switch on for every user).
pub(crate) enum Number {
    /// `null`.
    Null,
    /// A JSON number.
    Value(f64),
    /// A JSON string (the caller decides what it means).
    Text(String),
}

impl<'de> Deserialize<'de> for Number {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let raw = Box::<RawValue>::deserialize(d)?;
        let text = raw.get();
        match text.as_bytes().first() {
            Some(b'n') => Ok(Number::Null),
            Some(b'"') => serde_json::from_str(text).map(Number::Text).map_err(D::Error::custom),
            Some(b'-' | b'0'..=b'9') => text.parse().map(Number::Value).map_err(D::Error::custom),
            _ => Err(D::Error::custom(format_args!("expected a number, found {}", kind_of(text)))),
        }
    }
}

/// What kind of JSON value `text` is, for an error message that must not quote it.
fn kind_of(text: &str) -> &'static str {
    match text.as_bytes().first() {
        Some(b'{') => "an object",
        Some(b'[') => "an array",
        Some(b't' | b'f') => "a boolean",
        _ => "another value",
    }
}

/// Writes a whole number below 2^53 as an integer, any other as a float.
pub(crate) fn serialize_number<S: Serializer>(value: f64, s: S) -> Result<S::Ok, S::Error> {
    if value.fract() == 0.0 && value.abs() < 9.0e15 { s.serialize_i64(value as i64) } else { s.serialize_f64(value) }
}
