//! Validation of request models: every violation at once, each naming the field path and the rule.

use std::fmt;

use base64::Engine as _;

use crate::UnknownFields;

/// A request model that can check itself before anything is built from it.
pub trait Validate {
    /// Checks every rule and reports every violation at once.
    fn validate(&self) -> Result<(), ValidationErrors>;
}

/// A rule a request field must follow.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub enum Rule {
    /// The field must be present.
    Required,
    /// The field must be present because of another field's value (named in the text).
    RequiredBecause(&'static str),
    /// The text must not be empty (or only whitespace).
    NotBlank,
    /// The text must not contain control characters.
    NoControlCharacters,
    /// The text must be at most this many characters long.
    MaxChars(usize),
    /// The list must have at least this many elements.
    MinItems(usize),
    /// The text must be an IPv4 or IPv6 address or CIDR block.
    IpAddressOrCidr,
    /// The text must be the base64 encoding of exactly 32 bytes (a SHA-256 digest).
    Base64Of32Bytes,
    /// Exactly one source kind must be given; this many were.
    ExactlyOneSourceKind {
        /// How many source kinds the request holds.
        found: usize,
    },
    /// The text is not a value this crate knows (a likely typo); one this crate does not know
    /// yet is sent on purpose with the enum's `not_yet_known`, or in JSON with the member
    /// written under `"$notYetKnown"`.
    KnownValue {
        /// The values this crate knows.
        known: Vec<&'static str>,
    },
    /// The decimal number must be within these bounds (inclusive), as written here.
    DecimalRange {
        /// The smallest allowed value, as text (`0.5`).
        min: &'static str,
        /// The largest allowed value, as text (`8`).
        max: &'static str,
    },
    /// The number must be within these bounds (inclusive).
    Range {
        /// The smallest allowed value.
        min: i64,
        /// The largest allowed value.
        max: i64,
    },
    /// The list must have at most this many elements.
    MaxItems(usize),
    /// The text may hold only these characters (described in words).
    OnlyCharacters(&'static str),
    /// The number must be at least this.
    Min(i64),
    /// The list must not hold the same element twice.
    UniqueItems,
    /// The field must be absent because of another field's value (named in the text).
    NotAllowedBecause(&'static str),
    /// The number must be a whole multiple of this step.
    MultipleOf(i64),
    /// The number must agree with another field, as the text says.
    Consistent(&'static str),
    /// The field is not supported here (the text says where it is).
    Unsupported(&'static str),
    /// The text must be from `min` to `max` characters long.
    CharsBetween {
        /// The fewest characters.
        min: usize,
        /// The most characters.
        max: usize,
    },
    /// The number must be finite: JSON has no NaN or infinity.
    FiniteNumber,
    /// The number must not be less than the field named here.
    NotLessThan(&'static str),
    /// The value must equal the field named here.
    Equals(&'static str),
    /// The text must have the form described here.
    Format(&'static str),
    /// The member is not a field this crate knows: in a request a user wrote, most likely a typo
    /// (nothing is sent). A field newer than this crate is sent on purpose under
    /// `"$notYetKnown"` in JSON, or with [`UnknownFields::insert`](crate::UnknownFields::insert).
    UnknownField {
        /// The known field of the same object nearest to it, when one is near.
        did_you_mean: Option<&'static str>,
    },
    /// The value does not have the field's type.
    WrongType {
        /// What the field takes, in words (`true or false`).
        expected: &'static str,
        /// What kind of JSON value was given (`a string`).
        found: &'static str,
    },
    /// The value, though its enum has it, must be one of those the contract allows for this
    /// source kind or type (none: the field must be absent).
    OneOfFor {
        /// The values allowed.
        allowed: Vec<&'static str>,
        /// Whom they are allowed for: a source kind (`kafka`) or a type (`type msk`).
        owner: &'static str,
    },
}

impl fmt::Display for Rule {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Rule::Required => f.write_str("is required"),
            Rule::RequiredBecause(why) => write!(f, "is required {why}"),
            Rule::NotBlank => f.write_str("must not be empty"),
            Rule::NoControlCharacters => f.write_str("must not contain control characters"),
            Rule::MaxChars(max) => write!(f, "must be at most {max} characters long"),
            Rule::KnownValue { known } => {
                // Said for both who meet it: a JSON file's author and a Rust caller.
                write!(
                    f,
                    "must be one of {} (to send a value newer than this crate on purpose: in JSON, write the \
                     member under `\"$notYetKnown\"`; in Rust, use the enum's `not_yet_known`)",
                    known.join(", ")
                )
            }
            Rule::MinItems(1) => f.write_str("must have at least 1 element"),
            Rule::MinItems(min) => write!(f, "must have at least {min} elements"),
            Rule::IpAddressOrCidr => f.write_str("must be an IPv4 or IPv6 address or CIDR block"),
            Rule::Base64Of32Bytes => f.write_str("must be base64 of exactly 32 bytes (a SHA-256 digest)"),
            Rule::ExactlyOneSourceKind { found } => {
                write!(f, "must hold exactly one source kind (kafka, objectStorage, kinesis, postgres); found {found}")
            }
            Rule::Range { min, max } => write!(f, "must be between {min} and {max}"),
            Rule::DecimalRange { min, max } => write!(f, "must be between {min} and {max}"),
            Rule::MaxItems(max) => write!(f, "must have at most {max} elements"),
            Rule::OnlyCharacters(allowed) => write!(f, "may contain only {allowed}"),
            Rule::Min(min) => write!(f, "must be at least {min}"),
            Rule::UniqueItems => f.write_str("must not repeat an element"),
            Rule::NotAllowedBecause(why) => write!(f, "must be absent {why}"),
            Rule::MultipleOf(step) => write!(f, "must be a multiple of {step}"),
            Rule::Consistent(how) => write!(f, "must be {how}"),
            Rule::Unsupported(why) => write!(f, "is not supported {why}"),
            Rule::CharsBetween { min, max } => write!(f, "must be from {min} to {max} characters long"),
            Rule::FiniteNumber => f.write_str("must be a finite number"),
            Rule::NotLessThan(other) => write!(f, "must not be less than `{other}`"),
            Rule::Equals(other) => write!(f, "must equal `{other}`"),
            Rule::Format(form) => write!(f, "must have the form {form}"),
            Rule::UnknownField { did_you_mean } => {
                f.write_str("is not a field this crate knows")?;
                if let Some(near) = did_you_mean {
                    write!(f, " (did you mean `{near}`?)")?;
                }
                write!(f, "; a field newer than this crate is sent under `{}`", crate::unknown::NOT_YET_KNOWN)
            }
            Rule::WrongType { expected, found } => write!(f, "must be {expected}; found {found}"),
            Rule::OneOfFor { allowed, owner } if allowed.is_empty() => write!(f, "must be absent for {owner}"),
            Rule::OneOfFor { allowed, owner } => write!(f, "must be one of {} for {owner}", allowed.join(", ")),
        }
    }
}

/// One broken rule: the field path (`ipAccessList[2].source`) and the rule.
#[derive(Clone, Debug, PartialEq, Eq)]
#[non_exhaustive]
pub struct Violation {
    /// Where, as a JSON path from the request's root: `source.kafka.brokers`.
    pub path: String,
    /// What rule the value breaks.
    pub rule: Rule,
}

impl Violation {
    /// A violation of `rule` at `path`, for checks made outside this crate (such as a query
    /// parameter's bounds).
    pub fn new(path: impl Into<String>, rule: Rule) -> Self {
        Violation { path: path.into(), rule }
    }
}

impl fmt::Display for Violation {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "`{}` {}", self.path, self.rule)
    }
}

/// Every rule a request breaks. Never empty.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ValidationErrors {
    violations: Vec<Violation>,
}

impl ValidationErrors {
    /// The errors made of `violations`; `None` when there are none.
    pub fn from_violations(violations: Vec<Violation>) -> Option<Self> {
        (!violations.is_empty()).then_some(ValidationErrors { violations })
    }

    /// The violations, in the order of the request's fields.
    pub fn violations(&self) -> &[Violation] {
        &self.violations
    }

    /// The same errors with every path under `prefix` (`pipes[0]` makes `scaling.replicas`
    /// `pipes[0].scaling.replicas`): for a request that is part of a larger document.
    #[must_use]
    pub fn within(mut self, prefix: &str) -> Self {
        for violation in &mut self.violations {
            violation.path =
                if violation.path.is_empty() { prefix.to_owned() } else { format!("{prefix}.{}", violation.path) };
        }
        self
    }

    /// Whether the field at `path` breaks `rule`.
    pub fn contains(&self, path: &str, rule: &Rule) -> bool {
        self.violations.iter().any(|v| v.path == path && v.rule == *rule)
    }
}

impl fmt::Display for ValidationErrors {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "invalid request: ")?;
        for (i, violation) in self.violations.iter().enumerate() {
            if i > 0 {
                f.write_str("; ")?;
            }
            write!(f, "{violation}")?;
        }
        Ok(())
    }
}

impl std::error::Error for ValidationErrors {}

/// Walks a request, tracking the field path, and collects violations.
pub(crate) struct Checker<'a> {
    /// Where the check is: the innermost segment, linked to its parents on the stack, so that
    /// walking into a field costs nothing; the path is only spelled out for a violation.
    path: Option<&'a PathNode<'a>>,
    /// Every violation found so far, shared by all the walk's checkers.
    violations: &'a mut Vec<Violation>,
}

struct PathNode<'a> {
    segment: Segment,
    parent: Option<&'a PathNode<'a>>,
}

enum Segment {
    Field(&'static str),
    Index(usize),
}

impl Checker<'_> {
    /// Checks a request model: first what no one vouched for in any of its objects (a member it
    /// does not know, a value of the wrong type), then its rules with `walk`. Every violation
    /// found, or none.
    pub(crate) fn run<M: CheckMembers + ?Sized>(
        model: &M,
        walk: impl FnOnce(&mut Checker<'_>),
    ) -> Result<(), ValidationErrors> {
        let mut violations = Vec::new();
        let mut checker = Checker { path: None, violations: &mut violations };
        model.check_members(&mut checker);
        walk(&mut checker);
        if violations.is_empty() { Ok(()) } else { Err(ValidationErrors { violations }) }
    }

    /// Refuses every member of `unknown` that no one vouched for: one `known` names is a value
    /// of the wrong type for that field (`expected` says what it takes), any other a member this
    /// crate does not know, with the nearest known name.
    pub(crate) fn unvouched(
        &mut self,
        unknown: &UnknownFields,
        known: &'static [&'static str],
        // Not generic: one copy for every model, not one per model.
        expected: &dyn Fn(&str) -> Option<&'static str>,
    ) {
        for (name, value, vouched) in unknown.entries() {
            if vouched {
                continue;
            }
            let rule = match expected(name) {
                Some(expected) => Rule::WrongType { expected, found: json_kind(value) },
                None => Rule::UnknownField { did_you_mean: nearest(name, known) },
            };
            self.fail_member(name, rule);
        }
        // A known member given `null`, which the contract does not let it be (a member it does
        // is `Nullable`, and reads `null` as its value): as a value of the wrong type.
        for name in unknown.nulls() {
            if let Some(expected) = expected(name) {
                self.fail_member(name, Rule::WrongType { expected, found: "null" });
            }
        }
    }

    /// Runs `check` with `segment` appended to the path.
    fn nested(&mut self, segment: Segment, check: impl FnOnce(&mut Checker<'_>)) {
        let node = PathNode { segment, parent: self.path };
        check(&mut Checker { path: Some(&node), violations: self.violations });
    }

    /// Runs `check` with `name` appended to the path.
    pub(crate) fn field(&mut self, name: &'static str, check: impl FnOnce(&mut Checker<'_>)) {
        self.nested(Segment::Field(name), check);
    }

    /// Checks the members of `value`, the field `name` (compiled once per field type, where a
    /// closure per field was compiled once per field).
    pub(crate) fn member<T: CheckMembers>(&mut self, name: &'static str, value: &T) {
        self.field(name, |c| value.check_members(c));
    }

    /// Runs `check` with index `i` appended to the path.
    pub(crate) fn nested_index(&mut self, i: usize, check: impl FnOnce(&mut Checker<'_>)) {
        self.nested(Segment::Index(i), check);
    }

    /// Runs `check` on every element of a list, with its index appended to the path.
    pub(crate) fn each<T>(&mut self, items: &[T], mut check: impl FnMut(&mut Checker<'_>, &T)) {
        for (i, item) in items.iter().enumerate() {
            self.nested(Segment::Index(i), |c| check(c, item));
        }
    }

    /// Records that the current field breaks `rule`.
    pub(crate) fn fail(&mut self, rule: Rule) {
        self.fail_at_path(self.path(), rule);
    }

    /// Records `rule` at the member `name` of the current object, a name read from JSON.
    fn fail_member(&mut self, name: &str, rule: Rule) {
        let mut path = self.path();
        if !path.is_empty() {
            path.push('.');
        }
        path.push_str(name);
        self.fail_at_path(path, rule);
    }

    fn fail_at_path(&mut self, path: String, rule: Rule) {
        // A value of the wrong type reads as absent: that it is missing is not news.
        let required = matches!(rule, Rule::Required | Rule::RequiredBecause(_));
        if required && self.violations.iter().any(|v| v.path == path && matches!(v.rule, Rule::WrongType { .. })) {
            return;
        }
        self.violations.push(Violation { path, rule });
    }

    /// The current path, spelled out (`source.kafka.brokers`).
    fn path(&self) -> String {
        let mut segments = Vec::new();
        let mut node = self.path;
        while let Some(current) = node {
            segments.push(&current.segment);
            node = current.parent;
        }
        let mut path = String::new();
        for segment in segments.into_iter().rev() {
            match segment {
                Segment::Field(name) if path.is_empty() => path.push_str(name),
                Segment::Field(name) => {
                    path.push('.');
                    path.push_str(name);
                }
                Segment::Index(i) => path.push_str(&format!("[{i}]")),
            }
        }
        path
    }

    /// Records `rule` at the child field `name`.
    pub(crate) fn fail_at(&mut self, name: &'static str, rule: Rule) {
        self.field(name, |c| c.fail(rule));
    }

    /// A field that must be present: runs `check` on it, or records `rule` when it is absent.
    pub(crate) fn present<T>(
        &mut self,
        name: &'static str,
        value: &Option<T>,
        rule: Rule,
        check: impl FnOnce(&mut Checker<'_>, &T),
    ) {
        self.field(name, |c| match value {
            Some(value) => check(c, value),
            None => c.fail(rule),
        });
    }

    /// An open enum's value, when present, must be known or vouched for.
    pub(crate) fn known<E: OpenEnum>(&mut self, name: &'static str, value: &Option<E>) {
        if let Some(value) = value {
            if !value.may_be_sent() {
                self.fail_at(name, Rule::KnownValue { known: E::known_texts() });
            }
        }
    }

    /// Each number, when present, is at least its minimum (a contract's `minimum`s).
    pub(crate) fn minimums(&mut self, minimums: &[(&'static str, Option<u64>, u64)]) {
        for &(name, value, min) in minimums {
            if value.is_some_and(|value| value < min) {
                self.fail_at(name, Rule::Min(min as i64));
            }
        }
    }

    /// A port, when present, is from 1 to 65535 (the type holds the maximum).
    pub(crate) fn port(&mut self, name: &'static str, port: Option<u16>) {
        if port == Some(0) {
            self.fail_at(name, Rule::Range { min: 1, max: 65535 });
        }
    }

    /// A required text that must not be blank nor hold control characters.
    pub(crate) fn required_text(&mut self, name: &'static str, value: &Option<crate::Text>) {
        self.present(name, value, Rule::Required, |c, text| c.text(text));
    }

    /// A text, when present, must not be blank nor hold control characters.
    pub(crate) fn text(&mut self, text: &str) {
        if is_printable_ascii_not_blank(text.as_bytes()) {
            return;
        }
        if text.chars().all(char::is_whitespace) {
            self.fail(Rule::NotBlank);
        } else if has_control_characters(text) {
            self.fail(Rule::NoControlCharacters);
        }
    }
}

/// Whether `bytes` are all printable ASCII (0x20 to 0x7E) and not all spaces: a text that
/// passes both text rules, the usual case, checked eight bytes at a time (the last eight
/// overlapping the chunk before them).
fn is_printable_ascii_not_blank(bytes: &[u8]) -> bool {
    const ONES: u64 = 0x0101_0101_0101_0101;
    const HIGHS: u64 = 0x8080_8080_8080_8080;
    let Some(last) = bytes.len().checked_sub(8).and_then(|start| bytes.get(start..)) else {
        return is_short_printable_ascii_not_blank(bytes);
    };
    // High bits flag bytes below 0x20, equal to 0x7F, or from 0x80 up; a borrow can only add
    // flags above a real one, so any flag means a real one.
    let unprintable = |word: u64| {
        let below = word.wrapping_sub(ONES * 0x20) & !word;
        let delete = word ^ (ONES * 0x7F);
        let delete = delete.wrapping_sub(ONES) & !delete;
        (below | delete | word) & HIGHS != 0
    };
    let spaces = ONES * u64::from(b' ');
    let mut blank = true;
    for chunk in bytes.chunks_exact(8) {
        let word = u64::from_le_bytes(chunk.try_into().unwrap_or([0; 8]));
        if unprintable(word) {
            return false;
        }
        blank &= word == spaces;
    }
    let word = u64::from_le_bytes(last.try_into().unwrap_or([0; 8]));
    !(unprintable(word) || (blank && word == spaces))
}

/// [`is_printable_ascii_not_blank`] below eight bytes: from four bytes up, the first four and
/// the last four (overlapping) make one word, checked as eight bytes are.
fn is_short_printable_ascii_not_blank(bytes: &[u8]) -> bool {
    let word = |range: &[u8]| range.try_into().map(u32::from_le_bytes).ok();
    let split = bytes.len().saturating_sub(4);
    match (bytes.get(..4).and_then(word), bytes.get(split..).and_then(word)) {
        (Some(head), Some(tail)) => {
            is_printable_ascii_not_blank(&(u64::from(head) | u64::from(tail) << 32).to_le_bytes())
        }
        _ => bytes.iter().all(|b| (0x20..0x7F).contains(b)) && !bytes.iter().all(|&b| b == b' '),
    }
}

/// Whether `text` holds a control character (C0, DEL or C1).
pub(crate) fn has_control_characters(text: &str) -> bool {
    // Printable ASCII, the usual case, needs no decoding.
    !text.bytes().all(|b| (0x20..0x7F).contains(&b)) && text.chars().any(char::is_control)
}

/// Whether `text` is an IPv4 or IPv6 address, or a CIDR block of either (`10.0.0.0/8`,
/// `2001:db8::/32`), as an IP access entry's `source` must be.
pub(crate) fn is_ip_address_or_cidr(text: &str) -> bool {
    let (address, prefix) = match text.split_once('/') {
        Some((address, prefix)) => (address, Some(prefix)),
        None => (text, None),
    };
    let Ok(address) = address.parse::<std::net::IpAddr>() else {
        return false;
    };
    let Some(prefix) = prefix else {
        return true;
    };
    let max = if address.is_ipv4() { 32 } else { 128 };
    // Digits only: `u8::from_str` would accept a leading `+`.
    !prefix.is_empty()
        && prefix.len() <= 3
        && prefix.bytes().all(|b| b.is_ascii_digit())
        && prefix.parse::<u8>().is_ok_and(|bits| bits <= max)
}

/// Whether `text` is standard base64 (padded) of exactly 32 bytes.
pub(crate) fn is_base64_of_32_bytes(text: &str) -> bool {
    base64::engine::general_purpose::STANDARD.decode(text).is_ok_and(|bytes| bytes.len() == 32)
}

/// What kind of JSON value `raw` (valid JSON text) is, in words.
fn json_kind(raw: &str) -> &'static str {
    match raw.as_bytes().first() {
        Some(b'"') => "a string",
        Some(b't' | b'f') => "a bool",
        Some(b'[') => "a list",
        Some(b'{') => "an object",
        Some(b'n') => "null",
        _ => "a number",
    }
}

/// The name of `known` nearest to `name`, when it is near enough to be what was meant: at most
/// one edit (a letter added, dropped, changed, or two swapped) per three letters, case aside.
fn nearest(name: &str, known: &[&'static str]) -> Option<&'static str> {
    let name = name.to_ascii_lowercase();
    known
        .iter()
        .map(|candidate| (edit_distance(&name, &candidate.to_ascii_lowercase()), *candidate))
        .filter(|(distance, candidate)| *distance <= (name.len().min(candidate.len()) / 3).max(1))
        .min_by_key(|(distance, _)| *distance)
        .map(|(_, candidate)| candidate)
}

/// The optimal string alignment distance: insertions, deletions, substitutions and swaps of
/// two neighbours, each one edit.
fn edit_distance(a: &str, b: &str) -> usize {
    let (a, b): (Vec<char>, Vec<char>) = (a.chars().collect(), b.chars().collect());
    let mut rows = vec![vec![0; b.len() + 1]; a.len() + 1];
    for (i, row) in rows.iter_mut().enumerate() {
        row[0] = i;
    }
    rows[0] = (0..=b.len()).collect();
    for i in 1..=a.len() {
        for j in 1..=b.len() {
            let cost = usize::from(a[i - 1] != b[j - 1]);
            let mut best = (rows[i - 1][j] + 1).min(rows[i][j - 1] + 1).min(rows[i - 1][j - 1] + cost);
            if i > 1 && j > 1 && a[i - 1] == b[j - 2] && a[i - 2] == b[j - 1] {
                best = best.min(rows[i - 2][j - 2] + 1);
            }
            rows[i][j] = best;
        }
    }
    rows[a.len()][b.len()]
}

/// What a request's objects hold that no one vouched for (see [`UnknownFields`]), found at every
/// depth: implemented by every model, list and field type alongside [`Vouch`](crate::Vouch).
pub(crate) trait CheckMembers {
    /// Records a violation for each member of `self`, at any depth, that no one vouched for.
    fn check_members(&self, c: &mut Checker<'_>);
}

impl<T: CheckMembers> CheckMembers for Vec<T> {
    fn check_members(&self, c: &mut Checker<'_>) {
        c.each(self, |c, item| item.check_members(c));
    }
}

impl<T: CheckMembers> CheckMembers for Option<T> {
    fn check_members(&self, c: &mut Checker<'_>) {
        if let Some(value) = self {
            value.check_members(c);
        }
    }
}

impl<T: CheckMembers> CheckMembers for Box<T> {
    fn check_members(&self, c: &mut Checker<'_>) {
        (**self).check_members(c);
    }
}

/// What validation asks of an open enum ([`open_enum!`](crate::macros)).
pub(crate) trait OpenEnum {
    /// Known, or unknown but vouched for (read from a server, or `not_yet_known`).
    fn may_be_sent(&self) -> bool;
    /// The texts of the known values.
    fn known_texts() -> Vec<&'static str>;
}

/// A value, when present, is one of `allowed` (a subset of what its enum knows), or a newer
/// value sent on purpose with `not_yet_known`.
pub(crate) fn one_of<E: OpenEnum + AsRef<str>>(
    c: &mut Checker,
    name: &'static str,
    value: &Option<E>,
    allowed: &[&'static str],
) {
    let Some(value) = value else { return };
    let text = value.as_ref();
    let known = E::known_texts().contains(&text);
    let fine = if known { allowed.contains(&text) } else { value.may_be_sent() };
    if !fine {
        c.fail_at(name, Rule::KnownValue { known: allowed.to_vec() });
    }
}
