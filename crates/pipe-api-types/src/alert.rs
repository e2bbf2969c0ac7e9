//! Alerts of the alerting interface. Older servers name the references `team`, `dashboard` and
//! `savedSearch`; newer ones `teamId`, `dashboardId` and `savedSearchId`. Both are read and each
//! is written back under the name it came with; the `resolved_*` methods give whichever is set.

use time::OffsetDateTime;

use crate::AlertId;
use crate::Nullable;
use crate::Text;
use crate::codec::{decimal, nullable_decimal, nullable_rfc3339, rfc3339};
use crate::nullable::set;
use crate::validate::{Checker, Rule, Validate, ValidationErrors};

open_enum! {
    /// The state of an alert.
    pub enum AlertState {
        /// Firing.
        Alert => "ALERT",
        /// Not firing.
        Ok => "OK",
        /// Not enough data to decide.
        InsufficientData => "INSUFFICIENT_DATA",
        /// Disabled.
        Disabled => "DISABLED",
        /// About to fire (newer servers).
        Pending => "PENDING",
    }
}

open_enum! {
    /// How the value is compared with the threshold.
    pub enum ThresholdType {
        /// Fires at or above the threshold.
        Above => "above",
        /// Fires below the threshold.
        Below => "below",
        /// Fires strictly above.
        AboveExclusive => "above_exclusive",
        /// Fires at or below.
        BelowOrEqual => "below_or_equal",
        /// Fires when equal.
        Equal => "equal",
        /// Fires when not equal.
        NotEqual => "not_equal",
        /// Fires between `threshold` and `thresholdMax`.
        Between => "between",
        /// Fires outside `threshold`..`thresholdMax`.
        NotBetween => "not_between",
    }
}

open_enum! {
    /// What an alert watches.
    pub enum AlertSource {
        /// A saved search.
        SavedSearch => "saved_search",
        /// A dashboard tile.
        Tile => "tile",
    }
}

open_enum! {
    /// How often an alert is evaluated.
    pub enum AlertInterval {
        /// Every minute.
        OneMinute => "1m",
        /// Every 5 minutes.
        FiveMinutes => "5m",
        /// Every 15 minutes.
        FifteenMinutes => "15m",
        /// Every 30 minutes.
        ThirtyMinutes => "30m",
        /// Every hour.
        OneHour => "1h",
        /// Every 6 hours.
        SixHours => "6h",
        /// Every 12 hours.
        TwelveHours => "12h",
        /// Every day.
        OneDay => "1d",
    }
}

open_enum! {
    /// The kind of notification channel.
    pub enum ChannelType {
        /// A webhook.
        Webhook => "webhook",
    }
}

open_enum! {
    /// The category of an alert execution error.
    pub enum AlertErrorType {
        /// The query failed.
        QueryError => "QUERY_ERROR",
        /// The query timed out.
        QueryTimeout => "QUERY_TIMEOUT",
        /// The webhook call failed.
        WebhookError => "WEBHOOK_ERROR",
        /// The alert is invalid.
        InvalidAlert => "INVALID_ALERT",
        /// Anything else.
        Unknown => "UNKNOWN",
    }
}

model! {
    /// Where an alert notifies. Very old alerts may hold `type: null`.
    pub struct AlertChannel {
        /// The channel kind.
        "type" kind: ChannelType,
        /// The webhook to call.
        "webhookId" webhook_id: Text,
    }
}

impl AlertChannel {
    /// A webhook channel: notifies the webhook `webhook_id`.
    pub fn webhook(webhook_id: impl Into<Text>) -> Self {
        AlertChannel { kind: Some(ChannelType::Webhook), webhook_id: Some(webhook_id.into()), ..Default::default() }
    }
}

model! {
    /// Who silenced an alert, and until when.
    pub struct AlertSilenced {
        /// The user who silenced it.
        "by" by: Text,
        /// When it was silenced.
        "at" at: OffsetDateTime as rfc3339,
        /// When the silence ends.
        "until" until: OffsetDateTime as rfc3339,
    }
}

model! {
    /// An error recorded during a recent execution.
    pub struct AlertExecutionError {
        /// When it happened.
        "timestamp" timestamp: OffsetDateTime as rfc3339,
        /// Its category.
        "type" kind: AlertErrorType,
        /// What happened.
        "message" message: Text,
    }
}

model! {
    /// An alert definition.
    pub struct Alert {
        /// The alert's id (not a UUID).
        required "id" id: AlertId,
        /// The alert's name.
        "name" name: Text,
        /// The notification message.
        "message" message: Text,
        /// The threshold (the lower bound for `between`).
        "threshold" threshold: f64 as decimal,
        /// The upper bound for `between` and `not_between` (newer servers).
        "thresholdMax" threshold_max: f64 as decimal,
        /// How often it is evaluated.
        "interval" interval: AlertInterval,
        /// How the value is compared with the threshold.
        "thresholdType" threshold_type: ThresholdType,
        /// What it watches.
        "source" source: AlertSource,
        /// Its current state.
        "state" state: AlertState,
        /// Where it notifies (the first of `channels` on newer servers).
        "channel" channel: AlertChannel,
        /// Every notification channel (newer servers).
        "channels" channels: Vec<AlertChannel>,
        /// The team (older servers).
        "team" team: Text,
        /// The team (newer servers).
        "teamId" team_id: Text,
        /// The watched dashboard tile.
        "tileId" tile_id: Text,
        /// The dashboard (older servers).
        "dashboard" dashboard: Text,
        /// The dashboard (newer servers).
        "dashboardId" dashboard_id: Text,
        /// The saved search (older servers).
        "savedSearch" saved_search: Text,
        /// The saved search (newer servers).
        "savedSearchId" saved_search_id: Text,
        /// The column results are grouped by (newer servers).
        "groupBy" group_by: Text,
        /// Silencing (newer servers).
        "silenced" silenced: AlertSilenced,
        /// A free-text note (newer servers).
        "note" note: Text,
        /// Minutes to offset the schedule by (newer servers).
        "scheduleOffsetMinutes" schedule_offset_minutes: u32,
        /// When the schedule starts (newer servers).
        "scheduleStartAt" schedule_start_at: OffsetDateTime as rfc3339,
        /// Consecutive firing windows before notifying (newer servers).
        "numConsecutiveWindows" num_consecutive_windows: u32,
        /// Errors of the most recent execution (newer servers).
        "executionErrors" execution_errors: Vec<AlertExecutionError>,
        /// When the alert was created.
        "createdAt" created_at: OffsetDateTime as rfc3339,
        /// When the alert was last changed.
        "updatedAt" updated_at: OffsetDateTime as rfc3339,
    }
}

impl crate::HasState for Alert {
    fn state(&self) -> Option<&str> {
        self.state.as_ref().map(AlertState::as_str)
    }
}

impl Alert {
    /// The team, whichever name the server used (`teamId` or `team`).
    pub fn resolved_team_id(&self) -> Option<&str> {
        self.team_id.as_deref().or(self.team.as_deref())
    }

    /// The dashboard, whichever name the server used (`dashboardId` or `dashboard`).
    pub fn resolved_dashboard_id(&self) -> Option<&str> {
        self.dashboard_id.as_deref().or(self.dashboard.as_deref())
    }

    /// The saved search, whichever name the server used (`savedSearchId` or `savedSearch`).
    pub fn resolved_saved_search_id(&self) -> Option<&str> {
        self.saved_search_id.as_deref().or(self.saved_search.as_deref())
    }

    /// The notification channels: `channels` on newer servers, else the single `channel`.
    pub fn resolved_channels(&self) -> Vec<&AlertChannel> {
        match &self.channels {
            Some(channels) if !channels.is_empty() => channels.iter().collect(),
            _ => self.channel.iter().collect(),
        }
    }
}

impl AlertInterval {
    /// The interval's length in minutes; `None` for a value this crate does not know.
    pub fn minutes(&self) -> Option<u32> {
        Some(match self {
            AlertInterval::OneMinute => 1,
            AlertInterval::FiveMinutes => 5,
            AlertInterval::FifteenMinutes => 15,
            AlertInterval::ThirtyMinutes => 30,
            AlertInterval::OneHour => 60,
            AlertInterval::SixHours => 360,
            AlertInterval::TwelveHours => 720,
            AlertInterval::OneDay => 1440,
            AlertInterval::Unrecognized(_) => return None,
        })
    }
}

model! {
    /// The body of both the create-alert (`POST`) and the update-alert (`PUT`) requests. A `PUT`
    /// replaces the whole alert: a field left out is cleared (`scheduleStartAt` excepted, which
    /// is kept: send [`Nullable::Null`] to clear it), so update from the alert as read:
    /// `AlertRequest::from(alert)` keeps every field, those this crate does not model included.
    /// The members the contract's `Alert` schema lets be `null` are [`Nullable`].
    pub struct AlertRequest {
        /// What the alert watches.
        "source" source: AlertSource,
        /// The saved search (`saved_search`).
        "savedSearchId" saved_search_id: Nullable<Text>,
        /// The dashboard (`tile`).
        "dashboardId" dashboard_id: Nullable<Text>,
        /// The tile of the dashboard (`tile`).
        "tileId" tile_id: Nullable<Text>,
        /// The column results are grouped by (saved searches).
        "groupBy" group_by: Nullable<Text>,
        /// The threshold (the lower bound for `between` and `not_between`).
        "threshold" threshold: f64 as decimal,
        /// The upper bound for `between` and `not_between`.
        "thresholdMax" threshold_max: Nullable<f64> as nullable_decimal,
        /// How the value is compared with the threshold.
        "thresholdType" threshold_type: ThresholdType,
        /// How often the alert is evaluated.
        "interval" interval: AlertInterval,
        /// Minutes to offset the schedule by (0 to 1439, below the interval).
        "scheduleOffsetMinutes" schedule_offset_minutes: Nullable<u32>,
        /// When the schedule starts.
        "scheduleStartAt" schedule_start_at: Nullable<OffsetDateTime> as nullable_rfc3339,
        /// Where it notifies: the one channel, which every server reads (older servers know
        /// only this one). When `channels` is sent too, it must equal `channels[0]`.
        "channel" channel: AlertChannel,
        /// Every notification channel (1 to 10, distinct; newer servers, which reply with
        /// `channel` mirroring `channels[0]`).
        "channels" channels: Vec<AlertChannel>,
        /// The alert's name (1 to 512 characters).
        "name" name: Nullable<Text>,
        /// The notification message (1 to 4096 characters).
        "message" message: Nullable<Text>,
        /// A free-text note, markdown (1 to 4096 characters).
        "note" note: Nullable<Text>,
        /// Consecutive firing windows before notifying (at least 1).
        "numConsecutiveWindows" num_consecutive_windows: Nullable<u32>,
    }
}

impl AlertRequest {
    /// An alert on the saved search `saved_search_id`: fires when the value compares with
    /// `threshold` as `threshold_type` says, evaluated every `interval`, notifying `channel`.
    ///
    /// The request sends only what it is given: `channel` goes as `channel`, which every
    /// alerting server reads, and no `channels`. For several channels (newer servers), set
    /// [`channels`](Self::channels) too, starting with `channel`: the server requires
    /// `channel` to equal `channels[0]` when both are sent, and validation checks it. An older
    /// server, which knows only `channel`, then notifies that one.
    ///
    /// ```
    /// use pipe_api_types::{AlertChannel, AlertInterval, AlertRequest, ThresholdType, Validate};
    ///
    /// let ops = AlertChannel::webhook("65f5e4a3c9e77d0a1b2c3d4f");
    /// let pager = AlertChannel::webhook("65f5e4a3c9e77d0a1b2c3d50");
    /// let above = ThresholdType::Above;
    /// let one = AlertRequest::saved_search("s1", above, 100.0, AlertInterval::FiveMinutes, ops.clone());
    /// assert_eq!((one.channel.as_ref(), one.channels.as_ref()), (Some(&ops), None));
    /// let both = one.channels([ops, pager]);
    /// assert!(both.validate().is_ok());
    /// ```
    pub fn saved_search(
        saved_search_id: impl Into<Text>,
        threshold_type: ThresholdType,
        threshold: f64,
        interval: AlertInterval,
        channel: AlertChannel,
    ) -> Self {
        AlertRequest {
            saved_search_id: Some(Nullable::Value(saved_search_id.into())),
            ..Self::condition(AlertSource::SavedSearch)
        }
        .watch(threshold_type, threshold, interval, channel)
    }

    /// An alert on the tile `tile_id` of the dashboard `dashboard_id`; the rest, `channel`
    /// included, as [`AlertRequest::saved_search`].
    pub fn tile(
        dashboard_id: impl Into<Text>,
        tile_id: impl Into<Text>,
        threshold_type: ThresholdType,
        threshold: f64,
        interval: AlertInterval,
        channel: AlertChannel,
    ) -> Self {
        AlertRequest {
            dashboard_id: Some(Nullable::Value(dashboard_id.into())),
            tile_id: Some(Nullable::Value(tile_id.into())),
            ..Self::condition(AlertSource::Tile)
        }
        .watch(threshold_type, threshold, interval, channel)
    }

    fn condition(source: AlertSource) -> Self {
        AlertRequest { source: Some(source), ..Default::default() }
    }

    /// Sets the comparison and the one channel, as `channel` only: every server reads it, and a
    /// `PUT` with it alone makes it the alert's only channel, which is what the caller asked
    /// for. `channels` goes only when the caller sets it.
    fn watch(
        mut self,
        threshold_type: ThresholdType,
        threshold: f64,
        interval: AlertInterval,
        channel: AlertChannel,
    ) -> Self {
        self.threshold_type = Some(threshold_type);
        self.threshold = Some(threshold);
        self.interval = Some(interval);
        self.channel = Some(channel);
        self
    }
}

/// An alert as read, to send back in a `PUT`: every field the alert holds goes back, the
/// fields this crate does not model included (a `PUT` clears what it leaves out). The older
/// servers' `dashboard` and `savedSearch` go back under the names requests use
/// (`dashboardId`, `savedSearchId`). What only a response carries (`id`, `state`, the team,
/// `silenced`, `executionErrors`, `createdAt`, `updatedAt`) is not sent.
impl From<Alert> for AlertRequest {
    fn from(alert: Alert) -> Self {
        AlertRequest {
            dashboard_id: alert.dashboard_id.or(alert.dashboard).map(Nullable::Value),
            saved_search_id: alert.saved_search_id.or(alert.saved_search).map(Nullable::Value),
            source: alert.source,
            tile_id: alert.tile_id.map(Nullable::Value),
            group_by: alert.group_by.map(Nullable::Value),
            threshold: alert.threshold,
            threshold_max: alert.threshold_max.map(Nullable::Value),
            threshold_type: alert.threshold_type,
            interval: alert.interval,
            schedule_offset_minutes: alert.schedule_offset_minutes.map(Nullable::Value),
            schedule_start_at: alert.schedule_start_at.map(Nullable::Value),
            channel: alert.channel,
            channels: alert.channels,
            name: alert.name.map(Nullable::Value),
            message: alert.message.map(Nullable::Value),
            note: alert.note.map(Nullable::Value),
            num_consecutive_windows: alert.num_consecutive_windows.map(Nullable::Value),
            unknown: alert.unknown,
        }
    }
}

/// The most channels an alert may have (the alerting contract's `AlertChannels`).
const MAX_CHANNELS: usize = 10;

/// The largest schedule offset: one minute short of a day (the service notes).
const MAX_SCHEDULE_OFFSET_MINUTES: u32 = 1439;

impl Validate for AlertRequest {
    /// The alerting server's own checks of a create or update body, from the alerting contract
    /// (`CreateAlertRequest`, `UpdateAlertRequest`, `Alert`) and the service notes.
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            // Notes: `source` always; `saved_search` needs `savedSearchId`, `tile` needs
            // `dashboardId` and `tileId`, each non-empty.
            c.present("source", &self.source, Rule::Required, |_, _| {});
            c.known("source", &self.source);
            // `null` names no search, dashboard or tile: as good as absent here.
            let needs =
                |c: &mut Checker, name: &'static str, value: &Option<Nullable<Text>>, why: &'static str| match set(
                    value,
                ) {
                    None => c.fail_at(name, Rule::RequiredBecause(why)),
                    Some(text) if text.is_empty() => c.fail_at(name, Rule::NotBlank),
                    Some(_) => {}
                };
            match &self.source {
                Some(AlertSource::SavedSearch) => {
                    needs(c, "savedSearchId", &self.saved_search_id, "when source is saved_search");
                }
                Some(AlertSource::Tile) => {
                    needs(c, "dashboardId", &self.dashboard_id, "when source is tile");
                    needs(c, "tileId", &self.tile_id, "when source is tile");
                }
                _ => {}
            }
            // The contract: `threshold`, `interval` and `thresholdType` are required. Any
            // number on newer servers (older ones want >= 0, which only the server can know);
            // JSON has no NaN or infinity.
            c.present("threshold", &self.threshold, Rule::Required, |c, threshold| {
                if !threshold.is_finite() {
                    c.fail(Rule::FiniteNumber);
                }
            });
            c.present("thresholdType", &self.threshold_type, Rule::Required, |_, _| {});
            c.known("thresholdType", &self.threshold_type);
            c.present("interval", &self.interval, Rule::Required, |_, _| {});
            c.known("interval", &self.interval);
            // The contract: `thresholdMax` is "Required when thresholdType is between or
            // not_between, must be >= threshold".
            let bounded = matches!(self.threshold_type, Some(ThresholdType::Between | ThresholdType::NotBetween));
            match (set(&self.threshold_max).copied(), self.threshold) {
                (None, _) if bounded => {
                    c.fail_at("thresholdMax", Rule::RequiredBecause("when thresholdType is between or not_between"))
                }
                (Some(max), _) if !max.is_finite() => c.fail_at("thresholdMax", Rule::FiniteNumber),
                (Some(max), Some(min)) if max < min => c.fail_at("thresholdMax", Rule::NotLessThan("threshold")),
                _ => {}
            }
            // Notes: `scheduleOffsetMinutes` 0-1439 and below the interval's length in minutes,
            // and 0 when `scheduleStartAt` is set.
            if let Some(&offset) = set(&self.schedule_offset_minutes) {
                let below_interval = self.interval.as_ref().and_then(AlertInterval::minutes).map(|m| m - 1);
                let max = below_interval.map_or(MAX_SCHEDULE_OFFSET_MINUTES, |m| m.min(MAX_SCHEDULE_OFFSET_MINUTES));
                let max = if set(&self.schedule_start_at).is_some() { 0 } else { max };
                if offset > max {
                    c.fail_at("scheduleOffsetMinutes", Rule::Range { min: 0, max: i64::from(max) });
                }
            }
            check_channels(c, self);
            // Notes: `name` 1-512 characters, `message` and `note` 1-4096 (left out, never "").
            check_chars(c, "name", &self.name, 512);
            check_chars(c, "message", &self.message, 4096);
            check_chars(c, "note", &self.note, 4096);
            // The contract: `numConsecutiveWindows` has minimum 1.
            if set(&self.num_consecutive_windows) == Some(&0) {
                c.fail_at("numConsecutiveWindows", Rule::Min(1));
            }
        })
    }
}

/// The contract: at least one of `channel` and `channels`; `channels` holds 1 to 10, no
/// duplicates; when both are sent, `channel` equals `channels[0]`; each channel is a webhook
/// (`type` and `webhookId` required).
fn check_channels(c: &mut Checker, request: &AlertRequest) {
    let same = |a: &AlertChannel, b: &AlertChannel| a.kind == b.kind && a.webhook_id == b.webhook_id;
    let check_one = |c: &mut Checker, channel: &AlertChannel| {
        c.present("type", &channel.kind, Rule::Required, |_, _| {});
        c.known("type", &channel.kind);
        match &channel.webhook_id {
            None => c.fail_at("webhookId", Rule::Required),
            Some(id) if id.is_empty() => c.fail_at("webhookId", Rule::NotBlank),
            Some(_) => {}
        }
    };
    match (&request.channel, &request.channels) {
        (None, None) => c.fail_at("channels", Rule::RequiredBecause("when channel is not set")),
        (Some(channel), Some(channels)) if channels.first().is_some_and(|first| !same(channel, first)) => {
            c.fail_at("channel", Rule::Equals("channels[0]"));
        }
        _ => {}
    }
    if let Some(channel) = &request.channel {
        c.field("channel", |c| check_one(c, channel));
    }
    if let Some(channels) = &request.channels {
        c.field("channels", |c| {
            if channels.is_empty() {
                c.fail(Rule::MinItems(1));
            } else if channels.len() > MAX_CHANNELS {
                c.fail(Rule::MaxItems(MAX_CHANNELS));
            }
            c.each(channels, |c, channel| check_one(c, channel));
            for (i, channel) in channels.iter().enumerate() {
                if channels[..i].iter().any(|earlier| same(earlier, channel)) {
                    c.nested_index(i, |c| c.fail(Rule::UniqueItems));
                }
            }
        });
    }
}

/// A text, when present, from 1 to `max` characters.
fn check_chars(c: &mut Checker, name: &'static str, value: &Option<Nullable<Text>>, max: usize) {
    if let Some(text) = set(value) {
        if text.is_empty() || (text.len() > max && text.chars().count() > max) {
            c.fail_at(name, Rule::CharsBetween { min: 1, max });
        }
    }
}

model! {
    /// The pagination summary newer alerting servers add to a list (`meta`).
    pub struct PaginationMeta {
        /// How many alerts exist in all.
        "total" total: u64,
        /// The page size used.
        "limit" limit: u64,
        /// How many alerts were skipped.
        "offset" offset: u64,
    }
}

/// A page of alerts.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct AlertPage {
    /// The alerts (`data`, required).
    pub alerts: Vec<Alert>,
    /// The pagination summary (newer servers).
    pub meta: Option<PaginationMeta>,
    /// How many alerts exist in all, when the server says (`meta.total` or `X-Total-Count`):
    /// not in the body's `data`, so filled in by the client that read the answer's headers.
    pub total: Option<u64>,
    /// The answer's other top-level members, kept as received.
    pub unknown: crate::UnknownFields,
}

impl<'de> serde::Deserialize<'de> for AlertPage {
    fn deserialize<D: serde::Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct PageVisitor;

        impl<'de> serde::de::Visitor<'de> for PageVisitor {
            type Value = AlertPage;

            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("an AlertPage object")
            }

            fn visit_map<A: serde::de::MapAccess<'de>>(self, mut map: A) -> Result<AlertPage, A::Error> {
                let (mut alerts, mut meta) = (None, None);
                let mut unknown = crate::UnknownFields::new();
                while let Some(key) = map.next_key::<crate::unknown::FieldName<'de>>()? {
                    match key.as_str() {
                        // A repeated member is an error, as a derived `Deserialize` has it.
                        "data" if alerts.is_some() => return Err(serde::de::Error::duplicate_field("data")),
                        "data" => alerts = Some(map.next_value()?),
                        "meta" if meta.is_some() => return Err(serde::de::Error::duplicate_field("meta")),
                        "meta" => meta = Some(map.next_value::<Option<PaginationMeta>>()?),
                        name => unknown.insert_raw(name, &map.next_value::<Box<serde_json::value::RawValue>>()?),
                    }
                }
                let alerts = alerts.ok_or_else(|| serde::de::Error::missing_field("data"))?;
                Ok(AlertPage { alerts, meta: meta.flatten(), total: None, unknown })
            }
        }

        deserializer.deserialize_map(PageVisitor)
    }
}

impl crate::Vouch for AlertPage {
    fn vouch(&mut self) {
        self.alerts.vouch();
        self.meta.vouch();
        self.unknown.vouch();
    }
}
