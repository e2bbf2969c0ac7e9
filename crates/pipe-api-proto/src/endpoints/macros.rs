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
    (
        [$($doc:tt)*] $name:ident $endpoint:ident
        ($($field:ident : $type:ty),* $(; $body:ident : $body_type:ty)?)
        $api:ident $method:ident [$($segment:tt)/+] $output:ty [$($shape:ident)?]
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
        }

        impl $endpoint {
            /// The endpoint for these path parameters (and body), in the table's order.
            pub fn new($($field: $type,)* $($body: impl Into<$body_type>)?) -> Self {
                $endpoint { $($field,)* $($body: $body.into())? }
            }
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
