//! The clients of the end-to-end tests, of a fake served on 127.0.0.1, and what their errors
//! say: one builder for them all, so each test says only which key it holds.

use pipe_api_fake::{DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, FakeServer};
use pipe_api_tests::fast_retries;
use pipe_api_ureq::{Client, Error};

/// A client of `server` with the demo's admin key and alerting token, retrying fast.
pub fn demo_client(server: &FakeServer) -> Client {
    client_as(server, DEMO_KEY_ID, DEMO_KEY_SECRET)
}

/// A client of `server` with the key `key_id` and the demo's alerting token, retrying fast.
pub fn client_as(server: &FakeServer, key_id: &str, key_secret: &str) -> Client {
    Client::builder()
        .management(&server.base_url(), key_id, key_secret)
        .alerting(&server.base_url(), DEMO_ALERTS_TOKEN)
        .retry_policy(fast_retries())
        .build()
        .expect("a valid configuration")
}

/// An API error's status and message; `None` for any other error.
pub fn api_status(error: &Error) -> Option<(u16, Option<String>)> {
    match error {
        Error::Api(api) => Some((api.status().as_u16(), api.message().map(str::to_owned))),
        _ => None,
    }
}
