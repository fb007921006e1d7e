//! Sweeps past one machine (issue 32 §5): an experiment's plan split into `N` shards, each run
//! on its own (`warpstep experiment <name> --shard I/N`) and written as a [`Part`], and the parts
//! joined again (`warpstep experiment merge`) into the runs' records in plan order, from which
//! the experiment's report is built exactly as a single run builds it.
//!
//! The split is run `k` (0-based plan index) to shard `k mod N`; shards are numbered 1 to `N`
//! on the command line ([`Shard`]). A part names its experiment and its [`Options`] (the
//! selection and size that fix the plan), the split, the plan's length, and for each run its
//! plan index, its title (the run key) and its record: the per-run result the report reads
//! (an [`Outcome`](super::Outcome) for `mrpb` and `elastic`, a
//! [`unified::Measured`](super::unified::Measured) for `unified`, an
//! [`xor::Measured`](super::xor::Measured) for `xor`, whose plan each shard rebuilds by training
//! again). [`join`] refuses parts of
//! another experiment, other options or another split, runs given twice, runs the plan does
//! not have and runs no part has, naming the file.
//!
//! Floating-point numbers in a record are written as `{"$f64": "<shortest decimal>"}` and read
//! back with Rust's correctly rounded parser, so that a merged report is byte for byte the
//! single run's (serde_json's default float parsing may be one unit in the last place off).

use super::Machine;
use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Number, Value};
use std::fmt;

/// The format version a part carries; [`join`] refuses others.
pub const FORMAT: u32 = 1;

/// The key an exactly written float is kept under.
const F64_KEY: &str = "$f64";

/// One shard of a split: `index` of `count`, both 1-based as `--shard I/N` writes them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct Shard {
    pub index: usize,
    pub count: usize,
}

impl Shard {
    /// Parses `I/N` with `1 <= I <= N`.
    pub fn parse(text: &str) -> Result<Shard, String> {
        let bad = || format!("--shard {text}: expected I/N with 1 <= I <= N (e.g. 2/8)");
        let (i, n) = text.split_once('/').ok_or_else(bad)?;
        let index: usize = i.trim().parse().map_err(|_| bad())?;
        let count: usize = n.trim().parse().map_err(|_| bad())?;
        if count == 0 || index == 0 || index > count {
            return Err(bad());
        }
        Ok(Shard { index, count })
    }

    /// The plan indices (0-based) of a plan of `runs` runs this shard runs: `k` with
    /// `k mod count == index - 1`, in plan order.
    pub fn pick(&self, runs: usize) -> Vec<usize> {
        (self.index - 1..runs).step_by(self.count).collect()
    }
}

impl fmt::Display for Shard {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}/{}", self.index, self.count)
    }
}

/// What fixes an experiment's plan: its name, the names it was restricted to (cases, kernels
/// or workloads, as selected; empty for all) and whether it ran `--quick`.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Options {
    pub experiment: String,
    pub selection: Vec<String>,
    pub quick: bool,
    /// The paper's machine or the one-SM ablation (`--one-sm`).
    #[serde(default)]
    pub machine: Machine,
    /// The window each run was sampled over (`--sample`), if any.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    pub sample: Option<u64>,
}

impl Options {
    /// These options on `machine`.
    pub fn on(self, machine: Machine) -> Options {
        Options { machine, ..self }
    }

    /// These options with each run sampled over `sample` cycles.
    pub fn sampled(self, sample: Option<u64>) -> Options {
        Options { sample, ..self }
    }
}

impl fmt::Display for Options {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{}", self.experiment)?;
        for name in &self.selection {
            write!(f, " {name}")?;
        }
        if self.quick {
            write!(f, " --quick")?;
        }
        if self.machine == Machine::OneSm {
            write!(f, " --one-sm")?;
        }
        if let Some(window) = self.sample {
            write!(f, " --sample {window}")?;
        }
        Ok(())
    }
}

/// One run's result in a part: its plan index (0-based), its title and its record (floats
/// written exactly, see the module's doc).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct PartRun {
    pub index: usize,
    pub run: String,
    pub record: Value,
}

/// The file one shard writes: what it belongs to and the runs it ran.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
pub struct Part {
    pub format: u32,
    pub warpstep_version: String,
    pub options: Options,
    pub shard: Shard,
    /// Runs in the whole plan.
    pub plan_runs: usize,
    pub runs: Vec<PartRun>,
}

impl Part {
    /// The part of `shard` of a plan whose run titles are `titles`, from the records of the
    /// runs [`Shard::pick`] chose, in that order.
    pub fn new<R: Serialize>(
        options: Options,
        shard: Shard,
        titles: &[String],
        records: &[R],
    ) -> Result<Part, String> {
        let picked = shard.pick(titles.len());
        if picked.len() != records.len() {
            return Err(format!(
                "shard {shard} has {} runs but {} records",
                picked.len(),
                records.len()
            ));
        }
        let runs = picked
            .iter()
            .zip(records)
            .map(|(&index, r)| {
                let value = serde_json::to_value(r).map_err(|e| e.to_string())?;
                Ok(PartRun {
                    index,
                    run: titles[index].clone(),
                    record: exact_floats(value),
                })
            })
            .collect::<Result<Vec<_>, String>>()?;
        Ok(Part {
            format: FORMAT,
            warpstep_version: crate::VERSION.to_string(),
            options,
            shard,
            plan_runs: titles.len(),
            runs,
        })
    }

    /// Reads a part from `text`; `Err` names `file`.
    pub fn parse(file: &str, text: &str) -> Result<Part, String> {
        let part: Part = serde_json::from_str(text)
            .map_err(|e| format!("{file}: not a warpstep experiment part: {e}"))?;
        if part.format != FORMAT {
            return Err(format!(
                "{file}: part format {} (this warpstep reads {FORMAT})",
                part.format
            ));
        }
        Ok(part)
    }
}

/// The options the parts share; `Err` names the first file whose experiment, options or split
/// differ from the first file's. `parts` pairs each file's name with its part.
pub fn options(parts: &[(String, Part)]) -> Result<Options, String> {
    let (first_file, first) = parts.first().ok_or("merge: name the part files to join")?;
    for (file, part) in &parts[1..] {
        if part.options != first.options {
            return Err(format!(
                "{file}: a part of `{}`, but {first_file} is a part of `{}`",
                part.options, first.options
            ));
        }
        if part.shard.count != first.shard.count || part.plan_runs != first.plan_runs {
            return Err(format!(
                "{file}: shard {} of a {}-run plan, but {first_file} is shard {} of a {}-run plan",
                part.shard, part.plan_runs, first.shard, first.plan_runs
            ));
        }
    }
    Ok(first.options.clone())
}

/// The records of every run of the plan whose titles are `titles`, in plan order, from
/// `parts` (each file's name and part). `Err` names the file with a run the plan does not have
/// or a run another file has too, or the first run no part has.
pub fn join<R: DeserializeOwned>(
    parts: &[(String, Part)],
    titles: &[String],
) -> Result<Vec<R>, String> {
    let mut found: Vec<Option<(&str, &Value)>> = vec![None; titles.len()];
    for (file, part) in parts {
        if part.plan_runs != titles.len() {
            return Err(format!(
                "{file}: a plan of {} runs, but these options plan {}",
                part.plan_runs,
                titles.len()
            ));
        }
        for run in &part.runs {
            let want = titles.get(run.index).ok_or_else(|| {
                format!(
                    "{file}: run {} is past the plan's {}",
                    run.index,
                    titles.len()
                )
            })?;
            if run.run != *want {
                return Err(format!(
                    "{file}: run {} is `{}`, but the plan's run {} is `{want}`",
                    run.index, run.run, run.index
                ));
            }
            if let Some((other, _)) = found[run.index] {
                return Err(format!(
                    "{file}: run {} ({want}) is also in {other}",
                    run.index
                ));
            }
            found[run.index] = Some((file, &run.record));
        }
    }
    found
        .iter()
        .enumerate()
        .map(|(index, slot)| {
            let (file, record) = slot.ok_or_else(|| {
                format!(
                    "no part has run {index} ({}) of {}: shard {} of {} is missing",
                    titles[index],
                    titles.len(),
                    index % parts[0].1.shard.count + 1,
                    parts[0].1.shard.count
                )
            })?;
            read_floats(record.clone())
                .and_then(|v| serde_json::from_value(v).map_err(|e| e.to_string()))
                .map_err(|e| format!("{file}: run {index} ({}): {e}", titles[index]))
        })
        .collect()
}

/// `value` with every float replaced by `{"$f64": "<shortest decimal>"}`.
fn exact_floats(value: Value) -> Value {
    match value {
        Value::Number(n) if n.is_f64() => {
            let f = n.as_f64().unwrap_or_default();
            let mut m = Map::new();
            m.insert(F64_KEY.to_string(), Value::String(format!("{f:?}")));
            Value::Object(m)
        }
        Value::Array(items) => Value::Array(items.into_iter().map(exact_floats).collect()),
        Value::Object(map) => {
            Value::Object(map.into_iter().map(|(k, v)| (k, exact_floats(v))).collect())
        }
        other => other,
    }
}

/// The inverse of [`exact_floats`]; `Err` on a `$f64` that is not a finite number.
fn read_floats(value: Value) -> Result<Value, String> {
    match value {
        Value::Object(map) => {
            if let (1, Some(Value::String(text))) = (map.len(), map.get(F64_KEY)) {
                let f: f64 = text
                    .parse()
                    .map_err(|_| format!("`{text}` is not a number"))?;
                return Number::from_f64(f)
                    .map(Value::Number)
                    .ok_or_else(|| format!("`{text}` is not finite"));
            }
            map.into_iter()
                .map(|(k, v)| read_floats(v).map(|v| (k, v)))
                .collect::<Result<Map<_, _>, _>>()
                .map(Value::Object)
        }
        Value::Array(items) => items
            .into_iter()
            .map(read_floats)
            .collect::<Result<Vec<_>, _>>()
            .map(Value::Array),
        other => Ok(other),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn shards_split_the_plan_by_index_mod_n() {
        assert_eq!(Shard::parse("2/3").unwrap().pick(8), vec![1, 4, 7]);
        assert_eq!(Shard::parse("3/3").unwrap().pick(2), Vec::<usize>::new());
        for bad in ["0/3", "4/3", "1/0", "x", "1/"] {
            assert!(Shard::parse(bad).is_err(), "{bad}");
        }
    }

    #[test]
    fn floats_survive_the_round_trip_exactly() {
        let values = vec![0.1 + 0.2, 1.6259803921568627, 1e-300, 123456789.0123456];
        let written = exact_floats(serde_json::to_value(&values).unwrap());
        let text = serde_json::to_string(&written).unwrap();
        let back: Vec<f64> =
            serde_json::from_value(read_floats(serde_json::from_str(&text).unwrap()).unwrap())
                .unwrap();
        assert_eq!(back, values);
    }

    #[test]
    fn an_mrpb_outcome_reads_back_as_it_was_written() {
        use crate::mem::data_cache::Contention;
        let outcome = super::super::Outcome {
            counters: super::super::Counters {
                cycles: 891_792,
                ipc: 1.6259803921568627,
                l1d_misses: 12,
                reservation_fails: 3,
                evictions_by: Contention {
                    intra_warp: 1,
                    cross_warp_intra_block: 2,
                    cross_warp_cross_block: 3,
                },
                dram_accesses: 40,
                icnt_packets: 50,
                bypassed: 6,
            },
            error: Some("deadlock".to_string()),
            wall_seconds: 0.612_345_678_901_234_5,
            sampled: Some(112_001_024),
        };
        let titles = vec!["atax_1 on tesla-c2050-s".to_string()];
        let options = Options {
            experiment: "mrpb".to_string(),
            selection: vec!["atax_1".to_string()],
            quick: false,
            machine: Machine::Paper,
            sample: Some(1_000_000),
        };
        let p = Part::new(options, Shard::parse("1/1").unwrap(), &titles, &[&outcome]).unwrap();
        let text = serde_json::to_string(&p).unwrap();
        let parts = vec![("p.json".to_string(), Part::parse("p.json", &text).unwrap())];
        let back: Vec<super::super::Outcome> = join(&parts, &titles).unwrap();
        assert_eq!(back, vec![outcome]);
    }

    fn part(file: &str, shard: &str, quick: bool) -> (String, Part) {
        let options = Options {
            experiment: "elastic".to_string(),
            selection: Vec::new(),
            quick,
            machine: Machine::Paper,
            sample: None,
        };
        let titles: Vec<String> = (0..5).map(|i| format!("run {i}")).collect();
        let shard = Shard::parse(shard).unwrap();
        let records: Vec<f64> = shard.pick(5).iter().map(|&i| i as f64 / 3.0).collect();
        let p = Part::new(options, shard, &titles, &records).unwrap();
        (file.to_string(), p)
    }

    #[test]
    fn join_puts_the_runs_back_in_plan_order_and_refuses_bad_sets() {
        let titles: Vec<String> = (0..5).map(|i| format!("run {i}")).collect();
        let parts = vec![part("b.json", "2/2", true), part("a.json", "1/2", true)];
        options(&parts).unwrap();
        let joined: Vec<f64> = join(&parts, &titles).unwrap();
        assert_eq!(joined, (0..5).map(|i| i as f64 / 3.0).collect::<Vec<_>>());
        let twice = vec![part("a.json", "1/2", true), part("c.json", "1/2", true)];
        let err = join::<f64>(&twice, &titles).unwrap_err();
        assert!(err.contains("c.json") && err.contains("a.json"), "{err}");
        let missing = vec![part("a.json", "1/2", true)];
        let err = join::<f64>(&missing, &titles).unwrap_err();
        assert!(err.contains("shard 2 of 2 is missing"), "{err}");
        let other = vec![part("a.json", "1/2", true), part("d.json", "2/2", false)];
        let err = options(&other).unwrap_err();
        assert!(
            err.starts_with("d.json:") && err.contains("--quick"),
            "{err}"
        );
    }
}
