//! Reverse private endpoints and alerts through their whole life, with raw requests straight to
//! `Fake::handle` (no client validation in the way), the clock moved by hand: a created endpoint
//! provisions, then is ready; a deleted one is deleting, then gone; alerts are created, read,
//! replaced and deleted as newer and older alerting servers do, and the server's own checks
//! refuse what the contract and the notes say is invalid.

use std::time::Duration;

use http::{Method, Response};
use pipe_api_fake::{AlertingVersion, Fake};
use serde_json::{Value, json};

use crate::fake::common::*;

const TOKEN: &str = "token-1";

/// [`fake`] with an alerting token, and endpoints 60 s to provision and 30 s to delete.
fn with_token() -> Fake {
    let fake = fake();
    fake.seed_alerts_token(TOKEN);
    fake.set_reverse_private_endpoint_durations(Duration::from_secs(60), Duration::from_secs(30));
    fake
}

fn alerting(fake: &Fake, method: Method, path: &str, body: Value) -> Response<Vec<u8>> {
    call(fake, method, path, Some(&format!("Bearer {TOKEN}")), body)
}

fn endpoints() -> String {
    format!("/v1/organizations/{ORG}/services/{SERVICE}/pipesReversePrivateEndpoints")
}

/// The management error envelope's `error` text, after checking the status.
fn management_error(response: &Response<Vec<u8>>, status: u16) -> String {
    assert_eq!(response.status(), status, "{}", String::from_utf8_lossy(response.body()));
    json_of(response)["error"].as_str().unwrap().to_owned()
}

// ---- reverse private endpoints ---------------------------------------------------------------

#[test]
fn an_endpoint_provisions_then_is_ready_then_deletes_then_is_gone() {
    let fake = with_token();
    let created = admin(
        &fake,
        Method::POST,
        &endpoints(),
        json!({
            "type": "GCP_PSC_SERVICE_ATTACHMENT",
            "description": "orders",
            "gcpServiceAttachment": "projects/p/regions/europe-west1/serviceAttachments/orders",
            "customPrivateDnsMappings": [{ "privateDnsName": "*.orders.example.com" }],
        }),
    );
    assert_eq!(created.status(), 200);
    let created = json_of(&created)["result"].clone();
    assert_eq!(created["status"], "Provisioning");
    assert_eq!(created["type"], "GCP_PSC_SERVICE_ATTACHMENT");
    assert_eq!(created["serviceId"], SERVICE);
    assert_eq!(created["gcpServiceAttachment"], "projects/p/regions/europe-west1/serviceAttachments/orders");
    assert_eq!(created["customPrivateDnsMappings"], json!([{ "privateDnsName": "*.orders.example.com" }]));
    let item = format!("{}/{}", endpoints(), created["id"].as_str().unwrap());

    let status = |fake: &Fake| json_of(&admin(fake, Method::GET, &item, Value::Null))["result"]["status"].clone();
    fake.advance(Duration::from_secs(59));
    assert_eq!(status(&fake), "Provisioning");
    fake.advance(Duration::from_secs(1));
    assert_eq!(status(&fake), "Ready");

    // PATCH replaces the whole list; an empty list clears it.
    let replaced = admin(
        &fake,
        Method::PATCH,
        &item,
        json!({ "customPrivateDnsMappings": [{ "privateDnsName": "db.orders.example.com" }] }),
    );
    assert_eq!(
        json_of(&replaced)["result"]["customPrivateDnsMappings"],
        json!([{ "privateDnsName": "db.orders.example.com" }])
    );
    let cleared = admin(&fake, Method::PATCH, &item, json!({ "customPrivateDnsMappings": [] }));
    assert_eq!(json_of(&cleared)["result"]["customPrivateDnsMappings"], json!([]));

    let deleted = admin(&fake, Method::DELETE, &item, Value::Null);
    assert_eq!(deleted.status(), 200);
    let deleted = json_of(&deleted);
    assert_eq!(deleted["status"], 200);
    assert!(deleted.get("result").is_none(), "{deleted}");
    assert_eq!(status(&fake), "Deleting");
    fake.advance(Duration::from_secs(29));
    assert_eq!(status(&fake), "Deleting");
    fake.advance(Duration::from_secs(1));
    let gone = admin(&fake, Method::GET, &item, Value::Null);
    assert_eq!(management_error(&gone, 404), format!("NOT_FOUND: {}", created["id"].as_str().unwrap()));
    let listed = json_of(&admin(&fake, Method::GET, &endpoints(), Value::Null));
    assert_eq!(listed["result"], json!([]));
}

#[test]
fn the_service_refuses_what_each_type_lacks() {
    let fake = with_token();
    let cases = [
        (json!({}), "type: is required"),
        (json!({ "type": "VPC_PEERING" }), "type: must be one of"),
        (json!({ "type": "VPC_ENDPOINT_SERVICE" }), "vpcEndpointServiceName: is required"),
        (json!({ "type": "VPC_RESOURCE", "vpcResourceConfigurationId": "rcfg-1" }), "vpcResourceShareArn: is required"),
        (json!({ "type": "MSK_MULTI_VPC", "mskClusterArn": "arn:aws:kafka:x" }), "mskAuthentication: is required"),
        (
            json!({ "type": "MSK_MULTI_VPC", "mskClusterArn": "arn", "mskAuthentication": "SASL_IAM",
                    "customPrivateDnsMappings": [{ "privateDnsName": "a.example.com" }] }),
            "customPrivateDnsMappings: is not supported for MSK_MULTI_VPC",
        ),
        (
            json!({ "type": "GCP_PSC_SERVICE_ATTACHMENT", "gcpServiceAttachment": "my-service" }),
            "gcpServiceAttachment: must be",
        ),
        (
            json!({ "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": "svc", "description": "x".repeat(256) }),
            "description: must be a string of at most 255 characters",
        ),
        (
            json!({ "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": "svc",
                    "customPrivateDnsMappings": [{ "privateDnsName": "a.x" }, { "privateDnsName": "A.x" }] }),
            "customPrivateDnsMappings[1].privateDnsName: must be unique",
        ),
    ];
    for (body, expected) in cases {
        let error = management_error(&admin(&fake, Method::POST, &endpoints(), body.clone()), 400);
        assert!(error.starts_with(&format!("BAD_REQUEST: invalid request: {expected}")), "{body}: {error}");
    }
    let accepted = [
        json!({ "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": "com.amazonaws.vpce.us-east-1.vpce-svc-1" }),
        json!({ "type": "VPC_RESOURCE", "vpcResourceConfigurationId": "rcfg-1", "vpcResourceShareArn": "arn:aws:ram:x" }),
        json!({ "type": "MSK_MULTI_VPC", "mskClusterArn": "arn:aws:kafka:x", "mskAuthentication": "SASL_SCRAM" }),
    ];
    for body in accepted {
        assert_eq!(admin(&fake, Method::POST, &endpoints(), body.clone()).status(), 200, "{body}");
    }
}

#[test]
fn private_dns_names_are_unique_across_the_service_and_msk_takes_none() {
    let fake = with_token();
    let mut ids = Vec::new();
    for name in ["a.example.com", "b.example.com"] {
        let body = json!({ "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": "svc",
                           "customPrivateDnsMappings": [{ "privateDnsName": name }] });
        ids.push(json_of(&admin(&fake, Method::POST, &endpoints(), body))["result"]["id"].as_str().unwrap().to_owned());
    }
    let taken = admin(
        &fake,
        Method::PATCH,
        &format!("{}/{}", endpoints(), ids[1]),
        json!({ "customPrivateDnsMappings": [{ "privateDnsName": "A.example.com" }] }),
    );
    assert_eq!(
        management_error(&taken, 400),
        "BAD_REQUEST: private DNS name a.example.com is already used in this service"
    );
    // Its own names may stay.
    let kept = admin(
        &fake,
        Method::PATCH,
        &format!("{}/{}", endpoints(), ids[1]),
        json!({ "customPrivateDnsMappings": [{ "privateDnsName": "b.example.com" }, { "privateDnsName": "*.c.example.com" }] }),
    );
    assert_eq!(kept.status(), 200);
    let missing = admin(&fake, Method::PATCH, &format!("{}/{}", endpoints(), ids[1]), json!({}));
    assert_eq!(management_error(&missing, 400), "BAD_REQUEST: invalid request: customPrivateDnsMappings: is required");

    let msk = json!({ "type": "MSK_MULTI_VPC", "mskClusterArn": "arn", "mskAuthentication": "SASL_IAM" });
    let msk = json_of(&admin(&fake, Method::POST, &endpoints(), msk))["result"]["id"].as_str().unwrap().to_owned();
    let refused =
        admin(&fake, Method::PATCH, &format!("{}/{msk}", endpoints()), json!({ "customPrivateDnsMappings": [] }));
    assert_eq!(
        management_error(&refused, 400),
        "BAD_REQUEST: customPrivateDnsMappings is not supported for MSK_MULTI_VPC"
    );
}

#[test]
fn an_unknown_endpoint_is_not_found_and_an_idle_service_a_failed_dependency() {
    let fake = with_token();
    let unknown = "00000000-0000-4000-8000-0000000000ee";
    for method in [Method::GET, Method::DELETE] {
        let response = admin(&fake, method, &format!("{}/{unknown}", endpoints()), Value::Null);
        assert_eq!(management_error(&response, 404), format!("NOT_FOUND: {unknown}"));
    }
    let malformed = admin(&fake, Method::GET, &format!("{}/not-a-uuid", endpoints()), Value::Null);
    assert_eq!(management_error(&malformed, 400), "BAD_REQUEST: invalid reverse private endpoint id: not-a-uuid");
    fake.set_service_idle(ORG.parse().unwrap(), SERVICE.parse().unwrap(), true);
    let idle = admin(&fake, Method::GET, &format!("{}/{unknown}", endpoints()), Value::Null);
    assert_eq!(management_error(&idle, 424), "FAILED_DEPENDENCY: Service is not running. Current state: idle");
}

// ---- alerts ----------------------------------------------------------------------------------

fn tile_alert() -> Value {
    json!({
        "source": "tile", "dashboardId": "d1", "tileId": "t1",
        "threshold": 100, "thresholdType": "between", "thresholdMax": 500, "interval": "15m",
        "channel": { "type": "webhook", "webhookId": "w1" },
        "name": "lag", "message": "lag is high", "note": "see runbook", "numConsecutiveWindows": 2,
        "scheduleStartAt": "2026-01-01T06:00:00Z",
    })
}

#[test]
fn an_alert_is_created_read_replaced_and_deleted_by_a_newer_server() {
    let fake = with_token();
    let created = alerting(&fake, Method::POST, "/api/v2/alerts", tile_alert());
    assert_eq!(created.status(), 200, "{}", String::from_utf8_lossy(created.body()));
    let alert = json_of(&created)["data"].clone();
    let id = alert["id"].as_str().unwrap().to_owned();
    assert_eq!(id.len(), 24);
    assert_eq!(alert["teamId"], "65f1a2b3c4d5e6f708190100");
    assert_eq!(alert["dashboardId"], "d1");
    assert_eq!(alert["state"], "OK");
    // Responses always hold both, `channel` mirroring `channels[0]`.
    assert_eq!(alert["channels"], json!([{ "type": "webhook", "webhookId": "w1" }]));
    assert_eq!(alert["createdAt"], "2026-01-01T00:00:00Z");
    let path = format!("/api/v2/alerts/{id}");
    assert_eq!(json_of(&alerting(&fake, Method::GET, &path, Value::Null))["data"], alert);

    // A full replace: left-out name, message, note and numConsecutiveWindows become null, the
    // rest goes, and scheduleStartAt is kept.
    let replaced = alerting(
        &fake,
        Method::PUT,
        &path,
        json!({ "source": "saved_search", "savedSearchId": "s1", "threshold": -3, "thresholdType": "below",
                "interval": "1h", "channels": [{ "type": "webhook", "webhookId": "w2" }, { "type": "webhook", "webhookId": "w3" }],
                "unknownToTheServer": true }),
    );
    assert_eq!(replaced.status(), 200, "{}", String::from_utf8_lossy(replaced.body()));
    let replaced = json_of(&replaced)["data"].clone();
    for nulled in ["name", "message", "note", "numConsecutiveWindows"] {
        assert_eq!(replaced[nulled], Value::Null, "{nulled}");
    }
    for gone in ["dashboardId", "tileId", "thresholdMax", "unknownToTheServer"] {
        assert!(replaced.get(gone).is_none(), "{gone}: {replaced}");
    }
    assert_eq!(replaced["scheduleStartAt"], "2026-01-01T06:00:00Z");
    assert_eq!(replaced["channel"], json!({ "type": "webhook", "webhookId": "w2" }));
    assert_eq!(
        (replaced["id"].clone(), replaced["createdAt"].clone()),
        (alert["id"].clone(), alert["createdAt"].clone())
    );

    // Only the legacy channel cuts the alert down to that one; null clears scheduleStartAt.
    let mut legacy = tile_alert();
    legacy["scheduleStartAt"] = Value::Null;
    legacy["channel"] = json!({ "type": "webhook", "webhookId": "w9" });
    let legacy = json_of(&alerting(&fake, Method::PUT, &path, legacy))["data"].clone();
    assert_eq!(legacy["channels"], json!([{ "type": "webhook", "webhookId": "w9" }]));
    assert_eq!(legacy["scheduleStartAt"], Value::Null);

    let deleted = alerting(&fake, Method::DELETE, &path, Value::Null);
    assert_eq!((deleted.status().as_u16(), json_of(&deleted)), (200, json!({})));
    for method in [Method::GET, Method::DELETE] {
        let missing = alerting(&fake, method, &path, Value::Null);
        assert_eq!((missing.status().as_u16(), json_of(&missing)), (404, json!({ "message": "Alert not found" })));
    }
    assert_eq!(alerting(&fake, Method::PUT, &path, tile_alert()).status(), 404);
}

#[test]
fn an_older_server_uses_its_own_names_answers_ok_and_plain_text() {
    let fake = with_token();
    fake.set_alerting_version(AlertingVersion::Older);
    let body = json!({ "source": "saved_search", "savedSearchId": "s1", "threshold": 1, "thresholdType": "above",
                       "interval": "5m", "channel": { "type": "webhook", "webhookId": "w1" }, "name": "errors",
                       "note": "unknown to this server" });
    let created = json_of(&alerting(&fake, Method::POST, "/api/v2/alerts", body))["data"].clone();
    assert_eq!(created["savedSearch"], "s1");
    assert_eq!(created["team"], "65f1a2b3c4d5e6f708190100");
    for newer in ["savedSearchId", "teamId", "channels", "note"] {
        assert!(created.get(newer).is_none(), "{newer}: {created}");
    }
    let path = format!("/api/v2/alerts/{}", created["id"].as_str().unwrap());
    // The same record, read by a newer server after an upgrade.
    fake.set_alerting_version(AlertingVersion::Newer);
    let upgraded = json_of(&alerting(&fake, Method::GET, &path, Value::Null))["data"].clone();
    assert_eq!(
        (upgraded["savedSearchId"].clone(), upgraded["teamId"].clone()),
        (json!("s1"), json!("65f1a2b3c4d5e6f708190100"))
    );
    fake.set_alerting_version(AlertingVersion::Older);

    let refused = alerting(
        &fake,
        Method::POST,
        "/api/v2/alerts",
        json!({ "source": "saved_search", "savedSearchId": "s1",
        "threshold": -1, "thresholdType": "above", "interval": "5m", "channel": { "type": "webhook", "webhookId": "w" } }),
    );
    assert_eq!(
        (refused.status().as_u16(), json_of(&refused)),
        (400, json!({ "message": "threshold: must be greater than or equal to 0" }))
    );
    let only_channels = alerting(
        &fake,
        Method::POST,
        "/api/v2/alerts",
        json!({ "source": "saved_search", "savedSearchId": "s1",
        "threshold": 1, "thresholdType": "above", "interval": "5m", "channels": [{ "type": "webhook", "webhookId": "w" }] }),
    );
    assert_eq!(json_of(&only_channels), json!({ "message": "channel: is required" }));

    let deleted = alerting(&fake, Method::DELETE, &path, Value::Null);
    assert_eq!((deleted.status().as_u16(), deleted.body().as_slice()), (200, b"OK".as_slice()));
    let missing = alerting(&fake, Method::GET, &path, Value::Null);
    assert_eq!((missing.status().as_u16(), missing.body().as_slice()), (404, b"Not Found".as_slice()));
}

#[test]
fn the_alerting_server_refuses_what_its_checks_refuse() {
    let fake = with_token();
    let with = |change: Value| {
        let mut body = tile_alert();
        for (name, value) in change.as_object().unwrap() {
            if value.is_null() {
                body.as_object_mut().unwrap().remove(name);
            } else {
                body[name] = value.clone();
            }
        }
        body
    };
    let cases = [
        (json!({ "source": null }), "source: is required"),
        (json!({ "tileId": "" }), "tileId: must not be empty"),
        (json!({ "source": "saved_search" }), "savedSearchId: is required"),
        (json!({ "threshold": null }), "threshold: is required and must be a number"),
        (json!({ "thresholdType": "sideways" }), "thresholdType: must be one of"),
        (json!({ "interval": "2m" }), "interval: must be one of"),
        (json!({ "thresholdMax": null }), "thresholdMax: is required for between and not_between"),
        (json!({ "thresholdMax": 99 }), "thresholdMax: must be a number greater than or equal to threshold"),
        (
            json!({ "scheduleStartAt": null, "scheduleOffsetMinutes": 15 }),
            "scheduleOffsetMinutes: must be an integer from 0 to 14",
        ),
        (json!({ "scheduleOffsetMinutes": 1 }), "scheduleOffsetMinutes: must be 0 when scheduleStartAt is set"),
        (
            json!({ "scheduleStartAt": "2027-06-01T00:00:00Z" }),
            "scheduleStartAt: must be a date-time at most 1 year ahead",
        ),
        (json!({ "channel": null }), "channel: at least one of channel or channels is required"),
        (json!({ "channels": [] }), "channels: must hold 1 to 10 channels"),
        (
            json!({ "channel": null, "channels": [{ "type": "webhook", "webhookId": "a" }, { "type": "webhook", "webhookId": "a" }] }),
            "channels[1]: is a duplicate",
        ),
        (
            json!({ "channels": [{ "type": "webhook", "webhookId": "other" }] }),
            "channel: must match the first entry of channels",
        ),
        (json!({ "channel": { "type": "email", "webhookId": "w" } }), "channel.type: must be one of webhook"),
        (json!({ "name": "" }), "name: must be a string of 1 to 512 characters"),
        (json!({ "message": "m".repeat(4097) }), "message: must be a string of 1 to 4096 characters"),
        (json!({ "note": "" }), "note: must be a string of 1 to 4096 characters"),
        (json!({ "numConsecutiveWindows": 0 }), "numConsecutiveWindows: must be an integer from 1"),
    ];
    for (change, expected) in cases {
        let refused = alerting(&fake, Method::POST, "/api/v2/alerts", with(change.clone()));
        assert_eq!(refused.status(), 400, "{change}");
        let message = json_of(&refused)["message"].as_str().unwrap().to_owned();
        assert!(message.starts_with(expected), "{change}: {message}");
    }
    assert!(fake.request_count() > 0);
    let listed = json_of(&alerting(&fake, Method::GET, "/api/v2/alerts", Value::Null));
    assert_eq!(listed["data"], json!([]), "nothing refused was stored");
}

#[test]
fn a_seeded_endpoint_without_mappings_can_be_given_some() {
    let fake = with_token();
    let seeded = "7e6d5c4b-3a29-4180-9f7e-6d5c4b3a2009";
    fake.seed_reverse_private_endpoint(
        ORG.parse().unwrap(),
        SERVICE.parse().unwrap(),
        pipe_api_types::ReversePrivateEndpoint::new(seeded.parse().unwrap())
            .kind(pipe_api_types::ReversePrivateEndpointType::VpcEndpointService)
            .status(pipe_api_types::ReversePrivateEndpointStatus::Ready),
    );
    let body = json!({ "type": "VPC_ENDPOINT_SERVICE", "vpcEndpointServiceName": "svc" });
    assert_eq!(admin(&fake, Method::POST, &endpoints(), body).status(), 200);
    let patched = admin(
        &fake,
        Method::PATCH,
        &format!("{}/{seeded}", endpoints()),
        json!({ "customPrivateDnsMappings": [{ "privateDnsName": "seeded.example.com" }] }),
    );
    assert_eq!(patched.status(), 200, "{}", String::from_utf8_lossy(patched.body()));
    let result = json_of(&patched)["result"].clone();
    assert_eq!(result["customPrivateDnsMappings"], json!([{ "privateDnsName": "seeded.example.com" }]));
    assert_eq!(result["status"], "Ready");
}
