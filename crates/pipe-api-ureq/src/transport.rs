//! A [`Transport`] over `ureq::Agent`, configured for an API rather than a browser.

use std::io;
use std::time::Duration;

use http::{Request, Response, Uri};
use pipe_api_proto::{BaseUrl, Transport, TransportError, TransportErrorKind};

/// How the transport talks to servers. The defaults suit an API client: see each field.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct TransportConfig {
    /// Longest time to set up a connection (DNS, TCP, TLS). Default 10 s.
    pub connect_timeout: Duration,
    /// Longest time for one whole exchange, response body included: a server that never
    /// answers ends it at this time, within a few milliseconds after (each wait on a socket is
    /// made a second at a time, as a long socket timeout fires up to an eighth late). Default
    /// 30 s.
    pub timeout: Duration,
    /// Largest response body read; a larger one is an error, without reading it all.
    /// Default 16 MiB.
    pub body_limit: u64,
    /// Allow plain `http` to hosts that are not loopback ([`BaseUrl::is_loopback`]). Default
    /// `false`: credentials must not cross a network in clear text, and such a request fails
    /// with [`TransportErrorKind::Refused`] before anything is sent.
    pub allow_insecure_http: bool,
    /// Root certificates trusted besides the bundled Mozilla roots, DER-encoded: see
    /// [`TransportConfig::with_root_certificates_pem`].
    root_certificates: Vec<Vec<u8>>,
    /// A proxy instead of the one the environment names: see [`TransportConfig::with_proxy`].
    proxy: Option<ureq::Proxy>,
    /// Whether the platform verifies servers: see [`TransportConfig::with_platform_verifier`].
    platform_verifier: bool,
}

impl Default for TransportConfig {
    fn default() -> Self {
        TransportConfig {
            connect_timeout: Duration::from_secs(10),
            timeout: Duration::from_secs(30),
            body_limit: 16 * 1024 * 1024,
            allow_insecure_http: false,
            root_certificates: Vec::new(),
            proxy: None,
            platform_verifier: false,
        }
    }
}

impl TransportConfig {
    /// (With a TLS feature.) Trusts the certificates of `pem` as roots too, besides the bundled Mozilla roots: for a
    /// network whose TLS a company's proxy inspects, or a server signed by a private
    /// authority. Refused when `pem` holds no certificate or one that does not parse.
    #[cfg(any(feature = "rustls", feature = "native-tls"))]
    pub fn with_root_certificates_pem(mut self, pem: &[u8]) -> Result<Self, crate::ConfigError> {
        let mut found = 0;
        for item in ureq::tls::parse_pem(pem) {
            match item {
                Ok(ureq::tls::PemItem::Certificate(certificate)) => {
                    self.root_certificates.push(certificate.der().to_vec());
                    found += 1;
                }
                Ok(_) => {}
                Err(error) => return Err(crate::ConfigError::RootCertificates(error.to_string())),
            }
        }
        if found == 0 {
            return Err(crate::ConfigError::RootCertificates("no certificate in the PEM text".to_owned()));
        }
        Ok(self)
    }

    /// (Feature `platform-verifier`.) Verifies servers with the platform's certificate store
    /// and verifier (rustls-platform-verifier) instead of the bundled roots: the roots an
    /// administrator installed on the machine are trusted; roots given with
    /// [`TransportConfig::with_root_certificates_pem`] are then not used.
    #[cfg(feature = "platform-verifier")]
    pub fn with_platform_verifier(mut self) -> Self {
        self.platform_verifier = true;
        self
    }

    /// Sends through the HTTP or HTTPS (CONNECT) proxy at `url` (`http://proxy.example:3128`)
    /// instead of the one the environment names. Without it, the proxy comes from the
    /// environment as ureq reads it: `ALL_PROXY`, `HTTPS_PROXY` or `HTTP_PROXY` (upper or lower
    /// case), less the hosts of `NO_PROXY` (a SOCKS one there is ignored with a warning, as
    /// ureq does without SOCKS). Refused when `url` is not a proxy URL, or is a SOCKS proxy
    /// (`socks5://...`): this crate is built without SOCKS.
    pub fn with_proxy(mut self, url: &str) -> Result<Self, crate::ConfigError> {
        let proxy = ureq::Proxy::new(url).map_err(|error| crate::ConfigError::Proxy(error.to_string()))?;
        if crate::sockets::is_socks(&proxy) {
            return Err(crate::ConfigError::Proxy("a SOCKS proxy, and this crate is built without SOCKS".to_owned()));
        }
        self.proxy = Some(proxy);
        Ok(self)
    }
}

/// Sends requests with `ureq`: 4xx and 5xx are responses (not errors), redirects are never
/// followed (so credentials never go to another host), timeouts are always set, every body
/// read is capped, and `https` is required off loopback unless allowed.
#[derive(Clone, Debug)]
pub struct UreqTransport {
    agent: ureq::Agent,
    config: TransportConfig,
}

impl UreqTransport {
    /// A transport with `config`.
    pub fn new(config: TransportConfig) -> Self {
        let agent_config = ureq::Agent::config_builder()
            .http_status_as_error(false)
            .max_redirects(0)
            .timeout_connect(Some(config.connect_timeout))
            // The whole exchange, every phase of it: the sockets' waits are sliced (`sockets`),
            // so it ends at this time.
            .timeout_global(Some(config.timeout))
            // Proto sets its own User-Agent; keep it.
            .user_agent(ureq::config::AutoHeaderValue::None);
        let agent_config = match &config.proxy {
            Some(proxy) => agent_config.proxy(Some(proxy.clone())),
            None => agent_config,
        };
        let agent = ureq::Agent::with_parts(
            with_tls(agent_config, &config).build(),
            crate::sockets::connector(),
            ureq::unversioned::resolver::DefaultResolver::default(),
        );
        UreqTransport { agent, config }
    }

    /// The configuration in use.
    pub fn config(&self) -> &TransportConfig {
        &self.config
    }

    /// The time one exchange is given: the configured [`TransportConfig::timeout`] or `left`
    /// (what is left of a call's deadline), whichever is nearer. A server that never answers
    /// ends the exchange then, not before, and within a few milliseconds after: the sockets
    /// are asked for a second at a time, each time for proto's
    /// [`socket_timeout_within`](pipe_api_proto::socket_timeout_within) of what is left, as a
    /// socket timeout fires up to an eighth late.
    pub fn exchange_timeout(&self, left: Option<Duration>) -> Duration {
        left.map_or(self.config.timeout, |left| left.min(self.config.timeout))
    }

    /// Sends `request`, ending no later than `timeout` (when shorter than the configured one):
    /// a retrying client passes what is left of its overall deadline.
    pub fn send_within(
        &self,
        request: Request<Vec<u8>>,
        timeout: Option<Duration>,
    ) -> Result<Response<Vec<u8>>, TransportError> {
        check_scheme(request.uri(), self.config.allow_insecure_http)?;
        // A per-request override copies the agent's whole configuration: only pay for it when
        // the caller's deadline is nearer than the configured timeout (the agent's own).
        let asked = self.exchange_timeout(timeout);
        let response = match (asked < self.exchange_timeout(None)).then_some(asked) {
            Some(timeout) => {
                let request = self.agent.configure_request(request).timeout_global(Some(timeout)).build();
                self.agent.run(request)
            }
            // No body at all (not an empty one): ureq then sends no body headers.
            None if request.body().is_empty() && request.method() == http::Method::GET => {
                self.agent.run(request.map(|_| ()))
            }
            None => self.agent.run(request),
        }
        .map_err(classify)?;
        let (parts, mut body) = response.into_parts();
        let bytes = body.with_config().limit(self.config.body_limit).read_to_vec().map_err(classify)?;
        Ok(Response::from_parts(parts, bytes))
    }
}

impl Default for UreqTransport {
    fn default() -> Self {
        UreqTransport::new(TransportConfig::default())
    }
}

impl Transport for UreqTransport {
    fn send(&self, request: Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> {
        UreqTransport::send_within(self, request, None)
    }

    fn send_within(&self, request: Request<Vec<u8>>, timeout: Duration) -> Result<Response<Vec<u8>>, TransportError> {
        UreqTransport::send_within(self, request, Some(timeout))
    }
}

/// Plain `http` only to loopback hosts (proto's [`BaseUrl::is_loopback_host`], the rule the
/// client builder also applies), unless allowed. A refusal is [`TransportErrorKind::Refused`]:
/// nothing was sent, and retrying cannot help.
pub(crate) fn check_scheme(uri: &Uri, allow_insecure_http: bool) -> Result<(), TransportError> {
    let host = uri.host().unwrap_or("");
    if uri.scheme_str() == Some("https") || allow_insecure_http || BaseUrl::is_loopback_host(host) {
        return Ok(());
    }
    Err(TransportError::new(
        TransportErrorKind::Refused,
        format!("refusing plain http to {host}: use https, or allow insecure http explicitly"),
    ))
}

/// Sorts a ureq error by whether the request may have reached the server.
fn classify(error: ureq::Error) -> TransportError {
    use ureq::Timeout;
    let kind = match &error {
        ureq::Error::HostNotFound | ureq::Error::ConnectionFailed => TransportErrorKind::Connect,
        ureq::Error::Timeout(Timeout::Resolve | Timeout::Connect) => TransportErrorKind::Connect,
        ureq::Error::Timeout(_) => TransportErrorKind::Timeout,
        ureq::Error::BodyExceedsLimit(_) => TransportErrorKind::BodyTooLarge,
        // The server's certificate was refused during the handshake: the request never left.
        ureq::Error::Io(io) if is_certificate_refused(io) => TransportErrorKind::Connect,
        ureq::Error::Io(io) => match io.kind() {
            io::ErrorKind::ConnectionRefused | io::ErrorKind::AddrNotAvailable | io::ErrorKind::NotFound => {
                TransportErrorKind::Connect
            }
            io::ErrorKind::TimedOut | io::ErrorKind::WouldBlock => TransportErrorKind::Timeout,
            _ => TransportErrorKind::Io,
        },
        _ => TransportErrorKind::Other,
    };
    match plainly(&error) {
        Some(said) => TransportError::new(kind, Plainly { said, source: error }),
        None => TransportError::new(kind, error),
    }
}

/// What a ureq error means, in plain words, when its own text is a parser's or a socket's
/// (`protocol: http parse fail: invalid HTTP version`, `io: Peer disconnected`).
fn plainly(error: &ureq::Error) -> Option<&'static str> {
    match error {
        ureq::Error::Io(io) => match io.kind() {
            // ureq's "Peer disconnected": the server closed the connection (a FIN).
            io::ErrorKind::UnexpectedEof => Some("the server closed the connection before its answer was complete"),
            io::ErrorKind::ConnectionReset | io::ErrorKind::ConnectionAborted | io::ErrorKind::BrokenPipe => {
                Some("the connection was dropped (reset) before the answer was complete")
            }
            _ => None,
        },
        // What came back is no HTTP answer; ureq drops the connection then. The variant's
        // content is ureq-proto's, not a dependency here: matched on the variant alone.
        ureq::Error::Protocol(_) => Some("what came back is no HTTP answer; the connection was dropped"),
        _ => None,
    }
}

/// A ureq error said in plain words; ureq's own error is its [`source`](std::error::Error::source).
#[derive(Debug)]
struct Plainly {
    said: &'static str,
    source: ureq::Error,
}

impl std::fmt::Display for Plainly {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(self.said)
    }
}

impl std::error::Error for Plainly {
    fn source(&self) -> Option<&(dyn std::error::Error + 'static)> {
        Some(&self.source)
    }
}

/// Whether rustls refused the server's certificate (which it checks before anything is sent).
#[cfg(feature = "rustls")]
fn is_certificate_refused(io: &io::Error) -> bool {
    let refused = io.get_ref().and_then(|inner| inner.downcast_ref::<rustls::Error>());
    matches!(refused, Some(rustls::Error::InvalidCertificate(_) | rustls::Error::NoCertificatesPresented))
}

#[cfg(not(feature = "rustls"))]
fn is_certificate_refused(_: &io::Error) -> bool {
    false
}

/// Chooses the TLS provider from this crate's features. ureq never picks native-tls by itself
/// (its default is rustls, even when rustls is not compiled in), so with `native-tls` alone the
/// agent must ask for it; with both features, rustls stays.
#[cfg(all(feature = "native-tls", not(feature = "rustls")))]
fn tls_provider() -> ureq::tls::TlsProvider {
    ureq::tls::TlsProvider::NativeTls
}

/// Chooses the TLS provider from this crate's features: ureq's default (rustls) here.
#[cfg(feature = "rustls")]
fn tls_provider() -> ureq::tls::TlsProvider {
    ureq::tls::TlsProvider::Rustls
}

/// The TLS configuration: the provider the features choose; the platform's verifier when asked
/// for, else the bundled Mozilla roots, with the roots `config` adds (DER) when there are any.
#[cfg(any(feature = "rustls", feature = "native-tls"))]
fn with_tls(
    builder: ureq::config::ConfigBuilder<ureq::typestate::AgentScope>,
    config: &TransportConfig,
) -> ureq::config::ConfigBuilder<ureq::typestate::AgentScope> {
    let tls = ureq::tls::TlsConfig::builder().provider(tls_provider());
    let extra_roots = &config.root_certificates;
    let tls = if config.platform_verifier {
        tls.root_certs(ureq::tls::RootCerts::PlatformVerifier)
    } else if extra_roots.is_empty() {
        tls
    } else {
        let bundled =
            webpki_root_certs::TLS_SERVER_ROOT_CERTS.iter().map(|root| ureq::tls::Certificate::from_der(root));
        let extra = extra_roots.iter().map(|der| ureq::tls::Certificate::from_der(der).to_owned());
        tls.root_certs(ureq::tls::RootCerts::new_with_certs(&bundled.chain(extra).collect::<Vec<_>>()))
    };
    builder.tls_config(tls.build())
}

/// Without TLS, only plain `http` (to loopback, or allowed) is possible: nothing to configure.
#[cfg(not(any(feature = "rustls", feature = "native-tls")))]
fn with_tls(
    builder: ureq::config::ConfigBuilder<ureq::typestate::AgentScope>,
    _config: &TransportConfig,
) -> ureq::config::ConfigBuilder<ureq::typestate::AgentScope> {
    builder
}

#[cfg(all(test, any(feature = "rustls", feature = "native-tls")))]
mod tests {
    use ureq::tls::TlsProvider;

    /// The roots follow the configuration: the bundled ones, or the platform's verifier (the
    /// bundled ones with a user's are tested end to end, over TLS).
    #[test]
    fn the_roots_follow_the_configuration() {
        use ureq::tls::RootCerts;

        let roots = |config: super::TransportConfig| {
            super::UreqTransport::new(config).agent.config().tls_config().root_certs().clone()
        };
        assert!(matches!(roots(super::TransportConfig::default()), RootCerts::WebPki));
        #[cfg(feature = "platform-verifier")]
        assert!(matches!(
            roots(super::TransportConfig::default().with_platform_verifier()),
            RootCerts::PlatformVerifier
        ));
    }

    /// The agent is asked for the configured timeout itself, for the whole exchange: the
    /// sockets' waits are sliced (`sockets`), so no allowance is taken off it (8/9 of it once
    /// ended the 30 s default at 27.0 s).
    #[test]
    fn the_agent_is_asked_for_the_configured_timeout() {
        use std::time::Duration;

        let transport = super::UreqTransport::default();
        let timeouts = transport.agent.config().timeouts();
        assert_eq!(timeouts.global, Some(Duration::from_secs(30)));
        assert_eq!(timeouts.connect, Some(Duration::from_secs(10)));
        assert_eq!(transport.exchange_timeout(None), Duration::from_secs(30));
    }

    /// The provider follows the features: rustls whenever it is on, native-tls only alone.
    #[test]
    fn the_tls_provider_follows_the_features() {
        let expected = if cfg!(feature = "rustls") { TlsProvider::Rustls } else { TlsProvider::NativeTls };
        assert_eq!(super::UreqTransport::default().agent.config().tls_config().provider(), expected);
    }
}
