//! What one operation is, as data ([`Operation`]): the type every endpoint's metadata is, and
//! the table's rows are. A leaf: the table and the endpoints import it, it imports neither.

use http::Method;

/// One operation as data: an endpoint's metadata ([`Endpoint::METADATA`](crate::Endpoint::METADATA)).
/// The table's are its rows, listed in [`OPERATIONS`](crate::operations::OPERATIONS); a user's
/// own endpoint makes its own with [`Operation::new`].
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Operation {
    /// Its name in errors and its `Client` method's name, such as `create_pipe`.
    pub name: &'static str,
    /// The interface it belongs to.
    pub interface: Interface,
    /// The HTTP method.
    pub method: Method,
    /// The path template, its parameters named after the endpoint's fields:
    /// `/v1/organizations/{organization_id}/services/{service_id}/pipes`. What a record of an
    /// attempt shows, with no id in it.
    pub path: &'static str,
    /// The endpoint type, such as `CreatePipe`.
    pub endpoint: &'static str,
    /// The request body's type, if it has one.
    pub request: Option<&'static str>,
    /// What a success decodes to, as the table writes it (`Pipe`, `Vec < Pipe >`, `()`).
    pub output: &'static str,
    /// Where a success body holds the output.
    pub success: SuccessBody,
}

impl Operation {
    /// The metadata of a user's own endpoint: its name (in errors), interface, method and path
    /// template; its success body is the output itself until [`success`](Operation::success)
    /// says otherwise. The table's columns that only document a row (endpoint, request and
    /// output type names) are left empty.
    pub const fn new(name: &'static str, interface: Interface, method: Method, path: &'static str) -> Self {
        Operation {
            name,
            interface,
            method,
            path,
            endpoint: "",
            request: None,
            output: "",
            success: SuccessBody::Output,
        }
    }

    /// The same, its success body held as `success` says.
    #[must_use]
    pub const fn success(mut self, success: SuccessBody) -> Self {
        self.success = success;
        self
    }

    /// Whether the output is a list (the whole collection in one answer, or a page).
    pub fn is_list(&self) -> bool {
        self.output.starts_with("Vec") || self.output == "AlertPage"
    }
}

/// Where a success body (within the interface's envelope, if it has one) holds an operation's
/// output, a column of the table (read in one place: `endpoint.rs`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum SuccessBody {
    /// The body is the output (the management interface: the envelope's `result`).
    Output,
    /// The body is `{"data": <output>}`, as the alerting interface answers with one alert.
    InData,
    /// The body carries nothing, for an output made from nothing (`()`): the alerting
    /// interface's deletes answer `{}` on newer servers and the plain text `OK` on older ones,
    /// both a success. An empty body and `null` are the same; any other body is decoded as
    /// usual (so a management envelope with no `result` still is one).
    Nothing,
}

/// The interface an [`Operation`] belongs to.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Interface {
    /// [`Management`](crate::Management): `/v1`, HTTP Basic, the `{status, requestId, result}`
    /// envelope.
    Management,
    /// [`Alerting`](crate::Alerting): `/api/v2`, a bearer token, no envelope.
    Alerting,
}
