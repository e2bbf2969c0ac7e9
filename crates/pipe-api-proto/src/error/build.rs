//! A request that could not be built: nothing was sent.

use std::error::Error as StdError;
use std::fmt;

use pipe_api_types::ValidationErrors;

use super::ERROR_TEXT_MAX;

/// The request could not be built; nothing was sent.
pub struct BuildError {
    pub(super) operation: &'static str,
    kind: BuildErrorKind,
}

/// Why a request could not be built.
#[derive(Debug)]
#[non_exhaustive]
pub enum BuildErrorKind {
    /// The request model breaks rules (every violation, each with its field path).
    Invalid(ValidationErrors),
    /// The body could not be serialized.
    Serialize(serde_json::Error),
    /// The path or query of an escape-hatch request is not acceptable.
    InvalidPath(&'static str),
    /// The URI could not be assembled.
    Uri(http::Error),
    /// The client has no such interface configured (named here).
    NotConfigured(&'static str),
}

impl BuildError {
    /// A failure to build `operation`'s request.
    pub fn new(operation: &'static str, kind: BuildErrorKind) -> Self {
        BuildError { operation, kind }
    }

    /// The operation.
    pub fn operation(&self) -> &'static str {
        self.operation
    }

    /// Why the request was not built.
    pub fn kind(&self) -> &BuildErrorKind {
        &self.kind
    }

    /// The validation errors, when that is why.
    pub fn validation(&self) -> Option<&ValidationErrors> {
        match &self.kind {
            BuildErrorKind::Invalid(errors) => Some(errors),
            _ => None,
        }
    }
}

/// Says what failed; the violations, or serde's or http's error, are the [`source`](StdError::source).
impl fmt::Display for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}: nothing was sent", self.operation)?;
        match &self.kind {
            // Each violation with its wire path and rule, so that `{error}` says what to fix.
            BuildErrorKind::Invalid(errors) => {
                write!(f, ": {}", crate::redact::truncate(&errors.to_string(), ERROR_TEXT_MAX / 2))
            }
            BuildErrorKind::Serialize(_) => f.write_str(": the body could not be serialized"),
            BuildErrorKind::InvalidPath(why) => write!(f, ": the path {why}"),
            BuildErrorKind::Uri(_) => f.write_str(": the URI could not be built"),
            BuildErrorKind::NotConfigured(api) => write!(f, ": no {api} interface is configured"),
        }
    }
}

/// Reads as its message.
impl fmt::Debug for BuildError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{self}")
    }
}

/// The violations are the message itself (see [`BuildError::validation`]), so not a source.
impl StdError for BuildError {
    fn source(&self) -> Option<&(dyn StdError + 'static)> {
        match &self.kind {
            BuildErrorKind::Invalid(_) => None,
            BuildErrorKind::Serialize(e) => Some(e),
            BuildErrorKind::Uri(e) => Some(e),
            BuildErrorKind::InvalidPath(_) | BuildErrorKind::NotConfigured(_) => None,
        }
    }
}
