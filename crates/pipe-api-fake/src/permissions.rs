//! Which role may call which operation: the one place the fake decides it, written from the
//! service notes ("Roles and permissions"). `admin` reads and writes everything; `developer`
//! reads organizations, services and keys and writes nothing, and lacks "manage pipes", so
//! every pipe and reverse-private-endpoint call is refused to it, reads included;
//! `query_endpoints` alone manages nothing. A role the fake does not know grants nothing.
//!
//! A call is first found in the table of operations (`pipe_api_proto::operations`, see
//! `routes`): a path no row has is not served, and a row this file gives no resource is refused
//! to every role and token, so a new operation is closed until its grant is written here.

use http::Method;
use pipe_api_proto::operations::Operation;

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
    /// The alerting interface's alerts: its bearer token grants them all (it has no roles).
    Alerts,
}

/// Whether an operation only reads.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Access {
    Read,
    Write,
}

use Access::{Read, Write};
use Resource::{Alerts, Keys, Organization, Pipes, Services};

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

/// What each row touches, by its name; a row not listed is refused to every role (and to every
/// alerting token).
const RESOURCES: &[(&str, Resource)] = &[
    ("list_organizations", Organization),
    ("get_organization", Organization),
    ("update_organization", Organization),
    ("list_services", Organization),
    ("create_service", Organization),
    ("list_keys", Keys),
    ("create_key", Keys),
    ("get_key", Keys),
    ("update_key", Keys),
    ("delete_key", Keys),
    ("get_service", Services),
    ("update_service", Services),
    ("update_service_replica_scaling", Services),
    ("update_service_password", Services),
    ("delete_service", Services),
    ("update_service_state", Services),
    ("list_pipes", Pipes),
    ("create_pipe", Pipes),
    ("get_pipe", Pipes),
    ("update_pipe", Pipes),
    ("delete_pipe", Pipes),
    ("change_pipe_state", Pipes),
    ("update_pipe_scaling", Pipes),
    ("get_pipe_settings", Pipes),
    ("update_pipe_settings", Pipes),
    ("discover_pipe_schema", Pipes),
    ("get_pipes_cdc_scaling", Pipes),
    ("update_pipes_cdc_scaling", Pipes),
    ("list_reverse_private_endpoints", Pipes),
    ("create_reverse_private_endpoint", Pipes),
    ("get_reverse_private_endpoint", Pipes),
    ("update_reverse_private_endpoint", Pipes),
    ("delete_reverse_private_endpoint", Pipes),
    ("list_alerts", Alerts),
    ("create_alert", Alerts),
    ("get_alert", Alerts),
    ("update_alert", Alerts),
    ("delete_alert", Alerts),
];

/// What an operation touches; `None` for one no grant covers yet (refused to every role).
pub(crate) fn resource(operation: &Operation) -> Option<Resource> {
    RESOURCES.iter().find(|(name, _)| *name == operation.name).map(|(_, resource)| *resource)
}

/// The names [`RESOURCES`] gives a resource (checked against the table by the tests).
#[cfg(test)]
pub(crate) fn named() -> impl Iterator<Item = &'static str> {
    RESOURCES.iter().map(|(name, _)| *name)
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
