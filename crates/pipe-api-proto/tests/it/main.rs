//! The integration tests of this package, one module per former test file, built as one
//! binary: each test file was its own binary, and linking them took most of a fresh
//! `cargo test`.

mod call;
mod common;
mod fixtures_per_operation;
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
