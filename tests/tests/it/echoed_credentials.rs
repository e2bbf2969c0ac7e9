//! A server that reflects the client's own `Authorization` value back (in a JSON field, in a
//! text body, in `x-request-id`, in `Location`, in a 2xx that does not decode) never gets the
//! credential into an error's `Display` or `Debug`, in any form: the header value, its base64,
//! the decoded key secret, the bearer token.

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use pipe_api_proto::test_util::{response, response_with};
use pipe_api_proto::{
    Alerting, BaseUrl, BearerToken, EndpointExt, ListAlerts, ListPipes, Management, ManagementCredentials,
};
use pipe_api_tests::{RawServer, http_response, ids};
use pipe_api_ureq::Client;

const KEY_ID: &str = "echo-key-id";
const SECRET: &str = "ECHOED-SECRET-4711";
const TOKEN: &str = "0c4e9a7e-ECHOED-TOKEN-9b3d2e1f0a11";

/// A canned answer: status, headers, body.
type Answer = (u16, Vec<(&'static str, String)>, Vec<u8>);

/// Every way a server may reflect `authorization`.
fn reflections(authorization: &str) -> Vec<Answer> {
    let escaped = serde_json::to_string(authorization).unwrap();
    let encoded = authorization.split_once(' ').map_or(authorization, |(_, c)| c).to_owned();
    vec![
        (400, vec![], format!(r#"{{"error":"BAD_REQUEST: got {escaped}","Authorization":{escaped}}}"#).into_bytes()),
        (401, vec![], format!("Unauthorized: {authorization}").into_bytes()),
        (403, vec![], format!(r#"{{"message":"credentials {encoded} lack a role"}}"#).into_bytes()),
        (500, vec![("x-request-id", authorization.to_owned())], b"oops".to_vec()),
        (302, vec![("location", format!("https://elsewhere.example/?auth={encoded}"))], Vec::new()),
        (200, vec![], format!(r#"{{"status":200,"requestId":{escaped},"result":{{"echo":{escaped}}}}}"#).into_bytes()),
        (200, vec![], format!(r#"{{"data":{escaped}}}"#).into_bytes()),
    ]
}

/// Every form of the credentials that must not show.
fn forms() -> Vec<String> {
    let pair = format!("{KEY_ID}:{SECRET}");
    vec![STANDARD.encode(&pair), pair, SECRET.to_owned(), STANDARD.encode(SECRET), TOKEN.to_owned()]
}

fn assert_clean(shown: &str) {
    for form in forms() {
        assert!(!shown.contains(&form), "{form:?} shown in: {shown}");
    }
}

#[test]
fn a_transport_that_reflects_the_credentials_never_shows_them() {
    let management = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new(KEY_ID, SECRET).unwrap(),
    );
    let alerting =
        Alerting::new(BaseUrl::parse("https://alerts.example.com").unwrap(), BearerToken::new(TOKEN).unwrap());
    let (org, service, _) = ids();
    let mut seen = 0;
    for (api_name, authorization) in
        [("management", management_header(&management)), ("alerting", format!("Bearer {TOKEN}"))]
    {
        for (status, headers, body) in reflections(&authorization) {
            let reflect = |_request: http::Request<Vec<u8>>| Ok(response_with(status, &headers, body.clone()));
            let error = if api_name == "management" {
                ListPipes::new(org, service).send(&management, &reflect).unwrap_err()
            } else {
                ListAlerts::new().send(&alerting, &reflect).unwrap_err()
            };
            assert_clean(&error.to_string());
            assert_clean(&format!("{error:?}"));
            if let Some(api) = error.as_api() {
                assert_clean(&String::from_utf8_lossy(api.body()));
            }
            seen += 1;
        }
    }
    assert_eq!(seen, 14);
}

/// The management interface's `Authorization` value, as the built request carries it.
fn management_header(management: &Management) -> String {
    let (org, service, _) = ids();
    let request = ListPipes::new(org, service).build_request(management).unwrap();
    request.headers()["authorization"].to_str().unwrap().to_owned()
}

#[test]
fn the_client_never_shows_credentials_a_server_reflects() {
    let server = RawServer::start(|mut connection| {
        while let Some(request) = connection.read_request() {
            let authorization = request.header("authorization").unwrap_or_default().to_owned();
            let (status, headers, body) = reflections(&authorization).swap_remove(0);
            let headers: Vec<(&str, &str)> = headers.iter().map(|(n, v)| (*n, v.as_str())).collect();
            connection.write(&http_response(&format!("{status} X"), &headers, &body));
        }
    });
    let client = Client::builder().management(&server.base_url(), KEY_ID, SECRET).no_retries().build().unwrap();
    let (org, service, _) = ids();
    let error = client.list_pipes(org, service).unwrap_err();
    assert_eq!(error.status().map(|s| s.as_u16()), Some(400));
    assert_clean(&error.to_string());
    assert_clean(&format!("{error:?}"));
}

#[test]
fn secret_fields_are_hidden_in_every_spelling_and_in_cut_off_json() {
    let (org, service, _) = ids();
    let management = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new(KEY_ID, SECRET).unwrap(),
    );
    let bodies: [&[u8]; 4] = [
        br#"{"message":"bad","key_secret":"SNAKE-CASE-VALUE"}"#,
        br#"{"message":"bad","apiKeySecret":"API-KEY-SECRET-VALUE"}"#,
        // JSON inside a JSON string, cut off: not JSON at all.
        br#"{"message":"{\"key\":{\"keySecret\":\"ESCAPED-VALUE-0042\",\"na"#,
        br#"upstream said: {"keySecret":"CUT-OFF-VALUE-0042","#,
    ];
    for body in bodies {
        let answer = |_request: http::Request<Vec<u8>>| Ok(response(500, body));
        let error = ListPipes::new(org, service).send(&management, &answer).unwrap_err();
        for shown in [error.to_string(), format!("{error:?}")] {
            for value in ["SNAKE-CASE-VALUE", "API-KEY-SECRET-VALUE", "ESCAPED-VALUE-0042", "CUT-OFF-VALUE-0042"] {
                assert!(!shown.contains(value), "{value} shown in: {shown}");
            }
        }
    }
}

/// A secret the request body sent (the Kafka password of a create), quoted back by a 400, is not
/// shown through the client: the call's scrub list is its credentials and its body's secrets.
#[test]
fn a_password_the_create_sent_and_a_400_quotes_is_never_shown() {
    const PASSWORD: &str = "kafka-password-QUOTED-4242";
    let quote = |request: http::Request<Vec<u8>>| {
        let body = String::from_utf8(request.body().clone()).unwrap();
        assert!(body.contains(PASSWORD), "the create sent the password");
        let message = format!(
            r#"{{"status":400,"error":"BAD_REQUEST: cannot connect with {PASSWORD}","requestId":"r {PASSWORD}"}}"#
        );
        Ok(response(400, message.as_bytes()))
    };
    let client = Client::builder()
        .management("https://api.example.com", KEY_ID, SECRET)
        .transport(quote)
        .no_retries()
        .build()
        .unwrap();
    let (org, service, _) = ids();
    let request = pipe_api_tests::requests::create_pipe_requests("QUOTED-4242").swap_remove(0);
    let error = client.create_pipe(org, service, request).unwrap_err();
    let api = error.as_api().unwrap();
    for shown in [error.to_string(), format!("{error:?}"), String::from_utf8_lossy(api.body()).into_owned()] {
        assert!(!shown.contains(PASSWORD), "shown: {shown}");
        assert!(shown.contains("[redacted]"), "the quote reached it: {shown}");
    }
}

/// A create-key answer that does not decode and is not JSON (cut short, or too long to preview
/// as JSON) shows no new key secret in its preview, whatever the spelling of its name: escaped
/// (`key\u0053ecret`), upper case, in JSON inside a JSON string, or the value behind a name cut.
#[test]
fn a_preview_shows_no_secret_behind_a_name_in_any_spelling() {
    use pipe_api_proto::CreateKey;
    use pipe_api_types::{CreateKeyRequest, KeyRole};

    let management = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new(KEY_ID, SECRET).unwrap(),
    );
    let (org, _, _) = ids();
    let create = CreateKey::new(org, CreateKeyRequest::new("k", [KeyRole::Admin]));
    let padding = "p".repeat(20 * 1024);
    let bodies = [
        r#"{"status":200,"requestId":"r","result":{"key\u0053ecret":"NEW-KEY-SECRET-0001","id":"#.to_owned(),
        r#"{"status":200,"result":{"KEY_SECRET":"NEW-KEY-SECRET-0001","id":"#.to_owned(),
        r#"{"status":200,"result":{"message":"{\\\"key\\\\u0053ecret\\\":\\\"NEW-KEY-SECRET-0001\\\""#.to_owned(),
        r#"{"status":200,"result":{"keySecr"#.to_owned() + r#"et":"NEW-KEY-SECRET-0001","id":"#,
        // Valid JSON too long to preview as JSON, that does not decode (a list, not an object).
        format!(r#"{{"status":200,"result":[{{"key\u0053ecret":"NEW-KEY-SECRET-0001","pad":"{padding}"}}]}}"#),
    ];
    for body in bodies {
        let error = create.parse_response(&management, response(200, body.as_bytes())).unwrap_err();
        assert!(matches!(error, pipe_api_proto::Error::Decode(_)), "{error}");
        for shown in [error.to_string(), format!("{error:?}")] {
            assert!(!shown.contains("NEW-KEY-SECRET-0001"), "{body:.80}: {shown}");
        }
    }
}
