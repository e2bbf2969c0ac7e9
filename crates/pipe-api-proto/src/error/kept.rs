//! What an error keeps of a response's body: its first bytes and a short, safe preview.

use std::borrow::Cow;

use crate::redact::SentSecrets;

/// The longest request id an error keeps.
pub(super) const REQUEST_ID_MAX: usize = 128;

/// How much of a body an [`ApiError`](super::ApiError) or a [`DecodeError`](super::DecodeError) keeps: its first 64 KiB.
pub const BODY_KEPT: usize = 64 * 1024;

/// The part of a body an error keeps, its full length, and its preview, made once.
#[derive(Clone)]
pub(super) struct KeptBody {
    pub(super) bytes: Vec<u8>,
    pub(super) len: usize,
    pub(super) preview: String,
}

impl KeptBody {
    /// Keeps `body`'s first [`BODY_KEPT`] bytes and its preview, scrubbed of `secrets` before
    /// they are cut.
    pub(super) fn new(mut body: Vec<u8>, secrets: &SentSecrets) -> Self {
        let preview = body_preview(&body, secrets);
        let len = body.len();
        // A form that the cut would split is still found whole.
        body.truncate(BODY_KEPT.saturating_add(secrets.longest()));
        if let Some(scrubbed) = secrets.scrubbed_bytes(&body) {
            body = scrubbed;
        }
        if body.len() > BODY_KEPT {
            body.truncate(BODY_KEPT);
        }
        body.shrink_to_fit();
        KeptBody { bytes: body, len, preview }
    }
}

/// The longest body excerpt an error shows, in characters.
const PREVIEW_CHARS: usize = 300;

/// Bodies up to this size are previewed as redacted JSON; longer ones by their first bytes
/// only, so that previewing never reads a whole hostile body into a tree.
const PREVIEW_PARSE_MAX: usize = 16 * 1024;

/// A short, safe excerpt of a body: secret-bearing JSON fields replaced by `[redacted]`,
/// truncated to a few hundred characters with the full size given, and scrubbed of what the
/// call sent (`secrets`) before it is cut. Made once, when the error is.
fn body_preview(body: &[u8], secrets: &SentSecrets) -> String {
    if body.is_empty() {
        return "(empty)".to_owned();
    }
    // Read by the one budgeted reader, as every response body is (which scrubs its texts).
    let json = (body.len() <= PREVIEW_PARSE_MAX).then(|| crate::decode::scrubbed_json_value(body, secrets)).flatten();
    // Whether the text shown is only a part of the body (a page's title, a first line).
    let mut shows_part = false;
    let mut text = match json {
        Some(mut value) => {
            crate::redact::redact_json(&mut value);
            value.to_string()
        }
        None => {
            // A character is at most four bytes: this prefix holds every character shown, and
            // every form that starts among them.
            let head = &body[..body.len().min(PREVIEW_CHARS * 4 + secrets.longest())];
            let head = String::from_utf8_lossy(head);
            let head = secrets.scrubbed(&head).map_or(head, Cow::Owned);
            let (line, part) = headline(&head);
            shows_part |= part;
            let line: String = line.chars().take(PREVIEW_CHARS + 1).collect();
            crate::redact::redact_text(&line)
        }
    };
    secrets.scrub(&mut text);
    let mut preview: String = text.chars().take(PREVIEW_CHARS).collect();
    if shows_part || preview.len() < text.len() || body.len() > PREVIEW_CHARS * 4 {
        preview.push_str(&format!("… ({} bytes in all)", body.len()));
    }
    preview
}

/// What a text body says in one line: an HTML page's title (a gateway's error page), else its
/// first line that is not blank, its spaces folded; and whether that leaves anything out. An
/// error's line stays one line whatever the page.
fn headline(text: &str) -> (String, bool) {
    let lower = text.to_ascii_lowercase();
    let title = lower.find("<title").and_then(|open| {
        let start = open + lower[open..].find('>')? + 1;
        let end = start + lower[start..].find("</title")?;
        // `to_ascii_lowercase` keeps every byte where it was: the indices hold in `text`.
        Some(&text[start..end])
    });
    let line = match title {
        Some(title) if !title.trim().is_empty() => title,
        _ => text.lines().find(|line| !line.trim().is_empty()).unwrap_or(text),
    };
    let folded = line.split_whitespace().collect::<Vec<_>>().join(" ");
    let part = folded != text.trim();
    (folded, part)
}
