//! [`Text`]: the string of every text field. It owns its text; texts of up to 22 bytes (most
//! names, types, states and short ids) are kept inline, with no allocation.
//!
//! Why not `String`: a 10,000-pipe list holds about half a million short texts, and allocating
//! and freeing each one costs more than parsing the JSON (`decode` section of
//! `cargo bench -p pipe-api-tests --bench ratios`). Why our own inline storage, not a
//! small-string crate's: this one is a few lines of safe code, where compact_str and the four
//! crates it builds on (a proc-macro among them) cost every build of the client about 2 s of CPU.

use std::borrow::{Borrow, Cow};
use std::cmp::Ordering;
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;

use serde::de::{self, Visitor};
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// The most bytes a text keeps inline: with its length and the variant's tag, a [`Text`] is as
/// large as a `String` (24 bytes).
const INLINE: usize = 22;

/// An owned, immutable text. Reads like `&str` (`Deref`, `Display`, comparisons with `str` and
/// `String`); made from `&str` or `String`; `String::from(text)` turns it back.
#[derive(Clone)]
pub struct Text(Repr);

/// Where a text is kept: inline when it fits, on the heap when it does not (every constructor
/// chooses by length, so equal texts are kept alike; comparisons read the text all the same).
#[derive(Clone)]
enum Repr {
    /// `bytes[..len]`, copied from a `&str` whole.
    Inline {
        len: u8,
        bytes: [u8; INLINE],
    },
    Heap(Box<str>),
}

impl Text {
    /// The text.
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Inline { len, bytes } => inline_str(&bytes[..usize::from(*len)]),
            Repr::Heap(text) => text,
        }
    }

    /// `text` kept inline, if it fits.
    fn inline(text: &str) -> Option<Text> {
        let len = u8::try_from(text.len()).ok().filter(|&len| usize::from(len) <= INLINE)?;
        let mut bytes = [0; INLINE];
        bytes[..text.len()].copy_from_slice(text.as_bytes());
        Some(Text(Repr::Inline { len, bytes }))
    }
}

/// The text of inline bytes. They were copied from a `&str` whole, so they are UTF-8; checked
/// again here (at most 22 bytes) rather than trusted, as this crate has no unsafe code.
fn inline_str(bytes: &[u8]) -> &str {
    std::str::from_utf8(bytes).unwrap_or_default()
}

impl Default for Text {
    fn default() -> Self {
        Text(Repr::Inline { len: 0, bytes: [0; INLINE] })
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Text) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Text) -> Option<Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Text) -> Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text::inline(text).unwrap_or_else(|| Text(Repr::Heap(text.into())))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text::inline(&text).unwrap_or_else(|| Text(Repr::Heap(text.into_boxed_str())))
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Self {
        Text::from(text.as_str())
    }
}

impl From<Cow<'_, str>> for Text {
    fn from(text: Cow<'_, str>) -> Self {
        match text {
            Cow::Borrowed(text) => Text::from(text),
            Cow::Owned(text) => Text::from(text),
        }
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        match text.0 {
            Repr::Heap(text) => text.into_string(),
            Repr::Inline { .. } => text.as_str().to_owned(),
        }
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        /// Reads a string, borrowed or not, without a `String` for a text that fits inline.
        struct TextVisitor;

        impl Visitor<'_> for TextVisitor {
            type Value = Text;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_str<E: de::Error>(self, text: &str) -> Result<Text, E> {
                Ok(Text::from(text))
            }

            fn visit_string<E: de::Error>(self, text: String) -> Result<Text, E> {
                Ok(Text::from(text))
            }
        }

        deserializer.deserialize_str(TextVisitor)
    }
}
