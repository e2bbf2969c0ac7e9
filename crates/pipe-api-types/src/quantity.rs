//! Resource amounts with their unit in the type: [`CpuMillicores`] (`replicaCpuMillicores`) and
//! [`MemoryGb`] (`replicaMemoryGb` and the services' memory sizes), one [`Quantity`] generic over
//! its [`Unit`], so that millicores cannot be passed where gigabytes belong. Numbers in the
//! contract, but real servers sometimes send Kubernetes quantity strings (`"500m"`, `"2Gi"`;
//! service notes, Pipes).

use std::fmt;
use std::marker::PhantomData;

use serde::{Serialize, Serializer};

use crate::codec::{Field, parse_decimal, serialize_number};

mod sealed {
    /// Only this crate's units: how a unit reads its text is part of the contract.
    pub trait Sealed {}
}

/// The unit of a [`Quantity`], and how a field in that unit reads a quantity string. Implemented
/// by [`Millicores`] and [`Gigabytes`] only.
pub trait Unit: sealed::Sealed + 'static {
    /// The unit's name, as `Debug` shows it.
    const NAME: &'static str;
    /// How many base units of a Kubernetes quantity (cores, bytes) make one of this unit: a
    /// suffixed text (`"500m"`, `"512Mi"`) is divided by this.
    const BASE_PER_UNIT: f64;
    /// Whether a numeric string without a suffix is in this unit, as the number would be
    /// (memory: `"0.5"` is 0.5 GB, never half a byte), rather than a Kubernetes quantity of base
    /// units (CPU: `"1.5"` is 1.5 cores, 1500 millicores).
    const PLAIN_TEXT_IN_UNIT: bool;
}

/// Thousandths of a CPU core: the unit of `replicaCpuMillicores`. A marker type, never a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Millicores {}

/// Gigabytes of memory, 2^30 bytes as Kubernetes' `Gi` (the contract says "GB" for pipes and
/// "GiB" for database pipes, meaning the same): the unit of `replicaMemoryGb`. A marker type,
/// never a value.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub enum Gigabytes {}

impl sealed::Sealed for Millicores {}
impl sealed::Sealed for Gigabytes {}

impl Unit for Millicores {
    const NAME: &'static str = "Millicores";
    // `"500m"` is 0.5 cores, 500 millicores.
    const BASE_PER_UNIT: f64 = 1e-3;
    const PLAIN_TEXT_IN_UNIT: bool = false;
}

impl Unit for Gigabytes {
    const NAME: &'static str = "Gigabytes";
    const BASE_PER_UNIT: f64 = 1_073_741_824.0;
    // A plain `"0.5"` is 0.5 GB, as the number 0.5 is (issue 17).
    const PLAIN_TEXT_IN_UNIT: bool = true;
}

/// CPU per replica, in millicores (`replicaCpuMillicores`).
pub type CpuMillicores = Quantity<Millicores>;

/// Memory, in gigabytes (`replicaMemoryGb`, `minReplicaMemoryGb`, ...).
pub type MemoryGb = Quantity<Gigabytes>;

/// A resource amount in unit `U`, read from a number or a Kubernetes quantity string. A value
/// read as a string is written back as that string.
///
/// The unit is part of the type: build one with the constructor that says it.
///
/// ```
/// use pipe_api_types::{CpuMillicores, MemoryGb, PipesCdcScaling, Quantity, Scaling};
///
/// let cpu: CpuMillicores = Quantity::millicores(500);
/// let memory: MemoryGb = Quantity::gigabytes(0.5);
/// let scaling = Scaling::default().replica_cpu_millicores(cpu).replica_memory_gb(memory);
/// // Or with the plain number in the field's unit.
/// let cdc = PipesCdcScaling::default().replica_cpu_millicores(2000).replica_memory_gb(8.0);
/// # let _ = (scaling, cdc);
/// ```
///
/// Gigabytes where millicores belong do not compile:
///
/// ```compile_fail,E0277
/// use pipe_api_types::{Quantity, Scaling};
/// let scaling = Scaling::default().replica_cpu_millicores(Quantity::gigabytes(2.0));
/// ```
///
/// ```compile_fail,E0308
/// use pipe_api_types::{CpuMillicores, Quantity};
/// let cpu: CpuMillicores = Quantity::gigabytes(0.5);
/// ```
///
/// ```compile_fail,E0308
/// use pipe_api_types::Quantity;
/// let same = Quantity::millicores(500) == Quantity::gigabytes(0.5);
/// ```
///
/// Nor does a number of the other field's kind (gigabytes are `f64`, millicores `u32`):
///
/// ```compile_fail,E0277
/// use pipe_api_types::Scaling;
/// let scaling = Scaling::default().replica_memory_gb(512u32);
/// ```
pub struct Quantity<U: Unit> {
    value: f64,
    text: Option<Box<str>>,
    unit: PhantomData<U>,
}

impl Quantity<Millicores> {
    /// `value` millicores (the contract's `replicaCpuMillicores` is an integer), written as a
    /// JSON number.
    pub fn millicores(value: u32) -> Self {
        Quantity::in_unit(f64::from(value))
    }
}

impl Quantity<Gigabytes> {
    /// `value` gigabytes, written as a JSON number.
    pub fn gigabytes(value: f64) -> Self {
        Quantity::in_unit(value)
    }
}

impl<U: Unit> Quantity<U> {
    /// An amount in `U`, written as a JSON number: for the constructors that say the unit.
    fn in_unit(value: f64) -> Self {
        Quantity { value, text: None, unit: PhantomData }
    }

    /// The amount in `U`: millicores for [`CpuMillicores`], gigabytes (2^30 bytes, as
    /// Kubernetes' `Gi`) for [`MemoryGb`].
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The quantity string the server sent, when it sent one instead of a number.
    pub fn original_text(&self) -> Option<&str> {
        self.text.as_deref()
    }
}

// Written by hand: derives would ask `U: Clone + Debug + PartialEq` of the marker type.
impl<U: Unit> Clone for Quantity<U> {
    fn clone(&self) -> Self {
        Quantity { value: self.value, text: self.text.clone(), unit: PhantomData }
    }
}

impl<U: Unit> fmt::Debug for Quantity<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        let mut debug = f.debug_struct("Quantity");
        debug.field("value", &self.value).field("unit", &U::NAME);
        if let Some(text) = &self.text {
            debug.field("text", text);
        }
        debug.finish()
    }
}

/// Equal when the same amount was given the same way (NaN included, so a value read from a
/// quirky text equals itself).
impl<U: Unit> PartialEq for Quantity<U> {
    fn eq(&self, other: &Self) -> bool {
        self.value.to_bits() == other.value.to_bits() && self.text == other.text
    }
}

/// A number of millicores: the field's own unit, as the contract writes it.
impl From<u32> for Quantity<Millicores> {
    fn from(value: u32) -> Self {
        Quantity::millicores(value)
    }
}

/// A number of gigabytes: the field's own unit, as the contract writes it.
impl From<f64> for Quantity<Gigabytes> {
    fn from(value: f64) -> Self {
        Quantity::gigabytes(value)
    }
}

/// A whole number of gigabytes, as a user writes it: `.replica_memory_gb(2)`.
impl From<i32> for Quantity<Gigabytes> {
    fn from(value: i32) -> Self {
        Quantity::gigabytes(f64::from(value))
    }
}

/// Compares the amount with a number of gigabytes: `memory == 2.0` (a quantity the server sent
/// as text compares by the amount it reads as).
impl PartialEq<f64> for Quantity<Gigabytes> {
    fn eq(&self, other: &f64) -> bool {
        self.value == *other
    }
}

/// Compares the amount with a whole number of gigabytes: `memory == 2`.
impl PartialEq<i32> for Quantity<Gigabytes> {
    fn eq(&self, other: &i32) -> bool {
        self.value == f64::from(*other)
    }
}

/// Compares the amount with a number of millicores: `cpu == 500`.
impl PartialEq<u32> for Quantity<Millicores> {
    fn eq(&self, other: &u32) -> bool {
        self.value == f64::from(*other)
    }
}

/// The text the server sent, or the number in the unit.
impl<U: Unit> fmt::Display for Quantity<U> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.text {
            Some(text) => f.write_str(text),
            None => write!(f, "{}", self.value),
        }
    }
}

/// Parses a Kubernetes quantity (`"500m"`, `"2Gi"`, `"1.5"`, `"1e3"`) into its base amount
/// (cores, or bytes). `None` when the text is not a quantity.
pub(crate) fn parse_kubernetes_quantity(text: &str) -> Option<f64> {
    const SUFFIXES: [(&str, f64); 14] = [
        ("Ki", 1024.0),
        ("Mi", 1_048_576.0),
        ("Gi", 1_073_741_824.0),
        ("Ti", 1_099_511_627_776.0),
        ("Pi", 1_125_899_906_842_624.0),
        ("Ei", 1_152_921_504_606_846_976.0),
        ("n", 1e-9),
        ("u", 1e-6),
        ("m", 1e-3),
        ("k", 1e3),
        ("M", 1e6),
        ("G", 1e9),
        ("T", 1e12),
        ("P", 1e15),
    ];
    let text = text.trim();
    let (number, scale) = SUFFIXES
        .iter()
        .find_map(|(suffix, scale)| text.strip_suffix(suffix).map(|n| (n, *scale)))
        .or_else(|| text.strip_suffix('E').map(|n| (n, 1e18)))
        .unwrap_or((text, 1.0));
    // Only digits, one dot, a sign and an exponent: `f64::from_str` alone would accept "inf".
    let plain = !number.is_empty()
        && number.bytes().all(|b| b.is_ascii_digit() || matches!(b, b'.' | b'+' | b'-' | b'e' | b'E'))
        && number.bytes().any(|b| b.is_ascii_digit());
    let value = number.parse::<f64>().ok().filter(|_| plain)? * scale;
    value.is_finite().then_some(value)
}

/// A quantity field (`replicaCpuMillicores`, `replicaMemoryGb`, ...), in its unit `U`: a JSON
/// number is in `U`; a suffixed string (`"500m"`, `"512Mi"`) is a Kubernetes quantity of base
/// units, converted; a numeric string without a suffix as [`Unit::PLAIN_TEXT_IN_UNIT`] says.
/// Anything else reads as absent and is kept by the model.
impl<U: Unit> Field for Quantity<U> {
    const EXPECTED: &'static str = "a number or a quantity string (\"500m\", \"2Gi\")";

    fn from_u64(value: u64) -> Option<Self> {
        Some(Quantity::in_unit(value as f64))
    }

    fn from_i64(value: i64) -> Option<Self> {
        Some(Quantity::in_unit(value as f64))
    }

    fn from_f64(value: f64) -> Option<Self> {
        Some(Quantity::in_unit(value))
    }

    fn from_text(text: &str) -> Option<Self> {
        let value = match parse_decimal(text.trim()) {
            Some(value) if U::PLAIN_TEXT_IN_UNIT => value,
            _ => parse_kubernetes_quantity(text)? / U::BASE_PER_UNIT,
        };
        Some(Quantity { value, text: Some(text.into()), unit: PhantomData })
    }
}

/// Written as the string it was read from, or as a number in `U` (without a fraction when it
/// has none: `500`, not `500.0`).
impl<U: Unit> Serialize for Quantity<U> {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match &self.text {
            Some(text) => s.serialize_str(text),
            None => serialize_number(self.value, s),
        }
    }
}
