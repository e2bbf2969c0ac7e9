//! `source.kinesis`: a Kinesis-style stream.

use time::OffsetDateTime;

use super::{Authentication, Check, Credentials, DataFormat, Kind, KindPatch, SourceKind};
use super::{check_allowed, check_credentials};
use crate::codec::unix_seconds;
use crate::nullable::set;
use crate::validate::{Checker, Rule, one_of};
use crate::{IntoField, Nullable, Text};

open_enum! {
    /// Where a Kinesis pipe starts reading.
    pub enum IteratorType {
        /// From the oldest record.
        TrimHorizon => "TRIM_HORIZON",
        /// From new records only.
        Latest => "LATEST",
        /// From `timestamp`.
        AtTimestamp => "AT_TIMESTAMP",
    }
}

model! {
    /// `source.kinesis`: a Kinesis-style stream. For a request, build it with
    /// [`KinesisSource::new`] (`Default` is what a read starts from).
    pub struct KinesisSource {
        /// The record format.
        "format" format: DataFormat,
        /// The stream's name.
        "streamName" stream_name: Text,
        /// The stream's region.
        "region" region: Text,
        /// Whether to use enhanced fan-out.
        "useEnhancedFanOut" use_enhanced_fan_out: bool,
        /// Where to start reading.
        "iteratorType" iterator_type: IteratorType,
        /// The start time for `AT_TIMESTAMP` (an integer UNIX time on the wire).
        "timestamp" timestamp: OffsetDateTime as unix_seconds,
        /// How to authenticate.
        "authentication" authentication: Authentication,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Text,
        /// Access key for `IAM_USER` (requests only).
        "accessKey" access_key: Credentials,
    }
}

impl KinesisSource {
    /// The stream `stream_name` in `region`, read in `format` from `iterator_type` on,
    /// authenticating with `authentication`: what the service requires of a Kinesis source.
    /// `AT_TIMESTAMP` needs [`timestamp`](Self::timestamp), `IAM_ROLE`
    /// [`iam_role`](Self::iam_role), `IAM_USER` [`access_key`](Self::access_key). `Default` is
    /// for reading; build a request with this.
    pub fn new(
        format: impl IntoField<DataFormat>,
        stream_name: impl Into<Text>,
        region: impl Into<Text>,
        iterator_type: impl IntoField<IteratorType>,
        authentication: impl IntoField<Authentication>,
    ) -> Self {
        KinesisSource {
            format: Some(format.into_field()),
            stream_name: Some(stream_name.into()),
            region: Some(region.into()),
            iterator_type: Some(iterator_type.into_field()),
            authentication: Some(authentication.into_field()),
            ..Default::default()
        }
    }
}

model! {
    /// `source.kinesis` in an update (`PipePatchKinesisSource`).
    pub struct KinesisSourcePatch {
        /// How to authenticate: `IAM_ROLE` or `IAM_USER`.
        "authentication" authentication: Nullable<Authentication>,
        /// The IAM role for `IAM_ROLE`.
        "iamRole" iam_role: Nullable<Text>,
        /// Access key for `IAM_USER`.
        "accessKey" access_key: Nullable<Credentials>,
    }
}

impl Kind for KinesisSource {
    const FORMATS: Option<&'static [DataFormat]> =
        Some(&[DataFormat::JsonEachRow, DataFormat::Avro, DataFormat::AvroConfluent]);
    const AUTHENTICATIONS: Option<&'static [Authentication]> = Some(&[Authentication::IamRole, Authentication::IamUser]);
    const DATABASE: bool = false;
}

/// `PipePostKinesisSource`.
impl Check for KinesisSource {
    fn check(&self, c: &mut Checker<'_>) {
        let kinesis = self;
        c.present("format", &kinesis.format, Rule::Required, |_, _| {});
        c.known("format", &kinesis.format);
        c.known("iteratorType", &kinesis.iterator_type);
        c.known("authentication", &kinesis.authentication);
        check_allowed(c, "format", &kinesis.format, SourceKind::Kinesis.formats());
        let allowed = SourceKind::Kinesis.authentications();
        let method_allowed = check_allowed(c, "authentication", &kinesis.authentication, allowed);
        c.required_text("streamName", &kinesis.stream_name);
        c.required_text("region", &kinesis.region);
        c.present("iteratorType", &kinesis.iterator_type, Rule::Required, |_, _| {});
        if kinesis.iterator_type == Some(IteratorType::AtTimestamp) && kinesis.timestamp.is_none() {
            c.fail_at("timestamp", Rule::RequiredBecause("when iteratorType is AT_TIMESTAMP"));
        }
        c.present("authentication", &kinesis.authentication, Rule::Required, |_, _| {});
        if method_allowed {
            check_credentials(
                c,
                kinesis.authentication.as_ref(),
                &kinesis.access_key,
                "accessKey",
                &kinesis.iam_role,
            );
        }
    }
}

impl KindPatch for KinesisSourcePatch {
    const REQUIRED: &'static [&'static str] = &[];
    const SETTINGS: &'static [&'static str] = &[];
}

/// `PipePatchKinesisSource`.
impl Check for KinesisSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        let authentication = set(&self.authentication).cloned();
        one_of(c, "authentication", &authentication, &SourceKind::Kinesis.authentication_texts());
        // PipePatchKinesisSource.iamRole: "Required if IAM_ROLE is used".
        if authentication == Some(Authentication::IamRole) && set(&self.iam_role).is_none() {
            c.fail_at("iamRole", Rule::RequiredBecause("when authentication is IAM_ROLE"));
        }
    }
}
