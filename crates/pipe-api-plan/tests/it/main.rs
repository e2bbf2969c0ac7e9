//! The integration tests of this package, built as one binary (linking one per file took most
//! of a fresh `cargo test`).

mod desired_services;
mod export;
mod plan;
mod strict_desired;
