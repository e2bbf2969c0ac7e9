//! The two interfaces: where they live, how they authenticate, and how their success bodies
//! are wrapped. Each rule is written here once; endpoints only say what is particular to them.

use std::fmt;

use http::{HeaderMap, HeaderValue};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::auth::{BearerToken, ManagementCredentials};
use crate::url::BaseUrl;

/// An interface: [`Management`] or [`Alerting`]. What makes one (its base URL, its
/// `Authorization` header, how a success body carries the result) is this crate's business, so
/// the trait is sealed and has no methods a user needs to call.
pub trait Api: sealed::Interface {}

impl Api for Management {}
impl Api for Alerting {}

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

        /// Decodes a success body into the result and the server's request id.
        fn decode_success<T: DeserializeOwned>(body: &[u8]) -> Result<(T, Option<String>), SuccessDecodeError>;

        /// The management interface, if this is it (a wait wakes an idle service through it).
        fn as_management(&self) -> Option<&super::Management> {
            None
        }
    }

    /// Where and why a success body did not decode.
    #[derive(Debug)]
    pub struct SuccessDecodeError {
        pub(crate) path: String,
        pub(crate) message: String,
        pub(crate) request_id: Option<String>,
    }
}

use sealed::SuccessDecodeError;

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

/// The two header templates of an interface.
#[derive(Clone, Debug)]
struct Headers {
    without_body: HeaderMap,
    with_body: HeaderMap,
}

impl Headers {
    fn new(authorization: HeaderValue) -> Self {
        Headers {
            without_body: crate::endpoint::common_headers(authorization.clone(), false),
            with_body: crate::endpoint::common_headers(authorization, true),
        }
    }

    fn get(&self, with_body: bool) -> &HeaderMap {
        if with_body { &self.with_body } else { &self.without_body }
    }
}

/// The management envelope. Unknown members are skipped, and `status` is not read: the HTTP
/// status is the one that counts.
#[derive(Deserialize)]
struct Envelope<T> {
    #[serde(rename = "requestId", default)]
    request_id: Option<String>,
    #[serde(default = "Option::default")]
    result: Option<T>,
}

/// Only the request id of an envelope, read when the whole does not decode.
#[derive(Deserialize)]
struct EnvelopeId {
    #[serde(rename = "requestId", default)]
    request_id: Option<serde_json::Value>,
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

    fn decode_success<T: DeserializeOwned>(body: &[u8]) -> Result<(T, Option<String>), SuccessDecodeError> {
        let envelope: Envelope<T> = decode(body, |body| {
            serde_json::from_slice::<EnvelopeId>(body).ok().and_then(|e| e.request_id?.as_str().map(str::to_owned))
        })?;
        let result = match envelope.result {
            Some(result) => result,
            // No `result` (or `null`): fine for an output that accepts null (a delete's `()`,
            // the escape hatch's JSON value), an error for any model.
            None => T::deserialize(serde_json::Value::Null).map_err(|_| SuccessDecodeError {
                path: "result".to_owned(),
                message: "the envelope has no `result`".to_owned(),
                request_id: envelope.request_id.clone(),
            })?,
        };
        Ok((result, envelope.request_id))
    }
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

    fn decode_success<T: DeserializeOwned>(body: &[u8]) -> Result<(T, Option<String>), SuccessDecodeError> {
        Ok((decode(body, |_| None)?, None))
    }
}

/// [`crate::decode::decode`], naming the request id when the body says it.
fn decode<T: DeserializeOwned>(
    body: &[u8],
    request_id: impl FnOnce(&[u8]) -> Option<String>,
) -> Result<T, SuccessDecodeError> {
    crate::decode::decode(body).map_err(|failure| SuccessDecodeError {
        path: failure.path,
        message: failure.message,
        request_id: request_id(body),
    })
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
