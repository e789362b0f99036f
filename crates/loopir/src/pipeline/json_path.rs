//! Naming the field a JSON reading error is about.
//!
//! serde_json says where in the text it failed (line and column) but not which field it
//! was reading, and an environment's errors name fields (`funcs[2].args`), as the
//! project's errors name what is wrong. [`read_json`] reads a document and, when the
//! schema rejects it, finds the field at the place serde_json stopped by scanning the
//! text up to there.

use serde::de::DeserializeOwned;

use super::env::EnvError;

/// Reads `text` as a `T`. A failure is an [`EnvError`] whose field is the path of the
/// value serde_json was reading (`funcs[0].args[1]`; empty for the document itself, or
/// for text that is not JSON) and whose problem is serde_json's message, with its line
/// and column. A value that a field's own reader rejects (a custom error: a device API
/// or type name that is not one) is placed by serde_json at the end of the object that
/// holds the field, so the path is that object's and the message names the value.
///
/// ```
/// use loopir::pipeline::json_path::read_json;
/// #[derive(Debug, serde::Deserialize)]
/// #[serde(deny_unknown_fields)]
/// struct Doc {
///     #[allow(dead_code)]
///     sizes: Vec<u32>,
/// }
/// let e = read_json::<Doc>(r#"{"sizes": [1, "two"]}"#).unwrap_err();
/// assert_eq!(e.field, "sizes[1]");
/// ```
pub fn read_json<T: DeserializeOwned>(text: &str) -> Result<T, EnvError> {
    serde_json::from_str(text).map_err(|e| {
        let field = match e.classify() {
            serde_json::error::Category::Data => field_at(text, e.line(), e.column()),
            _ => String::new(),
        };
        EnvError::field(field, e.to_string())
    })
}

/// One open object or array on the way to the position, and which of its members the
/// scan is in.
enum Open {
    /// An object and the key of the member the scan is in (`None` before its first key).
    Object(Option<String>),
    /// An array and the index of the element the scan is in (`None` before its first).
    Array(Option<usize>),
}

/// The path of the value of `text` that the position `line`:`column` (serde_json's: both
/// 1-based, `column` counting the bytes of its line read so far) is in or just after. The
/// text is read up to that position only; anything malformed there ends the scan.
fn field_at(text: &str, line: usize, column: usize) -> String {
    let line_start =
        if line <= 1 { 0 } else { text.match_indices('\n').nth(line - 2).map_or(text.len(), |(i, _)| i + 1) };
    let end = (line_start + column).min(text.len());
    let bytes = text.as_bytes();
    let mut open: Vec<Open> = Vec::new();
    // Whether the next string in the innermost object is a key (after `{` or `,`).
    let mut key_next = false;
    let mut i = 0;
    while i < end {
        let b = bytes[i];
        if b.is_ascii_whitespace() || b == b':' {
            i += 1;
            continue;
        }
        if b == b',' {
            key_next = matches!(open.last(), Some(Open::Object(_)));
            i += 1;
            continue;
        }
        if b == b'}' || b == b']' {
            open.pop();
            key_next = false;
            i += 1;
            continue;
        }
        // A value starts here, or an object's key.
        if let Some(Open::Array(index)) = open.last_mut() {
            *index = Some(index.map_or(0, |k| k + 1));
        }
        match b {
            b'{' => {
                open.push(Open::Object(None));
                key_next = true;
                i += 1;
            }
            b'[' => {
                open.push(Open::Array(None));
                i += 1;
            }
            b'"' => {
                let (string, next) = read_string(text, i);
                if key_next && let Some(Open::Object(key)) = open.last_mut() {
                    *key = Some(string);
                    key_next = false;
                }
                i = next;
            }
            _ => {
                while i < bytes.len()
                    && !matches!(bytes[i], b',' | b'}' | b']')
                    && !bytes[i].is_ascii_whitespace()
                {
                    i += 1;
                }
            }
        }
    }
    // serde_json reports an object or array of the wrong type before reading it: a value
    // that starts at the position is the one it was reading.
    if matches!(bytes.get(end), Some(b'{' | b'['))
        && let Some(Open::Array(index)) = open.last_mut()
    {
        *index = Some(index.map_or(0, |k| k + 1));
    }
    let mut path = String::new();
    for o in &open {
        match o {
            Open::Object(Some(key)) => {
                if !path.is_empty() {
                    path.push('.');
                }
                path.push_str(key);
            }
            Open::Array(Some(index)) => path.push_str(&format!("[{index}]")),
            Open::Object(None) | Open::Array(None) => break,
        }
    }
    path
}

/// The JSON string starting at the quote at `start`, unescaped as far as keys need it,
/// and the index just past its closing quote (the end of the text if it has none).
fn read_string(text: &str, start: usize) -> (String, usize) {
    let mut out = String::new();
    let mut chars = text[start + 1..].char_indices();
    while let Some((k, c)) = chars.next() {
        match c {
            '"' => return (out, start + 1 + k + 1),
            '\\' => {
                if let Some((_, escaped)) = chars.next() {
                    out.push(match escaped {
                        'n' => '\n',
                        't' => '\t',
                        other => other,
                    });
                }
            }
            c => out.push(c),
        }
    }
    (out, text.len())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The field at the position of `marker` (which the text holds once), as serde_json
    /// would report it after reading through `marker`.
    fn field_after(text: &str, marker: &str) -> String {
        let at = text.find(marker).expect("marker in text") + marker.len();
        let line = text[..at].matches('\n').count() + 1;
        let column = at - text[..at].rfind('\n').map_or(0, |i| i + 1);
        field_at(text, line, column)
    }

    #[test]
    fn names_keys_and_indices_on_the_way() {
        let text = r#"{"version": 1, "funcs": [{"name": "f"}, {"name": "g", "bogus": 1}]}"#;
        assert_eq!(field_after(text, r#""bogus""#), "funcs[1].bogus");
        assert_eq!(field_after(text, r#""g""#), "funcs[1].name");
        assert_eq!(field_after(text, r#""version": 1"#), "version");
        let nested = "{\n \"fresh_names\": {\n  \"chars\": {\"t\": \"x\"}\n }\n}";
        assert_eq!(field_after(nested, r#""x""#), "fresh_names.chars.t");
        // After the end of an object: the object itself (serde_json's place for a
        // missing field).
        assert_eq!(field_after(text, r#""f"}"#), "funcs[0]");
        assert_eq!(field_after(r#"{"a": [[1, 2], [3, true]]}"#, "true"), "a[1][1]");
        assert_eq!(field_after(r#"{"a\"b": {"c": 1}}"#, "1"), "a\"b.c");
    }

    #[test]
    fn errors_name_the_field_serde_json_was_reading() {
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Inner {
            name: String,
            #[serde(default)]
            args: Vec<String>,
        }
        #[derive(Debug, serde::Deserialize)]
        #[serde(deny_unknown_fields)]
        #[allow(dead_code)]
        struct Doc {
            funcs: Vec<Inner>,
        }
        let field = |text: &str| read_json::<Doc>(text).expect_err("rejected").field;
        assert_eq!(field(r#"{"funcs": [{"name": "f", "bogus": 1}]}"#), "funcs[0].bogus");
        assert_eq!(
            field(r#"{"funcs": [{"name": "f"}, {"name": "g", "args": ["x", 3]}]}"#),
            "funcs[1].args[1]"
        );
        assert_eq!(field("{\"funcs\": [\n  {\"args\": []}\n]}"), "funcs[0]");
        assert_eq!(field(r#"{"funcs": [{"name": "f", "args": [{"x": 1}]}]}"#), "funcs[0].args[0]");
        assert_eq!(field(r#"{"funcs": [{"name": "f", "args": "x"}]}"#), "funcs[0].args");
        assert_eq!(field(r#"{"funcs": 3}"#), "funcs");
        assert_eq!(field(r#"{"bogus": 3}"#), "bogus");
        assert_eq!(field(r#"{"funcs": ["#), "");
    }
}
