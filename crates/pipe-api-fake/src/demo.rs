//! `Fake::demo()`: one organization with a key, a running service with pipes and reverse private
//! endpoints, and alerts with a token, so the example and the README run with no setup.

use pipe_api_types::{Alert, KeyRole, OrganizationId, ServiceId};
use serde_json::json;

use crate::Fake;

/// The demo organization.
pub const DEMO_ORGANIZATION_ID: OrganizationId =
    OrganizationId::from_uuid(uuid::uuid!("5d7c2f9e-3b1a-4c8d-9e2f-6a0b1c2d3e01"));
/// The demo organization's running service.
pub const DEMO_SERVICE_ID: ServiceId = ServiceId::from_uuid(uuid::uuid!("8f3e1d2c-4b5a-4697-a8b9-c0d1e2f3a402"));
/// The key id of the demo organization's admin key.
pub const DEMO_KEY_ID: &str = "DemoKeyId0PipeApiFk1";
/// The key secret of the demo organization's admin key (not a real secret: it only opens the fake).
pub const DEMO_KEY_SECRET: &str = "demo_secret_of_the_pipe_api_fake_only_0001";
/// The token the demo alerting interface accepts.
pub const DEMO_ALERTS_TOKEN: &str = "0c9b7a65-4e3d-4c2b-8a19-f8e7d6c5b403";

impl Fake {
    /// A fake with demo data: [`DEMO_ORGANIZATION_ID`] with an admin key ([`DEMO_KEY_ID`],
    /// [`DEMO_KEY_SECRET`]), the running service [`DEMO_SERVICE_ID`] with two pipes and two
    /// reverse private endpoints, and three alerts behind [`DEMO_ALERTS_TOKEN`], in both the
    /// older and the newer servers' shapes.
    pub fn demo() -> Fake {
        let fake = Fake::new();
        let (org, service) = (DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID);
        fake.seed_key(org, DEMO_KEY_ID, DEMO_KEY_SECRET, [KeyRole::Admin]);
        // The demo data is written as the server's JSON and kept as it is, so it answers
        // exactly as a real service would.
        fake.seed_service_json(org, demo_service());
        for pipe in demo_pipes() {
            fake.seed_pipe_json(org, service, pipe);
        }
        for endpoint in demo_reverse_private_endpoints() {
            fake.seed_reverse_private_endpoint_json(org, service, endpoint);
        }
        fake.seed_alerts_token(DEMO_ALERTS_TOKEN);
        for alert in demo_alerts() {
            // Alerts are kept in the newer servers' names, which `seed_alert` maps to.
            fake.seed_alert(serde_json::from_value::<Alert>(alert).expect("the demo alerts are valid"));
        }
        fake
    }
}

fn demo_service() -> serde_json::Value {
    json!({
        "id": DEMO_SERVICE_ID,
        "name": "demo-warehouse",
        "provider": "aws",
        "region": "eu-west-1",
        "engineVersion": "25.8",
        "endpoints": [
            { "protocol": "https", "host": "demo.eu-west-1.aws.example.invalid", "port": 8443, "username": null },
            { "protocol": "nativesecure", "host": "demo.eu-west-1.aws.example.invalid", "port": 9440, "username": null },
            { "protocol": "mysql", "host": "demo.eu-west-1.aws.example.invalid", "port": 3306, "username": "demo_user" }
        ],
        "minReplicaMemoryGb": 8,
        "maxReplicaMemoryGb": 120,
        "numReplicas": 3,
        "idleScaling": true,
        "idleTimeoutMinutes": 15,
        "ipAccessList": [{ "source": "0.0.0.0/0", "description": "anywhere" }],
        "createdAt": "2025-11-03T09:12:44Z",
        "isPrimary": true,
        "isReadonly": false
    })
}

fn demo_pipes() -> [serde_json::Value; 2] {
    [
        json!({
            "id": "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19001",
            "serviceId": DEMO_SERVICE_ID,
            "name": "orders-from-kafka",
            "state": "Running",
            "scaling": { "replicas": 2, "concurrency": 1, "replicaCpuMillicores": 500, "replicaMemoryGb": 2 },
            "source": { "kafka": {
                "type": "confluent", "format": "JSONEachRow",
                "brokers": "pkc-demo.eu-west-1.aws.confluent.cloud:9092", "topics": "orders",
                "consumerGroup": "pipe-orders", "authentication": "PLAIN",
                "offset": { "strategy": "from_latest" }
            } },
            "destination": {
                "database": "default", "table": "orders", "managedTable": true,
                "tableDefinition": { "engine": { "type": "MergeTree" }, "sortingKey": ["id"] },
                "columns": [{ "name": "id", "type": "UInt64" }, { "name": "amount", "type": "Decimal(18, 2)" }]
            },
            "fieldMappings": [{ "sourceField": "order_id", "destinationField": "id" }],
            "createdAt": "2025-12-01T08:00:00Z",
            "updatedAt": "2025-12-02T10:30:00Z"
        }),
        json!({
            "id": "2a6f0c1e-9d8b-4a7c-b6e5-d4c3b2a19002",
            "serviceId": DEMO_SERVICE_ID,
            "name": "events-from-s3",
            "state": "Stopped",
            "scaling": { "replicas": 1, "replicaCpuMillicores": "1", "replicaMemoryGb": "4Gi" },
            "source": { "objectStorage": {
                "type": "s3", "format": "JSONEachRow",
                "url": "https://demo-bucket.s3.eu-west-1.amazonaws.com/events/*.json",
                "isContinuous": true, "authentication": "IAM_ROLE",
                "iamRole": "arn:aws:iam::123456789012:role/demo-pipes"
            } },
            "destination": { "database": "default", "table": "events", "managedTable": false },
            "createdAt": "2025-12-05T12:00:00Z",
            "updatedAt": "2025-12-06T12:00:00Z"
        }),
    ]
}

fn demo_reverse_private_endpoints() -> [serde_json::Value; 2] {
    [
        json!({
            "id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2001",
            "serviceId": DEMO_SERVICE_ID,
            "description": "orders VPC endpoint service",
            "type": "VPC_ENDPOINT_SERVICE",
            "vpcEndpointServiceName": "com.amazonaws.vpce.eu-west-1.vpce-svc-0demo",
            "endpointId": "vpce-0demo1",
            "dnsNames": ["vpce-0demo1.vpce-svc-0demo.eu-west-1.vpce.amazonaws.com"],
            "privateDnsNames": [],
            "status": "Ready"
        }),
        json!({
            "id": "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2002",
            "serviceId": DEMO_SERVICE_ID,
            "description": "MSK cluster",
            "type": "MSK_MULTI_VPC",
            "mskClusterArn": "arn:aws:kafka:eu-west-1:123456789012:cluster/demo/0d3m0",
            "mskAuthentication": "SASL_IAM",
            "dnsNames": [],
            "privateDnsNames": [],
            "status": "Provisioning"
        }),
    ]
}

fn demo_alerts() -> [serde_json::Value; 3] {
    [
        // An older server's shape.
        json!({
            "id": "65f1a2b3c4d5e6f708192a3b",
            "name": "Pipe errors",
            "message": "Too many ingestion errors",
            "threshold": 10,
            "interval": "5m",
            "thresholdType": "above",
            "source": "saved_search",
            "state": "OK",
            "channel": { "type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190001" },
            "team": "65f1a2b3c4d5e6f708190100",
            "savedSearch": "65f1a2b3c4d5e6f708190200",
            "createdAt": "2025-10-01T00:00:00Z",
            "updatedAt": "2025-10-01T00:00:00Z"
        }),
        // A newer server's shape.
        json!({
            "id": "65f1a2b3c4d5e6f708192a3c",
            "name": "Lag between bounds",
            "threshold": 100,
            "thresholdMax": 5000,
            "interval": "15m",
            "thresholdType": "between",
            "source": "tile",
            "state": "ALERT",
            "channel": { "type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190002" },
            "channels": [{ "type": "webhook", "webhookId": "65f1a2b3c4d5e6f708190002" }],
            "teamId": "65f1a2b3c4d5e6f708190100",
            "dashboardId": "65f1a2b3c4d5e6f708190300",
            "tileId": "tile-lag",
            "groupBy": "pipe",
            "note": "page the on-call",
            "createdAt": "2026-06-01T00:00:00Z",
            "updatedAt": "2026-06-02T00:00:00Z"
        }),
        json!({
            "id": "65f1a2b3c4d5e6f708192a3d",
            "name": "Silenced during migration",
            "threshold": 1,
            "interval": "1h",
            "thresholdType": "below_or_equal",
            "source": "saved_search",
            "state": "PENDING",
            "teamId": "65f1a2b3c4d5e6f708190100",
            "savedSearchId": "65f1a2b3c4d5e6f708190201",
            "silenced": { "by": "ops@example.invalid", "at": "2026-06-10T00:00:00Z", "until": "2026-06-11T00:00:00Z" },
            "createdAt": "2026-06-01T00:00:00Z"
        }),
    ]
}
