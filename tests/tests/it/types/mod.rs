//! The models' tests (`pipe-api-types`), through its public API: one module per former test
//! file. They were a binary of their own; in this one there is one binary less to build and link.

mod alerts_validation;
mod common;
mod contract_fields;
mod create_pipe_rules;
mod fixtures;
mod keys_validation;
mod kinds_table;
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
mod text;
mod time_and_quantities;
mod validation;
