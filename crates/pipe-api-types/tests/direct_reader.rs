//! The direct reader (`pipe_api_types::read`) never disagrees with serde. It may refuse text that
//! serde takes (the caller then decodes with serde), but whatever it takes, serde takes too and
//! makes the same model, down to the JSON written back. Checked on the fixtures mutated in every
//! way that matters to a JSON reader, on arbitrary JSON-like text, and on numbers.

use pipe_api_types::read::{FromJson, read_shared, read_str};
use pipe_api_types::*;
use proptest::prelude::*;
use serde::Serialize;
use serde::de::DeserializeOwned;

const FIXTURES: &[&str] = &[
    include_str!("fixtures/pipe_kafka.json"),
    include_str!("fixtures/pipe_object_storage.json"),
    include_str!("fixtures/pipe_kinesis.json"),
    include_str!("fixtures/pipe_postgres.json"),
    include_str!("fixtures/service.json"),
    include_str!("fixtures/key.json"),
    include_str!("fixtures/reverse_private_endpoint.json"),
    include_str!("fixtures/alert_newer.json"),
    include_str!("fixtures/alert_older.json"),
];

/// If the direct reader takes `text` as `T`, serde takes it and both write the same JSON.
fn agrees<T: DeserializeOwned + Serialize + FromJson>(text: &str) -> Result<bool, TestCaseError> {
    let Ok(direct) = read_str::<T>(text) else { return Ok(false) };
    let by_serde: T = serde_json::from_str(text)
        .map_err(|e| TestCaseError::fail(format!("the direct reader took what serde refuses ({e}): {text:?}")))?;
    prop_assert_eq!(serde_json::to_string(&direct).unwrap(), serde_json::to_string(&by_serde).unwrap(), "{:?}", text);
    // Shared and unshared texts read the same.
    let shared: T = read_shared(&std::sync::Arc::new(text.to_owned())).expect("taken once, taken again");
    prop_assert_eq!(serde_json::to_string(&shared).unwrap(), serde_json::to_string(&direct).unwrap());
    Ok(true)
}

/// Every model the responses hold, and the shapes around them.
fn agrees_as_every_model(text: &str) -> Result<(), TestCaseError> {
    agrees::<Pipe>(text)?;
    agrees::<Vec<Pipe>>(text)?;
    agrees::<Option<Pipe>>(text)?;
    agrees::<PipeSource>(text)?;
    agrees::<Destination>(text)?;
    agrees::<Service>(text)?;
    agrees::<Key>(text)?;
    agrees::<CreateKeyResponse>(text)?;
    agrees::<ReversePrivateEndpoint>(text)?;
    agrees::<Alert>(text)?;
    agrees::<Vec<Alert>>(text)?;
    agrees::<Vec<Text>>(text)?;
    agrees::<serde_json::Value>(text)?;
    Ok(())
}

/// Pieces that matter to a JSON reader: escapes (valid, invalid, surrogates), numbers at the
/// edges, literals, structure, whitespace, control characters, and fields of the models.
const PIECES: &[&str] = &[
    "\"",
    "\\",
    "\\\"",
    "\\\\",
    "\\/",
    "\\n",
    "\\u0041",
    "\\u00e9",
    "\\ud83d\\ude00",
    "\\ud83d",
    "\\ude00",
    "\\ud83dx",
    "\\u12",
    "\\x",
    "\u{1}",
    "\u{7f}",
    "é",
    "😀",
    ",",
    ":",
    "{",
    "}",
    "[",
    "]",
    "{}",
    "[]",
    "null",
    "true",
    "false",
    "tru",
    "nul",
    "0",
    "-0",
    "-",
    "01",
    "1.",
    ".5",
    "1e",
    "1e+",
    "1e999",
    "-1e999",
    "1e-999",
    "1.5",
    "-2",
    "4294967296",
    "18446744073709551616",
    "-9223372036854775809",
    "9007199254740993",
    " ",
    "\n",
    "\t",
    "\r",
    "\u{a0}",
    "\"id\":",
    "\"name\":",
    "\"state\":\"Running\"",
    "\"x\":1,",
    "\"x\":{\"y\":[1,{}]},",
    "\"createdAt\":\"\",",
    "\"replicas\":",
    "\"replicaMemoryGb\":\"2Gi\",",
    "\"threshold\":",
    "\"timestamp\":",
];

/// What goes before a structural character.
const AT_STRUCTURE: &[&str] = &[",", ":", "1", "\"x\"", "{}", "[]", "null", " ", "]", "}"];

/// One edit of a text, on character boundaries.
#[derive(Clone, Debug)]
enum Edit {
    Insert(prop::sample::Index, &'static str),
    Delete(prop::sample::Index, usize),
    Replace(prop::sample::Index, usize, &'static str),
    Duplicate(prop::sample::Index, usize),
    /// Inserts before one of the structural characters (`{}[]:,`), where a trailing comma, a
    /// doubled colon or a stray value breaks JSON in the ways readers get wrong.
    AtStructure(prop::sample::Index, &'static str),
}

fn edit() -> impl Strategy<Value = Edit> {
    let piece = prop::sample::select(PIECES);
    prop_oneof![
        1 => (any::<prop::sample::Index>(), piece.clone()).prop_map(|(at, p)| Edit::Insert(at, p)),
        1 => (any::<prop::sample::Index>(), 1usize..8).prop_map(|(at, n)| Edit::Delete(at, n)),
        1 => (any::<prop::sample::Index>(), 1usize..4, piece.clone()).prop_map(|(at, n, p)| Edit::Replace(at, n, p)),
        1 => (any::<prop::sample::Index>(), 1usize..40).prop_map(|(at, n)| Edit::Duplicate(at, n)),
        3 => (any::<prop::sample::Index>(), prop::sample::select(AT_STRUCTURE)).prop_map(|(at, p)| Edit::AtStructure(at, p)),
    ]
}

fn apply(text: &str, edits: &[Edit]) -> String {
    let mut chars: Vec<char> = text.chars().collect();
    for edit in edits {
        let len = chars.len().max(1);
        match edit {
            Edit::Insert(at, piece) => {
                let at = at.index(len + 1).min(chars.len());
                chars.splice(at..at, piece.chars());
            }
            Edit::Delete(at, n) => {
                let at = at.index(len).min(chars.len());
                chars.drain(at..(at + n).min(chars.len()));
            }
            Edit::Replace(at, n, piece) => {
                let at = at.index(len).min(chars.len());
                chars.splice(at..(at + n).min(chars.len()), piece.chars());
            }
            Edit::Duplicate(at, n) => {
                let at = at.index(len).min(chars.len());
                let copy: Vec<char> = chars[at..(at + n).min(chars.len())].to_vec();
                chars.splice(at..at, copy);
            }
            Edit::AtStructure(at, piece) => {
                let structure: Vec<usize> =
                    chars.iter().enumerate().filter(|(_, c)| "{}[]:,".contains(**c)).map(|(i, _)| i).collect();
                if !structure.is_empty() {
                    let at = structure[at.index(structure.len())];
                    chars.splice(at..at, piece.chars());
                }
            }
        }
    }
    chars.into_iter().collect()
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 20_000, failure_persistence: None, ..ProptestConfig::default() })]

    /// Fixtures with up to four edits: mostly still JSON, often no longer the model's shape.
    #[test]
    fn mutated_fixtures_read_the_same_or_are_left_to_serde(
        fixture in prop::sample::select(FIXTURES),
        edits in prop::collection::vec(edit(), 1..3),
    ) {
        agrees_as_every_model(&apply(fixture, &edits))?;
        // In a list too, where a failure mid-way must not leave anything behind.
        agrees_as_every_model(&format!("[{}]", apply(fixture, &edits)))?;
    }

    /// Arbitrary text made of the pieces.
    #[test]
    fn arbitrary_text_reads_the_same_or_is_left_to_serde(pieces in prop::collection::vec(prop::sample::select(PIECES), 0..24)) {
        agrees_as_every_model(&pieces.concat())?;
    }

    /// Numbers read bit for bit as serde_json reads them, in every notation.
    #[test]
    fn numbers_read_as_serde_reads_them(
        value in prop_oneof![any::<f64>(), -1.0e6f64..1.0e6, (any::<i64>()).prop_map(|n| n as f64)],
        integer in any::<i64>(),
        big in any::<u64>(),
        notation in 0..4usize,
    ) {
        let float = match notation {
            0 => format!("{value}"),
            1 => format!("{value:e}"),
            2 => format!("{value:E}"),
            _ => format!("{value:.3}"),
        };
        for text in [float, integer.to_string(), big.to_string(), format!("{big}0"), format!("-{big}")] {
            if let Ok(direct) = read_str::<f64>(&text) {
                let by_serde: f64 = serde_json::from_str(&text).unwrap();
                prop_assert_eq!(direct.to_bits(), by_serde.to_bits(), "{}", text);
            }
            for (direct, by_serde) in [
                (read_str::<u64>(&text).ok().map(|n| n as i128), serde_json::from_str::<u64>(&text).ok().map(|n| n as i128)),
                (read_str::<i64>(&text).ok().map(i128::from), serde_json::from_str::<i64>(&text).ok().map(i128::from)),
                (read_str::<u32>(&text).ok().map(i128::from), serde_json::from_str::<u32>(&text).ok().map(i128::from)),
            ] {
                if direct.is_some() {
                    prop_assert_eq!(direct, by_serde, "{}", text);
                }
            }
        }
    }
}

/// The fixtures themselves, and lists of them, are taken by the direct reader (it is not
/// refusing its way out of the properties above).
#[test]
fn the_direct_reader_takes_every_fixture() {
    for (fixture, taken) in FIXTURES.iter().map(|f| (f, agrees_as_fixture(f))) {
        assert!(taken, "not taken: {fixture}");
    }
}

fn agrees_as_fixture(text: &str) -> bool {
    [
        agrees::<Pipe>(text),
        agrees::<Service>(text),
        agrees::<Key>(text),
        agrees::<ReversePrivateEndpoint>(text),
        agrees::<Alert>(text),
        agrees::<Vec<Pipe>>(&format!("[{text},{text}]")),
        agrees::<Vec<Alert>>(&format!(" [ {text} ] ")),
    ]
    .into_iter()
    .any(|taken| taken.expect("agrees"))
}

/// Escaped keys and values, a body of whitespace, nesting at serde_json's limit and beyond, and
/// text after the value.
#[test]
fn edges_read_the_same_or_are_left_to_serde() {
    let deep = |n: usize| {
        format!("{{\"id\":\"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e\",\"x\":{}1{}}}", "[".repeat(n), "]".repeat(n))
    };
    let cases = [
        r#"{"\u0069d":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","na\u006de":"a\"b\\c\/d\u00e9\ud83d\ude00"}"#.to_owned(),
        " \n\t\r{\"id\" : \"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e\" , \"name\" : null } \n".to_owned(),
        r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e"} x"#.to_owned(),
        r#"{"id":"{0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e}"}"#.to_owned(),
        r#"{"id":"0b9e3c556d5f4a8e9a436a1f2b3c4d5e","id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5f"}"#.to_owned(),
        deep(126),
        deep(127),
        deep(200),
    ];
    for case in &cases {
        agrees_as_every_model(case).unwrap();
    }
    assert!(read_str::<Pipe>(&cases[0]).is_ok() && read_str::<Pipe>(&cases[1]).is_ok());
    assert!(read_str::<Pipe>(&deep(126)).is_ok(), "serde_json's own limit is taken");
    assert!(read_str::<Pipe>(&deep(200)).is_err(), "beyond it is left to serde, which refuses it");
}
