//! Alerts.

use pipe_api_proto::{AlertPage, Error, ListAlerts};

use crate::Client;

impl Client {
    /// Lists alerts (`ListAlerts::new()` for the server's default page).
    pub fn list_alerts(&self, request: ListAlerts) -> Result<AlertPage, Error> {
        self.value(&request)
    }
}
