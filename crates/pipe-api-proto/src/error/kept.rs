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
            let head: String = head.chars().take(PREVIEW_CHARS + 1).collect();
            crate::redact::redact_text(&head)
        }
    };
    secrets.scrub(&mut text);
    let mut preview: String = text.chars().take(PREVIEW_CHARS).collect();
    if preview.len() < text.len() || body.len() > PREVIEW_CHARS * 4 {
        preview.push_str(&format!("… ({} bytes in all)", body.len()));
    }
    preview
}
