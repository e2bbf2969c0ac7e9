//! What a call promises whatever the network or the server does, and the numbers behind it.
//! (This module holds documentation only.)
//!
//! Whatever the network or the server does, a call ends within its deadline in a success or a
//! typed error ([`Error`](crate::Error): `Build`, `Transport`, `Api`, `Decode` or `NotSent`),
//! never panics, never sends a create twice, and never leaks a secret. The workspace's
//! `tests/tests/it/fault_matrix.rs`, `e2e.rs`, `hostile.rs`, `decode_memory.rs`,
//! `echoed_credentials.rs`, `secret_hygiene.rs` and this crate's `tests/call.rs` hold the
//! evidence.
//!
//! Errors compose with `anyhow`/`eyre`: each layer's `Display` says only its own part and the
//! cause is its `source()` (`{:#}` prints each message once).
//! [`Error::as_api`](crate::Error::as_api), [`status`](crate::Error::status),
//! [`is_not_found`](crate::Error::is_not_found),
//! [`is_rate_limited`](crate::Error::is_rate_limited) and
//! [`retry_after(now)`](crate::Error::retry_after) answer the usual questions.
//!
//! # Measured bounds
//!
//! | what | bound | measured (command) |
//! |---|---|---|
//! | memory a successful decode adds | within 4 times the body | 3.3x for 2,000 pipes, peak resident size of a child process (`cargo test -p pipe-api-tests --test decode_memory`); 2.4x for 10,000 (`cargo bench -p pipe-api-tests --bench ratios -- memory`) |
//! | memory a hostile 2xx body adds (16 MiB of `[{"id":""},...]`), error formatted | within 4 times the body: decoding stops at a budget of [`DECODED_BYTES_PER_BODY_BYTE`](crate::DECODED_BYTES_PER_BODY_BYTE) (6) bytes of values per body byte and [`DECODE_ALLOWANCE`](crate::DECODE_ALLOWANCE) (8 MiB) | 3.1x (`decode_memory`); unbounded, it was 71x (1.2 GB) |
//! | memory a hostile 2xx body adds read as a JSON value ([`Raw`](crate::Raw) on either interface, a wait's wake-up answer, any listing read as a value) | within 4 times the body: every way a 2xx body is decoded, typed or value, goes through the one budget, a value's objects, members, names and slots charged as its tree's nodes. A value costs 10 to 25 times its JSON, so one of more than about 1 MiB of JSON is refused: read a large listing with its typed operation | 3.6x for 16 MiB of `{"a":""}` (`decode_memory`, `every_decode_entry_point_...`); unbudgeted, it was 75x (1.2 GB) |
//! | memory an error body adds (16 MiB, any shape) | within 2 times the body: only `requestId`, `error`, `message`, `code` are read, the first 64 KiB kept ([`BODY_KEPT`](crate::BODY_KEPT)) | 1x or less (`decode_memory`) |
//! | longest `Display` or `Debug` of any error | 4 KiB | 15 MiB bodies of every shape (`hostile.rs`) |
//! | time an attempt is given | never started with less than [`RetryPolicy::min_attempt_time`](crate::retry::RetryPolicy::min_attempt_time) (5 s) before the deadline; the call ends with `Error::NotSent` ("deadline reached before sending; nothing was sent") | `call.rs` properties on a virtual clock |
//! | pacing's margin | [`Pacer::management`](crate::retry::Pacer::management): 10 per 10 s plus 1 s, so arrivals up to 0.5 s early or late still keep the limit as the server counts; waiting callers served in order | `call.rs`: 11-40 calls sharing a pacer, ±0.5 s jitter, never 11 in a server window (11 without the margin) |
//! | what the call sent, reflected by a server | never shown: the `Authorization` value, its base64, the key secret or token, every value of the request body under a secret field, and what the caller added ([`Call::scrubbing`](crate::call::Call::scrubbing)) are taken out of every text of the answer where it is read, before an error, a `Reply`, an attempt's record, a log line or an observer holds it | `server_text.rs` (every output of every operation), `echoed_credentials.rs` |
//!
//! # What is retried
//!
//! The decision is this crate's ([`RetryPolicy::decide`](crate::retry::RetryPolicy::decide), a
//! pure function of the method, the outcome, the attempt, the server's hints and the time
//! spent, applied by [`Call`](crate::call::Call)); a driver such as the ureq client only sleeps
//! and re-sends. Idempotent methods are GET, PUT and DELETE (and HEAD, OPTIONS, TRACE:
//! [`is_idempotent`](crate::retry::is_idempotent)); POST and PATCH never are.
//!
//! | outcome | GET, PUT, DELETE | POST (create key, create pipe, ...) and PATCH | why |
//! |---|---|---|---|
//! | connection refused / connect timeout | retried | retried | nothing reached the server |
//! | 429 Too Many Requests | retried after the server's hint | retried after the server's hint | the server refused before acting |
//! | 502, 503, 504 | retried | **not retried**: error, `outcome_unknown()` | a gateway may have passed the request on; a 504 after the pipe was created is a real failure mode |
//! | reset, timeout or broken body after sending | retried | **not retried**: error, `outcome_unknown()` | the server may have acted |
//! | 2xx that does not decode | not retried | not retried | the server acted; the error keeps the body and the JSON path |
//! | body over the size limit | not retried | not retried | the same answer would come again |
//! | plain `http` off loopback, refused by the transport ([`TransportErrorKind::Refused`](crate::TransportErrorKind::Refused)) | not retried | not retried | nothing was sent, and it would be refused again; the ureq client's builder already refuses such a URL |
//! | any other 4xx or 5xx (400, 401, 403, 404, 409, 424, 500) | not retried | not retried | repeating cannot help |
//! | 3xx | not followed, not retried | not followed, not retried | credentials must never reach another host |
//!
//! No idempotency keys exist on these services, so a create whose outcome is unknown says so:
//! its `Display` ends with "list before creating again", and
//! [`Error::attempts`](crate::Error::attempts) tells how many attempts were made.
//!
//! Delays: the server's hint when it sends one (`Retry-After` in seconds or as an HTTP date,
//! `X-RateLimit-Reset` in fractional seconds, `RateLimit-Reset`), honoured exactly up to 30 s (a
//! longer one stops with the error); otherwise full-jitter exponential backoff (250 ms doubling,
//! capped at 8 s). At most 4 attempts and 60 s in all. Every number is a field of
//! [`RetryPolicy`](crate::retry::RetryPolicy) (the ureq client's `ClientBuilder::retry_policy`
//! changes them and `no_retries()` turns retrying off).
//!
//! # Timeouts and limits
//!
//! | what | default | where |
//! |---|---|---|
//! | overall deadline, retries included | 60 s | [`RetryPolicy::deadline`](crate::retry::RetryPolicy::deadline) |
//! | time an attempt is given | 5 s at least before the deadline, or it is not started | [`RetryPolicy::min_attempt_time`](crate::retry::RetryPolicy::min_attempt_time) |
//! | one exchange | ends at the deadline (the ureq transport's within a few milliseconds after it): [`Step::Send`](crate::call::Next::Send) gives what is left as its `timeout`, and a transport on blocking sockets asks them for no more than [`socket_timeout_within`](crate::socket_timeout_within) of what is left each time it waits (Linux fires a long socket timeout up to an eighth late) | [`Transport::send_within`](crate::Transport::send_within) |
//! | decoded values | at most 6 bytes per body byte and 8 MiB; a hostile body of minimal elements is a decode error, a thousand small elements of any list are not | [`DECODED_BYTES_PER_BODY_BYTE`](crate::DECODED_BYTES_PER_BODY_BYTE) |
//! | error body kept | the first 64 KiB | [`BODY_KEPT`](crate::BODY_KEPT) |
//! | JSON nesting | 128 levels (serde_json's limit); deeper is a decode error, never a stack overflow | |
//!
//! The connect timeout, the time for one exchange and the response body limit are the
//! transport's; the ureq client's defaults (10 s, 30 s, 16 MiB) are in `pipe-api-ureq`'s crate
//! docs. Its time for one exchange ends as the deadline does, at the nearer of the two, not
//! before: its sockets are asked a second at a time, each time for
//! [`socket_timeout_within`](crate::socket_timeout_within) of what is left.
//!
//! # Pacing
//!
//! [`Pacer::management`](crate::retry::Pacer::management) keeps one credential under the
//! documented 10 requests per 10 seconds, with a 1 s margin so that the limit holds as the
//! server counts arrivals: a request waits only as long as the window requires, waiting callers
//! are served in the order they asked, a wait that would leave an attempt too little time before
//! the deadline ends the call with `Error::NotSent` instead, and a 429 holds back every request
//! sharing the pacer until the server's reset. The decisions are
//! [`Pacer`](crate::retry::Pacer)'s and [`Call`](crate::call::Call)'s, tested on a virtual
//! clock; use them with any transport (the ureq client: `ClientBuilder::pacing`, off by
//! default).
//!
//! # Secrets
//!
//! Key secrets, tokens, passwords, secret keys, private keys and connection strings are
//! [`Secret`](pipe_api_types::Secret)s: `Debug` prints `Secret([redacted])`, there is no
//! `Display`, and the `Authorization` header is marked sensitive.
//!
//! Server text, one rule at one boundary: every text that comes from a response (a request
//! id, a message, a name or value of the result, a header, the kept body) is scrubbed of
//! everything the call sent, then cut, where the response is read, before any `Display`,
//! `Debug`, log record, observer or [`Reply`](crate::Reply) field sees it. What the call sent
//! is computed in one place: every form of its `Authorization` credentials (the header value,
//! its base64, the decoded key secret or token), every string of the request body under a
//! secret field at any depth (`source.kafka.credentials.password`), and the values a caller
//! adds with [`Call::scrubbing`](crate::call::Call::scrubbing) (such as those a desired state
//! resolved from references); texts under 6 bytes are not searched.
//! [`parse_response`](crate::EndpointExt::parse_response) takes the interface (its
//! credentials) and the endpoint (its body); [`EndpointExt::send`](crate::EndpointExt::send)
//! and [`Call`](crate::call::Call) use the request they sent. A preview of a body that is not
//! JSON is cut at anything that may name a secret, in any spelling or escape.
//! The workspace's `tests/tests/it/secret_hygiene.rs` runs every operation, on success and on
//! every fault, with marker secrets, and checks every `Debug`, `Display` and log record. The
//! one exception lives in the ureq client's dependency `ureq-proto` (see `pipe-api-ureq`'s crate
//! docs).
//!
//! # Fuzzing
//!
//! The workspace's `fuzz/` holds a [cargo fuzz](https://github.com/rust-fuzz/cargo-fuzz) target,
//! `parse_response`, that runs every response parser on arbitrary bytes; `fuzz/README.md` says
//! how to run it. The property tests in `tests/tests/it/hostile.rs` (arbitrary bytes, model-shaped
//! JSON and mutated real bodies) run with the test suite: 5,000 cases, or 100,000 with
//! `PIPE_API_HOSTILE_FULL=1`.
