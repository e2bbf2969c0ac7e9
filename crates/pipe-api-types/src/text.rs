//! `Text`: the string of every text field, which shares the response body it was read from
//! instead of allocating a copy of its own.
//!
//! Decoding a 10,000-pipe list allocates hundreds of thousands of small strings when each text
//! field is a `String`, and those allocations (and their frees) cost more than the JSON parsing
//! itself. While [`decode_shared`] runs, a string read without escapes is stored as a range of
//! the one shared body instead: no allocation, a reference count bump.

use std::borrow::Borrow;
use std::cell::{Cell, RefCell};
use std::fmt;
use std::hash::{Hash, Hasher};
use std::ops::Deref;
use std::sync::Arc;

use serde::de::{Deserialize, Deserializer, Visitor};
use serde::{Serialize, Serializer};

/// An immutable string: either its own, or a range of a response body it shares.
///
/// It reads like `&str` (`Deref`, `Display`, comparisons with `str` and `String`), and is built
/// from `&str` or `String`. A `Text` read from a response keeps that whole response body alive
/// while it lives; [`Text::detach`] copies it out when one value outlives a large response.
#[derive(Clone)]
pub struct Text(Repr);

#[derive(Clone)]
enum Repr {
    Owned(Box<str>),
    /// `body[start..end]`; u32 keeps `Text` at 24 bytes (bodies are capped far below 4 GiB,
    /// and a larger one falls back to `Owned`).
    Shared {
        body: Arc<String>,
        start: u32,
        end: u32,
    },
}

impl Text {
    /// The text.
    #[inline]
    pub fn as_str(&self) -> &str {
        match &self.0 {
            Repr::Owned(text) => text,
            Repr::Shared { body, start, end } => &body[*start as usize..*end as usize],
        }
    }

    /// The same text with its own storage, so it no longer keeps a response body alive.
    pub fn detach(&self) -> Text {
        Text(Repr::Owned(self.as_str().into()))
    }

    /// Whether this text shares a response body.
    pub fn is_shared(&self) -> bool {
        matches!(self.0, Repr::Shared { .. })
    }

    /// `body[start..end]`, sharing `body` (copied when the range is beyond `u32`).
    #[inline]
    pub(crate) fn from_shared_range(body: &Arc<String>, start: usize, end: usize) -> Text {
        match (u32::try_from(start), u32::try_from(end)) {
            (Ok(start), Ok(end)) => Text(Repr::Shared { body: Arc::clone(body), start, end }),
            _ => Text::from(&body[start..end]),
        }
    }

    /// From text the input lends: a range of the shared body when it lies inside it.
    pub(crate) fn from_input(text: &str) -> Text {
        SHARED_BODY.with(|shared| {
            if let Some(body) = &*shared.borrow() {
                let base = body.as_ptr() as usize;
                let at = text.as_ptr() as usize;
                if at >= base && at + text.len() <= base + body.len() {
                    return Text::from_shared_range(body, at - base, at - base + text.len());
                }
            }
            Text::from(text)
        })
    }
}

thread_local! {
    /// The body being decoded on this thread by [`decode_shared`], if any.
    static SHARED_BODY: RefCell<Option<Arc<String>>> = const { RefCell::new(None) };
    /// Bytes of models the current [`decode_shared`] may still make; `usize::MAX` outside one.
    static MODEL_BUDGET: Cell<usize> = const { Cell::new(usize::MAX) };
}

/// How many bytes of models a body may decode into, per byte of body. Real answers need about
/// two (a 1.5 KB pipe becomes about 3 KB of models); a hostile one made of minimal elements
/// (`[{"id":""},...]`: 10 bytes for a 700-byte `Alert`) would need 70 and more.
pub const MODEL_BYTES_PER_BODY_BYTE: usize = 16;

/// The budget of any body, however small: one of every model fits.
pub(crate) const MIN_MODEL_BUDGET: usize = 64 * 1024;

/// Charges a model about to be made against the current budget. Models call it when they
/// start decoding; it fails once a body would decode into more than
/// [`MODEL_BYTES_PER_BODY_BYTE`] times its size.
pub(crate) fn charge_model<E: serde::de::Error>(bytes: usize) -> Result<(), E> {
    MODEL_BUDGET.with(|budget| match budget.get().checked_sub(bytes) {
        Some(left) => {
            budget.set(left);
            Ok(())
        }
        None => Err(E::custom(format_args!(
            "the response would decode into more than {MODEL_BYTES_PER_BODY_BYTE} times its size in models; refused"
        ))),
    })
}

/// Runs `decode` over `body` with every [`Text`] read from it sharing it. `decode` must read
/// from `body.as_bytes()` (or `body.as_str()`); text read from anything else is copied as usual.
///
/// It also bounds memory: the models made may total at most [`MODEL_BYTES_PER_BODY_BYTE`]
/// times the body's size (and at least 64 KiB), so a hostile body of minimal elements fails
/// instead of allocating a hundred times its size.
///
/// ```
/// use std::sync::Arc;
/// use pipe_api_types::{Pipe, decode_shared};
///
/// let body = Arc::new(r#"{"id":"0b9e3c55-6d5f-4a8e-9a43-6a1f2b3c4d5e","name":"orders"}"#.to_owned());
/// let pipe: Pipe = decode_shared(&body, |json| serde_json::from_str(json))?;
/// assert_eq!(pipe.name.as_deref(), Some("orders"));
/// assert!(pipe.name.as_ref().is_some_and(|name| name.is_shared()));
/// # Ok::<(), serde_json::Error>(())
/// ```
pub fn decode_shared<T, E>(body: &Arc<String>, decode: impl FnOnce(&str) -> Result<T, E>) -> Result<T, E> {
    /// Restores the previous body and budget even if `decode` panics.
    struct Restore(Option<Arc<String>>, usize);
    impl Drop for Restore {
        fn drop(&mut self) {
            let previous = self.0.take();
            SHARED_BODY.with(|shared| *shared.borrow_mut() = previous);
            MODEL_BUDGET.with(|budget| budget.set(self.1));
        }
    }
    let budget = body.len().saturating_mul(MODEL_BYTES_PER_BODY_BYTE).max(MIN_MODEL_BUDGET);
    let _restore = Restore(
        SHARED_BODY.with(|shared| shared.borrow_mut().replace(Arc::clone(body))),
        MODEL_BUDGET.with(|current| current.replace(budget)),
    );
    decode(body.as_str())
}

impl Default for Text {
    fn default() -> Self {
        Text(Repr::Owned(Box::from("")))
    }
}

impl Deref for Text {
    type Target = str;

    fn deref(&self) -> &str {
        self.as_str()
    }
}

impl AsRef<str> for Text {
    fn as_ref(&self) -> &str {
        self.as_str()
    }
}

impl Borrow<str> for Text {
    fn borrow(&self) -> &str {
        self.as_str()
    }
}

impl From<&str> for Text {
    fn from(text: &str) -> Self {
        Text(Repr::Owned(text.into()))
    }
}

impl From<String> for Text {
    fn from(text: String) -> Self {
        Text(Repr::Owned(text.into_boxed_str()))
    }
}

impl From<&String> for Text {
    fn from(text: &String) -> Self {
        Text::from(text.as_str())
    }
}

impl From<Text> for String {
    fn from(text: Text) -> Self {
        match text.0 {
            Repr::Owned(text) => text.into_string(),
            Repr::Shared { .. } => text.as_str().to_owned(),
        }
    }
}

impl fmt::Debug for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        fmt::Debug::fmt(self.as_str(), f)
    }
}

impl fmt::Display for Text {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(self.as_str())
    }
}

impl PartialEq for Text {
    fn eq(&self, other: &Self) -> bool {
        self.as_str() == other.as_str()
    }
}

impl Eq for Text {}

impl PartialEq<str> for Text {
    fn eq(&self, other: &str) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<&str> for Text {
    fn eq(&self, other: &&str) -> bool {
        self.as_str() == *other
    }
}

impl PartialEq<String> for Text {
    fn eq(&self, other: &String) -> bool {
        self.as_str() == other
    }
}

impl PartialEq<Text> for str {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialEq<Text> for &str {
    fn eq(&self, other: &Text) -> bool {
        *self == other.as_str()
    }
}

impl PartialEq<Text> for String {
    fn eq(&self, other: &Text) -> bool {
        self == other.as_str()
    }
}

impl PartialOrd for Text {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Text {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.as_str().cmp(other.as_str())
    }
}

impl Hash for Text {
    fn hash<H: Hasher>(&self, state: &mut H) {
        self.as_str().hash(state);
    }
}

impl Serialize for Text {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        serializer.serialize_str(self.as_str())
    }
}

impl<'de> Deserialize<'de> for Text {
    fn deserialize<D: Deserializer<'de>>(deserializer: D) -> Result<Self, D::Error> {
        struct TextVisitor;

        impl<'de> Visitor<'de> for TextVisitor {
            type Value = Text;

            fn expecting(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
                f.write_str("a string")
            }

            fn visit_borrowed_str<E: serde::de::Error>(self, text: &'de str) -> Result<Text, E> {
                Ok(Text::from_input(text))
            }

            fn visit_str<E: serde::de::Error>(self, text: &str) -> Result<Text, E> {
                Ok(Text::from(text))
            }

            fn visit_string<E: serde::de::Error>(self, text: String) -> Result<Text, E> {
                Ok(Text::from(text))
            }
        }

        deserializer.deserialize_str(TextVisitor)
    }
}
