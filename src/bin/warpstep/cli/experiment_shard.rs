//! Sweeps past one machine (issue 32 §5; `warpstep::experiment::shard`): `--shard I/N` on an
//! experiment runs part `I` of `N` of its plan (1-based; plan run `k`, counted from 0, goes to
//! shard `k mod N + 1`) and writes a part file (`--out FILE`, or stdout) instead of the report;
//! `warpstep experiment merge PART.json...` joins the parts and prints the report and plot a
//! single run with the same options prints, with the same `--json`/`--markdown`/`--plot`.
//! README.md's "Sweeps past one machine" and `scripts/sweep-*.sh` run it on a cluster.

use super::report_out::Output;
use super::{
    experiment_elastic_plot, experiment_plot, experiment_unified_plot, experiment_xor_plot,
};
use clap::Args;
use serde::Serialize;
use warpstep::experiment::shard::{self, Options, Part, Shard};
use warpstep::experiment::{elastic, mrpb, table, unified, xor, Machine, Outcome, Size};

/// `--shard I/N` and `--out FILE`, on every experiment.
#[derive(Args)]
pub struct ShardArgs {
    /// Run only shard I of N of the plan (I counts from 1: run k of the plan, counted from 0,
    /// is shard k mod N + 1) and write its results as JSON for `warpstep experiment merge`
    /// instead of the report (no --json, --markdown or --plot; merge takes them).
    #[arg(long, value_name = "I/N", value_parser = Shard::parse)]
    shard: Option<Shard>,
    /// Write the shard's JSON to FILE instead of stdout (with --shard).
    #[arg(long, value_name = "FILE", requires = "shard")]
    out: Option<String>,
}

impl ShardArgs {
    /// The shard to run, if any; `Err` when report flags come with `--shard`, or when `--out`
    /// names a file in a directory that does not exist.
    pub fn get(&self, output: &Output) -> Result<Option<Shard>, String> {
        let Some(shard) = self.shard else {
            return Ok(None);
        };
        if output.json || output.markdown || output.plot.is_some() {
            return Err(format!(
                "--shard {shard} writes the shard's results; give --json, --markdown and --plot \
                 to `warpstep experiment merge`"
            ));
        }
        if let Some(out) = &self.out {
            let dir = std::path::Path::new(out)
                .parent()
                .filter(|d| !d.as_os_str().is_empty());
            if dir.is_some_and(|d| !d.is_dir()) {
                return Err(format!("--out {out}: no such directory"));
            }
        }
        Ok(Some(shard))
    }

    /// Writes the part: `records` of the runs `shard` picked from the plan whose run titles are
    /// `titles`, to `--out` or stdout.
    pub fn write<R: Serialize>(
        &self,
        options: Options,
        shard: Shard,
        titles: &[String],
        records: &[R],
    ) -> Result<(), String> {
        let part = Part::new(options, shard, titles, records)?;
        let json = serde_json::to_string_pretty(&part).map_err(|e| e.to_string())?;
        match &self.out {
            Some(out) => std::fs::write(out, json + "\n")
                .map_err(|e| format!("--out {out}: cannot write: {e}")),
            None => {
                println!("{json}");
                Ok(())
            }
        }
    }
}

/// What a part records to name its plan: the experiment, its selection flags as given, `--quick`.
pub fn options(experiment: &str, selection: &[String], quick: bool) -> Options {
    Options {
        experiment: experiment.to_string(),
        selection: selection.to_vec(),
        quick,
        machine: Machine::Paper,
        sample: None,
    }
}

/// The items of `plan` that `shard` runs, in plan order.
pub fn picked<T: Clone>(plan: &[T], shard: Shard) -> Vec<T> {
    shard
        .pick(plan.len())
        .into_iter()
        .map(|i| plan[i].clone())
        .collect()
}

#[derive(Args)]
pub struct MergeArgs {
    /// The part files `--shard I/N --out FILE` wrote, one per shard, in any order.
    #[arg(value_name = "PART.json", required = true)]
    parts: Vec<String>,
    #[command(flatten)]
    output: Output,
}

/// Joins the parts and prints the report; `Ok(false)` when a run did not complete, `Err` on
/// bad input (a file that cannot be read, parts that do not make one plan).
pub fn merge(args: &MergeArgs) -> Result<bool, String> {
    args.output.check()?;
    let mut parts = Vec::new();
    for file in &args.parts {
        let text =
            std::fs::read_to_string(file).map_err(|e| format!("{file}: cannot read: {e}"))?;
        parts.push((file.clone(), Part::parse(file, &text)?));
    }
    let options = shard::options(&parts)?;
    let size = if options.quick {
        Size::Quick
    } else {
        Size::Full
    };
    match options.experiment.as_str() {
        "mrpb" => {
            let cases = mrpb::select(&options.selection)?;
            let runs = mrpb::plan(&cases, options.machine, options.sample)?;
            let records: Vec<Outcome> = shard::join(&parts, &titles_of(&runs, |r| r.title()))?;
            let report = mrpb::Report::of_outcomes(
                &cases,
                options.machine,
                options.sample,
                &runs,
                &records,
            )?;
            args.output.emit(
                &report,
                table::markdown,
                table::text,
                experiment_plot::write_svg,
            )?;
            Ok(report.incomplete.is_empty())
        }
        "elastic" => {
            let kernels = elastic::select(&options.selection)?;
            let runs = elastic::plan(&kernels, size, options.machine)?;
            let records: Vec<elastic::Outcome> =
                shard::join(&parts, &titles_of(&runs, |r| r.title()))?;
            let report =
                elastic::Report::of_outcomes(&kernels, size, options.machine, &runs, &records)?;
            args.output.emit(
                &report,
                table::markdown,
                table::text,
                experiment_elastic_plot::write_svg,
            )?;
            Ok(report.incomplete.is_empty())
        }
        "unified" => {
            let workloads = unified::select(&options.selection)?;
            let runs = unified::plan(&workloads, size);
            let records: Vec<unified::Measured> =
                shard::join(&parts, &titles_of(&runs, |r| r.title()))?;
            let report = unified::Report::new(&workloads, size, &runs, &records)?;
            args.output.emit(
                &report,
                table::markdown,
                table::text,
                experiment_unified_plot::write_svg,
            )?;
            Ok(report.incomplete.is_empty())
        }
        "xor" => {
            let kernels = xor::select(&options.selection)?;
            let (trainings, runs) = xor::plan(&kernels, size, options.machine)?;
            let records: Vec<xor::Measured> =
                shard::join(&parts, &titles_of(&runs, |r| r.title()))?;
            let report = xor::Report::new(&trainings, size, &runs, &records)?;
            args.output.emit(
                &report,
                table::markdown,
                table::text,
                experiment_xor_plot::write_svg,
            )?;
            Ok(report.incomplete.is_empty())
        }
        other => Err(format!(
            "{}: a part of experiment `{other}`, which this warpstep does not have",
            parts[0].0
        )),
    }
}

/// Every run's title, in plan order: the key a part names each run by.
pub fn titles_of<T>(runs: &[T], title: impl Fn(&T) -> String) -> Vec<String> {
    runs.iter().map(title).collect()
}
