//! How a rule reads what the create-pipe contract allows per source kind and per type. Each kind
//! declares its own lists in its file (its `Kind` impl, and the per-`type` lists of Kafka and
//! object storage). The source is the management OpenAPI: the `format` enums of `PipePostKafkaSource`,
//! `PipePostObjectStorageSource`, `PipePostKinesisSource` and `PipePostPubSubSource`, the
//! `authentication` enums of those and of `PipeMutatePostgresSource` and
//! `PipeMutateMySQLSource`, and the descriptions that narrow them per `type`
//! (`PipePostKafkaSource.authentication`: "Supported authentication methods: kafka: ...";
//! `PipePostObjectStorageSource.authentication`: "IAM_USER is for S3, GCS, and DigitalOcean
//! Spaces. IAM_ROLE is for S3 only. SERVICE_ACCOUNT is for GCS only. CONNECTION_STRING is for
//! Azure Blob Storage. PUBLIC uses no authentication.", PUBLIC being an absent authentication).
//! The service notes (Pipes) list the same Kafka values.

use super::SourceKind;
use crate::validate::{Checker, OpenEnum, Rule};

/// Values the contract allows for one owner (a source kind or a type), fewer than the enum
/// has: one row of the table below.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Allowed<V: 'static> {
    /// Whom they are allowed for, as a rule names it: `kafka`, `type msk`.
    pub(crate) owner: &'static str,
    /// The values allowed.
    pub(crate) values: &'static [V],
}

impl SourceKind {
    /// The texts of [`SourceKind::authentications`] (none for a kind without one), as an
    /// update's check takes them: an update does not name the pipe's `type`, so the narrower
    /// per-type lists cannot be applied there.
    pub(crate) fn authentication_texts(&self) -> Vec<&'static str> {
        self.authentications().map_or_else(Vec::new, |allowed| allowed.values.iter().map(AsRef::as_ref).collect())
    }
}

/// A value, when present, is one of those the contract allows for its owner (the table in
/// `pipe_source`). A value this crate does not know is left to `c.known`, which refuses a likely
/// typo and passes a newer value sent with `not_yet_known` (or read from a server); an owner it
/// does not know (`allowed` is `None`) allows anything its enum has. Whether the value passed:
/// what a refused method needs (its credentials) is not asked for as well.
pub(crate) fn check_allowed<E: OpenEnum + AsRef<str> + PartialEq>(
    c: &mut Checker,
    name: &'static str,
    value: &Option<E>,
    allowed: Option<Allowed<E>>,
) -> bool {
    let (Some(value), Some(allowed)) = (value, allowed) else { return true };
    if allowed.values.contains(value) || !E::known_texts().contains(&value.as_ref()) {
        return true;
    }
    let texts = allowed.values.iter().map(AsRef::as_ref).collect();
    c.fail_at(name, Rule::OneOfFor { allowed: texts, owner: allowed.owner });
    false
}
