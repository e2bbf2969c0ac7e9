//! One method of [`Client`] per operation, made from proto's table of operations: each builds
//! its endpoint and runs it with [`Client::value`], which applies the client's retries and
//! pacing. An endpoint written by hand (the alert list, which has a query) is taken whole.

use pipe_api_proto::*;
use pipe_api_types::*;

use crate::Client;

/// The `Client` method of each row.
macro_rules! client_methods {
    ($({
        docs: [$($doc:tt)*], name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: [$($field:ident : $type:ty),*], body: [$($body:ident : $body_type:ty)?],
        query: [$($query:ident : $query_type:ty)?],
        interface: $api:ident, method: $method:ident, path: $path:tt, output: $output:ty, $($more:tt)*
    })*) => {
        impl Client {
            $(client_method! {
                $declared [$($doc)*] $name $endpoint [$($field: $type),*] [$($body: $body_type)?] [$($query: $query_type)?] $output
            })*
        }
    };
}

/// One row's method: the ids, then the body or the query, if any; a row written by hand takes
/// its endpoint whole.
macro_rules! client_method {
    (hand [$($doc:tt)*] $name:ident $endpoint:ident [] [] [] $output:ty) => {
        $($doc)*
        pub fn $name(&self, endpoint: $endpoint) -> Result<$output, Error> {
            self.value(&endpoint)
        }
    };
    (
        table [$($doc:tt)*] $name:ident $endpoint:ident [$($field:ident : $type:ty),*] [$($body:ident : $body_type:ty)?]
        [$($query:ident : $query_type:ty)?] $output:ty
    ) => {
        $($doc)*
        pub fn $name(
            &self,
            $($field: $type,)*
            $($body: impl Into<$body_type>,)?
            $($query: impl Into<$query_type>)?
        ) -> Result<$output, Error> {
            self.value(&$endpoint::new($($field,)* $($body)?)$(.$query($query))?)
        }
    };
}

pipe_api_proto::operations!(client_methods);
