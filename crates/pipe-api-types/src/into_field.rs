//! [`IntoField`]: what a model's setter accepts for a field, so that a setter takes what a user
//! writes: `.port(5432)`, `.replicas(2)`, `.name("orders")`, `.topics(["a", "b"])`.

use std::borrow::Cow;

use time::{OffsetDateTime, PrimitiveDateTime};

use crate::quantity::{CpuMillicores, MemoryGb, Quantity, Unit};
use crate::{Secret, Text};

/// A value a setter of a `T` field accepts. Implemented for `T` itself and for the obvious
/// conversions: text for [`Text`] (and for open enums and [`Secret`]), any iterable of accepted
/// items for a list, an integer literal for a number field.
///
/// Each number type accepts only itself (plus `i32` for `f64`), so that an integer literal needs
/// no suffix: `.port(5432)` infers `u16`. A generic `impl Into<u16>` would not.
pub trait IntoField<T> {
    /// The field's value.
    fn into_field(self) -> T;
}

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

itself!(Text, bool, u16, u32, u64, i64, f64, OffsetDateTime, PrimitiveDateTime, Secret);

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

/// Any iterable of accepted items for a list: `["a", "b"]`, `vec![role]`, an iterator.
impl<I, T> IntoField<Vec<T>> for I
where
    I: IntoIterator,
    I::Item: IntoField<T>,
{
    fn into_field(self) -> Vec<T> {
        self.into_iter().map(IntoField::into_field).collect()
    }
}

/// A boxed part (a pipe's source kinds) from the part itself.
impl<T> IntoField<Box<T>> for T {
    fn into_field(self) -> Box<T> {
        Box::new(self)
    }
}
