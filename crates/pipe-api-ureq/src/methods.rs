//! One method of [`Client`] per operation, made from proto's table of operations: each builds
//! its endpoint and runs it with [`Client::value`], which applies the client's retries and
//! pacing. An endpoint written by hand (the alert list, which has a query) is taken whole.

use pipe_api_proto::*;
use pipe_api_types::*;

use crate::Client;

/// The `Client` method of each row.
macro_rules! client_methods {
    ($(
        $(#[$doc:meta])*
        $name:ident : $endpoint:ident $fields:tt $api:ident $method:ident $($segment:tt)/+ -> $output:ty $(, $shape:ident)?;
    )*) => {
        impl Client {
            $(client_method! { [$(#[$doc])*] $name $endpoint $fields $output })*
        }
    };
}

macro_rules! client_method {
    ([$($doc:tt)*] $name:ident $endpoint:ident (..) $output:ty) => {
        $($doc)*
        pub fn $name(&self, endpoint: $endpoint) -> Result<$output, Error> {
            self.value(&endpoint)
        }
    };
    ([$($doc:tt)*] $name:ident $endpoint:ident ($($field:ident : $type:ty),* ; $query:ident : $query_type:ty as query) $output:ty) => {
        $($doc)*
        pub fn $name(&self, $($field: $type,)* $query: impl Into<$query_type>) -> Result<$output, Error> {
            self.value(&$endpoint::new($($field),*).$query($query))
        }
    };
    ([$($doc:tt)*] $name:ident $endpoint:ident ($($field:ident : $type:ty),* $(; $body:ident : $body_type:ty)?) $output:ty) => {
        $($doc)*
        pub fn $name(&self, $($field: $type,)* $($body: impl Into<$body_type>)?) -> Result<$output, Error> {
            self.value(&$endpoint::new($($field,)* $($body)?))
        }
    };
}

pipe_api_proto::operations!(client_methods);
