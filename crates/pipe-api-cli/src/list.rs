//! `orgs`, `services`, `pipes`: a table on a terminal, the models' JSON with `--json`.

use std::io::IsTerminal as _;
use std::sync::Arc;

use comfy_table::{ContentArrangement, Table, presets};
use pipe_api_ureq::types::{Organization, Pipe, Service};
use serde_json::Value;

use crate::connect::Connection;
use crate::progress::Progress;
use crate::{Outcome, Result};

/// `pipe-api orgs`.
pub(crate) fn organizations(connection: &Connection, json: bool) -> Result {
    let client = connection.client(&Arc::new(Progress::quiet()))?;
    let organizations = client.list_organizations()?;
    show(&organizations, json, &["ID", "NAME", "CREATED"], |org: &Organization| {
        vec![org.id.to_string(), text(org.name.as_deref()), shown(org.created_at.as_ref().map(rfc3339))]
    })
}

/// `pipe-api services`.
pub(crate) fn services(connection: &Connection, json: bool) -> Result {
    let client = connection.client(&Arc::new(Progress::quiet()))?;
    let services = client.list_all_services(connection.organization()?)?;
    show(&services, json, &["ID", "NAME", "STATE", "PROVIDER", "REGION", "REPLICAS"], |service: &Service| {
        vec![
            service.id.to_string(),
            text(service.name.as_deref()),
            shown(service.state.as_ref()),
            shown(service.provider.as_ref()),
            shown(service.region.as_ref()),
            shown(service.num_replicas),
        ]
    })
}

/// `pipe-api pipes`.
pub(crate) fn pipes(connection: &Connection, json: bool) -> Result {
    let client = connection.client(&Arc::new(Progress::quiet()))?;
    let pipes = client.list_pipes(connection.organization()?, connection.service()?)?;
    show(&pipes, json, &["ID", "NAME", "SOURCE", "STATE", "REPLICAS"], |pipe: &Pipe| {
        vec![
            pipe.id.to_string(),
            text(pipe.name.as_deref()),
            shown(pipe.source.as_ref().and_then(|source| source.kind())),
            shown(pipe.state.as_ref()),
            shown(pipe.scaling.as_ref().and_then(|scaling| scaling.replicas)),
        ]
    })
}

/// Prints `items` as JSON (a list of the models' own JSON, each secret-bearing member
/// redacted by the library's rule, should a server ever echo one) or as a table of `row`s.
fn show<T: serde::Serialize>(items: &[T], json: bool, header: &[&str], row: impl Fn(&T) -> Vec<String>) -> Result {
    if json {
        let items =
            items.iter().map(pipe_api_ureq::proto::redacted_json).collect::<serde_json::Result<Vec<Value>>>()?;
        println!("{}", serde_json::to_string_pretty(&items)?);
        return Ok(Outcome::Done);
    }
    let mut table = Table::new();
    table.load_preset(presets::NOTHING).set_header(header.iter().copied());
    if std::io::stdout().is_terminal() {
        // Fitted to the terminal's width.
        if let Some((_, width)) = console::Term::stdout().size_checked() {
            table.set_content_arrangement(ContentArrangement::Dynamic).set_width(width);
        }
    }
    for item in items {
        table.add_row(row(item));
    }
    if items.is_empty() {
        println!("(none)");
    } else {
        // comfy-table pads each cell by a space on both sides: the first and the last are
        // trimmed, so that a line starts with its first column and ends with its last.
        for line in table.to_string().lines() {
            println!("{}", line.strip_prefix(' ').unwrap_or(line).trim_end());
        }
    }
    Ok(Outcome::Done)
}

/// A text member, or `-`.
fn text(value: Option<&str>) -> String {
    value.unwrap_or("-").to_owned()
}

/// A member shown with its `Display`, or `-`.
fn shown<T: std::fmt::Display>(value: Option<T>) -> String {
    value.map_or_else(|| "-".to_owned(), |value| value.to_string())
}

/// A time as RFC 3339.
fn rfc3339(time: &pipe_api_ureq::proto::time::OffsetDateTime) -> String {
    time.format(&pipe_api_ureq::proto::time::format_description::well_known::Rfc3339).unwrap_or_default()
}
