//! [`endpoint!`], the one shape of an endpoint, written once.

/// Declares an endpoint: its struct, its `new`, and its [`Endpoint`](crate::endpoint::Endpoint)
/// impl, from one compact declaration.
///
/// It exists because nearly every endpoint has the same shape (the ids that place it, maybe a
/// request body, a `new` taking those in order, an `Endpoint` impl that says only its name,
/// method, path and output), and that shape written out by hand thirty times hides what differs
/// and lets one copy drift from the others. Written with this macro, an endpoint reads as what
/// is particular to it:
///
/// ```text
/// endpoint! {
///     /// The struct's doc.
///     #[derive(Clone, Debug, PartialEq, Eq)]
///     pub struct GetPipe {
///         /// A field's doc.
///         pub organization_id: OrganizationId,
///         ...
///     }
///     /// The constructor's doc (leave `fn new;` out, with its doc, to write `new` by hand).
///     fn new;
///     Management "get_pipe": GET -> Pipe,
///     path: |e| pipe_path(&e.organization_id, &e.service_id, &e.pipe_id),
///     body: request,      // optional: the field sent as the JSON body
///     success: InData,    // optional: the `SuccessBody`, when not `Output`
/// }
/// ```
///
/// The struct's attributes (its derives among them) are written as they are; `new` takes every
/// field in order; the path is a `PathBuilder` expression of the endpoint (`e`), finished by the
/// macro. An endpoint with more to say (a query, a check, a completion) is written by hand.
macro_rules! endpoint {
    // With `fn new;`: the endpoint as below, and a `new` taking every field in order.
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $fty:ty ),* $(,)?
        }
        $(#[$new_meta:meta])+
        fn new;
        $($rest:tt)*
    ) => {
        endpoint! {
            $(#[$meta])*
            pub struct $name {
                $( $(#[$fmeta])* pub $field: $fty, )*
            }
            $($rest)*
        }

        impl $name {
            $(#[$new_meta])+
            pub fn new($($field: $fty),*) -> Self {
                $name { $($field),* }
            }
        }
    };
    // The struct and its `Endpoint` impl.
    (
        $(#[$meta:meta])*
        pub struct $name:ident {
            $( $(#[$fmeta:meta])* pub $field:ident : $fty:ty ),* $(,)?
        }
        $api:ident $operation:literal : $method:ident -> $output:ty,
        path: |$this:pat_param| $path:expr
        $(, body: $body:ident)?
        $(, success: $success:ident)? $(,)?
    ) => {
        $(#[$meta])*
        pub struct $name {
            $( $(#[$fmeta])* pub $field: $fty, )*
        }

        impl $crate::endpoint::Endpoint for $name {
            type Api = $crate::api::$api;
            type Output = $output;

            fn operation(&self) -> &'static str {
                $operation
            }

            fn method(&self) -> ::http::Method {
                ::http::Method::$method
            }

            fn path(&self) -> String {
                let $this = self;
                $path.finish()
            }

            $(
                fn body(&self) -> Result<Option<Vec<u8>>, $crate::error::BuildErrorKind> {
                    $crate::endpoint::json_body(&self.$body)
                }
            )?

            $(
                fn success_body(&self) -> $crate::endpoint::SuccessBody {
                    $crate::endpoint::SuccessBody::$success
                }
            )?
        }
    };
}
