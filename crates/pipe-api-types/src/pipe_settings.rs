//! Tuning a pipe after it exists: its scaling (read as a [`Scaling`]; the body of
//! `PATCH .../pipes/{id}/scaling` is an [`UpdatePipeScalingRequest`]), its settings
//! (`GET`/`PUT .../pipes/{id}/settings`, a [`PipeSettings`] replaced whole), the schema discovery
//! of a streaming source, and the scaling shared by a service's database (CDC) pipes
//! ([`PipesCdcScaling`]).

use crate::Nullable;
use crate::nullable::set;
use crate::quantity::{CpuMillicores, MemoryGb, Quantity};
use crate::validate::{Checker, Rule, Validate, ValidationErrors};

model! {
    /// The body of `PATCH .../pipes/{pipeId}/scaling` (management OpenAPI,
    /// `PipeScalingPatchRequest`): what changes of a pipe's [`Scaling`]. Its own model, not
    /// [`Scaling`], because the contract lets each member of the patch be `null` (`["integer",
    /// "null"]`), and not those of the scaling a pipe is read with (`PipeScaling`).
    pub struct UpdatePipeScalingRequest {
        /// Number of replicas (1 to 40; Kafka-style pipes).
        "replicas" replicas: Nullable<u32>,
        /// Concurrency (0 to 34; object storage; deprecated).
        "concurrency" concurrency: Nullable<u32>,
        /// CPU per replica, in millicores (125 to 2000; streaming pipes).
        "replicaCpuMillicores" replica_cpu_millicores: Nullable<CpuMillicores>,
        /// Memory per replica, in GB (0.5 to 8; streaming pipes).
        "replicaMemoryGb" replica_memory_gb: Nullable<MemoryGb>,
    }
}

/// A scaling as read (or declared) becomes the patch that sets each of its members.
impl From<Scaling> for UpdatePipeScalingRequest {
    fn from(scaling: Scaling) -> Self {
        UpdatePipeScalingRequest {
            replicas: scaling.replicas.map(Nullable::Value),
            concurrency: scaling.concurrency.map(Nullable::Value),
            replica_cpu_millicores: scaling.replica_cpu_millicores.map(Nullable::Value),
            replica_memory_gb: scaling.replica_memory_gb.map(Nullable::Value),
            unknown: scaling.unknown,
        }
    }
}

/// Every member optional, each within the bounds of `PipeScaling` (the create request's rule,
/// the same function) unless `null`, and the deprecated `concurrency` 0 to 34.
impl Validate for UpdatePipeScalingRequest {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| {
            check_scaling_values(
                c,
                set(&self.replicas).copied(),
                set(&self.replica_cpu_millicores).map(Quantity::value),
                set(&self.replica_memory_gb).map(Quantity::value),
            );
            // PipeScalingPatchRequest.concurrency: minimum 0, maximum 34 (only on the patch;
            // the create request's `PipeScaling.concurrency` states no bound).
            if set(&self.concurrency).is_some_and(|concurrency| *concurrency > 34) {
                c.fail_at("concurrency", Rule::Range { min: 0, max: 34 });
            }
        })
    }
}

/// The integer ranges of the management OpenAPI's `PipeSettings` and `PipeSettingsPutRequest`
/// (the same table in both): the field's wire name, its reader, and its bounds.
type SettingRange = (&'static str, fn(&PipeSettings) -> Option<u64>, i64, i64);

const SETTING_RANGES: [SettingRange; 10] = [
    ("streaming_max_insert_wait_ms", |s| set(&s.streaming_max_insert_wait_ms).copied(), 500, 60_000),
    ("object_storage_concurrency", |s| set(&s.object_storage_concurrency).copied(), 1, 35),
    ("object_storage_polling_interval_ms", |s| set(&s.object_storage_polling_interval_ms).copied(), 100, 3_600_000),
    (
        "object_storage_max_insert_bytes",
        |s| set(&s.object_storage_max_insert_bytes).copied(),
        10_485_760,
        53_687_091_200,
    ),
    ("object_storage_max_file_count", |s| set(&s.object_storage_max_file_count).copied(), 1, 10_000),
    ("engine_max_threads", |s| set(&s.engine_max_threads).copied(), 0, 64),
    ("engine_max_insert_threads", |s| set(&s.engine_max_insert_threads).copied(), 0, 16),
    ("engine_min_insert_block_size_bytes", |s| set(&s.engine_min_insert_block_size_bytes).copied(), 0, 10_737_418_240),
    ("engine_max_download_threads", |s| set(&s.engine_max_download_threads).copied(), 0, 32),
    ("engine_parallel_distributed_insert_select", |s| set(&s.engine_parallel_distributed_insert_select).copied(), 0, 2),
];

/// Every settings range the contract states (management OpenAPI, `PipeSettings`), each at its
/// field; fields this crate does not model are the server's to judge.
pub(crate) fn check_settings(c: &mut Checker, settings: &PipeSettings) {
    for (name, read, min, max) in SETTING_RANGES {
        let inside = |value: u64| i64::try_from(value).is_ok_and(|value| (min..=max).contains(&value));
        if read(settings).is_some_and(|value| !inside(value)) {
            c.fail_at(name, Rule::Range { min, max });
        }
    }
}

/// The body of `PUT .../pipes/{pipeId}/settings` (`PipeSettingsPutRequest`): a full replace,
/// so send the value read with `GET` changed where wanted; the fields this crate does not model
/// travel in [`PipeSettings::unknown`] and are sent back as they came.
impl Validate for PipeSettings {
    fn validate(&self) -> Result<(), ValidationErrors> {
        Checker::run(self, |c| check_settings(c, self))
    }
}

model! {
    /// The compute shared by every database (CDC) pipe of a service, for initial loads and
    /// replication: read with `GET .../pipesCdcScaling`, and the body of its `PATCH`
    /// (`PipesCdcScalingPatchRequest`, the same fields). It exists once a database pipe was
    /// provisioned in the service.
    pub struct PipesCdcScaling {
        /// CPU in millicores: 1000 to 32000, in steps of 1000.
        "replicaCpuMillicores" replica_cpu_millicores: CpuMillicores,
        /// Memory in GiB: 4 to 128, in steps of 4, and 4 per CPU core.
        "replicaMemoryGb" replica_memory_gb: MemoryGb,
    }
}

/// Memory per CPU core of database pipes (management OpenAPI, `PipesCdcScaling.replicaMemoryGb`:
/// "Must be 4× the CPU core count").
const CDC_GB_PER_CORE: f64 = 4.0;

/// The bounds of the management OpenAPI's `PipesCdcScalingPatchRequest`: CPU 1000 to 32000
/// millicores, a multiple of 1000; memory 4 to 128 GiB, a multiple of 4; and, when both are
/// sent, 4 GiB per core.
impl Validate for PipesCdcScaling {
    fn validate(&self) -> Result<(), ValidationErrors> {
        let cpu = self.replica_cpu_millicores.as_ref().map(Quantity::value);
        let memory = self.replica_memory_gb.as_ref().map(Quantity::value);
        Checker::run(self, |c| {
            if let Some(cpu) = cpu {
                if !(1000.0..=32000.0).contains(&cpu) {
                    c.fail_at("replicaCpuMillicores", Rule::Range { min: 1000, max: 32000 });
                }
                if cpu % 1000.0 != 0.0 {
                    c.fail_at("replicaCpuMillicores", Rule::MultipleOf(1000));
                }
            }
            if let Some(memory) = memory {
                if !(4.0..=128.0).contains(&memory) {
                    c.fail_at("replicaMemoryGb", Rule::Range { min: 4, max: 128 });
                }
                if memory % 4.0 != 0.0 {
                    c.fail_at("replicaMemoryGb", Rule::MultipleOf(4));
                }
            }
            if let (Some(cpu), Some(memory)) = (cpu, memory) {
                if memory != cpu / 1000.0 * CDC_GB_PER_CORE {
                    c.fail_at("replicaMemoryGb", Rule::Consistent("4 per CPU core (replicaCpuMillicores / 250)"));
                }
            }
        })
    }
}

impl PipesCdcScaling {
    /// `cores` CPU cores with the 4 GiB of memory per core the service requires.
    pub fn with_cores(cores: u32) -> Self {
        PipesCdcScaling::default()
            .replica_cpu_millicores(cores.saturating_mul(1000))
            .replica_memory_gb(f64::from(cores) * CDC_GB_PER_CORE)
    }
}

model! {
    /// How a pipe scales.
    pub struct Scaling {
        /// Number of replicas.
        "replicas" replicas: u32,
        /// Concurrency (object storage).
        "concurrency" concurrency: u32,
        /// CPU per replica, in millicores; read from a number or a quantity such as `"500m"`.
        "replicaCpuMillicores" replica_cpu_millicores: CpuMillicores,
        /// Memory per replica, in GB; read from a number or a quantity such as `"2Gi"`.
        "replicaMemoryGb" replica_memory_gb: MemoryGb,
    }
}

model! {
    /// Pipe-level tuning settings (the management OpenAPI's `PipeSettings`, which a pipe is
    /// read with and a create and an update send, and `PipeSettingsPutRequest`): each member is
    /// `["integer", "null"]` or `["boolean", "null"]` in all of them, so each is
    /// [`Nullable`](crate::Nullable): `null` returns a setting to its default.
    pub struct PipeSettings {
        /// Longest wait before an insert, in ms.
        "streaming_max_insert_wait_ms" streaming_max_insert_wait_ms: Nullable<u64>,
        /// Files processed concurrently.
        "object_storage_concurrency" object_storage_concurrency: Nullable<u64>,
        /// Polling interval of continuous ingestion, in ms.
        "object_storage_polling_interval_ms" object_storage_polling_interval_ms: Nullable<u64>,
        /// Bytes per insert batch.
        "object_storage_max_insert_bytes" object_storage_max_insert_bytes: Nullable<u64>,
        /// Files per insert batch.
        "object_storage_max_file_count" object_storage_max_file_count: Nullable<u64>,
        /// Threads for file processing.
        "engine_max_threads" engine_max_threads: Nullable<u64>,
        /// Insert threads.
        "engine_max_insert_threads" engine_max_insert_threads: Nullable<u64>,
        /// Smallest insert block, in bytes.
        "engine_min_insert_block_size_bytes" engine_min_insert_block_size_bytes: Nullable<u64>,
        /// Download threads.
        "engine_max_download_threads" engine_max_download_threads: Nullable<u64>,
        /// Parallel distributed insert-select mode.
        "engine_parallel_distributed_insert_select" engine_parallel_distributed_insert_select: Nullable<u64>,
        /// Whether to use the cluster function.
        "object_storage_use_cluster_function" object_storage_use_cluster_function: Nullable<bool>,
        /// Whether attached views are fed in parallel.
        "engine_parallel_view_processing" engine_parallel_view_processing: Nullable<bool>,
    }
}

/// The bounds of the management OpenAPI's `PipeScaling`: replicas 1 to 40, CPU 125 to 2000
/// millicores, memory 0.5 to 8 GB per replica.
pub(crate) fn check_scaling(c: &mut Checker, scaling: &Scaling) {
    check_scaling_values(
        c,
        scaling.replicas,
        scaling.replica_cpu_millicores.as_ref().map(Quantity::value),
        scaling.replica_memory_gb.as_ref().map(Quantity::value),
    );
}

/// [`check_scaling`]'s bounds on the values given, from a scaling or its patch.
fn check_scaling_values(c: &mut Checker, replicas: Option<u32>, cpu: Option<f64>, memory: Option<f64>) {
    if replicas.is_some_and(|replicas| !(1..=40).contains(&replicas)) {
        c.fail_at("replicas", Rule::Range { min: 1, max: 40 });
    }
    let outside = |value: Option<f64>, min: f64, max: f64| value.is_some_and(|v| !(min..=max).contains(&v));
    if outside(cpu, 125.0, 2000.0) {
        c.fail_at("replicaCpuMillicores", Rule::Range { min: 125, max: 2000 });
    }
    if outside(memory, 0.5, 8.0) {
        c.fail_at("replicaMemoryGb", Rule::DecimalRange { min: "0.5", max: "8" });
    }
}
