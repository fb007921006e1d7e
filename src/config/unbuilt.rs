//! THE LIST OF MECHANISMS THAT ARE NOT BUILT YET.
//!
//! A configuration may select them (they validate, and presets keep them off), but
//! `Config::check_supported` refuses to run one, so a switch is never silently ignored.
//! When a session builds one of them, it deletes its line here (and the test that expects the
//! refusal). Nothing else needs to change.

use super::cache_string::{AllocPolicy, CacheSpec, MshrKind, SetIndex};
use super::{Config, ConfigError, ConstModel, ICacheModel, NotBuilt};

/// A switch value that selects an unbuilt mechanism.
struct Unbuilt {
    /// The key that selects it.
    key: &'static str,
    /// What it is, for the message.
    what: &'static str,
    /// The selecting value as text, when `config` selects it.
    selected: fn(&Config) -> Option<String>,
}

/// Switches and enum values whose mechanism is not built. Shrink this list. (Empty since
/// unified local memory was built, issue 16; a new unbuilt switch goes here, e.g.
/// `Unbuilt { key: "x.enabled", what: "...", selected: |c| c.x.enabled.then(|| "true".into()) }`.)
const UNBUILT: &[Unbuilt] = &[];

/// Does a parsed cache string use a given letter?
type UsesLetter = fn(&CacheSpec) -> bool;

/// Cache-string letters GPGPU-Sim accepts that warpstep does not model. Shrink this list too.
const UNBUILT_LETTERS: &[(&str, UsesLetter)] = &[
    ("set index function P (IPOLY hash)", |s| {
        s.set_index == SetIndex::Ipoly
    }),
    ("set index function C (custom)", |s| {
        s.set_index == SetIndex::Custom
    }),
    ("set index function X (bitwise XOR)", |s| {
        s.set_index == SetIndex::BitwiseXor
    }),
    ("MSHR type F (texture FIFO)", |s| {
        s.mshr == MshrKind::TexFifo
    }),
    ("MSHR type T (sector texture FIFO)", |s| {
        s.mshr == MshrKind::SectorTexFifo
    }),
    ("allocation policy s (streaming)", |s| {
        s.alloc == AllocPolicy::Streaming
    }),
];

/// The cache strings a run uses, with their keys.
fn used_caches(c: &Config) -> Vec<(&'static str, &str)> {
    let mut used = vec![
        ("l1d.config", c.l1d.config.as_str()),
        ("l1d.texture_cache", c.l1d.texture_cache.as_str()),
        ("l2.config", c.l2.config.as_str()),
    ];
    if c.core.icache.model == ICacheModel::Cache {
        used.push(("core.icache.config", c.core.icache.config.as_str()));
    }
    if c.constant.model == ConstModel::Cache {
        used.push(("constant.cache", c.constant.cache.as_str()));
    }
    used
}

fn unbuilt_letters(c: &Config) -> Vec<NotBuilt> {
    let mut found = Vec::new();
    for (key, text) in used_caches(c) {
        let Ok(Some(spec)) = super::cache_string::parse_optional(text) else {
            continue;
        };
        for (what, selected) in UNBUILT_LETTERS {
            if selected(&spec) {
                let (key, value, what) = (key.to_string(), text.to_string(), what.to_string());
                found.push(NotBuilt { key, value, what });
            }
        }
    }
    found
}

/// Every unbuilt mechanism `config` selects, in list order.
pub(super) fn not_built(config: &Config) -> Vec<NotBuilt> {
    let switches = UNBUILT.iter().filter_map(|u| {
        (u.selected)(config).map(|value| NotBuilt {
            key: u.key.to_string(),
            value,
            what: u.what.to_string(),
        })
    });
    switches.chain(unbuilt_letters(config)).collect()
}

/// `Err(ConfigError::NotBuilt)` listing everything selected but not built.
pub(super) fn check(config: &Config) -> Result<(), ConfigError> {
    let list = not_built(config);
    if list.is_empty() {
        Ok(())
    } else {
        Err(ConfigError::NotBuilt(list))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_switch_in_the_list_is_refused_with_its_message() {
        let sets: &[(&str, &str)] = &[];
        assert_eq!(sets.len(), UNBUILT.len());
        for (set, want) in sets {
            let c = Config::default().with_overrides(&[set]).unwrap();
            let msg = c.check_supported().unwrap_err().to_string();
            assert!(msg.starts_with(want), "{set}: {msg}");
            assert!(msg.ends_with("is not built yet"), "{msg}");
        }
    }

    #[test]
    fn unmodelled_cache_letters_are_refused() {
        let c = Config::default()
            .with_overrides(&["l1d.config=N:32:128:4,L:L:m:N:P,S:64:8,8"])
            .unwrap();
        let msg = c.check_supported().unwrap_err().to_string();
        assert!(msg.starts_with("l1d.config = N:32:128:4,L:L:m:N:P,S:64:8,8: set index function P"));
    }

    #[test]
    fn several_are_listed_one_per_line() {
        let c = Config::default()
            .with_overrides(&[
                "l1d.config=N:32:128:4,L:L:m:N:X,S:64:8,8",
                "l2.config=N:32:128:4,L:L:m:N:P,S:64:8,8",
            ])
            .unwrap();
        let msg = c.check_supported().unwrap_err().to_string();
        assert_eq!(msg.lines().count(), 2);
    }
}
