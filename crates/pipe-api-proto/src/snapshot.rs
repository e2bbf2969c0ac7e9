//! A stable text rendering of a built request, for snapshot tests (`insta::assert_snapshot!`)
//! of what code sends: method and URI, headers sorted with credentials redacted, and the JSON
//! body pretty-printed with keys in sorted order and secret values redacted.

use std::fmt::Write as _;

use http::Request;

use crate::api::USER_AGENT_VALUE;
use crate::redact::{REDACTED, is_secret_header, redact_json};

/// Renders `request` as stable text:
///
/// ```text
/// POST https://api.example.com/v1/organizations/…/keys
/// accept: application/json
/// authorization: Basic [redacted]
/// content-type: application/json
/// user-agent: pipe-api-proto/[version]
///
/// {
///   "name": "ci",
///   "roles": [
///     "developer"
///   ]
/// }
/// ```
///
/// The crate's own `User-Agent` shows `[version]`, so snapshots survive upgrades.
pub fn render_request(request: &Request<Vec<u8>>) -> String {
    let mut out = format!("{} {}\n", request.method(), request.uri());
    let mut headers: Vec<(&str, String)> = request
        .headers()
        .iter()
        .map(|(name, value)| {
            let shown = if is_secret_header(name) || value.is_sensitive() {
                match value.to_str().ok().and_then(|v| v.split_once(' ')) {
                    Some((scheme, _)) => format!("{scheme} {REDACTED}"),
                    None => REDACTED.to_owned(),
                }
            } else if name == http::header::USER_AGENT && value == USER_AGENT_VALUE {
                "pipe-api-proto/[version]".to_owned()
            } else {
                String::from_utf8_lossy(value.as_bytes()).into_owned()
            };
            (name.as_str(), shown)
        })
        .collect();
    // Stable: by name, and by value among repeated names.
    headers.sort();
    for (name, value) in headers {
        let _ = writeln!(out, "{name}: {value}");
    }
    let body = request.body();
    if !body.is_empty() {
        out.push('\n');
        match serde_json::from_slice::<serde_json::Value>(body) {
            Ok(mut value) => {
                redact_json(&mut value);
                write_sorted(&mut out, &value, 0);
                out.push('\n');
            }
            Err(_) => {
                let _ = writeln!(out, "({} bytes, not JSON)", body.len());
                out.push_str(&crate::redact::redact_text(&String::from_utf8_lossy(body)));
                out.push('\n');
            }
        }
    }
    out
}

/// Pretty-prints with two-space indentation and object keys sorted, whatever map type
/// serde_json was built with.
pub(crate) fn write_sorted(out: &mut String, value: &serde_json::Value, indent: usize) {
    use serde_json::Value;
    let pad = |out: &mut String, level: usize| out.extend(std::iter::repeat_n("  ", level));
    match value {
        Value::Object(map) if !map.is_empty() => {
            let mut entries: Vec<_> = map.iter().collect();
            entries.sort_by(|a, b| a.0.cmp(b.0));
            out.push_str("{\n");
            for (i, (key, child)) in entries.iter().enumerate() {
                pad(out, indent + 1);
                out.push_str(&Value::String((*key).clone()).to_string());
                out.push_str(": ");
                write_sorted(out, child, indent + 1);
                out.push_str(if i + 1 < entries.len() { ",\n" } else { "\n" });
            }
            pad(out, indent);
            out.push('}');
        }
        Value::Array(items) if !items.is_empty() => {
            out.push_str("[\n");
            for (i, item) in items.iter().enumerate() {
                pad(out, indent + 1);
                write_sorted(out, item, indent + 1);
                out.push_str(if i + 1 < items.len() { ",\n" } else { "\n" });
            }
            pad(out, indent);
            out.push(']');
        }
        scalar_or_empty => out.push_str(&scalar_or_empty.to_string()),
    }
}

/// A request model (or any model) as JSON for a snapshot (`insta::assert_json_snapshot!`),
/// with every secret-bearing field redacted by the same list as [`render_request`]: a model's
/// own `Serialize` writes its secrets in clear, as the request must carry them.
///
/// ```
/// use pipe_api_proto::redacted_json;
/// use pipe_api_proto::types::{CreateKeyRequest, KeyRole};
///
/// let json = redacted_json(&CreateKeyRequest::new("ci", [KeyRole::Developer])).unwrap();
/// assert_eq!(json["name"], "ci");
/// ```
pub fn redacted_json<T: serde::Serialize>(model: &T) -> Result<serde_json::Value, serde_json::Error> {
    let mut json = serde_json::to_value(model)?;
    redact_json(&mut json);
    Ok(json)
}
