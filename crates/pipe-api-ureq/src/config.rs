//! Building a [`Client`]: from code or from environment variables.

use std::fmt;
use std::sync::atomic::AtomicU64;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use pipe_api_proto::attempts::AttemptRecord;
use pipe_api_proto::retry::{Pacer, RetryPolicy};
use pipe_api_proto::wait::Poll;
use pipe_api_proto::{
    Alerting, BaseUrl, BaseUrlError, BearerToken, CredentialsError, Management, ManagementCredentials, Transport,
};
use pipe_api_types::Secret;

use crate::client::{AttemptObserver, Client, PollObserver, Sender};
use crate::clock::{Clock, SystemClock};
use crate::transport::{TransportConfig, UreqTransport};

/// The management interface's base URL.
pub const ENV_API_URL: &str = "PIPE_API_URL";
/// The management key id.
pub const ENV_API_KEY_ID: &str = "PIPE_API_KEY_ID";
/// The management key secret.
pub const ENV_API_KEY_SECRET: &str = "PIPE_API_KEY_SECRET";
/// The alerting interface's base URL.
pub const ENV_ALERTS_URL: &str = "PIPE_ALERTS_URL";
/// The alerting API access key.
pub const ENV_ALERTS_TOKEN: &str = "PIPE_ALERTS_TOKEN";

/// Builds a [`Client`]. At least one interface must be configured.
#[derive(Default)]
pub struct ClientBuilder {
    management: Option<(String, String, Secret)>,
    alerting: Option<(String, Secret)>,
    transport: TransportConfig,
    retry: RetryPolicy,
    pacer: Option<Pacer>,
    custom: Option<Box<dyn Transport + Send + Sync>>,
    clock: Option<Arc<dyn Clock>>,
    observer: Option<AttemptObserver>,
    poll_observer: Option<PollObserver>,
}

impl fmt::Debug for ClientBuilder {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ClientBuilder")
            .field("management", &self.management)
            .field("alerting", &self.alerting)
            .field("transport", &self.transport)
            .field("retry", &self.retry)
            .field("pacer", &self.pacer)
            .field("custom_transport", &self.custom.is_some())
            .field("clock", &self.clock)
            .field("observer", &self.observer.is_some())
            .field("poll_observer", &self.poll_observer.is_some())
            .finish()
    }
}

impl ClientBuilder {
    /// The management interface at `base_url` with a key id and key secret.
    pub fn management(mut self, base_url: &str, key_id: &str, key_secret: impl Into<Secret>) -> Self {
        self.management = Some((base_url.to_owned(), key_id.to_owned(), key_secret.into()));
        self
    }

    /// The alerting interface at `base_url` with an API access key.
    pub fn alerting(mut self, base_url: &str, token: impl Into<Secret>) -> Self {
        self.alerting = Some((base_url.to_owned(), token.into()));
        self
    }

    /// Longest time to connect (default 10 s).
    pub fn connect_timeout(mut self, timeout: Duration) -> Self {
        self.transport.connect_timeout = timeout;
        self
    }

    /// Longest time for one exchange, body included (default 30 s).
    pub fn timeout(mut self, timeout: Duration) -> Self {
        self.transport.timeout = timeout;
        self
    }

    /// Largest response body read (default 16 MiB).
    pub fn body_limit(mut self, bytes: u64) -> Self {
        self.transport.body_limit = bytes;
        self
    }

    /// Allows plain `http` to hosts that are not loopback (default: refused when building).
    /// Loopback is [`BaseUrl::is_loopback`](pipe_api_proto::BaseUrl::is_loopback)'s rule: `localhost`,
    /// 127.0.0.0/8 and `::1`.
    pub fn allow_insecure_http(mut self, allow: bool) -> Self {
        self.transport.allow_insecure_http = allow;
        self
    }

    /// The whole configuration of the ureq transport at once: root certificates
    /// ([`TransportConfig::with_root_certificates_pem`]), a proxy
    /// ([`TransportConfig::with_proxy`]), timeouts and limits. It replaces what the setters
    /// above set.
    pub fn transport_config(mut self, config: TransportConfig) -> Self {
        self.transport = config;
        self
    }

    /// The retry policy (default [`RetryPolicy::default`]).
    pub fn retry_policy(mut self, policy: RetryPolicy) -> Self {
        self.retry = policy;
        self
    }

    /// Turns retries off: every call makes exactly one attempt.
    pub fn no_retries(mut self) -> Self {
        self.retry = RetryPolicy::disabled();
        self
    }

    /// Paces requests so that they stay under a rate limit (opt-in), such as
    /// [`Pacer::management`]: 10 requests per 10 seconds, the management interface's limit.
    pub fn pacing(mut self, pacer: Pacer) -> Self {
        self.pacer = Some(pacer);
        self
    }

    /// Sends every request with `transport` instead of ureq: any HTTP client, or a test double
    /// such as `pipe_api_fake::Fake`. Retries, pacing and the deadline work as with ureq
    /// (they are proto's [`Call`](pipe_api_proto::call::Call)'s); the transport-level settings
    /// of this builder (timeouts, body limit) are then the transport's own business. Threads
    /// sharing the client send through it at the same time (`Transport::send` takes `&self`).
    pub fn transport(mut self, transport: impl Transport + Send + Sync + 'static) -> Self {
        self.custom = Some(Box::new(transport));
        self
    }

    /// Takes time from `clock` and waits with it, instead of the system clock: with a
    /// [`VirtualClock`](crate::VirtualClock), retries, pacing and waiting run in no wall time,
    /// the same way every run (for tests; pair it with a transport that does not block, such
    /// as `pipe_api_fake::Fake`).
    pub fn clock(mut self, clock: impl Clock + 'static) -> Self {
        self.clock = Some(Arc::new(clock));
        self
    }

    /// Calls `observer` with the record of every attempt of every call, wait and page, as soon
    /// as its outcome is known (for metrics: the operation, path template, status or transport
    /// failure, request id, and the wait before it with its cause; never a secret). Each record
    /// is also logged at debug level through `log`, target `pipe_api_ureq`.
    pub fn on_attempt(mut self, observer: impl Fn(&AttemptRecord) + Send + Sync + 'static) -> Self {
        self.observer = Some(AttemptObserver(Arc::new(observer)));
        self
    }

    /// Calls `observer` with every poll the server answered of every wait the client runs
    /// (`wait`, `wait_for_pipe`, `wait_for_service`, a scope's `wait`, and an apply's waits):
    /// what is polled, the poll's number, the state the answer names, the verdict, and the time
    /// waited of the deadline. A wait for a state the resource will not reach shows here poll
    /// by poll instead of only at its deadline; a progress display is built on it. Each poll is
    /// also logged at debug level through `log`, target `pipe_api_ureq`.
    pub fn on_poll(mut self, observer: impl Fn(&Poll) + Send + Sync + 'static) -> Self {
        self.poll_observer = Some(PollObserver(Arc::new(observer)));
        self
    }

    /// Reads the interfaces from environment variables through `lookup`:
    /// [`ENV_API_URL`], [`ENV_API_KEY_ID`], [`ENV_API_KEY_SECRET`] for management, and
    /// [`ENV_ALERTS_URL`], [`ENV_ALERTS_TOKEN`] for alerting. An interface whose URL is unset is
    /// left out; one whose URL is set needs its credentials.
    pub fn env_with(mut self, lookup: impl Fn(&str) -> Option<String>) -> Result<Self, ConfigError> {
        let get = |name: &'static str| lookup(name).filter(|v| !v.is_empty());
        let require = |name: &'static str| get(name).ok_or(ConfigError::MissingVariable(name));
        if let Some(url) = get(ENV_API_URL) {
            self = self.management(&url, &require(ENV_API_KEY_ID)?, require(ENV_API_KEY_SECRET)?);
        }
        if let Some(url) = get(ENV_ALERTS_URL) {
            self = self.alerting(&url, require(ENV_ALERTS_TOKEN)?);
        }
        Ok(self)
    }

    /// Checks everything and builds the client.
    pub fn build(self) -> Result<Client, ConfigError> {
        let allow = self.transport.allow_insecure_http;
        let management = match self.management {
            Some((url, key_id, key_secret)) => {
                let base = checked_url(&url, allow)?;
                Some(Management::new(base, ManagementCredentials::new(key_id, key_secret)?))
            }
            None => None,
        };
        let alerting = match self.alerting {
            Some((url, token)) => Some(Alerting::new(checked_url(&url, allow)?, BearerToken::new(token)?)),
            None => None,
        };
        if management.is_none() && alerting.is_none() {
            return Err(ConfigError::NoInterface);
        }
        // Jitter needs no cryptographic quality, only different sequences per client.
        let seed = time::OffsetDateTime::now_utc().unix_timestamp_nanos() as u64;
        let calls = AtomicU64::new(0);
        Ok(Client {
            management,
            alerting,
            transport: match self.custom {
                Some(custom) => Sender::Custom(custom),
                None => Sender::Ureq(UreqTransport::new(self.transport)),
            },
            retry: self.retry,
            pacer: self.pacer.map(Mutex::new),
            seed,
            calls,
            clock: self.clock.unwrap_or_else(|| Arc::new(SystemClock::new())),
            observer: self.observer,
            poll_observer: self.poll_observer,
        })
    }
}

/// Parses a base URL and refuses plain `http` off loopback unless allowed.
fn checked_url(url: &str, allow_insecure_http: bool) -> Result<BaseUrl, ConfigError> {
    let base = BaseUrl::parse(url)?;
    if !base.is_https() && !base.is_loopback() && !allow_insecure_http {
        return Err(ConfigError::InsecureUrl(base.to_string()));
    }
    Ok(base)
}

impl Client {
    /// A builder with every default.
    pub fn builder() -> ClientBuilder {
        ClientBuilder::default()
    }

    /// A client of the management interface at `base_url`, with every default.
    pub fn management(base_url: &str, key_id: &str, key_secret: impl Into<Secret>) -> Result<Client, ConfigError> {
        Client::builder().management(base_url, key_id, key_secret).build()
    }

    /// A client of the alerting interface at `base_url`, with every default.
    pub fn alerting(base_url: &str, token: impl Into<Secret>) -> Result<Client, ConfigError> {
        Client::builder().alerting(base_url, token).build()
    }

    /// A client configured from the process environment (see [`ClientBuilder::env_with`]).
    pub fn from_env() -> Result<Client, ConfigError> {
        Client::builder().env_with(|name| std::env::var(name).ok())?.build()
    }
}

/// A client could not be built.
#[derive(Debug)]
#[non_exhaustive]
pub enum ConfigError {
    /// A base URL is not acceptable.
    BaseUrl(BaseUrlError),
    /// A plain `http` URL to a host that is not loopback
    /// ([`BaseUrl::is_loopback`](pipe_api_proto::BaseUrl::is_loopback)), without opting in.
    InsecureUrl(String),
    /// Credentials are not acceptable.
    Credentials(CredentialsError),
    /// An environment variable that the configuration needs is unset.
    MissingVariable(&'static str),
    /// Neither interface is configured.
    NoInterface,
    /// Root certificates given in PEM do not parse (or there are none).
    RootCertificates(String),
    /// A proxy URL is not one.
    Proxy(String),
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::BaseUrl(e) => e.fmt(f),
            ConfigError::InsecureUrl(url) => write!(
                f,
                "refusing plain http to {url}: credentials would cross the network in clear text; use https \
                 or allow insecure http explicitly"
            ),
            ConfigError::Credentials(e) => e.fmt(f),
            ConfigError::MissingVariable(name) => write!(f, "the environment variable {name} is not set"),
            ConfigError::NoInterface => write!(
                f,
                "no interface configured: set {ENV_API_URL} (with {ENV_API_KEY_ID} and {ENV_API_KEY_SECRET}) \
                 or {ENV_ALERTS_URL} (with {ENV_ALERTS_TOKEN})"
            ),
            ConfigError::RootCertificates(why) => write!(f, "root certificates not usable: {why}"),
            ConfigError::Proxy(why) => write!(f, "proxy not usable: {why}"),
        }
    }
}

/// Transparent for the errors it wraps: their text is shown by `Display`, so `source()` is
/// theirs, not them (a chain shows each message once).
impl std::error::Error for ConfigError {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        match self {
            ConfigError::BaseUrl(e) => e.source(),
            ConfigError::Credentials(e) => e.source(),
            _ => None,
        }
    }
}

impl From<BaseUrlError> for ConfigError {
    fn from(e: BaseUrlError) -> Self {
        ConfigError::BaseUrl(e)
    }
}

impl From<CredentialsError> for ConfigError {
    fn from(e: CredentialsError) -> Self {
        ConfigError::Credentials(e)
    }
}
