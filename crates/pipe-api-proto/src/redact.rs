//! What is never shown: the one list of secret-bearing names, used by error messages and by
//! the request rendering for snapshots.

use http::HeaderName;

/// JSON field names whose values are secrets.
const SECRET_FIELDS: &[&str] = &[
    "keySecret",
    "password",
    "secretKey",
    "privateKey",
    "connectionString",
    "serviceAccountKey",
    "token",
    "accessToken",
    "secret",
];

/// What a secret value is shown as.
pub(crate) const REDACTED: &str = "[redacted]";

/// Replaces the value of every secret-bearing field, at any depth.
pub(crate) fn redact_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                if SECRET_FIELDS.contains(&key.as_str()) {
                    *child = serde_json::Value::String(REDACTED.to_owned());
                } else {
                    redact_json(child);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(redact_json),
        _ => {}
    }
}

/// Cuts a text that is not JSON (or JSON cut short) at the first secret field name.
pub(crate) fn redact_text(text: &str) -> String {
    match SECRET_FIELDS.iter().filter_map(|name| text.find(&format!("\"{name}\""))).min() {
        Some(at) => format!("{}{REDACTED}", &text[..at]),
        None => text.to_owned(),
    }
}

/// Whether a header carries a credential.
pub(crate) fn is_secret_header(name: &HeaderName) -> bool {
    matches!(name.as_str(), "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "x-api-key")
}
