//! Base URLs, and the percent-encoding of path segments and query parameters: the one place
//! where URLs are put together.

use std::fmt;

use http::Uri;

/// The base URL of an interface: `http` or `https`, a host, and an optional path prefix
/// (`https://api.example.com`, `http://127.0.0.1:8080/proxy/`). Joining is the same with or
/// without a trailing slash.
#[derive(Clone, PartialEq, Eq)]
pub struct BaseUrl {
    /// `scheme://authority`, never with a trailing slash.
    origin: String,
    /// The path prefix without a trailing slash (`""` or `/proxy`).
    prefix: String,
    https: bool,
    host: String,
}

impl BaseUrl {
    /// Parses and checks a base URL: it must be `http` or `https`, have a host, and have no
    /// query, fragment or user info.
    pub fn parse(text: &str) -> Result<BaseUrl, BaseUrlError> {
        let fail = |reason| Err(BaseUrlError { text: text.chars().take(200).collect(), reason });
        if text.contains('#') {
            return fail("must not have a fragment");
        }
        let Ok(uri) = text.parse::<Uri>() else {
            return fail("is not a valid URL");
        };
        let https = match uri.scheme_str() {
            Some("https") => true,
            Some("http") => false,
            Some(_) => return fail("must use http or https"),
            None => return fail("must be absolute (http:// or https://)"),
        };
        let Some(authority) = uri.authority() else {
            return fail("has no host");
        };
        if authority.as_str().contains('@') {
            return fail("must not carry user info (credentials go in the Authorization header)");
        }
        if authority.host().is_empty() {
            return fail("has no host");
        }
        if uri.query().is_some() || text.contains('?') {
            return fail("must not have a query");
        }
        let prefix = uri.path().trim_end_matches('/').to_owned();
        let scheme = if https { "https" } else { "http" };
        Ok(BaseUrl {
            origin: format!("{scheme}://{}", authority.as_str().to_ascii_lowercase()),
            prefix,
            https,
            host: authority.host().to_ascii_lowercase(),
        })
    }

    /// Whether the scheme is `https`.
    pub fn is_https(&self) -> bool {
        self.https
    }

    /// The host, lower-case (an IPv6 address keeps its brackets).
    pub fn host(&self) -> &str {
        &self.host
    }

    /// Whether the host is a loopback address or `localhost`.
    pub fn is_loopback(&self) -> bool {
        let host = self.host.trim_start_matches('[').trim_end_matches(']');
        host == "localhost"
            || host.ends_with(".localhost")
            || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// The URI of `path` (which starts with `/` and is already encoded) with `query` (pairs
    /// to encode) under this base.
    pub(crate) fn join(&self, path: &str, query: &[(&str, String)]) -> Result<Uri, http::Error> {
        let mut uri = String::with_capacity(self.origin.len() + self.prefix.len() + path.len() + 32);
        uri.push_str(&self.origin);
        uri.push_str(&self.prefix);
        uri.push_str(path);
        for (i, (name, value)) in query.iter().enumerate() {
            uri.push(if i == 0 { '?' } else { '&' });
            encode_into(&mut uri, name, QUERY_SAFE);
            uri.push('=');
            encode_into(&mut uri, value, QUERY_SAFE);
        }
        Ok(uri.parse::<Uri>()?)
    }
}

impl fmt::Debug for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BaseUrl({self})")
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}{}", self.origin, self.prefix)
    }
}

impl std::str::FromStr for BaseUrl {
    type Err = BaseUrlError;

    fn from_str(text: &str) -> Result<Self, Self::Err> {
        BaseUrl::parse(text)
    }
}

/// A base URL was refused.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct BaseUrlError {
    text: String,
    reason: &'static str,
}

impl BaseUrlError {
    /// Why the URL was refused.
    pub fn reason(&self) -> &'static str {
        self.reason
    }
}

impl fmt::Display for BaseUrlError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "base URL {:?} {}", self.text, self.reason)
    }
}

impl std::error::Error for BaseUrlError {}

/// Bytes left as they are in a path segment (RFC 3986 unreserved plus a few sub-delimiters).
const SEGMENT_SAFE: &[u8] = b"-._~!$&'()*+,;=:@";
/// Bytes left as they are in a query name or value.
const QUERY_SAFE: &[u8] = b"-._~!$'()*,:@/";

fn encode_into(out: &mut String, text: &str, safe: &[u8]) {
    let is_safe = |byte: u8| byte.is_ascii_alphanumeric() || safe.contains(&byte);
    // Ids and literal segments need no escaping: copy them whole.
    if text.bytes().all(is_safe) {
        out.push_str(text);
        return;
    }
    for &byte in text.as_bytes() {
        if is_safe(byte) {
            out.push(byte as char);
        } else {
            out.push('%');
            out.push(char::from(b"0123456789ABCDEF"[usize::from(byte >> 4)]));
            out.push(char::from(b"0123456789ABCDEF"[usize::from(byte & 15)]));
        }
    }
}

/// Builds an encoded path from literal and dynamic segments: `path(&["v1", "organizations",
/// &id])` is `/v1/organizations/<id encoded>`. Every segment is encoded, so an id can never
/// add a segment, a query or a fragment.
pub fn path(segments: &[&str]) -> String {
    let mut out = String::with_capacity(segments.iter().map(|s| s.len() + 1).sum());
    for segment in segments {
        out.push('/');
        match *segment {
            // Dot segments would move up the path: their dots are escaped.
            "." => out.push_str("%2E"),
            ".." => out.push_str("%2E%2E"),
            _ => encode_into(&mut out, segment, SEGMENT_SAFE),
        }
    }
    out
}

/// Decodes a percent-encoded text (for tests and the fake): `None` when it is not valid.
pub fn percent_decode(text: &str) -> Option<String> {
    let bytes = text.as_bytes();
    let mut out = Vec::with_capacity(bytes.len());
    let mut i = 0;
    while i < bytes.len() {
        if bytes[i] == b'%' {
            let hex = std::str::from_utf8(bytes.get(i + 1..i + 3)?).ok()?;
            out.push(u8::from_str_radix(hex, 16).ok()?);
            i += 3;
        } else {
            out.push(bytes[i]);
            i += 1;
        }
    }
    String::from_utf8(out).ok()
}
