//! The direct writer: writes a request model as JSON straight into a buffer, byte for byte what
//! its `Serialize` writes through serde_json, without serde's serializer machinery.
//!
//! Building a request is mostly writing its body; going through `SerializeMap`, a codec
//! wrapper and serde_json's formatter for every field costs more than the bytes themselves.
//! Keys are written as prepared literals, texts are escaped as serde_json escapes them, and
//! floating-point numbers are still formatted by serde_json, so the output is identical; the
//! crate's tests check that on every model.
//!
//! ```
//! use pipe_api_types::{CreateKeyRequest, KeyRole};
//! use pipe_api_types::write::to_json_vec;
//!
//! let request = CreateKeyRequest::new("ci \"nightly\"", vec![KeyRole::Developer]);
//! assert_eq!(to_json_vec(&request).unwrap(), serde_json::to_vec(&request)?);
//! # Ok::<(), serde_json::Error>(())
//! ```

use std::fmt;

use crate::Text;

/// The value cannot be written as JSON (a date beyond what RFC 3339 can express): serialize it
/// with serde instead, which says why.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Unwritable;

impl fmt::Display for Unwritable {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the direct writer cannot write this value; serialize it with serde to see why")
    }
}

impl std::error::Error for Unwritable {}

/// What the direct writer gives.
pub type Written = Result<(), Unwritable>;

/// A type the direct writer writes. Every model of this crate implements it, writing exactly
/// what serde_json writes for its `Serialize`, and failing exactly where that fails.
pub trait ToJson {
    /// Appends the value's JSON to `out` (on failure, `out` holds part of it).
    fn write_json(&self, out: &mut Vec<u8>) -> Written;
}

/// The value's JSON in a new buffer sized for a typical request.
pub fn to_json_vec<T: ToJson + ?Sized>(value: &T) -> Result<Vec<u8>, Unwritable> {
    let mut out = Vec::with_capacity(1024);
    value.write_json(&mut out)?;
    Ok(out)
}

/// Whether `text` is written as a JSON string without escaping anything (checked at compile
/// time for the texts written as constants).
#[doc(hidden)]
pub const fn is_plain(text: &str) -> bool {
    let bytes = text.as_bytes();
    let mut i = 0;
    while i < bytes.len() {
        if crate::read::needs_escape(bytes[i]) {
            return false;
        }
        i += 1;
    }
    true
}

/// Writes `text` as a JSON string, escaped as serde_json escapes it: `"` and `\`, the
/// control characters below 0x20 (`\b \t \n \f \r` by name, the others as `\u00XX`), nothing
/// else.
#[inline]
pub fn write_str(out: &mut Vec<u8>, text: &str) {
    let bytes = text.as_bytes();
    // Nothing to escape, the usual case: one reservation, one copy, no call.
    if crate::read::plain_until(bytes, 0) == bytes.len() {
        out.reserve(bytes.len() + 2);
        out.push(b'"');
        append(out, bytes);
        out.push(b'"');
    } else {
        write_escaped(out, bytes);
    }
}

/// Appends `bytes`. Most texts of a request are short: from 4 to 16 bytes they are copied as
/// two overlapping pieces of a fixed size, which compile to a few moves where a copy of any
/// length is a call.
#[inline]
fn append(out: &mut Vec<u8>, bytes: &[u8]) {
    fn overlapping<const N: usize>(out: &mut Vec<u8>, bytes: &[u8]) -> bool {
        let split = bytes.len().saturating_sub(N);
        let (Some(Ok(head)), Some(Ok(tail))) =
            (bytes.get(..N).map(<[u8; N]>::try_from), bytes.get(split..).map(<[u8; N]>::try_from))
        else {
            return false;
        };
        let end = out.len() + split;
        out.extend_from_slice(&head);
        // The tail rewrites the head's last bytes with the same ones.
        out.truncate(end);
        out.extend_from_slice(&tail);
        true
    }
    let done = match bytes.len() {
        8..=16 => overlapping::<8>(out, bytes),
        4..8 => overlapping::<4>(out, bytes),
        _ => false,
    };
    if !done {
        out.extend_from_slice(bytes);
    }
}

/// [`write_str`] for a text with something to escape.
fn write_escaped(out: &mut Vec<u8>, bytes: &[u8]) {
    out.push(b'"');
    let mut at = 0;
    loop {
        // Runs without anything to escape are copied whole.
        let end = crate::read::plain_until(bytes, at);
        out.extend_from_slice(&bytes[at..end]);
        let Some(&byte) = bytes.get(end) else { break };
        match byte {
            b'"' => out.extend_from_slice(b"\\\""),
            b'\\' => out.extend_from_slice(b"\\\\"),
            0x08 => out.extend_from_slice(b"\\b"),
            0x09 => out.extend_from_slice(b"\\t"),
            0x0A => out.extend_from_slice(b"\\n"),
            0x0C => out.extend_from_slice(b"\\f"),
            0x0D => out.extend_from_slice(b"\\r"),
            _ => out.extend_from_slice(&[
                b'\\',
                b'u',
                b'0',
                b'0',
                HEX[usize::from(byte >> 4)],
                HEX[usize::from(byte & 0xF)],
            ]),
        }
        at = end + 1;
    }
    out.push(b'"');
}

const HEX: &[u8; 16] = b"0123456789abcdef";

/// Writes an unsigned integer in decimal.
pub fn write_u64(out: &mut Vec<u8>, mut value: u64) {
    let mut digits = [0u8; 20];
    let mut at = digits.len();
    loop {
        at -= 1;
        digits[at] = b'0' + (value % 10) as u8;
        value /= 10;
        if value == 0 {
            break;
        }
    }
    out.extend_from_slice(&digits[at..]);
}

/// Writes a signed integer in decimal.
pub fn write_i64(out: &mut Vec<u8>, value: i64) {
    if value < 0 {
        out.push(b'-');
    }
    write_u64(out, value.unsigned_abs());
}

/// Writes a floating-point number exactly as serde_json does (`null` when not finite).
pub fn write_f64(out: &mut Vec<u8>, value: f64) {
    // serde_json's own formatting, so that the bytes are the same; writing to a Vec cannot fail.
    let _ = serde_json::to_writer(&mut *out, &value);
}

impl<T: ToJson + ?Sized> ToJson for &T {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        (**self).write_json(out)
    }
}

impl<T: ToJson> ToJson for Option<T> {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        match self {
            Some(value) => value.write_json(out),
            None => {
                out.extend_from_slice(b"null");
                Ok(())
            }
        }
    }
}

impl<T: ToJson> ToJson for [T] {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        out.push(b'[');
        for (i, item) in self.iter().enumerate() {
            if i > 0 {
                out.push(b',');
            }
            item.write_json(out)?;
        }
        out.push(b']');
        Ok(())
    }
}

impl<T: ToJson> ToJson for Vec<T> {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        self.as_slice().write_json(out)
    }
}

impl<T: ToJson + ?Sized> ToJson for Box<T> {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        (**self).write_json(out)
    }
}

macro_rules! text_to_json {
    ($($ty:ty),*) => {$(
        impl ToJson for $ty {
            fn write_json(&self, out: &mut Vec<u8>) -> Written {
                write_str(out, self);
                Ok(())
            }
        }
    )*};
}

text_to_json!(str, String, Text);

impl ToJson for bool {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        out.extend_from_slice(if *self { b"true" } else { b"false" });
        Ok(())
    }
}

macro_rules! unsigned_to_json {
    ($($ty:ty),*) => {$(
        impl ToJson for $ty {
            fn write_json(&self, out: &mut Vec<u8>) -> Written {
                write_u64(out, u64::from(*self));
                Ok(())
            }
        }
    )*};
}

unsigned_to_json!(u16, u32, u64);

impl ToJson for i64 {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        write_i64(out, *self);
        Ok(())
    }
}

impl ToJson for f64 {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        write_f64(out, *self);
        Ok(())
    }
}

impl ToJson for serde_json::Value {
    fn write_json(&self, out: &mut Vec<u8>) -> Written {
        serde_json::to_writer(&mut *out, self).map_err(|_| Unwritable)
    }
}
