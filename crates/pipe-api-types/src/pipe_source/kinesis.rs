//! `source.kinesis`: a Kinesis-style stream.

use time::OffsetDateTime;

use super::{Authentication, Credentials, DataFormat};
use crate::codec::unix_seconds;
use crate::{IntoField, Text};

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
