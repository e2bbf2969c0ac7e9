//! A text member of what a server sends (a request id, an error's message), read as a text
//! the crate keeps: scrubbed of what the call sent, then cut to [`FIELD_MAX`] bytes; anything
//! but a string is nothing. A leaf that both the success decode (`crate::decode`) and the
//! error bodies' reader (`crate::error::body`) use, so that neither depends on the other for it.

use std::fmt;

use serde::de::{self, Deserialize, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::redact::SentSecrets;

/// The longest text kept of any one field (longer ones are cut, marked with `…`).
pub(crate) const FIELD_MAX: usize = 1024;

/// The scalars (booleans, numbers, null) of a visitor that finds nothing in them.
macro_rules! scalars_are_nothing {
    () => {
        fn visit_bool<E: de::Error>(self, _: bool) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_i64<E: de::Error>(self, _: i64) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_u64<E: de::Error>(self, _: u64) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_f64<E: de::Error>(self, _: f64) -> Result<Self::Value, E> {
            Ok(None)
        }

        fn visit_unit<E: de::Error>(self) -> Result<Self::Value, E> {
            Ok(None)
        }
    };
}

/// A text member, scrubbed of what the call sent, then cut.
pub(crate) struct Text<'s>(pub(crate) &'s SentSecrets);

/// A server's text member (a request id, a message): the text, cut to [`FIELD_MAX`], or
/// nothing when the member is anything but a string. For `#[serde(deserialize_with)]` in a
/// success body, whose reader scrubs every text before this sees it.
pub(crate) fn server_text<'de, D: Deserializer<'de>>(deserializer: D) -> Result<Option<String>, D::Error> {
    Text(&SentSecrets::NONE).deserialize(deserializer)
}

impl<'de> DeserializeSeed<'de> for Text<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Text<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<Self::Value, E> {
        Ok(Some(self.0.kept(text, FIELD_MAX)))
    }

    scalars_are_nothing!();

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        while map.next_entry::<IgnoredAny, IgnoredAny>()?.is_some() {}
        Ok(None)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<Self::Value, A::Error> {
        while seq.next_element::<IgnoredAny>()?.is_some() {}
        Ok(None)
    }
}

/// The name of a member a server's body may hold that this crate reads (an answer's envelope,
/// an error body), or any other: one reader of names for both (not generic: compiled once).
pub(crate) enum Member {
    RequestId,
    Result,
    Error,
    Message,
    Code,
    Other,
}

impl<'de> Deserialize<'de> for Member {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct NameVisitor;

        impl Visitor<'_> for NameVisitor {
            type Value = Member;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a member name")
            }

            fn visit_str<E: de::Error>(self, name: &str) -> Result<Member, E> {
                Ok(match name {
                    "requestId" => Member::RequestId,
                    "result" => Member::Result,
                    "error" => Member::Error,
                    "message" => Member::Message,
                    "code" => Member::Code,
                    _ => Member::Other,
                })
            }
        }

        deserializer.deserialize_identifier(NameVisitor)
    }
}

pub(crate) use scalars_are_nothing;
