//! Unit tests of the crate's private helpers, which its models use and its integration tests
//! reach only through those models.

use time::macros::datetime;

use crate::codec::{format_zoneless, parse_rfc3339, parse_zoneless};

#[test]
fn zoneless_times_have_minutes_and_optional_seconds() {
    assert_eq!(parse_zoneless("2021-01-01T00:00"), Some(datetime!(2021-01-01 00:00)));
    assert_eq!(parse_zoneless("2021-06-30T23:59:58"), Some(datetime!(2021-06-30 23:59:58)));
    assert_eq!(parse_zoneless("2021-01-01T00:00Z"), None, "a zone designator is not this format");
    assert_eq!(format_zoneless(&datetime!(2030-02-03 04:05)), "2030-02-03T04:05");
    assert_eq!(format_zoneless(&datetime!(2030-02-03 04:05:06)), "2030-02-03T04:05:06");
}

proptest::proptest! {
    #![proptest_config(proptest::prelude::ProptestConfig { cases: 20_000, failure_persistence: None, ..Default::default() })]

    /// `parse_rfc3339` reads its fast form exactly as `time` reads RFC 3339, and leaves every
    /// other text (offsets, lower case, leap seconds, out-of-range fields, junk) to `time`:
    /// checked on the servers' form with every field stretched past its range, and with edits.
    #[test]
    fn rfc3339_reads_as_time_reads_it(
        (year, month, day, hour, minute, second) in (0u32..10_000, 0u32..14, 0u32..33, 0u32..26, 0u32..62, 0u32..62),
        fraction in proptest::option::of("[0-9]{0,11}"),
        end in proptest::sample::select(vec!["Z", "z", "+00:00", "-01:30", "", "ZZ", " "]),
        edit in proptest::option::of((0usize..32, "[0-9T:.Zt -]")),
    ) {
        let mut text = format!("{year:04}-{month:02}-{day:02}T{hour:02}:{minute:02}:{second:02}");
        if let Some(fraction) = fraction {
            text = format!("{text}.{fraction}");
        }
        text.push_str(end);
        if let Some((at, piece)) = edit {
            let at = at.min(text.len());
            text.replace_range(at..(at + 1).min(text.len()), &piece);
        }
        let by_time = time::OffsetDateTime::parse(&text, &time::format_description::well_known::Rfc3339).ok();
        proptest::prop_assert_eq!(parse_rfc3339(&text), by_time, "{}", text);
    }
}
