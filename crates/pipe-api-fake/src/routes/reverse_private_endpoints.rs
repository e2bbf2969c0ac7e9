//! `GET /v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints`.

use pipe_api_types::ServiceId;

use super::Call;
use crate::reply::{self, Answer, Refusal};

pub(super) fn list(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    Ok(reply::management_ok(request_id, &stored.reverse_private_endpoints))
}
