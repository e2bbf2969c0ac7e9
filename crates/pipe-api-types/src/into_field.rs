//! [`IntoField`]: what a model's setter accepts for a field, so that a setter takes what a user
//! writes: `.port(5432)`, `.replicas(2)`, `.name("orders")`, `.sorting_keys(["id", "at"])`,
//! `.roles([])`.
//!
//! The other items here are the forms a list can be given in ([`Plain`], [`TextArray`],
//! [`TextIter`]) and what they ask of it ([`TextSource`], [`NonEmpty`]); they appear in
//! [`IntoField`]'s impls and are never named by a caller.

use std::borrow::Cow;

use time::{OffsetDateTime, PrimitiveDateTime};

use crate::quantity::{CpuMillicores, MemoryGb, Quantity, Unit};
use crate::{Secret, Text};

/// A value a setter of a `T` field accepts. Implemented for `T` itself and for the obvious
/// conversions: text for [`Text`] (and for open enums and [`Secret`]), an integer literal for a
/// number field.
///
/// Each number type accepts only itself (plus `i32` for `f64`), so that an integer literal needs
/// no suffix: `.port(5432)` infers `u16`. A generic `impl Into<u16>` would not.
///
/// # Lists
/// A list field (`Vec<T>`) accepts:
/// * any iterable of exactly its items: `[]`, `vec![]` and `Vec::new()` with no annotation (their
///   item type is the list's), `[KeyRole::Admin]`, `vec![entry]`, a `Vec<T>`, an iterator of
///   `T` such as `columns.into_iter()` or `(0..3).map(|i| ...)`;
/// * for a list of [`Text`] or of an open enum, texts its single setter would take (`&str`;
///   for [`Text`] also `String`, `&String`, `Cow<str>`): a non-empty array (`["a", "b"]`,
///   `[name]`, up to 64 texts) or an iterator (`names.iter()`, `names.into_iter()`).
///
/// A `Vec` or slice of strings (`vec!["a"]`, a `Vec<String>`) is not accepted: pass
/// `names.iter()` or `names.into_iter()`. (A `Vec` of strings would make `vec![]` ambiguous: Rust
/// could no longer tell its item type from the field's.)
///
/// `Form` tells these forms apart ([`Plain`], [`TextArray`], [`TextIter`]) so that their impls
/// can stand side by side: without it, an impl for any iterable of `T` and one for `[&str; N]`
/// would conflict, as Rust's coherence does not look at an iterable's item type. A setter infers
/// it; nobody names it.
///
/// ```
/// use pipe_api_types::{IpAccessEntry, KeyRole, PostgresTableMapping, UpdateKeyRequest};
///
/// let names = vec!["card".to_owned(), "cvv".to_owned()];
/// let mapping = PostgresTableMapping::new("public", "orders", "orders")
///     .sorting_keys(["id", "at"])
///     .excluded_columns(names.iter());
/// let key = UpdateKeyRequest::new()
///     .roles([KeyRole::Admin])
///     .ip_access_list([IpAccessEntry::new("203.0.113.0/24", "office")]);
/// // An empty list needs no annotation: `[]`, `vec![]` or `Vec::new()`.
/// let closed = UpdateKeyRequest::new().ip_access_list([]);
/// assert_eq!(serde_json::to_string(&closed)?, r#"{"ipAccessList":[]}"#);
/// # let _ = (mapping, key);
/// # Ok::<(), serde_json::Error>(())
/// ```
///
/// ```compile_fail,E0277
/// use pipe_api_types::PostgresTableMapping;
/// // A `Vec` of strings: pass `.iter()` or `.into_iter()` instead.
/// let mapping = PostgresTableMapping::default().sorting_keys(vec!["id"]);
/// ```
#[diagnostic::on_unimplemented(
    message = "`{Self}` is not a value for a `{T}` field",
    note = "a list setter takes `[]`, `vec![]`, an array, `Vec` or iterator of its own items, or, for a list of texts, an array or iterator of `&str`/`String` (not a `Vec` of them: pass `.iter()` or `.into_iter()`)"
)]
pub trait IntoField<T, Form = Plain> {
    /// The field's value.
    fn into_field(self) -> T;
}

/// The form of [`IntoField`] of every single value and of a list's own items.
#[derive(Clone, Copy, Debug)]
pub enum Plain {}

/// The form of [`IntoField`] of a value for a member that may also be sent as `null`
/// ([`Nullable`](crate::Nullable)): what the member's own setter takes.
#[derive(Clone, Copy, Debug)]
pub enum NullableValue {}

/// The form of [`IntoField`] of a non-empty array of texts for a list of texts or open-enum
/// values (`["a", "b"]`).
#[derive(Clone, Copy, Debug)]
pub enum TextArray {}

/// The form of [`IntoField`] of an iterator of texts for a list of texts or open-enum values
/// (`names.iter()`).
#[derive(Clone, Copy, Debug)]
pub enum TextIter {}

/// A text a list of texts accepts item by item: `&str`, `String`, `&String`, `Cow<str>`. Not
/// [`Text`] itself nor an open enum, so that an array or iterator of the list's own items has
/// one form only ([`Plain`]).
pub trait TextSource: sealed::Sealed {}

/// The length of an array, as a type: [`NonEmpty`] says which lengths are not 0.
#[derive(Clone, Copy, Debug)]
pub struct Len<const N: usize>;

/// The lengths 1 to 64 ([`Len`]). [`TextArray`] asks for it so that `[]` has one form only
/// ([`Plain`], whose item type is the list's); Rust can say "not 0" of a length only by listing
/// lengths, hence the limit.
pub trait NonEmpty {}

mod sealed {
    /// Keeps [`TextSource`](super::TextSource) to the texts listed here.
    pub trait Sealed {}
}

/// The texts a list of texts accepts item by item.
macro_rules! text_sources {
    ($($ty:ty),*) => {
        $(
            impl sealed::Sealed for $ty {}
            impl TextSource for $ty {}
        )*
    };
}

text_sources!(&str, String, &String, Cow<'_, str>);

/// Lengths that are not 0.
macro_rules! non_empty {
    ($($n:literal)*) => {
        $( impl NonEmpty for Len<$n> {} )*
    };
}

non_empty!(
    1 2 3 4 5 6 7 8 9 10 11 12 13 14 15 16 17 18 19 20 21 22 23 24 25 26 27 28 29 30 31 32
    33 34 35 36 37 38 39 40 41 42 43 44 45 46 47 48 49 50 51 52 53 54 55 56 57 58 59 60 61 62 63 64
);

/// Each type accepts itself.
macro_rules! itself {
    ($($ty:ty),*) => {
        $(
            impl IntoField<$ty> for $ty {
                fn into_field(self) -> $ty {
                    self
                }
            }
        )*
    };
}

itself!(Text, bool, u8, u16, u32, u64, i64, f64, OffsetDateTime, PrimitiveDateTime, Secret);

/// A quantity in its own unit only: millicores are no gigabytes.
impl<U: Unit> IntoField<Quantity<U>> for Quantity<U> {
    fn into_field(self) -> Quantity<U> {
        self
    }
}

/// Each conversion a setter accepts beyond the type itself: `target: sources`, each through the
/// target's `From`.
macro_rules! via_from {
    ($($target:ty: $($source:ty),+;)*) => {
        $($(
            impl IntoField<$target> for $source {
                fn into_field(self) -> $target {
                    <$target>::from(self)
                }
            }
        )+)*
    };
}

via_from! {
    Text: &str, String, &String, Cow<'_, str>;
    Secret: &str, String;
    // A number in the field's unit: an integer of millicores, gigabytes whole or decimal.
    CpuMillicores: u32;
    MemoryGb: f64, i32;
    // An integer literal for a decimal field (`.threshold(100)`).
    f64: i32;
}

/// Any iterable of exactly the list's items: `[]`, `vec![]`, `[role]`, a `Vec`, an iterator.
impl<I, T> IntoField<Vec<T>> for I
where
    I: IntoIterator<Item = T>,
{
    fn into_field(self) -> Vec<T> {
        self.into_iter().collect()
    }
}

/// A non-empty array of texts for a list of texts or open-enum values: `["a", "b"]`.
impl<S, T, const N: usize> IntoField<Vec<T>, TextArray> for [S; N]
where
    S: TextSource + IntoField<T>,
    Len<N>: NonEmpty,
{
    fn into_field(self) -> Vec<T> {
        self.into_iter().map(IntoField::into_field).collect()
    }
}

/// An iterator of texts for a list of texts or open-enum values: `names.iter()`.
impl<I, T> IntoField<Vec<T>, TextIter> for I
where
    I: Iterator,
    I::Item: TextSource + IntoField<T>,
{
    fn into_field(self) -> Vec<T> {
        self.map(IntoField::into_field).collect()
    }
}

/// A boxed part (a pipe's source kinds) from the part itself.
impl<T> IntoField<Box<T>> for T {
    fn into_field(self) -> Box<T> {
        Box::new(self)
    }
}
