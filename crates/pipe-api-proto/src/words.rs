//! How the crate's messages count things: `1 step`, `3 steps`.

use std::fmt;

/// `count` of `noun`, its plural made with `s`: `1 poll`, `2 polls`, `0 steps`.
pub(crate) struct Counted(pub(crate) usize, pub(crate) &'static str);

impl fmt::Display for Counted {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let Counted(count, noun) = *self;
        write!(f, "{count} {noun}{}", if count == 1 { "" } else { "s" })
    }
}
