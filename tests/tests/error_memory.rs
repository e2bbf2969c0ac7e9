//! What an error body may cost: reading a hostile error body, showing it and debugging it stay
//! within a few times the body's size. A binary of its own, because its counting allocator is
//! global: every test of this file runs one after the other under a lock.

// The counting allocator is an `unsafe impl`; nothing else here is unsafe.
#![allow(unsafe_code)]

use std::alloc::{GlobalAlloc, Layout, System};
use std::sync::Mutex;
use std::sync::atomic::{AtomicUsize, Ordering};

use http::Response;
use pipe_api_proto::{EndpointExt, Error, ListAlerts, ListPipes};
use pipe_api_tests::ids;

/// The system allocator, counting the bytes in use and the most ever in use.
struct Counting;

static CURRENT: AtomicUsize = AtomicUsize::new(0);
static PEAK: AtomicUsize = AtomicUsize::new(0);

fn grew(bytes: usize) {
    let now = CURRENT.fetch_add(bytes, Ordering::Relaxed) + bytes;
    PEAK.fetch_max(now, Ordering::Relaxed);
}

// SAFETY: every call is passed on to `System` as it came; the counters only observe.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let ptr = unsafe { System.alloc(layout) };
        if !ptr.is_null() {
            grew(layout.size());
        }
        ptr
    }

    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: the caller's contract, passed on.
        unsafe { System.dealloc(ptr, layout) };
        CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
    }

    unsafe fn realloc(&self, ptr: *mut u8, layout: Layout, new_size: usize) -> *mut u8 {
        // SAFETY: the caller's contract, passed on.
        let new = unsafe { System.realloc(ptr, layout, new_size) };
        if !new.is_null() {
            // Counted as both blocks at once: a moving realloc holds both for a moment.
            grew(new_size);
            CURRENT.fetch_sub(layout.size(), Ordering::Relaxed);
        }
        new
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

/// One test at a time, from its first allocation: the counters are the whole process's, and
/// another test building its 16 MiB body would count in this one's peak.
static SERIAL: Mutex<()> = Mutex::new(());

fn serial() -> std::sync::MutexGuard<'static, ()> {
    SERIAL.lock().unwrap_or_else(|e| e.into_inner())
}

/// The most bytes in use, beyond those in use before, while `work` runs.
fn peak_during(work: impl FnOnce()) -> usize {
    let base = CURRENT.load(Ordering::Relaxed);
    PEAK.store(base, Ordering::Relaxed);
    work();
    PEAK.load(Ordering::Relaxed).saturating_sub(base)
}

/// 16 MiB of `[{"a":""},...]`: as a `serde_json::Value`, about seventy times that.
fn minimal_elements(open: &str, close: &str) -> Vec<u8> {
    let target = 16 * 1024 * 1024;
    let mut body = Vec::with_capacity(target + 16);
    body.extend_from_slice(open.as_bytes());
    while body.len() < target - 16 {
        if body.len() > open.len() {
            body.push(b',');
        }
        body.extend_from_slice(br#"{"a":""}"#);
    }
    body.extend_from_slice(close.as_bytes());
    body
}

/// Parses `body` as a 500 answer to list_pipes and list_alerts, shows and debugs the errors;
/// the peak, beyond the body itself, is at most `factor` times the body.
fn assert_bounded(status: u16, body: Vec<u8>, factor: usize) {
    let len = body.len();
    let (org, service, _) = ids();
    let list = ListPipes::new(org, service);
    let alerts = ListAlerts::new();
    for management in [true, false] {
        let response = Response::builder().status(status).body(body.clone()).unwrap();
        let mut sizes = (0, 0);
        let peak = peak_during(|| {
            let error = if management {
                list.parse_response(response).unwrap_err()
            } else {
                alerts.parse_response(response).unwrap_err()
            };
            assert!(matches!(error, Error::Api(_) | Error::Decode(_)), "{error:?}");
            sizes = (error.to_string().len(), format!("{error:?}").len());
        });
        assert!(sizes.0 <= 4096 && sizes.1 <= 4096, "Display {} and Debug {} bytes", sizes.0, sizes.1);
        // The response's own body (owned by the error now, or dropped) is part of the peak.
        eprintln!("status {status}, management {management}: a {len}-byte body peaked at {peak} bytes");
        assert!(peak <= factor * len, "a {len}-byte body peaked at {peak} bytes ({}x)", peak / len.max(1));
    }
}

#[test]
fn a_hostile_error_body_costs_a_few_times_its_size() {
    let _serial = serial();
    assert_bounded(500, minimal_elements("[", "]"), 4);
    assert_bounded(500, minimal_elements(r#"{"status":500,"extra":["#, "]}"), 4);
    assert_bounded(500, minimal_elements(r#"{"status":500,"message":{"nested":["#, "]}}"), 4);
}

#[test]
fn long_texts_in_an_error_body_cost_a_few_times_their_size() {
    let _serial = serial();
    let long = "x".repeat(16 * 1024 * 1024);
    assert_bounded(500, format!(r#"{{"message":"{long}","requestId":"{long}"}}"#).into_bytes(), 4);
    // Escapes make serde_json unescape into a buffer of its own.
    let escaped = "\\n".repeat(8 * 1024 * 1024);
    assert_bounded(500, format!(r#"{{"error":"{escaped}"}}"#).into_bytes(), 4);
    assert_bounded(500, long.into_bytes(), 4);
}

#[test]
fn a_hostile_success_body_that_does_not_decode_costs_a_few_times_its_size() {
    let _serial = serial();
    assert_bounded(200, minimal_elements(r#"{"status":200,"result":"#, "}"), 4);
}
