//! The README's test command is the one CI runs, so the two cannot drift apart.

const README: &str = include_str!("../../../README.md");
const CI: &str = include_str!("../../../.ci/run");

/// The first `cargo test` line of the README's shell blocks.
fn readme_test_command() -> &'static str {
    README
        .lines()
        .map(str::trim)
        .find(|line| line.starts_with("cargo test"))
        .expect("the README names a cargo test command")
}

#[test]
fn ci_runs_the_readme_test_command() {
    let command = readme_test_command();
    assert!(CI.lines().any(|line| line.trim() == command), "`.ci/run` must run the README's test command `{command}`");
}

#[test]
fn ci_denies_warnings_and_new_snapshots() {
    assert!(CI.contains("cargo clippy --workspace --all-targets"));
    assert!(CI.contains("-D warnings"));
    assert!(CI.contains("cargo fmt --all --check"));
    assert!(CI.contains("INSTA_UPDATE=no"));
}
