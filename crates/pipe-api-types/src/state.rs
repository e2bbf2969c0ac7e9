//! [`HasState`]: the state a model is in, for a model that has one.

/// A model the server gives a state (`state`, or a reverse private endpoint's `status`): what a
/// wait on an operation answering it names at each poll and when it stops. Implemented beside
/// each such model, so that an operation answering it needs nothing else; a model without one
/// does not implement it.
pub trait HasState {
    /// The state's wire text, if the server sent one.
    fn state(&self) -> Option<&str>;
}
