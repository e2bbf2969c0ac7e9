//! The table of operations: every operation of both reference contracts, one module each
//! (`operations/<name>.rs`, named as the operation and its `Client` method are), its row read by
//! one macro that declares its endpoint. The endpoint types, the `Client` and scoped methods of
//! `pipe-api-ureq`, [`OPERATIONS`] (which the tests iterate) and its table in these docs all come
//! from the modules listed below, so an operation cannot be missing from one of them.
//!
//! Management paths are under `/v1/organizations/{organization_id}`; alerting paths under
//! `/api/v2`. Any other call of the platform goes through [`Raw`](crate::Raw), with the same
//! authentication, retries and errors. Each operation's name is also its `Client` method's.
//!
//! Deletes return `()` (the management envelope has no `result`; older alerting servers answer
//! the text `OK`). Creates are never re-sent automatically (see [what is
//! retried](crate::reliability#what-is-retried)). The two full replaces (`PUT` settings, `PUT`
//! alert) keep every field this crate does not model when a value read is written back.
//!
//! Waiting: the client's `wait_for_pipe`, `wait_for_service`, and `wait` for any endpoint and
//! condition, all driven by [`Wait`](crate::wait::Wait); paging the alerts:
//! [`Pages`](crate::pages::Pages).
//!
//! Adding an operation, every step:
//! 1. its models in `pipe-api-types` (and, for a query, its type's `Query` impl in `endpoint.rs`;
//!    for a new output model with a state, its `HasState` impl beside it, which a wait names);
//! 2. its module here, `operations/<name>.rs`: one row (the grammar is in `row.rs`), and one line
//!    naming it in the list below;
//! 3. its handler in the fake (`pipe-api-fake/src/routes/<resource>.rs`), keyed by its endpoint
//!    type and naming the resource it touches for the grants, and its body's check
//!    (`checks/<resource>.rs`; a new such file is a line in `checks/mod.rs`): a row with no
//!    handler is not served, and the fake's tests name it;
//! 4. its fixtures in the workspace's `tests/tests/it/fixtures/operations/<name>/` (a success
//!    `ok*`, an error `<status>_*`, and `request*.json` for a body) and its snapshots in
//!    `tests/tests/it/snapshots/operations/<name>/`: one harness sends and reads them for every
//!    row, and names what a row lacks;
//! 5. its one entry in this crate's `CHANGELOG.md`: the row, its models, its method on the client
//!    and what the fake does with it (the other crates' changelogs do not repeat it).

#[macro_use]
pub(crate) mod row;

pub use crate::operation::{Interface, Operation, SuccessBody};

/// The operation named `name`, if the table has one.
pub fn operation(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|operation| operation.name == name)
}

operation_modules! {
    // Organizations: where the ids every other call needs come from.
    list_organizations: ListOrganizations,
    get_organization: GetOrganization,
    update_organization: UpdateOrganization,
    // Keys.
    list_keys: ListKeys,
    create_key: CreateKey,
    get_key: GetKey,
    update_key: UpdateKey,
    delete_key: DeleteKey,
    // Services.
    list_services: ListServices,
    create_service: CreateService,
    get_service: GetService,
    update_service: UpdateService,
    update_service_replica_scaling: UpdateServiceReplicaScaling,
    update_service_password: UpdateServicePassword,
    delete_service: DeleteService,
    update_service_state: UpdateServiceState,
    // Pipes.
    list_pipes: ListPipes,
    create_pipe: CreatePipe,
    get_pipe: GetPipe,
    update_pipe: UpdatePipe,
    delete_pipe: DeletePipe,
    change_pipe_state: ChangePipeState,
    update_pipe_scaling: UpdatePipeScaling,
    get_pipe_settings: GetPipeSettings,
    update_pipe_settings: UpdatePipeSettings,
    discover_pipe_schema: DiscoverPipeSchema,
    get_pipes_cdc_scaling: GetPipesCdcScaling,
    update_pipes_cdc_scaling: UpdatePipesCdcScaling,
    // Reverse private endpoints.
    list_reverse_private_endpoints: ListReversePrivateEndpoints,
    create_reverse_private_endpoint: CreateReversePrivateEndpoint,
    get_reverse_private_endpoint: GetReversePrivateEndpoint,
    update_reverse_private_endpoint: UpdateReversePrivateEndpoint,
    delete_reverse_private_endpoint: DeleteReversePrivateEndpoint,
    // Alerts.
    list_alerts: ListAlerts,
    create_alert: CreateAlert,
    get_alert: GetAlert,
    update_alert: UpdateAlert,
    delete_alert: DeleteAlert,
}

#[cfg(test)]
mod tests {
    use super::OPERATIONS;

    /// Two rows of one name would be one `Client` method twice; two of one method and path, a
    /// call the fake could not tell apart.
    #[test]
    fn no_two_rows_share_a_name_or_a_call() {
        for (at, row) in OPERATIONS.iter().enumerate() {
            for other in &OPERATIONS[at + 1..] {
                assert_ne!(row.name, other.name);
                assert!(row.method != other.method || row.path != other.path, "{} and {}", row.name, other.name);
            }
        }
    }
}
