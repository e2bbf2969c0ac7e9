//! `POST /api/v2/alerts`: the contract's `createAlert`.

use pipe_api_types::{Alert, AlertRequest};

operation! {
    /// Creates an alert. The server answers `{"data": <alert>}`. Never re-sent
    /// automatically.
    alerts.create_alert: CreateAlert(; request: AlertRequest)
        Alerting POST "api"/"v2"/"alerts" -> Alert, InData;
}
