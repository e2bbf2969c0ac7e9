//! `GET /api/v2/alerts`: the contract's `listAlerts`. The one endpoint written by hand, for its
//! query and its total; its metadata is its row.

use http::HeaderMap;
use pipe_api_types::{AlertPage, Rule, ValidationErrors, Violation};

use crate::api::Alerting;
use crate::decode::{Shape, SuccessDecodeError};
use crate::endpoint::Endpoint;
use crate::operation::Operation;
use crate::redact::SentSecrets;

operation! {
    /// Lists alerts, a page at a time (`ListAlerts` says which).
    alerts.list_alerts: ListAlerts(..)
        Alerting GET "api"/"v2"/"alerts" -> AlertPage;
}

/// The largest page the alerting server serves.
pub const MAX_ALERTS_LIMIT: u32 = 1000;

/// Lists alerts. `limit` and `offset` are sent only when set; older servers ignore them and
/// return every alert.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct ListAlerts {
    /// At most this many alerts (1 to 1000).
    pub limit: Option<u32>,
    /// Skip this many alerts.
    pub offset: Option<u64>,
}

impl ListAlerts {
    /// Lists every alert (the server's default page).
    pub fn new() -> Self {
        ListAlerts::default()
    }

    /// Asks for at most `limit` alerts.
    pub fn limit(mut self, limit: u32) -> Self {
        self.limit = Some(limit);
        self
    }

    /// Skips `offset` alerts.
    pub fn offset(mut self, offset: u64) -> Self {
        self.offset = Some(offset);
        self
    }
}

impl Endpoint for ListAlerts {
    type Api = Alerting;
    type Output = AlertPage;

    const METADATA: Operation = ListAlerts::ROW;

    /// The path has no parameters: it is the template.
    fn path(&self) -> String {
        Self::METADATA.path.to_owned()
    }

    fn query(&self) -> Vec<(String, String)> {
        let mut query = Vec::new();
        if let Some(limit) = self.limit {
            query.push(("limit".to_owned(), limit.to_string()));
        }
        if let Some(offset) = self.offset {
            query.push(("offset".to_owned(), offset.to_string()));
        }
        query
    }

    fn validate(&self) -> Result<(), ValidationErrors> {
        match self.limit {
            Some(limit) if !(1..=MAX_ALERTS_LIMIT).contains(&limit) => {
                let violation = Violation::new("limit", Rule::Range { min: 1, max: i64::from(MAX_ALERTS_LIMIT) });
                ValidationErrors::from_violations(vec![violation]).map_or(Ok(()), Err)
            }
            _ => Ok(()),
        }
    }

    fn complete(&self, page: &mut AlertPage, headers: &HeaderMap) {
        let header_total = || headers.get("x-total-count")?.to_str().ok()?.trim().parse::<u64>().ok();
        page.total = page.meta.as_ref().and_then(|meta| meta.total).or_else(header_total);
    }

    // The row's decode and state (`operations/row.rs`).
    fn decode_output(
        body: &[u8],
        shape: Option<Shape>,
        secrets: &SentSecrets,
    ) -> Result<(AlertPage, Option<String>), SuccessDecodeError> {
        ListAlerts::decode_output(body, shape, secrets)
    }

    fn output_state(page: &AlertPage) -> Option<&str> {
        ListAlerts::output_state(page)
    }
}
