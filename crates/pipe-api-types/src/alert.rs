//! Alerts of the alerting interface. Older servers name the references `team`, `dashboard` and
//! `savedSearch`; newer ones `teamId`, `dashboardId` and `savedSearchId`. Both are read and each
//! is written back under the name it came with; the `resolved_*` methods give whichever is set.

use time::OffsetDateTime;

use crate::AlertId;
use crate::Text;
use crate::codec::{decimal, rfc3339};

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
