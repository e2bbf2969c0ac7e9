//! The blocking `Client` over a transport that is not ureq: the fake itself (no sockets) and a
//! closure. Retries, the POST rule and the deadline are the same, because they are `Call`'s.

use std::sync::{Arc, Mutex};

use http::{Request, Response};
use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake, Fault, FaultRule};
use pipe_api_proto::{Error, TransportError, TransportErrorKind};
use pipe_api_tests::fast_retries;
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_ureq::Client;

/// The fake answers at any base URL when it is the transport itself.
const BASE: &str = "https://api.example.com";

#[test]
fn the_client_runs_over_the_fake_with_no_sockets_and_retries_as_over_ureq() {
    let fake = Fake::demo();
    let client = Client::builder()
        .management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(fast_retries())
        .transport(fake.clone())
        .build()
        .unwrap();
    assert!(client.transport().is_none(), "not ureq");
    let before = fake.request_count();
    // A 503 once: the GET is retried and succeeds.
    fake.inject(FaultRule::next(1, Fault::unavailable("0")));
    let pipes = client.list_pipes(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID).unwrap();
    assert!(!pipes.is_empty());
    assert_eq!(fake.request_count() - before, 2);
    // A 503 to a create: never sent again, the outcome is unknown.
    fake.inject(FaultRule::next(1, Fault::unavailable("0")));
    let request = create_pipe_requests("over-the-fake").remove(0);
    let error = client.create_pipe(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, request).unwrap_err();
    assert!(error.outcome_unknown(), "{error}");
    assert_eq!(error.attempts(), 1);
}

#[test]
fn a_closure_is_a_transport_and_a_refused_connection_is_retried() {
    let fake = Fake::demo();
    let calls = Arc::new(Mutex::new(0));
    let counted = Arc::clone(&calls);
    let inner = fake.clone();
    let transport = move |request: Request<Vec<u8>>| -> Result<Response<Vec<u8>>, TransportError> {
        let mut calls = counted.lock().unwrap();
        *calls += 1;
        if *calls == 1 {
            return Err(TransportError::from_kind(TransportErrorKind::Connect));
        }
        pipe_api_proto::Transport::send(&inner, request)
    };
    let client = Client::builder()
        .management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET)
        .retry_policy(fast_retries())
        .transport(transport)
        .build()
        .unwrap();
    let service = client.get_service(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID).unwrap();
    assert_eq!(service.id, DEMO_SERVICE_ID);
    assert_eq!(*calls.lock().unwrap(), 2);
    // Wrong credentials through the same transport: a typed 401, not retried.
    let wrong = Client::builder().management(BASE, DEMO_KEY_ID, "not-the-secret").transport(fake).build().unwrap();
    let error = wrong.get_service(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID).unwrap_err();
    assert!(matches!(&error, Error::Api(api) if api.status().as_u16() == 401), "{error:?}");
}
