//! Comparing texts in test failures.

/// Where `actual` first departs from `expected`: the first differing line (1-based) with both
/// versions quoted, so that trailing spaces and carriage returns show; or, when one text is
/// a prefix of the other line by line, their lengths.
///
/// ```
/// use loopir_testkit::text::first_difference;
/// let why = first_difference("a\nb\n", "a\nc\n");
/// assert_eq!(why, "line 2:\n  expected: \"b\"\n  actual:   \"c\"");
/// ```
pub fn first_difference(expected: &str, actual: &str) -> String {
    for (i, (e, a)) in expected.split('\n').zip(actual.split('\n')).enumerate() {
        if e != a {
            return format!("line {}:\n  expected: {e:?}\n  actual:   {a:?}", i + 1);
        }
    }
    format!(
        "texts agree on their common lines; expected {} lines ({} bytes), got {} lines ({} bytes)",
        expected.lines().count(),
        expected.len(),
        actual.lines().count(),
        actual.len()
    )
}
