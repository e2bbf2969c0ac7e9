//! [`Text`]: the string of every text field. It owns its text; texts of up to 24 bytes (most
//! names, types, states and ids) are kept inline, with no allocation.
//!
//! Why not `String`: a 10,000-pipe list holds about half a million short texts, and allocating
//! and freeing each one costs more than parsing the JSON (`decode` section of
//! `cargo bench -p pipe-api-tests --bench ratios`). The inline storage is compact_str's.

use std::borrow::{Borrow, Cow};
use std::fmt;
use std::ops::Deref;

use compact_str::CompactString;
use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// An owned, immutable text. Reads like `&str` (`Deref`, `Display`, comparisons with `str` and
/// `String`); made from `&str` or `String`; `String::from(text)` turns it back.
#[derive(Clone, Default, PartialEq, Eq, PartialOrd, Ord, Hash)]
pub struct Text(CompactString);

impl Text {
    /// The text.
    pub fn as_str(&self) -> &str {
        self.0.as_str()
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
        Text(CompactString::from(text))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text(CompactString::from(text))
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Self {
        Text::from(text.as_str())
    }
}

impl From<Cow<'_, str>> for Text {
    fn from(text: Cow<'_, str>) -> Self {
        Text(CompactString::from(text))
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        text.0.into_string()
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
        CompactString::deserialize(deserializer).map(Text)
    }
}
