//! [`Pages`]: every alert, page by page with `limit` and `offset`, as a sans-IO [`Machine`]
//! that the same driver loop as a [`Call`] runs. Each page is a [`Call`] (same retries and
//! pacing). Its `Done` is `Some(page)` for each page and `None` at the end: ask
//! [`Machine::next`] again after a page for the next one.
//!
//! It always ends, and [`Pages::end`] says why ([`End`]): at a page shorter than the limit or
//! empty; when the offset reaches the total the server gave; after the first page when the
//! server gave neither `meta` nor a readable `X-Total-Count` (an older server ignores `limit`
//! and `offset` and has just returned every alert); at a page that does not move the listing
//! on (the server says it answered for another offset, or sends the same alerts as the page
//! before); after [`Pages::max_pages`] pages; once the pages' bodies reach
//! [`Pages::max_bytes`] (when set); or at a failed page. So `collect()` stays bounded whatever
//! the server's totals say.

use std::fmt;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::time::Duration;

use http::Response;
use pipe_api_types::AlertPage;
use time::OffsetDateTime;

use crate::api::Alerting;
use crate::attempts::AttemptRecord;
use crate::call::{Call, Machine, Next};
use crate::error::{Error, TransportError};
use crate::operations::endpoints::ListAlerts;
use crate::retry::{Pacer, RetryPolicy};

/// The most pages a listing fetches unless told otherwise ([`Pages::max_pages`]): a million
/// alerts at the largest page.
pub const DEFAULT_MAX_PAGES: u64 = 1000;

/// Alerts page by page; see the [module](self).
#[derive(Debug)]
pub struct Pages<'a> {
    api: &'a Alerting,
    retry: RetryPolicy,
    limit: u32,
    offset: u64,
    seed: u64,
    pages: u64,
    max_pages: u64,
    /// The bytes of the pages' bodies so far, and the most the listing reads.
    bytes: u64,
    max_bytes: Option<u64>,
    /// The size of the last answer's body, counted once its page is handed out.
    last_body: u64,
    /// A digest of the last page's alert ids, to see a page come again.
    last_ids: Option<u64>,
    end: Option<End>,
    state: State,
}

/// Why a listing ended ([`Pages::end`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum End {
    /// A page held fewer alerts than the limit: the last one.
    ShortPage,
    /// A page held no alert.
    EmptyPage,
    /// The offset reached the total the server gave.
    TotalReached {
        /// The total.
        total: u64,
    },
    /// The server gave neither `meta` nor a readable `X-Total-Count`: an older server, which
    /// ignores paging and has returned every alert in the first page.
    NoPaging,
    /// A page did not move the listing on: the server answered for another offset than the one
    /// asked (`meta.offset`), or sent the same alerts as the page before.
    NoProgress {
        /// The offset asked for.
        offset: u64,
    },
    /// [`Pages::max_pages`] pages were fetched.
    PageLimit {
        /// The limit.
        pages: u64,
    },
    /// The pages' bodies reached [`Pages::max_bytes`]: a caller that keeps every page holds
    /// no more than that listing's worth.
    ByteLimit {
        /// The limit.
        bytes: u64,
    },
    /// A page failed (its error was handed out); the listing may start again at the offset.
    Failed {
        /// The offset of the page that failed.
        offset: u64,
    },
}

impl End {
    /// Whether the listing read every alert the server has: it ended at a short or empty
    /// page, at the total, or after the one page of a server that does not page (not after
    /// a page that did not move it on, at the page limit, or at a failed page).
    pub fn read_every_alert(&self) -> bool {
        match self {
            End::ShortPage | End::EmptyPage | End::TotalReached { .. } | End::NoPaging => true,
            End::NoProgress { .. } | End::PageLimit { .. } | End::ByteLimit { .. } | End::Failed { .. } => false,
        }
    }
}

impl fmt::Display for End {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            End::ShortPage => f.write_str("the last page was shorter than the limit"),
            End::EmptyPage => f.write_str("a page was empty"),
            End::TotalReached { total } => write!(f, "the {total} alerts the server counted were listed"),
            End::NoPaging => f.write_str(
                "the server gave no total (neither `meta` nor a readable `X-Total-Count`): an older server returns every alert at once",
            ),
            End::NoProgress { offset } => write!(
                f,
                "the page at offset {offset} did not move the listing on (the server answered for another offset, or repeated the page before)"
            ),
            End::PageLimit { pages } => write!(f, "stopped after {pages} pages, the most this listing fetches"),
            End::ByteLimit { bytes } => {
                write!(f, "stopped once the pages held {} MiB, the most this listing reads", bytes / (1024 * 1024))
            }
            End::Failed { offset } => write!(f, "the page at offset {offset} failed"),
        }
    }
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
        let max_pages = DEFAULT_MAX_PAGES;
        Pages {
            api,
            retry,
            limit,
            offset: 0,
            seed,
            pages: 0,
            max_pages,
            bytes: 0,
            max_bytes: None,
            last_body: 0,
            last_ids: None,
            end: None,
            state: State::Ready,
        }
    }

    /// Fetches at most `pages` pages ([`DEFAULT_MAX_PAGES`] unless set; at least 1).
    #[must_use]
    pub fn max_pages(mut self, pages: u64) -> Self {
        self.max_pages = pages.max(1);
        self
    }

    /// Ends the listing once its pages' bodies hold `bytes` (none unless set): what a caller
    /// that keeps every page holds is bounded as one answer is, however many pages the server
    /// offers.
    #[must_use]
    pub fn max_bytes(mut self, bytes: u64) -> Self {
        self.max_bytes = Some(bytes);
        self
    }

    /// Why the listing ended, once it has.
    pub fn end(&self) -> Option<&End> {
        self.end.as_ref()
    }

    /// The offset of the next page.
    pub fn offset(&self) -> u64 {
        self.offset
    }

    /// Whether the last page has been handed out (or a page failed).
    pub fn is_over(&self) -> bool {
        matches!(self.state, State::Over)
    }

    /// Why `page`, fetched at the current offset, is the last one, if it is; moves the offset
    /// on. The rules are checked in this order, so the first that holds is the one named.
    fn advance(&mut self, page: &AlertPage) -> Option<End> {
        let asked = self.offset;
        let count = page.alerts.len() as u64;
        self.offset = self.offset.saturating_add(count);
        let mut digest = DefaultHasher::new();
        page.alerts.iter().for_each(|alert| alert.id.hash(&mut digest));
        let ids = Some(digest.finish());
        let repeated = count > 0 && std::mem::replace(&mut self.last_ids, ids) == ids;
        let elsewhere = page.meta.as_ref().and_then(|meta| meta.offset).is_some_and(|offset| offset != asked);
        if count == 0 {
            Some(End::EmptyPage)
        } else if elsewhere || repeated {
            Some(End::NoProgress { offset: asked })
        } else if page.meta.is_none() && page.total.is_none() {
            Some(End::NoPaging)
        } else if count < u64::from(self.limit) {
            Some(End::ShortPage)
        } else if let Some(total) = page.total.filter(|&total| self.offset >= total) {
            Some(End::TotalReached { total })
        } else if self.pages >= self.max_pages {
            Some(End::PageLimit { pages: self.max_pages })
        } else {
            self.max_bytes.filter(|&most| self.bytes >= most).map(|bytes| End::ByteLimit { bytes })
        }
    }
}

impl Machine for Pages<'_> {
    type Output = Option<Result<AlertPage, Error>>;

    fn take_attempts(&mut self) -> Vec<AttemptRecord> {
        match &mut self.state {
            State::Fetching(call) => call.take_attempts(),
            _ => Vec::new(),
        }
    }

    fn next(&mut self, now: Duration, pacer: Option<&mut Pacer>) -> Next<Self::Output> {
        if matches!(self.state, State::Ready) {
            let list = ListAlerts::new().limit(self.limit).offset(self.offset);
            let seed = self.seed ^ self.pages.wrapping_mul(0x9E37_79B9_7F4A_7C15);
            match Call::owned(list, self.api, &self.retry, seed, now) {
                Ok(call) => self.state = State::Fetching(Box::new(call)),
                Err(error) => {
                    self.state = State::Over;
                    self.end = Some(End::Failed { offset: self.offset });
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
                    self.bytes = self.bytes.saturating_add(std::mem::take(&mut self.last_body));
                    let page = reply.value;
                    self.end = self.advance(&page);
                    self.state = if self.end.is_some() { State::Over } else { State::Ready };
                    Next::Done(Some(Ok(page)))
                }
                Next::Done(Err(error)) => {
                    // A failed page ends the listing: the caller may start again from
                    // `offset`; going on would skip or repeat alerts.
                    self.state = State::Over;
                    self.end = Some(End::Failed { offset: self.offset });
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
        if let Ok(response) = &outcome {
            self.last_body = response.body().len() as u64;
        }
        match &mut self.state {
            State::Fetching(call) => call.receive(outcome, now, wall, pacer),
            _ => panic!("Pages::receive without a request out"),
        }
    }
}
