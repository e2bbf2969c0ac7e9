//! A model as a JSON value and back, through the text a request body is: what the planner
//! compares and what a saved plan fingerprints are what would be sent.

use serde::Serialize;
use serde_json::Value;

/// A model as a JSON value, as its request body is written and read back (a number as the
/// text writes it), so that what is compared is what would be sent.
pub(crate) fn to_json<T: Serialize>(model: &T) -> Value {
    let bytes = serde_json::to_vec(model).expect("a model serializes");
    serde_json::from_slice(&bytes).expect("what serde_json wrote reads back")
}

/// A model read from JSON this crate holds (a desired state, a plan's merge of values read).
/// A failure says what, as the JSON reader says it.
pub(crate) fn read_model<T: serde::de::DeserializeOwned>(json: Value) -> Result<T, String> {
    // Through the text, as a request body would be read: its messages say where in it.
    let bytes = serde_json::to_vec(&json).expect("a JSON value serializes");
    serde_json::from_slice(&bytes).map_err(|error| error.to_string())
}
