//! One method of [`Client`](crate::Client) per operation, one file per resource: each method
//! builds its endpoint and runs it with [`Client::value`](crate::Client), which applies the
//! client's retries and pacing.

mod alerts;
mod keys;
mod pipe_settings;
mod pipes;
mod reverse_private_endpoints;
mod services;
