//! Base URLs, and the percent-encoding of path segments and query parameters: the one place
//! where URLs are put together.

use std::fmt;

use http::Uri;
use http::uri::{Authority, Parts, PathAndQuery, Scheme};
use percent_encoding::{AsciiSet, NON_ALPHANUMERIC, utf8_percent_encode};

/// The base URL of an interface: `http` or `https`, a host, and an optional path prefix
/// (`https://api.example.com`, `http://127.0.0.1:8080/proxy/`). Joining is the same with or
/// without a trailing slash.
#[derive(Clone, PartialEq, Eq)]
pub struct BaseUrl {
    /// `http` or `https`, and the authority in lower case: parsed once, so that joining a path
    /// copies no text.
    scheme: Scheme,
    authority: Authority,
    /// The path prefix without a trailing slash (`""` or `/proxy`).
    prefix: String,
}

impl BaseUrl {
    /// Parses and checks a base URL: it must be `http` or `https`, have a host, and have no
    /// query, fragment or user info.
    pub fn parse(text: &str) -> Result<BaseUrl, BaseUrlError> {
        // Never the user info: a refused `https://id:secret@host` must not print the secret.
        let fail = |reason| {
            let shown = crate::redact::without_userinfo(text);
            Err(BaseUrlError { text: crate::redact::truncate(&shown, 200).into_owned(), reason })
        };
        if text.contains('#') {
            return fail("must not have a fragment");
        }
        let Ok(uri) = text.parse::<Uri>() else {
            return fail("is not a valid URL");
        };
        let scheme = match uri.scheme_str() {
            Some("https") => Scheme::HTTPS,
            Some("http") => Scheme::HTTP,
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
        let Ok(authority) = Authority::try_from(authority.as_str().to_ascii_lowercase().as_str()) else {
            return fail("has an invalid host");
        };
        Ok(BaseUrl { scheme, authority, prefix })
    }

    /// Whether the scheme is `https`.
    pub fn is_https(&self) -> bool {
        self.scheme == Scheme::HTTPS
    }

    /// The host, lower-case (an IPv6 address keeps its brackets).
    pub fn host(&self) -> &str {
        self.authority.host()
    }

    /// Whether plain `http` to this host stays on this machine: the one loopback rule, used by
    /// the base URL checks and by the transports of this workspace alike, so that a URL one
    /// accepts the other never refuses.
    ///
    /// Loopback is `localhost` (in any case), an IPv4 address in 127.0.0.0/8, and `::1` (with or
    /// without brackets). Subdomains of `localhost` (`api.localhost`) are not: RFC 6761 asks
    /// resolvers to map them to loopback, but common ones (glibc with `hosts: files dns`) send
    /// them to DNS, whose answer could be any host, and credentials must not cross a network in
    /// clear text. Neither is `localhost.example.com`, nor an IPv4-mapped IPv6 address.
    pub fn is_loopback(&self) -> bool {
        BaseUrl::is_loopback_host(self.host())
    }

    /// [`BaseUrl::is_loopback`]'s rule for a host alone, as a URI gives it
    /// ([`http::Uri::host`]): for a transport, which checks every request it sends without
    /// making a base URL of each.
    pub fn is_loopback_host(host: &str) -> bool {
        let host = host.strip_prefix('[').and_then(|h| h.strip_suffix(']')).unwrap_or(host);
        host.eq_ignore_ascii_case("localhost") || host.parse::<std::net::IpAddr>().is_ok_and(|ip| ip.is_loopback())
    }

    /// The URI of `path` (which starts with `/` and is already encoded) with `query` (pairs
    /// to encode) under this base.
    pub(crate) fn join(&self, path: String, query: &[(String, String)]) -> Result<Uri, http::Error> {
        let mut target = if self.prefix.is_empty() {
            path
        } else {
            let mut target = String::with_capacity(self.prefix.len() + path.len() + 32);
            target.push_str(&self.prefix);
            target.push_str(&path);
            target
        };
        for (i, (name, value)) in query.iter().enumerate() {
            target.push(if i == 0 { '?' } else { '&' });
            encode_into(&mut target, name, QUERY_ENCODED);
            target.push('=');
            encode_into(&mut target, value, QUERY_ENCODED);
        }
        let mut parts = Parts::default();
        parts.scheme = Some(self.scheme.clone());
        parts.authority = Some(self.authority.clone());
        // At its exact size, the text becomes the URI's bytes as is; with spare capacity,
        // `bytes` would allocate a header to keep it.
        parts.path_and_query = Some(PathAndQuery::try_from(String::from(target.into_boxed_str()))?);
        Ok(Uri::from_parts(parts)?)
    }
}

impl fmt::Debug for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "BaseUrl({self})")
    }
}

impl fmt::Display for BaseUrl {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}://{}{}", self.scheme, self.authority, self.prefix)
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
    /// The refused URL as it may be shown: any user info replaced, cut to 200 bytes.
    pub fn url(&self) -> &str {
        &self.text
    }

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

/// Bytes encoded in a path segment: all but RFC 3986 unreserved, the sub-delimiters, `:` and
/// `@`.
const SEGMENT_ENCODED: &AsciiSet = &NON_ALPHANUMERIC
    .remove(b'-')
    .remove(b'.')
    .remove(b'_')
    .remove(b'~')
    .remove(b'!')
    .remove(b'$')
    .remove(b'&')
    .remove(b'\'')
    .remove(b'(')
    .remove(b')')
    .remove(b'*')
    .remove(b'+')
    .remove(b',')
    .remove(b';')
    .remove(b'=')
    .remove(b':')
    .remove(b'@');

/// Bytes encoded in a query name or value: all but RFC 3986 `pchar` and `/`, and the
/// delimiters `&`, `=`, `+`, `;`.
const QUERY_ENCODED: &AsciiSet = &SEGMENT_ENCODED.add(b'&').add(b'=').add(b'+').add(b';').remove(b'/');

fn encode_into(out: &mut String, text: &str, encoded: &'static AsciiSet) {
    // Borrowed runs of safe text come whole: an id or a literal is one push.
    out.extend(utf8_percent_encode(text, encoded));
}

/// An encoded path being built segment by segment, in one buffer: what
/// [`Endpoint::path`](crate::Endpoint::path) returns, for an endpoint of your own as for the
/// table's, each segment encoded by the same rule.
///
/// ```
/// use pipe_api_proto::PathBuilder;
///
/// let path = PathBuilder::new().segment("v1").segment("a b/c").segment("..").finish();
/// assert_eq!(path, "/v1/a%20b%2Fc/%2E%2E");
/// ```
#[derive(Debug)]
pub struct PathBuilder(String);

impl Default for PathBuilder {
    fn default() -> Self {
        PathBuilder::new()
    }
}

impl PathBuilder {
    /// An empty path.
    pub fn new() -> Self {
        PathBuilder(String::with_capacity(128))
    }

    /// Appends `/segment`, encoded (a dot segment included: it cannot move up the path).
    pub fn segment(mut self, segment: &str) -> Self {
        self.0.push('/');
        match segment {
            // Dot segments would move up the path: their dots are escaped.
            "." => self.0.push_str("%2E"),
            ".." => self.0.push_str("%2E%2E"),
            _ => encode_into(&mut self.0, segment, SEGMENT_ENCODED),
        }
        self
    }

    /// Appends `/segment` for a segment of the interface's own (`"pipes"`), which is written
    /// as it is: every such segment is one that [`PathBuilder::segment`] would not change, as
    /// the tests building every endpoint in debug builds check.
    pub(crate) fn literal(mut self, segment: &'static str) -> Self {
        debug_assert!(
            PathBuilder(String::new()).segment(segment).0.get(1..) == Some(segment),
            "path literal {segment:?} needs encoding"
        );
        self.0.push('/');
        self.0.push_str(segment);
        self
    }

    /// Appends `/<id>`: a hyphenated lower-case UUID, which needs no encoding.
    pub(crate) fn id(mut self, id: &uuid::Uuid) -> Self {
        self.0.push('/');
        self.0.push_str(id.hyphenated().encode_lower(&mut uuid::Uuid::encode_buffer()));
        self
    }

    /// The encoded path, starting with `/` (empty when no segment was added).
    pub fn finish(self) -> String {
        self.0
    }
}

/// A path parameter of the table of operations: how its value goes into the path.
pub(crate) trait PathParameter {
    /// Appends `/<value>`, encoded.
    fn push_onto(&self, path: PathBuilder) -> PathBuilder;
}

/// The ids that are UUIDs, which need no encoding.
macro_rules! uuid_parameters {
    ($($id:ty),*) => {
        $(
            impl PathParameter for $id {
                fn push_onto(&self, path: PathBuilder) -> PathBuilder {
                    path.id(self.as_uuid())
                }
            }
        )*
    };
}

uuid_parameters!(
    pipe_api_types::OrganizationId,
    pipe_api_types::ServiceId,
    pipe_api_types::PipeId,
    pipe_api_types::KeyId,
    pipe_api_types::ReversePrivateEndpointId
);

/// An alert id is text, encoded as a path segment.
impl PathParameter for pipe_api_types::AlertId {
    fn push_onto(&self, path: PathBuilder) -> PathBuilder {
        path.segment(self.as_str())
    }
}

#[cfg(test)]
mod tests {
    use super::{BaseUrl, PathBuilder};

    #[test]
    fn the_loopback_rule() {
        for host in ["localhost", "LocalHost", "127.0.0.1", "127.255.0.9", "::1", "[::1]", "[0:0:0:0:0:0:0:1]"] {
            assert!(BaseUrl::is_loopback_host(host), "{host}");
        }
        let not = ["api.localhost", "localhost.example.com", "localhost.", "128.0.0.1", "::ffff:127.0.0.1", "[::2]"];
        for host in not.into_iter().chain(["", "[", "[]", "10.0.0.1", "example.com", "::1]"]) {
            assert!(!BaseUrl::is_loopback_host(host), "{host}");
        }
    }

    fn decoded(text: &str) -> String {
        percent_encoding::percent_decode_str(text).decode_utf8().expect("UTF-8").into_owned()
    }

    proptest::proptest! {
        /// Any text is one path segment and any pair one query parameter: sent, they add no
        /// segment, query or fragment, and decode back to themselves.
        #[test]
        fn paths_and_queries_round_trip(segment in "\\PC{0,40}", name in "\\PC{1,20}", value in "\\PC{0,40}") {
            let path = PathBuilder::new().literal("v1").segment(&segment).finish();
            let base = super::BaseUrl::parse("https://api.example.com").unwrap();
            let uri = base.join(path, &[(name.clone(), value.clone())]).unwrap();
            let sent = uri.path().strip_prefix("/v1/").unwrap();
            proptest::prop_assert!(!sent.contains('/'), "a segment never adds a segment");
            proptest::prop_assert_eq!(decoded(sent), segment);
            let (sent_name, sent_value) = uri.query().unwrap().split_once('=').unwrap();
            proptest::prop_assert!(!sent_value.contains(['&', '=']), "a value never adds a parameter");
            proptest::prop_assert_eq!((decoded(sent_name), decoded(sent_value)), (name, value));
        }
    }

    #[test]
    fn literals_are_written_as_they_are() {
        let path = PathBuilder::new().literal("v1").literal("pipesReversePrivateEndpoints").finish();
        assert_eq!(path, "/v1/pipesReversePrivateEndpoints");
    }

    #[test]
    #[cfg(debug_assertions)]
    #[should_panic(expected = "needs encoding")]
    fn a_literal_that_needs_encoding_is_caught_in_debug_builds() {
        PathBuilder::new().literal("a b");
    }
}
