//! The hand-written fixtures of the workspace's tests, in one folder (`tests/tests/it/fixtures/`),
//! read through one place: `operations/<name>/` holds each operation's requests (`request*`) and
//! answers (`ok*`, `<status>_*`), written from the contracts and the service notes; `models/`
//! one payload per resource shape; `create_pipe/` the contract's create examples.

use std::path::{Path, PathBuf};

/// The folder of every fixture.
pub fn root() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/it/fixtures")
}

/// The bytes of fixture `path` (`operations/get_service/ok.json`, `models/key.json`); panics,
/// naming it, when there is none.
pub fn fixture(path: &str) -> Vec<u8> {
    let at = root().join(path);
    std::fs::read(&at).unwrap_or_else(|error| panic!("no fixture {}: {error}", at.display()))
}

/// Fixture `path` read as JSON; panics, naming it, when it is not.
pub fn json_fixture(path: &str) -> serde_json::Value {
    serde_json::from_slice(&fixture(path)).unwrap_or_else(|error| panic!("fixture {path}: {error}"))
}

/// Fixture `file` of operation `operation` (`fixture("operations/<operation>/<file>")`).
pub fn operation_fixture(operation: &str, file: &str) -> Vec<u8> {
    fixture(&format!("operations/{operation}/{file}"))
}

/// What a file of an operation's folder is, by its name.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Role {
    /// `request*`: a body the operation sends.
    Request,
    /// `ok*`: a success answer.
    Success,
    /// `<status>` or `<status>_*`: an error answer with that HTTP status.
    Error(u16),
}

/// One file of an operation's folder.
#[derive(Clone, Debug)]
pub struct OperationFixture {
    /// The file's name without its extension (`ok_newer`, `404`, `request_tile`).
    pub stem: String,
    /// What it is; `None` for a name that says neither.
    pub role: Option<Role>,
    /// Its content.
    pub bytes: Vec<u8>,
}

impl Role {
    /// The role a file stem names: `request*`, `ok*`, or three digits alone or before `_`.
    pub fn of(stem: &str) -> Option<Role> {
        if stem.starts_with("request") {
            return Some(Role::Request);
        }
        if stem.starts_with("ok") {
            return Some(Role::Success);
        }
        let (status, rest) = stem.split_at_checked(3)?;
        let status = status.parse().ok().filter(|_| rest.is_empty() || rest.starts_with('_'))?;
        Some(Role::Error(status))
    }
}

/// Every file of operation `operation`'s folder, by name; `None` when it has no folder.
pub fn operation_fixtures(operation: &str) -> Option<Vec<OperationFixture>> {
    let entries = std::fs::read_dir(root().join("operations").join(operation)).ok()?;
    let mut fixtures: Vec<_> = entries
        .map(|entry| {
            let path = entry.expect("a readable folder").path();
            let stem = path.file_stem().expect("a file name").to_string_lossy().into_owned();
            let bytes = std::fs::read(&path).unwrap_or_else(|error| panic!("{}: {error}", path.display()));
            OperationFixture { role: Role::of(&stem), stem, bytes }
        })
        .collect();
    fixtures.sort_by(|a, b| a.stem.cmp(&b.stem));
    Some(fixtures)
}
