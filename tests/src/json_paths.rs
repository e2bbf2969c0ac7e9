//! Paths into a JSON document as a user reads them (`pipes[0].source.kafka`), for tests that
//! mutate a document at every object and every scalar member (strict reading of requests and of
//! desired states).

use serde_json::Value;

/// `path.name`, or `name` at the root.
pub fn join(path: &str, name: &str) -> String {
    if path.is_empty() { name.to_owned() } else { format!("{path}.{name}") }
}

/// The value at `path` (as [`walk`] writes them), through its JSON pointer
/// (`/pipes/0/source/kafka`); panics when there is none.
pub fn at<'a>(value: &'a mut Value, path: &str) -> &'a mut Value {
    let pointer: String = path
        .split(['.', '['])
        .filter(|part| !part.is_empty())
        .map(|part| "/".to_owned() + part.trim_end_matches(']'))
        .collect();
    value.pointer_mut(&pointer).unwrap_or_else(|| panic!("{path}: not in the document"))
}

/// The paths of a document's objects (the root's is `""`) and of its members whose value is a
/// scalar.
#[derive(Debug, Default)]
pub struct Paths {
    /// Every object, outer first.
    pub objects: Vec<String>,
    /// Every member whose value is neither an object nor a list.
    pub scalars: Vec<String>,
}

/// Every object of `value` and every scalar member, with their paths; an object `skip` says
/// is left out with all it holds.
pub fn walk(value: &Value, skip: impl Fn(&Value) -> bool) -> Paths {
    fn go(value: &Value, path: &str, skip: &dyn Fn(&Value) -> bool, paths: &mut Paths) {
        match value {
            Value::Object(_) if skip(value) => {}
            Value::Object(members) => {
                paths.objects.push(path.to_owned());
                for (name, child) in members {
                    let at = join(path, name);
                    if matches!(child, Value::Object(_) | Value::Array(_)) {
                        go(child, &at, skip, paths);
                    } else {
                        paths.scalars.push(at);
                    }
                }
            }
            Value::Array(items) => {
                for (i, item) in items.iter().enumerate() {
                    go(item, &format!("{path}[{i}]"), skip, paths);
                }
            }
            _ => {}
        }
    }
    let mut paths = Paths::default();
    go(value, "", &skip, &mut paths);
    paths
}
