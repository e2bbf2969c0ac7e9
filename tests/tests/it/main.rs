//! The integration tests of this package, one module per former test file, built as one
//! binary: each test file was its own binary, and linking them took most of a fresh
//! `cargo test`.

mod any_transport;
mod apply_outcomes;
mod contract_create_pipes;
mod contract_newer_kinds;
mod decode_memory;
mod e2e;
mod echoed_credentials;
mod error_chains;
mod every_operation;
mod export;
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
mod readme;
mod secret_hygiene;
mod server_text;
mod ureq_transport;
mod users_reads;
mod users_side;
mod users_view;
mod validation_through_client;
mod virtual_clock;
mod wait_and_pages;
