//! `GET /api/v2/alerts/{alert_id}`: the contract's `getAlert`.

use pipe_api_types::{Alert, AlertId};

operation! {
    /// Reads an alert. The server answers `{"data": <alert>}`.
    alert.get_alert: GetAlert(alert_id: AlertId)
        Alerting GET "api"/"v2"/"alerts"/{alert_id} -> Alert, InData;
}
