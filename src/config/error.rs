//! [`ConfigError`]: every way a configuration can be refused, each naming the key at fault.

use super::cache_string::CacheStringError;
use std::fmt;

/// One selected mechanism that is not built yet (see `unbuilt.rs`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct NotBuilt {
    /// The key that selects it, e.g. `elastic.enabled`.
    pub key: String,
    /// The value that selects it, e.g. `true`.
    pub value: String,
    /// What it is, e.g. "the elastic pipeline (MODEL.md section 8)".
    pub what: String,
}

/// Why a configuration was refused. `Display` gives a one-line message (several lines for
/// [`ConfigError::NotBuilt`]) that starts with the full key path where there is one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum ConfigError {
    /// The text is not JSON.
    Syntax {
        /// serde_json's message, with line and column.
        message: String,
    },
    /// A value of the wrong type, an unknown enum value, or a missing key.
    Type {
        /// Full key path (`core.scheduler`); empty for the whole document.
        key: String,
        /// serde's message, e.g. "unknown variant `x`, expected one of `lrr`, `gto`".
        message: String,
    },
    /// A key the configuration does not have.
    UnknownKey {
        /// Full key path of the unknown key.
        key: String,
        /// The keys that do exist at that level, sorted.
        valid: Vec<String>,
    },
    /// A number outside its allowed range.
    OutOfRange {
        /// Full key path.
        key: String,
        /// The value found, as JSON.
        value: String,
        /// The rule, e.g. "must be a power of two in 1..=64".
        allowed: String,
    },
    /// Values that do not fit together, or a string that is not acceptable.
    Invalid {
        /// Full key path of the value at fault.
        key: String,
        /// What is wrong.
        message: String,
    },
    /// A GPGPU-Sim cache string that does not parse.
    CacheString {
        /// Full key path, e.g. `l1d.config`.
        key: String,
        /// The field at fault.
        error: CacheStringError,
    },
    /// A `--set` argument that is not `key=value`.
    BadOverride {
        /// The argument as given.
        arg: String,
        /// What is wrong with it.
        message: String,
    },
    /// A preset name that does not exist.
    UnknownPreset {
        /// The name asked for.
        name: String,
        /// The preset names that exist.
        valid: Vec<String>,
    },
    /// Selected mechanisms that are not built yet, in the order of the unbuilt list.
    NotBuilt(Vec<NotBuilt>),
}

impl ConfigError {
    /// The full key path the error is about, if it is about one key.
    pub fn key(&self) -> Option<&str> {
        match self {
            ConfigError::Type { key, .. }
            | ConfigError::UnknownKey { key, .. }
            | ConfigError::OutOfRange { key, .. }
            | ConfigError::Invalid { key, .. }
            | ConfigError::CacheString { key, .. } => Some(key),
            ConfigError::NotBuilt(list) => list.first().map(|n| n.key.as_str()),
            _ => None,
        }
    }
}

fn level_name(key: &str) -> String {
    match key.rfind('.') {
        Some(dot) => format!("in `{}`", &key[..dot]),
        None => "at the top level".to_string(),
    }
}

impl fmt::Display for ConfigError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ConfigError::Syntax { message } => write!(f, "not valid JSON: {message}"),
            ConfigError::Type { key, message } if key.is_empty() => f.write_str(message),
            ConfigError::Type { key, message } => write!(f, "{key}: {message}"),
            ConfigError::UnknownKey { key, valid } => write!(
                f,
                "{key}: unknown key; valid keys {}: {}",
                level_name(key),
                valid.join(", ")
            ),
            ConfigError::OutOfRange {
                key,
                value,
                allowed,
            } => {
                write!(f, "{key} = {value}: {allowed}")
            }
            ConfigError::Invalid { key, message } => write!(f, "{key}: {message}"),
            ConfigError::CacheString { key, error } => write!(f, "{key}: {error}"),
            ConfigError::BadOverride { arg, message } => write!(f, "--set {arg}: {message}"),
            ConfigError::UnknownPreset { name, valid } => {
                write!(f, "unknown preset `{name}`; presets: {}", valid.join(", "))
            }
            ConfigError::NotBuilt(list) => {
                let lines: Vec<String> = list
                    .iter()
                    .map(|n| format!("{} = {}: {} is not built yet", n.key, n.value, n.what))
                    .collect();
                f.write_str(&lines.join("\n"))
            }
        }
    }
}

impl std::error::Error for ConfigError {}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn unknown_key_names_its_level() {
        let e = ConfigError::UnknownKey {
            key: "core.warp_sise".into(),
            valid: vec!["simd_width".into(), "warp_size".into()],
        };
        assert_eq!(
            e.to_string(),
            "core.warp_sise: unknown key; valid keys in `core`: simd_width, warp_size"
        );
        let top = ConfigError::UnknownKey {
            key: "cores".into(),
            valid: vec!["core".into()],
        };
        assert_eq!(
            top.to_string(),
            "cores: unknown key; valid keys at the top level: core"
        );
    }

    #[test]
    fn out_of_range_reads_like_the_issue() {
        let e = ConfigError::OutOfRange {
            key: "core.warp_size".into(),
            value: "33".into(),
            allowed: "must be a power of two in 1..=64".into(),
        };
        assert_eq!(
            e.to_string(),
            "core.warp_size = 33: must be a power of two in 1..=64"
        );
        assert_eq!(e.key(), Some("core.warp_size"));
    }
}
