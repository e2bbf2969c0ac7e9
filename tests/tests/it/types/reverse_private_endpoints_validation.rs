//! The create and update requests of reverse private endpoints: each rule accepts what its source
//! allows and refuses the rest, naming the field. Sources: the management OpenAPI contract
//! (`CreateReversePrivateEndpoint`, `UpdateReversePrivateEndpoint`, `CustomPrivateDnsMapping`).

use crate::types::common;

use common::violations;

use pipe_api_types::{
    CreateReversePrivateEndpointRequest as Create, CustomPrivateDnsMapping, MskAuthentication,
    ReversePrivateEndpointType, Rule, UpdateReversePrivateEndpointRequest as Update,
};
use proptest::prelude::*;

/// Each violation's path and rule.
type Found = Vec<(String, Rule)>;

fn at(path: &str, rule: Rule) -> Found {
    vec![(path.to_owned(), rule)]
}

const GCP: &str = "projects/my-project/regions/us-central1/serviceAttachments/my-service";

#[test]
fn each_type_needs_what_the_contract_says() {
    let cases: Vec<(&str, Create, Found)> = vec![
        // The contract's examples, one per type: accepted.
        ("vpc endpoint service", Create::vpc_endpoint_service("com.amazonaws.vpce.us-east-1.vpce-svc-1"), vec![]),
        ("vpc resource", Create::vpc_resource("rcfg-1", "arn:aws:ram:us-east-1:1:resource-share/share-1"), vec![]),
        ("msk", Create::msk_multi_vpc("arn:aws:kafka:us-east-1:1:cluster/c", MskAuthentication::SaslScram), vec![]),
        ("gcp", Create::gcp_psc_service_attachment(GCP), vec![]),
        // Without a type nothing else can be checked.
        ("no type", Create::default(), at("type", Rule::Required)),
        // "VPC endpoint service name" is what a VPC_ENDPOINT_SERVICE endpoint connects to.
        (
            "vpc endpoint service without its name",
            Create::vpc_endpoint_service(""),
            at("vpcEndpointServiceName", Rule::RequiredBecause("when type is VPC_ENDPOINT_SERVICE")),
        ),
        // "Required for VPC_RESOURCE type", both fields.
        (
            "vpc resource without its share",
            Create::default().kind(ReversePrivateEndpointType::VpcResource).vpc_resource_configuration_id("rcfg-1"),
            at("vpcResourceShareArn", Rule::RequiredBecause("when type is VPC_RESOURCE")),
        ),
        // "Required for MSK_MULTI_VPC type", both fields.
        (
            "msk without authentication",
            Create::default().kind(ReversePrivateEndpointType::MskMultiVpc).msk_cluster_arn("arn"),
            at("mskAuthentication", Rule::RequiredBecause("when type is MSK_MULTI_VPC")),
        ),
        // "Not supported for MSK multi-VPC."
        (
            "msk with mappings",
            Create::msk_multi_vpc("arn", MskAuthentication::SaslIam)
                .custom_private_dns_mappings([CustomPrivateDnsMapping::new("a.example.com")]),
            at("customPrivateDnsMappings", Rule::NotAllowedBecause("when type is MSK_MULTI_VPC")),
        ),
        // "Required for GCP_PSC_SERVICE_ATTACHMENT type. Format: projects/{project}/regions/..."
        (
            "gcp without the attachment",
            Create::default().kind(ReversePrivateEndpointType::GcpPscServiceAttachment),
            at("gcpServiceAttachment", Rule::RequiredBecause("when type is GCP_PSC_SERVICE_ATTACHMENT")),
        ),
        (
            "gcp attachment of another form",
            Create::gcp_psc_service_attachment("projects/p/regions//serviceAttachments/s"),
            at("gcpServiceAttachment", Rule::Format("projects/{project}/regions/{region}/serviceAttachments/{name}")),
        ),
        // "Maximum length is 255 characters."
        ("description of 255", Create::gcp_psc_service_attachment(GCP).description("é".repeat(255)), vec![]),
        (
            "description of 256",
            Create::gcp_psc_service_attachment(GCP).description("é".repeat(256)),
            at("description", Rule::MaxChars(255)),
        ),
    ];
    for (name, request, expected) in cases {
        assert_eq!(violations(&request), expected, "{name}");
    }
}

#[test]
fn an_unknown_type_or_authentication_is_refused_unless_sent_on_purpose() {
    let typo = Create::default().kind("VPC_PEERING");
    assert!(matches!(violations(&typo).as_slice(), [(path, Rule::KnownValue { .. })] if path == "type"));
    assert_eq!(violations(&Create::default().kind(ReversePrivateEndpointType::not_yet_known("VPC_PEERING"))), vec![]);
    let auth = Create::msk_multi_vpc("arn", MskAuthentication::from("SASL_PLAIN"));
    assert!(matches!(violations(&auth).as_slice(), [(path, Rule::KnownValue { .. })] if path == "mskAuthentication"));
}

#[test]
fn mappings_are_exact_names_or_leading_wildcards_each_once() {
    let with = |names: &[&str]| Update::new(names.iter().map(|n| CustomPrivateDnsMapping::new(*n)));
    assert_eq!(violations(&with(&["my-service.example.com", "*.example.com"])), vec![]);
    assert_eq!(violations(&Update::clear()), vec![], "an empty list clears the mappings");
    let form = Rule::Format("an exact DNS name or a leading wildcard (`*.example.com`)");
    for bad in ["", "*.", "a.*.example.com", "*example.com", "two words.example.com"] {
        assert_eq!(
            violations(&with(&["ok.example.com", bad])),
            at("customPrivateDnsMappings[1].privateDnsName", form.clone()),
            "{bad:?}"
        );
    }
    // "Must be unique across the ClickHouse service": DNS names compare without case.
    assert_eq!(
        violations(&with(&["a.example.com", "b.example.com", "A.Example.com"])),
        at("customPrivateDnsMappings[2].privateDnsName", Rule::UniqueItems)
    );
    assert_eq!(
        violations(&Update::new([CustomPrivateDnsMapping::default()])),
        at("customPrivateDnsMappings[0].privateDnsName", Rule::Required)
    );
    assert_eq!(violations(&Update::default()), at("customPrivateDnsMappings", Rule::Required));
}

proptest! {
    /// Any list of distinct well-formed names is accepted, each name exact or a leading wildcard.
    #[test]
    fn distinct_names_are_accepted(labels in prop::collection::btree_set("[a-z][a-z0-9-]{0,10}", 0..6), wildcard: bool) {
        let names: Vec<String> = labels
            .iter()
            .map(|label| if wildcard { format!("*.{label}.example.com") } else { format!("{label}.example.com") })
            .collect();
        let request = Update::new(names.iter().map(|n| CustomPrivateDnsMapping::new(n.as_str())));
        prop_assert_eq!(violations(&request), vec![]);
    }

    /// A description is refused exactly when longer than 255 characters (the contract).
    #[test]
    fn a_description_is_at_most_255_characters(description in "\\PC{0,300}") {
        let request = Create::gcp_psc_service_attachment(GCP).description(description.as_str());
        let expected = if description.chars().count() > 255 { at("description", Rule::MaxChars(255)) } else { vec![] };
        prop_assert_eq!(violations(&request), expected);
    }
}
