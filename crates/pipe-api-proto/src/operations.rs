//! Every operation of both reference contracts (31), each with a request snapshot, fixtures and
//! an end-to-end test against the fake. (This module holds documentation only.)
//!
//! Management paths are under `/v1/organizations/{organizationId}` (`…/services/{serviceId}`
//! shortened to `…/{svc}`); alerting paths under `/api/v2`. Any other call of the platform goes
//! through [`Raw`](crate::Raw), with the same authentication, retries and errors. The `Client`
//! methods are `pipe-api-ureq`'s.
//!
//! | resource | operation | method and path | `Client` method | proto endpoint |
//! |---|---|---|---|---|
//! | keys | list | `GET /keys` | `list_keys` | [`ListKeys`](crate::ListKeys) |
//! | keys | create | `POST /keys` | `create_key` | [`CreateKey`](crate::CreateKey) |
//! | keys | get | `GET /keys/{keyId}` | `get_key` | [`GetKey`](crate::GetKey) |
//! | keys | update | `PATCH /keys/{keyId}` | `update_key` | [`UpdateKey`](crate::UpdateKey) |
//! | keys | delete | `DELETE /keys/{keyId}` | `delete_key` | [`DeleteKey`](crate::DeleteKey) |
//! | services | get | `GET /services/{svc}` | `get_service` | [`GetService`](crate::GetService) |
//! | services | update | `PATCH /services/{svc}` | `update_service` | [`UpdateService`](crate::UpdateService) |
//! | services | delete | `DELETE /services/{svc}` | `delete_service` | [`DeleteService`](crate::DeleteService) |
//! | services | start, stop, awake | `PATCH /services/{svc}/state` | `update_service_state` | [`UpdateServiceState`](crate::UpdateServiceState) |
//! | pipes | list | `GET …/{svc}/pipes` | `list_pipes` | [`ListPipes`](crate::ListPipes) |
//! | pipes | create | `POST …/{svc}/pipes` | `create_pipe` | [`CreatePipe`](crate::CreatePipe) |
//! | pipes | get | `GET …/{svc}/pipes/{pipeId}` | `get_pipe` | [`GetPipe`](crate::GetPipe) |
//! | pipes | update | `PATCH …/{svc}/pipes/{pipeId}` | `update_pipe` | [`UpdatePipe`](crate::UpdatePipe) |
//! | pipes | delete | `DELETE …/{svc}/pipes/{pipeId}` | `delete_pipe` | [`DeletePipe`](crate::DeletePipe) |
//! | pipes | start, stop, resync | `PATCH …/{svc}/pipes/{pipeId}/state` | `change_pipe_state` | [`ChangePipeState`](crate::ChangePipeState) |
//! | pipes | scaling | `PATCH …/{svc}/pipes/{pipeId}/scaling` | `update_pipe_scaling` | [`UpdatePipeScaling`](crate::UpdatePipeScaling) |
//! | pipes | settings | `GET …/{svc}/pipes/{pipeId}/settings` | `get_pipe_settings` | [`GetPipeSettings`](crate::GetPipeSettings) |
//! | pipes | settings (full replace) | `PUT …/{svc}/pipes/{pipeId}/settings` | `update_pipe_settings` | [`UpdatePipeSettings`](crate::UpdatePipeSettings) |
//! | pipes | schema discovery | `POST …/{svc}/pipes/schemaDiscovery` | `discover_pipe_schema` | [`DiscoverPipeSchema`](crate::DiscoverPipeSchema) |
//! | pipes | CDC scaling | `GET …/{svc}/pipesCdcScaling` | `get_pipes_cdc_scaling` | [`GetPipesCdcScaling`](crate::GetPipesCdcScaling) |
//! | pipes | CDC scaling | `PATCH …/{svc}/pipesCdcScaling` | `update_pipes_cdc_scaling` | [`UpdatePipesCdcScaling`](crate::UpdatePipesCdcScaling) |
//! | reverse private endpoints | list | `GET …/{svc}/pipesReversePrivateEndpoints` | `list_reverse_private_endpoints` | [`ListReversePrivateEndpoints`](crate::ListReversePrivateEndpoints) |
//! | reverse private endpoints | create | `POST …/{svc}/pipesReversePrivateEndpoints` | `create_reverse_private_endpoint` | [`CreateReversePrivateEndpoint`](crate::CreateReversePrivateEndpoint) |
//! | reverse private endpoints | get | `GET …/{svc}/pipesReversePrivateEndpoints/{id}` | `get_reverse_private_endpoint` | [`GetReversePrivateEndpoint`](crate::GetReversePrivateEndpoint) |
//! | reverse private endpoints | update | `PATCH …/{svc}/pipesReversePrivateEndpoints/{id}` | `update_reverse_private_endpoint` | [`UpdateReversePrivateEndpoint`](crate::UpdateReversePrivateEndpoint) |
//! | reverse private endpoints | delete | `DELETE …/{svc}/pipesReversePrivateEndpoints/{id}` | `delete_reverse_private_endpoint` | [`DeleteReversePrivateEndpoint`](crate::DeleteReversePrivateEndpoint) |
//! | alerts | list (paged) | `GET /api/v2/alerts` | `list_alerts`, `alert_pages` | [`ListAlerts`](crate::ListAlerts) |
//! | alerts | create | `POST /api/v2/alerts` | `create_alert` | [`CreateAlert`](crate::CreateAlert) |
//! | alerts | get | `GET /api/v2/alerts/{id}` | `get_alert` | [`GetAlert`](crate::GetAlert) |
//! | alerts | update (full replace) | `PUT /api/v2/alerts/{id}` | `update_alert` | [`UpdateAlert`](crate::UpdateAlert) |
//! | alerts | delete | `DELETE /api/v2/alerts/{id}` | `delete_alert` | [`DeleteAlert`](crate::DeleteAlert) |
//!
//! Deletes return `()` (the management envelope has no `result`; older alerting servers answer
//! the text `OK`). Creates are never re-sent automatically (see [what is
//! retried](crate::reliability#what-is-retried)). The two full replaces (`PUT` settings, `PUT`
//! alert) keep every field this crate does not model when a value read is written back.
//!
//! Waiting: the client's `wait_for_pipe`, `wait_for_service`, and `wait` for any endpoint and
//! condition, all driven by [`Wait`](crate::wait::Wait); paging the alerts:
//! [`Pages`](crate::pages::Pages).
