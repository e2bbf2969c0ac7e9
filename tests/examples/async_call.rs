//! Driving proto's sans-IO machines from async code: a [`Call`], a [`Wait`] and a plan's
//! [`Apply`] run by one async loop on tokio's current-thread runtime. The "HTTP client" is an async function answering
//! from the fake (no network), and tokio's paused clock makes the waits virtual: the example
//! takes milliseconds, yet the waiter's 1 s and 1.5 s pauses are really observed.
//!
//! Nothing async is in the library crates: the same `next` / `receive` loop a blocking driver
//! writes, with `.await` on the send and on the sleep.
//!
//! `cargo run -p pipe-api-tests --example async_call`; `cargo test` runs it as a test too.

use std::cell::Cell;
use std::time::Duration;

use http::{Request, Response};
use pipe_api_fake::{DEMO_KEY_ID, DEMO_KEY_SECRET, DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Fake};
use pipe_api_plan::{Apply, ApplyOptions, DesiredState, PlanOptions, ReadCurrent, ReadOptions, plan};
use pipe_api_proto::call::{Call, Machine, Next};
use pipe_api_proto::retry::RetryPolicy;
use pipe_api_proto::wait::{Wait, WaitPolicy, pipe_settled};
use pipe_api_proto::{BaseUrl, GetPipe, GetService, Management, ManagementCredentials, TransportError};
use pipe_api_types::{Pipe, PipeId, PipeState};
use time::OffsetDateTime;
use tokio::time::Instant;

const PIPE: &str = "5d1c2b3a-4e5f-4a6b-8c7d-9e0f1a2b3c4d";

/// An async HTTP client stand-in: each exchange takes 50 ms (of tokio's clock) and the fake
/// answers. After `flip_after` reads of the pipe, the pipe starts running.
struct AsyncFakeHttp {
    fake: Fake,
    pipe_reads: Cell<usize>,
    flip_after: usize,
}

impl AsyncFakeHttp {
    async fn send(&self, request: Request<Vec<u8>>, timeout: Duration) -> Result<Response<Vec<u8>>, TransportError> {
        tokio::time::sleep(Duration::from_millis(50).min(timeout)).await;
        if request.uri().path().ends_with(PIPE) {
            self.pipe_reads.set(self.pipe_reads.get() + 1);
            if self.pipe_reads.get() == self.flip_after {
                let pipe: PipeId = PIPE.parse().expect("a pipe id");
                self.fake.set_pipe_state(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, pipe, PipeState::Running);
            }
        }
        Ok(self.fake.handle(request))
    }
}

/// The one async driver loop: runs any machine (a call, a wait, the alert pages) to its
/// next result. Time is tokio's monotonic clock since `origin`.
async fn drive<M: Machine>(machine: &mut M, http: &AsyncFakeHttp, origin: Instant) -> M::Output {
    loop {
        match machine.next(origin.elapsed(), None) {
            Next::Send { request, timeout } => {
                let outcome = http.send(request, timeout).await;
                machine.receive(outcome, origin.elapsed(), OffsetDateTime::now_utc(), None);
            }
            Next::Wait { until } => tokio::time::sleep_until(origin + until).await,
            Next::Done(output) => return output,
        }
    }
}

/// Reads the service with a `Call`, then waits for the pipe with a `Wait`; returns the pipe
/// and how long the wait took on tokio's clock.
async fn run() -> Result<(Pipe, Duration), Box<dyn std::error::Error>> {
    let fake = Fake::demo();
    let pipe_id: PipeId = PIPE.parse()?;
    fake.seed_pipe(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, Pipe::new(pipe_id).state(PipeState::Provisioning));
    let http = AsyncFakeHttp { fake, pipe_reads: Cell::new(0), flip_after: 3 };
    let api = Management::new(
        BaseUrl::parse("https://api.example.com")?,
        ManagementCredentials::new(DEMO_KEY_ID, DEMO_KEY_SECRET)?,
    );
    let origin = Instant::now();

    let get_service = GetService::new(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID);
    let mut call = Call::new(&get_service, &api, &RetryPolicy::default(), 1, origin.elapsed())?;
    let service = drive(&mut call, &http, origin).await?.value;
    assert_eq!(service.id, DEMO_SERVICE_ID);

    let get_pipe = GetPipe::new(DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID, pipe_id);
    let started = origin.elapsed();
    let mut wait = Wait::new(&get_pipe, &api, pipe_settled, WaitPolicy::default(), RetryPolicy::default(), 2, started);
    let pipe = drive(&mut wait, &http, origin).await?;
    let took = origin.elapsed() - started;

    // A plan made from what the lists answer, applied by the same loop.
    let desired = DesiredState::from_json(
        r#"{"pipes": [{"name": "async", "source": {"kinesis": {"format": "JSONEachRow", "streamName": "s",
            "region": "eu-west-1", "iteratorType": "LATEST", "authentication": "IAM_ROLE",
            "iamRole": "arn:aws:iam::123456789012:role/r"}},
            "destination": {"table": "t", "managedTable": true, "columns": [{"name": "id", "type": "UInt64"}]}}]}"#,
        |_| None,
    )?;
    let (org, svc) = (DEMO_ORGANIZATION_ID, DEMO_SERVICE_ID);
    // What the service has, read by the plan crate's own machine (its listings, an idle
    // service woken, a deadline of its own), driven by the same loop.
    let mut read = ReadCurrent::new(org, svc, &api, None, ReadOptions::default(), 3, origin.elapsed());
    let current = drive(&mut read, &http, origin).await?;
    let plan = plan(org, svc, &desired, &current, &PlanOptions::default())?;
    let mut apply = Apply::new(&plan, Some(&api), None, ApplyOptions::default(), 5, origin.elapsed());
    let applied = drive(&mut apply, &http, origin).await?;
    assert_eq!(applied.steps().len(), 1);
    Ok((pipe, took))
}

fn runtime() -> tokio::runtime::Runtime {
    // A paused clock: tokio jumps to the next timer when idle, so waits cost no real time.
    tokio::runtime::Builder::new_current_thread().enable_time().start_paused(true).build().expect("a runtime")
}

#[cfg_attr(test, allow(dead_code))]
fn main() -> Result<(), Box<dyn std::error::Error>> {
    let (pipe, took) = runtime().block_on(run())?;
    println!("pipe {} is {:?} after {:.2} s of waiting", pipe.id, pipe.state, took.as_secs_f64());
    Ok(())
}

#[test]
fn an_async_loop_drives_a_call_and_a_wait() {
    let real = std::time::Instant::now();
    let (pipe, took) = runtime().block_on(run()).unwrap();
    assert_eq!(pipe.state, Some(PipeState::Running));
    // Three polls of 50 ms each, with the waiter's pauses of 1 s and 1.5 s between them.
    assert_eq!(took, Duration::from_millis(3 * 50 + 1000 + 1500));
    assert!(real.elapsed() < Duration::from_secs(2), "the clock is virtual");
}
