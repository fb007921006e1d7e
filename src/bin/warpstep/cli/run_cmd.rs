//! `warpstep run FILE.ptx ...`: load a kernel, launch it on the data the flags describe, run it,
//! report. Exit status 0 when the kernel completed, 1 on a kernel fault or deadlock, 2 on bad
//! input (file, PTX, flags, configuration).

use super::config_cmd::load_config;
use super::run_stop::{describe, run_to_stop, stop_conditions, StopReport};
use super::EXIT_BAD_INPUT;
use clap::Args;
use std::io::Write;
use std::process::ExitCode;
use warpstep::launch::LaunchFlags;
use warpstep::ptx::SourceLines;
use warpstep::run::{
    buffer_bytes, prepare_source, timing_report, Prepared, Report, DEFAULT_MAX_CYCLES,
};
use warpstep::sim::Sim;
use warpstep::trace::merge_lines;

#[derive(Args)]
pub struct RunArgs {
    /// The PTX file (its `// warpstep:` lines may hold these same flags).
    file: String,
    /// Kernel to launch (required when the file has several).
    #[arg(long)]
    kernel: Option<String>,
    /// Grid shape: X[,Y[,Z]].
    #[arg(long)]
    grid: Option<String>,
    /// Block shape: X[,Y[,Z]].
    #[arg(long)]
    block: Option<String>,
    /// One per kernel parameter, in order: a scalar (1024, -3, 2.5, 0x1f) or a buffer
    /// TYPE[COUNT]=INIT (INIT: 0, a number, iota, list:1,2,3, rand:SEED, rand:SEED:LO:HI, file:PATH).
    #[arg(long = "arg", value_name = "SPEC", allow_hyphen_values = true)]
    args: Vec<String>,
    /// Dynamic shared memory per CTA, in bytes.
    #[arg(long)]
    shared_dynamic: Option<String>,
    /// Registers a thread is allocated, as ptxas -v reports (default: the most PTX registers live at once).
    #[arg(long)]
    regs: Option<String>,
    /// A preset name or a JSON configuration file (default: fermi).
    #[arg(long)]
    config: Option<String>,
    /// Override one configuration field: KEY=VALUE (repeatable).
    #[arg(long = "set", value_name = "KEY=VALUE")]
    sets: Vec<String>,
    /// Run without timing (the functional model only).
    #[arg(long)]
    functional: bool,
    /// Stop with an error after this many cycles (functional: warp instructions).
    #[arg(long)]
    max_cycles: Option<String>,
    /// Put buffer argument I's final contents in the report (repeatable).
    #[arg(long = "dump", value_name = "I")]
    dumps: Vec<usize>,
    /// Write buffer argument I's final contents to PATH, raw little-endian (repeatable).
    #[arg(long = "dump-file", value_name = "I=PATH")]
    dump_files: Vec<String>,
    /// Write one JSON line per issued instruction to PATH (timing runs).
    #[arg(long, value_name = "PATH")]
    trace: Option<String>,
    /// Write a Chrome/Perfetto trace (warp timeline, instructions, execution-unit occupancy,
    /// memory requests through the L1D, L2 slices and DRAM, queue depths) to PATH, for
    /// ui.perfetto.dev (timing runs).
    #[arg(long, value_name = "PATH")]
    perfetto: Option<String>,
    /// Print one JSON object instead of a summary.
    #[arg(long)]
    json: bool,
    /// Stop at the first warp to issue an instruction on line N of the file (a CUDA line for a
    /// `.cu` file, else a PTX line; repeatable) and print where it stopped.
    #[arg(long = "break-line", value_name = "N")]
    break_lines: Vec<u32>,
    /// Stop when the clock reaches cycle C and print the counters so far.
    #[arg(long = "until-cycle", value_name = "C")]
    until_cycle: Option<u64>,
}

impl RunArgs {
    /// Whether the run may stop before the kernel ends.
    fn stops_early(&self) -> bool {
        !self.break_lines.is_empty() || self.until_cycle.is_some()
    }
}

pub fn run(args: RunArgs) -> ExitCode {
    match run_inner(&args) {
        Ok((_, Some(_))) => ExitCode::SUCCESS,
        Ok((report, None)) => {
            if report.completed {
                ExitCode::SUCCESS
            } else {
                ExitCode::from(1)
            }
        }
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// `warpstep compare`'s half: the launch `args` describe under `config` (a preset name or a
/// JSON file, in place of `--config`), run in the timing model to its end or `--max-cycles`.
/// Returns the report with every buffer argument's final contents, and the finished run.
pub(super) fn timing_run_with_config(
    args: &RunArgs,
    config: &str,
) -> Result<(Report, Sim), String> {
    let refused = [
        (args.functional, "--functional"),
        (args.trace.is_some(), "--trace"),
        (args.perfetto.is_some(), "--perfetto"),
        (!args.dump_files.is_empty(), "--dump-file"),
        (
            args.config.is_some(),
            "--config (give the two configurations as A and B)",
        ),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("compare does not take {flag}"));
    }
    let mut overrides = command_line_flags(args)?;
    overrides
        .set("--config", config)
        .map_err(|e| e.to_string())?;
    let prepared =
        prepare_file(&args.file, overrides).map_err(|e| format!("under `{config}`: {e}"))?;
    let buffers: Vec<usize> = prepared.image.buffers.iter().map(|b| b.index).collect();
    let max_cycles = prepared.flags.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES);
    let mut sim = prepared.into_sim(&buffers).map_err(|e| e.to_string())?;
    run_timing(&mut sim, max_cycles, None)?;
    Ok((timing_report(&sim, &buffers), sim))
}

/// The kernel and launch `args` describe, prepared for a timing run with warp states recorded
/// (`warpstep why`), refusing the flags that only a whole run takes.
pub(super) fn timing_sim(args: &RunArgs) -> Result<Sim, String> {
    let refused = [
        (args.functional, "--functional"),
        (args.trace.is_some(), "--trace"),
        (args.perfetto.is_some(), "--perfetto"),
        (!args.dump_files.is_empty(), "--dump-file"),
    ];
    if let Some((_, flag)) = refused.iter().find(|(given, _)| *given) {
        return Err(format!("why does not take {flag}"));
    }
    let prepared = prepare_file(&args.file, command_line_flags(args)?)?;
    let mut sim = prepared.into_sim(&[]).map_err(|e| e.to_string())?;
    sim.set_record_warp_states(true);
    Ok(sim)
}

/// Whether `--json` was given.
pub(super) fn wants_json(args: &RunArgs) -> bool {
    args.json
}

/// `file` loaded and launched as `overrides` (over its `// warpstep:` lines) say.
fn prepare_file(file: &str, overrides: LaunchFlags) -> Result<Prepared, String> {
    let text = std::fs::read_to_string(file).map_err(|e| format!("cannot read `{file}`: {e}"))?;
    let config_for = |source: &str| load_config(source, &[]);
    let read_file = |path: &str| std::fs::read(path).map_err(|e| e.to_string());
    let name = std::path::Path::new(file)
        .file_name()
        .map_or(file.to_string(), |n| n.to_string_lossy().into_owned());
    prepare_source(&text, &name, overrides, &config_for, &read_file)
        .map_err(|e| located(file, &e.to_string()))
}

/// Runs and prints; `Err` is bad input. The stop report says where a `--break-line` or
/// `--until-cycle` run stopped, when it stopped before the end.
fn run_inner(args: &RunArgs) -> Result<(Report, Option<StopReport>), String> {
    let overrides = command_line_flags(args)?;
    if args.stops_early() {
        let flag = [
            (args.functional, "--functional"),
            (args.trace.is_some(), "--trace"),
            (args.perfetto.is_some(), "--perfetto"),
        ];
        if let Some((_, f)) = flag.iter().find(|(given, _)| *given) {
            return Err(format!(
                "--break-line and --until-cycle stop a timing run: drop {f}"
            ));
        }
    }
    if args.functional && args.trace.is_some() {
        return Err("--trace needs a timing run (drop --functional)".into());
    }
    if args.functional && args.perfetto.is_some() {
        return Err("--perfetto needs a timing run (drop --functional)".into());
    }
    if args.trace.is_some() && args.perfetto.is_some() {
        return Err("--trace and --perfetto both take the issue events: give one of them".into());
    }
    let dump_files = parse_dump_files(&args.dump_files)?;
    let mut prepared = prepare_file(&args.file, overrides)?;
    let mut dumps = args.dumps.clone();
    dumps.extend(dump_files.iter().map(|(i, _)| *i));
    dumps.sort_unstable();
    dumps.dedup();
    let mut stopped = None;
    let (mut report, files) = if args.functional {
        let report = prepared.run_functional(&dumps).map_err(|e| e.to_string())?;
        let files = buffer_files(&dump_files, |i| prepared.buffer_bytes(i));
        (report, files)
    } else {
        let max_cycles = prepared.flags.max_cycles.unwrap_or(DEFAULT_MAX_CYCLES);
        let source = SourceLines::of(&prepared.program);
        let cuda = prepared.generated_ptx.is_some();
        let mut sim = prepared.into_sim(&dumps).map_err(|e| e.to_string())?;
        if args.stops_early() {
            let stop = stop_conditions(&sim, &source, cuda, &args.break_lines, args.until_cycle)?;
            stopped = run_to_stop(&mut sim, &stop, &source, cuda, max_cycles);
            if let (Some(stop), false) = (&stopped, args.json) {
                println!("{}", describe(stop, cuda));
            }
        } else {
            match &args.perfetto {
                Some(path) => {
                    let text = warpstep::perfetto::record_run(&mut sim, max_cycles);
                    sim.run(max_cycles);
                    std::fs::write(path, text)
                        .map_err(|e| format!("cannot write `{path}`: {e}"))?;
                }
                None => run_timing(&mut sim, max_cycles, args.trace.as_deref())?,
            }
        }
        let report = timing_report(&sim, &dumps);
        let files = buffer_files(&dump_files, |i| buffer_bytes(sim.image(), sim.global(), i));
        (report, files)
    };
    for (path, bytes) in files {
        std::fs::write(&path, bytes).map_err(|e| format!("cannot write `{path}`: {e}"))?;
    }
    report
        .buffers
        .retain(|k, _| args.dumps.iter().any(|d| d.to_string() == *k));
    match (&stopped, args.json) {
        (Some(stop), true) => {
            let mut value = serde_json::to_value(&report).map_err(|e| e.to_string())?;
            value["stopped"] = serde_json::to_value(stop).map_err(|e| e.to_string())?;
            println!("{value}");
        }
        _ => print_report(&report, args.json),
    }
    Ok((report, stopped))
}

/// Prefixes PTX errors (which start with `line N:`) with the file name.
fn located(file: &str, message: &str) -> String {
    if message.starts_with("line ") {
        format!("{file}: {message}")
    } else {
        message.to_string()
    }
}

/// The launch flags given on the command line, parsed by the same rules as `// warpstep:` lines.
fn command_line_flags(args: &RunArgs) -> Result<LaunchFlags, String> {
    let mut flags = LaunchFlags::default();
    let mut set = |flag: &str, value: &str| flags.set(flag, value).map_err(|e| e.to_string());
    let singles = [
        ("--kernel", &args.kernel),
        ("--grid", &args.grid),
        ("--block", &args.block),
        ("--shared-dynamic", &args.shared_dynamic),
        ("--regs", &args.regs),
        ("--config", &args.config),
        ("--max-cycles", &args.max_cycles),
    ];
    for (flag, value) in singles {
        if let Some(v) = value {
            set(flag, v)?;
        }
    }
    for a in &args.args {
        set("--arg", a)?;
    }
    for s in &args.sets {
        set("--set", s)?;
    }
    Ok(flags)
}

fn parse_dump_files(specs: &[String]) -> Result<Vec<(usize, String)>, String> {
    specs
        .iter()
        .map(|s| {
            let (i, path) = s
                .split_once('=')
                .ok_or_else(|| format!("--dump-file {s}: expected I=PATH"))?;
            let i = i
                .parse()
                .map_err(|_| format!("--dump-file {s}: `{i}` is not an argument index"))?;
            Ok((i, path.to_string()))
        })
        .collect()
}

fn print_report(report: &Report, json: bool) {
    if json {
        println!("{}", serde_json::to_string(report).unwrap_or_default());
        return;
    }
    let [gx, gy, gz] = report.grid;
    let [bx, by, bz] = report.block;
    println!(
        "kernel {} grid ({gx},{gy},{gz}) block ({bx},{by},{bz})",
        report.kernel
    );
    match &report.error {
        None => println!("completed"),
        Some(e) => println!("did not complete: {e}"),
    }
    println!(
        "{} warp instructions, {} thread instructions, {} cycles",
        report.warp_instructions, report.thread_instructions, report.cycles
    );
    print_timing(report);
    print_per_sm(report);
    for (index, values) in &report.buffers {
        let shown: Vec<String> = values.iter().take(16).map(|v| v.to_string()).collect();
        let more = if values.len() > 16 {
            format!(" ... ({} values)", values.len())
        } else {
            String::new()
        };
        println!("arg {index}: [{}]{more}", shown.join(", "));
    }
}

/// The bytes to write for each `--dump-file`.
fn buffer_files(
    files: &[(usize, String)],
    bytes: impl Fn(usize) -> Option<Vec<u8>>,
) -> Vec<(String, Vec<u8>)> {
    files
        .iter()
        .map(|(i, path)| (path.clone(), bytes(*i).unwrap_or_default()))
        .collect()
}

/// Runs the timing model to the end or `max_cycles`, streaming the issue trace to `trace`.
fn run_timing(sim: &mut Sim, max_cycles: u64, trace: Option<&str>) -> Result<(), String> {
    let mut out = match trace {
        Some(path) => Some(std::io::BufWriter::new(
            std::fs::File::create(path).map_err(|e| format!("cannot write `{path}`: {e}"))?,
        )),
        None => None,
    };
    sim.set_tracing(out.is_some());
    sim.set_record_warp_states(false);
    let warp_size = sim.config().core.warp_size;
    while !sim.finished() {
        let left = max_cycles.saturating_sub(sim.cycle());
        if left == 0 {
            sim.run(max_cycles);
            break;
        }
        sim.run_for(left.min(1 << 16));
        if let Some(out) = out.as_mut() {
            let (issues, commits) = (sim.take_trace(), sim.take_commits());
            for line in merge_lines(sim.image().func(), warp_size, &issues, &commits) {
                writeln!(out, "{line}").map_err(|e| e.to_string())?;
            }
        }
    }
    if let Some(mut out) = out {
        out.flush().map_err(|e| e.to_string())?;
    }
    Ok(())
}

/// The timing statistics of a timing run, a line each.
fn print_timing(report: &Report) {
    if let (Some(ipc), Some(simt)) = (report.ipc, &report.simt) {
        let reconvergence = match &simt.splits {
            Some(splits) => format!(
                "{:.2} thread groups after a divergent branch, {} yields, {} thread-cycles blocked at convergence barriers",
                splits.groups_per_divergent_branch, splits.yields, splits.blocked_thread_cycles
            ),
            None => format!("SIMT stack depth up to {}", simt.max_stack_depth),
        };
        println!(
            "IPC {ipc:.2} thread instructions/cycle, SIMD efficiency {:.0}% ({:.1} active lanes), {} divergent branches, {reconvergence}",
            simt.simd_efficiency * 100.0,
            simt.average_active_lanes,
            simt.divergent_branches,
        );
    }
    if let Some(stalls) = &report.stalls {
        let mut top: Vec<(&String, &u64)> = stalls.iter().collect();
        top.sort_by(|a, b| b.1.cmp(a.1).then(a.0.cmp(b.0)));
        let shown: Vec<String> = top
            .iter()
            .take(4)
            .map(|(k, v)| format!("{k} {v}"))
            .collect();
        if !shown.is_empty() {
            println!("scheduler stall cycles: {}", shown.join(", "));
        }
    }
    if let Some(sh) = report.shared.as_ref().filter(|s| s.instructions > 0) {
        println!(
            "shared memory: {} instructions, {} bank-conflict cycles",
            sh.instructions, sh.bank_conflict_cycles
        );
    }
    if let Some(l1) = report.l1d.as_ref().filter(|l| l.accesses > 0) {
        println!(
            "L1D: {} accesses, {:.1}% hits, {} MSHR merges, reservation fails assoc {} mshr {} miss_queue {}",
            l1.accesses,
            100.0 * l1.hits as f64 / l1.accesses as f64,
            l1.mshr_merges,
            l1.reservation_fails.assoc,
            l1.reservation_fails.mshr,
            l1.reservation_fails.miss_queue
        );
    }
    if let (Some(l2), Some(dram)) = (&report.l2, &report.dram) {
        if l2.accesses > 0 {
            println!(
                "L2: {} accesses, {} hits; DRAM: {} reads, {} writes, {} row hits, {} row misses",
                l2.accesses, l2.hits, dram.reads, dram.writes, dram.row_hits, dram.row_misses
            );
        }
    }
    if let Some(u) = &report.unified {
        println!(
            "unified memory {:.1} KB: {} threads, registers {:.1} KB, shared {:.1} KB, cache {:.1} KB ({} sets); {} arbitration conflicts",
            u.capacity_kb, u.threads, u.registers_kb, u.shared_kb, u.cache_kb, u.cache_sets, u.arbitration_conflicts
        );
    }
    if let Some(r) = &report.register_file {
        println!(
            "register file hierarchy (warp registers): MRF {} reads, {} writes; ORF {} reads, {} writes; LRF {} reads, {} writes",
            r.mrf_reads, r.mrf_writes, r.orf_reads, r.orf_writes, r.lrf_reads, r.lrf_writes
        );
    }
    if let Some(energy) = &report.energy {
        println!("{}", energy_line(energy));
    }
}

/// `energy 12.3 uJ: register file 0.1 nJ, shared memory ...`: the total and each part, in
/// nanojoules (the JSON's picojoules / 1000), the total in microjoules.
fn energy_line(e: &warpstep::energy::EnergyReport) -> String {
    let names = [
        "register file",
        "ORF/LRF",
        "shared memory",
        "L1D",
        "DRAM",
        "SRAM leakage",
        "SM dynamic",
        "core leakage",
    ];
    let parts: Vec<String> = names
        .iter()
        .zip(e.parts())
        .map(|(name, (_, pj))| format!("{name} {:.1} nJ", pj / 1000.0))
        .collect();
    let kind = if e.unified { "unified" } else { "partitioned" };
    format!(
        "energy {:.3} uJ ({kind}): {}",
        e.total_pj / 1e6,
        parts.join(", ")
    )
}

/// With more than one SM, a line per SM: CTAs, instructions, IPC, L1D and bank-conflict cycles.
fn print_per_sm(report: &Report) {
    let Some(per_sm) = report.per_sm.as_ref().filter(|p| p.len() > 1) else {
        return;
    };
    println!(
        "{:>5} {:>5} {:>11} {:>13} {:>6} {:>9} {:>8} {:>8} {:>10} {:>14}",
        "SM",
        "CTAs",
        "warp instrs",
        "thread instrs",
        "IPC",
        "L1D accs",
        "hits",
        "misses",
        "rsv fails",
        "bank conflict"
    );
    for s in per_sm {
        let fails = s.l1d.reservation_fails;
        println!(
            "{:>5} {:>5} {:>11} {:>13} {:>6.2} {:>9} {:>8} {:>8} {:>10} {:>14}",
            s.sm,
            s.ctas,
            s.warp_instructions,
            s.thread_instructions,
            s.ipc,
            s.l1d.accesses,
            s.l1d.hits,
            s.l1d.misses,
            fails.assoc + fails.mshr + fails.miss_queue,
            s.bank_conflict_cycles
        );
    }
}
