//! Which role may call which operation: the one place the fake decides it, written from the
//! service notes ("Roles and permissions"). `admin` reads and writes everything; `developer`
//! reads organizations, services and keys and writes nothing, and lacks "manage pipes", so
//! every pipe and reverse-private-endpoint call is refused to it, reads included;
//! `query_endpoints` alone manages nothing. A role the fake does not know grants nothing.
//!
//! A call is first found in the table of operations (`pipe_api_proto::operations`, see
//! `routes`): a path no row has is not served, and a row is served only by its handler, which
//! says which [`Resource`] it touches; this file says which role may read or write which.

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

/// Whether any of `roles` (the key's `roles`, as its record writes them) may make the call of
/// `operation`, which touches `resource` (its handler says which): its resource granted for its
/// access (a read for `GET`).
pub(crate) fn may(roles: &[String], operation: &Operation, resource: Resource) -> bool {
    let access = if matches!(operation.method, Method::GET | Method::HEAD) { Read } else { Write };
    roles.iter().any(|role| {
        GRANTS.iter().any(|(granted, on, accesses)| *granted == role && *on == resource && accesses.contains(&access))
    })
}
