//! The endpoints: one per row of the table of operations ([`operations!`](crate::operations!)),
//! the alert list (which has a query, written by hand) and the escape hatch ([`Raw`]).

#[macro_use]
mod macros;

mod alerts;
mod raw;

pub use alerts::{ListAlerts, MAX_ALERTS_LIMIT};
pub use raw::Raw;

// The table names types as these export them.
use pipe_api_types::*;

crate::operations!(declare_endpoints);
