//! Tuning pipes: scaling, settings, schema discovery, and the scaling of database pipes.

use pipe_api_proto::{
    DiscoverPipeSchema, Error, GetPipeSettings, GetPipesCdcScaling, UpdatePipeScaling, UpdatePipeSettings,
    UpdatePipesCdcScaling,
};
use pipe_api_types::{
    OrganizationId, Pipe, PipeId, PipeSchemaDiscoveryRequest, PipeSchemaDiscoveryResponse, PipeSettings,
    PipesCdcScaling, Scaling, ServiceId,
};

use crate::Client;

impl Client {
    /// Changes how a Kafka, Kinesis or object-storage pipe scales (the fields of `scaling` that
    /// are set); answers the pipe.
    pub fn update_pipe_scaling(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
        scaling: Scaling,
    ) -> Result<Pipe, Error> {
        self.value(&UpdatePipeScaling::new(organization_id, service_id, pipe_id, scaling))
    }

    /// Reads a pipe's advanced settings.
    pub fn get_pipe_settings(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
    ) -> Result<PipeSettings, Error> {
        self.value(&GetPipeSettings::new(organization_id, service_id, pipe_id))
    }

    /// Replaces a pipe's advanced settings, whole: send what [`Client::get_pipe_settings`] read,
    /// changed where wanted, so that nothing else is reset.
    pub fn update_pipe_settings(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        pipe_id: PipeId,
        settings: PipeSettings,
    ) -> Result<PipeSettings, Error> {
        self.value(&UpdatePipeSettings::new(organization_id, service_id, pipe_id, settings))
    }

    /// Infers the schema of a Kafka or Kinesis source without creating a pipe (beta).
    pub fn discover_pipe_schema(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        request: PipeSchemaDiscoveryRequest,
    ) -> Result<PipeSchemaDiscoveryResponse, Error> {
        self.value(&DiscoverPipeSchema::new(organization_id, service_id, request))
    }

    /// Reads the compute shared by a service's database (CDC) pipes; available once a database
    /// pipe was provisioned in the service.
    pub fn get_pipes_cdc_scaling(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
    ) -> Result<PipesCdcScaling, Error> {
        self.value(&GetPipesCdcScaling::new(organization_id, service_id))
    }

    /// Changes the compute shared by a service's database (CDC) pipes.
    pub fn update_pipes_cdc_scaling(
        &self,
        organization_id: OrganizationId,
        service_id: ServiceId,
        scaling: PipesCdcScaling,
    ) -> Result<PipesCdcScaling, Error> {
        self.value(&UpdatePipesCdcScaling::new(organization_id, service_id, scaling))
    }
}
