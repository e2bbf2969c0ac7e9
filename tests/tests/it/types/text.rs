//! `Text`, the string of every text field: the same text whether it is kept inline (up to 22
//! bytes) or on the heap, however it was made.

use std::borrow::Cow;
use std::collections::hash_map::DefaultHasher;
use std::hash::{Hash, Hasher};

use pipe_api_types::Text;

fn hash(text: &Text) -> u64 {
    let mut hasher = DefaultHasher::new();
    text.hash(&mut hasher);
    hasher.finish()
}

/// Texts on either side of the inline limit, and one whose last character (two bytes) would
/// cross it, read back whole from every constructor, and compare, order and hash as their text.
#[test]
fn a_text_reads_back_whole_on_either_side_of_the_inline_limit() {
    let texts = [
        String::new(),
        "a".to_owned(),
        "a".repeat(22),
        "a".repeat(23),
        format!("{}é", "a".repeat(20)),
        format!("{}é", "a".repeat(21)),
        "ünïcödé ✓ and a rather longer text than fits".to_owned(),
    ];
    for text in &texts {
        let made = [
            Text::from(text.as_str()),
            Text::from(text.clone()),
            Text::from(Cow::Borrowed(text.as_str())),
            Text::from(Cow::<str>::Owned(text.clone())),
            serde_json::from_value::<Text>(serde_json::Value::String(text.clone())).unwrap(),
            serde_json::from_str::<Text>(&serde_json::to_string(text).unwrap()).unwrap(),
        ];
        for (i, one) in made.iter().enumerate() {
            assert_eq!(one.as_str(), text, "constructor {i} of {text:?}");
            assert_eq!(&**one, text.as_str());
            assert_eq!(String::from(one.clone()), *text);
            assert_eq!(one, &made[0]);
            assert_eq!(hash(one), hash(&made[0]), "hash of {text:?} by constructor {i}");
            assert_eq!(serde_json::to_string(one).unwrap(), serde_json::to_string(text).unwrap());
            assert_eq!(format!("{one:?}"), format!("{text:?}"));
        }
    }
    let mut sorted: Vec<Text> = texts.iter().map(|text| Text::from(text.as_str())).collect();
    sorted.sort();
    let mut expected = texts.to_vec();
    expected.sort();
    assert_eq!(sorted.iter().map(Text::as_str).collect::<Vec<_>>(), expected);
    assert_eq!(Text::default(), Text::from(""));
}

/// A text is no larger than a `String`: the half million texts of a long list cost no more
/// than strings would, before their heap.
#[test]
fn a_text_is_as_large_as_a_string() {
    assert_eq!(std::mem::size_of::<Text>(), std::mem::size_of::<String>());
}
