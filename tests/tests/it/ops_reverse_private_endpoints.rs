//! Reverse private endpoints end to end: the ureq client against the fake served on 127.0.0.1,
//! its clock moving with each request, so the client's own polling sees an endpoint provision,
//! and after delete sees it go, with no sleep in the test.

use std::time::Duration;

use pipe_api_fake::{DEMO_ORGANIZATION_ID as ORG, DEMO_SERVICE_ID as SERVICE, Fake};
use pipe_api_ureq::types::{
    CreateReversePrivateEndpointRequest, CustomPrivateDnsMapping, MskAuthentication, ReversePrivateEndpointStatus,
    ReversePrivateEndpointType, UpdateReversePrivateEndpointRequest,
};
use pipe_api_ureq::{Error, WaitPolicy, reverse_private_endpoint_ready};

use crate::clients::*;

/// Quick polls: the fake's clock, not the wall clock, decides when the endpoint is ready.
fn quick() -> WaitPolicy {
    let mut policy = WaitPolicy::default();
    policy.initial_delay = Duration::from_millis(2);
    policy.max_delay = Duration::from_millis(5);
    policy.deadline = Duration::from_secs(20);
    policy
}

#[test]
fn an_endpoint_is_created_waited_for_updated_and_deleted() {
    let fake = Fake::demo();
    fake.set_reverse_private_endpoint_durations(Duration::from_secs(60), Duration::from_secs(30));
    fake.advance_per_request(Duration::from_secs(20));
    let server = fake.serve().unwrap();
    let client = demo_client(&server);

    let request = CreateReversePrivateEndpointRequest::gcp_psc_service_attachment(
        "projects/demo/regions/europe-west1/serviceAttachments/orders",
    )
    .description("orders over PSC")
    .custom_private_dns_mappings([CustomPrivateDnsMapping::new("orders.internal.example.com")]);
    let created = client.create_reverse_private_endpoint(ORG, SERVICE, request).unwrap();
    assert_eq!(created.status, Some(ReversePrivateEndpointStatus::Provisioning));
    assert_eq!(created.kind, Some(ReversePrivateEndpointType::GcpPscServiceAttachment));
    assert_eq!(created.service_id, Some(SERVICE));
    assert_eq!(created.description.as_deref(), Some("orders over PSC"));
    assert_eq!(
        created.gcp_service_attachment.as_deref(),
        Some("projects/demo/regions/europe-west1/serviceAttachments/orders")
    );
    assert_eq!(
        created.custom_private_dns_mappings,
        Some(vec![CustomPrivateDnsMapping::new("orders.internal.example.com")])
    );

    let sent = fake.request_count();
    let ready = client
        .wait_for_reverse_private_endpoint(ORG, SERVICE, created.id, reverse_private_endpoint_ready, quick())
        .unwrap();
    assert_eq!(ready.status, Some(ReversePrivateEndpointStatus::Ready));
    assert_eq!(fake.request_count() - sent, 3, "Provisioning at +20 s and +40 s, Ready at +60 s");

    let replaced = client
        .update_reverse_private_endpoint(
            ORG,
            SERVICE,
            created.id,
            UpdateReversePrivateEndpointRequest::new([
                CustomPrivateDnsMapping::new("db.internal.example.com"),
                CustomPrivateDnsMapping::new("*.cache.example.com"),
            ]),
        )
        .unwrap();
    let names: Vec<_> =
        replaced.custom_private_dns_mappings.iter().flatten().filter_map(|m| m.private_dns_name.as_deref()).collect();
    assert_eq!(names, ["db.internal.example.com", "*.cache.example.com"]);
    let cleared = client
        .update_reverse_private_endpoint(ORG, SERVICE, created.id, UpdateReversePrivateEndpointRequest::clear())
        .unwrap();
    assert_eq!(cleared.custom_private_dns_mappings, Some(vec![]));
    assert_eq!(
        client.get_reverse_private_endpoint(ORG, SERVICE, created.id).unwrap().custom_private_dns_mappings,
        Some(vec![])
    );

    client.delete_reverse_private_endpoint(ORG, SERVICE, created.id).unwrap();
    let deleting = client.get_reverse_private_endpoint(ORG, SERVICE, created.id).unwrap();
    assert_eq!(deleting.status, Some(ReversePrivateEndpointStatus::Deleting));
    let gone = client.get_reverse_private_endpoint(ORG, SERVICE, created.id).unwrap_err();
    assert!(gone.is_not_found(), "{gone}");
    let api = gone.as_api().unwrap();
    assert_eq!((api.code(), api.message()), (Some("NOT_FOUND"), Some(created.id.to_string().as_str())));
    assert!(client.list_reverse_private_endpoints(ORG, SERVICE).unwrap().iter().all(|e| e.id != created.id));
}

#[test]
fn every_type_is_accepted_and_an_invalid_one_is_never_sent() {
    let server = Fake::demo().serve().unwrap();
    let client = demo_client(&server);
    for request in [
        CreateReversePrivateEndpointRequest::vpc_endpoint_service("com.amazonaws.vpce.eu-west-1.vpce-svc-1"),
        CreateReversePrivateEndpointRequest::vpc_resource("rcfg-1", "arn:aws:ram:eu-west-1:1:resource-share/share-1"),
        CreateReversePrivateEndpointRequest::msk_multi_vpc(
            "arn:aws:kafka:eu-west-1:1:cluster/c",
            MskAuthentication::SaslIam,
        ),
    ] {
        let kind = request.kind.clone();
        let created = client.create_reverse_private_endpoint(ORG, SERVICE, request).unwrap();
        assert_eq!(created.kind, kind);
    }
    let sent = server.fake().request_count();
    let invalid = CreateReversePrivateEndpointRequest::msk_multi_vpc("", MskAuthentication::SaslIam);
    let error = client.create_reverse_private_endpoint(ORG, SERVICE, invalid).unwrap_err();
    assert!(matches!(error, Error::Build(_)), "{error}");
    assert_eq!(server.fake().request_count(), sent, "nothing was sent");
}

#[test]
fn the_server_refuses_a_name_another_endpoint_holds() {
    let server = Fake::demo().serve().unwrap();
    let client = demo_client(&server);
    let with_name = |name: &str| {
        CreateReversePrivateEndpointRequest::vpc_endpoint_service("com.amazonaws.vpce.eu-west-1.vpce-svc-2")
            .custom_private_dns_mappings([CustomPrivateDnsMapping::new(name)])
    };
    client.create_reverse_private_endpoint(ORG, SERVICE, with_name("shared.example.com")).unwrap();
    let error = client.create_reverse_private_endpoint(ORG, SERVICE, with_name("shared.example.com")).unwrap_err();
    let api = error.as_api().unwrap();
    assert_eq!(api.status(), 400);
    assert_eq!(api.code(), Some("BAD_REQUEST"));
}
