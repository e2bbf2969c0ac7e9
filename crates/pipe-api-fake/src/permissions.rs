//! Which role may call which operation: the one place the fake decides it, written from the
//! service notes ("Roles and permissions"). `admin` reads and writes everything; `developer`
//! reads organizations, services and keys and writes nothing, and lacks "manage pipes", so
//! every pipe and reverse-private-endpoint call is refused to it, reads included;
//! `query_endpoints` alone manages nothing. A role the fake does not know grants nothing.
//!
//! A call is first found in the table of operations (`pipe_api_proto::operations`): a path no
//! row has is not served, and a row this file gives no resource is refused to every role, so a
//! new operation is closed until its grant is written here.

use http::Method;
use pipe_api_proto::operations::{Interface, OPERATIONS, Operation};

/// What an operation touches, as permissions are granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resource {
    /// The organization itself and its list of services: how ids are found.
    Organization,
    /// `.../keys` and below.
    Keys,
    /// `.../services/{id}` and its state.
    Services,
    /// Pipes, CDC scaling and reverse private endpoints: the "manage pipes" permission.
    Pipes,
}

/// Whether an operation only reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
}

use Access::{Read, Write};
use Resource::{Keys, Organization, Pipes, Services};

/// The grants, by role text: anything not listed is refused with 403.
const GRANTS: &[(&str, Resource, &[Access])] = &[
    ("admin", Organization, &[Read, Write]),
    ("admin", Keys, &[Read, Write]),
    ("admin", Services, &[Read, Write]),
    ("admin", Pipes, &[Read, Write]),
    ("developer", Organization, &[Read]),
    ("developer", Keys, &[Read]),
    ("developer", Services, &[Read]),
];

/// The row of the management call `method` on `segments` (the path below `/v1/`, decoded), if
/// the table has one: each literal segment equal, each `{parameter}` any one segment.
pub(crate) fn row(method: &Method, segments: &[&str]) -> Option<&'static Operation> {
    OPERATIONS.iter().filter(|op| op.interface == Interface::Management && op.method == *method).find(|op| {
        let template: Vec<&str> = op.path.trim_start_matches("/v1/").split('/').collect();
        template.len() == segments.len()
            && template.iter().zip(segments).all(|(part, segment)| part.starts_with('{') || part == segment)
    })
}

/// What an operation touches; `None` for one no grant covers yet (refused to every role).
pub(crate) fn resource(operation: &Operation) -> Option<Resource> {
    Some(match operation.name {
        "list_organizations" | "get_organization" | "list_services" => Organization,
        "list_keys" | "create_key" | "get_key" | "update_key" | "delete_key" => Keys,
        "get_service" | "update_service" | "delete_service" | "update_service_state" => Services,
        "list_pipes"
        | "create_pipe"
        | "get_pipe"
        | "update_pipe"
        | "delete_pipe"
        | "change_pipe_state"
        | "update_pipe_scaling"
        | "get_pipe_settings"
        | "update_pipe_settings"
        | "discover_pipe_schema"
        | "get_pipes_cdc_scaling"
        | "update_pipes_cdc_scaling"
        | "list_reverse_private_endpoints"
        | "create_reverse_private_endpoint"
        | "get_reverse_private_endpoint"
        | "update_reverse_private_endpoint"
        | "delete_reverse_private_endpoint" => Pipes,
        _ => return None,
    })
}

/// Whether any of `roles` (the key's `roles`, as its record writes them) may make the call of
/// `operation`: its resource granted for its access (a read for `GET`).
pub(crate) fn may(roles: &[String], operation: &Operation) -> bool {
    let Some(resource) = resource(operation) else { return false };
    let access = if matches!(operation.method, Method::GET | Method::HEAD) { Read } else { Write };
    roles.iter().any(|role| {
        GRANTS.iter().any(|(granted, on, accesses)| *granted == role && *on == resource && accesses.contains(&access))
    })
}
