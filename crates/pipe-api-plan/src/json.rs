//! A model as a JSON value and back, through the text a request body is: what the planner
//! compares and what a saved plan fingerprints are what would be sent.

use pipe_api_types::Pipe;
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

/// A pipe as read, to compare with a desired one: its scaling's quantities as numbers in
/// their units, however the server wrote them (`"1"` core is 1000 millicores, `"4Gi"` 4 GB).
pub(crate) fn compared(pipe: &Pipe) -> Value {
    let mut json = to_json(pipe);
    if let (Some(scaling), Some(Value::Object(written))) = (&pipe.scaling, json.get_mut("scaling")) {
        let amounts = [
            ("replicaCpuMillicores", scaling.replica_cpu_millicores.as_ref().map(|q| q.value())),
            ("replicaMemoryGb", scaling.replica_memory_gb.as_ref().map(|q| q.value())),
        ];
        for (name, amount) in amounts {
            if let Some(number) = amount.and_then(serde_json::Number::from_f64) {
                written.insert(name.to_owned(), Value::Number(number));
            }
        }
    }
    json
}

/// The members of `value` whose names `keep` takes, `null`s left out.
pub(crate) fn only(value: Value, keep: impl Fn(&str) -> bool) -> Value {
    let Value::Object(members) = value else { return value };
    Value::Object(members.into_iter().filter(|(name, value)| keep(name) && !value.is_null()).collect())
}
