//! What pipes as code shows: every value a desired state's lookup gave taken out
//! ([`Resolved`]), and every message cut at [`MAX_SHOWN`] bytes, whatever a server or a file
//! held.

use std::borrow::Cow;
use std::fmt::{self, Write as _};
use std::sync::Arc;

use serde::Serialize;
use serde_json::Value;

/// The values a desired state's lookup gave, to be taken out of everything the desired state,
/// its plan and its apply show: each as written, and as `Debug` and JSON escape it (a text is
/// shown either way). Never printed; shared by the plan's steps.
#[derive(Clone, Default, PartialEq)]
// An `Arc` of a `Vec` (one pointer, not two): an apply's error holds one and stays small.
pub(crate) struct Resolved(Arc<Vec<String>>);

impl Resolved {
    /// The values `values`, each at least
    /// [`SHORTEST_SCRUBBED`](pipe_api_proto::SHORTEST_SCRUBBED) long (what every answer is
    /// scrubbed by: a shorter one would take ordinary letters out of every text shown).
    pub(crate) fn new(values: impl IntoIterator<Item = String>) -> Self {
        let mut forms = Vec::new();
        for value in values.into_iter().filter(|value| value.len() >= pipe_api_proto::SHORTEST_SCRUBBED) {
            let debug = format!("{value:?}");
            let json = serde_json::to_string(&value).expect("a string serializes");
            forms.push(debug[1..debug.len() - 1].to_owned());
            forms.push(json[1..json.len() - 1].to_owned());
            forms.push(value);
        }
        // Longest first, so that a value inside another is not left half-replaced.
        forms.sort_by_key(|form| std::cmp::Reverse(form.len()));
        forms.dedup();
        Resolved(Arc::new(forms))
    }

    /// The values and their escaped forms, for a [`Call`](pipe_api_proto::call::Call) to take
    /// out of its error ([`Call::scrubbing`](pipe_api_proto::call::Call::scrubbing)).
    pub(crate) fn forms(&self) -> impl Iterator<Item = String> + '_ {
        self.0.iter().cloned()
    }

    /// The one rule of what a plan shows: `text` with every resolved value `[redacted]`.
    pub(crate) fn scrub(&self, text: &str) -> String {
        // Every value, however short: unlike a call's answers (proto leaves texts under 6 bytes
        // there), a plan is text this crate writes, where a false match costs nothing.
        let mut text = text.to_owned();
        for form in self.0.iter() {
            if text.contains(form.as_str()) {
                text = text.replace(form.as_str(), pipe_api_proto::REDACTED);
            }
        }
        text
    }

    /// [`Resolved::scrub`] on every text of `value`, keys included.
    pub(crate) fn scrub_json(&self, value: &mut Value) {
        if self.0.is_empty() {
            return;
        }
        match value {
            Value::String(text) => *text = self.scrub(text),
            Value::Array(items) => items.iter_mut().for_each(|item| self.scrub_json(item)),
            Value::Object(map) => {
                *map = std::mem::take(map)
                    .into_iter()
                    .map(|(key, mut child)| {
                        self.scrub_json(&mut child);
                        (self.scrub(&key), child)
                    })
                    .collect();
            }
            _ => {}
        }
    }

    /// Writes what `render` writes (with `f`'s `#` flag), through [`Resolved::scrub`]: a
    /// document (a plan, a desired state's `Debug`), shown whole.
    pub(crate) fn write(
        &self,
        f: &mut fmt::Formatter<'_>,
        render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        self.write_within(f, usize::MAX, render)
    }

    /// Writes what `render` writes through [`Resolved::scrub`], cut at [`MAX_SHOWN`] bytes: the
    /// one rule of every message pipes as code shows (an error, a refusal, a stale change),
    /// whatever the server or the file held.
    pub(crate) fn shown(
        &self,
        f: &mut fmt::Formatter<'_>,
        render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        self.write_within(f, MAX_SHOWN, render)
    }

    fn write_within(
        &self,
        f: &mut fmt::Formatter<'_>,
        max: usize,
        render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
    ) -> fmt::Result {
        struct Render<F>(F);
        impl<F: Fn(&mut fmt::Formatter<'_>) -> fmt::Result> fmt::Display for Render<F> {
            fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                (self.0)(f)
            }
        }
        // Rendering stops a little past `max`: far enough that a value to redact which starts
        // before the cut is there whole to be found (the forms are sorted longest first).
        let longest = self.0.first().map_or(0, String::len);
        let mut capped = Capped { text: String::new(), room: max.saturating_add(longest).saturating_add(8) };
        // An error here is the cap reached: what was rendered until then is shown.
        let _ =
            if f.alternate() { write!(capped, "{:#}", Render(render)) } else { write!(capped, "{}", Render(render)) };
        f.write_str(&truncate(&self.scrub(&capped.text), max))
    }
}

/// The most bytes a message of pipes as code shows: an error's, a
/// refusal's, a stale change's, a note's. What a server or a file holds can be any size.
pub const MAX_SHOWN: usize = 4096;

/// A message as [`Resolved::shown`] shows it, for one with no resolved value in it.
pub(crate) fn shown(
    f: &mut fmt::Formatter<'_>,
    render: impl Fn(&mut fmt::Formatter<'_>) -> fmt::Result,
) -> fmt::Result {
    Resolved::default().shown(f, render)
}

/// `text`, cut as a message shows it ([`MAX_SHOWN`]): for a message kept as a text (a note, a
/// stale change) rather than rendered.
pub(crate) fn cut(text: String) -> String {
    match truncate(&text, MAX_SHOWN) {
        Cow::Borrowed(_) => text,
        Cow::Owned(cut) => cut,
    }
}

/// A text that takes what is written until it holds `room` bytes, then refuses the rest.
struct Capped {
    text: String,
    room: usize,
}

impl fmt::Write for Capped {
    fn write_str(&mut self, s: &str) -> fmt::Result {
        let left = self.room.saturating_sub(self.text.len());
        if s.len() <= left {
            self.text.push_str(s);
            return Ok(());
        }
        let end = (0..=left).rev().find(|&at| s.is_char_boundary(at)).unwrap_or(0);
        self.text.push_str(&s[..end]);
        Err(fmt::Error)
    }
}

/// Never shows a value.
impl fmt::Debug for Resolved {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "Resolved({} forms, redacted)", self.0.len())
    }
}

/// `text` cut to at most `max` bytes at a character boundary, the cut marked with `…`: a name
/// or message a server sent may be of any size.
pub(crate) fn truncate(text: &str, max: usize) -> Cow<'_, str> {
    if text.len() <= max {
        return Cow::Borrowed(text);
    }
    let room = max.saturating_sub('…'.len_utf8());
    let end = (0..=room).rev().find(|&at| text.is_char_boundary(at)).unwrap_or(0);
    Cow::Owned(format!("{}…", &text[..end]))
}

/// A JSON value whose objects serialize their members in key order, whatever map type
/// serde_json was built with, so that a rendered plan is stable.
pub(crate) struct Sorted<'v>(pub(crate) &'v Value);

impl Serialize for Sorted<'_> {
    fn serialize<S: serde::Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        match self.0 {
            Value::Object(map) => {
                let mut members: Vec<_> = map.iter().collect();
                members.sort_by_key(|(key, _)| *key);
                serializer.collect_map(members.into_iter().map(|(key, value)| (key, Sorted(value))))
            }
            Value::Array(items) => serializer.collect_seq(items.iter().map(Sorted)),
            scalar => scalar.serialize(serializer),
        }
    }
}
