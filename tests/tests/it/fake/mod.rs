//! The integration tests of this package, one module per former test file, built as one
//! binary: each test file was its own binary, and linking them took most of a fresh
//! `cargo test`.

mod behaviour;
mod keys_and_roles;
mod newer_kinds_lifecycle;
mod pipe_lifecycle;
mod rpe_and_alert_lifecycle;
mod service_lifecycle;
