//! The bank grid shows the shared access MEM0 serves in that cycle (issue 31), not the one that
//! issued last: in `two_shared_loads.ptx` warp 0's 32-way conflicted load holds MEM0 for 32
//! passes while warp 1's conflict-free load, issued after it, waits; the grid must show warp
//! 0's access (degree 32) all that time.

mod common;

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
            let Some(m) = sm.ldst().mem0() else { continue };
            let Some(cost) = sm.in_flight_instr(m.tag).and_then(|f| f.memory) else {
                continue;
            };
            if !cost.shared {
                continue;
            }
            held += 1;
            let grid = snapshot(&sim, 0).sm.bank_grid;
            assert_eq!(
                grid.configured.degree,
                cost.degree,
                "{preset}, cycle {}: the grid shows MEM0's access (tag {})",
                sim.cycle(),
                m.tag
            );
            let newer_shared = sm
                .in_flight()
                .iter()
                .any(|f| f.tag > m.tag && f.memory.is_some_and(|c| c.shared));
            if newer_shared && cost.degree == 32 {
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
