//! The direct writer (`pipe_api_types::write`) writes byte for byte what serde_json writes,
//! for any text (control characters, quotes, backslashes, any Unicode), any number, and fails
//! exactly where serde_json fails. Model shapes are covered by `round_trip.rs`.

use pipe_api_types::write::{ToJson, to_json_vec};
use pipe_api_types::*;
use proptest::prelude::*;
use serde::Serialize;

fn same_bytes<T: Serialize + ToJson>(value: &T) -> Result<(), TestCaseError> {
    match (to_json_vec(value), serde_json::to_vec(value)) {
        (Ok(direct), Ok(by_serde)) => {
            prop_assert_eq!(String::from_utf8(direct).unwrap(), String::from_utf8(by_serde).unwrap())
        }
        (Err(_), Err(_)) => {}
        (direct, by_serde) => prop_assert!(false, "direct {:?}, serde {:?}", direct.is_ok(), by_serde.is_ok()),
    }
    Ok(())
}

/// Any characters, with every control character, quote and backslash as likely as the rest.
fn text() -> impl Strategy<Value = String> {
    let special =
        prop_oneof![(0u8..0x20).prop_map(char::from), Just('"'), Just('\\'), Just('\u{7f}'), Just('\u{2028}')];
    prop::collection::vec(prop_oneof![any::<char>(), special], 0..16).prop_map(String::from_iter)
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 5000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Texts of every kind, in a field, an unknown field's name and an enum value.
    #[test]
    fn any_text_is_escaped_as_serde_json_escapes_it(text in text()) {
        let mut request = CreatePipeRequest::default().name(text.as_str());
        request.unknown.insert(text.as_str(), &text).unwrap();
        same_bytes(&request)?;
        same_bytes(&PipeState::from(text.as_str()))?;
        same_bytes(&Text::from(text.as_str()))?;
        // What decides whether a known enum value may be written as a constant.
        let plain = pipe_api_types::write::is_plain(&text);
        prop_assert_eq!(plain, serde_json::to_string(&text).unwrap() == format!("\"{text}\""));
    }

    /// Numbers: whole, fractional, huge, tiny, negative zero and not finite, through every
    /// numeric codec.
    #[test]
    fn any_number_is_written_as_serde_json_writes_it(
        value in prop_oneof![any::<f64>(), -1.0e16f64..1.0e16, (any::<i32>()).prop_map(f64::from), Just(-0.0), Just(f64::NAN), Just(f64::INFINITY)],
        count in any::<u64>(),
    ) {
        let json = serde_json::json!({
            "replicas": count % 100, "concurrency": count % 7,
            "replicaCpuMillicores": if value.is_finite() { serde_json::json!(value) } else { serde_json::json!("500m") },
        });
        let scaling: Scaling = serde_json::from_value(json).unwrap();
        same_bytes(&scaling)?;
        same_bytes(&Scaling::default().replica_memory_gb(Quantity::new(value)))?;
        same_bytes(&value)?;
        same_bytes(&count)?;
    }
}

/// A date RFC 3339 cannot express fails both ways; the client then reports serde's error.
#[test]
fn an_unwritable_date_fails_as_serde_fails() {
    let far = time::macros::datetime!(-0001-01-01 0:00 UTC);
    let request = CreateKeyRequest::new("ci", vec![KeyRole::Developer]).expire_at(far);
    assert!(to_json_vec(&request).is_err());
    assert!(serde_json::to_vec(&request).is_err());
}
