//! Which role may call which operation: the one place the fake decides it, written from the
//! service notes ("Roles and permissions"). `admin` reads and writes everything; `developer`
//! reads services and keys and writes nothing, and lacks "manage pipes", so every pipe and
//! reverse-private-endpoint call is refused to it, reads included; `query_endpoints` alone
//! manages nothing. A role the fake does not know grants nothing.

use http::Method;

/// What an operation touches, as permissions are granted.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Resource {
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
use Resource::{Keys, Pipes, Services};

/// The grants, by role text: anything not listed is refused with 403.
const GRANTS: &[(&str, Resource, &[Access])] = &[
    ("admin", Keys, &[Read, Write]),
    ("admin", Services, &[Read, Write]),
    ("admin", Pipes, &[Read, Write]),
    ("developer", Keys, &[Read]),
    ("developer", Services, &[Read]),
];

/// What the management call `method` on the path below the organization (`tail`) touches;
/// `None` for a path the fake does not route (it then answers as not modelled).
pub(crate) fn operation(method: &Method, tail: &[&str]) -> Option<(Resource, Access)> {
    let resource = match tail {
        ["keys", ..] => Keys,
        ["services", _, "pipes" | "pipesCdcScaling" | "pipesReversePrivateEndpoints", ..] => Pipes,
        ["services", _, ..] => Services,
        _ => return None,
    };
    let access = if matches!(*method, Method::GET | Method::HEAD) { Read } else { Write };
    Some((resource, access))
}

/// Whether any of `roles` (the key's `roles`, as its record writes them) grants `access` to
/// `resource`.
pub(crate) fn may(roles: &[String], resource: Resource, access: Access) -> bool {
    roles.iter().any(|role| {
        GRANTS.iter().any(|(granted, on, accesses)| *granted == role && *on == resource && accesses.contains(&access))
    })
}
