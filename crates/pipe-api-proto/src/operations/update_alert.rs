//! `PUT /api/v2/alerts/{alert_id}`: the contract's `updateAlert`.

use pipe_api_types::{Alert, AlertId, AlertRequest};

operation! {
    /// Replaces an alert (`PUT`, a full replace: a field left out is cleared). Start from
    /// the alert as read, `AlertRequest::from(alert)`, to keep what this crate does not
    /// model.
    alert.update_alert: UpdateAlert(alert_id: AlertId; request: AlertRequest)
        Alerting PUT "api"/"v2"/"alerts"/{alert_id} -> Alert, InData;
}
