//! Credentials of both interfaces, checked when made, and the one place that writes the
//! `Authorization` header.

use std::fmt;

use base64::Engine as _;
use http::HeaderValue;
use pipe_api_types::Secret;

/// A management key id and key secret, sent as HTTP Basic credentials.
#[derive(Clone)]
pub struct ManagementCredentials {
    key_id: String,
    key_secret: Secret,
    /// The `Authorization` value, made once: every request sends it.
    header: HeaderValue,
}

impl ManagementCredentials {
    /// Checks and wraps a key id and key secret: the key id must not be empty nor contain `:`
    /// (Basic credentials could not carry it), and neither may contain a control character
    /// (CR or LF would split the header).
    pub fn new(key_id: impl Into<String>, key_secret: impl Into<Secret>) -> Result<Self, CredentialsError> {
        let key_id = key_id.into();
        let key_secret = key_secret.into();
        if key_id.is_empty() {
            return Err(CredentialsError("the key id is empty"));
        }
        if key_id.contains(':') {
            return Err(CredentialsError("the key id contains ':', which HTTP Basic credentials cannot carry"));
        }
        if key_id.chars().any(char::is_control) {
            return Err(CredentialsError("the key id contains a control character (such as CR or LF)"));
        }
        if key_secret.expose_secret().chars().any(char::is_control) {
            return Err(CredentialsError("the key secret contains a control character (such as CR or LF)"));
        }
        let pair = format!("{key_id}:{}", key_secret.expose_secret());
        let header = sensitive(format!("Basic {}", base64::engine::general_purpose::STANDARD.encode(pair)));
        Ok(ManagementCredentials { key_id, key_secret, header })
    }

    /// The key id (not secret: it names the key).
    pub fn key_id(&self) -> &str {
        &self.key_id
    }

    pub(crate) fn header_value(&self) -> HeaderValue {
        self.header.clone()
    }
}

impl fmt::Debug for ManagementCredentials {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.debug_struct("ManagementCredentials")
            .field("key_id", &self.key_id)
            .field("key_secret", &self.key_secret)
            .finish()
    }
}

/// An alerting API access key, sent as `Authorization: Bearer <token>`.
#[derive(Clone)]
pub struct BearerToken {
    /// Kept so the token stays readable only through `Secret`'s accessor.
    _token: Secret,
    /// The `Authorization` value, made once: every request sends it.
    header: HeaderValue,
}

impl BearerToken {
    /// Checks and wraps a token: not empty, and only visible ASCII (no space, CR or LF).
    pub fn new(token: impl Into<Secret>) -> Result<Self, CredentialsError> {
        let token = token.into();
        let text = token.expose_secret();
        if text.is_empty() {
            return Err(CredentialsError("the bearer token is empty"));
        }
        if !text.bytes().all(|b| b.is_ascii_graphic()) {
            return Err(CredentialsError(
                "the bearer token contains a character other than visible ASCII (such as a space, CR or LF)",
            ));
        }
        let header = sensitive(format!("Bearer {}", token.expose_secret()));
        Ok(BearerToken { _token: token, header })
    }

    pub(crate) fn header_value(&self) -> HeaderValue {
        self.header.clone()
    }
}

impl fmt::Debug for BearerToken {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str("BearerToken([redacted])")
    }
}

/// A header value holding a credential, marked sensitive so HTTP stacks do not log it.
fn sensitive(text: String) -> HeaderValue {
    // Checked when the credentials were made, so this cannot fail; stay total anyway.
    let mut value = HeaderValue::try_from(text).unwrap_or_else(|_| HeaderValue::from_static(""));
    value.set_sensitive(true);
    value
}

/// Credentials were refused; the message says why and never shows the secret.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct CredentialsError(&'static str);

impl fmt::Display for CredentialsError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid credentials: {}", self.0)
    }
}

impl std::error::Error for CredentialsError {}
