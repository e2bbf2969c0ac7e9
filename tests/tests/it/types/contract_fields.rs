//! Fields the reference contract has that are modelled as typed fields (issue 17, part 3), read
//! from JSON written by hand from the contract's schemas, and written back as they came.

use pipe_api_types::{CreateKeyRequest, Key, KeyRole, Pipe, RoleType};
use serde_json::json;

#[test]
fn a_pipe_reads_validate_samples_partitioning_and_destination_roles() {
    let received = json!({
        "id": "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e",
        "source": {
            "validateSamples": true,
            "postgres": {
                "host": "db.example.com",
                "tableMappings": [{
                    "sourceSchemaName": "public", "sourceTable": "orders", "targetTable": "public_orders",
                    "partitionKey": "id", "partitionByExpr": "toYYYYMM(created_at)"
                }]
            }
        },
        "destination": { "database": "shop", "roles": ["analyst", "loader"] }
    });
    let pipe: Pipe = serde_json::from_value(received.clone()).unwrap();
    let source = pipe.source.as_ref().unwrap();
    assert_eq!(source.validate_samples, Some(true));
    assert_eq!(source.kinds().len(), 1, "validateSamples is no source kind");
    let mapping = &source.postgres.as_ref().unwrap().table_mappings.as_ref().unwrap()[0];
    assert_eq!(mapping.partition_key.as_deref(), Some("id"));
    assert_eq!(mapping.partition_by_expr.as_deref(), Some("toYYYYMM(created_at)"));
    let roles = pipe.destination.as_ref().unwrap().roles.as_ref().unwrap();
    assert_eq!(roles.iter().map(|r| r.as_str()).collect::<Vec<_>>(), ["analyst", "loader"]);
    assert!(pipe.unknown.is_empty() && source.unknown.is_empty());
    assert_eq!(serde_json::to_value(&pipe).unwrap(), received);
}

#[test]
fn a_key_reads_its_assigned_roles_and_a_create_sends_assigned_role_ids() {
    let key: Key = serde_json::from_value(json!({
        "id": "3c2b1a09-8f7e-4d6c-b5a4-93827160f5e4",
        "assignedRoles": [
            { "roleId": "0d9c8b7a-6f5e-4d3c-8b2a-190817161514", "roleName": "Developer", "roleType": "system" },
            { "roleId": "1e0d9c8b-7a6f-4e5d-9c3b-2a1908171615", "roleName": "Pipe operators", "roleType": "custom" }
        ]
    }))
    .unwrap();
    let assigned = key.assigned_roles.unwrap();
    assert_eq!(assigned[1].role_type, Some(RoleType::Custom));
    assert_eq!(assigned[1].role_name.as_deref(), Some("Pipe operators"));

    let request = CreateKeyRequest::new("ci", [KeyRole::Developer]).assigned_role_ids([assigned[1].role_id.unwrap()]);
    assert_eq!(
        serde_json::to_value(&request).unwrap()["assignedRoleIds"],
        json!(["1e0d9c8b-7a6f-4e5d-9c3b-2a1908171615"])
    );
}
