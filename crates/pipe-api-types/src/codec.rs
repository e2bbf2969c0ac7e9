//! How one field's value travels as JSON, when it is not the value type's own serde form.
//!
//! A [`model!`](crate::macros) field names its codec with `as`; every codec decodes to
//! `Option<T>` so that `null` reads as "absent" the same way everywhere.

use std::fmt;
use std::marker::PhantomData;

use serde::de::{DeserializeOwned, DeserializeSeed, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};
use time::format_description::well_known::Rfc3339 as Rfc3339Format;
use time::macros::format_description;
use time::{OffsetDateTime, PrimitiveDateTime};

use crate::read::{FromJson, Read, Reader, Str};
use crate::write::{ToJson, Unwritable, Written, write_f64, write_i64, write_str};

/// Reads and writes a field's value of type `T`.
pub(crate) trait Codec<T> {
    /// Reads the value; `Ok(None)` means "absent" (`null`, or an equivalent the server uses).
    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error>;
    /// Reads the value with the direct reader, to the same result as `decode`.
    fn read(reader: &mut Reader<'_>) -> Read<Option<T>>;
    /// Writes the value with the direct writer, the same bytes `encode` makes with serde_json.
    fn write(value: &T, out: &mut Vec<u8>) -> Written;
    /// Writes the value.
    fn encode<S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error>;
}

/// The value's own serde form.
pub(crate) struct Plain;

impl<T: Serialize + DeserializeOwned + FromJson + ToJson> Codec<T> for Plain {
    #[inline]
    fn write(value: &T, out: &mut Vec<u8>) -> Written {
        value.write_json(out)
    }

    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<T>, D::Error> {
        Option::<T>::deserialize(deserializer)
    }

    #[inline]
    fn read(reader: &mut Reader<'_>) -> Read<Option<T>> {
        Option::<T>::read_json(reader)
    }

    fn encode<S: Serializer>(value: &T, serializer: S) -> Result<S::Ok, S::Error> {
        value.serialize(serializer)
    }
}

/// Seed that decodes one field through codec `C`.
pub(crate) struct Decode<C, T>(PhantomData<fn() -> (C, T)>);

impl<C, T> Decode<C, T> {
    pub(crate) fn new() -> Self {
        Decode(PhantomData)
    }
}

impl<'de, C: Codec<T>, T> DeserializeSeed<'de> for Decode<C, T> {
    type Value = Option<T>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Option<T>, D::Error> {
        C::decode(deserializer)
    }
}

/// Writes one field's value through codec `C`.
pub(crate) struct Encode<'a, C, T>(&'a T, PhantomData<fn() -> C>);

impl<'a, C, T> Encode<'a, C, T> {
    pub(crate) fn new(value: &'a T) -> Self {
        Encode(value, PhantomData)
    }
}

impl<C: Codec<T>, T> Serialize for Encode<'_, C, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        C::encode(self.0, serializer)
    }
}

/// Reads an optional string, treating `""` like `null`: the services send both for "not set".
struct OptionalText;

impl<'de> Visitor<'de> for OptionalText {
    type Value = Option<std::borrow::Cow<'de, str>>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("a string or null")
    }

    fn visit_borrowed_str<E: serde::de::Error>(self, v: &'de str) -> Result<Self::Value, E> {
        Ok((!v.is_empty()).then_some(std::borrow::Cow::Borrowed(v)))
    }

    fn visit_str<E: serde::de::Error>(self, v: &str) -> Result<Self::Value, E> {
        Ok((!v.is_empty()).then(|| std::borrow::Cow::Owned(v.to_owned())))
    }

    fn visit_none<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_unit<E: serde::de::Error>(self) -> Result<Self::Value, E> {
        Ok(None)
    }

    fn visit_some<D: Deserializer<'de>>(self, d: D) -> Result<Self::Value, D::Error> {
        d.deserialize_str(OptionalText)
    }
}

fn optional_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<std::borrow::Cow<'de, str>>, D::Error> {
    deserializer.deserialize_option(OptionalText)
}

/// [`optional_text`] for the direct reader.
fn read_optional_text<'a>(reader: &mut Reader<'a>) -> Read<Option<Str<'a>>> {
    if reader.null()? {
        return Ok(None);
    }
    let text = reader.string()?;
    Ok((!text.is_empty()).then_some(text))
}

/// An RFC 3339 date-time (`createdAt`, `updatedAt`, `usedAt`, `expireAt`, ...). `null` and `""`
/// both read as absent: the key service sends `expireAt: ""` for "never expires". Text that is no
/// date-time also reads as absent.
pub(crate) struct Rfc3339;

impl Codec<OffsetDateTime> for Rfc3339 {
    fn write(value: &OffsetDateTime, out: &mut Vec<u8>) -> Written {
        // Fails where `encode` fails: a date RFC 3339 cannot express.
        write_str(out, &value.format(&Rfc3339Format).map_err(|_| Unwritable)?);
        Ok(())
    }

    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<OffsetDateTime>, D::Error> {
        match optional_text(deserializer)? {
            None => Ok(None),
            // A response model is lenient: a date the server mangled reads as absent rather
            // than failing the whole answer.
            Some(text) => Ok(parse_rfc3339(&text)),
        }
    }

    fn read(reader: &mut Reader<'_>) -> Read<Option<OffsetDateTime>> {
        Ok(read_optional_text(reader)?.and_then(|text| parse_rfc3339(&text)))
    }

    fn encode<S: Serializer>(value: &OffsetDateTime, serializer: S) -> Result<S::Ok, S::Error> {
        let text = value.format(&Rfc3339Format).map_err(serde::ser::Error::custom)?;
        serializer.serialize_str(&text)
    }
}

/// Parses an RFC 3339 date-time as `time` does. The form every server sends,
/// `YYYY-MM-DDTHH:MM:SS[.fraction]Z`, is read directly (a list of pipes holds two per pipe,
/// and `time`'s general parser costs several times more); anything else, including any value
/// out of range, is left to `time`.
pub fn parse_rfc3339(text: &str) -> Option<OffsetDateTime> {
    parse_utc_fast(text.as_bytes()).or_else(|| OffsetDateTime::parse(text, &Rfc3339Format).ok())
}

fn parse_utc_fast(bytes: &[u8]) -> Option<OffsetDateTime> {
    let digits = |range: std::ops::Range<usize>| -> Option<u32> {
        bytes
            .get(range)?
            .iter()
            .try_fold(0u32, |value, &b| b.is_ascii_digit().then(|| value * 10 + u32::from(b - b'0')))
    };
    if bytes.len() < 20
        || bytes[4] != b'-'
        || bytes[7] != b'-'
        || bytes[10] != b'T'
        || bytes[13] != b':'
        || bytes[16] != b':'
    {
        return None;
    }
    let (year, month, day) = (digits(0..4)?, digits(5..7)?, digits(8..10)?);
    let (hour, minute, second) = (digits(11..13)?, digits(14..16)?, digits(17..19)?);
    let nanos = match &bytes[19..] {
        b"Z" => 0,
        [b'.', fraction @ .., b'Z'] if (1..=9).contains(&fraction.len()) => {
            digits(20..20 + fraction.len())? * 10u32.pow(9 - fraction.len() as u32)
        }
        _ => return None,
    };
    // A leap second (60) and every other edge is `time`'s to judge.
    if second > 59 {
        return None;
    }
    let month = time::Month::try_from(u8::try_from(month).ok()?).ok()?;
    let date = time::Date::from_calendar_date(i32::try_from(year).ok()?, month, u8::try_from(day).ok()?).ok()?;
    let clock =
        time::Time::from_hms_nano(u8::try_from(hour).ok()?, u8::try_from(minute).ok()?, second as u8, nanos).ok()?;
    Some(PrimitiveDateTime::new(date, clock).assume_utc())
}

/// A date-time without zone designator, minute precision with optional seconds
/// (`"2021-01-01T00:00"`), as the Kafka `offset.timestamp` is written. It is UTC by contract.
pub(crate) struct ZonelessDateTime;

impl Codec<PrimitiveDateTime> for ZonelessDateTime {
    fn write(value: &PrimitiveDateTime, out: &mut Vec<u8>) -> Written {
        write_str(out, &format_zoneless(value));
        Ok(())
    }

    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<PrimitiveDateTime>, D::Error> {
        match optional_text(deserializer)? {
            None => Ok(None),
            // Lenient like every response field: unreadable text reads as absent.
            Some(text) => Ok(parse_zoneless(&text)),
        }
    }

    fn read(reader: &mut Reader<'_>) -> Read<Option<PrimitiveDateTime>> {
        Ok(read_optional_text(reader)?.and_then(|text| parse_zoneless(&text)))
    }

    fn encode<S: Serializer>(value: &PrimitiveDateTime, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&format_zoneless(value))
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
pub(crate) struct UnixSeconds;

impl Codec<OffsetDateTime> for UnixSeconds {
    fn write(value: &OffsetDateTime, out: &mut Vec<u8>) -> Written {
        write_i64(out, value.unix_timestamp());
        Ok(())
    }

    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<OffsetDateTime>, D::Error> {
        match Option::<i64>::deserialize(deserializer)? {
            None => Ok(None),
            Some(seconds) => OffsetDateTime::from_unix_timestamp(seconds)
                .map(Some)
                .map_err(|err| serde::de::Error::custom(format_args!("UNIX time {seconds} out of range: {err}"))),
        }
    }

    fn read(reader: &mut Reader<'_>) -> Read<Option<OffsetDateTime>> {
        match Option::<i64>::read_json(reader)? {
            None => Ok(None),
            Some(seconds) => OffsetDateTime::from_unix_timestamp(seconds).map(Some).map_err(|_| crate::read::Bail),
        }
    }

    fn encode<S: Serializer>(value: &OffsetDateTime, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_i64(value.unix_timestamp())
    }
}

/// A JSON number held as `f64` (`threshold`, memory sizes), written without a fraction when it
/// has none (`100`, not `100.0`), as the servers write it, so a value read and written back is
/// the same JSON.
pub(crate) struct Decimal;

impl Codec<f64> for Decimal {
    fn write(value: &f64, out: &mut Vec<u8>) -> Written {
        write_number(*value, out);
        Ok(())
    }

    fn decode<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<f64>, D::Error> {
        Option::<f64>::deserialize(deserializer)
    }

    fn read(reader: &mut Reader<'_>) -> Read<Option<f64>> {
        Option::<f64>::read_json(reader)
    }

    fn encode<S: Serializer>(value: &f64, serializer: S) -> Result<S::Ok, S::Error> {
        encode_number(*value, serializer)
    }
}

/// [`encode_number`] for the direct writer.
pub(crate) fn write_number(value: f64, out: &mut Vec<u8>) {
    match as_whole_number(value) {
        Some(whole) => write_i64(out, whole),
        None => write_f64(out, value),
    }
}

/// Writes a whole number below 2^53 as an integer, any other as a float.
pub(crate) fn encode_number<S: Serializer>(value: f64, serializer: S) -> Result<S::Ok, S::Error> {
    match as_whole_number(value) {
        Some(whole) => serializer.serialize_i64(whole),
        None => serializer.serialize_f64(value),
    }
}

/// The number as an integer when it is whole and below 2^53 (exact in both forms).
fn as_whole_number(value: f64) -> Option<i64> {
    (value.fract() == 0.0 && value.abs() < 9.0e15).then_some(value as i64)
}
