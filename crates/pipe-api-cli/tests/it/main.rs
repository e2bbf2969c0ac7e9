//! The `pipe-api` binary itself, run as a user runs it, against the fake served on 127.0.0.1 by
//! this test process: credentials and ids in the command's environment (and nothing else of
//! the test's), every output checked for secrets. One binary, a module per subject.

mod common;
mod errors;
mod fake_serve;
mod interrupt;
mod listings;
mod pipes_as_code;
mod services_as_code;
