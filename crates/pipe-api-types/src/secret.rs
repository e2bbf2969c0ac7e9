//! A value that must not be shown: key secrets, passwords, secret access keys, private keys,
//! connection strings, service account keys.

use std::fmt;

use serde::{Deserialize, Deserializer, Serialize, Serializer};

/// A secret text. `Debug` prints `Secret([redacted])`; there is no `Display`; the text is read
/// only through [`Secret::expose_secret`]. It is serialized as the plain string, because a
/// request must carry it to the server.
#[derive(Clone, PartialEq, Eq)]
pub struct Secret(Box<str>);

impl Secret {
    /// Wraps a secret text.
    pub fn new(text: impl Into<String>) -> Self {
        Secret(text.into().into_boxed_str())
    }

    /// The secret text. Call this only where the text is needed (a request body, a header).
    pub fn expose_secret(&self) -> &str {
        &self.0
    }
}

impl From<String> for Secret {
    fn from(text: String) -> Self {
        Secret::new(text)
    }
}

impl From<&str> for Secret {
    fn from(text: &str) -> Self {
        Secret::new(text)
    }
}

impl fmt::Debug for Secret {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("Secret([redacted])")
    }
}

impl Serialize for Secret {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(&self.0)
    }
}

impl<'de> Deserialize<'de> for Secret {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        String::deserialize(deserializer).map(Secret::new)
    }
}
