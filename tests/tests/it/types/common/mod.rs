//! What the validation tests share.

use pipe_api_types::{Rule, Validate};

/// Each violation of `request` as its path and rule, in order; empty when it is valid.
pub fn violations(request: &impl Validate) -> Vec<(String, Rule)> {
    match request.validate() {
        Ok(()) => Vec::new(),
        Err(errors) => errors.violations().iter().map(|v| (v.path.clone(), v.rule.clone())).collect(),
    }
}
