//! The grammar of a row, read here and nowhere else. An operation's module holds one row in
//! [`operation!`]: it declares the row's endpoint (its struct, `new` and
//! [`Endpoint`](crate::Endpoint) impl, its metadata the row itself) and exports the row, parsed,
//! as a hidden macro named after the operation. [`operation_modules!`] lists the modules: it
//! makes [`OPERATIONS`](super::OPERATIONS) and the exported `operations!`, which hands every
//! parsed row, in the list's order, to a callback (the `Client` methods of `pipe-api-ureq`, the
//! workspace's tests).
//!
//! A row reads:
//!
//! ```text
//! /// Docs of the endpoint and of the `Client` method.
//! scope.name: Endpoint(path_field: Type, ...; body_field: BodyType) Interface METHOD "literal"/{path_field}/... -> Output;
//! ```
//!
//! The scope is the handle of `pipe-api-ureq` whose method it is, named by the resource the
//! operation acts on (`services.create_service`: a service is created among the organization's
//! services, though its path's only id is the organization's). The fields in parentheses are the
//! endpoint's, in the order its `new` and the `Client` method take them; the one after `;`, if
//! any, is the JSON body (`new` takes anything `Into` it). `; name: Type as query` instead of a
//! body gives the endpoint a query of that type (set with a method of its name, its default
//! asking for everything), which the `Client` method takes last. `(..)` marks an endpoint written
//! by hand (the alert list, for its pages). The path's literals and fields are segments, fields
//! encoded. `-> Output, Shape` says how a success carries the output when the body is not simply
//! the output ([`SuccessBody`](crate::SuccessBody)). The types are named as `pipe_api_types` and
//! proto's root export them: the module imports them, and so does a callback's module.
//!
//! The row is also where its output's decode is compiled (`output_decode!`, and `decode.rs`'s
//! module docs for why): the interface and the success column say the shape its answers come
//! in, and the output is whatever the row names, so a row answering a new model needs no line
//! anywhere else.
//!
//! A callback receives each row in one form, every column explicit and in this order:
//!
//! ```text
//! {
//!     docs: [#[doc = "..."] ...],
//!     name: create_key,
//!     endpoint: CreateKey,
//!     declared: table,                    // or `hand`: written by hand, `(..)`
//!     fields: [organization_id: OrganizationId],
//!     body: [request: CreateKeyRequest],  // or []
//!     query: [],                          // or [filter: ServiceFilter]
//!     interface: Management,
//!     method: POST,
//!     path: ["v1"/"organizations"/{organization_id}/"keys"],
//!     output: CreateKeyResponse,
//!     success: Output,                    // the shape written, else `Output`
//!     scope: organization,
//! }
//! ```
//!
//! and matches every column up to the last it uses and the rest as `$($more:tt)*`, so a new
//! column, added last, is one edit here and one in each callback that reads it.

/// One operation's row (the module docs above): its endpoint, and its parsed form exported.
macro_rules! operation {
    (
        $(#[$doc:meta])*
        $scope:ident . $name:ident : $endpoint:ident $fields:tt $api:ident $method:ident $($segment:tt)/+
        -> $output:ty $(, $shape:ident)?;
    ) => {
        // The shape defaults to `Output`: the first of `[Shape Output]` or `[Output]`.
        operation! { @fields $fields [$($shape)? Output]
            [docs: [$(#[$doc])*], name: $name, endpoint: $endpoint,]
            [interface: $api, method: $method, path: [$($segment)/+], output: $output,]
            [scope: $scope,]
        }
    };
    (@fields (..) [$success:ident $($default:ident)?] [$($head:tt)*] [$($tail:tt)*] [$($last:tt)*]) => {
        operation! { @row ($) {
            $($head)* declared: hand, fields: [], body: [], query: [], $($tail)* success: $success, $($last)*
        } }
    };
    (
        @fields ($($field:ident : $type:ty),* ; $query:ident : $query_type:ty as query) [$success:ident $($default:ident)?]
        [$($head:tt)*] [$($tail:tt)*] [$($last:tt)*]
    ) => {
        operation! { @row ($) {
            $($head)* declared: table, fields: [$($field: $type),*], body: [], query: [$query: $query_type],
            $($tail)* success: $success, $($last)*
        } }
    };
    (
        @fields ($($field:ident : $type:ty),* $(; $body:ident : $body_type:ty)?) [$success:ident $($default:ident)?]
        [$($head:tt)*] [$($tail:tt)*] [$($last:tt)*]
    ) => {
        operation! { @row ($) {
            $($head)* declared: table, fields: [$($field: $type),*], body: [$($body: $body_type)?], query: [],
            $($tail)* success: $success, $($last)*
        } }
    };
    // The parsed row: the endpoint, and the row exported for the callbacks. `$d` is a `$`, for
    // the exported macro's own variables.
    (@row ($d:tt) {
        docs: [$($doc:tt)*], name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: [$($field:ident : $type:ty),*], body: [$($body:ident : $body_type:ty)?],
        query: [$($query:ident : $query_type:ty)?],
        interface: $api:ident, method: $method:ident, path: [$($segment:tt)/+], output: $output:ty,
        success: $success:ident, scope: $scope:ident,
    }) => {
        declare_endpoint! {
            $declared [$($doc)*] $endpoint ($($field : $type),*) [$($body : $body_type)?] [$($query : $query_type)?]
            $api $method [$($segment)/+] $output [$success]
            {
                $crate::operation::Operation {
                    name: stringify!($name),
                    interface: $crate::operation::Interface::$api,
                    method: ::http::Method::$method,
                    path: concat!($(path_template!($segment)),+),
                    endpoint: stringify!($endpoint),
                    request: request_type!($($body_type)?),
                    output: stringify!($output),
                    success: $crate::operation::SuccessBody::$success,
                }
            }
        }

        // Named after the operation: `macro_rules` cannot make a name of its own, and macros
        // have a namespace of their own, so it meets no function or module.
        #[doc(hidden)]
        #[macro_export]
        macro_rules! $name {
            ($d callback:path [$d ($d parsed:tt)*] $d ($d next:ident)*) => {
                $crate::__operation_rows! { $d callback [$d ($d parsed)* {
                    docs: [$($doc)*], name: $name, endpoint: $endpoint, declared: $declared,
                    fields: [$($field: $type),*], body: [$($body: $body_type)?], query: [$($query: $query_type)?],
                    interface: $api, method: $method, path: [$($segment)/+], output: $output,
                    success: $success, scope: $scope,
                }] $d ($d next)* }
            };
        }
    };
}

/// The modules of the table, each `module: Endpoint` (the module named as the operation, the
/// endpoint it declares), in the table's order: declares them, re-exports their public items
/// (for the crate's root), and makes [`OPERATIONS`](super::OPERATIONS), each endpoint's
/// `OPERATION`, and the exported `operations!`.
macro_rules! operation_modules {
    ($($module:ident : $endpoint:ident,)*) => {
        $(mod $module;)*

        /// Each module's public items: its endpoint (and, for the alert list, its limit).
        pub(crate) mod endpoints {
            $(pub use super::$module::*;)*
        }

        /// The rows' places in [`OPERATIONS`], in the table's order.
        enum Row {
            $($endpoint,)*
        }

        // Each row by its endpoint type, borrowed for as long as the program runs: code that
        // keeps a row (a plan's step, the fake's handler) names it so, and breaks the build when
        // the row is renamed or removed. `METADATA` is the same row as a value; a constant of a
        // type that needs dropping (`http::Method`) cannot itself be borrowed for that long.
        $(
            impl endpoints::$endpoint {
                #[doc = concat!("Its row of [`OPERATIONS`](crate::operations::OPERATIONS), `", stringify!($module), "`, as a `'static` borrow of its [`METADATA`](crate::Endpoint::METADATA).")]
                pub const OPERATION: &'static Operation = &OPERATIONS[Row::$endpoint as usize];
            }
        )*

        /// Every operation of the table, in its order: each endpoint's
        /// [`METADATA`](crate::Endpoint::METADATA). Its `Client` method has its name.
        ///
        /// | operation | endpoint |
        /// |---|---|
        $(
            #[doc = concat!("| `", stringify!($module), "` | [`", stringify!($endpoint), "`](crate::", stringify!($endpoint), ") |")]
        )*
        pub const OPERATIONS: &[Operation] = &[$(<endpoints::$endpoint as $crate::Endpoint>::METADATA),*];

        /// Hands every row of the table, parsed (see `operations/row.rs`), to `$callback`, a
        /// macro, in one invocation.
        #[doc(hidden)]
        #[macro_export]
        macro_rules! operations {
            ($callback:path) => {
                $crate::__operation_rows! { $callback [] $($module)* }
            };
        }
    };
}

/// Gathers the rows: asks the next operation's macro to add its row, and hands them all to
/// the callback once none is left.
#[doc(hidden)]
#[macro_export]
macro_rules! __operation_rows {
    ($callback:path [$($parsed:tt)*] $next:ident $($rest:ident)*) => {
        $crate::$next! { $callback [$($parsed)*] $($rest)* }
    };
    ($callback:path [$($parsed:tt)*]) => {
        $callback! { $($parsed)* }
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

/// The request body's type name, if the row has a body.
macro_rules! request_type {
    () => {
        None
    };
    ($body_type:ty) => {
        Some(stringify!($body_type))
    };
}

/// One endpoint: its struct, its `new`, its [`Endpoint`](crate::Endpoint) impl, whose metadata
/// is `$metadata`. An endpoint written by hand (`hand`) gets its row as `ROW`, for its impl's
/// metadata.
macro_rules! declare_endpoint {
    (
        hand [$($doc:tt)*] $endpoint:ident () [] [] $api:ident $method:ident [$($segment:tt)/+] $output:ty [$success:ident]
        { $metadata:expr }
    ) => {
        /// What its `Endpoint` impl takes from its row: the metadata, and the output's decode
        /// and state.
        impl $endpoint {
            /// Its row of the table: its `Endpoint` impl's metadata.
            const ROW: $crate::operation::Operation = $metadata;

            output_decode! { $api $success $output }
        }
    };
    (
        table [$($doc:tt)*] $endpoint:ident ($($field:ident : $type:ty),*) [$($body:ident : $body_type:ty)?]
        [$($query:ident : $query_type:ty)?] $api:ident $method:ident [$($segment:tt)/+] $output:ty [$success:ident]
        { $metadata:expr }
    ) => {
        $($doc)*
        #[doc = ""]
        #[doc = concat!("`", stringify!($method), " ", $(path_template!($segment)),+, "`")]
        #[derive(Clone, Debug)]
        pub struct $endpoint {
            $(
                #[doc = concat!("The path's `", stringify!($field), "`.")]
                pub $field: $type,
            )*
            $(
                /// The JSON body.
                pub $body: $body_type,
            )?
            $(
                /// The query (its default asks for everything).
                pub $query: $query_type,
            )?
        }

        impl $endpoint {
            /// The endpoint for these path parameters (and body), in the table's order.
            // One way to make every endpoint, a row with no parameters included.
            #[allow(clippy::new_without_default)]
            pub fn new($($field: $type,)* $($body: impl Into<$body_type>)?) -> Self {
                $endpoint { $($field,)* $($body: $body.into(),)? $($query: <$query_type>::default())? }
            }

            $(
                #[doc = concat!("Sets the query's `", stringify!($query), "`.")]
                #[must_use]
                pub fn $query(mut self, $query: impl Into<$query_type>) -> Self {
                    self.$query = $query.into();
                    self
                }
            )?
        }

        impl $crate::endpoint::Endpoint for $endpoint {
            type Api = $crate::api::$api;
            type Output = $output;

            const METADATA: $crate::operation::Operation = $metadata;

            fn path(&self) -> String {
                let path = $crate::url::PathBuilder::new();
                $(let path = path_segment!(self, path, $segment);)+
                path.finish()
            }

            $(
                fn body(&self) -> Result<Option<Vec<u8>>, $crate::error::BuildErrorKind> {
                    $crate::endpoint::json_body(&self.$body)
                }
            )?

            $(
                fn query(&self) -> Vec<(String, String)> {
                    $crate::endpoint::Query::parameters(&self.$query)
                }

                fn validate(&self) -> Result<(), pipe_api_types::ValidationErrors> {
                    pipe_api_types::Validate::validate(&self.$query)
                }
            )?

            output_decode! { $api $success $output }
        }
    };
}

/// The decode of a row's output and its state, as `Endpoint` methods (see
/// [`Endpoint::decode_output`](crate::Endpoint::decode_output)). The endpoint is not generic, so
/// these are compiled here, in proto, and with them the output's decode, in the one shape the
/// row's interface and success column say its answers come in (`decode::row_output`): no list
/// of outputs names it. A row written by hand gets them in its inherent impl, for its `Endpoint`
/// impl to call.
macro_rules! output_decode {
    ($api:ident $success:ident $output:ty) => {
        fn decode_output(
            body: &[u8],
            shape: Option<$crate::decode::Shape>,
            secrets: &$crate::redact::SentSecrets,
        ) -> Result<($output, Option<String>), $crate::decode::SuccessDecodeError> {
            $crate::decode::row_output(body, shape, secrets, success_decode!($api $success))
        }

        fn output_state(output: &$output) -> Option<&str> {
            // Both in scope for the lookup to choose; the one it does not is unused.
            #[allow(unused_imports)]
            use $crate::operations::row::{Stated as _, Stateless as _};
            (&$crate::operations::row::StateOf(output)).state()
        }
    };
}

/// The decode of a row's success body, from its interface and its success column: in the
/// management envelope's `result`; in the alerting `{"data": ...}`; or the alerting body itself
/// (an alert page, or the nothing a delete answers).
macro_rules! success_decode {
    (Management $success:ident) => {
        $crate::decode::enveloped
    };
    (Alerting InData) => {
        $crate::decode::in_data
    };
    (Alerting $success:ident) => {
        $crate::decode::bare
    };
}

/// The state of a row's output (what `output_state` gives): the model's own
/// ([`HasState`](pipe_api_types::HasState)) if it has one, else none. Which one is chosen by
/// where the method is found: `(&StateOf(output)).state()` finds [`Stated`]'s on
/// `&StateOf<T>` first, which applies only to a `T` with a state, else [`Stateless`]'s on
/// `StateOf<T>`. This works for the concrete output a row names (it is not a specialization a
/// generic function could use), and spares every stateless model an impl of its own.
pub(crate) struct StateOf<'a, T>(pub(crate) &'a T);

// Copied by `Stateless`, which takes it by value; derived, they would ask `T: Copy`.
impl<T> Clone for StateOf<'_, T> {
    fn clone(&self) -> Self {
        *self
    }
}

impl<T> Copy for StateOf<'_, T> {}

/// The state of an output that has one.
pub(crate) trait Stated<'a> {
    /// The output's state.
    fn state(self) -> Option<&'a str>;
}

impl<'a, T: pipe_api_types::HasState> Stated<'a> for &StateOf<'a, T> {
    fn state(self) -> Option<&'a str> {
        pipe_api_types::HasState::state(self.0)
    }
}

/// The state of an output that has none.
pub(crate) trait Stateless<'a> {
    /// None.
    fn state(self) -> Option<&'a str>;
}

impl<'a, T> Stateless<'a> for StateOf<'a, T> {
    fn state(self) -> Option<&'a str> {
        None
    }
}

/// Appends one segment to a path: a literal as it is, a field encoded.
macro_rules! path_segment {
    ($endpoint:ident, $path:ident, {$field:ident}) => {
        $crate::url::PathParameter::push_onto(&$endpoint.$field, $path)
    };
    ($endpoint:ident, $path:ident, $literal:literal) => {
        $path.literal($literal)
    };
}
