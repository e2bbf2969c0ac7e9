//! Reverse private endpoints: one request snapshot per operation (and per endpoint type for
//! create), each success fixture parsed field by field, an error fixture of each kind, and
//! validation before anything is built.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{
    CreateReversePrivateEndpoint, DeleteReversePrivateEndpoint, EndpointExt, Error, GetReversePrivateEndpoint,
    UpdateReversePrivateEndpoint, render_request,
};
use pipe_api_types::{
    CreateReversePrivateEndpointRequest, CustomPrivateDnsMapping, MskAuthentication, ReversePrivateEndpointId,
    ReversePrivateEndpointStatus, ReversePrivateEndpointType, Rule, UpdateReversePrivateEndpointRequest,
};

fn fixture(name: &str) -> &'static [u8] {
    match name {
        "create_ok" => include_bytes!("fixtures/operations/create_reverse_private_endpoint/ok.json"),
        "get_ok" => include_bytes!("fixtures/operations/get_reverse_private_endpoint/ok.json"),
        "update_ok" => include_bytes!("fixtures/operations/update_reverse_private_endpoint/ok.json"),
        "delete_ok" => include_bytes!("fixtures/operations/delete_reverse_private_endpoint/ok.json"),
        "error_400_missing_share_arn" => {
            include_bytes!("fixtures/operations/create_reverse_private_endpoint/400_missing_share_arn.json")
        }
        "error_404_not_found" => include_bytes!("fixtures/operations/get_reverse_private_endpoint/404.json"),
        other => panic!("no fixture {other}"),
    }
}

fn endpoint_id() -> ReversePrivateEndpointId {
    "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b02".parse().unwrap()
}

fn create(request: CreateReversePrivateEndpointRequest) -> CreateReversePrivateEndpoint {
    CreateReversePrivateEndpoint::new(org(), service(), request)
}

// ---- requests --------------------------------------------------------------------------------

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
fn get_update_and_delete_requests() {
    let get = GetReversePrivateEndpoint::new(org(), service(), endpoint_id()).build_request(&management()).unwrap();
    insta::assert_snapshot!("get_reverse_private_endpoint", render_request(&get));
    let update = UpdateReversePrivateEndpoint::new(
        org(),
        service(),
        endpoint_id(),
        UpdateReversePrivateEndpointRequest::new([CustomPrivateDnsMapping::new("db.internal.example.com")]),
    )
    .build_request(&management())
    .unwrap();
    insta::assert_snapshot!("update_reverse_private_endpoint", render_request(&update));
    let clear = UpdateReversePrivateEndpoint::new(
        org(),
        service(),
        endpoint_id(),
        UpdateReversePrivateEndpointRequest::clear(),
    )
    .build_request(&management())
    .unwrap();
    insta::assert_snapshot!("update_reverse_private_endpoint_clear", render_request(&clear));
    let delete =
        DeleteReversePrivateEndpoint::new(org(), service(), endpoint_id()).build_request(&management()).unwrap();
    insta::assert_snapshot!("delete_reverse_private_endpoint", render_request(&delete));
}

#[test]
fn an_invalid_request_builds_nothing() {
    let request = CreateReversePrivateEndpointRequest::vpc_resource("rcfg-1", "");
    let error = create(request).build_request(&management()).unwrap_err();
    let errors = error.validation().unwrap();
    assert!(errors.contains("vpcResourceShareArn", &Rule::RequiredBecause("when type is VPC_RESOURCE")), "{errors}");
    assert_eq!(error.operation(), "create_reverse_private_endpoint");
}

// ---- responses -------------------------------------------------------------------------------

#[test]
fn create_success() {
    let request = CreateReversePrivateEndpointRequest::vpc_resource("rcfg-12345678901234567", "arn");
    let reply =
        create(request).parse_response(&crate::common::management(), response(200, fixture("create_ok"))).unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("3c1d9e2a-7b4f-4e6a-9c8d-1a2b3c4d5e01"));
    let endpoint = reply.value;
    assert_eq!(endpoint.id.to_string(), "9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b01");
    assert_eq!(endpoint.service_id, Some(service()));
    assert_eq!(endpoint.description.as_deref(), Some("orders in another VPC"));
    assert_eq!(endpoint.kind, Some(ReversePrivateEndpointType::VpcResource));
    assert_eq!(endpoint.vpc_endpoint_service_name, None);
    assert_eq!(endpoint.vpc_resource_configuration_id.as_deref(), Some("rcfg-12345678901234567"));
    assert_eq!(
        endpoint.vpc_resource_share_arn.as_deref(),
        Some("arn:aws:ram:us-east-1:123456789012:resource-share/share-12345678901234567")
    );
    assert_eq!((endpoint.msk_cluster_arn.as_ref(), endpoint.msk_authentication.as_ref()), (None, None));
    assert_eq!(endpoint.gcp_service_attachment, None);
    assert_eq!(endpoint.custom_private_dns_mappings, Some(vec![]));
    assert_eq!(endpoint.endpoint_id.as_deref(), Some(""));
    assert_eq!(endpoint.dns_names, Some(vec![]));
    assert_eq!(endpoint.private_dns_names, Some(vec![]));
    assert_eq!(endpoint.status, Some(ReversePrivateEndpointStatus::Provisioning));
    assert!(endpoint.unknown.is_empty());
}

#[test]
fn get_success_keeps_what_it_does_not_model() {
    let reply = GetReversePrivateEndpoint::new(org(), service(), endpoint_id())
        .parse_response(&crate::common::management(), response(200, fixture("get_ok")))
        .unwrap();
    let endpoint = reply.value;
    assert_eq!(endpoint.id, endpoint_id());
    assert_eq!(endpoint.kind, Some(ReversePrivateEndpointType::GcpPscServiceAttachment));
    assert_eq!(
        endpoint.gcp_service_attachment.as_deref(),
        Some("projects/my-project/regions/us-central1/serviceAttachments/my-service")
    );
    let mappings: Vec<_> =
        endpoint.custom_private_dns_mappings.iter().flatten().map(|m| m.private_dns_name.as_deref()).collect();
    assert_eq!(mappings, [Some("my-service.example.com"), Some("*.example.com")]);
    assert_eq!(endpoint.endpoint_id.as_deref(), Some("psc-0123456789"));
    assert_eq!(endpoint.dns_names.as_ref().unwrap()[0].as_str(), "psc-0123456789.p.googleapis.example");
    assert_eq!(endpoint.private_dns_names.as_ref().unwrap()[0].as_str(), "my-service.example.com");
    assert_eq!(endpoint.status, Some(ReversePrivateEndpointStatus::PendingAcceptance));
    assert_eq!(endpoint.unknown.get("acceptedBy"), Some("null"));
}

#[test]
fn update_success_shows_the_replaced_list() {
    let reply = UpdateReversePrivateEndpoint::new(
        org(),
        service(),
        endpoint_id(),
        UpdateReversePrivateEndpointRequest::new([CustomPrivateDnsMapping::new("db.internal.example.com")]),
    )
    .parse_response(&crate::common::management(), response(200, fixture("update_ok")))
    .unwrap();
    assert_eq!(reply.request_id.as_deref(), Some("3c1d9e2a-7b4f-4e6a-9c8d-1a2b3c4d5e03"));
    assert_eq!(
        reply.value.custom_private_dns_mappings,
        Some(vec![CustomPrivateDnsMapping::new("db.internal.example.com")])
    );
    assert_eq!(reply.value.status, Some(ReversePrivateEndpointStatus::Ready));
}

#[test]
fn delete_success_is_unit() {
    let reply = DeleteReversePrivateEndpoint::new(org(), service(), endpoint_id())
        .parse_response(&crate::common::management(), response(200, fixture("delete_ok")))
        .unwrap();
    assert_eq!(reply.value, ());
    assert_eq!(reply.request_id.as_deref(), Some("3c1d9e2a-7b4f-4e6a-9c8d-1a2b3c4d5e04"));
    assert_eq!(reply.status, StatusCode::OK);
}

#[test]
fn errors_are_typed() {
    let request = CreateReversePrivateEndpointRequest::vpc_resource("rcfg-1", "arn");
    let Err(Error::Api(bad)) = create(request)
        .parse_response(&crate::common::management(), response(400, fixture("error_400_missing_share_arn")))
    else {
        panic!("expected an API error")
    };
    assert_eq!(bad.status(), StatusCode::BAD_REQUEST);
    assert_eq!(bad.code(), Some("BAD_REQUEST"));
    assert_eq!(bad.message(), Some("vpcResourceShareArn is required for VPC_RESOURCE type"));
    assert_eq!(bad.request_id(), Some("3c1d9e2a-7b4f-4e6a-9c8d-1a2b3c4d5e05"));
    assert_eq!(bad.operation(), "create_reverse_private_endpoint");

    for parsed in [
        GetReversePrivateEndpoint::new(org(), service(), endpoint_id())
            .parse_response(&crate::common::management(), response(404, fixture("error_404_not_found")))
            .map(|_| ()),
        DeleteReversePrivateEndpoint::new(org(), service(), endpoint_id())
            .parse_response(&crate::common::management(), response(404, fixture("error_404_not_found")))
            .map(|_| ()),
    ] {
        let error = parsed.unwrap_err();
        assert!(error.is_not_found(), "{error}");
        let api = error.as_api().unwrap();
        assert_eq!(api.code(), Some("NOT_FOUND"));
        assert_eq!(api.message(), Some("9d8c7b6a-5f4e-4d3c-8b2a-1f0e9d8c7b09"));
        assert_eq!(api.request_id(), Some("3c1d9e2a-7b4f-4e6a-9c8d-1a2b3c4d5e06"));
    }
}
