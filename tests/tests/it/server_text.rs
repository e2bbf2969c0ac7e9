//! Server text: whatever a server echoes of what it received (every header, the body and every
//! field of it), no output shows a secret the call sent. Every operation of the table, on each
//! route a caller takes (proto's `Call` with a value added by `Call::scrubbing`, the ureq
//! `Client` with its log and `on_attempt` observer, `EndpointExt::send`), on each kind of
//! answer (a 2xx that decodes, one that does not, a JSON 400, a text 401, a 302), and every
//! output of [`Output`]: no `Authorization` value, its base64, the key secret, the bearer token,
//! a secret of the request body, or a value the caller asked to scrub.
//!
//! Adding an output means adding an [`Output`] variant, which [`Output::all`] and [`shown`] must
//! then name (both match every variant); the test fails, naming it, for an output that no run
//! showed. Adding an operation to the table covers it here with no change.

use std::any::Any;
use std::collections::BTreeMap;
use std::sync::{Arc, Mutex};
use std::time::Duration;

use base64::Engine as _;
use base64::engine::general_purpose::STANDARD;
use http::{Request, Response};
use pipe_api_proto::attempts::AttemptRecord;
use pipe_api_proto::call::{Call, Machine as _, Next};
use pipe_api_proto::operations::{OPERATIONS, Operation};
use pipe_api_proto::retry::RetryPolicy;
use pipe_api_proto::{
    Alerting, BaseUrl, BearerToken, Endpoint, EndpointExt, Error, Management, ManagementCredentials, Reply,
    TransportError,
};
use pipe_api_tests::every_operation::{Visit, visit};
use pipe_api_tests::fixtures::Role;
use pipe_api_tests::requests::create_pipe_requests;
use pipe_api_types::PipeSchemaDiscoveryRequest;
use pipe_api_ureq::Client;

const KEY_ID: &str = "server-text-key-id";
const KEY_SECRET: &str = "SERVER-TEXT-KEY-SECRET-0001";
const TOKEN: &str = "SERVER-TEXT-TOKEN-0002";
/// Inside every secret of the request bodies (`kafka-password-<marker>`, ...), and nowhere else.
const MARKER: &str = "SRVTEXTMARK";
/// A value the caller adds to a call's scrub list, which the server echoes too.
const EXTRA: &str = "SERVER-TEXT-EXTRA-0003";
/// Starts every echo, so that this test's log records are told from other tests'.
const ECHO: &str = "srvtext-echo";

/// Every output a response's text can reach.
#[derive(Clone, Copy, Debug, PartialEq, Eq, PartialOrd, Ord)]
enum Output {
    /// An error's `Display`.
    ErrorDisplay,
    /// An error's `Debug`.
    ErrorDebug,
    /// What an error keeps and gives back: its request id, code, message, location, path, kept
    /// body and raw text.
    ErrorParts,
    /// Each attempt's record, `Display` and `Debug`, as a reply or an error carries it.
    AttemptRecord,
    /// What the ureq client logs (target `pipe_api_ureq`).
    LogRecord,
    /// What a driver hands an observer: the client's `on_attempt`, a `Call`'s `take_attempts`.
    Observer,
    /// `Reply::request_id`.
    ReplyRequestId,
    /// `Reply::value`'s `Debug`.
    ReplyValue,
    /// A whole `Reply`'s `Debug`.
    ReplyDebug,
}

impl Output {
    /// Every output, in order (each variant names the next: a new one must be placed).
    fn all() -> Vec<Output> {
        let mut all = Vec::new();
        let mut next = Some(Output::ErrorDisplay);
        while let Some(output) = next {
            all.push(output);
            next = match output {
                Output::ErrorDisplay => Some(Output::ErrorDebug),
                Output::ErrorDebug => Some(Output::ErrorParts),
                Output::ErrorParts => Some(Output::AttemptRecord),
                Output::AttemptRecord => Some(Output::LogRecord),
                Output::LogRecord => Some(Output::Observer),
                Output::Observer => Some(Output::ReplyRequestId),
                Output::ReplyRequestId => Some(Output::ReplyValue),
                Output::ReplyValue => Some(Output::ReplyDebug),
                Output::ReplyDebug => None,
            };
        }
        all
    }
}

/// What one run of one operation gave back.
#[derive(Default)]
struct Run {
    /// The reply's request id, value and whole `Debug`, and its attempts, on success.
    reply: Option<(Option<String>, String, String, Vec<AttemptRecord>)>,
    error: Option<Error>,
    /// What an observer of the attempts received.
    observed: Vec<AttemptRecord>,
}

impl Run {
    fn of<T: std::fmt::Debug>(result: Result<Reply<T>, Error>, observed: Vec<AttemptRecord>) -> Run {
        match result {
            Ok(reply) => Run {
                reply: Some((
                    reply.request_id.clone(),
                    format!("{:?}", reply.value),
                    format!("{reply:?}"),
                    reply.attempts.records.clone(),
                )),
                error: None,
                observed,
            },
            Err(error) => Run { reply: None, error: Some(error), observed },
        }
    }
}

/// The texts `output` shows of `run` (none when the run has no such output).
fn shown(output: Output, run: &Run) -> Vec<String> {
    let records = |records: &[AttemptRecord]| -> Vec<String> {
        records.iter().flat_map(|record| [record.to_string(), format!("{record:?}")]).collect()
    };
    match output {
        Output::ErrorDisplay => run.error.iter().map(|error| error.to_string()).collect(),
        Output::ErrorDebug => run.error.iter().map(|error| format!("{error:?}")).collect(),
        Output::ErrorParts => run.error.iter().flat_map(error_parts).collect(),
        Output::AttemptRecord => {
            let from_error = run.error.iter().filter_map(Error::history).flat_map(|history| records(&history.records));
            let from_reply = run.reply.iter().flat_map(|(_, _, _, attempts)| records(attempts));
            from_error.chain(from_reply).collect()
        }
        // Read from the shared log at the end: see `every_output_of_every_operation_is_scrubbed`.
        Output::LogRecord => Vec::new(),
        Output::Observer => records(&run.observed),
        Output::ReplyRequestId => run.reply.iter().filter_map(|(id, ..)| id.clone()).collect(),
        Output::ReplyValue => run.reply.iter().map(|(_, value, ..)| value.clone()).collect(),
        Output::ReplyDebug => run.reply.iter().map(|(_, _, debug, _)| debug.clone()).collect(),
    }
}

/// Everything an error keeps that a caller may read and print.
fn error_parts(error: &Error) -> Vec<String> {
    let mut parts: Vec<String> = error.request_id().map(str::to_owned).into_iter().collect();
    match error {
        Error::Api(api) => {
            parts.extend([api.code(), api.message(), api.location()].into_iter().flatten().map(str::to_owned));
            parts.push(String::from_utf8_lossy(api.body()).into_owned());
            parts.extend(api.raw_text().map(|text| text.into_owned()));
        }
        Error::Decode(decode) => {
            parts.extend([decode.path().to_owned(), decode.message().to_owned()]);
            parts.push(String::from_utf8_lossy(decode.body()).into_owned());
        }
        _ => {}
    }
    parts
}

/// How the server answers, each time echoing everything it received.
#[derive(Clone, Copy, Debug)]
enum Answer {
    /// A 2xx that decodes, the echo in its request id and in the value's texts.
    Decodes,
    /// A 2xx that does not decode, the echo in its request id, its payload and `x-request-id`.
    DoesNotDecode,
    /// A JSON 400, the echo in its error, message, request id and a field of its own.
    Rejected,
    /// A text 401 that is the echo.
    Text,
    /// A 302 whose `Location` and `x-request-id` hold the echo.
    Redirect,
}

const ANSWERS: [Answer; 5] = [Answer::Decodes, Answer::DoesNotDecode, Answer::Rejected, Answer::Text, Answer::Redirect];

/// Everything `request` carried, as a server that reflects it would write it back: every
/// header, the decoded `Basic` pair, every text of the body and the body itself, and `extra`.
fn echo(request: &Request<Vec<u8>>, extra: Option<&str>) -> String {
    let mut parts = vec![ECHO.to_owned()];
    for (name, value) in request.headers() {
        let value = value.to_str().unwrap_or_default();
        parts.push(format!("{name}={value}"));
        if let Some(pair) = value.strip_prefix("Basic ") {
            parts.push(String::from_utf8(STANDARD.decode(pair).unwrap()).unwrap());
        }
    }
    fn texts(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text) => out.push(text.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|item| texts(item, out)),
            serde_json::Value::Object(map) => map.iter().for_each(|(key, item)| {
                out.push(key.clone());
                texts(item, out);
            }),
            _ => {}
        }
    }
    if let Ok(body) = serde_json::from_slice::<serde_json::Value>(request.body()) {
        texts(&body, &mut parts);
    }
    parts.push(String::from_utf8_lossy(request.body()).into_owned());
    parts.extend(extra.map(str::to_owned));
    parts.join(" ")
}

/// The server's answer to `request` for `operation`.
fn answer(operation: &Operation, kind: Answer, request: &Request<Vec<u8>>, extra: Option<&str>) -> Response<Vec<u8>> {
    use pipe_api_proto::operations::Interface;

    let echo = echo(request, extra);
    let quoted = serde_json::to_string(&echo).unwrap();
    let management = operation.interface == Interface::Management;
    let id = if management { pipe_api_tests::PIPE } else { "a1" };
    let element = format!(r#"{{"id":"{id}","name":{quoted},"state":{quoted},"description":{quoted}}}"#);
    let payload = match () {
        _ if operation.output == "()" => "null".to_owned(),
        _ if operation.is_list() => format!("[{element}]"),
        _ => element,
    };
    let with = |status: u16, headers: &[(&str, &str)], body: String| {
        let mut builder = Response::builder().status(status);
        for (name, value) in headers {
            builder = builder.header(*name, *value);
        }
        builder.body(body.into_bytes()).unwrap()
    };
    match kind {
        Answer::Decodes if management => {
            with(200, &[], format!(r#"{{"status":200,"requestId":{quoted},"result":{payload}}}"#))
        }
        Answer::Decodes if operation.output == "()" => with(200, &[("x-request-id", &echo)], "{}".to_owned()),
        Answer::Decodes => with(200, &[], format!(r#"{{"data":{payload},"requestId":{quoted}}}"#)),
        Answer::DoesNotDecode => {
            let body = if management {
                format!(r#"{{"status":200,"requestId":{quoted},"result":[[{quoted}]]}}"#)
            } else {
                format!(r#"{{"data":[[{quoted}]],"requestId":{quoted}}}"#)
            };
            with(200, &[("x-request-id", &echo)], body)
        }
        Answer::Rejected => with(
            400,
            &[("x-request-id", &echo)],
            format!(
                r#"{{"status":400,"error":"BAD_REQUEST: {}","message":{quoted},"requestId":{quoted},"echo":{quoted}}}"#,
                &quoted[1..quoted.len() - 1]
            ),
        ),
        Answer::Text => with(401, &[], echo.clone()),
        Answer::Redirect => {
            let location = format!("https://elsewhere.example/?echo={}", echo.replace(' ', "+"));
            with(302, &[("location", &location), ("x-request-id", &echo)], String::new())
        }
    }
}

/// Every secret that must not show: every form of both interfaces' credentials, the body's
/// secrets (by their marker), and the value the call route adds.
fn secrets() -> Vec<String> {
    let pair = format!("{KEY_ID}:{KEY_SECRET}");
    vec![
        format!("Basic {}", STANDARD.encode(&pair)),
        STANDARD.encode(&pair),
        pair,
        KEY_SECRET.to_owned(),
        STANDARD.encode(KEY_SECRET),
        format!("Bearer {TOKEN}"),
        TOKEN.to_owned(),
        MARKER.to_owned(),
        EXTRA.to_owned(),
    ]
}

/// Runs each operation's endpoint on every route against a server giving `answer`.
struct Routes {
    operation: &'static Operation,
    kind: Answer,
    management: Management,
    alerting: Alerting,
    runs: Vec<(&'static str, Run)>,
}

impl Routes {
    /// A transport echoing what it received, as `answer` says; `extra` echoed too.
    fn server(
        &self,
        extra: Option<&'static str>,
    ) -> impl Fn(Request<Vec<u8>>) -> Result<Response<Vec<u8>>, TransportError> + Send + Sync + 'static {
        let (operation, kind) = (self.operation, self.kind);
        move |request: Request<Vec<u8>>| Ok(answer(operation, kind, &request, extra))
    }

    fn client(&self) -> (Client, Arc<Mutex<Vec<AttemptRecord>>>) {
        let observed = Arc::new(Mutex::new(Vec::new()));
        let sink = observed.clone();
        let client = Client::builder()
            .management("https://api.example.com", KEY_ID, KEY_SECRET)
            .alerting("https://alerts.example.com", TOKEN)
            .transport(self.server(None))
            .no_retries()
            .on_attempt(move |record| sink.lock().unwrap().push(record.clone()))
            .build()
            .unwrap();
        (client, observed)
    }

    fn run<E: Endpoint>(&mut self, endpoint: &E, api: &E::Api, client: impl FnOnce(&E) -> Run) {
        // Proto's machine, driven here, with a value of the caller's own to scrub.
        let server = self.server(Some(EXTRA));
        let call = Call::new(endpoint, api, &RetryPolicy::disabled(), 1, Duration::ZERO);
        let call = call.unwrap_or_else(|error| panic!("a valid body for {}: {error}", self.operation.name));
        let mut call = call.scrubbing([EXTRA.to_owned()]);
        let mut observed = Vec::new();
        let result = loop {
            match call.next(Duration::ZERO, None) {
                Next::Send { request, .. } => {
                    call.receive(server(request), Duration::ZERO, time::OffsetDateTime::UNIX_EPOCH, None);
                    observed.extend(call.take_attempts());
                }
                Next::Wait { .. } => panic!("no retries, no waits"),
                Next::Done(result) => break result,
            }
        };
        self.runs.push(("Call", Run::of(result, observed)));
        self.runs.push(("Client", client(endpoint)));
        self.runs.push(("EndpointExt::send", Run::of(endpoint.send(api, &self.server(None)), Vec::new())));
    }
}

impl Visit for Routes {
    /// The operation's own valid body (its fixture `request.json`), or, for the requests that
    /// can carry secrets, one holding the marker secret.
    fn body<B: Default + serde::de::DeserializeOwned + 'static>(&mut self, operation: &'static str) -> B {
        /// Puts `value` in `slot` when the slot holds its type.
        fn put<T: 'static>(slot: &mut dyn Any, value: impl FnOnce() -> T) {
            if let Some(slot) = slot.downcast_mut::<Option<T>>() {
                *slot = Some(value());
            }
        }
        let fixture = pipe_api_tests::fixtures::operation_fixtures(operation)
            .and_then(|fixtures| fixtures.into_iter().find(|fixture| fixture.role == Some(Role::Request)));
        let mut body = Some(fixture.map_or_else(B::default, |fixture| {
            serde_json::from_slice(&fixture.bytes).unwrap_or_else(|error| panic!("{operation}/request.json: {error}"))
        }));
        let requests = create_pipe_requests(MARKER);
        let kafka = requests[0].source.as_ref().unwrap().kafka.as_deref().unwrap().clone();
        let slot: &mut dyn Any = &mut body;
        put(slot, || requests[0].clone());
        put(slot, || PipeSchemaDiscoveryRequest::kafka(kafka));
        body.unwrap()
    }

    fn management<E: Endpoint<Api = Management>>(&mut self, endpoint: E) {
        let (client, observed) = self.client();
        let api = self.management.clone();
        self.run(&endpoint, &api, |endpoint| {
            let result = client.call(endpoint);
            Run::of(result, observed.lock().unwrap().clone())
        });
    }

    fn alerting<E: Endpoint<Api = Alerting>>(&mut self, endpoint: E) {
        let (client, observed) = self.client();
        let api = self.alerting.clone();
        self.run(&endpoint, &api, |endpoint| {
            let result = client.call(endpoint);
            Run::of(result, observed.lock().unwrap().clone())
        });
    }
}

#[test]
fn every_output_of_every_operation_is_scrubbed_of_what_the_call_sent() {
    crate::log_capture::install();
    let management = Management::new(
        BaseUrl::parse("https://api.example.com").unwrap(),
        ManagementCredentials::new(KEY_ID, KEY_SECRET).unwrap(),
    );
    let alerting =
        Alerting::new(BaseUrl::parse("https://alerts.example.com").unwrap(), BearerToken::new(TOKEN).unwrap());
    let secrets = secrets();
    let mut seen: BTreeMap<Output, usize> = BTreeMap::new();
    // Texts that show the echo, scrubbed: what the server sent did reach the output.
    let mut echoed: BTreeMap<Output, usize> = BTreeMap::new();
    // The body secrets were sent and echoed: the test is not empty on them.
    let mut body_secrets_echoed = 0;
    for operation in OPERATIONS {
        for kind in ANSWERS {
            let mut routes = Routes {
                operation,
                kind,
                management: management.clone(),
                alerting: alerting.clone(),
                runs: Vec::new(),
            };
            assert!(visit(operation.name, &mut routes), "{}: not reached", operation.name);
            for (route, run) in &routes.runs {
                for output in Output::all() {
                    for text in shown(output, run) {
                        *seen.entry(output).or_default() += 1;
                        if text.contains("[redacted]") {
                            *echoed.entry(output).or_default() += 1;
                        }
                        for secret in &secrets {
                            assert!(
                                !text.contains(secret.as_str()),
                                "{} via {route}, {kind:?}: {output:?} shows {secret:?}: {text}",
                                operation.name
                            );
                        }
                    }
                }
            }
            if matches!(operation.name, "create_pipe" | "discover_pipe_schema") {
                body_secrets_echoed += 1;
            }
        }
    }
    // The client's log: one record per attempt, each checked (other tests' records too).
    let logged: Vec<String> = crate::log_capture::logged()
        .into_iter()
        .filter(|(_, target, _)| target == "pipe_api_ureq")
        .map(|(_, _, text)| text)
        .collect();
    for text in &logged {
        for secret in &secrets {
            assert!(!text.contains(secret.as_str()), "LogRecord shows {secret:?}: {text}");
        }
    }
    let ours: Vec<&String> = logged.iter().filter(|text| text.contains(ECHO)).collect();
    seen.insert(Output::LogRecord, ours.len());
    echoed.insert(Output::LogRecord, ours.iter().filter(|text| text.contains("[redacted]")).count());
    for output in Output::all() {
        assert!(seen.get(&output).copied().unwrap_or(0) > 0, "no run showed {output:?}: cover it");
        assert!(echoed.get(&output).copied().unwrap_or(0) > 0, "{output:?} never showed the echo, scrubbed");
    }
    assert_eq!(body_secrets_echoed, 2 * ANSWERS.len());
}
