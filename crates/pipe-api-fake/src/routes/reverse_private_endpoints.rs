//! `GET /v1/organizations/{organizationId}/services/{serviceId}/pipesReversePrivateEndpoints`.

use http::Method;
use pipe_api_types::ServiceId;

use super::{Call, Routed};
use crate::reply::{self, Answer, Refusal};

/// `.../services/{serviceId}/pipesReversePrivateEndpoints` and below (`rest` is what follows).
pub(super) fn route(call: &mut Call<'_>, method: &Method, service: ServiceId, rest: &[&str]) -> Routed {
    Some(match (method, rest) {
        (&Method::GET, []) => list(call, service),
        _ => return None,
    })
}

fn list(call: &mut Call<'_>, service: ServiceId) -> Result<Answer, Refusal> {
    let request_id = call.request_id;
    let stored = call.running_service(service)?;
    Ok(reply::management_ok(request_id, &stored.reverse_private_endpoints))
}
