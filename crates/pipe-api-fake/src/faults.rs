//! Fault injection: make chosen requests answer a given status, headers and body, or answer late,
//! to test what a client does when the service misbehaves.

use std::time::Duration;

use http::Method;

/// What a faulty answer looks like. Build one with [`Fault::status`] or a preset, then adjust it.
///
/// ```
/// use std::time::Duration;
/// use pipe_api_fake::Fault;
///
/// // 429 as the management interface sends it, with a fractional reset hint.
/// let limited = Fault::rate_limited("3.2");
/// // A gateway that timed out after the create went through.
/// let lost = Fault::status(504).body("upstream request timeout").after_handling();
/// // The normal answer, two seconds late.
/// let slow = Fault::delay(Duration::from_secs(2));
/// # let _ = (limited, lost, slow);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Fault {
    /// Sleep this long before answering.
    pub delay: Option<Duration>,
    /// The answer instead of the normal one; `None` answers normally (after `delay`).
    pub response: Option<FaultResponse>,
    /// Handle the request for real first (a create really creates), then answer with the fault:
    /// what a gateway that gives up on a slow upstream does.
    pub after_handling: bool,
    /// Answer nothing: the connection drops ([`Fault::drop_connection`]).
    pub drop_connection: bool,
}

/// The status, headers and body of a faulty answer.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FaultResponse {
    /// HTTP status code.
    pub status: u16,
    /// Headers, in order.
    pub headers: Vec<(String, String)>,
    /// The body, sent as is.
    pub body: Vec<u8>,
}

impl Fault {
    /// Answer `status` with an empty body.
    pub fn status(status: u16) -> Fault {
        Fault {
            delay: None,
            response: Some(FaultResponse { status, headers: Vec::new(), body: Vec::new() }),
            after_handling: false,
            drop_connection: false,
        }
    }

    /// Answer normally, `delay` late.
    pub fn delay(delay: Duration) -> Fault {
        Fault { delay: Some(delay), response: None, after_handling: false, drop_connection: false }
    }

    /// Answer nothing: the connection drops once the request is read, as a crashing proxy does
    /// (with [`after_handling`](Fault::after_handling), after the request took effect). Through
    /// the fake as a [`Transport`](pipe_api_proto::Transport), the send fails with a
    /// [`TransportErrorKind::Io`](pipe_api_proto::TransportErrorKind::Io) error; served on
    /// 127.0.0.1, the answer is a line that is no HTTP status line, which the client fails to
    /// read after sending, as it would a dropped connection.
    pub fn drop_connection() -> Fault {
        Fault { delay: None, response: None, after_handling: false, drop_connection: true }
    }

    /// 429 as the management interface sends it: `{"error":"TOO_MANY_REQUESTS"}` with the
    /// `X-RateLimit-*` headers, `X-RateLimit-Reset` being `reset_seconds` (may be fractional).
    pub fn rate_limited(reset_seconds: &str) -> Fault {
        Fault::status(429)
            .header("Content-Type", "application/json")
            .header("X-RateLimit-Limit", "10")
            .header("X-RateLimit-Remaining", "0")
            .header("X-RateLimit-Reset", reset_seconds)
            .header("X-RateLimit-Policy", "10;w=10")
            .body(r#"{"error":"TOO_MANY_REQUESTS"}"#)
    }

    /// 503 from a gateway, with `Retry-After: retry_after` (seconds or an HTTP date).
    pub fn unavailable(retry_after: &str) -> Fault {
        Fault::status(503)
            .header("Content-Type", "text/plain")
            .header("Retry-After", retry_after)
            .body("Service Temporarily Unavailable")
    }

    /// 502 with the HTML page a load balancer sends.
    pub fn bad_gateway_html() -> Fault {
        Fault::status(502).header("Content-Type", "text/html").body(
            "<html>\r\n<head><title>502 Bad Gateway</title></head>\r\n<body>\r\n<center><h1>502 Bad Gateway</h1></center>\r\n</body>\r\n</html>\r\n",
        )
    }

    /// The plain-text 401 both services send for wrong or missing credentials.
    pub fn unauthorized() -> Fault {
        Fault::status(401).header("Content-Type", "text/plain").body("Unauthorized")
    }

    /// Adds a header to the answer (on a delay-only fault, turns it into a 200 with no body).
    pub fn header(mut self, name: impl Into<String>, value: impl Into<String>) -> Fault {
        self.response_mut().headers.push((name.into(), value.into()));
        self
    }

    /// Sets the answer's body.
    pub fn body(mut self, body: impl Into<Vec<u8>>) -> Fault {
        self.response_mut().body = body.into();
        self
    }

    /// Also waits `delay` before answering.
    pub fn late(mut self, delay: Duration) -> Fault {
        self.delay = Some(delay);
        self
    }

    /// Handles the request for real before answering with the fault.
    pub fn after_handling(mut self) -> Fault {
        self.after_handling = true;
        self
    }

    fn response_mut(&mut self) -> &mut FaultResponse {
        self.response.get_or_insert_with(|| FaultResponse { status: 200, headers: Vec::new(), body: Vec::new() })
    }
}

impl FaultResponse {
    /// The answer as sent; a header that is not valid HTTP is left out.
    pub(crate) fn into_answer(self) -> crate::reply::Answer {
        let mut answer = crate::reply::with_status(self.status, self.body);
        for (name, value) in self.headers {
            if let (Ok(name), Ok(value)) = (http::HeaderName::try_from(name), http::HeaderValue::try_from(value)) {
                answer.headers_mut().append(name, value);
            }
        }
        answer
    }
}

/// Which requests get a [`Fault`], and how many times.
///
/// ```
/// use http::Method;
/// use pipe_api_fake::{Fault, FaultRule};
///
/// // The next two requests, whatever they are.
/// let next = FaultRule::next(2, Fault::unavailable("1"));
/// // Every POST whose path ends with `/pipes`, until the rules are cleared.
/// let creates = FaultRule::path_ends_with("/pipes", Fault::bad_gateway_html()).method(Method::POST);
/// // The second POST, whatever its path, and only it.
/// let second = FaultRule::any(Fault::drop_connection()).method(Method::POST).nth(2);
/// # let _ = (next, creates, second);
/// ```
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct FaultRule {
    /// Only requests of this method; any method when `None`.
    pub method: Option<Method>,
    /// Only requests whose path ends with this; any path when `None`.
    pub path_suffix: Option<String>,
    /// How many more requests this rule answers; without limit when `None`.
    pub remaining: Option<usize>,
    /// How many matching requests to let through, answered normally, before the rule applies.
    pub skip: usize,
    /// The fault.
    pub fault: Fault,
}

impl FaultRule {
    /// The next `count` requests answer `fault`.
    pub fn next(count: usize, fault: Fault) -> FaultRule {
        FaultRule { method: None, path_suffix: None, remaining: Some(count), skip: 0, fault }
    }

    /// Every request answers `fault` (narrow it with [`method`](FaultRule::method),
    /// [`nth`](FaultRule::nth) or [`times`](FaultRule::times)).
    pub fn any(fault: Fault) -> FaultRule {
        FaultRule { method: None, path_suffix: None, remaining: None, skip: 0, fault }
    }

    /// Every request whose path ends with `suffix` answers `fault` (`"/pipes"` matches list and
    /// create pipes, not get pipe nor `/pipesReversePrivateEndpoints`).
    pub fn path_ends_with(suffix: impl Into<String>, fault: Fault) -> FaultRule {
        FaultRule { method: None, path_suffix: Some(suffix.into()), remaining: None, skip: 0, fault }
    }

    /// Narrows the rule to one method.
    pub fn method(mut self, method: Method) -> FaultRule {
        self.method = Some(method);
        self
    }

    /// Limits the rule to the next `count` matching requests.
    pub fn times(mut self, count: usize) -> FaultRule {
        self.remaining = Some(count);
        self
    }

    /// Applies only to the `n`th matching request from now (1 is the next), once: "the second
    /// POST" is `.method(Method::POST).nth(2)`. The ones before it are answered normally.
    ///
    /// # Panics
    /// If `n` is 0.
    pub fn nth(mut self, n: usize) -> FaultRule {
        assert!(n > 0, "the first matching request is the 1st");
        self.skip = n - 1;
        self.remaining = Some(1);
        self
    }

    pub(crate) fn matches(&self, method: &Method, path: &str) -> bool {
        self.remaining != Some(0)
            && self.method.as_ref().is_none_or(|m| m == method)
            && self.path_suffix.as_deref().is_none_or(|suffix| path.ends_with(suffix))
    }
}

/// Takes the fault for this request, if a rule matches, and counts it against the rule; a rule
/// still letting requests through counts this one and answers nothing.
pub(crate) fn take(rules: &mut Vec<FaultRule>, method: &Method, path: &str) -> Option<Fault> {
    let rule = rules.iter_mut().find(|rule| rule.matches(method, path))?;
    if rule.skip > 0 {
        rule.skip -= 1;
        return None;
    }
    if let Some(remaining) = &mut rule.remaining {
        *remaining -= 1;
    }
    let fault = rule.fault.clone();
    rules.retain(|rule| rule.remaining != Some(0));
    Some(fault)
}
