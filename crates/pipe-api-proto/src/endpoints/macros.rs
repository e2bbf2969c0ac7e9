//! The endpoints of the table of operations ([`operations!`](crate::operations!)): a struct, a
//! `new` and an [`Endpoint`](crate::Endpoint) impl for each row.

/// Declares the endpoint of each row.
macro_rules! declare_endpoints {
    ($(
        $(#[$doc:meta])*
        $name:ident : $endpoint:ident $fields:tt $api:ident $method:ident $($segment:tt)/+ -> $output:ty $(, $shape:ident)?;
    )*) => {
        $(
            declare_endpoint! {
                [$(#[$doc])*] $name $endpoint $fields $api $method [$($segment)/+] $output [$($shape)?]
            }
        )*
    };
}

/// One endpoint: its struct, its `new`, its [`Endpoint`](crate::Endpoint) impl. An endpoint
/// written by hand (`(..)`) is only listed.
macro_rules! declare_endpoint {
    ([$($doc:tt)*] $name:ident $endpoint:ident (..) $api:ident $method:ident [$($segment:tt)/+] $output:ty [$($shape:ident)?]) => {};
    // A query (`filter: ServiceFilter as query`): the endpoint as any other, its query a field
    // set with a method of its name, sent as the query type's parameters and validated first.
    (
        [$($doc:tt)*] $name:ident $endpoint:ident
        ($($field:ident : $type:ty),* ; $query:ident : $query_type:ty as query)
        $api:ident $method:ident [$($segment:tt)/+] $output:ty [$($shape:ident)?]
    ) => {
        declare_endpoint! {
            [$($doc)*] $name $endpoint ($($field : $type),*) $api $method [$($segment)/+] $output [$($shape)?]
            query $query : $query_type
        }
    };
    (
        [$($doc:tt)*] $name:ident $endpoint:ident
        ($($field:ident : $type:ty),* $(; $body:ident : $body_type:ty)?)
        $api:ident $method:ident [$($segment:tt)/+] $output:ty [$($shape:ident)?]
    ) => {
        declare_endpoint! {
            [$($doc)*] $name $endpoint ($($field : $type),* $(; $body : $body_type)?) $api $method [$($segment)/+] $output [$($shape)?]
            query
        }
    };
    (
        [$($doc:tt)*] $name:ident $endpoint:ident
        ($($field:ident : $type:ty),* $(; $body:ident : $body_type:ty)?)
        $api:ident $method:ident [$($segment:tt)/+] $output:ty [$($shape:ident)?]
        query $($query:ident : $query_type:ty)?
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

            fn operation(&self) -> &'static str {
                stringify!($name)
            }

            fn method(&self) -> ::http::Method {
                ::http::Method::$method
            }

            fn path_template(&self) -> &'static str {
                concat!($(path_template!($segment)),+)
            }

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
                fn success_body(&self) -> $crate::operations::SuccessBody {
                    $crate::operations::SuccessBody::$shape
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
        }
    };
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
