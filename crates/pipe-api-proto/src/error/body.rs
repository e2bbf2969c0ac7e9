//! Reads the few fields an error response can carry, and nothing else.
//!
//! Why not `serde_json::Value`: a hostile error body of minimal elements (`[{"a":""},...]`)
//! becomes a value tree of about seventy times its size, a gigabyte from a 16 MiB body. Here
//! every member but the known ones is skipped with [`IgnoredAny`], and every text kept is cut
//! to [`FIELD_MAX`] bytes as it is read, so reading costs at most about the body's size (the
//! one buffer serde_json uses to unescape a string).

use std::fmt;

use serde::de::{self, DeserializeSeed, Deserializer, IgnoredAny, MapAccess, SeqAccess, Visitor};

use crate::redact::{SentSecrets, truncate};
pub(crate) use crate::server_text::FIELD_MAX;
use crate::server_text::{Member, Text, scalars_are_nothing};

/// What an error body says, each part optional.
#[derive(Debug, Default, PartialEq)]
pub(crate) struct ErrorFields {
    /// `requestId`.
    pub(crate) request_id: Option<String>,
    /// `error` (management: `"CODE: text"`), else `message` (alerting), else a bare JSON string.
    pub(crate) text: Option<String>,
    /// `code`.
    pub(crate) code: Option<String>,
    /// The `message` of every issue of an array body, joined with `; ` (cut at [`FIELD_MAX`]).
    pub(crate) issues: Option<String>,
}

/// Reads `body`, every text kept scrubbed of what the call sent (`secrets`) before it is cut;
/// `None` when it is not JSON.
pub(crate) fn parse(body: &[u8], secrets: &SentSecrets) -> Option<ErrorFields> {
    let mut json = serde_json::Deserializer::from_slice(body);
    let fields = json.deserialize_any(Top(secrets)).ok()?;
    json.end().ok()?;
    Some(fields)
}

/// The body's root: an object, an array of issues, a string, or any other JSON value.
struct Top<'s>(&'s SentSecrets);

impl<'de> Visitor<'de> for Top<'_> {
    type Value = ErrorFields;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<ErrorFields, A::Error> {
        let mut fields = ErrorFields::default();
        let (mut error, mut message) = (None, None);
        while let Some(key) = map.next_key::<Member>()? {
            // Like a JSON object read whole, a repeated member counts once, the last time.
            match key {
                Member::RequestId => fields.request_id = map.next_value_seed(Text(self.0))?,
                Member::Error => error = map.next_value_seed(Text(self.0))?,
                Member::Message => message = map.next_value_seed(Text(self.0))?,
                Member::Code => fields.code = map.next_value_seed(Text(self.0))?,
                Member::Result | Member::Other => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        fields.text = error.or(message);
        Ok(fields)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, mut seq: A) -> Result<ErrorFields, A::Error> {
        // Very old alerting servers: a list of validation issues, each with a `message`.
        let mut joined = String::new();
        let mut cut = false;
        while let Some(message) = seq.next_element_seed(Issue(self.0))? {
            let Some(message) = message else { continue };
            if cut {
                continue;
            }
            if !joined.is_empty() {
                joined.push_str("; ");
            }
            joined.push_str(&message);
            if joined.len() > FIELD_MAX {
                joined = truncate(&joined, FIELD_MAX).into_owned();
                cut = true;
            }
        }
        Ok(ErrorFields { issues: (!joined.is_empty()).then_some(joined), ..ErrorFields::default() })
    }

    fn visit_str<E: de::Error>(self, text: &str) -> Result<ErrorFields, E> {
        Ok(ErrorFields { text: Some(self.0.kept(text, FIELD_MAX)), ..ErrorFields::default() })
    }

    fn visit_bool<E: de::Error>(self, _: bool) -> Result<ErrorFields, E> {
        Ok(ErrorFields::default())
    }

    fn visit_i64<E: de::Error>(self, _: i64) -> Result<ErrorFields, E> {
        Ok(ErrorFields::default())
    }

    fn visit_u64<E: de::Error>(self, _: u64) -> Result<ErrorFields, E> {
        Ok(ErrorFields::default())
    }

    fn visit_f64<E: de::Error>(self, _: f64) -> Result<ErrorFields, E> {
        Ok(ErrorFields::default())
    }

    fn visit_unit<E: de::Error>(self) -> Result<ErrorFields, E> {
        Ok(ErrorFields::default())
    }
}

/// One element of an array body: the `message` of an object, nothing for anything else.
struct Issue<'s>(&'s SentSecrets);

impl<'de> DeserializeSeed<'de> for Issue<'_> {
    type Value = Option<String>;

    fn deserialize<D: Deserializer<'de>>(self, deserializer: D) -> Result<Self::Value, D::Error> {
        deserializer.deserialize_any(self)
    }
}

impl<'de> Visitor<'de> for Issue<'_> {
    type Value = Option<String>;

    fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("any JSON value")
    }

    fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Self::Value, A::Error> {
        let mut message = None;
        while let Some(key) = map.next_key::<Member>()? {
            match key {
                Member::Message => message = map.next_value_seed(Text(self.0))?,
                _ => {
                    map.next_value::<IgnoredAny>()?;
                }
            }
        }
        Ok(message)
    }

    fn visit_seq<A: SeqAccess<'de>>(self, seq: A) -> Result<Self::Value, A::Error> {
        Text(self.0).visit_seq(seq)
    }

    fn visit_str<E: de::Error>(self, _: &str) -> Result<Self::Value, E> {
        Ok(None)
    }

    scalars_are_nothing!();
}

#[cfg(test)]
mod tests {
    use super::{ErrorFields, FIELD_MAX};
    use crate::redact::SentSecrets;

    fn parse(body: &[u8]) -> Option<ErrorFields> {
        super::parse(body, &SentSecrets::NONE)
    }

    #[test]
    fn reads_the_known_shapes() {
        let object = parse(br#"{"status":500,"error":"BOOM: x","requestId":"r","extra":[1,{"a":2}]}"#).unwrap();
        assert_eq!(object.text.as_deref(), Some("BOOM: x"));
        assert_eq!(object.request_id.as_deref(), Some("r"));
        let issues = parse(br#"[{"message":"a"},3,"s",{"message":{"x":1}},{"message":"b","path":["p"]}]"#).unwrap();
        assert_eq!(issues.issues.as_deref(), Some("a; b"));
        assert_eq!(parse(br#""NOT_FOUND: x""#).unwrap().text.as_deref(), Some("NOT_FOUND: x"));
        assert_eq!(parse(b"true").unwrap(), ErrorFields::default());
        assert_eq!(parse(b"{} x"), None);
        assert_eq!(parse(b"<html>"), None);
    }

    #[test]
    fn texts_are_cut() {
        let long = "x".repeat(100_000);
        let fields = parse(format!(r#"{{"message":"{long}","requestId":"{long}"}}"#).as_bytes()).unwrap();
        assert!(fields.text.unwrap().len() <= FIELD_MAX);
        assert!(fields.request_id.unwrap().len() <= FIELD_MAX);
    }
}
