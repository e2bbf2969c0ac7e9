//! Reverse private endpoints: private network paths that pipes use to reach their sources.

use crate::Text;
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
    }
}
