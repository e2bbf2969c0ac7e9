//! The checks of a pipe's scaling and settings bodies, and of the CDC scaling of a service.

use serde_json::{Map, Value};

use super::{Checked, fail, integer_in, multiple_of, number_in, object};

/// `PATCH .../pipes/{pipeId}/scaling` (`PipeScalingPatchRequest`): replicas 1 to 40, the
/// deprecated concurrency 0 to 34, CPU 125 to 2000 millicores, memory 0.5 to 8 GB.
pub(crate) fn scale_pipe(body: &Value) -> Checked {
    let members = object(body, "body")?;
    integer_in(members, "", "replicas", 1, 40)?;
    integer_in(members, "", "concurrency", 0, 34)?;
    integer_in(members, "", "replicaCpuMillicores", 125, 2000)?;
    number_in(members, "", "replicaMemoryGb", 0.5, 8.0)
}

/// The integer settings of `PipeSettings` / `PipeSettingsPutRequest` and their ranges.
const SETTING_RANGES: &[(&str, i64, i64)] = &[
    ("streaming_max_insert_wait_ms", 500, 60_000),
    ("object_storage_concurrency", 1, 35),
    ("object_storage_polling_interval_ms", 100, 3_600_000),
    ("object_storage_max_insert_bytes", 10_485_760, 53_687_091_200),
    ("object_storage_max_file_count", 1, 10_000),
    ("engine_max_threads", 0, 64),
    ("engine_max_insert_threads", 0, 16),
    ("engine_min_insert_block_size_bytes", 0, 10_737_418_240),
    ("engine_max_download_threads", 0, 32),
    ("engine_parallel_distributed_insert_select", 0, 2),
];

/// The boolean settings of `PipeSettings`.
const SETTING_FLAGS: &[&str] = &["object_storage_use_cluster_function", "engine_parallel_view_processing"];

/// `PUT .../pipes/{pipeId}/settings` (`PipeSettingsPutRequest`): "key-value pairs where values
/// can be strings, numbers, or booleans", the known ones within their ranges.
pub(crate) fn pipe_settings(body: &Value) -> Checked {
    settings_at(object(body, "body")?, "")
}

/// The settings of `PipeSettings` at `path` (a settings body, or a pipe's `settings`): the known
/// ones within their ranges, every value a string, number or boolean.
pub(super) fn settings_at(members: &Map<String, Value>, path: &str) -> Checked {
    for (name, min, max) in SETTING_RANGES {
        integer_in(members, path, name, *min, *max)?;
    }
    for name in SETTING_FLAGS {
        if !matches!(members.get(*name), None | Some(Value::Null | Value::Bool(_))) {
            return fail(&format!("{path}{name}"), "must be a boolean");
        }
    }
    match members.iter().find(|(_, value)| matches!(value, Value::Array(_) | Value::Object(_))) {
        Some((name, _)) => fail(&format!("{path}{name}"), "must be a string, number or boolean"),
        None => Ok(()),
    }
}

/// `PATCH .../pipesCdcScaling` (`PipesCdcScalingPatchRequest`): CPU 1000 to 32000 millicores in
/// steps of 1000, memory 4 to 128 GiB in steps of 4. The 4 GiB per core is checked on the
/// scaling the patch leads to ([`cdc_memory_per_core`]). Neither member may be `null` (unlike
/// a pipe's own scaling patch, `PipeScalingPatchRequest`).
pub(crate) fn cdc_scaling(body: &Value) -> Checked {
    let members = object(body, "body")?;
    if let Some((name, _)) = members.iter().find(|(_, value)| value.is_null()) {
        return fail(name, "must not be null");
    }
    integer_in(members, "", "replicaCpuMillicores", 1000, 32_000)?;
    multiple_of(members, "replicaCpuMillicores", 1000.0)?;
    number_in(members, "", "replicaMemoryGb", 4.0, 128.0)?;
    multiple_of(members, "replicaMemoryGb", 4.0)
}

/// "Must be 4× the CPU core count" (`PipesCdcScaling.replicaMemoryGb`), on the whole scaling.
pub(crate) fn cdc_memory_per_core(scaling: &Map<String, Value>) -> Checked {
    let cpu = scaling.get("replicaCpuMillicores").and_then(Value::as_f64).unwrap_or_default();
    let memory = scaling.get("replicaMemoryGb").and_then(Value::as_f64).unwrap_or_default();
    if memory == cpu / 1000.0 * 4.0 {
        Ok(())
    } else {
        fail("replicaMemoryGb", &format!("must be 4 per CPU core ({} for {cpu} millicores)", cpu / 250.0))
    }
}
