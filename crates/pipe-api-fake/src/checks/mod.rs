//! The fake's own server-side checks of request bodies, read as plain JSON and written from the
//! contract (the management OpenAPI document's `KeyPostRequest` and `PipePostRequest`, and the
//! service notes), never from the client's models or validator: a client rule or wire name that
//! is wrong cannot hide behind them. Each check names the field the way the service does.
//!
//! One file per resource, as `routes/` has, whose handlers name each check by its file
//! (`checks::services::create_service`); this file holds the helpers they share.

use serde_json::{Map, Value};

pub(crate) mod alerts;
pub(crate) mod keys;
pub(crate) mod organizations;
pub(crate) mod pipe_settings;
pub(crate) mod pipes;
pub(crate) mod reverse_private_endpoints;
pub(crate) mod services;

/// A refused body: the field's path and what is wrong with it.
pub(crate) struct Problem(pub String);

type Checked = Result<(), Problem>;

fn fail(path: &str, why: &str) -> Checked {
    Err(Problem(format!("{path}: {why}")))
}

/// The members of an object, or a refusal naming `path`.
fn object<'v>(value: &'v Value, path: &str) -> Result<&'v Map<String, Value>, Problem> {
    value.as_object().ok_or_else(|| Problem(format!("{path}: must be an object")))
}

/// A member that must be a non-empty string.
fn required_text(members: &Map<String, Value>, path: &str, name: &str) -> Checked {
    match members.get(name) {
        Some(Value::String(text)) if !text.trim().is_empty() => Ok(()),
        Some(Value::String(_)) => fail(&format!("{path}{name}"), "must not be empty"),
        Some(_) => fail(&format!("{path}{name}"), "must be a string"),
        None => fail(&format!("{path}{name}"), "is required"),
    }
}

/// A member that, when present, must be one of `allowed`; required when `required`.
fn one_of(members: &Map<String, Value>, path: &str, name: &str, allowed: &[&str], required: bool) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) if !required => Ok(()),
        None | Some(Value::Null) => fail(&format!("{path}{name}"), "is required"),
        Some(Value::String(text)) if allowed.contains(&text.as_str()) => Ok(()),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be one of {}", allowed.join(", "))),
    }
}

/// A member that, when present, must be an integer within `min..=max`.
fn integer_in(members: &Map<String, Value>, path: &str, name: &str, min: i64, max: i64) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(value) if value.as_i64().is_some_and(|n| (min..=max).contains(&n)) => Ok(()),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be an integer from {min} to {max}")),
    }
}

/// IP access entries (keys' and services'): each `source` an address or a block.
fn ip_access_entries(entries: &Value, path: &str) -> Checked {
    let entries = entries.as_array().ok_or_else(|| Problem(format!("{path}: must be an array")))?;
    for (i, entry) in entries.iter().enumerate() {
        let entry = object(entry, &format!("{path}[{i}]"))?;
        let source = entry.get("source").and_then(Value::as_str).unwrap_or_default();
        if !is_address_or_block(source) {
            return fail(&format!("{path}[{i}].source"), "must be an IP address or a CIDR block");
        }
    }
    Ok(())
}

/// An IP address, or a CIDR block whose prefix length fits the address.
fn is_address_or_block(text: &str) -> bool {
    let (address, bits) = text.split_once('/').map_or((text, None), |(a, b)| (a, Some(b)));
    let Ok(address) = address.parse::<std::net::IpAddr>() else { return false };
    let max = if address.is_ipv4() { 32 } else { 128 };
    bits.is_none_or(|bits| bits.bytes().all(|b| b.is_ascii_digit()) && bits.parse::<u8>().is_ok_and(|b| b <= max))
}

/// A member that, when present, must be a number within `min..=max`.
fn number_in(members: &Map<String, Value>, path: &str, name: &str, min: f64, max: f64) -> Checked {
    match members.get(name) {
        None | Some(Value::Null) => Ok(()),
        Some(value) if value.as_f64().is_some_and(|n| (min..=max).contains(&n)) => Ok(()),
        Some(_) => fail(&format!("{path}{name}"), &format!("must be a number from {min} to {max}")),
    }
}

/// A member that, when present, must be a number that is a whole multiple of `step`.
fn multiple_of(members: &Map<String, Value>, name: &str, step: f64) -> Checked {
    match members.get(name).and_then(Value::as_f64) {
        Some(n) if n % step != 0.0 => fail(name, &format!("must be a multiple of {step}")),
        _ => Ok(()),
    }
}
