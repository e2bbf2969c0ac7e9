//! The three calls that find a user's ids: list organizations, get an organization, list an
//! organization's services (with its tag filter). A snapshot of each request, each success
//! fixture parsed field by field, the errors, and the filter checked before building.

use crate::common;

use common::*;
use http::StatusCode;
use pipe_api_proto::{
    BuildErrorKind, EndpointExt, GetOrganization, ListOrganizations, ListServices, UpdateOrganization, render_request,
};
use pipe_api_types::{
    ByocState, CloudProvider, OrganizationPatchPrivateEndpoint, OrganizationPrivateEndpointsPatch, Rule, ServiceFilter,
    ServiceRegion, ServiceState, UpdateOrganizationRequest,
};

#[test]
fn snapshot_each_request() {
    let api = management();
    let list = ListOrganizations::new().build_request(&api).unwrap();
    insta::assert_snapshot!("list_organizations", render_request(&list));
    let get = GetOrganization::new(org()).build_request(&api).unwrap();
    insta::assert_snapshot!("get_organization", render_request(&get));
    let services = ListServices::new(org()).build_request(&api).unwrap();
    insta::assert_snapshot!("list_services", render_request(&services));
}

#[test]
fn snapshot_list_services_with_a_tag_filter_sends_one_filter_parameter_per_tag() {
    let filter = ServiceFilter::any().tag("Environment", "Production").tag_key("isActive");
    let request = ListServices::new(org()).filter(filter).build_request(&management()).unwrap();
    assert_eq!(request.uri().query(), Some("filter=tag:Environment%3DProduction&filter=tag:isActive"));
    insta::assert_snapshot!("list_services_filtered", render_request(&request));
}

#[test]
fn a_filter_that_could_match_nothing_is_refused_before_building() {
    let filter = ServiceFilter::any().tag("Environment", "Pro duction").tag_key("");
    let error = ListServices::new(org()).filter(filter).build_request(&management()).unwrap_err();
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert!(errors.contains("filter[0].value", &Rule::OnlyCharacters("letters, digits, `.`, `_` and `-`")), "{errors}");
    assert_eq!(errors.violations()[1].path, "filter[1].key");
}

#[test]
fn the_organizations_listed_are_read_field_by_field() {
    let body = include_bytes!("fixtures/operations/list_organizations/ok.json");
    let reply = ListOrganizations::new().parse_response(&management(), response(200, body)).unwrap();
    let [organization] = reply.value.as_slice() else { panic!("{:?}", reply.value) };
    assert_eq!(organization.id, org());
    assert_eq!(organization.name.as_deref(), Some("Acme Analytics"));
    assert_eq!(organization.created_at.unwrap().year(), 2024);
    let endpoint = &organization.private_endpoints.as_ref().unwrap()[0];
    assert_eq!(endpoint.cloud_provider, Some(CloudProvider::Aws));
    assert_eq!(endpoint.region.as_ref().map(ServiceRegion::as_str), Some("eu-west-1"));
    assert_eq!(organization.enable_core_dumps, Some(true));
}

#[test]
fn an_organization_is_read_with_what_a_newer_server_adds_kept() {
    let body = include_bytes!("fixtures/operations/get_organization/ok.json");
    let organization = GetOrganization::new(org()).parse_response(&management(), response(200, body)).unwrap().value;
    let byoc = &organization.byoc_config.as_ref().unwrap()[0];
    assert_eq!(byoc.state, Some(ByocState::InfraReady));
    assert_eq!(byoc.display_name.as_deref(), Some("Acme production"));

    let body = include_bytes!("fixtures/operations/get_organization/ok_newer.json");
    let organization = GetOrganization::new(org()).parse_response(&management(), response(200, body)).unwrap().value;
    assert_eq!(
        organization.byoc_config.as_ref().unwrap()[0].state.as_ref().map(ByocState::as_str),
        Some("infra-upgrading")
    );
    assert_eq!(organization.unknown.get("tier"), Some(r#""enterprise""#));
}

#[test]
fn the_services_listed_are_full_records() {
    let body = include_bytes!("fixtures/operations/list_services/ok.json");
    let services = ListServices::new(org()).parse_response(&management(), response(200, body)).unwrap().value;
    assert_eq!(services.len(), 2);
    assert_eq!(services[0].id, service());
    assert_eq!(services[0].tags.as_ref().unwrap()[0].key.as_deref(), Some("Environment"));
    assert_eq!(services[1].state, Some(ServiceState::Idle));
}

#[test]
fn an_unsupported_filter_is_the_servers_400() {
    let body = include_bytes!("fixtures/operations/list_services/400_filter.json");
    let error = api_error(&ListServices::new(org()), 400, body);
    assert_eq!(error.status(), StatusCode::BAD_REQUEST);
    assert!(error.to_string().contains("unsupported filter"), "{error}");
}

#[test]
fn snapshot_update_organization_and_its_answer() {
    let request: UpdateOrganizationRequest =
        serde_json::from_slice(include_bytes!("fixtures/operations/update_organization/request.json")).unwrap();
    let endpoint = UpdateOrganization::new(org(), request);
    insta::assert_snapshot!("update_organization", render_request(&endpoint.build_request(&management()).unwrap()));
    let ok = include_bytes!("fixtures/operations/update_organization/ok.json");
    let organization = endpoint.parse_response(&management(), response(200, ok)).unwrap().value;
    assert_eq!(organization.name.as_deref(), Some("Acme Analytics"));
    assert_eq!(organization.enable_core_dumps, Some(false));
    let forbidden = include_bytes!("fixtures/operations/update_organization/403_not_admin.json");
    let error = api_error(&endpoint, 403, forbidden);
    assert_eq!(error.status(), StatusCode::FORBIDDEN);
    assert_eq!(error.operation(), "update_organization");

    let request = UpdateOrganizationRequest::new().name(" ").private_endpoints(
        OrganizationPrivateEndpointsPatch::new()
            .remove([OrganizationPatchPrivateEndpoint::default().cloud_provider(CloudProvider::from("ibm"))]),
    );
    let error = UpdateOrganization::new(org(), request).build_request(&management()).unwrap_err();
    let BuildErrorKind::Invalid(errors) = error.kind() else { panic!("{error:?}") };
    assert!(errors.contains("name", &Rule::NotBlank), "{errors}");
    assert!(errors.contains("privateEndpoints.remove[0].id", &Rule::Required), "{errors}");
    assert!(
        errors.contains(
            "privateEndpoints.remove[0].cloudProvider",
            &Rule::KnownValue { known: vec!["aws", "gcp", "azure"] }
        ),
        "{errors}"
    );
}
