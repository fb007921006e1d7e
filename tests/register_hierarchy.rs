//! The software-controlled register file hierarchy (`regfile.hierarchy`; Gebhart et al.
//! MICRO'11, the design MICRO'12 §2.1 and §4.3 build on; docs/register_hierarchy.md): the
//! compile-time allocation of every operand to the LRF, ORF or MRF on two hand-written kernels,
//! the access counts it gives, the MRF reads it saves on the unified experiment's needle, and
//! that with the switch off nothing changes.

mod common;

use common::{data, prepare_flags};
use warpstep::config::Config;
use warpstep::core::decode::decode_kernel;
use warpstep::core::register_hierarchy::{allocate, Level, Placement};
use warpstep::energy::EnergyCounts;
use warpstep::experiment::unified::{Design, Size, UnifiedRun, Workload};
use warpstep::sim::{RegisterFileStats, Sim, Status};

use Level::{Lrf as L, Mrf as M, Orf as O};

fn finished(kernel: &str, flags: &[&str]) -> Sim {
    let mut sim = prepare_flags(&data(kernel), flags)
        .into_sim(&[])
        .expect("sim");
    sim.run(1_000_000);
    assert_eq!(sim.status(), &Status::Completed);
    sim
}

/// The kernel's placements, with the hierarchy on (ORF 4, LRF 1).
fn placements(kernel: &str) -> Vec<Placement> {
    let sim = finished(kernel, &["--set", "regfile.hierarchy=true"]);
    let func = sim.image().func();
    let config = sim.config();
    let decoded = decode_kernel(func, &config.units, &config.regfile);
    allocate(func, &decoded, 4, 1)
}

/// Register number of `%rN` / `%rdN` in the kernel's register table.
fn reg(sim: &Sim, name: &str) -> u32 {
    sim.image()
        .func()
        .regs
        .iter()
        .position(|r| r.name == name)
        .unwrap_or_else(|| panic!("no register {name}")) as u32
}

/// Each instruction's reads as (register name, level), in instruction order.
fn reads_by_name(sim: &Sim, p: &[Placement]) -> Vec<Vec<(String, Level)>> {
    let names = &sim.image().func().regs;
    p.iter()
        .map(|p| {
            p.reads
                .iter()
                .map(|&(r, l)| (names[r as usize].name.clone(), l))
                .collect()
        })
        .collect()
}

fn named(v: &[(&str, Level)]) -> Vec<(String, Level)> {
    v.iter().map(|&(n, l)| (n.to_string(), l)).collect()
}

/// energy_count.ptx (tests/energy.rs): three strands (the block, split before the add that
/// reads the first global load's result and before the add that reads the second's). By hand:
/// 18 operand reads, 7 from the MRF, 8 from the ORF, 3 from the LRF; 14 results, 7 written to
/// the MRF (4 of them also to the LRF or ORF: they live into a later strand), 7 to the ORF, 3 to
/// the LRF.
#[test]
fn energy_count_kernel_places_each_operand_as_by_hand() {
    let kernel = "kernels/energy_count.ptx";
    let p = placements(kernel);
    let sim = finished(kernel, &["--set", "regfile.hierarchy=true"]);
    let starts: Vec<usize> = (0..p.len()).filter(|&i| p[i].strand_start).collect();
    assert_eq!(starts, vec![0, 6, 13], "strands");
    let reads = reads_by_name(&sim, &p);
    let want: [&[(&str, Level)]; 17] = [
        &[],
        &[],
        &[],
        &[("%r1", L)],
        &[("%rd1", O), ("%rd3", L)],
        &[("%rd4", O)],
        &[("%r2", M)],
        &[("%r1", M)],
        &[],
        &[("%r5", L), ("%r4", O)],
        &[("%r6", O), ("%r3", O)],
        &[("%r6", O)],
        &[("%rd4", M)],
        &[("%r7", M), ("%r8", M)],
        &[("%rd2", M), ("%rd3", M)],
        &[("%rd5", O), ("%r9", O)],
        &[],
    ];
    for (pc, w) in want.iter().enumerate() {
        assert_eq!(reads[pc], named(w), "reads at pc {pc}");
    }
    // Writes: r1, rd3 to the LRF and rd4 to the ORF, each also to the MRF (read in a later
    // strand); r5 to the LRF only; long-latency results to the MRF.
    let w = |pc: usize| p[pc].writes[0];
    assert_eq!(w(2), (reg(&sim, "%r1"), L, true));
    assert_eq!(w(3), (reg(&sim, "%rd3"), L, true));
    assert_eq!(w(4), (reg(&sim, "%rd4"), O, true));
    assert_eq!(w(5), (reg(&sim, "%r2"), M, false));
    assert_eq!(w(8), (reg(&sim, "%r5"), L, false));
    assert_eq!(w(11), (reg(&sim, "%r7"), M, false));

    // The run counts them: 8 bank accesses per warp register.
    let stats = sim.stats();
    assert_eq!(
        stats.register_file,
        Some(RegisterFileStats {
            mrf_reads: 7,
            mrf_writes: 7,
            orf_reads: 8,
            orf_writes: 7,
            lrf_reads: 3,
            lrf_writes: 3,
        })
    );
    let c = sim.energy_counts();
    assert_eq!((c.rf_reads, c.rf_writes), (56, 56));
    assert_eq!(
        (c.orf_reads, c.orf_writes, c.lrf_reads, c.lrf_writes),
        (64, 56, 24, 24)
    );
    // Priced: MRF at Table 4's partitioned 9.8/11.8 pJ, ORF 1.2/4.4, LRF 0.7/2.0.
    let e = sim.energy();
    let want = 64.0 * 1.2 + 56.0 * 4.4 + 24.0 * 0.7 + 24.0 * 2.0;
    assert!((e.register_hierarchy_pj - want).abs() < 1e-9, "{e:?}");
    assert!((e.register_file_pj - (56.0 * 9.8 + 56.0 * 11.8)).abs() < 1e-9);
}

/// rfh_loop.ptx: a loop body is a strand of its own; values read twice come from the MRF once
/// and then from the ORF; a loop-carried value goes to the MRF; the counter's new value is both
/// in the LRF (read by the compare) and the MRF (read on the next trip). 3 trips.
#[test]
fn loop_kernel_places_and_counts_as_its_comments_say() {
    let kernel = "kernels/rfh_loop.ptx";
    let p = placements(kernel);
    let sim = finished(kernel, &["--set", "regfile.hierarchy=true"]);
    let starts: Vec<usize> = (0..p.len()).filter(|&i| p[i].strand_start).collect();
    assert_eq!(starts, vec![0, 4, 10], "strands: the blocks");
    let reads = reads_by_name(&sim, &p);
    assert_eq!(reads[4], named(&[("%r3", M), ("%r1", M)]));
    assert_eq!(p[4].orf_fills, 2);
    assert_eq!(reads[5], named(&[("%r4", L)]));
    assert_eq!(reads[6], named(&[("%r2", M), ("%r5", L)]));
    assert_eq!(reads[7], named(&[("%r3", O)]));
    assert_eq!(reads[8], named(&[("%r3", L), ("%r1", O)]));
    assert_eq!(reads[10], named(&[("%rd1", M), ("%r2", M)]));
    assert_eq!(p[6].writes, vec![(reg(&sim, "%r2"), M, false)]);
    assert_eq!(p[7].writes, vec![(reg(&sim, "%r3"), L, true)]);
    // Per trip: MRF 3 reads 2 writes, ORF 2 and 2 (the fills), LRF 3 and 3; then the prologue's
    // 4 MRF writes and the store's 2 MRF reads.
    assert_eq!(
        sim.stats().register_file,
        Some(RegisterFileStats {
            mrf_reads: 11,
            mrf_writes: 10,
            orf_reads: 6,
            orf_writes: 6,
            lrf_reads: 9,
            lrf_writes: 9,
        })
    );
    assert_eq!(finished(kernel, &[]).stats().warp_instructions, 24);
}

/// Switch off (every preset): every operand in the MRF, nothing counted for the small files,
/// the JSON as before (no `register_file`, no ORF/LRF counts), the same cycles and counts as
/// tests/energy.rs's hand count.
#[test]
fn with_the_switch_off_nothing_changes() {
    let kernel = "kernels/energy_count.ptx";
    let off = finished(kernel, &[]);
    assert!(!off.config().regfile.hierarchy);
    for d in off.decoded() {
        assert_eq!(d.mrf_reads, d.bank_reads);
        assert_eq!(d.mrf_dests, d.dests);
        assert_eq!(
            (
                d.orf_reads,
                d.lrf_reads,
                d.orf_writes,
                d.lrf_writes,
                d.orf_fills
            ),
            (0, 0, 0, 0, 0)
        );
    }
    assert_eq!(off.stats().register_file, None);
    let c = off.energy_counts();
    assert_eq!((c.rf_reads, c.rf_writes), (144, 112));
    assert_eq!(
        EnergyCounts {
            orf_reads: 0,
            orf_writes: 0,
            lrf_reads: 0,
            lrf_writes: 0,
            ..c
        },
        c
    );
    let json = serde_json::to_string(&c).unwrap();
    assert!(!json.contains("orf") && !json.contains("lrf"), "{json}");
    assert_eq!(off.energy().register_hierarchy_pj, 0.0);
    let stats = serde_json::to_string(&off.stats()).unwrap();
    assert!(!stats.contains("register_file\""), "{stats}");
    for preset in ["fermi", "unified-micro12"] {
        assert!(
            !Config::preset(preset).unwrap().regfile.hierarchy,
            "{preset}"
        );
    }
    // Same instructions with the switch on, fewer MRF accesses, no slower here.
    let on = finished(kernel, &["--set", "regfile.hierarchy=true"]);
    assert_eq!(on.stats().warp_instructions, off.stats().warp_instructions);
    assert!(
        on.cycle() <= off.cycle(),
        "{} > {}",
        on.cycle(),
        off.cycle()
    );
}

/// MICRO'12 §2.1 (from [9]): the hierarchy takes about 60% of the accesses off the MRF. On the
/// experiment's needle (BLOCK_SIZE 32, Table 1's shape; the tests' small input) warpstep's
/// allocation takes 65% of the operand reads off the MRF banks (measured; 64-66% on the full
/// 2048 x 2048 input, docs/unified.md). The band, 55-75%, is the paper's "60%" give or take
/// the spread of [9]'s per-benchmark results; the same instructions run either way.
#[test]
fn needle_reads_about_sixty_percent_fewer_operands_from_the_mrf() {
    let run = |design| {
        let m = UnifiedRun {
            workload: Workload::Needle,
            design,
            size: Size::Quick,
        }
        .execute();
        assert_eq!(m.error, None);
        m.totals
    };
    let off = run(Design::Partitioned);
    let on = run(Design::PartitionedHierarchy);
    assert_eq!(on.warp_instructions, off.warp_instructions);
    let cut = 1.0 - on.energy_counts.rf_reads as f64 / off.energy_counts.rf_reads as f64;
    assert!((0.55..=0.75).contains(&cut), "MRF reads cut by {cut:.3}");
    let small = on.energy_counts.orf_reads + on.energy_counts.lrf_reads;
    assert_eq!(
        small + on.energy_counts.rf_reads,
        off.energy_counts.rf_reads,
        "every operand read from one level"
    );
}

/// `warpstep run` prints the hierarchy's counts on a line of their own and the ORF/LRF energy
/// part, and `--json` has them as `register_file`.
#[test]
fn run_prints_the_counts() {
    let file = format!(
        "{}/tests/data/kernels/rfh_loop.ptx",
        env!("CARGO_MANIFEST_DIR")
    );
    let run = |extra: &[&str]| {
        let o = std::process::Command::new(env!("CARGO_BIN_EXE_warpstep"))
            .args(["run", &file, "--set", "regfile.hierarchy=true"])
            .args(extra)
            .output()
            .expect("warpstep");
        assert!(o.status.success(), "{}", String::from_utf8_lossy(&o.stderr));
        String::from_utf8_lossy(&o.stdout).into_owned()
    };
    let text = run(&[]);
    assert!(
        text.contains("MRF 11 reads, 10 writes; ORF 6 reads, 6 writes; LRF 9 reads, 9 writes"),
        "{text}"
    );
    assert!(text.contains("ORF/LRF 0.5 nJ"), "{text}");
    let json: serde_json::Value = serde_json::from_str(&run(&["--json"])).expect("JSON");
    assert_eq!(json["register_file"]["orf_reads"], 6);
    assert_eq!(json["energy"]["counts"]["lrf_writes"], 72);
}

/// Values from an earlier block read three times, first by a store (an instruction with no
/// result): the store reads them from the MRF and fills the ORF at issue, the later reads come
/// from the ORF. One thread: 2 MRF reads, 5 ORF reads, 3 ORF writes (2 fills and `%r2`).
#[test]
fn a_store_that_reads_a_value_first_fills_the_orf() {
    let ptx = "
.version 7.0
.target sm_52
.address_size 64
.visible .entry fill(.param .u64 out)
{
	.reg .b32 	%r<3>;
	.reg .b64 	%rd<2>;
	ld.param.u64 	%rd1, [out];
	mov.u32 	%r1, 5;
	bra.uni 	NEXT;
NEXT:
	st.global.u32 	[%rd1], %r1;
	st.global.u32 	[%rd1+4], %r1;
	add.s32 	%r2, %r1, 1;
	st.global.u32 	[%rd1+8], %r2;
	ret;
}
";
    let flags = [
        "--config",
        "unified-micro12",
        "--block",
        "1",
        "--arg",
        "u32[3]=0",
        "--set",
        "regfile.hierarchy=true",
    ];
    let mut sim = prepare_flags(ptx, &flags).into_sim(&[]).expect("sim");
    sim.run(100_000);
    assert_eq!(sim.status(), &Status::Completed);
    let func = sim.image().func();
    let config = sim.config();
    let p = allocate(
        func,
        &decode_kernel(func, &config.units, &config.regfile),
        4,
        1,
    );
    assert_eq!(p[3].orf_fills, 2, "the first store fills rd1 and r1");
    let reads = reads_by_name(&sim, &p);
    assert_eq!(reads[3], named(&[("%rd1", M), ("%r1", M)]));
    assert_eq!(reads[4], named(&[("%rd1", O), ("%r1", O)]));
    assert_eq!(reads[6], named(&[("%rd1", O), ("%r2", O)]));
    assert_eq!(
        sim.stats().register_file,
        Some(RegisterFileStats {
            mrf_reads: 2,
            mrf_writes: 2,
            orf_reads: 5,
            orf_writes: 3,
            lrf_reads: 0,
            lrf_writes: 0,
        })
    );
}
