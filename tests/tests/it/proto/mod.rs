//! The sans-IO crate's tests (`pipe-api-proto`, through its public API and `test-util`): one
//! module per former test file. They were a binary of their own; in this one there is one
//! binary less to build and link.

mod call;
mod common;
mod ops_alerts;
mod ops_keys;
mod ops_organizations;
mod ops_pipe_settings;
mod ops_pipes;
mod ops_reverse_private_endpoints;
mod ops_services;
mod pages;
mod parse;
mod requests;
mod retry;
mod strict_requests;
mod transport;
mod wait;
