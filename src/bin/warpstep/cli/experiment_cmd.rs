//! `warpstep experiment mrpb`: the MRPB paper's experiment (HPCA 2014, Sections 4-5) on our
//! kernels (`warpstep::experiment::mrpb`): every case with MRPB off and on on Base-S and Base-L,
//! and the design space of Table 4 on Base-S. `warpstep experiment elastic`: the elastic
//! pipeline paper's (CF'11, §5.1-5.2, Table 4, Figs. 8-10; `warpstep::experiment::elastic`):
//! each kernel in five setups on `elastic-cf11`. `warpstep experiment unified`: the unified
//! memory paper's (MICRO'12 §6.2-6.4; `warpstep::experiment::unified`). `warpstep experiment
//! xor`: the XOR bank-hashing paper's (IEEE TC §6-7.1; `warpstep::experiment::xor`): each
//! kernel's searches on a training trace, then its launch with every function. The runs go to
//! `--jobs` threads (one per core by default) with a progress line each on stderr; every report
//! takes the same way out: text or `--markdown` from `warpstep::experiment::table`, or `--json`,
//! and `--plot FILE.svg` draws its charts with `experiment_chart.rs` (what to plot is in
//! `experiment_plot.rs`, `experiment_elastic_plot.rs`, `experiment_unified_plot.rs`,
//! `experiment_xor_plot.rs`). Wall time is measured here, around each simulation's run, as the
//! model has no clock.
//!
//! `--shard I/N` runs part of a plan and `warpstep experiment merge` joins the parts
//! (`experiment_shard.rs`).
//!
//! Exit status: 0 when every run completed (or, with `--shard`, when the part was written), 1
//! when one faulted or deadlocked, 2 on bad input.

use super::experiment_shard::{self, options, picked, titles_of, MergeArgs, ShardArgs};
use super::report_out::Output;
use super::EXIT_BAD_INPUT;
use super::{
    experiment_elastic_plot, experiment_plot, experiment_unified_plot, experiment_xor_plot,
};
use clap::{Args, Subcommand};
use std::process::ExitCode;
use std::sync::atomic::{AtomicUsize, Ordering};
use std::sync::Mutex;
use std::time::Instant;
use warpstep::correlate::table::seconds_text;
use warpstep::experiment::mrpb::{self, plan, select, Report};
use warpstep::experiment::{elastic, table, unified, xor, Machine, Measured, Outcome, Run, Size};

#[derive(Subcommand)]
pub enum ExperimentCommand {
    /// MRPB (HPCA 2014) Sections 4-5: every case with MRPB off and on on Base-S and Base-L
    /// (tesla-c2050-s/-l) on the C2050's 14 SMs, the geometric means beside the paper's, and
    /// the design space of Table 4 on atax_1, syrk, gemm and hotspot.
    Mrpb(MrpbArgs),
    /// MRPB (HPCA 2014) §5.5 Fig. 14's CCWS-SWL and §5.7 Fig. 16: each case on Base-S and
    /// Base-L under RR, GTO, RR+MRPB, GTO+MRPB, RR+SWL and GTO+SWL (CCWS's static wavefront
    /// limit at the best of --limits per case), normalised to RR.
    MrpbSched(MrpbSchedArgs),
    /// Elastic pipeline (CF'11) §5.1-5.2: each kernel of Table 4 on elastic-cf11 on the
    /// baseline, the in-order pipeline, the scheduler alone, the pure elastic pipeline and
    /// elastic + scheduler; Table 4's bound, Fig. 8's stalls, Fig. 9's speedups beside the
    /// paper's, Fig. 10's padded kernels on the baseline.
    Elastic(ElasticArgs),
    /// Unified memory (MICRO'12) §6.2-6.4: needle, bfs and our dgemm and cache-limited
    /// programs on unified-micro12, partitioned 256/64/64 KB against the unified pool at 128,
    /// 256 and 384 KB and the Fermi-like 384 KB: performance, DRAM traffic and energy beside
    /// Table 6.
    Unified(UnifiedArgs),
    /// XOR bank hashing (IEEE TC) §6-7.1: each kernel's shared access trace on a training
    /// input configures the bit-vector XOR (exhaustive search) and the bitwise permutation and
    /// XOR (Givargis, Minimum Imbalance); each function, the fixed XOR and mod then run the
    /// kernel on fermi: conflicts removed (Table 6) and speedups (Fig. 9) beside the paper's.
    Xor(XorArgs),
    /// Join the part files of `<experiment> --shard I/N --out FILE` into the report, table and
    /// plot one run with the same options gives (README: "Sweeps past one machine").
    Merge(MergeArgs),
}

#[derive(Args)]
pub struct UnifiedArgs {
    /// Run only this program (repeatable): needle, needle_padded, needle16, bfs, dgemm,
    /// cache_gather, lu, pcr, srad, mummer, nn, hotspot, vector_add.
    #[arg(long = "workload", value_name = "NAME")]
    workloads: Vec<String>,
    /// Smaller inputs (the tests').
    #[arg(long)]
    quick: bool,
    /// Simulations run at once (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    output: Output,
}

#[derive(Args)]
pub struct XorArgs {
    /// Run only this kernel (repeatable): hist64, hist256, aes_encrypt, aes_decrypt,
    /// reduce_interleaved, transpose16, dct8x8, idct8x8, fwt1024, scan512, conv_cols, dwt_haar1d,
    /// nw_1, nw_2, lud_perimeter, lud_diagonal, lava_md, fft_radix2, fft_stockham,
    /// split_sort, scan_inter_up, scan_inter_down.
    #[arg(long = "kernel", value_name = "NAME")]
    kernels: Vec<String>,
    /// Smaller launches (the tests').
    #[arg(long)]
    quick: bool,
    /// One SM instead of the GTX 480's 15 (an ablation: the same memory system behind one SM).
    #[arg(long)]
    one_sm: bool,
    /// Simulations run at once (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    output: Output,
}

#[derive(Args)]
pub struct MrpbArgs {
    /// Run only this case (repeatable): atax_1, syrk, srad_2, ... (a bad name lists them all).
    /// The design space runs on atax_1, syrk, gemm and hotspot when they are selected.
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// One SM with one SM's share of each launch, instead of the C2050's 14 SMs with the whole
    /// launch (an ablation: the same memory system behind one SM).
    #[arg(long)]
    one_sm: bool,
    /// Stop each run after N cycles and estimate the whole launch from that window (its IPC,
    /// and its instructions counted functionally); 0 runs every launch to its end. Default:
    /// 1,000,000 on the 14 SMs, 0 with --one-sm.
    #[arg(long, value_name = "N")]
    sample: Option<u64>,
    /// Simulations run at once (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    output: Output,
}

#[derive(Args)]
pub struct MrpbSchedArgs {
    /// Run only this case (repeatable), as for `experiment mrpb`.
    #[arg(long = "case", value_name = "NAME")]
    cases: Vec<String>,
    /// The static wavefront limits tried for each case's best SWL (comma-separated warps per
    /// SM; default 2,4,8,16,24).
    #[arg(long, value_name = "N,N,...", value_delimiter = ',')]
    limits: Vec<u32>,
    /// Simulations run at once (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    output: Output,
}

#[derive(Args)]
pub struct ElasticArgs {
    /// Run only this kernel (repeatable): aes_encrypt, aes_decrypt, reduce_interleaved,
    /// transpose16, dct8x8, idct8x8 (the padded ones run with theirs).
    #[arg(long = "kernel", value_name = "NAME")]
    kernels: Vec<String>,
    /// Smaller grids (the tests'): reduction 64 blocks, AES 17, transpose 8 x 8, DCT 8 x 16.
    #[arg(long)]
    quick: bool,
    /// One core instead of Table 3's 16 (an ablation: the same memory system behind one core).
    #[arg(long)]
    one_sm: bool,
    /// Simulations run at once (default: one per core).
    #[arg(long, value_name = "N")]
    jobs: Option<usize>,
    #[command(flatten)]
    shard: ShardArgs,
    #[command(flatten)]
    output: Output,
}

pub fn run(command: ExperimentCommand) -> ExitCode {
    let result = match command {
        ExperimentCommand::Mrpb(args) => mrpb(&args),
        ExperimentCommand::MrpbSched(args) => mrpb_sched(&args),
        ExperimentCommand::Elastic(args) => elastic(&args),
        ExperimentCommand::Unified(args) => unified(&args),
        ExperimentCommand::Xor(args) => xor_experiment(&args),
        ExperimentCommand::Merge(args) => experiment_shard::merge(&args),
    };
    match result {
        Ok(true) => ExitCode::SUCCESS,
        Ok(false) => ExitCode::from(1),
        Err(message) => {
            eprintln!("error: {message}");
            ExitCode::from(EXIT_BAD_INPUT)
        }
    }
}

/// Checks the flags, runs the plan, prints the report and writes the plot (or runs and writes
/// one shard); `Ok(false)` when a run did not complete, `Err` is bad input.
fn mrpb(args: &MrpbArgs) -> Result<bool, String> {
    let cases = select(&args.cases)?;
    let machine = Machine::of_flag(args.one_sm);
    let sample = match args.sample {
        Some(0) => None,
        Some(window) => Some(window),
        None => mrpb::default_sample(machine),
    };
    if let Some(shard) = args.shard.get(&args.output)? {
        let runs = plan(&cases, machine, sample)?;
        let measured = run_timed(&picked(&runs, shard), args.jobs)?;
        let records: Vec<Outcome> = measured.iter().map(Outcome::of).collect();
        let opts = options("mrpb", &args.cases, false)
            .on(machine)
            .sampled(sample);
        args.shard
            .write(opts, shard, &titles_of(&runs, Run::title), &records)?;
        return Ok(true);
    }
    args.output.check()?;
    let runs = plan(&cases, machine, sample)?;
    let measured = run_timed(&runs, args.jobs)?;
    let report = Report::new(&cases, machine, sample, &runs, &measured)?;
    args.output.emit(
        &report,
        table::markdown,
        table::text,
        experiment_plot::write_svg,
    )?;
    Ok(report.incomplete.is_empty())
}

/// Checks the flags, runs the scheduler comparison's plan and prints the report; `Ok(false)`
/// when a run did not complete, `Err` is bad input (it has no plot and no shards).
fn mrpb_sched(args: &MrpbSchedArgs) -> Result<bool, String> {
    use warpstep::experiment::mrpb_sched;
    let cases = select(&args.cases)?;
    let limits = match args.limits.is_empty() {
        true => mrpb_sched::LIMITS.to_vec(),
        false => args.limits.clone(),
    };
    args.output.check()?;
    let runs = mrpb_sched::plan(&cases, &limits).map_err(|e| format!("--limits: {e}"))?;
    let start = Instant::now();
    let measured = run_timed(&runs, args.jobs)?;
    eprintln!(
        "{} simulations in {}",
        runs.len(),
        seconds_text(start.elapsed().as_secs_f64())
    );
    let report = mrpb_sched::Report::new(&cases, &limits, &runs, &measured)?;
    args.output
        .emit(&report, table::markdown, table::text, |_, path| {
            Err(format!("--plot {path}: experiment mrpb-sched has no plot"))
        })?;
    Ok(report.incomplete.is_empty())
}

/// Checks the flags, runs the elastic experiment's plan, prints the report and writes the
/// plot (or runs and writes one shard); `Ok(false)` when a run did not complete, `Err` is bad
/// input.
fn elastic(args: &ElasticArgs) -> Result<bool, String> {
    let kernels = elastic::select(&args.kernels)?;
    let size = size(args.quick);
    let machine = Machine::of_flag(args.one_sm);
    if let Some(shard) = args.shard.get(&args.output)? {
        let runs = elastic::plan(&kernels, size, machine)?;
        let measured = run_timed(&picked(&runs, shard), args.jobs)?;
        let records: Vec<elastic::Outcome> = measured.iter().map(elastic::Outcome::of).collect();
        let opts = options("elastic", &args.kernels, args.quick).on(machine);
        args.shard
            .write(opts, shard, &titles_of(&runs, Run::title), &records)?;
        return Ok(true);
    }
    args.output.check()?;
    let runs = elastic::plan(&kernels, size, machine)?;
    let measured = run_timed(&runs, args.jobs)?;
    let report = elastic::Report::new(&kernels, size, machine, &runs, &measured)?;
    args.output.emit(
        &report,
        table::markdown,
        table::text,
        experiment_elastic_plot::write_svg,
    )?;
    Ok(report.incomplete.is_empty())
}

/// Checks the flags, runs the unified memory experiment's programs, prints the report and
/// writes the plot (or runs and writes one shard); `Ok(false)` when a run did not complete,
/// `Err` is bad input.
fn unified(args: &UnifiedArgs) -> Result<bool, String> {
    let workloads = unified::select(&args.workloads)?;
    let size = size(args.quick);
    if let Some(shard) = args.shard.get(&args.output)? {
        let runs = unified::plan(&workloads, size);
        let measured = unified_timed(&picked(&runs, shard), args.jobs);
        let opts = options("unified", &args.workloads, args.quick);
        args.shard.write(
            opts,
            shard,
            &titles_of(&runs, unified::UnifiedRun::title),
            &measured,
        )?;
        return Ok(true);
    }
    args.output.check()?;
    let runs = unified::plan(&workloads, size);
    let measured = unified_timed(&runs, args.jobs);
    let report = unified::Report::new(&workloads, size, &runs, &measured)?;
    args.output.emit(
        &report,
        table::markdown,
        table::text,
        experiment_unified_plot::write_svg,
    )?;
    Ok(report.incomplete.is_empty())
}

/// Checks the flags, trains every kernel's functions, runs the plan, prints the report and
/// writes the plot (or runs and writes one shard); `Ok(false)` when a run did not complete or
/// computed a wrong answer, `Err` is bad input.
fn xor_experiment(args: &XorArgs) -> Result<bool, String> {
    let kernels = xor::select(&args.kernels)?;
    let size = size(args.quick);
    let machine = Machine::of_flag(args.one_sm);
    if let Some(shard) = args.shard.get(&args.output)? {
        let (_, runs) = xor::plan(&kernels, size, machine)?;
        let measured = xor_timed(&picked(&runs, shard), args.jobs);
        let opts = options("xor", &args.kernels, args.quick).on(machine);
        args.shard.write(
            opts,
            shard,
            &titles_of(&runs, xor::XorRun::title),
            &measured,
        )?;
        return Ok(true);
    }
    args.output.check()?;
    let started = Instant::now();
    let (trainings, runs) = xor::plan(&kernels, size, machine)?;
    eprintln!(
        "trained {} kernels in {}",
        trainings.len(),
        seconds_text(started.elapsed().as_secs_f64())
    );
    let measured = xor_timed(&runs, args.jobs);
    let report = xor::Report::new(&trainings, size, &runs, &measured)?;
    args.output.emit(
        &report,
        table::markdown,
        table::text,
        experiment_xor_plot::write_svg,
    )?;
    Ok(report.incomplete.is_empty())
}

/// Runs every simulation of the XOR experiment's `runs` (on `jobs` threads), timing each, and
/// returns their results in `runs`' order.
fn xor_timed(runs: &[xor::XorRun], jobs: Option<usize>) -> Vec<xor::Measured> {
    timed(runs, jobs, "simulations", |run| {
        let started = Instant::now();
        let mut m = run.execute();
        m.wall_seconds = started.elapsed().as_secs_f64();
        let ended = m
            .error
            .as_ref()
            .map_or(String::new(), |e| format!(" (did not complete: {e})"));
        let line = format!(
            "{}: {} cycles, {} conflict cycles, {}{ended}",
            run.title(),
            warpstep::correlate::table::thousands(m.counters.cycles),
            warpstep::correlate::table::thousands(m.counters.bank_conflicts()),
            seconds_text(m.wall_seconds)
        );
        (m, line)
    })
}

/// Runs every program of `runs` (on `jobs` threads, one per core by default), timing each,
/// and returns their results in `runs`' order.
fn unified_timed(runs: &[unified::UnifiedRun], jobs: Option<usize>) -> Vec<unified::Measured> {
    timed(runs, jobs, "programs", |run| {
        let started = Instant::now();
        let mut m = run.execute();
        m.wall_seconds = started.elapsed().as_secs_f64();
        let ended = m
            .error
            .as_ref()
            .map_or(String::new(), |e| format!(" (did not complete: {e})"));
        let line = format!(
            "{}: {} launches, {} cycles, {}{ended}",
            run.title(),
            m.totals.launches,
            warpstep::correlate::table::thousands(m.totals.cycles),
            seconds_text(m.wall_seconds)
        );
        (m, line)
    })
}

/// `jobs`, or one per core, at least 1 and at most `runs`.
fn job_count(jobs: Option<usize>, runs: usize) -> usize {
    jobs.unwrap_or_else(|| std::thread::available_parallelism().map_or(1, |n| n.get()))
        .clamp(1, runs.max(1))
}

/// `work` on every item on `jobs` threads (each takes the next item not yet taken), with the
/// progress line `work` returns printed on stderr as each ends; the results in `items`' order.
fn parallel_map<T: Sync, R: Send>(
    items: &[T],
    jobs: usize,
    work: impl Fn(&T) -> (R, String) + Sync,
) -> Vec<R> {
    let next = AtomicUsize::new(0);
    let done = AtomicUsize::new(0);
    let results: Mutex<Vec<Option<R>>> = Mutex::new((0..items.len()).map(|_| None).collect());
    std::thread::scope(|scope| {
        for _ in 0..jobs {
            scope.spawn(|| loop {
                let i = next.fetch_add(1, Ordering::Relaxed);
                let Some(item) = items.get(i) else { break };
                let (result, line) = work(item);
                let finished = done.fetch_add(1, Ordering::Relaxed) + 1;
                eprintln!("[{finished}/{}] {line}", items.len());
                results.lock().unwrap_or_else(|e| e.into_inner())[i] = Some(result);
            });
        }
    });
    let results = results.into_inner().unwrap_or_else(|e| e.into_inner());
    results.into_iter().flatten().collect()
}

/// `--quick` or not.
fn size(quick: bool) -> Size {
    if quick {
        Size::Quick
    } else {
        Size::Full
    }
}

/// [`parallel_map`] on `jobs` threads (one per core by default), then how long it took on
/// stderr: "33 simulations in 5.348 s on 2 threads".
fn timed<T: Sync, R: Send>(
    items: &[T],
    jobs: Option<usize>,
    noun: &str,
    work: impl Fn(&T) -> (R, String) + Sync,
) -> Vec<R> {
    let jobs = job_count(jobs, items.len());
    let start = Instant::now();
    let results = parallel_map(items, jobs, work);
    eprintln!(
        "{} {noun} in {} on {jobs} thread{}",
        items.len(),
        seconds_text(start.elapsed().as_secs_f64()),
        if jobs == 1 { "" } else { "s" }
    );
    results
}

/// Runs every simulation of `runs` (on `jobs` threads, one per core by default) and returns
/// their measurements in `runs`' order; `Err` when a run cannot be prepared.
fn run_timed(runs: &[Run], jobs: Option<usize>) -> Result<Vec<Measured>, String> {
    timed(runs, jobs, "simulations", |run| {
        let result = measure(run);
        let line = progress(run, &result);
        (result, line)
    })
    .into_iter()
    .collect()
}

/// Runs one simulation to the end and measures it.
fn measure(run: &Run) -> Result<Measured, String> {
    let mut sim = run
        .simulation()
        .map_err(|e| format!("{}: {e}", run.title()))?;
    sim.set_record_warp_states(false);
    let start = Instant::now();
    run.advance(&mut sim);
    Ok(run.measured(&sim, start.elapsed().as_secs_f64()))
}

/// "atax_1 on tesla-c2050-s --set mrpb.enabled=true: 891,792 cycles, IPC 1.626, 0.612 s".
fn progress(run: &Run, result: &Result<Measured, String>) -> String {
    match result {
        Ok(m) => {
            let ended = m
                .error
                .as_ref()
                .map_or(String::new(), |e| format!(" (did not complete: {e})"));
            format!(
                "{}: {} cycles, IPC {:.3}, {}{ended}",
                run.title(),
                warpstep::correlate::table::thousands(m.stats.cycles),
                m.stats.ipc,
                seconds_text(m.wall_seconds)
            )
        }
        Err(e) => format!("error: {e}"),
    }
}
