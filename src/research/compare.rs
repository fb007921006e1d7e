//! Side by side (issue 17): the same kernel under two configurations, counter by counter
//! (`warpstep compare A B FILE`). A run's [`Report`] is flattened into its numeric counters by
//! dotted key (`cycles`, `simt.simd_efficiency`, `stalls.long_scoreboard`, `l1d.misses`, ...),
//! and the two runs' counters are put next to each other; the outputs (every buffer argument)
//! are compared byte for byte. The app's A/B mode shows the same pairing, as JSON
//! ([`diff_json`]), for two sessions stepped in lockstep.

use crate::run::Report;
use serde::Serialize;
use serde_json::Value;
use std::collections::BTreeMap;

/// The counters shown whether or not they differ, in this order.
pub const HEADLINE: [&str; 6] = [
    "cycles",
    "warp_instructions",
    "thread_instructions",
    "ipc",
    "simt.simd_efficiency",
    "energy.total_pj",
];

/// One counter of both runs (`None` where a run does not report it).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterPair {
    pub key: String,
    pub a: Option<f64>,
    pub b: Option<f64>,
}

impl CounterPair {
    /// Whether the two runs disagree.
    pub fn differs(&self) -> bool {
        self.a != self.b
    }

    /// b / a, when both exist and a is not zero.
    pub fn ratio(&self) -> Option<f64> {
        match (self.a, self.b) {
            (Some(a), Some(b)) if a != 0.0 => Some(b / a),
            _ => None,
        }
    }
}

/// Every numeric leaf of `report` by dotted key (buffers left out: they are outputs).
pub fn counters(report: &Report) -> BTreeMap<String, f64> {
    let mut out = BTreeMap::new();
    if let Ok(Value::Object(map)) = serde_json::to_value(report) {
        for (k, v) in map {
            if k != "buffers" {
                leaves(&k, &v, &mut out);
            }
        }
    }
    out
}

fn leaves(key: &str, v: &Value, out: &mut BTreeMap<String, f64>) {
    match v {
        Value::Number(n) => {
            if let Some(x) = n.as_f64() {
                out.insert(key.to_string(), x);
            }
        }
        Value::Bool(b) => {
            out.insert(key.to_string(), f64::from(u8::from(*b)));
        }
        Value::Object(map) => {
            for (k, v) in map {
                leaves(&format!("{key}.{k}"), v, out);
            }
        }
        Value::Array(items) => {
            for (i, v) in items.iter().enumerate() {
                leaves(&format!("{key}.{i}"), v, out);
            }
        }
        Value::Null | Value::String(_) => {}
    }
}

/// The two runs' counters: the [`HEADLINE`] ones first, then every other key (sorted) that
/// differs, or every key when `all`.
pub fn pair_counters(a: &Report, b: &Report, all: bool) -> Vec<CounterPair> {
    let (ca, cb) = (counters(a), counters(b));
    let pair = |key: &str| CounterPair {
        key: key.to_string(),
        a: ca.get(key).copied(),
        b: cb.get(key).copied(),
    };
    let mut out: Vec<CounterPair> = HEADLINE
        .iter()
        .filter(|k| ca.contains_key(**k) || cb.contains_key(**k))
        .map(|k| pair(k))
        .collect();
    let mut keys: Vec<&String> = ca.keys().chain(cb.keys()).collect();
    keys.sort();
    keys.dedup();
    for key in keys {
        if HEADLINE.contains(&key.as_str()) {
            continue;
        }
        let p = pair(key);
        if all || p.differs() {
            out.push(p);
        }
    }
    out
}

/// One row of the A/B table as the app shows it: the pair, B / A and whether they differ.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct CounterRow {
    /// Dotted counter key, e.g. `shared.bank_conflict_cycles`.
    pub key: String,
    /// Run A's value (`None`: A does not report it).
    pub a: Option<f64>,
    /// Run B's value.
    pub b: Option<f64>,
    /// b / a ([`CounterPair::ratio`]).
    pub ratio: Option<f64>,
    /// Whether the two values differ ([`CounterPair::differs`]).
    pub differs: bool,
}

impl From<CounterPair> for CounterRow {
    fn from(p: CounterPair) -> Self {
        CounterRow {
            ratio: p.ratio(),
            differs: p.differs(),
            key: p.key,
            a: p.a,
            b: p.b,
        }
    }
}

/// The two runs' counters as [`pair_counters`] orders them, as JSON for the app:
/// `{counters: [{key, a, b, ratio, differs}], differing: N}` (N counts the rows that differ,
/// headline ones included; `all` keeps every counter).
pub fn diff_json(a: &Report, b: &Report, all: bool) -> Value {
    let rows: Vec<CounterRow> = pair_counters(a, b, all)
        .into_iter()
        .map(CounterRow::from)
        .collect();
    let differing = rows.iter().filter(|r| r.differs).count();
    serde_json::json!({ "counters": rows, "differing": differing })
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::test_launches::{prepare, TRANSPOSE_NAIVE};

    fn report(sets: &[&str]) -> Report {
        let mut sim = prepare(TRANSPOSE_NAIVE, sets).into_sim(&[]).unwrap();
        sim.run(10_000_000);
        crate::run::timing_report(&sim, &[])
    }

    #[test]
    fn the_xor_hash_removes_the_transposes_bank_conflicts() {
        let (a, b) = (
            report(&[]),
            report(&["shmem.hash=bwxor:0^5,1^6,2^7,3^8,4^9"]),
        );
        let pairs = pair_counters(&a, &b, false);
        let keys: Vec<&str> = pairs.iter().map(|p| p.key.as_str()).collect();
        assert_eq!(&keys[..4], &HEADLINE[..4]);
        let conflicts = pairs
            .iter()
            .find(|p| p.key == "shared.bank_conflict_cycles")
            .expect("the conflict counter differs");
        assert!(conflicts.a.unwrap() > 0.0);
        assert_eq!(conflicts.b, Some(0.0));
        let cycles = &pairs[0];
        assert!(cycles.ratio().unwrap() < 1.0, "{cycles:?}");
        // Only differing counters beyond the headline; every counter with `all`.
        assert!(pairs[HEADLINE.len() - 1..]
            .iter()
            .skip(1)
            .all(CounterPair::differs));
        assert!(pair_counters(&a, &b, true).len() > pairs.len());
        // The same configuration twice: nothing differs.
        let same = pair_counters(&a, &a, false);
        assert!(same.iter().all(|p| !p.differs()));
        assert_eq!(
            same.len(),
            HEADLINE
                .iter()
                .filter(|k| counters(&a).contains_key(**k))
                .count()
        );
    }

    #[test]
    fn the_json_table_carries_the_ratio_and_which_rows_differ() {
        let (a, b) = (
            report(&[]),
            report(&["shmem.hash=bwxor:0^5,1^6,2^7,3^8,4^9"]),
        );
        let json = diff_json(&a, &b, false);
        let rows = json["counters"].as_array().unwrap();
        let pairs = pair_counters(&a, &b, false);
        assert_eq!(rows.len(), pairs.len());
        let row = rows
            .iter()
            .find(|r| r["key"] == "shared.bank_conflict_cycles")
            .unwrap();
        let ca = counters(&a)["shared.bank_conflict_cycles"];
        assert_eq!(row["a"].as_f64(), Some(ca));
        assert_eq!(row["b"].as_f64(), Some(0.0));
        assert_eq!(row["ratio"].as_f64(), Some(0.0));
        assert_eq!(row["differs"], true);
        let cycles = &rows[0];
        assert_eq!(cycles["key"], "cycles");
        assert_eq!(
            cycles["ratio"].as_f64().unwrap(),
            b.cycles as f64 / a.cycles as f64
        );
        let differing = rows.iter().filter(|r| r["differs"] == true).count();
        assert_eq!(json["differing"].as_u64(), Some(differing as u64));
        // Every counter with `all`; nothing differs against itself.
        let every = diff_json(&a, &b, true);
        assert!(every["counters"].as_array().unwrap().len() > rows.len());
        let same = diff_json(&a, &a, true);
        assert_eq!(same["differing"].as_u64(), Some(0));
        assert!(same["counters"]
            .as_array()
            .unwrap()
            .iter()
            .all(|r| r["differs"] == false && r["ratio"].as_f64().map_or(true, |x| x == 1.0)));
    }
}
