//! `warpstep run ... --break-line N` / `--until-cycle C`: run the timing model until the first
//! warp issues an instruction on line N of the file (a CUDA line for a `.cu` file, else a PTX
//! line) or the clock reaches cycle C, and say where it stopped (the model's run control,
//! `warpstep::run_control`, as the app's breakpoints use it).

use serde::Serialize;
use warpstep::ptx::SourceLines;
use warpstep::run_control::{self, BreakHit, Breakpoints, StopAt, Stopped};
use warpstep::sim::Sim;

/// Where a run stopped early, as `--json` prints it under `stopped`.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct StopReport {
    /// `breakpoint` or `cycle`.
    pub reason: &'static str,
    pub cycle: u64,
    /// The warp that reached the breakpoint line: its SM, warp slot, CTA and warp in the CTA.
    pub sm: Option<u32>,
    pub warp: Option<u32>,
    pub cta: Option<[u32; 3]>,
    pub warp_in_cta: Option<u32>,
    /// The line asked for (CUDA or PTX, as the file is), the PTX line and the instruction.
    pub line: Option<u32>,
    pub ptx_line: Option<u32>,
    pub instruction: Option<String>,
}

/// The stop conditions the flags ask for; `Err` names a line with no instruction on it.
pub fn stop_conditions(
    sim: &Sim,
    source: &SourceLines,
    cuda: bool,
    lines: &[u32],
    until_cycle: Option<u64>,
) -> Result<StopAt, String> {
    let func = sim.image().func();
    let on = |line: Vec<u32>| {
        if cuda {
            Breakpoints::new(func, source, Vec::new(), line)
        } else {
            Breakpoints::new(func, source, line, Vec::new())
        }
    };
    if let Some(&line) = lines.iter().find(|&&l| !on(vec![l]).any()) {
        let what = if cuda { "CUDA" } else { "PTX" };
        return Err(format!(
            "--break-line {line}: no instruction of kernel {} comes from {what} line {line}",
            func.name
        ));
    }
    Ok(StopAt {
        cycle: until_cycle,
        breakpoints: on(lines.to_vec()),
    })
}

/// Runs until `stop` or `max_cycles`; `Some` when it stopped before the kernel ended.
pub fn run_to_stop(
    sim: &mut Sim,
    stop: &StopAt,
    source: &SourceLines,
    cuda: bool,
    max_cycles: u64,
) -> Option<StopReport> {
    sim.set_record_warp_states(false);
    let budget = max_cycles.saturating_sub(sim.cycle());
    match run_control::run(sim, budget, stop, &mut |_| ()) {
        Stopped::Breakpoint(hit) => Some(breakpoint_report(sim, &hit, source, cuda)),
        Stopped::Cycle => Some(StopReport {
            reason: "cycle",
            cycle: sim.cycle(),
            sm: None,
            warp: None,
            cta: None,
            warp_in_cta: None,
            line: None,
            ptx_line: None,
            instruction: None,
        }),
        Stopped::Budget => {
            sim.run(max_cycles);
            None
        }
        Stopped::Finished => None,
    }
}

fn breakpoint_report(sim: &Sim, hit: &BreakHit, source: &SourceLines, cuda: bool) -> StopReport {
    let sm = &sim.sms()[hit.sm as usize];
    let slot = sm.warps().get(hit.warp as usize).and_then(|w| w.as_ref());
    let cta = slot
        .and_then(|w| sm.ctas().get(w.cta_slot as usize))
        .and_then(|c| c.as_ref())
        .map(|c| c.cta.ctaid);
    let line = if cuda {
        source.source_line(hit.line)
    } else {
        hit.line
    };
    StopReport {
        reason: "breakpoint",
        cycle: hit.cycle,
        sm: Some(hit.sm),
        warp: Some(hit.warp),
        cta,
        warp_in_cta: slot.map(|w| w.warp_in_cta),
        line: Some(line),
        ptx_line: Some(hit.line),
        instruction: Some(sim.image().func().text(hit.pc).to_string()),
    }
}

/// The one-line summary printed before the counters.
pub fn describe(stop: &StopReport, cuda: bool) -> String {
    if stop.reason == "cycle" {
        return format!("stopped at cycle {} (--until-cycle)", stop.cycle);
    }
    let cta = stop
        .cta
        .map_or(String::new(), |[x, y, z]| format!(", CTA ({x},{y},{z})"));
    let in_cta = stop
        .warp_in_cta
        .map_or(String::new(), |w| format!(" warp {w}"));
    let line = stop.line.unwrap_or(0);
    let ptx = stop.ptx_line.unwrap_or(0);
    let at = if cuda {
        format!("CUDA line {line} (PTX line {ptx})")
    } else {
        format!("PTX line {ptx}")
    };
    format!(
        "stopped at cycle {}: warp slot {} of SM {}{cta}{in_cta} issued {at}: {}",
        stop.cycle,
        stop.warp.unwrap_or(0),
        stop.sm.unwrap_or(0),
        stop.instruction.as_deref().unwrap_or("")
    )
}
