//! The two interfaces: where they live, how they authenticate, and how their success bodies
//! are wrapped. Each rule is written here once; endpoints only say what is particular to them.

use std::fmt;
use std::sync::Arc;

use http::header::{ACCEPT, AUTHORIZATION, CONTENT_TYPE, USER_AGENT};
use http::{HeaderMap, HeaderValue};

use crate::auth::{BearerToken, ManagementCredentials};
use crate::operation::Interface;
use crate::redact::SentSecrets;
use crate::url::BaseUrl;

/// An interface: [`Management`] or [`Alerting`]. What makes one (its base URL, its
/// `Authorization` header, how a success body carries the result) is this crate's business, so
/// the trait is sealed and has no methods a user needs to call.
pub trait Api: sealed::Interface {
    /// Which interface this is, as an [`Operation`](crate::operations::Operation) names it.
    const INTERFACE: Interface;
}

impl Api for Management {
    const INTERFACE: Interface = Interface::Management;
}

impl Api for Alerting {
    const INTERFACE: Interface = Interface::Alerting;
}

pub(crate) mod sealed {
    use super::*;

    /// What the shared request and response work needs of an interface.
    pub trait Interface {
        /// Where the interface lives.
        fn base_url(&self) -> &BaseUrl;

        /// The headers every request to the interface carries (`Authorization`, `Accept`,
        /// `User-Agent`, and `Content-Type` for one with a body), made once: a request starts
        /// from a copy.
        fn common_headers(&self, with_body: bool) -> &HeaderMap;

        /// What every request to the interface sends that no output may show (its
        /// credentials, in every form), made once: each call shares it.
        fn sent_secrets(&self) -> &Arc<SentSecrets>;

        /// Whether a success body carries the result in the management envelope.
        const ENVELOPE: bool;

        /// The management interface, if this is it (a wait wakes an idle service through it).
        fn as_management(&self) -> Option<&super::Management> {
            None
        }
    }
}

/// The management interface (`{base_url}/v1`, HTTP Basic with a key id and key secret,
/// results in a `{status, requestId, result}` envelope).
#[derive(Clone, Debug)]
pub struct Management {
    base_url: BaseUrl,
    credentials: ManagementCredentials,
    headers: Headers,
}

impl Management {
    /// The management interface at `base_url`, authenticated with `credentials`.
    pub fn new(base_url: BaseUrl, credentials: ManagementCredentials) -> Self {
        let headers = Headers::new(credentials.header_value());
        Management { base_url, credentials, headers }
    }

    /// The credentials in use.
    pub fn credentials(&self) -> &ManagementCredentials {
        &self.credentials
    }
}

impl Management {
    /// Where the interface lives.
    pub fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }
}

/// The two header templates of an interface, and what they send that no output may show.
#[derive(Clone, Debug)]
struct Headers {
    without_body: HeaderMap,
    with_body: HeaderMap,
    secrets: Arc<SentSecrets>,
}

impl Headers {
    fn new(authorization: HeaderValue) -> Self {
        let without_body = common_headers(authorization.clone(), false);
        let secrets = Arc::new(SentSecrets::of_credentials(&without_body));
        Headers { without_body, with_body: common_headers(authorization, true), secrets }
    }

    fn get(&self, with_body: bool) -> &HeaderMap {
        if with_body { &self.with_body } else { &self.without_body }
    }
}

impl sealed::Interface for Management {
    fn as_management(&self) -> Option<&Management> {
        Some(self)
    }

    fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }

    fn common_headers(&self, with_body: bool) -> &HeaderMap {
        self.headers.get(with_body)
    }

    fn sent_secrets(&self) -> &Arc<SentSecrets> {
        &self.headers.secrets
    }

    const ENVELOPE: bool = true;
}

/// The alerting interface (`{alerts_base_url}/api/v2`, `Authorization: Bearer <token>`, no
/// envelope).
#[derive(Clone, Debug)]
pub struct Alerting {
    base_url: BaseUrl,
    headers: Headers,
}

impl Alerting {
    /// The alerting interface at `base_url`, authenticated with `token`.
    pub fn new(base_url: BaseUrl, token: BearerToken) -> Self {
        let headers = Headers::new(token.header_value());
        Alerting { base_url, headers }
    }
}

impl Alerting {
    /// Where the interface lives.
    pub fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }
}

impl sealed::Interface for Alerting {
    fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }

    fn common_headers(&self, with_body: bool) -> &HeaderMap {
        self.headers.get(with_body)
    }

    fn sent_secrets(&self) -> &Arc<SentSecrets> {
        &self.headers.secrets
    }

    const ENVELOPE: bool = false;
}

impl fmt::Display for Management {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "management interface at {} as key {}", self.base_url, self.credentials.key_id())
    }
}

impl fmt::Display for Alerting {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "alerting interface at {}", self.base_url)
    }
}

/// The `User-Agent` of every request.
pub const USER_AGENT_VALUE: &str = concat!("pipe-api-proto/", env!("CARGO_PKG_VERSION"));

/// The headers of every request: `Authorization` (sensitive), `Accept`, `User-Agent`, and
/// `Content-Type` when it has a body.
fn common_headers(authorization: HeaderValue, with_body: bool) -> HeaderMap {
    let mut headers = HeaderMap::with_capacity(4);
    headers.insert(AUTHORIZATION, authorization);
    headers.insert(ACCEPT, HeaderValue::from_static("application/json"));
    headers.insert(USER_AGENT, HeaderValue::from_static(USER_AGENT_VALUE));
    if with_body {
        headers.insert(CONTENT_TYPE, HeaderValue::from_static("application/json"));
    }
    headers
}
