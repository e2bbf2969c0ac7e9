//! The table of source kinds (issue 45): every kind this crate knows is a member of `source` read
//! as itself, with the facts the contract gives it: whether it is a database pipe, and what an
//! update may say of it. The expectations are written by hand from the management OpenAPI
//! (`PipeMutateDestination.table`, `PipePatchSource` and each `PipePatch...Source` with its
//! settings), one row per kind, so a kind added to the table without its facts, or with other
//! facts, fails here naming it.

use pipe_api_types::{PipeSource, PipeSourcePatch, SourceKind};

/// Members, settings members and required members of one kind's patch schema.
type Schema = (&'static [&'static str], &'static [&'static str], &'static [&'static str]);

/// Each kind: its JSON name, whether it is a database pipe, and its patch schema (none:
/// `PipePatchSource` has no member for it).
const KINDS: &[(&str, bool, Option<Schema>)] = &[
    (
        "kafka",
        false,
        Some((&["authentication", "iamRole", "caCertificate", "reversePrivateEndpointIds", "credentials"], &[], &[])),
    ),
    (
        "objectStorage",
        false,
        Some((
            &[
                "skipInitialLoad",
                "startAfter",
                "authentication",
                "iamRole",
                "connectionString",
                "path",
                "azureContainerName",
                "accessKey",
                "serviceAccountKey",
            ],
            &[],
            &[],
        )),
    ),
    ("kinesis", false, Some((&["authentication", "iamRole", "accessKey"], &[], &[]))),
    (
        "postgres",
        true,
        Some((
            &[
                "credentials",
                "host",
                "port",
                "database",
                "tlsHost",
                "caCertificate",
                "disableTls",
                "skipCertVerification",
                "settings",
                "tableMappingsToAdd",
                "tableMappingsToRemove",
            ],
            &["syncIntervalSeconds", "pullBatchSize"],
            &[],
        )),
    ),
    (
        "pubsub",
        false,
        Some((&["authentication", "ackDeadline", "serviceAccountKey"], &[], &["authentication", "serviceAccountKey"])),
    ),
    (
        "mysql",
        true,
        Some((
            &[
                "credentials",
                "host",
                "port",
                "authentication",
                "iamRole",
                "tlsHost",
                "caCertificate",
                "disableTls",
                "skipCertVerification",
                "serverId",
                "settings",
                "tableMappingsToAdd",
                "tableMappingsToRemove",
            ],
            &["syncIntervalSeconds", "pullBatchSize", "useCompression"],
            &["host", "port"],
        )),
    ),
    (
        "mongodb",
        true,
        Some((
            &[
                "credentials",
                "uri",
                "readPreference",
                "tlsHost",
                "disableTls",
                "skipCertVerification",
                "caCertificate",
                "settings",
                "tableMappingsToAdd",
                "tableMappingsToRemove",
            ],
            &["syncIntervalSeconds", "pullBatchSize"],
            &["uri", "readPreference"],
        )),
    ),
    ("bigquery", true, None),
];

#[test]
fn the_known_kinds_are_those_of_the_contract_in_its_order() {
    let known: Vec<&str> = SourceKind::KNOWN.iter().map(SourceKind::as_str).collect();
    let expected: Vec<&str> = KINDS.iter().map(|(name, _, _)| *name).collect();
    assert_eq!(known, expected);
}

#[test]
fn every_kind_is_a_member_of_source_read_as_itself() {
    for (name, _, _) in KINDS {
        let source: PipeSource = serde_json::from_str(&format!(r#"{{"{name}": {{}}}}"#)).unwrap();
        assert_eq!(source.kind(), Some(SourceKind::from(*name)), "{name}: read as {:?}", source.kinds());
        assert!(source.unknown.is_empty(), "{name}: kept as a member PipeSource does not model");
    }
}

#[test]
fn every_kind_says_whether_it_is_a_database_pipe() {
    for (name, database, _) in KINDS {
        assert_eq!(SourceKind::from(*name).is_database(), *database, "{name}");
    }
    assert!(!SourceKind::from("newerKind").is_database(), "a kind this crate does not know");
}

#[test]
fn every_kind_has_the_patch_schema_of_the_contract() {
    for (name, _, expected) in KINDS {
        let schema = SourceKind::from(*name).patch_schema();
        let got = schema.map(|schema| (schema.members, schema.settings, schema.required));
        assert_eq!(got, *expected, "{name}");
    }
    assert_eq!(SourceKind::from("newerKind").patch_schema(), None, "a kind this crate does not know");
}

#[test]
fn every_kind_with_a_patch_schema_is_a_member_of_an_updates_source() {
    for (name, _, expected) in KINDS {
        let patch: PipeSourcePatch = serde_json::from_str(&format!(r#"{{"{name}": {{}}}}"#)).unwrap();
        let modelled = patch.unknown.is_empty();
        assert_eq!(modelled, expected.is_some(), "{name}: a member of PipeSourcePatch: {modelled}");
    }
}
