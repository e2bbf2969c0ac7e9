//! `source.pubsub`: a Google Cloud Pub/Sub topic, a streaming source like Kafka: the create and
//! read model (`PipePostPubSubSource`, `PipePubSubSource`), the update model
//! (`PipePatchPubSubSource`) and the rules of both.

use time::OffsetDateTime;

use super::check_allowed;
use super::credentials::check_service_account;
use super::{Authentication, Check, DataFormat, Kind, KindPatch, ServiceAccount, SourceKind};
use crate::codec::rfc3339;
use crate::nullable::set;
use crate::validate::{Checker, Rule, one_of};
use crate::{IntoField, Nullable, Text};

open_enum! {
    /// Where a Pub/Sub pipe starts reading (`seekType`).
    pub enum SeekType {
        /// From new messages only.
        Latest => "latest",
        /// From the oldest retained message.
        Earliest => "earliest",
        /// From `seekTimestamp`.
        Timestamp => "timestamp",
    }
}

model! {
    /// `source.pubsub`: a Pub/Sub topic. For a request, build it with [`PubSubSource::new`]
    /// (`Default` is what a read starts from).
    pub struct PubSubSource {
        /// The message format.
        "format" format: DataFormat,
        /// The GCP project that owns the topic.
        "projectId" project_id: Text,
        /// The topic's name (not its full path).
        "topic" topic: Text,
        /// How to authenticate (`SERVICE_ACCOUNT`).
        "authentication" authentication: Authentication,
        /// Where to start reading.
        "seekType" seek_type: SeekType,
        /// The start time for `timestamp` (and only then).
        "seekTimestamp" seek_timestamp: OffsetDateTime as rfc3339,
        /// A subscription filter (CEL), at most 256 characters.
        "filter" filter: Text,
        /// Ordered delivery (messages published with ordering keys).
        "enableOrdering" enable_ordering: bool,
        /// Seconds to acknowledge a message, 10 to 600.
        "ackDeadline" ack_deadline: u32,
        /// The service account to read with (requests only).
        "serviceAccountKey" service_account_key: ServiceAccount,
    }
}

impl PubSubSource {
    /// The topic `topic` of the project `project_id`, read in `format` from `seek_type` on with
    /// the service account `service_account_key`: what the service requires of a Pub/Sub source
    /// (`SERVICE_ACCOUNT` authentication is set). `timestamp` needs
    /// [`seek_timestamp`](Self::seek_timestamp). `Default` is for reading; build a request with
    /// this.
    pub fn new(
        format: impl IntoField<DataFormat>,
        project_id: impl Into<Text>,
        topic: impl Into<Text>,
        seek_type: impl IntoField<SeekType>,
        service_account_key: ServiceAccount,
    ) -> Self {
        PubSubSource {
            format: Some(format.into_field()),
            project_id: Some(project_id.into()),
            topic: Some(topic.into()),
            authentication: Some(Authentication::ServiceAccount),
            seek_type: Some(seek_type.into_field()),
            service_account_key: Some(service_account_key),
            ..Default::default()
        }
    }
}

model! {
    /// `source.pubsub` in an update (`PipePatchPubSubSource`): the contract requires
    /// `authentication` and `serviceAccountKey` in every Pub/Sub update.
    pub struct PubSubSourcePatch {
        /// How to authenticate (`SERVICE_ACCOUNT`; required, though it may be `null`).
        "authentication" authentication: Nullable<Authentication>,
        /// Seconds to acknowledge a message, 10 to 600.
        "ackDeadline" ack_deadline: Nullable<u32>,
        /// The service account to read with (required, though it may be `null`; never echoed
        /// back).
        "serviceAccountKey" service_account_key: Nullable<ServiceAccount>,
    }
}

impl PubSubSourcePatch {
    /// The members the contract requires in every Pub/Sub update
    /// (`PipePatchPubSubSource.required`).
    pub const REQUIRED: &'static [&'static str] = &["authentication", "serviceAccountKey"];
}

impl Kind for PubSubSource {
    const FORMATS: Option<&'static [DataFormat]> =
        Some(&[DataFormat::JsonEachRow, DataFormat::Avro, DataFormat::Protobuf]);
    const AUTHENTICATIONS: Option<&'static [Authentication]> = Some(&[Authentication::ServiceAccount]);
    const DATABASE: bool = false;
}

impl KindPatch for PubSubSourcePatch {
    const REQUIRED: &'static [&'static str] = PubSubSourcePatch::REQUIRED;
    const SETTINGS: &'static [&'static str] = &[];
}

/// The longest subscription filter (`filter.maxLength`).
const MAX_FILTER_CHARS: usize = 256;

/// `PipePostPubSubSource`.
impl Check for PubSubSource {
    fn check(&self, c: &mut Checker<'_>) {
        let pubsub = self;
        c.present("format", &pubsub.format, Rule::Required, |_, _| {});
        c.known("format", &pubsub.format);
        check_allowed(c, "format", &pubsub.format, SourceKind::PubSub.formats());
        c.required_text("projectId", &pubsub.project_id);
        c.required_text("topic", &pubsub.topic);
        c.present("authentication", &pubsub.authentication, Rule::Required, |_, _| {});
        c.known("authentication", &pubsub.authentication);
        check_allowed(c, "authentication", &pubsub.authentication, SourceKind::PubSub.authentications());
        c.present("seekType", &pubsub.seek_type, Rule::Required, |_, _| {});
        c.known("seekType", &pubsub.seek_type);
        // seekTimestamp: "Required when seekType is "timestamp"; must be omitted otherwise".
        let by_timestamp = pubsub.seek_type == Some(SeekType::Timestamp);
        match (by_timestamp, pubsub.seek_timestamp.is_some()) {
            (true, false) => c.fail_at("seekTimestamp", Rule::RequiredBecause("when seekType is timestamp")),
            (false, true) => c.fail_at("seekTimestamp", Rule::NotAllowedBecause("unless seekType is timestamp")),
            _ => {}
        }
        if let Some(filter) = &pubsub.filter {
            if filter.chars().count() > MAX_FILTER_CHARS {
                c.fail_at("filter", Rule::MaxChars(MAX_FILTER_CHARS));
            }
        }
        check_ack_deadline(c, pubsub.ack_deadline);
        c.present("serviceAccountKey", &pubsub.service_account_key, Rule::Required, check_service_account);
    }
}

/// `PipePatchPubSubSource`.
impl Check for PubSubSourcePatch {
    fn check(&self, c: &mut Checker<'_>) {
        let pubsub = self;
        // `required: [authentication, serviceAccountKey]`, each may be `null`: present.
        c.present("authentication", &pubsub.authentication, Rule::Required, |_, _| {});
        one_of(c, "authentication", &set(&pubsub.authentication).cloned(), &SourceKind::PubSub.authentication_texts());
        check_ack_deadline(c, set(&pubsub.ack_deadline).copied());
        c.present("serviceAccountKey", &pubsub.service_account_key, Rule::Required, |c, key| {
            if let Nullable::Value(key) = key {
                check_service_account(c, key);
            }
        });
    }
}

/// `ackDeadline`: "Must be between 10 and 600".
fn check_ack_deadline(c: &mut Checker, ack_deadline: Option<u32>) {
    if ack_deadline.is_some_and(|seconds| !(10..=600).contains(&seconds)) {
        c.fail_at("ackDeadline", Rule::Range { min: 10, max: 600 });
    }
}
