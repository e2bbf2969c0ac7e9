//! The fake's tests (`pipe-api-fake`), through its public API: one module per former test
//! file. They were a binary of their own; in this one there is one binary less to build and link.

mod behaviour;
mod common;
mod keys_and_roles;
mod newer_kinds_lifecycle;
mod pipe_lifecycle;
mod rpe_and_alert_lifecycle;
mod service_lifecycle;
