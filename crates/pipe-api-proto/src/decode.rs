//! The one way a success body is decoded: serde_json into the endpoint's output, within a memory
//! budget proportional to the body. This file holds the decode entry points, one per shape a body
//! comes in ([`Shape`]); the budgeted reader itself is `crate::budget`.
//!
//! Why a budget: a hostile body of minimal elements (`[{"id":""},...]`, 10 bytes each) would
//! decode into models of hundreds of bytes each, a gigabyte from a 16 MiB body. The budget is
//! carried by a thin wrapper around serde_json's deserializer (no global or thread-local state):
//! each object, list slot, text and kept unknown field charges the memory its decoded form
//! takes, and the decode stops with an error once the body's budget is spent. A JSON value (the
//! output of [`Raw`](crate::Raw), and what any part read through `deserialize_any` becomes) is
//! charged the same way, as the nodes of its tree: every way a 2xx body is decoded, typed or
//! value, goes through this one budget.
//!
//! The same reader is where a success body's texts enter: each text it reads (a value or a
//! name) is scrubbed of what the call sent before the model, the value or an error holds it.
//!
//! Where an output's decode is compiled: once, in this crate, not again in every crate that
//! calls an endpoint. Generic all the way down, the decode of a model (serde's visitors over the
//! budgeted reader) was compiled into the client and into every test binary once per operation,
//! which cost most of their build time. No list of outputs says so: each row of the table
//! implements [`Endpoint::decode_output`](crate::Endpoint::decode_output) for its endpoint, a
//! type that is not generic, so that method is compiled here, and with it the one generic
//! decode it calls (`row_output`) for the row's output, in the one shape the row's interface
//! and success column say its answers come in (`operations/row.rs`). An operation whose output
//! is a new model edits its own module and the model's file, nothing here. A model's state, what
//! a wait names, is the model's own (`pipe_api_types::HasState`). The escape hatch's JSON value
//! is decoded here too, by a function that is not generic (`json_value`); a user's own endpoint
//! ([`Decoded<T>`]) decodes in the user's crate, through [`Decode`].

use std::fmt;

use std::marker::PhantomData;

use serde::de::{self, Deserialize, DeserializeOwned, Deserializer, MapAccess, Visitor};

use pipe_api_types::Vouch;

use crate::budget::{Budget, read};
use crate::redact::SentSecrets;
use crate::server_text::{Member, Text};

/// Decodes `body` as `T` within the body's budget. Only when that fails does it read the body
/// again, within the same budget, tracking the JSON path to say where (tracking costs time on
/// every value, so the successful path never pays it). Both readings run the same code, the
/// budget saying whether to track: a second instantiation of every model's decode for the
/// tracked reading doubled this crate's build time.
fn decode<T: DeserializeOwned>(body: &[u8], secrets: &SentSecrets) -> Result<T, SuccessDecodeError> {
    let text = utf8(body)?;
    let first = match read::<T>(text, Budget::for_body(body, false, secrets)) {
        Ok(value) => return Ok(value),
        Err((first, _)) => first,
    };
    let again = read::<T>(text, Budget::for_body(body, true, secrets)).map(drop);
    Err(failure(first, again))
}

/// A body as text. A body checked as UTF-8 once (every JSON body is) spares serde_json checking
/// each string on its own, which costs more on the many short texts of a list. One that is not
/// UTF-8 cannot be JSON: serde_json says where, reading it as bytes.
fn utf8(body: &[u8]) -> Result<&str, SuccessDecodeError> {
    std::str::from_utf8(body).map_err(|_| {
        let message = match serde_json::from_slice::<de::IgnoredAny>(body) {
            Err(error) => error.to_string(),
            Ok(_) => "the body is not UTF-8".to_owned(),
        };
        SuccessDecodeError::at(".", message)
    })
}

/// Why a body did not decode: where the reading again, tracking the path, failed (`again`); if
/// it decoded then, what the first reading said.
fn failure(first: serde_json::Error, again: Result<(), (serde_json::Error, String)>) -> SuccessDecodeError {
    match again {
        Err((error, path)) => SuccessDecodeError::at(path, error.to_string()),
        Ok(()) => SuccessDecodeError::at(".", first.to_string()),
    }
}

/// `body` as a `T` within its budget, or `None`: for readings whose failure needs no path (a
/// request id, whether a body says nothing, a preview), so a failure is not read twice.
fn decode_quietly<T: DeserializeOwned>(body: &[u8], secrets: &SentSecrets) -> Option<T> {
    let text = std::str::from_utf8(body).ok()?;
    read::<T>(text, Budget::for_body(body, false, secrets)).ok()
}

/// What a success body decodes into: the output of every endpoint. Any model a server answers
/// with (`DeserializeOwned`, [`Vouch`], `Debug`), a list of them, `()` (an answer that says
/// nothing) or a JSON value; for a type of a user's own that is not [`Vouch`], [`Decoded<T>`];
/// for any operation, [`Raw`](crate::Raw), whose output is a JSON value.
///
/// An endpoint of the table decodes its output as its row says, in this crate, where that
/// decode is compiled once; any other endpoint decodes through this trait, compiled in its own
/// crate.
pub trait Decode: sealed::DecodeBody + fmt::Debug {}

impl<T: DeserializeOwned + Vouch + fmt::Debug> Decode for T {}

pub(crate) mod sealed {
    use super::{SentSecrets, Shape, SuccessDecodeError};

    /// The decode of one output in whichever shape a body comes in.
    pub trait DecodeBody: Sized {
        /// Decodes a success body into the output and the request id, every text scrubbed of
        /// `secrets`: in the given shape, or, for `None` (a body that says nothing, where an
        /// operation may answer nothing), the output made of nothing, if this output can be
        /// nothing (a delete's `()`).
        fn decode_body(
            body: &[u8],
            shape: Option<Shape>,
            secrets: &SentSecrets,
        ) -> Result<(Self, Option<String>), SuccessDecodeError>;
    }
}

/// A model, list or value: decoded in any shape, and vouched for (a server sent it: what it
/// holds may be sent back).
impl<T: DeserializeOwned + Vouch> sealed::DecodeBody for T {
    fn decode_body(
        body: &[u8],
        shape: Option<Shape>,
        secrets: &SentSecrets,
    ) -> Result<(Self, Option<String>), SuccessDecodeError> {
        vouched(in_shape(body, shape, secrets))
    }
}

/// The output of a row of the table, decoded in `decode`, the one shape its answers come in (the
/// row's interface and success column say which: see `operations/row.rs`), or made of nothing
/// for a body that says nothing (`shape` is `None`; the shape a body is read in is otherwise
/// the row's own, as its metadata made it). Called from each row's endpoint, a function that is
/// not generic: that is what compiles the output's decode here, once, and in that shape only.
pub(crate) fn row_output<T: DeserializeOwned + Vouch>(
    body: &[u8],
    shape: Option<Shape>,
    secrets: &SentSecrets,
    decode: fn(&[u8], &SentSecrets) -> BodyDecode<T>,
) -> BodyDecode<T> {
    vouched(match shape {
        None => made_of_nothing(),
        Some(_) => decode(body, secrets),
    })
}

/// A JSON value, the escape hatch's output, decoded in any shape (not generic: compiled here
/// once, not in each crate that sends a [`Raw`](crate::Raw)).
pub(crate) fn json_value(body: &[u8], shape: Option<Shape>, secrets: &SentSecrets) -> BodyDecode<serde_json::Value> {
    sealed::DecodeBody::decode_body(body, shape, secrets)
}

/// What a server sent may be sent back: the decoded output vouched for ([`Vouch`]).
fn vouched<T: Vouch>(decoded: BodyDecode<T>) -> BodyDecode<T> {
    decoded.map(|(mut output, request_id)| {
        output.vouch();
        (output, request_id)
    })
}

/// Decodes a body in the given shape, or makes the output of nothing (see
/// [`DecodeBody::decode_body`](sealed::DecodeBody::decode_body)).
fn in_shape<T: DeserializeOwned>(body: &[u8], shape: Option<Shape>, secrets: &SentSecrets) -> BodyDecode<T> {
    match shape {
        None => made_of_nothing(),
        Some(Shape::Envelope) => enveloped(body, secrets),
        Some(Shape::Data) => in_data(body, secrets),
        Some(Shape::Bare) => bare(body, secrets),
    }
}

/// How a success body carries the output.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Shape {
    /// In the management envelope's `result`.
    Envelope,
    /// In the alerting `{"data": ...}`.
    Data,
    /// The body itself.
    Bare,
}

/// What decoding a success body gives: the output and the request id, or where and why it did
/// not decode.
pub(crate) type BodyDecode<T> = Result<(T, Option<String>), SuccessDecodeError>;

/// Where and why a success body did not decode, with the request id if the body names one.
#[derive(Debug)]
pub struct SuccessDecodeError {
    /// The JSON path that failed (`result[3].source.kafka`), `.` for the root.
    pub(crate) path: String,
    /// What was wrong there.
    pub(crate) message: String,
    pub(crate) request_id: Option<String>,
}

impl SuccessDecodeError {
    fn at(path: impl Into<String>, message: impl Into<String>) -> Self {
        SuccessDecodeError { path: path.into(), message: message.into(), request_id: None }
    }
}

/// The output of a user's own endpoint, for an operation this crate does not model: any
/// `T: DeserializeOwned` (a model of the user's own, or one of `pipe_api_types`), decoded by the
/// same budgeted, scrubbing reader as every output, in whichever shape the endpoint's
/// [`METADATA`](crate::Endpoint::METADATA) says, with the same errors and retries.
/// Unlike the crate's own outputs its decode is compiled in the user's crate, as it is generic.
///
/// ```
/// use pipe_api_proto::http::{Method, Response};
/// use pipe_api_proto::operations::{Interface, Operation};
/// use pipe_api_proto::{BaseUrl, Decoded, Endpoint, EndpointExt, Management, ManagementCredentials};
///
/// /// The user's model of an answer this crate lacks.
/// #[derive(Debug, serde::Deserialize)]
/// struct Usage {
///     #[serde(rename = "storageBytes")]
///     storage_bytes: u64,
/// }
///
/// /// The user's endpoint: `GET /v1/organizations/{org}/usage`.
/// struct GetUsage(String);
///
/// impl Endpoint for GetUsage {
///     type Api = Management;
///     type Output = Decoded<Usage>;
///
///     // Its name in errors, and its path template in a record of an attempt.
///     const METADATA: Operation =
///         Operation::new("get_usage", Interface::Management, Method::GET, "/v1/organizations/{organization_id}/usage");
///
///     fn path(&self) -> String {
///         format!("/v1/organizations/{}/usage", self.0)
///     }
/// }
///
/// let api = Management::new(BaseUrl::parse("https://api.example.com")?, ManagementCredentials::new("key-id", "key-secret")?);
/// let usage = GetUsage("6a1e3b1c-8f61-4f3e-9c39-0d1f6bb2a001".into());
/// let request = usage.build_request(&api)?; // authenticated, as every endpoint's
/// # let _ = request;
/// let answer = Response::new(br#"{"status":200,"requestId":"r-1","result":{"storageBytes":1024}}"#.to_vec());
/// let reply = usage.parse_response(&api, answer)?; // envelope, budget, typed errors
/// assert_eq!(reply.value.storage_bytes, 1024);
/// assert_eq!(reply.request_id.as_deref(), Some("r-1"));
/// # Ok::<(), Box<dyn std::error::Error>>(())
/// ```
#[derive(Clone, Debug, PartialEq)]
pub struct Decoded<T>(pub T);

impl<T> Decoded<T> {
    /// The value.
    pub fn into_inner(self) -> T {
        self.0
    }
}

impl<T> std::ops::Deref for Decoded<T> {
    type Target = T;

    fn deref(&self) -> &T {
        &self.0
    }
}

impl<T: DeserializeOwned + fmt::Debug> Decode for Decoded<T> {}

impl<T: DeserializeOwned + fmt::Debug> sealed::DecodeBody for Decoded<T> {
    fn decode_body(
        body: &[u8],
        shape: Option<Shape>,
        secrets: &SentSecrets,
    ) -> Result<(Self, Option<String>), SuccessDecodeError> {
        in_shape(body, shape, secrets).map(|(value, request_id)| (Decoded(value), request_id))
    }
}

/// A response's body as a JSON value, read within its budget and scrubbed of `secrets` (a
/// decode error's preview redacts its secret fields from it); `None` when it is not JSON.
pub(crate) fn scrubbed_json_value(body: &[u8], secrets: &SentSecrets) -> Option<serde_json::Value> {
    decode_quietly(body, secrets)
}

/// A JSON document that a user passes around (a saved plan, a desired-state file) as a JSON
/// value, read by the budgeted reader every answer is read by, with the same budget for its
/// size ([`DECODED_BYTES_PER_BODY_BYTE`](crate::DECODED_BYTES_PER_BODY_BYTE) times it, plus
/// [`DECODE_ALLOWANCE`](crate::DECODE_ALLOWANCE)): whatever its shape, reading it costs a
/// small multiple of its size, or is refused. A failure says where (a JSON path, empty for the
/// root) and why, both cut to a few hundred bytes.
pub fn read_json_document(text: &str) -> Result<serde_json::Value, DocumentError> {
    decode::<serde_json::Value>(text.as_bytes(), &SentSecrets::NONE).map_err(|error| {
        let path = if error.path == "." { String::new() } else { error.path };
        DocumentError {
            path: crate::redact::truncate(&path, DOCUMENT_TEXT_SHOWN).into_owned(),
            message: crate::redact::truncate(&error.message, DOCUMENT_TEXT_SHOWN).into_owned(),
        }
    })
}

/// The most of a document's path or message a [`DocumentError`] keeps.
const DOCUMENT_TEXT_SHOWN: usize = 256;

/// Why a document did not read ([`read_json_document`]).
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct DocumentError {
    /// Where: its JSON path (`steps[3].body`), empty for the root.
    pub path: String,
    /// Why: not JSON (as serde_json says it), or more than the budget allows.
    pub message: String,
}

impl fmt::Display for DocumentError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.path.is_empty() { f.write_str(&self.message) } else { write!(f, "{}: {}", self.path, self.message) }
    }
}

impl std::error::Error for DocumentError {}

/// `T` made from nothing (`null`), when it can be (`()`, a JSON value).
fn nothing<T: DeserializeOwned>() -> Option<T> {
    T::deserialize(de::value::UnitDeserializer::<de::value::Error>::new()).ok()
}

/// The output of a body that says nothing, when the output can be nothing.
fn made_of_nothing<T: DeserializeOwned>() -> BodyDecode<T> {
    nothing()
        .map(|output| (output, None))
        .ok_or_else(|| SuccessDecodeError::at(".", "an empty answer does not make this output"))
}

/// `{"data": ...}`.
#[derive(serde::Deserialize)]
struct InData<T> {
    data: T,
}

/// The management envelope. Unknown members are skipped, and `status` is not read: the HTTP
/// status is the one that counts.
struct Envelope<T> {
    request_id: Option<String>,
    result: Option<T>,
}

/// Read from an object only, by hand: serde's derive would also read an envelope written as an
/// array, in which no answer comes, and compile that reading (and serde_json's reading of
/// either) once more for every output. A member given twice is refused, as the derive does.
impl<'de, T: Deserialize<'de>> Deserialize<'de> for Envelope<T> {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct EnvelopeVisitor<T>(PhantomData<T>);

        impl<'de, T: Deserialize<'de>> Visitor<'de> for EnvelopeVisitor<T> {
            type Value = Envelope<T>;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("struct Envelope")
            }

            fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Envelope<T>, A::Error> {
                let (mut request_id, mut result) = (None, None);
                while next_result(&mut map, &mut request_id, result.is_some())? {
                    result = Some(map.next_value::<Option<T>>()?);
                }
                Ok(Envelope { request_id: request_id.flatten(), result: result.flatten() })
            }
        }

        deserializer.deserialize_map(EnvelopeVisitor(PhantomData))
    }
}

/// Reads an envelope's members up to its `result`, whose value it leaves to be read (`true`), or
/// to its end (`false`): the request id into `request_id`, the rest skipped. A member given twice
/// is refused, as the derive does. Only the reading of `result` is the output's: this is
/// compiled once, not once per output.
fn next_result<'de, A: MapAccess<'de>>(
    map: &mut A,
    request_id: &mut Option<Option<String>>,
    result_read: bool,
) -> Result<bool, A::Error> {
    while let Some(member) = map.next_key::<Member>()? {
        match member {
            Member::RequestId if request_id.is_some() => return Err(de::Error::duplicate_field("requestId")),
            Member::RequestId => *request_id = Some(map.next_value_seed(Text(&SentSecrets::NONE))?),
            Member::Result if result_read => return Err(de::Error::duplicate_field("result")),
            Member::Result => return Ok(true),
            Member::Error | Member::Message | Member::Code | Member::Other => {
                map.next_value::<de::IgnoredAny>()?;
            }
        }
    }
    Ok(false)
}

/// Only the request id of an envelope, read when the whole does not decode: through the same
/// budgeted reader, skipping everything else.
#[derive(serde::Deserialize)]
struct EnvelopeId {
    #[serde(rename = "requestId", default, deserialize_with = "crate::server_text::server_text")]
    request_id: Option<String>,
}

/// Decodes `{"data": ...}`'s `data` as `T`.
pub(crate) fn in_data<T: DeserializeOwned>(body: &[u8], secrets: &SentSecrets) -> BodyDecode<T> {
    decode::<InData<T>>(body, secrets).map(|wrapped| (wrapped.data, None))
}

/// Decodes the body itself as `T`.
pub(crate) fn bare<T: DeserializeOwned>(body: &[u8], secrets: &SentSecrets) -> BodyDecode<T> {
    decode(body, secrets).map(|output| (output, None))
}

/// Decodes a management envelope's `result` as `T`; the request id is named even when the
/// result does not decode.
pub(crate) fn enveloped<T: DeserializeOwned>(body: &[u8], secrets: &SentSecrets) -> BodyDecode<T> {
    let envelope = match decode::<Envelope<T>>(body, secrets) {
        Ok(envelope) => envelope,
        Err(error) => return Err(SuccessDecodeError { request_id: envelope_id(body, secrets), ..error }),
    };
    match (envelope.result, envelope.request_id) {
        (Some(result), request_id) => Ok((result, request_id)),
        // No `result` (or `null`): fine for an output that can be nothing (a delete's `()`,
        // the escape hatch's JSON value), an error for any model.
        (None, request_id) => match nothing() {
            Some(result) => Ok((result, request_id)),
            None => Err(no_result(request_id)),
        },
    }
}

/// An envelope without the `result` its output needs.
fn no_result(request_id: Option<String>) -> SuccessDecodeError {
    SuccessDecodeError { path: "result".to_owned(), message: "the envelope has no `result`".to_owned(), request_id }
}

/// The request id of an envelope whose result did not decode (not generic: compiled once).
fn envelope_id(body: &[u8], secrets: &SentSecrets) -> Option<String> {
    decode_quietly::<EnvelopeId>(body, secrets).and_then(|envelope| envelope.request_id)
}

/// Whether a success body says nothing: empty, `null`, `{}` (spaces allowed), or `OK`. Read
/// through the budgeted reader, keeping nothing.
pub(crate) fn says_nothing(body: &[u8]) -> bool {
    /// Deserializes only from `null` or `{}`.
    struct Nothing;

    impl<'de> serde::Deserialize<'de> for Nothing {
        fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
            struct NothingVisitor;

            impl<'de> Visitor<'de> for NothingVisitor {
                type Value = Nothing;

                fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                    f.write_str("null or {}")
                }

                fn visit_unit<E: de::Error>(self) -> Result<Nothing, E> {
                    Ok(Nothing)
                }

                fn visit_map<A: MapAccess<'de>>(self, mut map: A) -> Result<Nothing, A::Error> {
                    match map.next_key::<de::IgnoredAny>()? {
                        None => Ok(Nothing),
                        Some(_) => Err(de::Error::custom("not empty")),
                    }
                }
            }

            deserializer.deserialize_any(NothingVisitor)
        }
    }

    let text = body.trim_ascii();
    text.is_empty() || text.eq_ignore_ascii_case(b"ok") || decode_quietly::<Nothing>(text, &SentSecrets::NONE).is_some()
}
