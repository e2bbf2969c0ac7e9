//! The integration tests of the workspace, built as one binary: each test file was its own
//! binary, then each crate's tests were, and linking them took most of a fresh `cargo test`.
//! What a crate's tests reach through its public API is here (`proto`, `types`, `fake`, `plan`,
//! `ureq_root`); what needs its private items stays in its unit tests, and the command line's
//! tests, which run its binary, in `crates/pipe-api-cli/tests/it`.

// The service fixture of `types::service_fields` is one large `json!`.
#![recursion_limit = "256"]

mod any_transport;
mod apply_outcomes;
mod clients;
mod contract_create_pipes;
mod contract_newer_kinds;
mod decode_memory;
mod e2e;
mod echoed_credentials;
mod error_chains;
mod every_operation;
mod export;
mod fake;
mod fault_matrix;
mod hostile;
mod log_capture;
mod newer_kinds_as_code;
mod nullable_members;
mod ops_alerts;
mod ops_keys;
mod ops_pipe_settings;
mod ops_pipes;
mod ops_reverse_private_endpoints;
mod ops_services;
mod pipes_as_code;
mod pipes_as_code_bounds;
mod plan;
mod proto;
mod readme;
mod secret_hygiene;
mod server_text;
mod services_as_code;
mod types;
mod ureq_root;
mod ureq_transport;
mod users_reads;
mod users_side;
mod users_view;
mod validation_through_client;
mod virtual_clock;
mod wait_and_pages;
