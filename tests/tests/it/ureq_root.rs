//! What a user of pipe-api-ureq reads: a root of at most 40 names, each at one path (no glob
//! re-export, so nothing new in proto or types joins the root unnoticed), and a README whose
//! feature table names every feature of the crate's manifest.

use std::collections::BTreeSet;

const LIB: &str = include_str!("../../../crates/pipe-api-ureq/src/lib.rs");
const MANIFEST: &str = include_str!("../../../crates/pipe-api-ureq/Cargo.toml");
const README: &str = include_str!("../../../crates/pipe-api-ureq/README.md");

/// The most names the crate's root may hold.
const MAX_ROOT_NAMES: usize = 40;

/// `lib.rs` without its comments (doc comments included).
fn code() -> String {
    LIB.lines().map(|line| line.split("//").next().unwrap_or("")).collect::<Vec<_>>().join("\n")
}

/// Every name the root of `lib.rs` makes public: each `pub use` (its alias, or its path's last
/// segment) and each item declared `pub` at the root, less the README's doctest holder (only
/// built for doctests).
fn root_names() -> Vec<String> {
    let code = code();
    let mut names = Vec::new();
    for statement in code.split(';').map(str::trim) {
        let Some(start) = statement.find("pub use ") else {
            if let Some(item) = root_item(statement) {
                names.push(item);
            }
            continue;
        };
        let path = &statement[start + "pub use ".len()..];
        assert!(!path.contains('*'), "a glob re-export in the root: `pub use {path}`");
        let listed = match (path.find('{'), path.rfind('}')) {
            (Some(open), Some(close)) => path[open + 1..close].split(',').map(str::trim).collect(),
            _ => vec![path.trim()],
        };
        for name in listed.into_iter().filter(|name| !name.is_empty()) {
            let name = name.rsplit(" as ").next().unwrap_or(name);
            names.push(name.rsplit("::").next().unwrap_or(name).trim().to_owned());
        }
    }
    names.retain(|name| name != "ReadmeDoctests");
    names
}

/// The name of an item a statement declares `pub` at the root (`pub mod x`, `pub struct X`).
fn root_item(statement: &str) -> Option<String> {
    let line = statement.lines().find(|line| line.starts_with("pub "))?;
    let mut words = line.split(|c: char| !(c.is_alphanumeric() || c == '_')).filter(|w| !w.is_empty());
    words.next(); // pub
    let kind = words.next()?;
    ["mod", "fn", "struct", "enum", "trait", "const", "static", "type", "macro"]
        .contains(&kind)
        .then(|| words.next().map(str::to_owned))
        .flatten()
}

#[test]
fn the_root_holds_at_most_40_names_each_once() {
    let names = root_names();
    let unique: BTreeSet<&String> = names.iter().collect();
    assert_eq!(unique.len(), names.len(), "a name twice in the root: {names:?}");
    assert!(
        names.len() <= MAX_ROOT_NAMES,
        "the root holds {} names, more than {MAX_ROOT_NAMES}: put the new ones under `types` or `proto` ({names:?})",
        names.len()
    );
    // The doors themselves, and what every example starts from.
    for name in ["Client", "ClientBuilder", "Error", "WaitPolicy", "types", "proto"] {
        assert!(unique.contains(&name.to_owned()), "`{name}` is not in the root: {names:?}");
    }
}

#[test]
fn the_counting_sees_every_form_of_re_export() {
    // The names the test counts are the ones the compiler sees: a few of them, used as a user would.
    use pipe_api_ureq::{Client, ENV_API_URL, WaitPolicy, pipe_running, proto, types};
    let _ = (Client::builder(), ENV_API_URL, WaitPolicy::default(), pipe_running);
    let _: Option<types::Pipe> = None;
    let _: Option<proto::Error> = None;
    let names = root_names();
    for name in ["Client", "ENV_API_URL", "pipe_running", "ServicesScope", "UreqTransport", "Pacer"] {
        assert!(names.iter().any(|n| n == name), "`{name}` not counted: {names:?}");
    }
}

#[test]
fn the_readme_names_every_feature() {
    let features: BTreeSet<&str> = MANIFEST
        .split("[features]")
        .nth(1)
        .expect("a [features] table")
        .lines()
        .take_while(|line| !line.starts_with('['))
        .filter_map(|line| line.split_once('=').map(|(name, _)| name.trim()))
        .filter(|name| !name.is_empty() && !name.starts_with('#') && *name != "default")
        .collect();
    let table: BTreeSet<&str> = README
        .split("## Features")
        .nth(1)
        .expect("a Features section")
        .lines()
        .filter_map(|line| line.strip_prefix("| `"))
        .filter_map(|row| row.split_once('`').map(|(name, _)| name))
        .collect();
    assert_eq!(table, features, "the README's feature table and Cargo.toml's [features]");
}
