//! Cache-conscious wavefront scheduling (Rogers, O'Connor and Aamodt, MICRO 2012; the book's
//! section 5.1.2) over `gto` and `lrr` on a kernel that thrashes a small L1D: each of 16 warps
//! rereads its own 8 lines (1 KB) 8 times, 16 KB in all, through a 4 KB L1D. Static wavefront
//! limiting (SWL) to 2 warps lets the 2 warps' 2 KB stay in the cache; dynamic CCWS finds the lost
//! intra-warp locality in its victim tag arrays and holds loads back. The Why? chain names the
//! cause.

mod common;
use common::prepare_flags;
use warpstep::config::Config;
use warpstep::run::buffer_bytes;
use warpstep::sim::{Sim, SimStats as Stats};
use warpstep::why::explain;

const REUSE: &str = "// warpstep: --grid 1 --block 512 --arg u32[4096]=rand:3 --arg u32[512]=0
extern \"C\" __global__ void reuse(const unsigned *data, unsigned *out) {
  unsigned warp = threadIdx.x / 32, lane = threadIdx.x % 32;
  unsigned sum = 0;
  for (int r = 0; r < 8; r++)
    for (int i = 0; i < 8; i++)
      sum += data[(warp * 8 + i) * 32 + lane] * (r + 1);
  out[threadIdx.x] = sum;
}
";

/// A 4 KB L1D: 8 sets of 4 ways of 128-byte lines.
const SMALL_L1D: &str = "l1d.config=N:8:128:4,L:L:m:N:L,S:64:8,8";

fn sim(sets: &[&str]) -> Sim {
    let mut flags = vec!["--set", SMALL_L1D];
    for s in sets {
        flags.extend(["--set", s]);
    }
    prepare_flags(REUSE, &flags).into_sim(&[]).expect("sim")
}

/// Buffer argument `index` of `s`, as 32-bit words.
fn words(s: &Sim, index: usize) -> Vec<u32> {
    let bytes = buffer_bytes(s.image(), s.global(), index).expect("buffer");
    bytes
        .chunks_exact(4)
        .map(|c| u32::from_le_bytes([c[0], c[1], c[2], c[3]]))
        .collect()
}

fn run(sets: &[&str]) -> (Stats, Vec<u32>) {
    let mut s = sim(sets);
    s.run(10_000_000);
    assert!(s.finished(), "{:?}", s.status());
    let out = words(&s, 1);
    assert_eq!(out, expected(&words(&s, 0)), "{sets:?}: the sums");
    (s.stats(), out)
}

/// What every thread's sum must be: sum over r, i of data[...] * (r + 1) = 36 x its 8 words.
fn expected(data: &[u32]) -> Vec<u32> {
    (0..512u32)
        .map(|t| {
            let (warp, lane) = (t / 32, t % 32);
            let words = (0..8).map(|i| data[((warp * 8 + i) * 32 + lane) as usize]);
            words.fold(0u32, |a, w| a.wrapping_add(w.wrapping_mul(36)))
        })
        .collect()
}

#[test]
fn swl_at_two_warps_turns_the_thrashing_into_hits_over_both_base_policies() {
    for base in ["gto", "lrr"] {
        let policy = format!("core.scheduler={base}");
        let (plain, out) = run(&[&policy]);
        let (swl, out_swl) = run(&[&policy, "core.ccws.swl_warps=2"]);
        assert_eq!(out, out_swl, "{base}: same results");
        // 16 warps x 8 lines x 8 passes = 1024 warp loads (one line each, coalesced), and each
        // warp's one store of its sums.
        assert_eq!(plain.l1d.accesses, 1024 + 16);
        assert_eq!(swl.l1d.accesses, 1024 + 16);
        // Two warps' 16 lines fit the 32-line L1D: each line misses once, on the first pass,
        // and every later pass hits (stores are write-evict misses).
        assert_eq!(swl.l1d.misses, 16 * 8 + 16, "{base}: {:?}", swl.l1d);
        assert_eq!(swl.l1d.hits, 1024 - 16 * 8, "{base}: {:?}", swl.l1d);
        // Sixteen warps' 128 lines thrash it.
        assert!(plain.l1d.hits < 100, "{base}: {:?}", plain.l1d);
        let ccws = swl.ccws.expect("ccws counters");
        assert!(ccws.limited_cycles > 0);
        assert_eq!(ccws.vta_hits, 0, "no victim tags without dynamic CCWS");
        assert!(plain.ccws.is_none());
    }
}

#[test]
fn dynamic_ccws_finds_lost_locality_and_holds_loads_back() {
    let (plain, _) = run(&["core.scheduler=gto"]);
    let (dynamic, out) = run(&["core.scheduler=gto", "core.ccws.dynamic=true"]);
    let ccws = dynamic.ccws.expect("ccws counters");
    assert!(ccws.vta_hits > 0, "{ccws:?}");
    assert!(ccws.throttled_cycles > 0, "{ccws:?}");
    assert!(dynamic.stalls.get("ccws_throttle").copied().unwrap_or(0) > 0);
    assert!(
        dynamic.l1d.hits > plain.l1d.hits,
        "CCWS {} hits against GTO's {}",
        dynamic.l1d.hits,
        plain.l1d.hits
    );
    assert_eq!(out.len(), 512);
}

#[test]
fn the_why_chain_names_the_static_limit_and_its_warps() {
    let mut s = sim(&["core.ccws.swl_warps=2"]);
    s.set_record_warp_states(true);
    while !s.finished() {
        s.step();
        let why = explain(&s, 0, 5, None).expect("warp 5");
        if why.state == "swl_limit" {
            let text: Vec<&str> = why.links.iter().map(|l| l.text.as_str()).collect();
            assert!(text[0].contains("cache-conscious scheduling"), "{text:?}");
            assert!(text[1].contains("swl_warps = 2"), "{text:?}");
            assert!(text[1].contains("warps 0, 1."), "{text:?}");
            return;
        }
    }
    panic!("warp 5 was never held by the static limit");
}

#[test]
fn the_why_chain_of_a_throttled_load_names_the_scores_and_the_cutoff() {
    let mut s = sim(&["core.scheduler=gto", "core.ccws.dynamic=true"]);
    s.set_record_warp_states(true);
    while !s.finished() {
        s.step();
        for w in 0..16 {
            let why = explain(&s, 0, w, None).expect("warp");
            if why.state != "ccws_throttle" {
                continue;
            }
            let text: Vec<&str> = why.links.iter().map(|l| l.text.as_str()).collect();
            assert!(text[0].contains("victim tag hits"), "{text:?}");
            assert!(text[1].contains("Dynamic CCWS"), "{text:?}");
            assert!(text[1].contains("fill the cutoff of"), "{text:?}");
            assert!(text[1].contains("ld.global"), "{text:?}");
            assert!(!why.links[1].warps.contains(&w), "{text:?}");
            return;
        }
    }
    panic!("no load was ever held back");
}

#[test]
fn bad_ccws_settings_name_their_key() {
    let base = Config::preset("fermi").expect("fermi");
    let err = base
        .with_overrides(&["core.ccws.swl_warps=49"])
        .expect_err("more than the warp slots");
    assert!(err.to_string().contains("core.ccws.swl_warps"), "{err}");
    let err = base
        .with_overrides(&["core.scheduler=two_level", "core.ccws.dynamic=true"])
        .expect_err("only over lrr or gto");
    assert!(err.to_string().contains("core.ccws.dynamic"), "{err}");
    assert!(err.to_string().contains("not two_level"), "{err}");
    let err = base
        .with_overrides(&["core.ccws.vta_ways=0"])
        .expect_err("no ways");
    assert!(err.to_string().contains("core.ccws.vta_ways"), "{err}");
}
