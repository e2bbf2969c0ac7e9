//! `DELETE /api/v2/alerts/{alert_id}`: the contract's `deleteAlert`.

use pipe_api_types::AlertId;

operation! {
    /// Deletes an alert (newer servers answer `{}`, older ones `OK`: both are success).
    alert.delete_alert: DeleteAlert(alert_id: AlertId)
        Alerting DELETE "api"/"v2"/"alerts"/{alert_id} -> (), Nothing;
}
