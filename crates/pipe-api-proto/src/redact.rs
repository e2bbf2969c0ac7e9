//! What is never shown: the one list of secret-bearing names, used by error messages and by
//! the request rendering for snapshots.

use std::borrow::Cow;
use std::sync::Arc;

use base64::Engine as _;
use base64::engine::general_purpose::{STANDARD, URL_SAFE_NO_PAD};
use http::HeaderMap;
use http::HeaderName;

/// JSON field names whose values are secrets.
const SECRET_FIELDS: &[&str] = &[
    "keySecret",
    "key_secret",
    "apiKeySecret",
    "password",
    "secretKey",
    "privateKey",
    "connectionString",
    "serviceAccountKey",
    // A service account's key file (BigQuery's `credentials`, Pub/Sub's `serviceAccountKey`).
    "serviceAccountFile",
    "token",
    "accessToken",
    "secret",
    "apiKey",
    "clientSecret",
    // A service password's unsalted hashes (`PATCH .../password`): cracked offline, they give
    // the password.
    "newPasswordHash",
    "newDoubleSha1Hash",
];

/// JSON field names whose value is a connection URI that may hold a user and password (a
/// MongoDB source's `uri`): redacted in JSON as the names above. A text that is not JSON is cut
/// at the URI's scheme (`mongodb`, in [`SECRET_WORDS`]) rather than at this name, too short and
/// common a word to cut at (`during`, `your id`).
const SECRET_URIS: &[&str] = &["uri"];

/// Whether a JSON field of this name holds a secret (or a container of secrets): the one list
/// that [`redacted_json`](crate::redacted_json), [`render_request`](crate::render_request) and
/// every error redact by, public so that code showing or checking JSON of its own (a desired
/// state that must hold no secret in clear) follows the same rule.
///
/// ```
/// assert!(pipe_api_proto::is_secret_field("password"));
/// assert!(!pipe_api_proto::is_secret_field("username"));
/// ```
pub fn is_secret_field(name: &str) -> bool {
    holds_secret_value(name) || SECRET_CONTAINERS.contains(&name)
}

/// Whether a JSON field of this name holds a secret value itself (not a container of them).
fn holds_secret_value(name: &str) -> bool {
    SECRET_FIELDS.contains(&name) || SECRET_URIS.contains(&name)
}

/// What a secret value is shown as, wherever this crate redacts one; the same mark for text
/// that code of its own takes a secret out of.
pub const REDACTED: &str = "[redacted]";

/// Replaces the value of every secret-bearing field, at any depth.
pub(crate) fn redact_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                let object = matches!(child, serde_json::Value::Object(_));
                if holds_secret_value(key) || (!object && SECRET_CONTAINERS.contains(&key.as_str())) {
                    *child = serde_json::Value::String(REDACTED.to_owned());
                } else {
                    redact_json(child);
                }
            }
        }
        serde_json::Value::Array(items) => items.iter_mut().for_each(redact_json),
        _ => {}
    }
}

/// Words that, in a text that is not JSON (or JSON cut short), may name a secret whatever its
/// spelling: letters and digits compared without case, anything else between them skipped
/// (`keySecret`, `key_secret`, `KEY-SECRET`, `\"keySecret\"` and `"key" "secret"` all hold
/// `secret`).
const SECRET_WORDS: &[&str] = &[
    "secret",
    "password",
    "passwd",
    "token",
    "credential",
    "privatekey",
    "connectionstring",
    "apikey",
    "accesskey",
    "accountkey",
    "accountfile",
    "authorization",
    "mongodb",
    // `newDoubleSha1Hash`, a password's hash (`newPasswordHash` holds `password`).
    "doublesha1",
];

/// Cuts a text that is not JSON (or JSON cut short) where a secret could start: at the first
/// word that may name a secret field in any spelling or quoting ([`SECRET_WORDS`]), and at the
/// first `\u` escape, which could spell one (`"key\u0053ecret"`). Not only the names of the
/// list: a text that cannot be read as JSON cannot say which names are fields, so it is cut
/// at anything that sounds like one.
pub(crate) fn redact_text(text: &str) -> String {
    let bytes = text.as_bytes();
    let mut letters = Vec::with_capacity(bytes.len());
    let mut offsets = Vec::with_capacity(bytes.len());
    let mut escape = None;
    for (at, byte) in bytes.iter().enumerate() {
        if byte.is_ascii_alphanumeric() {
            letters.push(byte.to_ascii_lowercase());
            offsets.push(at);
        } else if *byte == b'\\' && matches!(bytes.get(at + 1), Some(b'u' | b'U')) {
            escape = Some(at);
            break;
        }
    }
    let word = SECRET_WORDS
        .iter()
        .filter_map(|word| letters.windows(word.len()).position(|window| window == word.as_bytes()))
        .min()
        .map(|index| offsets[index]);
    match word.into_iter().chain(escape).min() {
        Some(at) => format!("{}{REDACTED}", &text[..at]),
        None => text.to_owned(),
    }
}

/// The shortest credential text worth searching for: anything shorter would match by chance.
const CREDENTIAL_MIN_LEN: usize = 6;

/// The credentials a request carries in its `Authorization` header, in every form a server
/// might reflect: the whole header value, the encoded part after the scheme, and for Basic the
/// decoded `id:secret` pair, the secret alone and its base64 forms.
pub(crate) fn sent_credentials(headers: &HeaderMap) -> Vec<String> {
    let mut forms = Vec::new();
    for value in headers.get_all(http::header::AUTHORIZATION) {
        let Ok(value) = value.to_str() else { continue };
        forms.push(value.to_owned());
        let Some((scheme, credential)) = value.split_once(' ') else { continue };
        let credential = credential.trim();
        forms.push(credential.to_owned());
        let secret = if scheme.eq_ignore_ascii_case("basic") {
            let Some(pair) = STANDARD.decode(credential).ok().and_then(|pair| String::from_utf8(pair).ok()) else {
                continue;
            };
            let secret = pair.split_once(':').map(|(_, secret)| secret.to_owned());
            forms.push(pair);
            secret
        } else {
            Some(credential.to_owned())
        };
        if let Some(secret) = secret {
            forms.push(STANDARD.encode(&secret));
            forms.push(URL_SAFE_NO_PAD.encode(&secret));
            forms.push(secret);
        }
    }
    forms.retain(|form| form.len() >= CREDENTIAL_MIN_LEN);
    // Longest first, so that a form inside another is not left half-replaced.
    forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
    forms.dedup();
    forms
}

/// Everything a call sent that must never show again: the credentials of its `Authorization`
/// header in every form a server might reflect ([`sent_credentials`]), every string value the
/// request body holds under a secret field at any depth (`source.kafka.credentials.password`)
/// as sent and as JSON would escape it, and whatever the caller added
/// ([`Call::scrubbing`](crate::call::Call::scrubbing)). Computed in one place
/// ([`SentSecrets::of`], from the credentials' share that an interface makes once,
/// [`SentSecrets::of_credentials`]) and applied in one place: every text a response brings is
/// scrubbed of them where it is read ([`crate::endpoint::parse`]), before anything shows or
/// keeps it.
///
/// Texts shorter than [`CREDENTIAL_MIN_LEN`] are not searched: they would match by chance.
/// `Debug` shows how many there are, never what.
#[derive(Clone)]
pub struct SentSecrets {
    /// Longest first, so that where several start at one place the whole one is taken out.
    forms: Vec<String>,
    /// The shortest form's length (0 when there is none).
    shortest: usize,
    /// Each form's first four bytes: a place whose four bytes are not among them starts no
    /// form.
    starts: Windows,
    /// Every four neighbouring bytes of every form: a text is sampled every `shortest - 3`
    /// bytes against it, as a form there covers one sample at least, and only around a sample
    /// it passes are the places checked one by one. Four bytes, not two: pairs of letters
    /// (`se`, `re`) are in almost every text, and sampling on them checked most places.
    inner: Windows,
}

/// A set of four-byte windows, as bits (a filter: a window may pass that is in no form). Each
/// window sets two bits, by two hashes, and passes only when both are set: a window in no form
/// passes about a tenth as often as with one bit, and only one in fifty is hashed twice.
#[derive(Clone)]
struct Windows([u64; WINDOW_WORDS]);

/// The bytes of a window.
const WINDOW: usize = 4;

/// The words of a [`Windows`] filter (16,384 bits: the forms of a call's credentials, some 400
/// windows, set about five percent of them, and each sample that passes checks up to the
/// longest form's length of places; at 4,096 bits the decode of a long list took 5% longer).
const WINDOW_WORDS: usize = 256;

impl Windows {
    const EMPTY: Windows = Windows([0; WINDOW_WORDS]);

    /// The two bits of a window (its four bytes, little-endian).
    fn bits(window: u32) -> [usize; 2] {
        // Multiplicative hashing: the top bits of a product mix all four bytes.
        [0x9E37_79B1_u32, 0x85EB_CA77].map(|odd| (window.wrapping_mul(odd) >> (32 - 14)) as usize)
    }

    fn has(&self, bit: usize) -> bool {
        self.0[bit / 64] & (1 << (bit % 64)) != 0
    }

    /// The window at the start of `bytes` (at least [`WINDOW`] long).
    fn at(bytes: &[u8]) -> u32 {
        u32::from_le_bytes([bytes[0], bytes[1], bytes[2], bytes[3]])
    }

    fn insert(&mut self, window: u32) {
        for bit in Windows::bits(window) {
            self.0[bit / 64] |= 1 << (bit % 64);
        }
    }

    fn holds(&self, window: u32) -> bool {
        let [first, second] = Windows::bits(window);
        self.has(first) && self.has(second)
    }
}

impl std::fmt::Debug for SentSecrets {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        write!(f, "SentSecrets({} forms)", self.forms.len())
    }
}

impl Default for SentSecrets {
    fn default() -> Self {
        SentSecrets::NONE
    }
}

impl SentSecrets {
    /// Nothing to take out: for JSON this crate wrote itself.
    pub(crate) const NONE: SentSecrets =
        SentSecrets { forms: Vec::new(), shortest: 0, starts: Windows::EMPTY, inner: Windows::EMPTY };

    /// What every request with these headers sends: the forms of their credentials, with the
    /// filters. An interface makes it once, for all its requests, as they all carry its
    /// `Authorization` header.
    pub(crate) fn of_credentials(headers: &HeaderMap) -> Self {
        let mut secrets = SentSecrets::NONE;
        secrets.add(sent_credentials(headers));
        secrets
    }

    /// What a request sends that carries the credentials of `credentials`
    /// ([`SentSecrets::of_credentials`]) and this body: the one definition of "what the call
    /// sent". A body with no secret (every `GET`) sends only the credentials: their share,
    /// not a copy.
    pub(crate) fn of(credentials: &Arc<SentSecrets>, body: &[u8]) -> Arc<SentSecrets> {
        let body = body_secrets(body);
        if body.is_empty() {
            return Arc::clone(credentials);
        }
        let mut secrets = SentSecrets::clone(credentials);
        secrets.add(body);
        Arc::new(secrets)
    }

    /// Takes out `secrets` too (and their JSON-escaped forms).
    pub(crate) fn add(&mut self, secrets: impl IntoIterator<Item = String>) {
        for secret in secrets {
            if let Ok(quoted) = serde_json::to_string(&secret) {
                let escaped = &quoted[1..quoted.len() - 1];
                if escaped != secret {
                    self.forms.push(escaped.to_owned());
                }
            }
            self.forms.push(secret);
        }
        self.forms.retain(|form| form.len() >= CREDENTIAL_MIN_LEN);
        self.forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
        self.forms.dedup();
        self.shortest = self.forms.last().map_or(0, String::len);
        self.starts = Windows::EMPTY;
        self.inner = Windows::EMPTY;
        for form in &self.forms {
            self.starts.insert(Windows::at(form.as_bytes()));
            for window in form.as_bytes().windows(WINDOW) {
                self.inner.insert(Windows::at(window));
            }
        }
    }

    /// The longest form's length: how far past a cut a form may reach.
    pub(crate) fn longest(&self) -> usize {
        self.forms.first().map_or(0, String::len)
    }

    /// Whether `bytes` hold any form as written.
    pub(crate) fn is_in(&self, bytes: &[u8]) -> bool {
        self.find(bytes, 0).is_some()
    }

    /// The first form in `bytes` at or after `from`: where it starts and how long it is.
    ///
    /// A form of length `L` at `p` covers the windows starting at `p` to `p + L - 4`, so
    /// sampling every `shortest - 3` bytes meets one of them; the leftmost form is then the
    /// first one starting within `longest - 4` bytes before the first sample that passes the
    /// filter (one further left would have covered an earlier sample).
    fn find(&self, bytes: &[u8], from: usize) -> Option<(usize, usize)> {
        if self.forms.is_empty() || bytes.len() < from.saturating_add(self.shortest) {
            return None;
        }
        let stride = self.shortest - (WINDOW - 1);
        let reach = self.longest() - WINDOW;
        let mut sample = from;
        while let Some(&[a, b, c, d]) = bytes.get(sample..sample + WINDOW) {
            if self.inner.holds(u32::from_le_bytes([a, b, c, d])) {
                let found = self.find_between(bytes, sample.saturating_sub(reach).max(from), sample);
                if found.is_some() {
                    return found;
                }
            }
            sample += stride;
        }
        None
    }

    /// The first form starting at a place from `first` to `last`.
    fn find_between(&self, bytes: &[u8], first: usize, last: usize) -> Option<(usize, usize)> {
        let last = last.min(bytes.len().checked_sub(self.shortest)?);
        (first..=last).find_map(|at| {
            let rest = &bytes[at..];
            if !self.starts.holds(Windows::at(rest)) {
                return None;
            }
            self.forms.iter().find(|form| rest.starts_with(form.as_bytes())).map(|form| (at, form.len()))
        })
    }

    /// `text` with every form replaced by [`REDACTED`], or `None` when it holds none.
    pub(crate) fn scrubbed(&self, text: &str) -> Option<String> {
        self.scrubbed_bytes(text.as_bytes()).map(|bytes| {
            // Whole forms (whole texts) were replaced by ASCII: still UTF-8.
            String::from_utf8(bytes).unwrap_or_else(|error| String::from_utf8_lossy(error.as_bytes()).into_owned())
        })
    }

    /// [`SentSecrets::scrubbed`] for bytes that need not be text.
    pub(crate) fn scrubbed_bytes(&self, bytes: &[u8]) -> Option<Vec<u8>> {
        let (mut at, mut len) = self.find(bytes, 0)?;
        let mut out = Vec::with_capacity(bytes.len());
        let mut copied = 0;
        loop {
            out.extend_from_slice(&bytes[copied..at]);
            out.extend_from_slice(REDACTED.as_bytes());
            copied = at + len;
            match self.find(bytes, copied) {
                Some(next) => (at, len) = next,
                None => break,
            }
        }
        out.extend_from_slice(&bytes[copied..]);
        Some(out)
    }

    /// Replaces every form in `text` by [`REDACTED`].
    pub(crate) fn scrub(&self, text: &mut String) {
        if let Some(scrubbed) = self.scrubbed(text) {
            *text = scrubbed;
        }
    }

    /// `text` scrubbed, then cut to at most `max` bytes: in that order, so that a form a cut
    /// would split is taken out whole first.
    pub(crate) fn kept(&self, text: &str, max: usize) -> String {
        match self.scrubbed(text) {
            Some(scrubbed) => truncate(&scrubbed, max).into_owned(),
            None => truncate(text, max).into_owned(),
        }
    }
}

/// Every string value under a secret field (the list above) of a JSON request body, at any
/// depth, a whole object or list of them included. A body that is not JSON holds none this
/// crate knows of.
fn body_secrets(body: &[u8]) -> Vec<String> {
    fn strings(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::String(text) => out.push(text.clone()),
            serde_json::Value::Array(items) => items.iter().for_each(|item| strings(item, out)),
            serde_json::Value::Object(map) => map.values().for_each(|child| strings(child, out)),
            _ => {}
        }
    }
    fn under_secrets(value: &serde_json::Value, out: &mut Vec<String>) {
        match value {
            serde_json::Value::Object(map) => {
                for (key, child) in map {
                    if is_secret_field(key) {
                        strings(child, out);
                    } else {
                        under_secrets(child, out);
                    }
                }
            }
            serde_json::Value::Array(items) => items.iter().for_each(|item| under_secrets(item, out)),
            _ => {}
        }
    }
    let mut out = Vec::new();
    // The body this crate built (not a server's): read as a tree, as it was written.
    if !body.is_empty() {
        if let Ok(value) = serde_json::from_slice::<serde_json::Value>(body) {
            under_secrets(&value, &mut out);
        }
    }
    out
}

/// `value`'s `Debug`, at most `max` bytes of it (cut with `…`): how a value from the server is
/// shown inside an error, whatever its size (its texts were scrubbed of what the call sent
/// when it was read). Formatting stops once enough is written, so a huge value costs only what
/// is kept.
pub(crate) fn shown_debug(value: &dyn std::fmt::Debug, max: usize) -> String {
    /// Keeps what is written up to `limit` bytes, then stops the formatting.
    struct Bounded {
        text: String,
        limit: usize,
    }

    impl std::fmt::Write for Bounded {
        fn write_str(&mut self, s: &str) -> std::fmt::Result {
            let room = self.limit - self.text.len();
            if s.len() <= room {
                self.text.push_str(s);
                return Ok(());
            }
            let mut end = room;
            while !s.is_char_boundary(end) {
                end -= 1;
            }
            self.text.push_str(&s[..end]);
            Err(std::fmt::Error)
        }
    }

    let mut bounded = Bounded { text: String::new(), limit: max };
    let cut = std::fmt::write(&mut bounded, format_args!("{value:?}")).is_err();
    let mut shown = truncate(&bounded.text, max).into_owned();
    if cut && !shown.ends_with('…') {
        shown.push('…');
    }
    shown
}

/// Whether a header carries a credential.
pub(crate) fn is_secret_header(name: &HeaderName) -> bool {
    matches!(name.as_str(), "authorization" | "proxy-authorization" | "cookie" | "set-cookie" | "x-api-key")
}

/// Fields that hold secrets inside an object (`credentials: {password, ...}`): their members
/// are redacted by name, but anything else in their place (a server that sends the secret as a
/// plain string, or a list) is redacted whole.
const SECRET_CONTAINERS: &[&str] = &["credentials", "accessKey", "Authorization", "authorization"];

/// Whether a field name or JSON path segment names a secret or a holder of secrets: the exact
/// names above, and anything that sounds like one (`awsSecretAccessKey`, `apiToken`), so that
/// a field this crate does not know is treated as a secret rather than shown.
pub(crate) fn is_secret_name(name: &str) -> bool {
    if is_secret_field(name) {
        return true;
    }
    let lower = name.to_ascii_lowercase();
    ["secret", "password", "passwd", "token", "key", "credential", "private", "connectionstring", "auth", "cert"]
        .iter()
        .any(|word| lower.contains(word))
}

/// `text` cut to at most `max` bytes at a character boundary, the cut marked with `…`.
pub(crate) fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let mut end = max.saturating_sub('…'.len_utf8());
    while !text.is_char_boundary(end) {
        end -= 1;
    }
    Cow::Owned(format!("{}…", &text[..end]))
}

/// A URL as an error may show it: what could be user info (`user:password@`) replaced. The
/// text is not trusted to be a valid URL, so everything between the scheme and the last `@`
/// goes (a path holding `@` loses a little, a password holding `/` still never shows).
pub(crate) fn without_userinfo(url: &str) -> Cow<'_, str> {
    let Some(at) = url.rfind('@') else {
        return Cow::Borrowed(url);
    };
    let start = url.find("://").map_or(0, |i| i + 3).min(at);
    Cow::Owned(format!("{}{REDACTED}{}", &url[..start], &url[at..]))
}

/// The longest serde message a decode error keeps.
const DECODE_MESSAGE_MAX: usize = 512;

/// The longest quoted excerpt of a body's text a decode message keeps, where the path is not
/// secret-bearing.
const QUOTED_EXCERPT_CHARS: usize = 24;

/// A serde message made safe to show: serde quotes the offending value (`invalid type: string
/// "hunter2", expected ...`, ``unknown variant `x` ``). Every quoted text is shortened to a few
/// characters, or replaced whole when any segment of `path` names a secret; the whole is cut to
/// a few hundred bytes.
pub(crate) fn decode_message(path: &str, message: &str) -> String {
    let secret_path = path.split(['.', '[', ']']).any(|segment| !segment.is_empty() && is_secret_name(segment));
    let mut out = String::with_capacity(message.len().min(DECODE_MESSAGE_MAX) + 16);
    let mut rest = message;
    while let Some(open) = rest.find(['"', '`']) {
        out.push_str(&rest[..open]);
        let quote = rest.as_bytes()[open];
        let body = &rest[open + 1..];
        // serde quotes strings with `{:?}`, which escapes `"` as `\"`; backticks are not escaped.
        let mut end = None;
        let mut escaped = false;
        for (i, b) in body.bytes().enumerate() {
            match b {
                b'\\' if quote == b'"' && !escaped => escaped = true,
                _ if b == quote && !escaped => {
                    end = Some(i);
                    break;
                }
                _ => escaped = false,
            }
        }
        let end = end.unwrap_or(body.len());
        let quoted = &body[..end];
        let quote = char::from(quote);
        out.push(quote);
        if secret_path {
            out.push_str(REDACTED);
        } else {
            let excerpt: String = quoted.chars().take(QUOTED_EXCERPT_CHARS).collect();
            out.push_str(&excerpt);
            if excerpt.len() < quoted.len() {
                out.push('…');
            }
        }
        out.push(quote);
        rest = body.get(end + 1..).unwrap_or("");
        if out.len() > DECODE_MESSAGE_MAX {
            break;
        }
    }
    out.push_str(rest);
    truncate(&out, DECODE_MESSAGE_MAX).into_owned()
}

#[cfg(test)]
mod tests {
    /// The sampled search finds what a search at every place finds, forms of every length and
    /// overlapping ones included, wherever they fall.
    mod sampled_search {
        use super::super::{REDACTED, SentSecrets};
        use proptest::prelude::*;

        /// Every place, forms longest first: what `find` must agree with.
        fn replaced_everywhere(text: &[u8], forms: &[String]) -> Vec<u8> {
            let mut forms: Vec<&String> = forms.iter().filter(|form| form.len() >= 6).collect();
            forms.sort_by(|a, b| b.len().cmp(&a.len()).then_with(|| a.cmp(b)));
            let (mut out, mut at) = (Vec::new(), 0);
            while at < text.len() {
                match forms.iter().find(|form| text[at..].starts_with(form.as_bytes())) {
                    Some(form) => {
                        out.extend_from_slice(REDACTED.as_bytes());
                        at += form.len();
                    }
                    None => {
                        out.push(text[at]);
                        at += 1;
                    }
                }
            }
            out
        }

        proptest! {
            #[test]
            fn agrees_with_a_search_at_every_place(
                forms in prop::collection::vec("[ab]{6,14}", 1..4),
                pieces in prop::collection::vec(("[abc]{0,9}", 0usize..4), 0..12),
            ) {
                let mut text = Vec::new();
                for (filler, form) in &pieces {
                    text.extend_from_slice(filler.as_bytes());
                    if let Some(form) = forms.get(*form) {
                        text.extend_from_slice(form.as_bytes());
                    }
                }
                let mut secrets = SentSecrets::NONE;
                secrets.add(forms.clone());
                let expected = replaced_everywhere(&text, &forms);
                let got = secrets.scrubbed_bytes(&text).unwrap_or_else(|| text.clone());
                prop_assert_eq!(String::from_utf8_lossy(&got), String::from_utf8_lossy(&expected));
            }
        }
    }

    use super::{REDACTED, SECRET_CONTAINERS, SECRET_FIELDS, redact_text};

    /// Every name of the one list is found by the cut of a text that is not JSON, in every
    /// spelling a server may write it: the words cover the list.
    #[test]
    fn every_secret_name_cuts_a_text_in_any_spelling() {
        for name in SECRET_FIELDS.iter().chain(SECRET_CONTAINERS) {
            let upper = name.to_ascii_uppercase();
            for spelled in [format!(r#""{name}""#), format!(r#"\"{name}\""#), format!(r#""{upper}""#)] {
                let text = format!(r#"{{"a":1,{spelled}:"VALUE-0042"}}"#);
                let shown = redact_text(&text);
                assert!(shown.ends_with(REDACTED) && !shown.contains("VALUE-0042"), "{name}: {shown}");
            }
        }
        assert_eq!(redact_text(r#"{"k\u0065y":"v"}"#), format!(r#"{{"k{REDACTED}"#));
        assert_eq!(redact_text("Bad Gateway: upstream unavailable"), "Bad Gateway: upstream unavailable");
    }
}
