//! The ureq `Client` waiting for a pipe and paging alerts over the fake, with no sockets: the
//! pipe is moved on by a transport wrapper after a few polls, and the wait policy is fast, so
//! each test takes milliseconds.

use std::sync::Arc;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::time::Duration;

use http::{Request, Response};
use pipe_api_fake::{
    AlertingVersion, DEMO_ALERTS_TOKEN, DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake,
};
use pipe_api_proto::{Transport, TransportError};
use pipe_api_tests::fast_retries;
use pipe_api_types::{Alert, Pipe, PipeId, PipeState};
use pipe_api_ureq::{Client, WaitError, WaitPolicy, pipe_settled, pipe_stopped};

const BASE: &str = "https://api.example.com";
const PIPE: &str = "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

fn fast_wait() -> WaitPolicy {
    let mut policy = WaitPolicy::default();
    policy.initial_delay = Duration::from_millis(1);
    policy.max_delay = Duration::from_millis(4);
    policy.deadline = Duration::from_secs(3);
    policy
}

/// A client over `fake` whose transport moves the pipe to `then` once it has been read `after`
/// times; returns the client and the count of pipe reads.
fn client_flipping(fake: &Fake, after: usize, then: PipeState) -> (Client, Arc<AtomicUsize>) {
    let reads = Arc::new(AtomicUsize::new(0));
    let counted = Arc::clone(&reads);
    let inner = fake.clone();
    let transport = move |request: Request<Vec<u8>>| -> Result<Response<Vec<u8>>, TransportError> {
        if request.uri().path().ends_with(PIPE) && counted.fetch_add(1, Ordering::SeqCst) + 1 == after {
            let pipe: PipeId = PIPE.parse().unwrap();
            inner.set_pipe_state(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, pipe, then.clone());
        }
        inner.send(request)
    };
    let client = Client::builder()
        .management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET)
        .alerting("https://alerts.example.com", DEMO_ALERTS_TOKEN)
        .retry_policy(fast_retries())
        .transport(transport)
        .build()
        .unwrap();
    (client, reads)
}

fn fake_with_provisioning_pipe() -> Fake {
    let fake = Fake::demo();
    let pipe = Pipe::new(PIPE.parse().unwrap()).name("orders").state(PipeState::Provisioning);
    fake.seed_pipe(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, pipe);
    fake
}

#[test]
fn the_client_waits_until_the_pipe_runs() {
    let fake = fake_with_provisioning_pipe();
    let (client, reads) = client_flipping(&fake, 3, PipeState::Running);
    let pipe = client
        .wait_for_pipe(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, PIPE.parse().unwrap(), pipe_settled, fast_wait())
        .unwrap();
    assert_eq!(pipe.state, Some(PipeState::Running));
    // Flipped just before the fake answers the third read, so the third poll sees it.
    assert_eq!(reads.load(Ordering::SeqCst), 3);
}

#[test]
fn a_pipe_that_fails_ends_the_wait_with_the_failed_pipe_not_a_timeout() {
    let fake = fake_with_provisioning_pipe();
    let (client, reads) = client_flipping(&fake, 2, PipeState::Failed);
    let error = client
        .wait_for_pipe(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, PIPE.parse().unwrap(), pipe_stopped, fast_wait())
        .unwrap_err();
    assert!(!error.is_timeout());
    match &error {
        WaitError::Failed { last, polls, .. } => {
            assert_eq!(last.state, Some(PipeState::Failed));
            assert_eq!(*polls, 2);
        }
        other => panic!("{other:?}"),
    }
    assert_eq!(reads.load(Ordering::SeqCst), 2);
}

#[test]
fn alert_pages_visit_every_alert_once_and_ask_an_older_server_once() {
    let fake = Fake::demo();
    let before: usize = {
        let (client, _) = client_flipping(&fake, 0, PipeState::Running);
        client.alert_pages(1000).map(|page| page.unwrap().alerts.len()).sum()
    };
    for n in 0..25 {
        let alert: Alert =
            serde_json::from_value(serde_json::json!({"id": format!("paged-{n}"), "name": format!("paged {n}")}))
                .unwrap();
        fake.seed_alert(alert);
    }
    let (client, _) = client_flipping(&fake, 0, PipeState::Running);
    let sent = fake.request_count();
    let pages: Vec<_> = client.alert_pages(4).map(Result::unwrap).collect();
    let ids: Vec<String> = pages.iter().flat_map(|page| page.alerts.iter().map(|a| a.id.to_string())).collect();
    assert_eq!(ids.len(), before + 25);
    let mut unique = ids.clone();
    unique.sort();
    unique.dedup();
    assert_eq!(unique.len(), ids.len(), "no alert twice");
    assert_eq!(pages.len(), (before + 25).div_ceil(4));
    assert_eq!(fake.request_count() - sent, pages.len());

    fake.set_alerting_version(AlertingVersion::Older);
    let sent = fake.request_count();
    let pages: Vec<_> = client.alert_pages(4).map(Result::unwrap).collect();
    assert_eq!(pages.len(), 1);
    assert_eq!(pages[0].alerts.len(), before + 25);
    assert_eq!(fake.request_count() - sent, 1);
}

#[test]
fn paging_without_an_alerting_interface_is_one_error() {
    let client =
        Client::builder().management(BASE, DEMO_KEY_ID, DEMO_KEY_SECRET).transport(Fake::demo()).build().unwrap();
    let results: Vec<_> = client.alert_pages(10).collect();
    assert_eq!(results.len(), 1);
    assert!(matches!(&results[0], Err(pipe_api_proto::Error::Build(_))), "{results:?}");
}
