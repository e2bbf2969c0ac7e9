//! Reverse private endpoints: what the harness over the fixtures (`every_operation`) does not
//! check. The body a create of each endpoint type sends, the empty list that clears an
//! endpoint's DNS mappings, and validation before anything is built.

use crate::proto::common;

use common::*;
use pipe_api_proto::{CreateReversePrivateEndpoint, EndpointExt, UpdateReversePrivateEndpoint, render_request};
use pipe_api_types::{
    CreateReversePrivateEndpointRequest, CustomPrivateDnsMapping, MskAuthentication, ReversePrivateEndpointId, Rule,
    UpdateReversePrivateEndpointRequest,
};

fn endpoint_id() -> ReversePrivateEndpointId {
    "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b02".parse().unwrap()
}

fn create(request: CreateReversePrivateEndpointRequest) -> CreateReversePrivateEndpoint {
    CreateReversePrivateEndpoint::new(org(), service(), request)
}

#[test]
fn create_requests_of_each_type() {
    let cases = [
        (
            "create_vpc_endpoint_service",
            CreateReversePrivateEndpointRequest::vpc_endpoint_service(
                "com.amazonaws.vpce.us-east-1.vpce-svc-12345678901234567",
            )
            .description("orders database")
            .custom_private_dns_mappings([CustomPrivateDnsMapping::new("orders.internal.example.com")]),
        ),
        (
            "create_vpc_resource",
            CreateReversePrivateEndpointRequest::vpc_resource(
                "rcfg-12345678901234567",
                "arn:aws:ram:us-east-1:123456789012:resource-share/share-12345678901234567",
            ),
        ),
        (
            "create_msk_multi_vpc",
            CreateReversePrivateEndpointRequest::msk_multi_vpc(
                "arn:aws:kafka:us-east-1:123456789012:cluster/my-cluster",
                MskAuthentication::SaslIam,
            ),
        ),
        (
            "create_gcp_psc_service_attachment",
            CreateReversePrivateEndpointRequest::gcp_psc_service_attachment(
                "projects/my-project/regions/us-central1/serviceAttachments/my-service",
            )
            .custom_private_dns_mappings([
                CustomPrivateDnsMapping::new("my-service.example.com"),
                CustomPrivateDnsMapping::new("*.example.com"),
            ]),
        ),
    ];
    for (name, request) in cases {
        let request = create(request).build_request(&management()).unwrap();
        insta::assert_snapshot!(name, render_request(&request));
    }
}

#[test]
fn an_update_with_no_mapping_sends_the_empty_list_that_clears_them() {
    let clear = UpdateReversePrivateEndpoint::new(
        org(),
        service(),
        endpoint_id(),
        UpdateReversePrivateEndpointRequest::clear(),
    )
    .build_request(&management())
    .unwrap();
    insta::assert_snapshot!("update_reverse_private_endpoint_clear", render_request(&clear));
}

#[test]
fn an_invalid_request_builds_nothing() {
    let request = CreateReversePrivateEndpointRequest::vpc_resource("rcfg-1", "");
    let error = create(request).build_request(&management()).unwrap_err();
    let errors = error.validation().unwrap();
    assert!(errors.contains("vpcResourceShareArn", &Rule::RequiredBecause("when type is VPC_RESOURCE")), "{errors}");
    assert_eq!(error.operation(), "create_reverse_private_endpoint");
}
