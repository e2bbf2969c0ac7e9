//! The direct reader: decodes a response body straight into the models, without serde's
//! visitor machinery, for the bodies that are all a client ever receives in bulk.
//!
//! serde_json's typed decoding of a 10,000-pipe list costs more than four times a bare parse of
//! the same bytes: every value goes through a visitor, an `Option` and a `Result` several
//! layers deep, and every text is found through a thread-local lookup. This reader walks the
//! body once, matches keys in place, makes every text a range of the shared body, and keeps the
//! models' budget in its own state.
//!
//! It is strict and deliberately partial: whatever it does not take (a body that is not JSON, a
//! value of an unexpected type, an integer out of range, a lone surrogate, nesting deeper than
//! serde_json allows, a model over its memory budget) makes it give up with [`Bail`], and the
//! caller decodes the same body with serde, which either decodes it or says exactly what is
//! wrong and where. Whatever it does take decodes to the same value serde would make; the
//! crate's tests check that over model-shaped, mutated and arbitrary bodies.
//!
//! ```
//! use std::sync::Arc;
//! use pipe_api_types::Pipe;
//! use pipe_api_types::read::read_shared;
//!
//! let body = Arc::new(r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":"orders","x":[1]}"#.to_owned());
//! let pipe: Pipe = read_shared(&body).expect("taken by the direct reader");
//! assert_eq!(pipe.name.as_deref(), Some("orders"));
//! assert_eq!(pipe.unknown.get("x"), Some("[1]"));
//! // Anything it does not take is left to serde:
//! assert!(read_shared::<Pipe>(&Arc::new(r#"{"id":"not a uuid"}"#.to_owned())).is_err());
//! ```

use std::borrow::Cow;
use std::fmt;
use std::sync::Arc;

use serde_json::value::RawValue;

use crate::Text;
use crate::text::{MIN_MODEL_BUDGET, MODEL_BYTES_PER_BODY_BYTE};

/// The direct reader does not take this input: decode it with serde instead.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Bail;

impl fmt::Display for Bail {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("the direct reader does not take this input; decode it with serde")
    }
}

impl std::error::Error for Bail {}

/// What the direct reader gives: the value, or [`Bail`].
pub type Read<T> = Result<T, Bail>;

/// A type the direct reader decodes. Every model of this crate implements it, with the same
/// result as its `Deserialize` whenever it does not [`Bail`].
pub trait FromJson: Sized {
    /// Reads one JSON value (after any whitespace) into `Self`.
    fn read_json(reader: &mut Reader<'_>) -> Read<Self>;
}

/// Reads `body` (one JSON value, nothing after it but whitespace) into `T`, every text of the
/// result sharing `body` as [`decode_shared`](crate::decode_shared) would, and the same
/// memory budget applying ([`MODEL_BYTES_PER_BODY_BYTE`]).
pub fn read_shared<T: FromJson>(body: &Arc<String>) -> Read<T> {
    Reader::new(body.as_str(), Some(body)).read_whole()
}

/// Reads `json` into `T` with texts of their own (nothing shared).
pub fn read_str<T: FromJson>(json: &str) -> Read<T> {
    Reader::new(json, None).read_whole()
}

/// serde_json's nesting limit: deeper input is serde's to refuse.
const MAX_DEPTH: u32 = 128;

/// A position in one JSON text being read.
pub struct Reader<'a> {
    text: &'a str,
    bytes: &'a [u8],
    at: usize,
    shared: Option<&'a Arc<String>>,
    /// Bytes of models this body may still decode into.
    budget: usize,
    depth: u32,
}

impl fmt::Debug for Reader<'_> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        // Never the text: a body may carry credentials.
        f.debug_struct("Reader").field("at", &self.at).field("len", &self.bytes.len()).finish()
    }
}

/// A string read from the input: borrowed from it when it has no escapes, else its own copy
/// with the escapes resolved.
pub type Str<'a> = Cow<'a, str>;

impl<'a> Reader<'a> {
    fn new(text: &'a str, shared: Option<&'a Arc<String>>) -> Self {
        let budget = text.len().saturating_mul(MODEL_BYTES_PER_BODY_BYTE).max(MIN_MODEL_BUDGET);
        Reader { text, bytes: text.as_bytes(), at: 0, shared, budget, depth: 0 }
    }

    /// Charges a model about to be made against the body's budget.
    pub fn charge(&mut self, bytes: usize) -> Read<()> {
        self.budget = self.budget.checked_sub(bytes).ok_or(Bail)?;
        Ok(())
    }

    /// Reads the input as one `T`, with nothing after it but whitespace.
    fn read_whole<T: FromJson>(mut self) -> Read<T> {
        let value = T::read_json(&mut self)?;
        self.skip_whitespace();
        if self.at == self.bytes.len() { Ok(value) } else { Err(Bail) }
    }

    #[inline]
    fn skip_whitespace(&mut self) {
        while let Some(b' ' | b'\n' | b'\r' | b'\t') = self.bytes.get(self.at) {
            self.at += 1;
        }
    }

    /// The next byte after whitespace, not consumed.
    #[inline]
    fn peek(&mut self) -> Read<u8> {
        self.skip_whitespace();
        self.bytes.get(self.at).copied().ok_or(Bail)
    }

    #[inline]
    fn expect_literal(&mut self, literal: &[u8]) -> Read<()> {
        if self.bytes[self.at..].starts_with(literal) {
            self.at += literal.len();
            Ok(())
        } else {
            Err(Bail)
        }
    }

    /// Reads `null` if it comes next, and says whether it did.
    #[inline]
    pub fn null(&mut self) -> Read<bool> {
        if self.peek()? == b'n' {
            self.expect_literal(b"null")?;
            Ok(true)
        } else {
            Ok(false)
        }
    }

    /// Whether a string comes next.
    pub fn next_is_string(&mut self) -> Read<bool> {
        Ok(self.peek()? == b'"')
    }

    /// Reads `true` or `false`.
    pub fn bool(&mut self) -> Read<bool> {
        match self.peek()? {
            b't' => self.expect_literal(b"true").map(|()| true),
            b'f' => self.expect_literal(b"false").map(|()| false),
            _ => Err(Bail),
        }
    }

    /// Reads a JSON string.
    // Every key goes through here. Left to itself the compiler kept it out of line, and the
    // call's saving and restoring of registers cost 7% of a list decode's instructions.
    #[inline(always)]
    pub fn string(&mut self) -> Read<Str<'a>> {
        if self.peek()? != b'"' {
            return Err(Bail);
        }
        self.at += 1;
        let start = self.at;
        let end = self.scan_plain(start);
        match self.bytes.get(end) {
            Some(b'"') => {
                self.at = end + 1;
                // Both ends sit next to an ASCII quote, so on character boundaries.
                Ok(Cow::Borrowed(self.text.get(start..end).ok_or(Bail)?))
            }
            Some(b'\\') => self.unescape(start, end).map(Cow::Owned),
            // A control character, or the end of the input.
            _ => Err(Bail),
        }
    }

    /// A [`Text`] of the string read: a range of the shared body when it has no escapes.
    #[inline]
    pub fn text(&mut self) -> Read<Text> {
        // The common case without building a `Str` first: no escapes, a range of the body.
        if self.peek()? == b'"' {
            let start = self.at + 1;
            let end = self.scan_plain(start);
            if self.bytes.get(end) == Some(&b'"') {
                if let Some(body) = self.shared {
                    self.at = end + 1;
                    return Ok(Text::from_shared_range(body, start, end));
                }
            }
        }
        let string = self.string()?;
        Ok(self.to_text(string))
    }

    /// The [`Text`] of a string this reader read.
    #[inline]
    pub fn to_text(&self, string: Str<'a>) -> Text {
        match (string, self.shared) {
            (Cow::Borrowed(text), Some(body)) => {
                // Borrowed from the input, so this is its offset there.
                let start = text.as_ptr() as usize - self.text.as_ptr() as usize;
                Text::from_shared_range(body, start, start + text.len())
            }
            (Cow::Borrowed(text), None) => Text::from(text),
            (Cow::Owned(text), _) => Text::from(text),
        }
    }

    #[inline]
    fn scan_plain(&self, from: usize) -> usize {
        plain_until(self.bytes, from)
    }

    /// Reads the rest of a string that has escapes, from `start` (its first byte) with the
    /// first backslash at `at`.
    fn unescape(&mut self, start: usize, mut at: usize) -> Read<String> {
        let mut out = String::with_capacity(at - start + 16);
        out.push_str(self.text.get(start..at).ok_or(Bail)?);
        loop {
            match self.bytes.get(at) {
                Some(b'"') => {
                    self.at = at + 1;
                    return Ok(out);
                }
                Some(b'\\') => {
                    let escaped = *self.bytes.get(at + 1).ok_or(Bail)?;
                    at += 2;
                    match escaped {
                        b'"' => out.push('"'),
                        b'\\' => out.push('\\'),
                        b'/' => out.push('/'),
                        b'b' => out.push('\u{8}'),
                        b'f' => out.push('\u{c}'),
                        b'n' => out.push('\n'),
                        b'r' => out.push('\r'),
                        b't' => out.push('\t'),
                        b'u' => {
                            let unit = self.hex4(at)?;
                            at += 4;
                            let code = match unit {
                                0xD800..=0xDBFF => {
                                    // A leading surrogate must be followed by a trailing one.
                                    if self.bytes.get(at..at + 2) != Some(b"\\u") {
                                        return Err(Bail);
                                    }
                                    let low = self.hex4(at + 2)?;
                                    if !(0xDC00..=0xDFFF).contains(&low) {
                                        return Err(Bail);
                                    }
                                    at += 6;
                                    0x10000 + ((u32::from(unit) - 0xD800) << 10) + (u32::from(low) - 0xDC00)
                                }
                                0xDC00..=0xDFFF => return Err(Bail),
                                _ => u32::from(unit),
                            };
                            out.push(char::from_u32(code).ok_or(Bail)?);
                        }
                        _ => return Err(Bail),
                    }
                }
                Some(_) => {
                    let end = self.scan_plain(at);
                    if end == at {
                        // A control character.
                        return Err(Bail);
                    }
                    out.push_str(self.text.get(at..end).ok_or(Bail)?);
                    at = end;
                }
                None => return Err(Bail),
            }
        }
    }

    fn hex4(&self, at: usize) -> Read<u16> {
        let digits = self.bytes.get(at..at + 4).ok_or(Bail)?;
        digits.iter().try_fold(0u16, |value, &digit| {
            let nibble = (digit as char).to_digit(16).ok_or(Bail)?;
            Ok(value << 4 | nibble as u16)
        })
    }

    /// Reads a JSON number (checking its grammar): its text, and whether it is an integer.
    fn number_text(&mut self) -> Read<(&'a str, bool)> {
        self.skip_whitespace();
        let start = self.at;
        let bytes = self.bytes;
        let mut at = start;
        if bytes.get(at) == Some(&b'-') {
            at += 1;
        }
        let digits = |mut at: usize| {
            while bytes.get(at).is_some_and(u8::is_ascii_digit) {
                at += 1;
            }
            at
        };
        match bytes.get(at) {
            Some(b'0') => at += 1,
            Some(b'1'..=b'9') => at = digits(at),
            _ => return Err(Bail),
        }
        let mut integer = true;
        if bytes.get(at) == Some(&b'.') {
            let end = digits(at + 1);
            if end == at + 1 {
                return Err(Bail);
            }
            (at, integer) = (end, false);
        }
        if let Some(b'e' | b'E') = bytes.get(at) {
            at += 1;
            if let Some(b'+' | b'-') = bytes.get(at) {
                at += 1;
            }
            let end = digits(at);
            if end == at {
                return Err(Bail);
            }
            (at, integer) = (end, false);
        }
        self.at = at;
        Ok((self.text.get(start..at).ok_or(Bail)?, integer))
    }

    /// Reads a non-negative integer that fits a `u64` (no fraction, no exponent).
    pub fn u64(&mut self) -> Read<u64> {
        match self.number_text()? {
            (text, true) if !text.starts_with('-') => text.parse().map_err(|_| Bail),
            _ => Err(Bail),
        }
    }

    /// Reads an integer that fits an `i64` (no fraction, no exponent; not `-0`, which
    /// serde_json reads as a float).
    pub fn i64(&mut self) -> Read<i64> {
        match self.number_text()? {
            (text, true) if text != "-0" => text.parse().map_err(|_| Bail),
            _ => Err(Bail),
        }
    }

    /// Reads a number as an `f64`, the way serde_json does: an integer that fits 64 bits is
    /// converted from the integer, anything else is parsed with correct rounding; a number
    /// too large for `f64` is refused.
    pub fn f64(&mut self) -> Read<f64> {
        let (text, integer) = self.number_text()?;
        if integer {
            // serde_json negates the magnitude, so `-0` is `-0.0`.
            let (negative, magnitude) = match text.strip_prefix('-') {
                Some(magnitude) => (true, magnitude),
                None => (false, text),
            };
            if let Ok(magnitude) = magnitude.parse::<u64>() {
                return Ok(if negative { -(magnitude as f64) } else { magnitude as f64 });
            }
        }
        let value: f64 = text.parse().map_err(|_| Bail)?;
        if value.is_finite() { Ok(value) } else { Err(Bail) }
    }

    /// Reads an object, calling `each` with every key; `each` must read the key's value.
    #[inline]
    pub fn object(&mut self, mut each: impl FnMut(&mut Self, Str<'a>) -> Read<()>) -> Read<()> {
        self.sequence(b'{', b'}', |reader| {
            let key = reader.string()?;
            if reader.peek()? != b':' {
                return Err(Bail);
            }
            reader.at += 1;
            each(reader, key)
        })
    }

    /// Reads a member's value into `slot`, as a derived `Deserialize` reads a struct's field:
    /// a member given twice is refused.
    pub fn read_once<T: FromJson>(&mut self, slot: &mut Option<T>) -> Read<()> {
        if slot.is_some() {
            return Err(Bail);
        }
        *slot = Some(T::read_json(self)?);
        Ok(())
    }

    /// Reads an array, calling `each` for every element; `each` must read the element.
    #[inline]
    pub fn array(&mut self, each: impl FnMut(&mut Self) -> Read<()>) -> Read<()> {
        self.sequence(b'[', b']', each)
    }

    /// Reads `open`, then elements separated by commas up to `close`; `element` reads each.
    #[inline]
    fn sequence(&mut self, open: u8, close: u8, mut element: impl FnMut(&mut Self) -> Read<()>) -> Read<()> {
        if self.peek()? != open {
            return Err(Bail);
        }
        self.at += 1;
        self.enter()?;
        if self.peek()? != close {
            loop {
                element(self)?;
                match self.peek()? {
                    b',' => self.at += 1,
                    byte if byte == close => break,
                    _ => return Err(Bail),
                }
            }
        }
        self.at += 1;
        self.depth -= 1;
        Ok(())
    }

    fn enter(&mut self) -> Read<()> {
        self.depth += 1;
        if self.depth > MAX_DEPTH { Err(Bail) } else { Ok(()) }
    }

    /// Reads any JSON value, checking it, and gives its exact text.
    pub fn raw(&mut self) -> Read<&'a str> {
        self.skip_whitespace();
        let start = self.at;
        self.skip_value()?;
        self.text.get(start..self.at).ok_or(Bail)
    }

    /// Reads any JSON value, checking it, and keeps its exact text as a [`Text`] (shared, when
    /// the body is).
    pub fn raw_text(&mut self) -> Read<Text> {
        let raw = self.raw()?;
        Ok(self.to_text(Cow::Borrowed(raw)))
    }

    /// Reads any JSON value, checking it, and keeps its exact text, as serde_json's
    /// `RawValue` does.
    pub fn raw_value(&mut self) -> Read<Box<RawValue>> {
        RawValue::from_string(self.raw()?.to_owned()).map_err(|_| Bail)
    }

    /// Reads any JSON value, checking it, and drops it.
    pub fn skip_value(&mut self) -> Read<()> {
        match self.peek()? {
            b'{' => self.object(|reader, _| reader.skip_value()),
            b'[' => self.array(Reader::skip_value),
            b'"' => self.string().map(drop),
            b't' => self.expect_literal(b"true"),
            b'f' => self.expect_literal(b"false"),
            b'n' => self.expect_literal(b"null"),
            _ => self.number_text().map(drop),
        }
    }
}

/// The first byte of `bytes` at or after `from` that is a quote, a backslash or a control character
/// (or `bytes.len()`): where a JSON string's plain run ends, reading or writing it. Eight bytes at a
/// time, the last few in a word that overlaps the bytes before them.
#[inline]
pub(crate) fn plain_until(bytes: &[u8], mut from: usize) -> usize {
    while let Some(chunk) = bytes.get(from..from + 8) {
        let flags = stop_flags(u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8])));
        if flags != 0 {
            return from + (flags.trailing_zeros() / 8) as usize;
        }
        from += 8;
    }
    let rest = bytes.len().saturating_sub(from);
    if rest == 0 {
        return from;
    }
    if let Some(chunk) = bytes.len().checked_sub(8).and_then(|start| bytes.get(start..)) {
        // The last eight bytes; those before `from` are not this run's, so they are replaced
        // by a plain byte (a flagged one could make a false flag above it).
        let theirs = u64::MAX >> (8 * rest);
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        let word = (word & !theirs) | (u64::from_le_bytes([b'a'; 8]) & theirs);
        let flags = stop_flags(word);
        return if flags == 0 { bytes.len() } else { bytes.len() - 8 + (flags.trailing_zeros() / 8) as usize };
    }
    while let Some(&byte) = bytes.get(from) {
        if needs_escape(byte) {
            return from;
        }
        from += 1;
    }
    from
}

/// Whether a JSON string cannot hold `byte` as it is: a quote, a backslash or a control
/// character ([`stop_flags`] is the same rule, eight bytes at a time).
#[inline]
pub(crate) const fn needs_escape(byte: u8) -> bool {
    byte == b'"' || byte == b'\\' || byte < 0x20
}

/// The high bit of each byte of `word` that is a quote, a backslash or below 0x20 is set. A
/// borrow can also set it in a byte above a flagged one, never below, so the lowest flag is exact.
#[inline]
fn stop_flags(word: u64) -> u64 {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let zero_in = |v: u64| v.wrapping_sub(ONES) & !v & HIGHS;
    let control = word.wrapping_sub(ONES * 0x20) & !word & HIGHS;
    zero_in(word ^ (ONES * u64::from(b'"'))) | zero_in(word ^ (ONES * u64::from(b'\\'))) | control
}

/// `null` reads as `None`.
impl<T: FromJson> FromJson for Option<T> {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        if reader.null()? { Ok(None) } else { T::read_json(reader).map(Some) }
    }
}

/// Most lists of a response are short (a pipe's columns, its field mappings): their first
/// elements are gathered on the stack, so that a short list is allocated once, at its exact
/// size, instead of growing through 4, 8 and 16.
const GATHERED: usize = 16;

/// Lists nested at most this deep are a response's main list (a list answer's `result`, an
/// alert page's `data`): they fill nearly all of the rest of the body.
const MAIN_LIST_DEPTH: u32 = 2;

impl<T: FromJson> FromJson for Vec<T> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let mut first: [Option<T>; GATHERED] = [const { None }; GATHERED];
        let mut count = 0;
        let mut items = Vec::new();
        let mut started = 0;
        reader.array(|reader| {
            if count == 0 {
                started = reader.at;
            }
            let item = T::read_json(reader)?;
            if count < GATHERED {
                first[count] = Some(item);
            } else {
                if count == GATHERED {
                    let expected = reader.expected_length(started, GATHERED);
                    // Never more than the models' budget allows: the reservation is memory too.
                    let affordable = expected.saturating_mul(size_of::<T>()) <= reader.budget;
                    items.reserve_exact(if affordable { expected.max(2 * GATHERED) } else { 2 * GATHERED });
                    items.extend(first.iter_mut().filter_map(Option::take));
                }
                items.push(item);
            }
            count += 1;
            Ok(())
        })?;
        if count <= GATHERED {
            items.reserve_exact(count);
            items.extend(first[..count].iter_mut().filter_map(Option::take));
        } else if items.capacity() - items.len() > items.len() / 4 {
            items.shrink_to_fit();
        }
        Ok(items)
    }
}

impl Reader<'_> {
    /// How long a main list is likely to be, once its first `read` elements took the input
    /// from `started` to here: the rest of the body at the same rate, and a tenth more; `0`
    /// for any other list, which grows as usual. Growing a 10,000-pipe list by doubling copies
    /// it and touches twice its memory.
    fn expected_length(&self, started: usize, read: usize) -> usize {
        let taken = self.at - started;
        if self.depth > MAIN_LIST_DEPTH || taken == 0 {
            return 0;
        }
        let rest = (self.bytes.len() - self.at) / taken.div_ceil(read);
        read + rest + rest / 10
    }
}

impl<T: FromJson> FromJson for Box<T> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        T::read_json(reader).map(Box::new)
    }
}

impl FromJson for Text {
    #[inline]
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.text()
    }
}

impl FromJson for String {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.string().map(Cow::into_owned)
    }
}

impl FromJson for bool {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.bool()
    }
}

impl FromJson for u64 {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.u64()
    }
}

impl FromJson for u32 {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        u32::try_from(reader.u64()?).map_err(|_| Bail)
    }
}

impl FromJson for u16 {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        u16::try_from(reader.u64()?).map_err(|_| Bail)
    }
}

impl FromJson for i64 {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.i64()
    }
}

impl FromJson for f64 {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.f64()
    }
}

impl FromJson for Box<RawValue> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.raw_value()
    }
}

/// Any JSON value, checked and dropped.
#[derive(Debug)]
pub struct Skipped;

impl FromJson for Skipped {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        reader.skip_value().map(|()| Skipped)
    }
}

/// The untyped escape hatch: whatever serde_json makes of the value's text.
impl FromJson for serde_json::Value {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        serde_json::from_str(reader.raw()?).map_err(|_| Bail)
    }
}
