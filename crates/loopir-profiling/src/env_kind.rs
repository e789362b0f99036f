//! Telling the project's environment files apart, so that a reader handed the wrong one
//! can say which one it was given instead of only naming the first field it did not know.

use serde_json::Value;

/// The environment files of the passes.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum EnvKind {
    /// `profile.env.json`: `{"pipeline", "funcs": [{"name", "display_name", "profile"}]}`.
    Profile,
    /// `trace.env.json`: `{"pipeline", "target": {"trace_*"}, "funcs": [...], "outputs",
    /// "images", "order", ...}`.
    Trace,
    /// `bounds.env.json`: `{"order", "target": {"profile"}, "outputs": [{"func", ...}],
    /// "funcs": {name: {...}}, ...}`.
    Bounds,
}

impl EnvKind {
    fn file(self) -> &'static str {
        match self {
            EnvKind::Profile => "a profiling environment (profile.env.json)",
            EnvKind::Trace => "a trace environment (trace.env.json)",
            EnvKind::Bounds => "a bounds environment (bounds.env.json)",
        }
    }

    /// The sentence to add to a reading error of an environment of kind `self` when the
    /// text looks like an environment of another kind.
    pub(crate) fn hint(self, text: &str) -> String {
        match guess(text) {
            Some(other) if other != self => {
                format!(" (this looks like {}, not {})", other.file(), self.file())
            }
            _ => String::new(),
        }
    }
}

/// Which environment `text` looks like, judged by the fields only one kind has; `None`
/// when it is not a JSON object or nothing gives it away.
pub(crate) fn guess(text: &str) -> Option<EnvKind> {
    let value: Value = serde_json::from_str(text).ok()?;
    let top = value.as_object()?;
    let target_has =
        |key: &str| top.get("target").and_then(Value::as_object).is_some_and(|t| t.contains_key(key));
    let func_entries: Vec<&serde_json::Map<String, Value>> = match top.get("funcs") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_object).collect(),
        _ => Vec::new(),
    };
    let some_func_has = |keys: &[&str]| func_entries.iter().any(|f| keys.iter().any(|k| f.contains_key(*k)));
    let outputs_have = |key: &str| match top.get("outputs") {
        Some(Value::Array(list)) => list.iter().filter_map(Value::as_object).any(|o| o.contains_key(key)),
        _ => false,
    };
    if matches!(top.get("funcs"), Some(Value::Object(_))) || target_has("profile") || outputs_have("func") {
        return Some(EnvKind::Bounds);
    }
    let trace_only = ["trace_pipeline", "target", "outputs", "images", "order"];
    if trace_only.iter().any(|k| top.contains_key(*k))
        || some_func_has(&["trace_loads", "trace_stores", "trace_realizations", "args", "tags", "types"])
    {
        return Some(EnvKind::Trace);
    }
    if some_func_has(&["display_name", "profile"]) {
        return Some(EnvKind::Profile);
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tells_the_oracle_schemas_apart() {
        let profile = r#"{"pipeline": "out", "funcs": [{"name": "d", "display_name": "d.in(e)"}]}"#;
        let trace = r#"{"pipeline": "out", "target": {"trace_loads": true}, "funcs": [], "outputs": []}"#;
        let bounds = r#"{"order": ["f"], "target": {"profile": false}, "outputs": [{"func": "f", "buffer": "f"}],
                         "funcs": {"f": {"types": ["int32"]}}}"#;
        assert_eq!(guess(profile), Some(EnvKind::Profile));
        assert_eq!(guess(trace), Some(EnvKind::Trace));
        assert_eq!(guess(bounds), Some(EnvKind::Bounds));
        assert_eq!(guess(r#"{"pipeline": "p", "funcs": [{"name": "f"}]}"#), None);
        assert_eq!(guess("not json"), None);
        assert!(EnvKind::Profile.hint(trace).contains("trace environment (trace.env.json)"));
        assert_eq!(EnvKind::Trace.hint(trace), "");
    }
}
