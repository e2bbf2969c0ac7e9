//! `scaling.replicaCpuMillicores` and `scaling.replicaMemoryGb`: numbers in the contract, but
//! real servers sometimes send Kubernetes quantity strings (`"500m"`, `"2Gi"`).

use std::fmt;

use serde::{Deserializer, Serializer};

use crate::codec::{Read, json_string, lenient, parse_decimal, serialize_number};

/// A resource amount in its field's unit (millicores, or gigabytes of memory), read from a number
/// or a Kubernetes quantity string. A value read as a string is written back as that string.
#[derive(Clone, Debug)]
pub struct Quantity {
    value: f64,
    text: Option<Box<str>>,
}

impl Quantity {
    /// An amount in the field's unit, written as a JSON number.
    pub fn new(value: f64) -> Self {
        Quantity { value, text: None }
    }

    /// The amount in the field's unit: millicores for `replicaCpuMillicores`, gigabytes (2^30
    /// bytes, as Kubernetes' `Gi`) for `replicaMemoryGb`.
    pub fn value(&self) -> f64 {
        self.value
    }

    /// The quantity string the server sent, when it sent one instead of a number.
    pub fn original_text(&self) -> Option<&str> {
        self.text.as_deref()
    }
}

/// Equal when the same amount was given the same way (NaN included, so a value read from a
/// quirky text equals itself).
impl PartialEq for Quantity {
    fn eq(&self, other: &Self) -> bool {
        self.value.to_bits() == other.value.to_bits() && self.text == other.text
    }
}

impl From<u32> for Quantity {
    fn from(value: u32) -> Self {
        Quantity::new(f64::from(value))
    }
}

impl From<f64> for Quantity {
    fn from(value: f64) -> Self {
        Quantity::new(value)
    }
}

impl fmt::Display for Quantity {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match &self.text {
            Some(text) => f.write_str(text),
            None => write!(f, "{}", self.value),
        }
    }
}

/// Parses a Kubernetes quantity (`"500m"`, `"2Gi"`, `"1.5"`, `"1e3"`) into its base amount
/// (cores, or bytes). `None` when the text is not a quantity.
pub fn parse_kubernetes_quantity(text: &str) -> Option<f64> {
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

/// How a quantity string without a suffix (`"0.5"`) is read.
#[derive(Clone, Copy)]
enum PlainText {
    /// In the field's unit, as the number would be (memory: `"0.5"` is 0.5 GB, not half a byte).
    FieldUnit,
    /// A Kubernetes quantity in base units (CPU: `"1.5"` is 1.5 cores, 1500 millicores).
    BaseUnit,
}

/// Reads a number (in the field's unit) or a quantity string: suffixed (`"500m"`, `"512Mi"`)
/// is a Kubernetes quantity of base units, converted with `per_unit` base amounts per field unit;
/// without a suffix, as `plain` says. Anything else reads as absent and is kept by the model,
/// written back as it came.
fn deserialize_quantity<'de, D: Deserializer<'de>>(
    d: D,
    per_unit: f64,
    plain: PlainText,
) -> Result<Read<Quantity>, D::Error> {
    lenient(d, |raw| {
        if let Some(value) = parse_decimal(raw) {
            return Some(Read::Value(Quantity::new(value)));
        }
        let text = json_string(raw)?;
        let value = match (plain, parse_decimal(text.trim())) {
            (PlainText::FieldUnit, Some(value)) => value,
            _ => parse_kubernetes_quantity(&text)? / per_unit,
        };
        Some(Read::Value(Quantity { value, text: Some(text.as_ref().into()) }))
    })
}

pub(crate) fn serialize_quantity<S: Serializer>(value: &Quantity, s: S) -> Result<S::Ok, S::Error> {
    match &value.text {
        Some(text) => s.serialize_str(text),
        None => serialize_number(value.value, s),
    }
}

/// `replicaCpuMillicores`: a number of millicores, or a quantity of cores (`"500m"` is 500,
/// `"1.5"` is 1500).
pub(crate) mod millicores {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Quantity>, D::Error> {
        deserialize_quantity(d, 1e-3, PlainText::BaseUnit)
    }

    pub(crate) use super::serialize_quantity as serialize;
}

/// `replicaMemoryGb`: a number of gigabytes, a numeric string of gigabytes (`"0.5"`), or a
/// suffixed quantity of bytes (`"2Gi"` is 2).
pub(crate) mod gigabytes {
    use super::*;

    pub(crate) fn deserialize<'de, D: Deserializer<'de>>(d: D) -> Result<Read<Quantity>, D::Error> {
        deserialize_quantity(d, 1_073_741_824.0, PlainText::FieldUnit)
    }

    pub(crate) use super::serialize_quantity as serialize;
}
