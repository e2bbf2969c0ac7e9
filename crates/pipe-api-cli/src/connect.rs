//! Where the credentials and ids come from: flags, else the environment the quickstart reads,
//! through the library's own reader ([`ClientBuilder::env_with`]).

use std::sync::Arc;

use clap::Args;
use pipe_api_ureq::types::{OrganizationId, ServiceId};
use pipe_api_ureq::{
    Client, ClientBuilder, ENV_ALERTS_TOKEN, ENV_ALERTS_URL, ENV_API_KEY_ID, ENV_API_KEY_SECRET, ENV_API_URL,
    UreqTransport,
};

use crate::progress::{Progress, Watched};
use crate::{Result, fail};

/// The organization's id.
pub(crate) const ENV_ORG_ID: &str = "PIPE_API_ORG_ID";
/// The service's id.
pub(crate) const ENV_SERVICE_ID: &str = "PIPE_API_SERVICE_ID";

/// The interfaces and ids, as flags; each unset flag is read from its variable. The key secret
/// and the alerts token are read from the environment only: a command line is shown to every
/// user of the machine (`ps`) and kept in shell history.
#[derive(Debug, Args)]
#[command(next_help_heading = "Connection")]
pub(crate) struct Connection {
    /// The management interface's base URL [env: PIPE_API_URL]
    #[arg(long, global = true, value_name = "URL")]
    url: Option<String>,
    /// The management key id [env: PIPE_API_KEY_ID]; its secret is PIPE_API_KEY_SECRET
    #[arg(long, global = true, value_name = "ID")]
    key_id: Option<String>,
    /// The alerting interface's base URL [env: PIPE_ALERTS_URL]; its token is PIPE_ALERTS_TOKEN
    #[arg(long, global = true, value_name = "URL")]
    alerts_url: Option<String>,
    /// The organization's id [env: PIPE_API_ORG_ID]
    #[arg(long, global = true, value_name = "ID")]
    org: Option<String>,
    /// The service's id [env: PIPE_API_SERVICE_ID]
    #[arg(long, global = true, value_name = "ID")]
    service: Option<String>,
}

impl Connection {
    /// The value of `variable`: its flag's, else the environment's; empty is unset.
    fn lookup(&self, variable: &str) -> Option<String> {
        let flag = match variable {
            ENV_API_URL => &self.url,
            ENV_API_KEY_ID => &self.key_id,
            ENV_ALERTS_URL => &self.alerts_url,
            ENV_ORG_ID => &self.org,
            ENV_SERVICE_ID => &self.service,
            // Never from a flag (see the struct's docs).
            ENV_API_KEY_SECRET | ENV_ALERTS_TOKEN => &None,
            _ => &None,
        };
        flag.clone().or_else(|| std::env::var(variable).ok()).filter(|value| !value.is_empty())
    }

    /// A client of the interfaces configured, whose requests `progress` watches (and stops
    /// sending after Ctrl-C during an apply).
    pub(crate) fn client(&self, progress: &Arc<Progress>) -> Result<Client> {
        // Every command reads the management interface (alerts come with a desired state).
        if self.lookup(ENV_API_URL).is_none() {
            return fail(format!(
                "no management interface: set {ENV_API_URL}, {ENV_API_KEY_ID} and {ENV_API_KEY_SECRET} (and \
                 {ENV_ALERTS_URL} with {ENV_ALERTS_TOKEN} for alerts); `pipe-api fake serve` prints them for the \
                 built-in fake"
            ));
        }
        let builder = ClientBuilder::default().env_with(|name| self.lookup(name))?;
        let observer = Arc::clone(progress);
        let client = builder
            .transport(Watched::new(UreqTransport::default(), Arc::clone(progress)))
            .on_attempt(move |record| observer.attempt(record))
            .build();
        Ok(client?)
    }

    /// The organization's id, required.
    pub(crate) fn organization(&self) -> Result<OrganizationId> {
        self.organization_if_set()?.map_or_else(|| fail(missing(ENV_ORG_ID, "--org")), Ok)
    }

    /// The organization's id, if set.
    pub(crate) fn organization_if_set(&self) -> Result<Option<OrganizationId>> {
        self.id(ENV_ORG_ID, "an organization")
    }

    /// The service's id, required.
    pub(crate) fn service(&self) -> Result<ServiceId> {
        self.service_if_set()?.map_or_else(|| fail(missing(ENV_SERVICE_ID, "--service")), Ok)
    }

    /// The service's id, if set.
    pub(crate) fn service_if_set(&self) -> Result<Option<ServiceId>> {
        self.id(ENV_SERVICE_ID, "a service")
    }

    /// The id in `variable` (or its flag), parsed.
    fn id<T: std::str::FromStr>(&self, variable: &str, what: &str) -> Result<Option<T>>
    where
        T::Err: std::fmt::Display,
    {
        match self.lookup(variable) {
            None => Ok(None),
            Some(text) => match text.trim().parse() {
                Ok(id) => Ok(Some(id)),
                Err(error) => fail(format!("{variable} (or its flag) is not {what}'s id: {error}")),
            },
        }
    }
}

/// What to set when an id is missing.
fn missing(variable: &str, flag: &str) -> String {
    format!("no {} id: set {variable} or pass {flag}", if flag == "--org" { "organization" } else { "service" })
}
