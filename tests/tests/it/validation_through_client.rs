//! Every validation rule of the models, reached through the ureq client: the error names the
//! field and the rule, and nothing is sent (the fake proves that no request arrived).

use pipe_api_fake::{
    DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake,
};
use pipe_api_proto::{Error, ListAlerts};
use pipe_api_tests::requests::{create_key_request, create_pipe_requests};
use pipe_api_types::{
    Authentication, CreateKeyRequest, CreatePipeRequest, IpAccessEntry, KafkaSource, KeyHashData, KinesisSource,
    PipeSource, Rule, Scaling,
};
use pipe_api_ureq::Client;

/// One rule broken on purpose: the call, and the violation it must report.
struct Case {
    call: fn(&Client) -> Error,
    path: &'static str,
    rule: Rule,
}

fn pipe(change: impl FnOnce(&mut CreatePipeRequest)) -> CreatePipeRequest {
    let mut request = create_pipe_requests("unused").remove(0);
    change(&mut request);
    request
}

fn create_pipe(client: &Client, request: CreatePipeRequest) -> Error {
    client.create_pipe(ORG, SERVICE, request).unwrap_err()
}

fn create_key(client: &Client, request: CreateKeyRequest) -> Error {
    client.create_key(ORG, request).unwrap_err()
}

fn cases() -> Vec<Case> {
    vec![
        Case { call: |c| create_pipe(c, pipe(|r| r.destination = None)), path: "destination", rule: Rule::Required },
        Case {
            call: |c| {
                let kafka = KafkaSource::default().brokers("b:9092").topics("t").authentication(Authentication::Plain);
                create_pipe(c, pipe(|r| r.source = Some(PipeSource::default().kafka(kafka))))
            },
            path: "source.kafka.credentials",
            rule: Rule::RequiredBecause("when authentication is PLAIN"),
        },
        Case { call: |c| create_pipe(c, pipe(|r| r.name = Some("   ".into()))), path: "name", rule: Rule::NotBlank },
        Case {
            call: |c| create_key(c, create_key_request("line\nbreak")),
            path: "name",
            rule: Rule::NoControlCharacters,
        },
        Case {
            call: |c| create_pipe(c, pipe(|r| r.name = Some("n".repeat(256).into()))),
            path: "name",
            rule: Rule::MaxChars(255),
        },
        Case { call: |c| create_key(c, CreateKeyRequest::new("no roles", [])), path: "roles", rule: Rule::MinItems(1) },
        Case {
            call: |c| {
                let mut request = create_key_request("ip");
                request.ip_access_list = Some(vec![
                    IpAccessEntry::new("10.0.0.0/8", "office"),
                    IpAccessEntry::new("2001:db8::/32", "v6"),
                    IpAccessEntry::new("10.0.0.0/33", "no such prefix"),
                ]);
                create_key(c, request)
            },
            path: "ipAccessList[2].source",
            rule: Rule::IpAddressOrCidr,
        },
        Case {
            call: |c| {
                let mut request = create_key_request("hashed");
                request.hash_data = Some(
                    KeyHashData::default()
                        .key_id_hash("bm90IDMyIGJ5dGVz")
                        .key_id_suffix("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=")
                        .key_secret_hash("47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU="),
                );
                create_key(c, request)
            },
            path: "hashData.keyIdHash",
            rule: Rule::Base64Of32Bytes,
        },
        Case {
            call: |c| {
                let both = create_pipe_requests("unused")
                    .remove(0)
                    .source
                    .unwrap()
                    .kinesis(KinesisSource::default().stream_name("s").region("eu-west-1"));
                create_pipe(c, pipe(|r| r.source = Some(both)))
            },
            path: "source",
            rule: Rule::ExactlyOneSourceKind { found: 2 },
        },
        Case {
            call: |c| create_pipe(c, pipe(|r| r.scaling = Some(Scaling::default().replicas(0u32)))),
            path: "scaling.replicas",
            rule: Rule::Range { min: 1, max: 40 },
        },
        Case {
            call: |c| c.list_alerts(ListAlerts::new().limit(0)).unwrap_err(),
            path: "limit",
            rule: Rule::Range { min: 1, max: 1000 },
        },
    ]
}

#[test]
fn every_rule_is_refused_before_sending_with_its_field_and_rule() {
    let server = Fake::demo().serve().unwrap();
    let client = Client::builder()
        .management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET)
        .alerting(&server.base_url(), DEMO_ALERTS_TOKEN)
        .build()
        .unwrap();

    for case in cases() {
        let error = (case.call)(&client);
        let Error::Build(build) = &error else { panic!("{}: expected a build error, got {error:?}", case.path) };
        let violations = build.validation().unwrap_or_else(|| panic!("{}: not a validation error: {build}", case.path));
        assert!(
            violations.contains(case.path, &case.rule),
            "{}: expected {:?}, got {:?}",
            case.path,
            case.rule,
            violations.violations()
        );
        // The violations are the error's source: a report of the chain names the field.
        let why = std::error::Error::source(&error).map(ToString::to_string).unwrap_or_default();
        let shown = format!("{error}: {why}");
        assert!(shown.contains(case.path), "the message names the field: {shown}");
        assert!(shown.contains("nothing was sent"), "the message says nothing was sent: {shown}");
    }
    assert_eq!(server.fake().request_count(), 0, "{:?}", server.fake().requests());
}

#[test]
fn every_violation_is_reported_at_once() {
    let server = Fake::demo().serve().unwrap();
    let client = Client::management(&server.base_url(), DEMO_KEY_ID, DEMO_KEY_SECRET).unwrap();
    let mut request = CreateKeyRequest::new("bad\u{7}name", []);
    request.ip_access_list = Some(vec![IpAccessEntry::new("not an address", ""), IpAccessEntry::new("1.2.3.4/99", "")]);
    let error = client.create_key(ORG, request).unwrap_err();
    let Error::Build(build) = &error else { panic!("{error:?}") };
    let violations = build.validation().unwrap();
    let paths: Vec<&str> = violations.violations().iter().map(|v| v.path.as_str()).collect();
    assert_eq!(paths, ["name", "roles", "ipAccessList[0].source", "ipAccessList[1].source"]);
    assert_eq!(server.fake().request_count(), 0);
}
