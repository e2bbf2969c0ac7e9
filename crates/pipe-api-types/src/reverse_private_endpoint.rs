//! Reverse private endpoints: private network paths that pipes use to reach their sources.

use crate::Text;
use crate::validate::{Checker, Rule, Validate, ValidationErrors};
use crate::{ReversePrivateEndpointId, ServiceId};

open_enum! {
    /// The kind of reverse private endpoint.
    pub enum ReversePrivateEndpointType {
        /// An AWS VPC endpoint service.
        VpcEndpointService => "VPC_ENDPOINT_SERVICE",
        /// An AWS VPC resource.
        VpcResource => "VPC_RESOURCE",
        /// An Amazon MSK multi-VPC connection.
        MskMultiVpc => "MSK_MULTI_VPC",
        /// A GCP Private Service Connect service attachment.
        GcpPscServiceAttachment => "GCP_PSC_SERVICE_ATTACHMENT",
    }
}

open_enum! {
    /// The status of a reverse private endpoint.
    pub enum ReversePrivateEndpointStatus {
        /// The server does not know the status.
        Unknown => "Unknown",
        /// Being created.
        Provisioning => "Provisioning",
        /// Being deleted.
        Deleting => "Deleting",
        /// Usable.
        Ready => "Ready",
        /// Failed.
        Failed => "Failed",
        /// Waiting for the other side to accept.
        PendingAcceptance => "PendingAcceptance",
        /// Rejected by the other side.
        Rejected => "Rejected",
        /// Expired before acceptance.
        Expired => "Expired",
    }
}

open_enum! {
    /// How an MSK reverse private endpoint authenticates.
    pub enum MskAuthentication {
        /// SASL with IAM.
        SaslIam => "SASL_IAM",
        /// SASL SCRAM.
        SaslScram => "SASL_SCRAM",
    }
}

model! {
    /// A reverse private endpoint of a service.
    pub struct ReversePrivateEndpoint {
        /// The endpoint's id.
        required "id" id: ReversePrivateEndpointId,
        /// The service that owns it.
        "serviceId" service_id: ServiceId,
        /// What it is for.
        "description" description: Text,
        /// Its kind.
        "type" kind: ReversePrivateEndpointType,
        /// The VPC endpoint service name (`VPC_ENDPOINT_SERVICE`).
        "vpcEndpointServiceName" vpc_endpoint_service_name: Text,
        /// The VPC resource configuration id (`VPC_RESOURCE`).
        "vpcResourceConfigurationId" vpc_resource_configuration_id: Text,
        /// The VPC resource share ARN (`VPC_RESOURCE`).
        "vpcResourceShareArn" vpc_resource_share_arn: Text,
        /// The MSK cluster ARN (`MSK_MULTI_VPC`).
        "mskClusterArn" msk_cluster_arn: Text,
        /// The MSK authentication (`MSK_MULTI_VPC`).
        "mskAuthentication" msk_authentication: MskAuthentication,
        /// The endpoint's id at the cloud provider.
        "endpointId" endpoint_id: Text,
        /// DNS names of the endpoint.
        "dnsNames" dns_names: Vec<Text>,
        /// Private DNS names of the endpoint.
        "privateDnsNames" private_dns_names: Vec<Text>,
        /// The endpoint's status.
        "status" status: ReversePrivateEndpointStatus,
        /// The GCP Private Service Connect service attachment URI (`GCP_PSC_SERVICE_ATTACHMENT`).
        "gcpServiceAttachment" gcp_service_attachment: Text,
        /// Private DNS names a pipe can use as its source's address.
        "customPrivateDnsMappings" custom_private_dns_mappings: Vec<CustomPrivateDnsMapping>,
    }
}

impl crate::HasState for ReversePrivateEndpoint {
    fn state(&self) -> Option<&str> {
        self.status.as_ref().map(ReversePrivateEndpointStatus::as_str)
    }
}

model! {
    /// A private DNS name of a reverse private endpoint, usable as a pipe source's address: an
    /// exact name or a leading wildcard (`*.example.com`), unique within the service.
    pub struct CustomPrivateDnsMapping {
        /// The DNS name.
        "privateDnsName" private_dns_name: Text,
    }
}

impl CustomPrivateDnsMapping {
    /// A mapping for `private_dns_name` (`my-service.example.com` or `*.example.com`).
    pub fn new(private_dns_name: impl Into<Text>) -> Self {
        CustomPrivateDnsMapping { private_dns_name: Some(private_dns_name.into()), ..Default::default() }
    }
}

model! {
    /// The body of the create-reverse-private-endpoint request. Build it with the constructor
    /// of its type, which takes what that type requires.
    pub struct CreateReversePrivateEndpointRequest {
        /// What it is for (at most 255 characters).
        "description" description: Text,
        /// Its kind.
        "type" kind: ReversePrivateEndpointType,
        /// The VPC endpoint service name (`VPC_ENDPOINT_SERVICE`).
        "vpcEndpointServiceName" vpc_endpoint_service_name: Text,
        /// The VPC resource configuration id (`VPC_RESOURCE`).
        "vpcResourceConfigurationId" vpc_resource_configuration_id: Text,
        /// The VPC resource share ARN (`VPC_RESOURCE`).
        "vpcResourceShareArn" vpc_resource_share_arn: Text,
        /// The MSK cluster ARN (`MSK_MULTI_VPC`).
        "mskClusterArn" msk_cluster_arn: Text,
        /// The MSK authentication (`MSK_MULTI_VPC`).
        "mskAuthentication" msk_authentication: MskAuthentication,
        /// The GCP PSC service attachment URI (`GCP_PSC_SERVICE_ATTACHMENT`).
        "gcpServiceAttachment" gcp_service_attachment: Text,
        /// Private DNS names (not for `MSK_MULTI_VPC`).
        "customPrivateDnsMappings" custom_private_dns_mappings: Vec<CustomPrivateDnsMapping>,
    }
}

impl CreateReversePrivateEndpointRequest {
    /// An endpoint of type `VPC_ENDPOINT_SERVICE` to the AWS endpoint service `service_name`
    /// (`com.amazonaws.vpce.us-east-1.vpce-svc-...`).
    pub fn vpc_endpoint_service(service_name: impl Into<Text>) -> Self {
        Self::of(ReversePrivateEndpointType::VpcEndpointService).vpc_endpoint_service_name(service_name.into())
    }

    /// An endpoint of type `VPC_RESOURCE` to the AWS VPC resource `configuration_id`
    /// (`rcfg-...`), shared through `share_arn`.
    pub fn vpc_resource(configuration_id: impl Into<Text>, share_arn: impl Into<Text>) -> Self {
        Self::of(ReversePrivateEndpointType::VpcResource)
            .vpc_resource_configuration_id(configuration_id.into())
            .vpc_resource_share_arn(share_arn.into())
    }

    /// An endpoint of type `MSK_MULTI_VPC` to the Amazon MSK cluster `cluster_arn`.
    pub fn msk_multi_vpc(cluster_arn: impl Into<Text>, authentication: MskAuthentication) -> Self {
        Self::of(ReversePrivateEndpointType::MskMultiVpc)
            .msk_cluster_arn(cluster_arn.into())
            .msk_authentication(authentication)
    }

    /// An endpoint of type `GCP_PSC_SERVICE_ATTACHMENT` to `service_attachment`
    /// (`projects/{project}/regions/{region}/serviceAttachments/{name}`).
    pub fn gcp_psc_service_attachment(service_attachment: impl Into<Text>) -> Self {
        Self::of(ReversePrivateEndpointType::GcpPscServiceAttachment).gcp_service_attachment(service_attachment.into())
    }

    fn of(kind: ReversePrivateEndpointType) -> Self {
        CreateReversePrivateEndpointRequest { kind: Some(kind), ..Default::default() }
    }
}

/// The longest description the service accepts (the contract's `description`).
const MAX_DESCRIPTION_CHARS: usize = 255;

/// The form the contract gives a GCP service attachment.
const GCP_SERVICE_ATTACHMENT_FORM: &str = "projects/{project}/regions/{region}/serviceAttachments/{name}";

impl Validate for CreateReversePrivateEndpointRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        use ReversePrivateEndpointType as Type;
        Checker::run(self, |c| {
            // The contract: "Maximum length is 255 characters."
            if self.description.as_ref().is_some_and(|d| d.chars().count() > MAX_DESCRIPTION_CHARS) {
                c.fail_at("description", Rule::MaxChars(MAX_DESCRIPTION_CHARS));
            }
            // Every other field of the contract depends on the type: no type, no endpoint.
            c.present("type", &self.kind, Rule::Required, |_, _| {});
            c.known("type", &self.kind);
            c.known("mskAuthentication", &self.msk_authentication);
            let needs = |c: &mut Checker, name: &'static str, value: &Option<Text>, why: &'static str| {
                if value.as_ref().is_none_or(|text| text.is_empty()) {
                    c.fail_at(name, Rule::RequiredBecause(why));
                }
            };
            match &self.kind {
                // The contract names no other field of this type: the endpoint service is what
                // the endpoint connects to (its description and example).
                Some(Type::VpcEndpointService) => needs(
                    c,
                    "vpcEndpointServiceName",
                    &self.vpc_endpoint_service_name,
                    "when type is VPC_ENDPOINT_SERVICE",
                ),
                // The contract: "Required for VPC_RESOURCE type" (both fields).
                Some(Type::VpcResource) => {
                    let why = "when type is VPC_RESOURCE";
                    needs(c, "vpcResourceConfigurationId", &self.vpc_resource_configuration_id, why);
                    needs(c, "vpcResourceShareArn", &self.vpc_resource_share_arn, why);
                }
                // The contract: "Required for MSK_MULTI_VPC type" (both fields); custom private DNS
                // mappings are "Not supported for MSK multi-VPC".
                Some(Type::MskMultiVpc) => {
                    let why = "when type is MSK_MULTI_VPC";
                    needs(c, "mskClusterArn", &self.msk_cluster_arn, why);
                    if self.msk_authentication.is_none() {
                        c.fail_at("mskAuthentication", Rule::RequiredBecause(why));
                    }
                    if self.custom_private_dns_mappings.as_ref().is_some_and(|m| !m.is_empty()) {
                        c.fail_at("customPrivateDnsMappings", Rule::NotAllowedBecause(why));
                    }
                }
                // The contract: "Required for GCP_PSC_SERVICE_ATTACHMENT type. Format:
                // projects/{project}/regions/{region}/serviceAttachments/{name}."
                Some(Type::GcpPscServiceAttachment) => {
                    let why = "when type is GCP_PSC_SERVICE_ATTACHMENT";
                    needs(c, "gcpServiceAttachment", &self.gcp_service_attachment, why);
                    if let Some(uri) = self.gcp_service_attachment.as_ref().filter(|uri| !uri.is_empty()) {
                        if !is_gcp_service_attachment(uri) {
                            c.fail_at("gcpServiceAttachment", Rule::Format(GCP_SERVICE_ATTACHMENT_FORM));
                        }
                    }
                }
                _ => {}
            }
            if let Some(mappings) = &self.custom_private_dns_mappings {
                c.field("customPrivateDnsMappings", |c| check_mappings(c, mappings));
            }
        })
    }
}

/// Whether `uri` is `projects/{project}/regions/{region}/serviceAttachments/{name}`, each part
/// non-empty.
fn is_gcp_service_attachment(uri: &str) -> bool {
    let parts: Vec<&str> = uri.split('/').collect();
    matches!(
        parts.as_slice(),
        ["projects", project, "regions", region, "serviceAttachments", name]
            if !project.is_empty() && !region.is_empty() && !name.is_empty()
    )
}

/// The form the contract gives a private DNS name.
const DNS_NAME_FORM: &str = "an exact DNS name or a leading wildcard (`*.example.com`)";

/// The contract's `customPrivateDnsMappings`: each `privateDnsName` an exact name or a leading
/// wildcard ("Supports exact names and leading wildcard names such as *.example.com"), and
/// unique ("Must be unique across the ClickHouse service", so twice in one list never is).
fn check_mappings(c: &mut Checker, mappings: &[CustomPrivateDnsMapping]) {
    let mut seen = std::collections::HashSet::new();
    c.each(mappings, |c, mapping| {
        c.present("privateDnsName", &mapping.private_dns_name, Rule::Required, |c, name| {
            let exact = name.strip_prefix("*.").unwrap_or(name);
            if exact.is_empty() || exact.contains('*') || exact.chars().any(char::is_whitespace) {
                c.fail(Rule::Format(DNS_NAME_FORM));
            } else if !seen.insert(name.to_ascii_lowercase()) {
                c.fail(Rule::UniqueItems);
            }
        });
    });
}

model! {
    /// The body of the update-reverse-private-endpoint request (`PATCH`): the custom private
    /// DNS mappings, a full replacement list (an empty list clears them).
    pub struct UpdateReversePrivateEndpointRequest {
        /// Every mapping the endpoint is to have.
        "customPrivateDnsMappings" custom_private_dns_mappings: Vec<CustomPrivateDnsMapping>,
    }
}

impl UpdateReversePrivateEndpointRequest {
    /// Replaces the endpoint's mappings with `mappings` (all of them: the list is not merged).
    pub fn new(mappings: impl IntoIterator<Item = CustomPrivateDnsMapping>) -> Self {
        UpdateReversePrivateEndpointRequest {
            custom_private_dns_mappings: Some(mappings.into_iter().collect()),
            ..Default::default()
        }
    }

    /// Clears the endpoint's mappings (sends an empty list, as the contract says).
    pub fn clear() -> Self {
        Self::new([])
    }
}

impl Validate for UpdateReversePrivateEndpointRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            // The contract's only field: without it the call changes nothing.
            c.present("customPrivateDnsMappings", &self.custom_private_dns_mappings, Rule::Required, |c, m| {
                check_mappings(c, m)
            });
        })
    }
}
