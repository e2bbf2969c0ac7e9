//! What is never shown: the one list of secret-bearing names, used by error messages and by
//! the request rendering for snapshots.

use std::borrow::Cow;

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
    "token",
    "accessToken",
    "secret",
    "apiKey",
    "clientSecret",
];

/// Whether a JSON field of this name holds a secret (or a container of secrets).
pub(crate) fn is_secret_field(name: &str) -> bool {
    SECRET_FIELDS.contains(&name) || SECRET_CONTAINERS.contains(&name)
}

/// What a secret value is shown as.
pub(crate) const REDACTED: &str = "[redacted]";

/// Replaces the value of every secret-bearing field, at any depth.
pub(crate) fn redact_json(value: &mut serde_json::Value) {
    match value {
        serde_json::Value::Object(map) => {
            for (key, child) in map.iter_mut() {
                let object = matches!(child, serde_json::Value::Object(_));
                if SECRET_FIELDS.contains(&key.as_str()) || (!object && SECRET_CONTAINERS.contains(&key.as_str())) {
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

/// Cuts a text that is not JSON (or JSON cut short) at the first secret field name, quoted as
/// JSON (`"keySecret"`) or as JSON inside a JSON string (`\"keySecret\"`).
pub(crate) fn redact_text(text: &str) -> String {
    let names = SECRET_FIELDS.iter().chain(SECRET_CONTAINERS);
    let found = names
        .flat_map(|name| [format!("\"{name}\""), format!("\\\"{name}\\\"")])
        .filter_map(|quoted| text.find(&quoted))
        .min();
    match found {
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

/// `text` with every credential form replaced by [`REDACTED`].
pub(crate) fn scrub(text: &mut String, credentials: &[String]) {
    for credential in credentials {
        if text.contains(credential.as_str()) {
            *text = text.replace(credential.as_str(), REDACTED);
        }
    }
}

/// `value`'s `Debug`, at most `max` bytes of it (cut with `…`) and with every credential form
/// replaced by [`REDACTED`]: how a value from the server is shown inside an error, whatever
/// its size. Formatting stops once enough is written, so a huge value costs only what is kept.
pub(crate) fn shown_debug(value: &dyn std::fmt::Debug, credentials: &[String], max: usize) -> String {
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

    // Read past `max` by the longest credential, so that one cut at `max` is still found.
    let margin = credentials.iter().map(String::len).max().unwrap_or(0);
    let mut bounded = Bounded { text: String::new(), limit: max.saturating_add(margin) };
    let cut = std::fmt::write(&mut bounded, format_args!("{value:?}")).is_err();
    let mut text = bounded.text;
    scrub(&mut text, credentials);
    let mut shown = truncate(&text, max).into_owned();
    if cut && !shown.ends_with('…') {
        shown.push('…');
    }
    shown
}

/// [`scrub`] for bytes that need not be text.
pub(crate) fn scrub_bytes(bytes: &mut Vec<u8>, credentials: &[String]) {
    for credential in credentials {
        let needle = credential.as_bytes();
        let mut out = Vec::with_capacity(bytes.len());
        let mut rest = &bytes[..];
        let mut found = false;
        while let Some(at) = rest.windows(needle.len()).position(|window| window == needle) {
            out.extend_from_slice(&rest[..at]);
            out.extend_from_slice(REDACTED.as_bytes());
            rest = &rest[at + needle.len()..];
            found = true;
        }
        if found {
            out.extend_from_slice(rest);
            *bytes = out;
        }
    }
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
    if SECRET_FIELDS.contains(&name) || SECRET_CONTAINERS.contains(&name) {
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
