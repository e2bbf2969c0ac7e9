//! [`Pages`]: every alert, page by page with `limit` and `offset`, as a sans-IO [`Machine`]
//! that the same driver loop as a [`Call`] runs. Each page is a [`Call`] (same retries and
//! pacing). Its `Done` is `Some(page)` for each page and `None` at the end: ask
//! [`Machine::next`] again after a page for the next one.
//!
//! Where it stops: when the server gave a total, once the offset reaches it; at a page shorter
//! than the limit (or empty); and after the first page when the server gave neither `meta` nor
//! `X-Total-Count`: an older server ignores `limit` and `offset` and has just returned every
//! alert, so asking again would only fetch the same list.

use std::time::Duration;

use http::Response;
use time::OffsetDateTime;

use crate::api::Alerting;
use crate::call::{Call, Machine, Next};
use crate::endpoints::{AlertPage, ListAlerts};
use crate::error::{Error, TransportError};
use crate::retry::{Pacer, RetryPolicy};

/// Alerts page by page; see the [module](self).
#[derive(Debug)]
pub struct Pages<'a> {
    api: &'a Alerting,
    retry: RetryPolicy,
    limit: u32,
    offset: u64,
    seed: u64,
    pages: u64,
    state: State,
}

#[derive(Debug)]
enum State {
    /// The next page is to be asked for.
    Ready,
    /// A page is being fetched.
    Fetching(Box<Call<'static, ListAlerts>>),
    /// No more pages.
    Over,
}

impl<'a> Pages<'a> {
    /// Pages of at most `limit` alerts (1 to 1000; anything else ends with the build error at
    /// the first page), each fetched by a [`Call`] under `retry`.
    pub fn new(api: &'a Alerting, limit: u32, retry: RetryPolicy, seed: u64) -> Self {
        Pages { api, retry, limit, offset: 0, seed, pages: 0, state: State::Ready }
    }

    /// The offset of the next page.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the last page has been handed out (or a page failed).
    pub fn is_over(&self) -> bool {
        matches!(self.state, State::Over)
    }

    /// Whether `page`, fetched at the current offset, is the last one; moves the offset on.
    fn advance(&mut self, page: &AlertPage) -> bool {
        let count = page.alerts.len() as u64;
        self.offset = self.offset.saturating_add(count);
        let old_server = page.meta.is_none() && page.total.is_none();
        let short = count < u64::from(self.limit);
        let reached_total = page.total.is_some_and(|total| self.offset >= total);
        old_server || short || reached_total || count == 0
    }
}

impl Machine for Pages<'_> {
    type Output = Option<Result<AlertPage, Error>>;

    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        if matches!(self.state, State::Ready) {
            let list = ListAlerts::new().limit(self.limit).offset(self.offset);
            let seed = self.seed ^ self.pages.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            match Call::owned(list, self.api, &self.retry, seed, now) {
                Ok(call) => self.state = State::Fetching(Box::new(call)),
                Err(error) => {
                    self.state = State::Over;
                    return Next::Done(Some(Err(error)));
                }
            }
        }
        match &mut self.state {
            State::Ready => unreachable!("a call was just started"),
            State::Over => Next::Done(None),
            State::Fetching(call) => match call.next(now, pacer) {
                Next::Send { request, timeout } => Next::Send { request, timeout },
                Next::Wait { until } => Next::Wait { until },
                Next::Done(Ok(reply)) => {
                    self.pages += 1;
                    let page = reply.value;
                    self.state = if self.advance(&page) { State::Over } else { State::Ready };
                    Next::Done(Some(Ok(page)))
                }
                Next::Done(Err(error)) => {
                    // A failed page ends the listing: the caller may start again from
                    // `offset`; going on would skip or repeat alerts.
                    self.state = State::Over;
                    Next::Done(Some(Err(error)))
                }
            },
        }
    }

    fn receive(
        &mut self,
        outcome: Result<Response<Vec<u8>>, TransportError>,
        now: Duration,
        wall: OffsetDateTime,
        pacer: Option<&mut Pacer>,
    ) {
        match &mut self.state {
            State::Fetching(call) => call.receive(outcome, now, wall, pacer),
            _ => panic!("Pages::receive without a request out"),
        }
    }
}
