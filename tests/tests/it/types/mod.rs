//! The integration tests of this package, one module per former test file, built as one
//! binary: each test file was its own binary, and linking them took most of a fresh
//! `cargo test`.

// The service fixture of `service_fields` is one large `json!`.
#![recursion_limit = "256"]

mod alerts_validation;
mod common;
mod contract_fields;
mod create_pipe_rules;
mod fixtures;
mod keys_validation;
mod lenient_scalars;
mod newer_kinds_rules;
mod pipe_settings_validation;
mod pipes_validation;
mod reverse_private_endpoints_validation;
mod round_trip;
mod secrets;
mod service_fields;
mod services_validation;
mod snapshots;
mod time_and_quantities;
mod validation;
