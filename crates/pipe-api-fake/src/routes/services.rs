//! `GET /v1/organizations/{organizationId}/services/{serviceId}`.

use pipe_api_types::ServiceId;

use super::Call;
use crate::reply::{self, Answer, Refusal};

pub(super) fn get(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    // Reading the service itself works when it is idle; only pipe calls need it running.
    let stored = call.state.service_mut(call.organization, service).ok_or_else(|| Refusal::not_found(service))?;
    Ok(reply::management_ok(call.request_id, &stored.service))
}
