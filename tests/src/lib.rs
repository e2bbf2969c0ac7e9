//! Shared helpers of the workspace end-to-end tests (in `tests/tests/`).
