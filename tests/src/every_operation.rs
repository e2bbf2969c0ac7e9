//! Every operation of the table of operations, made from the table itself (sample path ids, a
//! default body): a test that must hold for every operation iterates
//! [`OPERATIONS`](pipe_api_proto::operations::OPERATIONS) and reaches each one through [`parse`]
//! or [`wait_error_shown`], so an operation added to the table is covered with no new test. The
//! workspace's hostile-input and memory tests do, and proto's own tests (which compile this
//! file as a module of theirs: a test helper, not part of any crate's API).

use http::Response;
use pipe_api_types::*;
use serde::de::DeserializeOwned;

use pipe_api_proto::*;

/// The organization of every sample path, and of tests that need no particular one.
pub const ORG: &str = "6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001";
/// The service of every sample path, and of tests that need no particular one.
pub const SERVICE: &str = "4c0d2a7e-5b7f-4a55-8d1e-2c9a7f6e1002";
/// The pipe of every sample path, and of tests that need no particular one.
pub const PIPE: &str = "0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e";

/// The key of every sample path.
pub const KEY: &str = "6c2a5d8f-3b4e-4f90-8c2d-1e3f4a5b6c7d";
/// The alert of every sample path (the alerting interface's ids are not UUIDs).
pub const ALERT: &str = "65f5e4a3b9e77c001a123456";

/// A value for a path parameter of any operation.
trait Sample {
    fn sample() -> Self;
}

impl Sample for OrganizationId {
    fn sample() -> Self {
        ORG.parse().expect("a uuid")
    }
}

impl Sample for ServiceId {
    fn sample() -> Self {
        SERVICE.parse().expect("a uuid")
    }
}

impl Sample for PipeId {
    fn sample() -> Self {
        PIPE.parse().expect("a uuid")
    }
}

impl Sample for KeyId {
    fn sample() -> Self {
        KEY.parse().expect("a uuid")
    }
}

impl Sample for ReversePrivateEndpointId {
    fn sample() -> Self {
        "5e7a9c1b-3d5f-4b7a-9c1e-2f4a6b8d0e13".parse().expect("a uuid")
    }
}

impl Sample for AlertId {
    fn sample() -> Self {
        AlertId::new(ALERT)
    }
}

/// An output, to count its elements: a list's length ([`ListElements`]), 1 for anything else
/// ([`OneElement`]). Which one a call `(&Count(&output)).elements()` takes is chosen by method
/// lookup on the output's type where it is known (each row of [`parse`]): a list's impl takes
/// `&Count` itself and is found first; every other output is reached through one more `&`. So
/// a new output needs no line here.
struct Count<'a, T>(&'a T);

/// A list's count of elements.
trait ListElements {
    fn elements(&self) -> usize;
}

impl<T> ListElements for Count<'_, Vec<T>> {
    fn elements(&self) -> usize {
        self.0.len()
    }
}

impl ListElements for Count<'_, AlertPage> {
    fn elements(&self) -> usize {
        self.0.alerts.len()
    }
}

/// One value's count of elements: 1.
trait OneElement {
    fn elements(&self) -> usize {
        1
    }
}

impl<T> OneElement for &Count<'_, T> {}

/// The endpoint of a row: sample ids and the body `$bodies` gives ([`Visit::body`]), or the
/// default of one written by hand.
macro_rules! sample_endpoint {
    ($bodies:expr, $name:ident, hand $endpoint:ident [] []) => {
        $endpoint::default()
    };
    ($bodies:expr, $name:ident, table $endpoint:ident [$($type:ty),*] [$($body_type:ty)?]) => {
        $endpoint::new($(<$type as Sample>::sample(),)* $($bodies.body::<$body_type>(stringify!($name)))?)
    };
}

/// The bodies of [`parse`] and [`wait_error_shown`]: each request's default.
struct Defaults;

impl Defaults {
    fn body<B: Default>(&self, operation: &'static str) -> B {
        let _ = operation;
        B::default()
    }
}

/// [`parse`] over every row.
macro_rules! parsers {
    ($({
        docs: $docs:tt, name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: [$($field:ident : $type:ty),*], body: [$($body:ident : $body_type:ty)?], query: $query:tt,
        interface: $api:ident, $($more:tt)*
    })*) => {
        /// Parses `response` as the operation `name` does, on [`management`] or [`alerting`]
        /// (`None` for a name the table does not have); a success gives how many elements it
        /// decoded.
        pub fn parse(name: &str, response: Response<Vec<u8>>) -> Option<Result<usize, Error>> {
            match name {
                $(
                    stringify!($name) => Some(
                        sample_endpoint!(Defaults, $name, $declared $endpoint [$($type),*] [$($body_type)?])
                            .parse_response(interface!($api, &management(), &alerting()), response)
                            .map(|reply| (&Count(&reply.value)).elements()),
                    ),
                )*
                _ => None,
            }
        }

        /// Polls operation `name` until its deadline (a condition that never holds), on a virtual
        /// clock, each poll answered by `answer`; the wait's error as `{}` and `{:?}` show it
        /// (`None` for a name the table does not have).
        pub fn wait_error_shown(
            name: &str,
            answer: impl Fn(&http::Request<Vec<u8>>) -> Response<Vec<u8>>,
        ) -> Option<String> {
            match name {
                $(
                    stringify!($name) => {
                        let endpoint = sample_endpoint!(Defaults, $name, $declared $endpoint [$($type),*] [$($body_type)?]);
                        let api = interface!($api, management(), alerting());
                        Some(wait_until_deadline(&endpoint, &api, answer))
                    }
                )*
                _ => None,
            }
        }
    };
}

/// Hands a test each operation's endpoint, to drive as it likes (through a client, a
/// [`Call`](pipe_api_proto::call::Call), [`EndpointExt::send`]), with the body it chooses.
pub trait Visit {
    /// The body of operation `operation`, whose request is a `B`: the default one unless the
    /// test has its own (a request holding secrets, say, or one read from a fixture's JSON).
    fn body<B: Default + DeserializeOwned + 'static>(&mut self, operation: &'static str) -> B {
        let _ = operation;
        B::default()
    }

    /// The endpoint of a management operation.
    fn management<E: Endpoint<Api = Management>>(&mut self, endpoint: E);

    /// The endpoint of an alerting operation.
    fn alerting<E: Endpoint<Api = Alerting>>(&mut self, endpoint: E);
}

/// Hands an endpoint to the visitor's method for its interface.
macro_rules! visit_api {
    (Management, $visitor:ident, $endpoint:ident) => {
        $visitor.management($endpoint)
    };
    (Alerting, $visitor:ident, $endpoint:ident) => {
        $visitor.alerting($endpoint)
    };
}

/// [`visit`] over every row.
macro_rules! visits {
    ($({
        docs: $docs:tt, name: $name:ident, endpoint: $endpoint:ident, declared: $declared:ident,
        fields: [$($field:ident : $type:ty),*], body: [$($body:ident : $body_type:ty)?], query: $query:tt,
        interface: $api:ident, $($more:tt)*
    })*) => {
        /// Builds operation `name`'s endpoint (sample ids, the body [`Visit::body`] gives) and
        /// hands it to `visitor`; `false` for a name the table does not have.
        pub fn visit(name: &str, visitor: &mut impl Visit) -> bool {
            match name {
                $(
                    stringify!($name) => {
                        let endpoint = sample_endpoint!(visitor, $name, $declared $endpoint [$($type),*] [$($body_type)?]);
                        visit_api!($api, visitor, endpoint);
                        true
                    }
                )*
                _ => false,
            }
        }
    };
}

pipe_api_proto::operations!(visits);

macro_rules! interface {
    (Management, $management:expr, $alerting:expr) => {
        $management
    };
    (Alerting, $management:expr, $alerting:expr) => {
        $alerting
    };
}

/// The key secret of [`management`]: a server that echoes it must not get it into an error.
pub const KEY_SECRET: &str = "sample-key-secret-5e1f";
/// The token of [`alerting`].
pub const TOKEN: &str = "sample-alerting-token-9c2d";

/// The management interface [`parse`] parses for, and tests that only parse answers.
pub fn management() -> Management {
    let credentials = ManagementCredentials::new("sample-key-id", KEY_SECRET).expect("credentials");
    Management::new(BaseUrl::parse("https://api.example.com").expect("a URL"), credentials)
}

/// The alerting interface [`parse`] parses for, and tests that only parse answers.
pub fn alerting() -> Alerting {
    let token = BearerToken::new(TOKEN).expect("a token");
    Alerting::new(BaseUrl::parse("https://alerts.example.com").expect("a URL"), token)
}

pipe_api_proto::operations!(parsers);

/// Runs a wait on `endpoint` whose condition never holds until its deadline, each poll answered
/// by `answer`; its error shown.
fn wait_until_deadline<E: Endpoint>(
    endpoint: &E,
    api: &E::Api,
    answer: impl Fn(&http::Request<Vec<u8>>) -> Response<Vec<u8>>,
) -> String {
    use pipe_api_proto::call::{Machine as _, Next};
    use pipe_api_proto::wait::{Verdict, Wait, WaitPolicy};
    use std::time::Duration;

    let policy = WaitPolicy::default().deadline(Duration::from_secs(20));
    let mut wait = Wait::new(
        endpoint,
        api,
        |_: &E::Output| Verdict::Continue,
        policy,
        pipe_api_proto::retry::RetryPolicy::default(),
        1,
        Duration::ZERO,
    );
    let mut now = Duration::ZERO;
    loop {
        match wait.next(now, None) {
            Next::Send { request, .. } => {
                now += Duration::from_millis(10);
                wait.receive(Ok(answer(&request)), now, time::OffsetDateTime::UNIX_EPOCH, None);
            }
            Next::Wait { until } => now = until,
            Next::Done(Ok(_)) => return "the wait succeeded".to_owned(),
            Next::Done(Err(error)) => return format!("{error} {error:?}"),
        }
    }
}

/// A success body of operation `operation` whose payload (the envelope's `result`, the
/// alerting `data`) is `payload`, as the operation's interface and shape carry it.
pub fn success_body(operation: &pipe_api_proto::operations::Operation, payload: &str) -> String {
    use pipe_api_proto::operations::Interface;
    match operation.interface {
        Interface::Management => format!(r#"{{"status":200,"requestId":"r-1","result":{payload}}}"#),
        _ => format!(r#"{{"data":{payload}}}"#),
    }
}
