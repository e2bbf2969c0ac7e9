//! Pipes as code's tests (`pipe-api-plan`), through its public API: one module per former test
//! file. They were a binary of their own; in this one there is one binary less to build and link.

mod desired_services;
mod export;
mod plans;
mod strict_desired;
