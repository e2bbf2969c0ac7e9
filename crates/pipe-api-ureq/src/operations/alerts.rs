//! Alerts.

use pipe_api_proto::{AlertPage, CreateAlert, DeleteAlert, Error, GetAlert, ListAlerts, UpdateAlert};
use pipe_api_types::{Alert, AlertId, AlertRequest};

use crate::Client;

impl Client {
    /// Lists alerts (`ListAlerts::new()` for the server's default page).
    pub fn list_alerts(&self, request: ListAlerts) -> Result<AlertPage, Error> {
        self.value(&request)
    }

    /// Creates an alert. Never re-sent automatically.
    pub fn create_alert(&self, request: AlertRequest) -> Result<Alert, Error> {
        self.value(&CreateAlert::new(request))
    }

    /// Reads an alert.
    pub fn get_alert(&self, alert_id: AlertId) -> Result<Alert, Error> {
        self.value(&GetAlert::new(alert_id))
    }

    /// Replaces an alert (`PUT`, a full replace: a field left out is cleared). Start from the
    /// alert as read, `AlertRequest::from(alert)`, to keep what this crate does not model.
    pub fn update_alert(&self, alert_id: AlertId, request: AlertRequest) -> Result<Alert, Error> {
        self.value(&UpdateAlert::new(alert_id, request))
    }

    /// Deletes an alert (newer servers answer `{}`, older ones `OK`: both are success).
    pub fn delete_alert(&self, alert_id: AlertId) -> Result<(), Error> {
        self.value(&DeleteAlert::new(alert_id))
    }
}
