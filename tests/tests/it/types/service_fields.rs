//! The service fields of the reference contract (management OpenAPI, `Service`,
//! `ScalingSchedule`, `ScalingScheduleEntry`, `ScalingScheduleBaseConfig`, `CurrentScaling`),
//! read from a get-service result written by hand from those schemas, and written back as they
//! came.

use pipe_api_types::{
    AutoscalingMode, CloudProvider, ComplianceType, InstanceProfile, MemoryGb, ReleaseChannel, ResourceTag,
    ScalingScheduleEntryId, Service, ServiceRegion, ServiceState, ServiceTier,
};
use serde_json::{Value, json};

const SERVICE: &str = "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402";
const BUSINESS_HOURS: &str = "5d0b6c1e-2f3a-4b5c-8d9e-0f1a2b3c4d01";
const OVERNIGHT: &str = "5d0b6c1e-2f3a-4b5c-8d9e-0f1a2b3c4d02";

/// A horizontally autoscaling service during a weekday's business hours: its schedule's first
/// entry is active, so the scaling in effect is that entry's, not the baseline. Every property of
/// the contract's `Service` is here except those it says are absent in horizontal mode
/// (`numReplicas`, `minTotalMemoryGb`, `maxTotalMemoryGb`); `engineVersion` is the spec's name.
fn horizontal_service() -> Value {
    json!({
        "id": SERVICE,
        "name": "analytics",
        "provider": "gcp",
        "region": "europe-west4",
        "state": "running",
        "engineVersion": "25.8",
        "endpoints": [{ "protocol": "https", "host": "abc.europe-west4.gcp.example.com", "port": 8443 }],
        "tier": "production",
        "minReplicaMemoryGb": 32,
        "maxReplicaMemoryGb": 32,
        "minReplicas": 2,
        "maxReplicas": 6,
        "autoscalingMode": "horizontal",
        "replicaMemoryGb": 32,
        "idleScaling": true,
        "idleTimeoutMinutes": 15,
        "ipAccessList": [{ "source": "203.0.113.0/24", "description": "office" }],
        "createdAt": "2026-02-01T09:30:00Z",
        "encryptionKey": "projects/p/locations/europe-west4/keyRings/r/cryptoKeys/k",
        "encryptionAssumedRoleIdentifier": "service-account@p.iam.gserviceaccount.com",
        "iamRole": "arn:aws:iam::123456789012:role/analytics",
        "privateEndpointIds": [],
        "availablePrivateEndpointIds": ["psc-0a1b2c3d"],
        "dataWarehouseId": "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a499",
        "isPrimary": true,
        "isReadonly": false,
        "releaseChannel": "slow",
        "byocId": "byoc-eu-1",
        "hasTransparentDataEncryption": true,
        "profile": "v1-highmem-m",
        "transparentDataEncryptionKeyId": "tde-key-1",
        "encryptionRoleId": "tde-role-1",
        "complianceType": "hipaa",
        "tags": [{ "key": "env", "value": "prod" }],
        "enableCoreDumps": false,
        "scalingSchedule": {
            "entries": [
                {
                    "id": BUSINESS_HOURS,
                    "name": "business hours",
                    "weekdays": [1, 2, 3, 4, 5],
                    "startHourUtc": 8,
                    "endHourUtc": 18,
                    "autoscalingMode": "horizontal",
                    "minReplicaMemoryGb": 64,
                    "maxReplicaMemoryGb": 64,
                    "minReplicas": 3,
                    "maxReplicas": 10,
                    "idleScaling": false,
                    "idleTimeoutMinutes": 15,
                    "isActiveNow": true
                },
                {
                    "id": OVERNIGHT,
                    "name": "weekend nights",
                    "weekdays": [0, 6],
                    "startHourUtc": 22,
                    "endHourUtc": 4,
                    "autoscalingMode": "vertical",
                    "minReplicaMemoryGb": 16,
                    "maxReplicaMemoryGb": 120,
                    "minReplicas": 3,
                    "maxReplicas": 3,
                    "isActiveNow": false
                }
            ],
            "baseConfig": {
                "autoscalingMode": "horizontal",
                "minReplicaMemoryGb": 32,
                "maxReplicaMemoryGb": 32,
                "minReplicas": 2,
                "maxReplicas": 6,
                "idleScaling": true,
                "idleTimeoutMinutes": 15
            },
            "activeEntryId": BUSINESS_HOURS
        },
        "currentScaling": {
            "effectiveAutoscalingMode": "horizontal",
            "effectiveMinReplicaMemoryGb": 64,
            "effectiveMaxReplicaMemoryGb": 64,
            "effectiveMinReplicas": 3,
            "effectiveMaxReplicas": 10,
            "effectiveIdleScaling": false,
            "effectiveIdleTimeoutMinutes": 15,
            "activeEntryId": BUSINESS_HOURS
        }
    })
}

fn gb(value: f64) -> Option<MemoryGb> {
    Some(MemoryGb::gigabytes(value))
}

fn entry_id(text: &str) -> Option<ScalingScheduleEntryId> {
    Some(text.parse().unwrap())
}

#[test]
fn a_horizontal_service_reads_every_contract_field_and_writes_it_back() {
    let received = horizontal_service();
    let service: Service = serde_json::from_value(received.clone()).unwrap();

    assert_eq!(service.state, Some(ServiceState::Running));
    assert_eq!(service.provider, Some(CloudProvider::Gcp));
    assert_eq!(service.region, Some(ServiceRegion::GcpEuropeWest4));
    assert_eq!(service.tier, Some(ServiceTier::Production));
    assert_eq!((service.min_replicas, service.max_replicas), (Some(2), Some(6)));
    assert_eq!(service.autoscaling_mode, Some(AutoscalingMode::Horizontal));
    assert_eq!(service.replica_memory_gb, gb(32.0));
    assert_eq!((&service.min_replica_memory_gb, &service.max_replica_memory_gb), (&gb(32.0), &gb(32.0)));
    assert_eq!((&service.num_replicas, &service.min_total_memory_gb), (&None, &None));
    assert_eq!(service.release_channel, Some(ReleaseChannel::Slow));
    assert_eq!(service.profile, Some(InstanceProfile::V1HighmemM));
    assert_eq!(service.compliance_type, Some(ComplianceType::Hipaa));
    assert_eq!(service.tags, Some(vec![ResourceTag::new("env", "prod")]));
    assert_eq!(service.enable_core_dumps, Some(false));
    assert_eq!(service.encryption_role_id.as_deref(), Some("tde-role-1"));

    let schedule = service.scaling_schedule.as_ref().unwrap();
    assert_eq!(schedule.active_entry_id, entry_id(BUSINESS_HOURS));
    let entries = schedule.entries.as_ref().unwrap();
    assert_eq!(entries.len(), 2);
    let business = &entries[0];
    assert_eq!(business.id, entry_id(BUSINESS_HOURS));
    assert_eq!(business.name.as_deref(), Some("business hours"));
    assert_eq!(business.weekdays, Some(vec![1, 2, 3, 4, 5]));
    assert_eq!((business.start_hour_utc, business.end_hour_utc), (Some(8), Some(18)));
    assert_eq!(business.autoscaling_mode, Some(AutoscalingMode::Horizontal));
    assert_eq!((&business.min_replica_memory_gb, &business.max_replica_memory_gb), (&gb(64.0), &gb(64.0)));
    assert_eq!((business.min_replicas, business.max_replicas), (Some(3), Some(10)));
    assert_eq!((business.idle_scaling, business.idle_timeout_minutes), (Some(false), Some(15)));
    assert_eq!(business.is_active_now, Some(true));
    let overnight = &entries[1];
    assert_eq!(overnight.weekdays, Some(vec![0, 6]));
    assert_eq!((overnight.start_hour_utc, overnight.end_hour_utc), (Some(22), Some(4)), "spans midnight");
    assert_eq!(overnight.autoscaling_mode, Some(AutoscalingMode::Vertical));
    assert_eq!((overnight.idle_scaling, overnight.idle_timeout_minutes), (None, None));
    assert_eq!(overnight.is_active_now, Some(false));
    assert_eq!(schedule.active_entry(), Some(business));

    let base = schedule.base_config.as_ref().unwrap();
    assert_eq!(base.autoscaling_mode, Some(AutoscalingMode::Horizontal));
    assert_eq!((&base.min_replica_memory_gb, &base.max_replica_memory_gb), (&gb(32.0), &gb(32.0)));
    assert_eq!((base.min_replicas, base.max_replicas), (Some(2), Some(6)));
    assert_eq!((base.idle_scaling, base.idle_timeout_minutes), (Some(true), Some(15)));

    let current = service.current_scaling.as_ref().unwrap();
    assert_eq!(current.effective_autoscaling_mode, Some(AutoscalingMode::Horizontal));
    assert_eq!(current.effective_min_replica_memory_gb, gb(64.0));
    assert_eq!(current.effective_max_replica_memory_gb, gb(64.0));
    assert_eq!((current.effective_min_replicas, current.effective_max_replicas), (Some(3), Some(10)));
    assert_eq!(current.effective_idle_scaling, Some(false));
    assert_eq!(current.effective_idle_timeout_minutes, Some(15));
    assert_eq!(current.active_entry_id, entry_id(BUSINESS_HOURS));

    // Every field is modelled, at every level: nothing is left among the unknown fields.
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
    assert!(schedule.unknown.is_empty() && base.unknown.is_empty() && current.unknown.is_empty());
    assert!(entries.iter().all(|entry| entry.unknown.is_empty()));
    assert_eq!(serde_json::to_value(&service).unwrap(), received);
}

#[test]
fn a_schedule_without_an_active_entry_has_none() {
    let mut received = horizontal_service();
    received["scalingSchedule"].as_object_mut().unwrap().remove("activeEntryId");
    let service: Service = serde_json::from_value(received).unwrap();
    assert_eq!(service.scaling_schedule.unwrap().active_entry(), None);
    // An id no entry has names none either.
    let mut received = horizontal_service();
    received["scalingSchedule"]["activeEntryId"] = json!("00000000-0000-4000-8000-000000000000");
    let service: Service = serde_json::from_value(received).unwrap();
    assert_eq!(service.scaling_schedule.unwrap().active_entry(), None);
}

#[test]
fn values_newer_than_this_crate_are_kept() {
    let received = json!({
        "id": SERVICE,
        "provider": "oracle",
        "region": "me-central-1",
        "tier": "dedicated_standard_n2d_standard_32_16SSD",
        "autoscalingMode": "diagonal",
        "profile": "v2-default",
        "complianceType": "fedramp",
        "currentScaling": { "effectiveAutoscalingMode": "diagonal", "effectiveReplicaCpuMillicores": 4000 }
    });
    let service: Service = serde_json::from_value(received.clone()).unwrap();
    assert_eq!(service.provider.as_ref().unwrap().as_str(), "oracle");
    assert!(!service.provider.as_ref().unwrap().is_known());
    assert_eq!(service.region.as_ref().unwrap().as_str(), "me-central-1");
    assert_eq!(service.tier, Some(ServiceTier::DedicatedStandardN2dStandard32With16Ssd));
    assert!(!service.autoscaling_mode.as_ref().unwrap().is_known());
    assert!(!service.profile.as_ref().unwrap().is_known() && !service.compliance_type.as_ref().unwrap().is_known());
    let current = service.current_scaling.as_ref().unwrap();
    assert_eq!(current.unknown.names().collect::<Vec<_>>(), ["effectiveReplicaCpuMillicores"]);
    assert_eq!(serde_json::to_value(&service).unwrap(), received);
}

#[test]
fn values_out_of_their_type_read_as_absent_and_are_kept() {
    let received = json!({
        "id": SERVICE,
        "minReplicas": 2.5,
        "maxReplicas": -1,
        "replicaMemoryGb": "lots",
        "scalingSchedule": {
            "entries": [{
                "id": "entry-1",
                "weekdays": [1, "Tue"],
                "startHourUtc": "08",
                "endHourUtc": 300,
                "minReplicaMemoryGb": "16Gi",
                "maxReplicaMemoryGb": { "gb": 64 },
                "idleTimeoutMinutes": 7.5
            }],
            "baseConfig": { "minReplicas": "2", "maxReplicaMemoryGb": [] },
            "activeEntryId": 42
        },
        "currentScaling": {
            "effectiveMinReplicas": "3",
            "effectiveMaxReplicaMemoryGb": "",
            "effectiveIdleTimeoutMinutes": 1e99,
            "activeEntryId": "not-a-uuid"
        }
    });
    let service: Service = serde_json::from_value(received.clone()).unwrap();
    // The names kept, sorted: `json!` sorts an object's members.
    let kept = |unknown: &pipe_api_types::UnknownFields| {
        let mut names = unknown.names().map(str::to_owned).collect::<Vec<_>>();
        names.sort();
        names
    };

    assert_eq!((service.min_replicas, service.max_replicas, &service.replica_memory_gb), (None, None, &None));
    assert_eq!(kept(&service.unknown), ["maxReplicas", "minReplicas", "replicaMemoryGb"]);

    let schedule = service.scaling_schedule.as_ref().unwrap();
    assert_eq!(schedule.active_entry_id, None);
    assert_eq!(kept(&schedule.unknown), ["activeEntryId"]);
    let entry = &schedule.entries.as_ref().unwrap()[0];
    assert_eq!((entry.id, &entry.weekdays, entry.start_hour_utc, entry.end_hour_utc), (None, &None, None, None));
    // A quantity string is a memory size still: only what fits no reading is kept.
    assert_eq!(entry.min_replica_memory_gb.as_ref().map(MemoryGb::value), Some(16.0));
    assert_eq!((&entry.max_replica_memory_gb, entry.idle_timeout_minutes), (&None, None));
    assert_eq!(
        kept(&entry.unknown),
        ["endHourUtc", "id", "idleTimeoutMinutes", "maxReplicaMemoryGb", "startHourUtc", "weekdays"]
    );
    let base = schedule.base_config.as_ref().unwrap();
    assert_eq!((base.min_replicas, &base.max_replica_memory_gb), (None, &None));
    assert_eq!(kept(&base.unknown), ["maxReplicaMemoryGb", "minReplicas"]);

    let current = service.current_scaling.as_ref().unwrap();
    assert_eq!((current.effective_min_replicas, &current.effective_max_replica_memory_gb), (None, &None));
    assert_eq!((current.effective_idle_timeout_minutes, current.active_entry_id), (None, None));
    assert_eq!(
        kept(&current.unknown),
        ["activeEntryId", "effectiveIdleTimeoutMinutes", "effectiveMaxReplicaMemoryGb", "effectiveMinReplicas"]
    );

    // Nothing is lost: every value is written back as it came.
    assert_eq!(serde_json::to_value(&service).unwrap(), received);
}

#[test]
fn the_contracts_clickhouse_version_fills_engine_version_and_is_written_back_under_that_name() {
    // The contract's (and real answers') name.
    let received = serde_json::json!({"id": "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402", "clickhouseVersion": "25.8.1.1"});
    let service: pipe_api_types::Service = serde_json::from_value(received.clone()).unwrap();
    assert_eq!(service.engine_version.as_deref(), Some("25.8.1.1"));
    assert!(service.unknown.is_empty(), "{:?}", service.unknown);
    assert_eq!(serde_json::to_value(&service).unwrap(), received);
    // Changed, it is still written under the name received.
    let changed = service.engine_version("25.9");
    assert_eq!(serde_json::to_value(&changed).unwrap()["clickhouseVersion"], "25.9");
    // The spec's name is read and written as before.
    let spec = serde_json::json!({"id": "8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402", "engineVersion": "24.3"});
    let service: pipe_api_types::Service = serde_json::from_value(spec.clone()).unwrap();
    assert_eq!(service.engine_version.as_deref(), Some("24.3"));
    assert_eq!(serde_json::to_value(&service).unwrap(), spec);
}
