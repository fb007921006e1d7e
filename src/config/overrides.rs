//! JSON documents and `--set` overrides: key checking against the configuration's own key tree,
//! preset overlay with recursive merge, typed deserialisation with the full key path in errors.

use super::{presets, Config, ConfigError};
use serde_json::{Map, Value};

/// The key that names a file's base preset; only allowed at the top of a document.
const PRESET_KEY: &str = "preset";

fn join(path: &str, key: &str) -> String {
    if path.is_empty() {
        key.to_string()
    } else {
        format!("{path}.{key}")
    }
}

/// A config as a JSON value. Every key is always present (no field is skipped when
/// serialising), so this is also the tree of valid keys.
pub(super) fn to_value(config: &Config) -> Value {
    serde_json::to_value(config).unwrap_or(Value::Null)
}

/// The keys of one level, sorted (whatever map order serde_json was built with).
fn sorted_keys(level: &Map<String, Value>) -> Vec<String> {
    let mut keys: Vec<String> = level.keys().cloned().collect();
    keys.sort();
    keys
}

fn unknown_key(key: String, level: &Map<String, Value>) -> ConfigError {
    let valid = sorted_keys(level);
    ConfigError::UnknownKey { key, valid }
}

/// Rejects any key of `value` that `reference` (a full config tree) does not have.
fn check_keys(value: &Value, reference: &Value, path: &str) -> Result<(), ConfigError> {
    let (Value::Object(map), Value::Object(level)) = (value, reference) else {
        return Ok(());
    };
    for (key, child) in map {
        let full = join(path, key);
        match level.get(key) {
            Some(reference_child) => check_keys(child, reference_child, &full)?,
            None => return Err(unknown_key(full, level)),
        }
    }
    Ok(())
}

/// Overlays `overlay` on `base`: objects merge key by key, anything else replaces.
fn merge(base: &mut Value, overlay: Value) {
    match (base, overlay) {
        (Value::Object(base_map), Value::Object(overlay_map)) => {
            for (key, value) in overlay_map {
                match base_map.get_mut(&key) {
                    Some(slot) => merge(slot, value),
                    None => {
                        base_map.insert(key, value);
                    }
                }
            }
        }
        (slot, value) => *slot = value,
    }
}

/// Deserialises a full tree into a [`Config`]; errors carry the key path.
pub(super) fn deserialize(value: Value) -> Result<Config, ConfigError> {
    serde_path_to_error::deserialize(value).map_err(|e| {
        let path = e.path().to_string();
        let key = if path == "." { String::new() } else { path };
        ConfigError::Type {
            key,
            message: e.into_inner().to_string(),
        }
    })
}

/// Removes and resolves the `"preset"` key of a document, if present.
fn take_preset(map: &mut Map<String, Value>) -> Result<Option<Config>, ConfigError> {
    match map.remove(PRESET_KEY) {
        None => Ok(None),
        Some(Value::String(name)) => presets::by_name(&name).map(Some),
        Some(other) => Err(ConfigError::Type {
            key: PRESET_KEY.to_string(),
            message: format!("must be a preset name (a string), found {other}"),
        }),
    }
}

/// A JSON document (complete, or partial over `"preset"`) to a config, not yet range-checked.
pub(super) fn resolve_document(value: Value) -> Result<Config, ConfigError> {
    let Value::Object(mut map) = value else {
        return Err(ConfigError::Type {
            key: String::new(),
            message: "a configuration must be a JSON object".to_string(),
        });
    };
    let base = take_preset(&mut map)?;
    let reference = to_value(&Config::default());
    let document = Value::Object(map);
    check_keys(&document, &reference, "")?;
    match base {
        Some(base) => {
            let mut tree = to_value(&base);
            merge(&mut tree, document);
            deserialize(tree)
        }
        None => deserialize(document).map_err(missing_key_hint),
    }
}

/// A document without `"preset"` must be complete; say so when a key is missing.
fn missing_key_hint(error: ConfigError) -> ConfigError {
    match error {
        ConfigError::Type { key, message } if message.starts_with("missing field") => {
            let message = format!(
                "{message} (a file without \"{PRESET_KEY}\" must give every key; \
                 add \"{PRESET_KEY}\": \"NAME\" to start from a preset)"
            );
            ConfigError::Type { key, message }
        }
        other => other,
    }
}

/// Splits `a.b.c=value` into its key segments and raw value.
fn split_override(arg: &str) -> Result<(Vec<&str>, &str), ConfigError> {
    let bad = |message: &str| ConfigError::BadOverride {
        arg: arg.to_string(),
        message: message.to_string(),
    };
    let (key, raw) = arg
        .split_once('=')
        .ok_or_else(|| bad("expected KEY=VALUE"))?;
    let segments: Vec<&str> = key.trim().split('.').collect();
    if segments.iter().any(|s| s.is_empty()) {
        return Err(bad("the key has an empty part; write it as section.key"));
    }
    Ok((segments, raw))
}

/// The new value for a leaf: a string field takes the text as is (unless it is a quoted JSON
/// string); any other field takes the text as JSON when it parses, else as a string.
fn leaf_value(current: &Value, raw: &str) -> Value {
    let parsed = serde_json::from_str::<Value>(raw.trim());
    match (current, parsed) {
        (Value::String(_), Ok(Value::String(s))) => Value::String(s),
        (Value::String(_), _) => Value::String(raw.to_string()),
        (_, Ok(v)) => v,
        (_, Err(_)) => Value::String(raw.to_string()),
    }
}

/// Walks `segments` down `tree`, returning the leaf slot and its full key.
fn find_leaf<'a>(
    tree: &'a mut Value,
    segments: &[&str],
) -> Result<(&'a mut Value, String), ConfigError> {
    let mut node = tree;
    let mut path = String::new();
    for segment in segments {
        let parent = path.clone();
        path = join(&path, segment);
        let Value::Object(map) = node else {
            return Err(ConfigError::Invalid {
                key: parent,
                message: format!("is a value, not a section, so it has no key `{segment}`"),
            });
        };
        if !map.contains_key(*segment) {
            return Err(unknown_key(path, map));
        }
        node = map.get_mut(*segment).ok_or_else(|| ConfigError::Invalid {
            key: path.clone(),
            message: "disappeared while being set".to_string(),
        })?;
    }
    Ok((node, path))
}

/// Applies one `key=value` to a config tree.
fn apply_one(tree: &mut Value, arg: &str) -> Result<(), ConfigError> {
    let (segments, raw) = split_override(arg)?;
    let (slot, key) = find_leaf(tree, &segments)?;
    if let Value::Object(section) = slot {
        let keys = sorted_keys(section);
        return Err(ConfigError::Invalid {
            key,
            message: format!("is a section; set one of its keys: {}", keys.join(", ")),
        });
    }
    *slot = leaf_value(slot, raw);
    Ok(())
}

/// `config` with every override applied in order (not yet range-checked).
pub(super) fn apply<S: AsRef<str>>(config: &Config, sets: &[S]) -> Result<Config, ConfigError> {
    let mut tree = to_value(config);
    for arg in sets {
        apply_one(&mut tree, arg.as_ref())?;
    }
    deserialize(tree)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    #[test]
    fn merge_is_recursive() {
        let mut base = json!({"a": {"x": 1, "y": 2}, "b": 3});
        merge(&mut base, json!({"a": {"y": 5}}));
        assert_eq!(base, json!({"a": {"x": 1, "y": 5}, "b": 3}));
    }

    #[test]
    fn leaf_values_follow_the_field_type() {
        let s = json!("mod");
        assert_eq!(leaf_value(&s, "bvxor:2,8,7"), json!("bvxor:2,8,7"));
        assert_eq!(leaf_value(&s, "1"), json!("1"));
        assert_eq!(leaf_value(&s, "\"quoted\""), json!("quoted"));
        let n = json!(32);
        assert_eq!(leaf_value(&n, "16"), json!(16));
        assert_eq!(leaf_value(&n, "lrr"), json!("lrr"));
        assert_eq!(leaf_value(&Value::Null, "null"), Value::Null);
        assert_eq!(leaf_value(&json!(false), "true"), json!(true));
    }

    #[test]
    fn split_rejects_malformed_arguments() {
        assert!(matches!(
            split_override("core.warp_size"),
            Err(ConfigError::BadOverride { .. })
        ));
        assert!(matches!(
            split_override("core..x=1"),
            Err(ConfigError::BadOverride { .. })
        ));
        assert!(matches!(
            split_override("=1"),
            Err(ConfigError::BadOverride { .. })
        ));
        assert_eq!(split_override("a.b=c=d").unwrap(), (vec!["a", "b"], "c=d"));
    }

    #[test]
    fn setting_below_a_value_is_refused() {
        let err = apply(&Config::default(), &["core.warp_size.x=1"]).unwrap_err();
        assert_eq!(err.key(), Some("core.warp_size"));
    }
}
