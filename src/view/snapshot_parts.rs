//! The browser's snapshot, cut to the views on screen (issue 32): the page asks for the parts
//! its visible panels draw ([`part`] bits) and gets only those, and the warp slots every frame
//! draws (the pipeline's warp strip, the SIMT view's every-warp column) as one flat `u32` table
//! instead of JSON ([`warp_table`]). Both copy what [`crate::snapshot::snapshot`] copies, from
//! the same builders: a part present here is the full snapshot's field, value for value.

use crate::core::sm::Sm;
use crate::core::WarpCycle;
use crate::sim::{Sim, SimStats};
use crate::view::back_end_view::BackEndView;
use crate::view::snapshot::{
    arbitration_loser_views, bank_grid_part, collector_views, fetch_view, l1_part, mrpb_part,
    pool_column_views, register_bank_views, scheduler_views, sm_at, status_of, unit_views,
    warp_view, ArbitrationLossView, BankGridView, BankView, CollectorView, InstrView, L1View,
    MrpbView, SchedulerView, UnitView, WarpView,
};
use serde::Serialize;

/// The parts of an SM's snapshot a page may ask for, as bits (exported in `tables()` as
/// `snapshot_parts`). The cycle, status, statistics, warp size and the selected warp are
/// always there.
pub mod part {
    /// `sm.fetch`, `sm.schedulers`, `sm.collectors`, `sm.units` (the pipeline view).
    pub const PIPELINE: u32 = 1 << 0;
    /// `sm.register_banks` (the pipeline's operand column and writeback, the Memory view).
    pub const REGISTER_BANKS: u32 = 1 << 1;
    /// `sm.warps`: every warp slot's whole view (the warp-split view's every-warp column).
    pub const WARPS: u32 = 1 << 2;
    /// `sm.bank_grid`.
    pub const BANK_GRID: u32 = 1 << 3;
    /// `sm.l1`.
    pub const L1: u32 = 1 << 4;
    /// `sm.mrpb`.
    pub const MRPB: u32 = 1 << 5;
    /// `sm.back_end`.
    pub const BACK_END: u32 = 1 << 6;
    /// `sm.pool_columns` and `sm.arbitration_losers` (the unified pool).
    pub const UNIFIED: u32 = 1 << 7;
    /// `sm.stats`.
    pub const SM_STATS: u32 = 1 << 8;
    /// Every part: the full snapshot's fields.
    pub const ALL: u32 = (1 << 9) - 1;
    /// Names and bits, for `tables()`.
    pub const NAMES: [(&str, u32); 9] = [
        ("pipeline", PIPELINE),
        ("register_banks", REGISTER_BANKS),
        ("warps", WARPS),
        ("bank_grid", BANK_GRID),
        ("l1", L1),
        ("mrpb", MRPB),
        ("back_end", BACK_END),
        ("unified", UNIFIED),
        ("sm_stats", SM_STATS),
    ];
}

/// [`crate::snapshot::Snapshot`] with the parts asked for; the others are left out of the JSON.
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartialSnapshot {
    pub cycle: u64,
    pub status: &'static str,
    pub error: Option<String>,
    pub kernel: String,
    pub warp_size: u32,
    /// The bits of the parts present.
    pub parts: u32,
    pub sm: PartialSmView,
    pub stats: SimStats,
}

/// [`crate::snapshot::SmView`]'s fields, each present only when its part was asked for, and
/// the selected warp's whole view (always).
#[derive(Debug, Clone, PartialEq, Serialize)]
pub struct PartialSmView {
    pub id: u32,
    /// The selected slot and its warp (`None`: no warp there).
    pub selected: u32,
    pub warp: Option<WarpView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub fetch: Option<Option<(u32, InstrView)>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub warps: Option<Vec<Option<WarpView>>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub schedulers: Option<Vec<SchedulerView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub collectors: Option<Vec<CollectorView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub register_banks: Option<Vec<BankView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub arbitration_losers: Option<Vec<ArbitrationLossView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub pool_columns: Option<Vec<BankView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub units: Option<Vec<UnitView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bank_grid: Option<BankGridView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub l1: Option<Option<L1View>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub mrpb: Option<Option<MrpbView>>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub back_end: Option<BackEndView>,
    #[serde(skip_serializing_if = "Option::is_none")]
    pub stats: Option<crate::core::sm::SmStats>,
}

/// The snapshot of SM `sm` (clamped) with the parts in `parts` and warp slot `warp`'s view.
pub fn snapshot_parts(sim: &Sim, sm: usize, parts: u32, warp: u32) -> PartialSnapshot {
    let (status, error) = status_of(sim);
    let sm = sm_at(sim, sm);
    let has = |p: u32| parts & p != 0;
    let pipeline = has(part::PIPELINE);
    let unified = has(part::UNIFIED);
    PartialSnapshot {
        cycle: sim.cycle(),
        status,
        error,
        kernel: sim.image().func().name.clone(),
        warp_size: sim.config().core.warp_size,
        parts: parts & part::ALL,
        sm: PartialSmView {
            id: sm.id,
            selected: warp,
            warp: warp_view(sim, sm, warp),
            fetch: pipeline.then(|| fetch_view(sim, sm)),
            warps: has(part::WARPS).then(|| {
                (0..sm.warps().len() as u32)
                    .map(|slot| warp_view(sim, sm, slot))
                    .collect()
            }),
            schedulers: pipeline.then(|| scheduler_views(sim, sm)),
            collectors: pipeline.then(|| collector_views(sim, sm)),
            register_banks: has(part::REGISTER_BANKS).then(|| register_bank_views(sim, sm)),
            arbitration_losers: unified.then(|| arbitration_loser_views(sim, sm)),
            pool_columns: unified
                .then(|| pool_column_views(sim.config(), sim.image().func(), sm.register_banks())),
            units: pipeline.then(|| unit_views(sim, sm)),
            bank_grid: has(part::BANK_GRID).then(|| bank_grid_part(sim, sm)),
            l1: has(part::L1).then(|| l1_part(sim, sm)),
            mrpb: has(part::MRPB).then(|| mrpb_part(sim, sm)),
            back_end: has(part::BACK_END).then(|| crate::back_end_view::back_end_view(sim, sm)),
            stats: has(part::SM_STATS).then(|| sm.stats()),
        },
        stats: sim.stats(),
    }
}

/// The warp table's layout (exported in `tables()` as `warp_table`): a header of
/// [`HEADER`] words (slots, words per slot), then [`FIELDS`] words per warp slot, then every
/// warp's SIMT stack entries' active-lane counts, bottom entry first, where its `stack_at`
/// field points (an index into the whole table).
pub mod warp_table_layout {
    pub const HEADER: usize = 2;
    pub const FIELDS: usize = 14;
    /// 1 when the slot holds a warp; the other fields are 0 when it does not.
    pub const PRESENT: usize = 0;
    /// The warp state's code (`tables().warp_states`), `idle` once finished (as `WarpView`).
    pub const STATE: usize = 1;
    /// The PTX line of the next PC (0: none).
    pub const LINE: usize = 2;
    /// The next PC, [`NO_PC`] once every thread exited.
    pub const PC: usize = 3;
    /// The CTA's id, x, y, z.
    pub const CTA: usize = 4;
    pub const WARP_IN_CTA: usize = 7;
    /// The active mask, low and high 32 bits.
    pub const MASK_LO: usize = 8;
    pub const MASK_HI: usize = 9;
    /// SIMT stack entries (0 under convergence barriers).
    pub const DEPTH: usize = 10;
    /// [`AT_BARRIER`], [`BRANCH_PENDING`], [`FINISHED`], [`SPLITS`] bits.
    pub const FLAGS: usize = 11;
    pub const IN_FLIGHT: usize = 12;
    pub const STACK_AT: usize = 13;
    pub const NO_PC: u32 = u32::MAX;
    pub const AT_BARRIER: u32 = 1;
    pub const BRANCH_PENDING: u32 = 2;
    pub const FINISHED: u32 = 4;
    /// The warp runs under convergence barriers (its view has `splits`).
    pub const SPLITS: u32 = 8;
}

/// The warp slots of SM `sm` (clamped) as [`warp_table_layout`] lays them out, into `out`:
/// the same values as the snapshot's `sm.warps` (state, line, PC, CTA, mask, stack depth and
/// each entry's active lanes), for the views that draw every warp every frame.
pub fn warp_table(sim: &Sim, sm: usize, out: &mut Vec<u32>) {
    use warp_table_layout as t;
    let sm: &Sm = sm_at(sim, sm);
    let func = sim.image().func();
    let slots = sm.warps().len();
    out.clear();
    out.extend([slots as u32, t::FIELDS as u32]);
    out.resize(t::HEADER + slots * t::FIELDS, 0);
    for slot in 0..slots {
        let (Some(w), Some(state)) = (sm.warps()[slot].as_ref(), sm.warp_state(slot as u32)) else {
            continue;
        };
        let Some(cta) = sm.ctas().get(w.cta_slot as usize).and_then(|c| c.as_ref()) else {
            continue;
        };
        let r = &state.reconvergence;
        let pc = r.pc();
        let shown = if w.finished { WarpCycle::Idle } else { w.state };
        let mask = r.active_mask();
        let entries = r.stack_entries();
        let flags = [
            (w.at_barrier, t::AT_BARRIER),
            (w.branch_pending.is_some(), t::BRANCH_PENDING),
            (w.finished, t::FINISHED),
            (r.independent().is_some(), t::SPLITS),
        ]
        .into_iter()
        .filter(|&(on, _)| on)
        .fold(0, |f, (_, bit)| f | bit);
        let stack_at = out.len() as u32;
        out.extend(entries.iter().map(|e| e.mask.count_ones()));
        let at = t::HEADER + slot * t::FIELDS;
        let row = &mut out[at..at + t::FIELDS];
        row[t::PRESENT] = 1;
        row[t::STATE] = shown as u32;
        row[t::LINE] = pc.and_then(|p| func.instr(p)).map_or(0, |i| i.line);
        row[t::PC] = pc.unwrap_or(t::NO_PC);
        row[t::CTA..t::CTA + 3].copy_from_slice(&cta.cta.ctaid);
        row[t::WARP_IN_CTA] = w.warp_in_cta;
        row[t::MASK_LO] = mask as u32;
        row[t::MASK_HI] = (mask >> 32) as u32;
        row[t::DEPTH] = entries.len() as u32;
        row[t::FLAGS] = flags;
        row[t::IN_FLIGHT] = w.in_flight;
        row[t::STACK_AT] = stack_at;
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::snapshot::snapshot;
    use crate::test_launches::{prepare, TRANSPOSE_NAIVE};
    use warp_table_layout as t;

    /// Every part present is the full snapshot's field, and the absent ones are not in the JSON.
    fn check_parts(s: &Sim, parts: u32, warp: u32) {
        let full = serde_json::to_value(snapshot(s, 0)).unwrap();
        let part = serde_json::to_value(snapshot_parts(s, 0, parts, warp)).unwrap();
        for k in ["cycle", "status", "error", "kernel", "warp_size", "stats"] {
            assert_eq!(part[k], full[k], "{k}");
        }
        assert_eq!(part["sm"]["warp"], full["sm"]["warps"][warp as usize]);
        let fields: &[(&str, &[&str])] = &[
            ("pipeline", &["fetch", "schedulers", "collectors", "units"]),
            ("register_banks", &["register_banks"]),
            ("warps", &["warps"]),
            ("bank_grid", &["bank_grid"]),
            ("l1", &["l1"]),
            ("mrpb", &["mrpb"]),
            ("back_end", &["back_end"]),
            ("unified", &["pool_columns", "arbitration_losers"]),
            ("sm_stats", &["stats"]),
        ];
        for &(name, keys) in fields {
            let bit = part::NAMES.iter().find(|(n, _)| *n == name).unwrap().1;
            for &k in keys {
                let got = part["sm"].get(k);
                if parts & bit != 0 {
                    assert_eq!(got, Some(&full["sm"][k]), "{name}: {k}");
                } else {
                    assert_eq!(got, None, "{name}: {k} left out");
                }
            }
        }
    }

    #[test]
    fn each_part_is_the_full_snapshots_field_and_the_others_are_left_out() {
        let mut s = prepare(TRANSPOSE_NAIVE, &[]).into_sim(&[]).unwrap();
        for cycle in [0, 40, 400, 1200] {
            while s.cycle() < cycle && !s.finished() {
                s.step();
            }
            check_parts(&s, part::ALL, 0);
            check_parts(&s, 0, 3);
            for (_, bit) in part::NAMES {
                check_parts(&s, bit, 1);
            }
            check_parts(&s, part::PIPELINE | part::BANK_GRID | part::L1, 2);
        }
    }

    /// The table holds the full snapshot's values for every slot, cycle after cycle.
    #[test]
    fn the_warp_table_is_the_snapshots_warps() {
        // The book's Figure 3.2 kernel: its warp diverges twice (stack entries of 3, 1 and 2 lanes).
        let book = (include_str!("../../tests/data/book_fig3_2.ptx"), &[][..]);
        let mut s = prepare(book, &[]).into_sim(&[]).unwrap();
        let mut table = Vec::new();
        let mut pushes = 0;
        while !s.finished() {
            s.step();
            let snap = snapshot(&s, 0);
            warp_table(&s, 0, &mut table);
            assert_eq!(table[..2], [snap.sm.warps.len() as u32, t::FIELDS as u32]);
            for (slot, w) in snap.sm.warps.iter().enumerate() {
                let row = &table[t::HEADER + slot * t::FIELDS..][..t::FIELDS];
                let Some(w) = w else {
                    assert!(row.iter().all(|&x| x == 0));
                    continue;
                };
                assert_eq!(row[t::PRESENT], 1);
                assert_eq!(row[t::STATE], u32::from(w.state_code));
                assert_eq!(row[t::LINE], w.line);
                assert_eq!(row[t::PC], w.pc.unwrap_or(t::NO_PC));
                assert_eq!(row[t::CTA..t::CTA + 3], w.cta);
                assert_eq!(row[t::WARP_IN_CTA], w.warp_in_cta);
                let mask = (u64::from(row[t::MASK_HI]) << 32) | u64::from(row[t::MASK_LO]);
                assert_eq!(crate::trace::mask_text(mask, snap.warp_size), w.active_mask);
                assert_eq!(row[t::DEPTH] as usize, w.stack.len());
                assert_eq!(row[t::FLAGS] & t::AT_BARRIER != 0, w.at_barrier);
                assert_eq!(row[t::FLAGS] & t::BRANCH_PENDING != 0, w.branch_pending);
                assert_eq!(row[t::FLAGS] & t::FINISHED != 0, w.finished);
                assert_eq!(row[t::FLAGS] & t::SPLITS != 0, w.splits.is_some());
                assert_eq!(row[t::IN_FLIGHT], w.in_flight);
                let at = row[t::STACK_AT] as usize;
                let lanes: Vec<u32> = w
                    .stack
                    .iter()
                    .map(|e| e.lanes.iter().filter(|&&l| l).count() as u32)
                    .collect();
                assert_eq!(table[at..at + lanes.len()], lanes[..]);
                pushes += usize::from(w.stack.len() > 1);
            }
        }
        assert!(pushes > 0, "some warp diverged");
    }
}
