//! Organizations and their services: what the harness over the fixtures (`every_operation`)
//! does not check. The services' tag filter, sent and checked before building; a newer
//! organization's values kept; an invalid update refused before building.

use crate::proto::common;

use common::*;
use pipe_api_proto::{BuildErrorKind, EndpointExt, GetOrganization, ListServices, UpdateOrganization, render_request};
use pipe_api_types::{
    ByocState, CloudProvider, OrganizationPatchPrivateEndpoint, OrganizationPrivateEndpointsPatch, Rule, ServiceFilter,
    UpdateOrganizationRequest,
};

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
fn an_organization_state_newer_than_this_crate_is_kept_as_sent() {
    let body = operation_fixture("get_organization", "ok_newer.json");
    let organization = GetOrganization::new(org()).parse_response(&management(), response(200, body)).unwrap().value;
    let state = organization.byoc_config.as_ref().unwrap()[0].state.clone();
    assert_eq!(state.as_ref().map(ByocState::as_str), Some("infra-upgrading"));
    assert_eq!(organization.unknown.get("tier"), Some(r#""enterprise""#));
}

#[test]
fn an_invalid_organization_update_is_refused_before_building() {
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
