//! The integration tests of this package, one module per former test file, built as one
//! binary: each test file was its own binary, and linking them took most of a fresh
//! `cargo test`.

mod call;
mod common;
// Every operation of the table, made from it: the workspace's test helper (tests/src), compiled
// here as a module of these tests, so that it is no part of this crate's API. What the
// workspace's tests use of it and these do not is no dead code.
#[allow(dead_code)]
#[path = "../../../../tests/src/every_operation.rs"]
mod every_operation;
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
