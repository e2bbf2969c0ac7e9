//! The endpoints of the table of operations ([`operations!`](crate::operations!)): a struct, a
//! `new` and an [`Endpoint`](crate::Endpoint) impl for each row, its metadata the row itself.

/// Declares the endpoint of each row (for a row written by hand, only its metadata).
macro_rules! declare_endpoints {
    ($({
        docs: [$($doc:tt)*], name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: [$($field:ident : $type:ty),*], body: [$($body:ident : $body_type:ty)?],
        query: [$($query:ident : $query_type:ty)?],
        interface: $api:ident, method: $method:ident, path: [$($segment:tt)/+], output: $output:ty,
        success: $success:ident, $($more:tt)*
    })*) => {
        $(
            declare_endpoint! {
                $declared [$($doc)*] $endpoint ($($field : $type),*) [$($body : $body_type)?] [$($query : $query_type)?]
                $api $method [$($segment)/+] $output
                { row_metadata!($name $endpoint [$($body_type)?] $api $method [$($segment)/+] $output, $success) }
            }
        )*

        /// The rows' places in [`OPERATIONS`](crate::operations::OPERATIONS), in the table's order.
        enum Row {
            $($endpoint,)*
        }

        // Each row by its endpoint type, borrowed for as long as the program runs: code that
        // keeps a row (a plan's step) names it so, and breaks the build when the row is renamed
        // or removed. `METADATA` is the same row as a value; a constant of a type that needs
        // dropping (`http::Method`) cannot itself be borrowed for that long.
        $(
            impl $endpoint {
                #[doc = concat!("Its row of [`OPERATIONS`](crate::operations::OPERATIONS), `", stringify!($name), "`, as a `'static` borrow of its [`METADATA`](crate::Endpoint::METADATA).")]
                pub const OPERATION: &'static $crate::operations::Operation =
                    &$crate::operations::OPERATIONS[Row::$endpoint as usize];
            }
        )*

        /// The two ways the metadata of a row is reached are one value.
        #[cfg(test)]
        #[test]
        fn every_endpoints_metadata_is_its_row_of_the_table() {
            use $crate::Endpoint as _;
            $(assert_eq!(<$endpoint>::METADATA, *<$endpoint>::OPERATION, stringify!($name));)*
            assert_eq!([$(stringify!($name)),*].len(), $crate::operations::OPERATIONS.len());
        }
    };
}

/// One endpoint: its struct, its `new`, its [`Endpoint`](crate::Endpoint) impl, whose metadata
/// is `$metadata`. An endpoint written by hand (`hand`) gets its row as `ROW`, for its impl's
/// metadata.
macro_rules! declare_endpoint {
    (hand [$($doc:tt)*] $endpoint:ident () [] [] $api:ident $method:ident [$($segment:tt)/+] $output:ty { $metadata:expr }) => {
        impl $endpoint {
            /// Its row of the table: its `Endpoint` impl's metadata.
            const ROW: $crate::operations::Operation = $metadata;
        }
    };
    (
        table [$($doc:tt)*] $endpoint:ident ($($field:ident : $type:ty),*) [$($body:ident : $body_type:ty)?]
        [$($query:ident : $query_type:ty)?] $api:ident $method:ident [$($segment:tt)/+] $output:ty { $metadata:expr }
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

            const METADATA: $crate::operations::Operation = $metadata;

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
