//! Keys on the fake (list, get, update, delete; a key cannot delete itself) and the role
//! table: `admin` does everything, `developer` reads services and keys and nothing else,
//! `query_endpoints` alone manages nothing. Raw requests go straight to `Fake::handle`.

use std::time::Duration;

use http::{Method, Response};
use pipe_api_fake::Fake;
use pipe_api_types::{Key, KeyRole, Pipe, PipeState, ReversePrivateEndpoint, Service};
use serde_json::{Value, json};

use crate::fake::common::*;

const ENDPOINT: &str = "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2001";

/// A fake with one key per role, a service with a pipe and a reverse private endpoint; the
/// keys as seeded (admin, developer, query_endpoints).
fn with_a_key_per_role() -> (Fake, [Key; 3]) {
    let fake = Fake::new();
    let keys = [
        fake.seed_key(org(), "admin-id", "s", [KeyRole::Admin]),
        fake.seed_key(org(), "developer-id", "s", [KeyRole::Developer]),
        fake.seed_key(org(), "query-id", "s", [KeyRole::QueryEndpoints]),
    ];
    fake.seed_service(org(), Service::new(service()).name("svc"));
    fake.seed_pipe(org(), service(), Pipe::new(PIPE.parse().unwrap()).name("p").state(PipeState::Running));
    fake.seed_reverse_private_endpoint(org(), service(), ReversePrivateEndpoint::new(ENDPOINT.parse().unwrap()));
    (fake, keys)
}

/// Sends as the key `key_id` (each key's secret is `s`).
fn as_key(fake: &Fake, key_id: &str, method: Method, path: &str, body: Option<Value>) -> Response<Vec<u8>> {
    call(fake, method, path, Some(&basic(key_id, "s")), body)
}

fn org_path(rest: &str) -> String {
    format!("/v1/organizations/{ORG}{rest}")
}

fn service_path(rest: &str) -> String {
    org_path(&format!("/services/{SERVICE}{rest}"))
}

#[test]
fn keys_are_listed_read_updated_and_deleted_by_their_management_id() {
    let (fake, [admin, developer, _]) = with_a_key_per_role();
    let listed = json_of(&as_key(&fake, "admin-id", Method::GET, &org_path("/keys"), None));
    let ids: Vec<&str> = listed["result"].as_array().unwrap().iter().map(|k| k["id"].as_str().unwrap()).collect();
    assert_eq!(ids.len(), 3);
    assert_eq!(ids[1], developer.id.to_string());
    assert!(listed["result"][0].get("keySecret").is_none(), "never a secret");

    let path = org_path(&format!("/keys/{}", developer.id));
    let read = json_of(&as_key(&fake, "admin-id", Method::GET, &path, None))["result"].clone();
    assert_eq!(read["name"], "seeded developer-id");
    assert_eq!(read["roles"], json!(["developer"]));
    assert_eq!(read["state"], "enabled");

    let change = json!({
        "name": "renamed", "roles": ["admin", "developer"], "expireAt": "2026-06-01T00:00:00Z",
        "ipAccessList": [{"source": "198.51.100.0/24", "description": "ci"}],
        "assignedRoleIds": ["11111111-2222-4333-8444-555555555555"]
    });
    let updated = as_key(&fake, "admin-id", Method::PATCH, &path, Some(change));
    assert_eq!(updated.status(), 200, "{}", String::from_utf8_lossy(updated.body()));
    let updated = json_of(&updated)["result"].clone();
    assert_eq!(updated["name"], "renamed");
    assert_eq!(updated["roles"], json!(["admin", "developer"]));
    assert_eq!(updated["expireAt"], "2026-06-01T00:00:00Z");
    assert_eq!(updated["ipAccessList"], json!([{"source": "198.51.100.0/24", "description": "ci"}]));
    assert_eq!(updated["assignedRoles"], json!([{"roleId": "11111111-2222-4333-8444-555555555555"}]));
    assert_eq!(updated["id"], read["id"], "the id stays");
    assert_eq!(updated["createdAt"], read["createdAt"]);
    assert_eq!(json_of(&as_key(&fake, "admin-id", Method::GET, &path, None))["result"], updated);

    // `null` (or "") clears the expiry.
    let never = json_of(&as_key(&fake, "admin-id", Method::PATCH, &path, Some(json!({"expireAt": null}))));
    assert!(never["result"].get("expireAt").is_none(), "{never}");

    let deleted = as_key(&fake, "admin-id", Method::DELETE, &path, None);
    assert_eq!(deleted.status(), 200);
    assert!(json_of(&deleted).get("result").is_none());
    let gone = as_key(&fake, "admin-id", Method::GET, &path, None);
    assert_eq!(gone.status(), 404);
    assert_eq!(json_of(&gone)["error"], format!("NOT_FOUND: {}", developer.id));
    assert_eq!(
        as_key(&fake, "developer-id", Method::GET, &org_path("/keys"), None).status(),
        401,
        "its credentials die"
    );
    assert_eq!(as_key(&fake, "admin-id", Method::DELETE, &path, None).status(), 404);
    assert_eq!(fake.keys(org()).len(), 2);
    let _ = admin;
}

#[test]
fn a_key_cannot_delete_itself() {
    let (fake, [admin, ..]) = with_a_key_per_role();
    let response = as_key(&fake, "admin-id", Method::DELETE, &org_path(&format!("/keys/{}", admin.id)), None);
    assert_eq!(response.status(), 400);
    assert_eq!(json_of(&response)["error"], "BAD_REQUEST: an API key cannot delete itself");
    assert_eq!(fake.keys(org()).len(), 3);
}

#[test]
fn a_disabled_or_expired_key_is_refused() {
    let (fake, [_, developer, _]) = with_a_key_per_role();
    let path = org_path(&format!("/keys/{}", developer.id));
    let disable = as_key(&fake, "admin-id", Method::PATCH, &path, Some(json!({"state": "disabled"})));
    assert_eq!(json_of(&disable)["result"]["state"], "disabled");
    assert_eq!(as_key(&fake, "developer-id", Method::GET, &service_path(""), None).status(), 401);
    as_key(
        &fake,
        "admin-id",
        Method::PATCH,
        &path,
        Some(json!({"state": "enabled", "expireAt": "2026-01-01T00:01:00Z"})),
    );
    assert_eq!(as_key(&fake, "developer-id", Method::GET, &service_path(""), None).status(), 200);
    fake.advance(Duration::from_secs(60));
    assert_eq!(as_key(&fake, "developer-id", Method::GET, &service_path(""), None).status(), 401);
}

#[test]
fn update_bodies_are_checked_by_the_fake() {
    let (fake, [_, developer, _]) = with_a_key_per_role();
    let path = org_path(&format!("/keys/{}", developer.id));
    for (body, error) in [
        (json!({"roles": []}), "roles: must have at least 1 element"),
        (json!({"roles": ["owner"]}), "roles[0]: must be one of admin, developer, query_endpoints"),
        (json!({"state": "expired"}), "state: must be one of enabled, disabled"),
        (
            json!({"ipAccessList": [{"source": "not-an-ip"}]}),
            "ipAccessList[0].source: must be an IP address or a CIDR block",
        ),
        (json!({"expireAt": "tomorrow"}), "expireAt: must be an RFC 3339 date-time, null or empty"),
        (json!({"assignedRoleIds": ["x"]}), "assignedRoleIds[0]: must be a UUID"),
        (json!({"name": 7}), "name: must be a string"),
    ] {
        let response = as_key(&fake, "admin-id", Method::PATCH, &path, Some(body.clone()));
        assert_eq!(response.status(), 400, "{body}");
        assert_eq!(json_of(&response)["error"], format!("BAD_REQUEST: invalid request: {error}"), "{body}");
    }
    let malformed = as_key(&fake, "admin-id", Method::GET, &org_path("/keys/not-a-uuid"), None);
    assert_eq!(json_of(&malformed)["error"], "BAD_REQUEST: invalid key id: not-a-uuid");
    let unknown = "00000000-0000-4000-8000-0000000000aa";
    let missing = as_key(&fake, "admin-id", Method::PATCH, &org_path(&format!("/keys/{unknown}")), Some(json!({})));
    assert_eq!(json_of(&missing)["error"], format!("NOT_FOUND: {unknown}"));
}

/// Every operation the fake serves for these resources, whether it writes, and a body.
fn operations(key_to_touch: &Key) -> Vec<(Method, String, Option<Value>, bool)> {
    let key = org_path(&format!("/keys/{}", key_to_touch.id));
    let pipe_body = json!({"name": "p2", "source": {"kinesis": {"format": "JSONEachRow", "streamName": "s",
        "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_USER"}},
        "destination": {"table": "t"}});
    vec![
        (Method::GET, "/v1/organizations".to_owned(), None, false),
        (Method::GET, org_path(""), None, false),
        (Method::GET, org_path("/services"), None, false),
        (Method::GET, org_path("/keys"), None, false),
        (Method::GET, key.clone(), None, false),
        (Method::POST, org_path("/keys"), Some(json!({"name": "k", "roles": ["developer"]})), true),
        (Method::PATCH, key.clone(), Some(json!({"name": "renamed"})), true),
        (Method::GET, service_path(""), None, false),
        (Method::PATCH, service_path(""), Some(json!({"name": "renamed"})), true),
        (Method::PATCH, service_path("/state"), Some(json!({"command": "awake"})), true),
        (Method::GET, service_path("/pipes"), None, false),
        (Method::GET, service_path(&format!("/pipes/{PIPE}")), None, false),
        (Method::POST, service_path("/pipes"), Some(pipe_body), true),
        (Method::GET, service_path("/pipesReversePrivateEndpoints"), None, false),
        (Method::DELETE, key, None, true),
        // A service is deleted only once stopped.
        (Method::PATCH, service_path("/state"), Some(json!({"command": "stop"})), true),
        (Method::DELETE, service_path(""), None, true),
    ]
}

#[test]
fn a_developer_key_reads_services_and_keys_and_nothing_else() {
    let (fake, [_, _, query]) = with_a_key_per_role();
    for (method, path, body, writes) in operations(&query) {
        let response = as_key(&fake, "developer-id", method.clone(), &path, body);
        let pipes = path.contains("/pipes");
        if writes || pipes && !path.ends_with("/services") {
            assert_eq!(response.status(), 403, "{method} {path}");
            assert_eq!(json_of(&response)["error"], "FORBIDDEN: the key's roles do not allow this call");
        } else {
            assert_eq!(response.status(), 200, "{method} {path}");
        }
    }
    assert_eq!(fake.keys(org()).len(), 3, "nothing was written");
    assert_eq!(fake.pipes(org(), service()).len(), 1);
}

#[test]
fn a_query_endpoints_key_manages_nothing() {
    let (fake, [_, developer, _]) = with_a_key_per_role();
    for (method, path, body, _) in operations(&developer) {
        let response = as_key(&fake, "query-id", method.clone(), &path, body);
        assert_eq!(response.status(), 403, "{method} {path}");
    }
}

#[test]
fn an_admin_key_does_everything() {
    let (fake, [_, developer, _]) = with_a_key_per_role();
    // The stop, and the deletion after it, end at once: the delete finds the service stopped.
    fake.set_service_transition_time(Duration::ZERO);
    for (method, path, body, _) in operations(&developer) {
        let response = as_key(&fake, "admin-id", method.clone(), &path, body);
        assert_eq!(response.status(), 200, "{method} {path}: {}", String::from_utf8_lossy(response.body()));
    }
    assert_eq!(as_key(&fake, "admin-id", Method::GET, &service_path(""), None).status(), 404, "deleted last");
}

#[test]
fn a_key_finds_its_organization_and_its_services_by_tag() {
    let (fake, _) = with_a_key_per_role();
    fake.seed_organization_json(org(), json!({"name": "Acme"}));
    let tagged = json!({"id": "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1003", "name": "prod",
        "tags": [{"key": "Environment", "value": "Production"}, {"key": "isActive"}]});
    fake.seed_service_json(org(), tagged);
    let listed = json_of(&as_key(&fake, "developer-id", Method::GET, "/v1/organizations", None));
    assert_eq!(listed["result"].as_array().unwrap().len(), 1);
    assert_eq!(listed["result"][0]["id"], ORG);
    assert_eq!(listed["result"][0]["name"], "Acme");
    let every = json_of(&as_key(&fake, "developer-id", Method::GET, &org_path("/services"), None));
    assert_eq!(every["result"].as_array().unwrap().len(), 2);
    for query in ["?filter=tag:Environment%3DProduction", "?filter=tag:isActive&filter=tag:Environment%3DProduction"] {
        let path = org_path(&format!("/services{query}"));
        let narrowed = json_of(&as_key(&fake, "developer-id", Method::GET, &path, None));
        let names: Vec<&str> =
            narrowed["result"].as_array().unwrap().iter().map(|s| s["name"].as_str().unwrap()).collect();
        assert_eq!(names, ["prod"], "{query}");
    }
    let unsupported = as_key(&fake, "developer-id", Method::GET, &org_path("/services?filter=name:prod"), None);
    assert_eq!(unsupported.status(), 400);
}

#[test]
fn a_path_no_operation_has_is_refused_even_to_an_admin() {
    let (fake, _) = with_a_key_per_role();
    for (method, path) in [
        (Method::GET, service_path("/backups")),
        (Method::PUT, org_path("/services")),
        (Method::DELETE, "/v1/organizations".to_owned()),
    ] {
        let response = as_key(&fake, "admin-id", method.clone(), &path, None);
        assert_eq!(response.status(), 404, "{method} {path}");
        assert!(
            String::from_utf8_lossy(response.body()).contains("is not an operation of this fake"),
            "{method} {path}"
        );
    }
}
