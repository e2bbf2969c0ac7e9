//! Each validation rule accepts exactly the values it should, checked by property against an
//! independent description of the rule, and every violation is reported at once with its path.

use crate::types::common;

use common::violations;

use std::net::{IpAddr, Ipv4Addr, Ipv6Addr};

use base64::Engine as _;
use pipe_api_types::{
    CreateKeyRequest, CreatePipeRequest, Destination, IpAccessEntry, KafkaSource, KeyHashData, KeyRole, KinesisSource,
    ObjectStorageSource, PipeSource, PostgresSource, Rule, Validate,
};
use proptest::prelude::*;

fn valid_key() -> CreateKeyRequest {
    CreateKeyRequest::new("ci", [KeyRole::Developer])
}

fn any_role() -> impl Strategy<Value = KeyRole> {
    prop_oneof![
        Just(KeyRole::Admin),
        Just(KeyRole::Developer),
        Just(KeyRole::QueryEndpoints),
        // Text a user wrote (refused unless known) and a newer role sent on purpose (accepted).
        "[a-z_]{1,10}".prop_map(KeyRole::from),
        "[a-z_]{1,10}".prop_map(|text| KeyRole::not_yet_known(&text)),
    ]
}

/// Addresses and blocks the rule must accept: every IPv4 and IPv6 address, with any prefix
/// length its family allows.
fn valid_source() -> impl Strategy<Value = String> {
    prop_oneof![
        any::<u32>().prop_map(|n| Ipv4Addr::from(n).to_string()),
        any::<u128>().prop_map(|n| Ipv6Addr::from(n).to_string()),
        (any::<u32>(), 0u8..=32).prop_map(|(n, p)| format!("{}/{p}", Ipv4Addr::from(n))),
        (any::<u128>(), 0u8..=128).prop_map(|(n, p)| format!("{}/{p}", Ipv6Addr::from(n))),
    ]
}

/// The rule, said independently: an address `std` parses, then optionally `/` and a decimal
/// prefix length no longer than the family's.
fn oracle_source(text: &str) -> bool {
    let (address, prefix) = text.split_once('/').map_or((text, None), |(a, p)| (a, Some(p)));
    match (address.parse::<IpAddr>(), prefix) {
        (Err(_), _) => false,
        (Ok(_), None) => true,
        (Ok(ip), Some(prefix)) => {
            let max: u32 = if ip.is_ipv4() { 32 } else { 128 };
            !prefix.is_empty()
                && prefix.len() <= 3
                && prefix.chars().all(|c| c.is_ascii_digit())
                && prefix.parse::<u32>().is_ok_and(|bits| bits <= max)
        }
    }
}

proptest! {
    #![proptest_config(ProptestConfig { cases: 1000, failure_persistence: None, ..ProptestConfig::default() })]

    #[test]
    fn roles_need_at_least_one(roles in prop::collection::vec(any_role(), 0..4)) {
        let request = CreateKeyRequest::new("ci", roles.clone());
        let mut expected = if roles.is_empty() { vec![("roles".to_owned(), Rule::MinItems(1))] } else { Vec::new() };
        let known = vec!["admin", "developer", "query_endpoints"];
        for (i, role) in roles.iter().enumerate() {
            if !is_vouched(role) {
                expected.push((format!("roles[{i}]"), Rule::KnownValue { known: known.clone() }));
            }
        }
        prop_assert_eq!(violations(&request), expected);
    }

    #[test]
    fn every_address_and_block_is_accepted(source in valid_source()) {
        let mut request = valid_key();
        request.ip_access_list = Some(vec![IpAccessEntry::new(source, "")]);
        prop_assert_eq!(violations(&request), vec![]);
    }

    #[test]
    fn a_source_is_accepted_exactly_when_it_is_an_address_or_block(
        source in prop_oneof![
            "[0-9./:a-fA-F+ -]{0,24}",
            (any::<u32>(), "[0-9+ -]{0,4}").prop_map(|(n, p)| format!("{}/{p}", Ipv4Addr::from(n))),
            (any::<u128>(), 0u16..300).prop_map(|(n, p)| format!("{}/{p}", Ipv6Addr::from(n))),
        ],
        at in 0usize..3,
    ) {
        let mut entries = vec![IpAccessEntry::new("10.0.0.0/8", ""), IpAccessEntry::new("::1", "")];
        entries.insert(at, IpAccessEntry::new(source.clone(), ""));
        let mut request = valid_key();
        request.ip_access_list = Some(entries);
        let expected = if oracle_source(&source) {
            vec![]
        } else {
            vec![(format!("ipAccessList[{at}].source"), Rule::IpAddressOrCidr)]
        };
        prop_assert_eq!(violations(&request), expected);
    }

    #[test]
    fn hash_data_is_base64_of_exactly_32_bytes(bytes in prop::collection::vec(any::<u8>(), 0..48), noise in "[ -~]{0,4}") {
        let encoded = base64::engine::general_purpose::STANDARD.encode(&bytes);
        let garbled = format!("{encoded}{noise}");
        let decodes_to_32 = base64::engine::general_purpose::STANDARD.decode(&garbled).is_ok_and(|b| b.len() == 32);

        let good = base64::engine::general_purpose::STANDARD.encode([7u8; 32]);
        let request = valid_key().hash_data(
            KeyHashData::default().key_id_hash(garbled.as_str()).key_id_suffix(good.as_str()).key_secret_hash(good.as_str()),
        );
        let expected = if decodes_to_32 { vec![] } else { vec![("hashData.keyIdHash".to_owned(), Rule::Base64Of32Bytes)] };
        prop_assert_eq!(violations(&request), expected);
    }

    #[test]
    fn names_hold_no_control_characters_and_are_not_blank(
        name in prop_oneof![
            "\\PC{0,6}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f} \\t]{0,2}\\PC{0,6}",
            // Mostly ASCII and long enough for the eight-bytes-at-a-time check.
            "[ -~]{0,12}[\\x00-\\x1f\\x7f\\u{80}-\\u{9f} \\t]{0,2}[ -~]{0,12}",
            " {0,20}",
            // Nearly blank: a character or two among long runs of spaces.
            " {0,12}[!-~]{0,2} {0,12}",
        ],
    ) {
        let request = CreateKeyRequest::new(name.clone(), [KeyRole::Admin]);
        let expected = if name.trim().is_empty() {
            vec![("name".to_owned(), Rule::NotBlank)]
        } else if name.chars().any(char::is_control) {
            vec![("name".to_owned(), Rule::NoControlCharacters)]
        } else {
            vec![]
        };
        prop_assert_eq!(violations(&request), expected);
    }

    #[test]
    fn a_create_pipe_request_has_exactly_one_source_kind(kafka: bool, storage: bool, kinesis: bool, postgres: bool) {
        let mut source = PipeSource::default();
        if kafka {
            source = source.kafka(KafkaSource::default().brokers("b:9092").topics("t"));
        }
        if storage {
            source = source.object_storage(ObjectStorageSource::default().url("https://bucket.example/*.json"));
        }
        if kinesis {
            source = source.kinesis(KinesisSource::default().stream_name("s").region("eu-west-1"));
        }
        if postgres {
            source = source.postgres(PostgresSource::default().host("db").database("shop"));
        }
        let found = [kafka, storage, kinesis, postgres].iter().filter(|k| **k).count();
        let request = CreatePipeRequest::new("p", source, Destination::default().database("d").table("t"));
        let kind_violations: Vec<_> =
            violations(&request).into_iter().filter(|(path, _)| path == "source").collect();
        let expected = if found == 1 { vec![] } else { vec![("source".to_owned(), Rule::ExactlyOneSourceKind { found })] };
        prop_assert_eq!(kind_violations, expected);
    }
}

#[test]
fn every_violation_is_reported_at_once_and_named_in_the_message() {
    let mut request = CreateKeyRequest::new("bad\nname", []);
    request.ip_access_list = Some(vec![
        IpAccessEntry::new("10.0.0.0/8", ""),
        IpAccessEntry::new("::1", ""),
        IpAccessEntry::new("10.0.0.0/33", ""),
    ]);
    let errors = request.validate().unwrap_err();
    let found: Vec<_> = errors.violations().iter().map(|v| (v.path.as_str(), v.rule.clone())).collect();
    assert_eq!(
        found,
        [
            ("name", Rule::NoControlCharacters),
            ("roles", Rule::MinItems(1)),
            ("ipAccessList[2].source", Rule::IpAddressOrCidr)
        ]
    );
    let shown = errors.to_string();
    for part in ["`name`", "`roles`", "at least 1", "`ipAccessList[2].source`", "CIDR"] {
        assert!(shown.contains(part), "{shown}");
    }
}

#[test]
fn a_create_pipe_request_needs_a_name_and_a_source_and_checks_nested_paths() {
    let request = CreatePipeRequest::default().source(PipeSource::from(KafkaSource::default()));
    let found = violations(&request);
    for expected in [
        ("name".to_owned(), Rule::Required),
        ("source.kafka.brokers".to_owned(), Rule::Required),
        ("destination".to_owned(), Rule::Required),
    ] {
        assert!(found.contains(&expected), "{expected:?} in {found:?}");
    }
    let blank = CreatePipeRequest::new(
        "  ",
        KinesisSource::default().stream_name("s").region("r"),
        Destination::default().database("d").table("t"),
    );
    let name_violations: Vec<_> = violations(&blank).into_iter().filter(|(path, _)| path == "name").collect();
    assert_eq!(name_violations, [("name".to_owned(), Rule::NotBlank)]);
}

/// Valid requests the client used to refuse, each written from the contract (management
/// OpenAPI `PipePostRequest`) and the vendor's documented examples, and what each rule still
/// refuses.
#[test]
fn documented_shapes_the_service_accepts_are_accepted() {
    use pipe_api_types::{Credentials, DestinationColumn};
    let destination = || {
        // No `database`: the service defaults it.
        Destination::default().table("events").managed_table(true).columns([DestinationColumn::new("a", "String")])
    };
    let event_hubs = |credentials: Credentials| {
        let kafka =
            KafkaSource::new("azureeventhub", "JSONEachRow", "ns.servicebus.windows.net:9093", "events", "PLAIN")
                .credentials(credentials);
        CreatePipeRequest::new("hubs", kafka, destination())
    };
    let azure_blob = |container: Option<&str>| {
        let mut storage = ObjectStorageSource::default()
            .kind("azureblobstorage")
            .format("Parquet")
            .path("2026/*.parquet")
            .authentication("CONNECTION_STRING")
            .connection_string("DefaultEndpointsProtocol=https;AccountKey=x");
        storage.azure_container_name = container.map(Into::into);
        CreatePipeRequest::new("blobs", storage, destination())
    };
    let s3 = CreatePipeRequest::new(
        "s3",
        ObjectStorageSource::new("s3", "CSVWithNames", "https://b.s3.amazonaws.com/*.csv"),
        destination(),
    );

    assert_eq!(violations(&event_hubs(Credentials::from_connection_string("Endpoint=sb://ns/;Key=x"))), []);
    assert_eq!(violations(&azure_blob(Some("logs"))), []);
    assert_eq!(violations(&s3), []);

    let plain_without_string = violations(&event_hubs(Credentials::user_password("u", "p")));
    assert!(
        plain_without_string.iter().any(|(path, _)| path == "source.kafka.credentials.connectionString"),
        "{plain_without_string:?}"
    );
    let no_container = violations(&azure_blob(None));
    assert_eq!(no_container, [("source.objectStorage.azureContainerName".to_owned(), Rule::Required)]);
}

/// A value this crate does not know, written by a user, is a likely typo: refused with the
/// known values named. Sent on purpose with `not_yet_known`, or read from a server and sent
/// back, it is accepted.
#[test]
fn an_unknown_enum_value_in_a_request_is_refused_unless_vouched_for() {
    use pipe_api_types::{Authentication, Credentials, DestinationColumn, KeyRole, Pipe};
    let kafka = |authentication: Authentication| {
        let kafka = KafkaSource::new("kafka", "JSONEachRow", "b:9092", "t", authentication)
            .credentials(Credentials::user_password("u", "p"));
        let destination =
            Destination::default().table("t").managed_table(false).columns([DestinationColumn::new("a", "String")]);
        CreatePipeRequest::new("k", kafka, destination)
    };
    let found = violations(&kafka(Authentication::from("PLAN")));
    let known_value = found.iter().find(|(path, _)| path == "source.kafka.authentication");
    assert!(matches!(known_value, Some((_, Rule::KnownValue { known })) if known.contains(&"PLAIN")), "{found:?}");
    let newer = violations(&kafka(Authentication::not_yet_known("OAUTHBEARER")));
    assert!(newer.iter().all(|(path, _)| path != "source.kafka.authentication"), "{newer:?}");
    assert_eq!(Authentication::not_yet_known("PLAIN"), Authentication::Plain);

    // Sent by a server (vouched for, as proto does with what it decodes), a new value is sent
    // back as it came.
    let mut pipe: Pipe = serde_json::from_str(
        r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","source":{"kafka":{"type":"bufstream","format":"JSONEachRow",
            "brokers":"b","topics":"t","authentication":"IAM_ROLE","iamRole":"arn:aws:iam::1:role/r"}}}"#,
    )
    .unwrap();
    pipe_api_types::Vouch::vouch(&mut pipe);
    let destination =
        Destination::default().table("t").managed_table(false).columns([DestinationColumn::new("a", "String")]);
    let request = CreatePipeRequest::new("again", pipe.source.unwrap(), destination.clone());
    assert_eq!(violations(&request), []);

    // A request read from JSON is checked like one built in code: a typo is refused at its path.
    let read: CreatePipeRequest = serde_json::from_str(
        r#"{"name":"k","source":{"kafka":{"type":"kafka","format":"JSONEachRow","brokers":"b:9092","topics":"t",
            "authentication":"PLAN","credentials":{"username":"u","password":"p"}}},
            "destination":{"table":"t","managedTable":false,"columns":[{"name":"a","type":"String"}]}}"#,
    )
    .unwrap();
    let found = violations(&read);
    assert!(
        found
            .iter()
            .any(|(path, rule)| path == "source.kafka.authentication" && matches!(rule, Rule::KnownValue { .. })),
        "{found:?}"
    );

    let typo = CreateKeyRequest::new("k", [KeyRole::Admin, KeyRole::from("admn")]);
    assert!(matches!(violations(&typo).as_slice(), [(path, Rule::KnownValue { .. })] if path == "roles[1]"));
    let newer = CreateKeyRequest::new("k", [KeyRole::not_yet_known("billing")]);
    assert_eq!(violations(&newer), []);
}

/// Whether an unknown role is vouched for (read from a server or `not_yet_known`).
fn is_vouched(role: &KeyRole) -> bool {
    match role {
        KeyRole::Unrecognized(other) => other.is_vouched_for(),
        _ => true,
    }
}

/// `scaling` within the management OpenAPI's `PipeScaling` bounds, each at its edges.
#[test]
fn scaling_is_within_the_contract_bounds() {
    use pipe_api_types::{Quantity, Scaling};
    let with = |scaling: Scaling| {
        let mut request = CreatePipeRequest::new(
            "p",
            KinesisSource::new("JSONEachRow", "s", "r", "LATEST", "IAM_ROLE").iam_role("arn:aws:iam::1:role/r"),
            Destination::default()
                .table("t")
                .managed_table(false)
                .columns([pipe_api_types::DestinationColumn::new("a", "String")]),
        );
        request.scaling = Some(scaling);
        violations(&request).into_iter().filter(|(path, _)| path.starts_with("scaling")).collect::<Vec<_>>()
    };
    assert_eq!(with(Scaling::default().replicas(1).replica_cpu_millicores(125).replica_memory_gb(0.5)), []);
    assert_eq!(with(Scaling::default().replicas(40).replica_cpu_millicores(2000).replica_memory_gb(8.0)), []);
    let refused =
        with(Scaling::default().replicas(41).replica_cpu_millicores(124).replica_memory_gb(Quantity::gigabytes(8.5)));
    assert_eq!(
        refused,
        [
            ("scaling.replicas".to_owned(), Rule::Range { min: 1, max: 40 }),
            ("scaling.replicaCpuMillicores".to_owned(), Rule::Range { min: 125, max: 2000 }),
            ("scaling.replicaMemoryGb".to_owned(), Rule::DecimalRange { min: "0.5", max: "8" }),
        ]
    );
    assert_eq!(
        with(Scaling::default().replicas(0)),
        [("scaling.replicas".to_owned(), Rule::Range { min: 1, max: 40 })]
    );
}
