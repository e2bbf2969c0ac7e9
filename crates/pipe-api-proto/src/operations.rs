//! The table of operations: every operation of both reference contracts, declared once in
//! [`operations!`](crate::operations!). The endpoint types, the `Client` methods of
//! `pipe-api-ureq`, [`OPERATIONS`] (which the tests iterate) and its table in these docs all
//! come from it, so an operation cannot be missing from one of them.
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
//! Adding an operation, every step (the files outside the models, fixtures and snapshots: three,
//! and one more for a new output type):
//! 1. its models in `pipe-api-types` (and a query type's `Query` impl in `endpoint.rs`);
//! 2. one row below (its endpoint, metadata, `Client` and scoped methods and test dispatch come
//!    from it); a new output type, its line in `decode.rs`'s `outputs!` (the compiler asks for
//!    it; a new path id type, its `Sample` in the workspace's `tests/src/every_operation.rs`);
//! 3. its handler in the fake, in its resource's `HANDLERS` (`pipe-api-fake/src/routes/`), and
//!    its grant in the fake's `permissions.rs` (`RESOURCES`); a row with no handler or no grant
//!    is refused;
//! 4. its fixtures in `pipe-api-proto/tests/it/fixtures/operations/<name>/` (a success `ok*` and
//!    an error `<status>_*`, and `request*.json` for a body) and its request snapshot.
//!
//! The fake's own tests name a row it has no handler or grant for (3); the workspace's
//! `tests/it/every_operation.rs` names, per row, the fixtures and snapshot it lacks (4).

use http::Method;

/// One operation as data: an endpoint's metadata ([`Endpoint::METADATA`](crate::Endpoint::METADATA)).
/// The table's are its rows, listed in [`OPERATIONS`]; a user's own endpoint makes its own with
/// [`Operation::new`].
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

/// The operation named `name`, if the table has one.
pub fn operation(name: &str) -> Option<&'static Operation> {
    OPERATIONS.iter().find(|operation| operation.name == name)
}

/// The table of operations, handed to `$callback` (a macro) as rows parsed by
/// [`__operation_rows!`](crate::__operation_rows!); the types are named as `pipe_api_types` and
/// proto's root export them, so the callback's module imports those. Each row reads:
///
/// ```text
/// /// Docs of the endpoint and of the `Client` method.
/// name: Endpoint(path_field: Type, ...; body_field: BodyType) Interface METHOD "literal"/{path_field}/... -> Output, Shape;
/// ```
///
/// The fields in parentheses are the endpoint's, in the order its `new` and the `Client` method
/// take them; the one after `;`, if any, is the JSON body (`new` takes anything `Into` it).
/// `; name: Type as query` instead of a body gives the endpoint a query of that type (set with
/// a method of its name, its default asking for everything), which the `Client` method takes
/// last. `(..)` marks an endpoint written by hand (the alert list, for its pages). The path's
/// literals and fields are segments, fields encoded. The shape (`InData`, `Nothing`) says how a
/// success carries the output when the body is not simply the output
/// ([`SuccessBody`](crate::SuccessBody)).
#[doc(hidden)]
#[macro_export]
macro_rules! operations {
    ($callback:path) => {
        $crate::__operation_rows! { $callback []
            // Organizations: where the ids every other call needs come from.
            /// Lists the organizations the key reaches (the one it belongs to).
            list_organizations: ListOrganizations()
                Management GET "v1"/"organizations" -> Vec<Organization>;
            /// Reads an organization.
            get_organization: GetOrganization(organization_id: OrganizationId)
                Management GET "v1"/"organizations"/{organization_id} -> Organization;
            /// Changes an organization: only what the request names (admin keys only).
            update_organization: UpdateOrganization(organization_id: OrganizationId; request: UpdateOrganizationRequest)
                Management PATCH "v1"/"organizations"/{organization_id} -> Organization;

            // Keys.
            /// Lists the API keys of an organization.
            list_keys: ListKeys(organization_id: OrganizationId)
                Management GET "v1"/"organizations"/{organization_id}/"keys" -> Vec<Key>;
            /// Creates an API key. The answer holds the key secret, once. Never re-sent
            /// automatically: after a failure whose outcome is unknown, list the keys first.
            create_key: CreateKey(organization_id: OrganizationId; request: CreateKeyRequest)
                Management POST "v1"/"organizations"/{organization_id}/"keys" -> CreateKeyResponse;
            /// Reads an API key.
            get_key: GetKey(organization_id: OrganizationId, key_id: KeyId)
                Management GET "v1"/"organizations"/{organization_id}/"keys"/{key_id} -> Key;
            /// Changes an API key: only what the request names.
            update_key: UpdateKey(organization_id: OrganizationId, key_id: KeyId; request: UpdateKeyRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"keys"/{key_id} -> Key;
            /// Deletes an API key (the server refuses to delete the key the request is made with).
            delete_key: DeleteKey(organization_id: OrganizationId, key_id: KeyId)
                Management DELETE "v1"/"organizations"/{organization_id}/"keys"/{key_id} -> ();

            // Services.
            /// Lists the services of an organization as full records (no pagination): those
            /// carrying the tags a `ServiceFilter` names, every one for `ServiceFilter::any()`
            /// (the `Client`'s `list_all_services` is that plain call).
            list_services: ListServices(organization_id: OrganizationId; filter: ServiceFilter as query)
                Management GET "v1"/"organizations"/{organization_id}/"services" -> Vec<Service>;
            /// Creates a service. The answer holds the new service, normally `provisioning`
            /// (it reaches `running` on its own), and its default user's password, shown this
            /// once. Never re-sent automatically: names are not unique, so after a failure whose
            /// outcome is unknown, list the services and look for the name before creating again.
            create_service: CreateService(organization_id: OrganizationId; request: CreateServiceRequest)
                Management POST "v1"/"organizations"/{organization_id}/"services" -> CreateServiceResponse;
            /// Reads a service.
            get_service: GetService(organization_id: OrganizationId, service_id: ServiceId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id} -> Service;
            /// Changes a service: only what the request names.
            update_service: UpdateService(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServiceRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id} -> Service;
            /// Changes a service's replica scaling and idling: only what the request names. The
            /// answer is the service with the scaling in effect (`currentScaling`); the server
            /// applies the change asynchronously, so a later read shows it once applied.
            update_service_replica_scaling: UpdateServiceReplicaScaling(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServiceReplicaScalingRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"replicaScaling" -> Service;
            /// Sets a service's default user's password: to the one whose hash the request
            /// sends (nothing secret is answered), or to one the server generates and answers
            /// this once (`UpdateServicePasswordRequest::generate`). Never re-sent automatically.
            update_service_password: UpdateServicePassword(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServicePasswordRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"password" -> UpdateServicePasswordResponse;
            /// Deletes a service (it must be stopped first).
            delete_service: DeleteService(organization_id: OrganizationId, service_id: ServiceId)
                Management DELETE "v1"/"organizations"/{organization_id}/"services"/{service_id} -> ();
            /// Starts, stops or wakes a service (a `ServiceCommand` converts into the request).
            update_service_state: UpdateServiceState(organization_id: OrganizationId, service_id: ServiceId; request: UpdateServiceStateRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"state" -> Service;

            // Pipes.
            /// Lists the pipes of a service (no pagination: every pipe comes back).
            list_pipes: ListPipes(organization_id: OrganizationId, service_id: ServiceId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes" -> Vec<Pipe>;
            /// Creates a pipe (beta). The server answers with the new pipe, normally
            /// `Provisioning`. Never re-sent automatically: after a failure whose outcome is
            /// unknown, list the pipes before creating again.
            create_pipe: CreatePipe(organization_id: OrganizationId, service_id: ServiceId; request: CreatePipeRequest)
                Management POST "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes" -> Pipe;
            /// Reads a pipe.
            get_pipe: GetPipe(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id} -> Pipe;
            /// Changes a pipe: only what the request names. A database pipe's tables can be
            /// added or removed only while it is paused.
            update_pipe: UpdatePipe(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: UpdatePipeRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id} -> Pipe;
            /// Deletes a pipe. The server answers an envelope without a result; reading the
            /// pipe afterwards answers `404`.
            delete_pipe: DeletePipe(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId)
                Management DELETE "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id} -> ();
            /// Starts, stops or resyncs a pipe (a `PipeCommand` converts into the request). The
            /// answer is the pipe as the command left it (such as `Stopping`); its state then
            /// moves on its own: wait for it with a poll.
            change_pipe_state: ChangePipeState(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: ChangePipeStateRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"state" -> Pipe;
            /// Changes a pipe's scaling (replicas, CPU and memory per replica).
            update_pipe_scaling: UpdatePipeScaling(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; request: UpdatePipeScalingRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"scaling" -> Pipe;
            /// Reads a pipe's settings.
            get_pipe_settings: GetPipeSettings(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"settings" -> PipeSettings;
            /// Replaces a pipe's settings (`PUT`, a full replace: a setting left out returns to
            /// its default). Start from the settings as read to keep what this crate does not
            /// model.
            update_pipe_settings: UpdatePipeSettings(organization_id: OrganizationId, service_id: ServiceId, pipe_id: PipeId; settings: PipeSettings)
                Management PUT "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/{pipe_id}/"settings" -> PipeSettings;
            /// Discovers the schema a source would bring in, before creating the pipe.
            discover_pipe_schema: DiscoverPipeSchema(organization_id: OrganizationId, service_id: ServiceId; request: PipeSchemaDiscoveryRequest)
                Management POST "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipes"/"schemaDiscovery" -> PipeSchemaDiscoveryResponse;
            /// Reads the scaling shared by a service's database (CDC) pipes.
            get_pipes_cdc_scaling: GetPipesCdcScaling(organization_id: OrganizationId, service_id: ServiceId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesCdcScaling" -> PipesCdcScaling;
            /// Changes the scaling shared by a service's database (CDC) pipes.
            update_pipes_cdc_scaling: UpdatePipesCdcScaling(organization_id: OrganizationId, service_id: ServiceId; request: PipesCdcScaling)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesCdcScaling" -> PipesCdcScaling;

            // Reverse private endpoints.
            /// Lists the reverse private endpoints of a service.
            list_reverse_private_endpoints: ListReversePrivateEndpoints(organization_id: OrganizationId, service_id: ServiceId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints" -> Vec<ReversePrivateEndpoint>;
            /// Creates a reverse private endpoint, which pipes use to reach a private source.
            /// Never re-sent automatically.
            create_reverse_private_endpoint: CreateReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId; request: CreateReversePrivateEndpointRequest)
                Management POST "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints" -> ReversePrivateEndpoint;
            /// Reads a reverse private endpoint.
            get_reverse_private_endpoint: GetReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId)
                Management GET "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints"/{endpoint_id} -> ReversePrivateEndpoint;
            /// Changes a reverse private endpoint: only what the request names.
            update_reverse_private_endpoint: UpdateReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId; request: UpdateReversePrivateEndpointRequest)
                Management PATCH "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints"/{endpoint_id} -> ReversePrivateEndpoint;
            /// Deletes a reverse private endpoint.
            delete_reverse_private_endpoint: DeleteReversePrivateEndpoint(organization_id: OrganizationId, service_id: ServiceId, endpoint_id: ReversePrivateEndpointId)
                Management DELETE "v1"/"organizations"/{organization_id}/"services"/{service_id}/"pipesReversePrivateEndpoints"/{endpoint_id} -> ();

            // Alerts.
            /// Lists alerts, a page at a time (`ListAlerts` says which).
            list_alerts: ListAlerts(..)
                Alerting GET "api"/"v2"/"alerts" -> AlertPage;
            /// Creates an alert. The server answers `{"data": <alert>}`. Never re-sent
            /// automatically.
            create_alert: CreateAlert(; request: AlertRequest)
                Alerting POST "api"/"v2"/"alerts" -> Alert, InData;
            /// Reads an alert. The server answers `{"data": <alert>}`.
            get_alert: GetAlert(alert_id: AlertId)
                Alerting GET "api"/"v2"/"alerts"/{alert_id} -> Alert, InData;
            /// Replaces an alert (`PUT`, a full replace: a field left out is cleared). Start from
            /// the alert as read, `AlertRequest::from(alert)`, to keep what this crate does not
            /// model.
            update_alert: UpdateAlert(alert_id: AlertId; request: AlertRequest)
                Alerting PUT "api"/"v2"/"alerts"/{alert_id} -> Alert, InData;
            /// Deletes an alert (newer servers answer `{}`, older ones `OK`: both are success).
            delete_alert: DeleteAlert(alert_id: AlertId)
                Alerting DELETE "api"/"v2"/"alerts"/{alert_id} -> (), Nothing;
        }
    };
}

/// Parses the table's rows one at a time (the only macro that reads their grammar) and hands
/// them all to `$callback` in one form, every column explicit and in this order:
///
/// ```text
/// {
///     docs: [#[doc = "..."] ...],
///     name: create_key,
///     endpoint: CreateKey,
///     declared: table,                    // or `hand`: written by hand, `(..)`
///     fields: [organization_id: OrganizationId],
///     body: [request: CreateKeyRequest],  // or []
///     query: [],                          // or [filter: ServiceFilter]
///     interface: Management,
///     method: POST,
///     path: ["v1"/"organizations"/{organization_id}/"keys"],
///     output: CreateKeyResponse,
///     success: Output,                    // the shape written, else `Output`
/// }
/// ```
///
/// A callback matches every column up to the last it uses and the rest as `$($more:tt)*`, so a
/// new column, added last, is one edit here and one in each callback that reads it.
#[doc(hidden)]
#[macro_export]
macro_rules! __operation_rows {
    // The next row: its fields are told apart in `@fields`, its shape defaulted there (the
    // first of `[Shape Output]` or `[Output]`).
    ($callback:path [$($parsed:tt)*]
        $(#[$doc:meta])*
        $name:ident : $endpoint:ident $fields:tt $api:ident $method:ident $($segment:tt)/+ -> $output:ty $(, $shape:ident)?;
        $($rest:tt)*
    ) => {
        $crate::__operation_rows! { @fields $fields [$($shape)? Output] $callback [$($parsed)*]
            [docs: [$(#[$doc])*], name: $name, endpoint: $endpoint,]
            [interface: $api, method: $method, path: [$($segment)/+], output: $output,]
            $($rest)*
        }
    };
    // Every row parsed.
    ($callback:path [$($parsed:tt)*]) => {
        $callback! { $($parsed)* }
    };
    (@fields (..) [$success:ident $($default:ident)?] $callback:path [$($parsed:tt)*] [$($head:tt)*] [$($tail:tt)*] $($rest:tt)*) => {
        $crate::__operation_rows! { $callback [$($parsed)* {
            $($head)* declared: hand, fields: [], body: [], query: [], $($tail)* success: $success,
        }] $($rest)* }
    };
    (
        @fields ($($field:ident : $type:ty),* ; $query:ident : $query_type:ty as query) [$success:ident $($default:ident)?]
        $callback:path [$($parsed:tt)*] [$($head:tt)*] [$($tail:tt)*] $($rest:tt)*
    ) => {
        $crate::__operation_rows! { $callback [$($parsed)* {
            $($head)* declared: table, fields: [$($field: $type),*], body: [], query: [$query: $query_type],
            $($tail)* success: $success,
        }] $($rest)* }
    };
    (
        @fields ($($field:ident : $type:ty),* $(; $body:ident : $body_type:ty)?) [$success:ident $($default:ident)?]
        $callback:path [$($parsed:tt)*] [$($head:tt)*] [$($tail:tt)*] $($rest:tt)*
    ) => {
        $crate::__operation_rows! { $callback [$($parsed)* {
            $($head)* declared: table, fields: [$($field: $type),*], body: [$($body: $body_type)?], query: [],
            $($tail)* success: $success,
        }] $($rest)* }
    };
}

/// One segment of a path template: `/literal` or `/{field}`.
macro_rules! path_template {
    ({$field:ident}) => {
        concat!("/{", stringify!($field), "}")
    };
    ($literal:literal) => {
        concat!("/", $literal)
    };
}

/// A row's metadata, the one way it is written: each endpoint's
/// [`METADATA`](crate::Endpoint::METADATA) and its entry in [`OPERATIONS`] are this.
macro_rules! row_metadata {
    ($name:ident $endpoint:ident [$($body_type:ty)?] $api:ident $method:ident [$($segment:tt)/+] $output:ty, $success:ident) => {
        $crate::operations::Operation {
            name: stringify!($name),
            interface: $crate::operations::Interface::$api,
            method: ::http::Method::$method,
            path: concat!($(path_template!($segment)),+),
            endpoint: stringify!($endpoint),
            request: request_type!($($body_type)?),
            output: stringify!($output),
            success: $crate::operations::SuccessBody::$success,
        }
    };
}

/// The request body's type name, if the row has a body.
macro_rules! request_type {
    () => {
        None
    };
    ($body_type:ty) => {
        Some(stringify!($body_type))
    };
}

/// Lists the rows' metadata as [`OPERATIONS`], and documents the table. Made from the rows,
/// not from the endpoints (which make theirs from the same rows the same way): the table does
/// not depend on the endpoints it declares.
macro_rules! list_operations {
    ($({
        docs: $docs:tt, name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: $fields:tt, body: [$($body:ident : $body_type:ty)?], query: $query:tt,
        interface: $api:ident, method: $method:ident, path: [$($segment:tt)/+], output: $output:ty,
        success: $success:ident, $($more:tt)*
    })*) => {
        /// Every operation of the table, in its order: each endpoint's
        /// [`METADATA`](crate::Endpoint::METADATA). Its `Client` method has its name.
        ///
        /// | operation | method and path | endpoint | output |
        /// |---|---|---|---|
        $(
            #[doc = concat!(
                "| `", stringify!($name), "` | `", stringify!($method), " ", $(path_template!($segment)),+,
                "` | [`", stringify!($endpoint), "`](crate::", stringify!($endpoint), ") | `", stringify!($output), "` |"
            )]
        )*
        pub const OPERATIONS: &[Operation] = &[
            $(row_metadata!($name $endpoint [$($body_type)?] $api $method [$($segment)/+] $output, $success)),*
        ];
    };
}

operations!(list_operations);
