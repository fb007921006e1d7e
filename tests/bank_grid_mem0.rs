//! The bank grid shows the shared access MEM0 serves in that cycle (issue 31), not the one that
//! issued last: in `two_shared_loads.ptx` warp 0's 32-way conflicted load holds MEM0 for 32
//! passes while warp 1's conflict-free load, issued after it, waits; the grid must show warp
//! 0's access (degree 32, its warp and instruction) all that time. MEM0 costs the access when
//! it takes it (`MemoryTiming::take`), so the grid and MEM0's passes come from one costing.

mod common;

use warpstep::core::held_accesses::MemPath;
use warpstep::snapshot::snapshot;

#[test]
fn the_bank_grid_is_the_access_mem0_holds() {
    let ptx = common::data("mem/two_shared_loads.ptx");
    // (preset, whether the second load issues while the first holds MEM0: the in-order
    // elastic-cf11 baseline stops issue behind a conflicting shared access instead).
    for (preset, overtakes) in [
        ("fermi", true),
        ("tesla-c2050-s", true),
        ("unified-micro12", true),
        ("elastic-cf11", false),
    ] {
        let prepared = common::prepare_flags(&ptx, &["--config", preset]);
        let mut sim = prepared.into_sim(&[]).unwrap();
        let (mut held, mut behind) = (0, 0);
        while !sim.finished() {
            sim.step();
            let sm = &sim.sms()[0];
            let Some(m) = sm.ldst().mem0().filter(|m| m.shared) else {
                continue;
            };
            let f = sm
                .in_flight_instr(m.tag)
                .expect("MEM0's instruction is in flight");
            held += 1;
            let grid = snapshot(&sim, 0).sm.bank_grid;
            assert_eq!(
                grid.configured.degree,
                m.degree,
                "{preset}, cycle {}: the grid shows MEM0's access (tag {})",
                sim.cycle(),
                m.tag
            );
            assert!(grid.in_mem0);
            assert_eq!(grid.warp, Some(f.warp), "{preset}: MEM0's warp");
            assert_eq!(
                grid.instr.map(|i| i.pc),
                Some(f.pc),
                "{preset}: MEM0's instruction"
            );
            let newer_shared = sm
                .in_flight()
                .iter()
                .any(|f| f.tag > m.tag && f.memory == Some(MemPath::Shared));
            if newer_shared && m.degree == 32 {
                behind += 1;
            }
        }
        assert!(
            held >= 33,
            "{preset}: MEM0 held the two loads {held} cycles"
        );
        assert_eq!(
            behind > 0,
            overtakes,
            "{preset}: the conflict-free load issued while the conflicted one held MEM0 ({behind} cycles)"
        );
    }
}
