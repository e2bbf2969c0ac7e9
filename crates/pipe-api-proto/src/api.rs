//! The two interfaces: where they live, how they authenticate, and how their success bodies
//! are wrapped. Each rule is written here once; endpoints only say what is particular to them.

use std::fmt;
use std::sync::Arc;

use http::{HeaderMap, HeaderValue};
use pipe_api_types::read::{FromJson, Read, Reader};
use serde::Deserialize;
use serde::de::DeserializeOwned;

use crate::auth::{BearerToken, ManagementCredentials};
use crate::url::BaseUrl;

/// An interface: its base URL, its `Authorization` header, and how a success body carries the
/// result. Implemented by [`Management`] and [`Alerting`] only.
pub trait Api: sealed::Sealed {
    /// Where the interface lives.
    fn base_url(&self) -> &BaseUrl;

    /// The `Authorization` header value, marked sensitive.
    fn authorization(&self) -> HeaderValue;

    /// The headers every request to the interface carries (`Authorization`, `Accept`,
    /// `User-Agent`, and `Content-Type` for one with a body), made once: a request starts
    /// from a copy.
    #[doc(hidden)]
    fn common_headers(&self, with_body: bool) -> &HeaderMap;

    /// Decodes a success body into the result and the server's request id.
    #[doc(hidden)]
    fn decode_success<T: DeserializeOwned + FromJson>(body: Vec<u8>)
    -> Result<(T, Option<String>), SuccessDecodeError>;
}

mod sealed {
    pub trait Sealed {}
    impl Sealed for super::Management {}
    impl Sealed for super::Alerting {}
}

/// Where and why a success body did not decode.
#[doc(hidden)]
#[derive(Debug)]
pub struct SuccessDecodeError {
    pub(crate) path: String,
    pub(crate) message: String,
    pub(crate) request_id: Option<String>,
    /// The body, handed back for the error to keep.
    pub(crate) body: Vec<u8>,
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

/// Reads as the derived `Deserialize` does: other members skipped, a repeated one refused.
impl<T: FromJson> FromJson for Envelope<T> {
    fn read_json(reader: &mut Reader<'_>) -> Read<Self> {
        let (mut request_id, mut result) = (None, None);
        reader.object(|reader, key| match &*key {
            "requestId" => reader.read_once(&mut request_id),
            "result" => reader.read_once(&mut result),
            _ => reader.skip_value(),
        })?;
        Ok(Envelope { request_id: request_id.flatten(), result: result.flatten() })
    }
}

/// Only the request id of an envelope, read when the whole does not decode.
#[derive(Deserialize)]
struct EnvelopeId {
    #[serde(rename = "requestId", default)]
    request_id: Option<serde_json::Value>,
}

impl Api for Management {
    fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }

    fn authorization(&self) -> HeaderValue {
        self.credentials.header_value()
    }

    fn common_headers(&self, with_body: bool) -> &HeaderMap {
        self.headers.get(with_body)
    }

    fn decode_success<T: DeserializeOwned + FromJson>(
        body: Vec<u8>,
    ) -> Result<(T, Option<String>), SuccessDecodeError> {
        let (envelope, body): (Envelope<T>, _) = decode(body, |body| {
            serde_json::from_slice::<EnvelopeId>(body).ok().and_then(|e| e.request_id?.as_str().map(str::to_owned))
        })?;
        let result = match envelope.result {
            Some(result) => result,
            // No `result` (or `null`): fine for an output that accepts null (the escape
            // hatch's JSON value), an error for any model.
            None => T::deserialize(serde_json::Value::Null).map_err(|_| SuccessDecodeError {
                path: "result".to_owned(),
                message: "the envelope has no `result`".to_owned(),
                request_id: envelope.request_id.clone(),
                body: body.into_bytes(),
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
    token: BearerToken,
    headers: Headers,
}

impl Alerting {
    /// The alerting interface at `base_url`, authenticated with `token`.
    pub fn new(base_url: BaseUrl, token: BearerToken) -> Self {
        let headers = Headers::new(token.header_value());
        Alerting { base_url, token, headers }
    }
}

impl Api for Alerting {
    fn base_url(&self) -> &BaseUrl {
        &self.base_url
    }

    fn authorization(&self) -> HeaderValue {
        self.token.header_value()
    }

    fn common_headers(&self, with_body: bool) -> &HeaderMap {
        self.headers.get(with_body)
    }

    fn decode_success<T: DeserializeOwned + FromJson>(
        body: Vec<u8>,
    ) -> Result<(T, Option<String>), SuccessDecodeError> {
        Ok((decode(body, |_| None)?.0, None))
    }
}

/// Decodes with the direct reader ([`pipe_api_types::read`]); only what it does not take goes
/// through serde, and only when serde fails too does it decode again tracking the path, to say
/// where (tracking costs time on every value, so the successful path never pays it).
///
/// A body that is valid UTF-8 (every JSON body is) becomes one shared `Arc<String>` that the
/// decoded text fields point into ([`pipe_api_types::decode_shared`]): no allocation per string.
fn decode<T: DeserializeOwned + FromJson>(
    body: Vec<u8>,
    request_id: impl FnOnce(&[u8]) -> Option<String>,
) -> Result<(T, Body), SuccessDecodeError> {
    let (fast, body) = match String::from_utf8(body) {
        Ok(text) => {
            let shared = Arc::new(text);
            if let Ok(value) = pipe_api_types::read::read_shared::<T>(&shared) {
                return Ok((value, Body::Shared(shared)));
            }
            let fast = pipe_api_types::decode_shared(&shared, |json| serde_json::from_str::<T>(json));
            match fast {
                Ok(value) => return Ok((value, Body::Shared(shared))),
                // Nothing decoded survives a failure, so the body is normally ours again.
                Err(fast) => (fast, Body::Shared(shared).into_bytes()),
            }
        }
        Err(not_utf8) => {
            let body = not_utf8.into_bytes();
            match serde_json::from_slice::<T>(&body) {
                Ok(value) => return Ok((value, Body::Bytes(body))),
                Err(fast) => (fast, body),
            }
        }
    };
    let (path, message) =
        match serde_path_to_error::deserialize::<_, T>(&mut serde_json::Deserializer::from_slice(&body)) {
            Err(tracked) => (tracked.path().to_string(), tracked.into_inner().to_string()),
            Ok(_) => (".".to_owned(), fast.to_string()),
        };
    Err(SuccessDecodeError { path, message, request_id: request_id(&body), body })
}

/// The body a value was decoded from, for an error found after decoding.
enum Body {
    Shared(Arc<String>),
    Bytes(Vec<u8>),
}

impl Body {
    fn into_bytes(self) -> Vec<u8> {
        match self {
            Body::Shared(shared) => Arc::try_unwrap(shared).unwrap_or_else(|shared| (*shared).clone()).into_bytes(),
            Body::Bytes(bytes) => bytes,
        }
    }
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
