//! `GET /v1/organizations/{organizationId}/services/{serviceId}`.

use http::Method;
use pipe_api_types::ServiceId;

use super::{Call, Routed};
use crate::reply::{self, Answer, Refusal};

/// `.../services/{serviceId}` and what is below it but pipes and endpoints.
pub(super) fn route(call: &mut Call<'_>, method: &Method, service: ServiceId, rest: &[&str]) -> Routed {
    Some(match (method, rest) {
        (&Method::GET, []) => get(call, service),
        _ => return None,
    })
}

fn get(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    // Reading the service itself works when it is idle; only pipe calls need it running.
    let stored = call.state.service_mut(call.organization, service).ok_or_else(|| Refusal::not_found(service))?;
    Ok(reply::management_ok(call.request_id, &stored.service))
}
