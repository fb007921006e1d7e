//! Configuration: presets against their sources, JSON round trips, errors that name the key,
//! `--set`, partial files, unbuilt switches, cache strings, and the `warpstep config` CLI.

use std::process::Command;
use warpstep::config::cache_string::{CacheKind, MshrKind, SetIndex, WritePolicy};
use warpstep::config::{
    presets, Broadcast, CacheSpec, Config, ConfigError, IcntModel, MrpbSignature, PushOrder,
    RegLayout, SchedulerPolicy,
};

fn preset(name: &str) -> Config {
    Config::preset(name).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn l1d(c: &Config) -> CacheSpec {
    c.l1d_cache().unwrap().expect("this preset has an L1D")
}

fn err_of(result: Result<Config, ConfigError>) -> String {
    result.expect_err("expected an error").to_string()
}

// ---------------------------------------------------------------- presets

#[test]
fn every_preset_validates_runs_today_and_round_trips() {
    assert_eq!(presets().len(), 7);
    for p in presets() {
        let c = (p.build)();
        c.validate().unwrap_or_else(|e| panic!("{}: {e}", p.name));
        c.check_supported()
            .unwrap_or_else(|e| panic!("{}: {e}", p.name));
        let back = Config::from_json(&c.to_json_pretty()).unwrap();
        assert_eq!(back, c, "{} changed through pretty JSON", p.name);
        assert_eq!(
            Config::from_json(&c.to_json()).unwrap(),
            c,
            "{} compact",
            p.name
        );
        assert_eq!(Config::preset(p.name).unwrap(), c);
    }
}

#[test]
fn every_preset_turns_its_switches_off_and_says_how_to_turn_them_on() {
    for p in presets() {
        let c = (p.build)();
        assert!(
            !c.elastic.enabled && !c.mrpb.enabled && !c.unified.enabled,
            "{}",
            p.name
        );
        assert_ne!(c.core.scheduler, SchedulerPolicy::BankConflictAware);
        assert!(!p.description.is_empty());
    }
    let described = |name: &str, switch: &str| {
        let p = presets().iter().find(|p| p.name == name).unwrap();
        assert!(p.description.contains(switch), "{name}: {}", p.description);
    };
    described("tesla-c2050-s", "--set mrpb.enabled=true");
    described("tesla-c2050-l", "--set mrpb.enabled=true");
    described("elastic-cf11", "--set elastic.enabled=true");
    described("unified-micro12", "--set unified.enabled=true");
}

#[test]
fn default_is_fermi() {
    assert_eq!(Config::default(), preset("fermi"));
}

#[test]
fn gtx480_is_the_fermi_core_with_15_sms() {
    let whole = preset("gtx480");
    assert_eq!(whole.num_sms, 15); // -gpgpu_n_clusters 15
    assert_eq!(
        Config {
            num_sms: 1,
            ..whole
        },
        preset("fermi")
    );
}

#[test]
fn fermi_matches_gpgpu_sim_gtx480() {
    let c = preset("fermi");
    assert_eq!(c.num_sms, 1);
    assert_eq!(c.l1d.config, "N:32:128:4,L:L:m:N:H,S:64:8,8");
    assert_eq!(c.l1d.latency, 35);
    let l1 = l1d(&c);
    assert_eq!(l1.size_bytes(), 16 * 1024);
    assert_eq!(l1.set_index, SetIndex::FermiHash);
    assert_eq!(
        (l1.mshr, l1.mshr_entries, l1.mshr_max_merge, l1.miss_queue),
        (MshrKind::SectorAssoc, 64, 8, 8)
    );
    assert_eq!(c.shmem.latency, 26);
    assert_eq!((c.shmem.banks, c.shmem.bank_width), (32, 4));
    assert_eq!(
        (c.shmem.broadcast, c.shmem.warp_parts),
        (Broadcast::Full, 1)
    );
    assert_eq!(c.shmem.size_bytes, 48 * 1024);
    assert_eq!(c.l2.config, "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32");
    assert_eq!(
        (
            c.dram.channels,
            c.l2.sub_partitions_per_channel,
            c.l2_slices()
        ),
        (6, 2, 12)
    );
    assert_eq!(
        c.l2_cache().unwrap().unwrap().size_bytes() * u64::from(c.l2_slices()),
        768 * 1024
    );
    assert_eq!((c.l2.latency, c.l2.interleave_bytes), (120, 256));
    assert_eq!(
        (c.dram.latency, c.dram.queue_size, c.dram.banks),
        (100, 64, 16)
    );
    // GTX480 GDDR5: 6 channels x 2 chips x 4 B x QDR at 924 MHz = 253 B per 700 MHz cycle,
    // 64-byte bursts (issue 12: "about 250 bytes per core cycle at its peak").
    assert_eq!(c.dram_atom_bytes(), 64);
    let peak = c.dram_peak_bytes_per_core_cycle();
    assert!((peak - 253.44).abs() < 0.01, "{peak}");
    assert_eq!((c.clocks.core_mhz, c.clocks.dram_mhz), (700.0, 924.0));
    assert_eq!(c.icnt.flit_bytes, 40);
    assert_eq!(
        (c.core.schedulers_per_sm, c.core.scheduler),
        (2, SchedulerPolicy::Gto)
    );
    assert_eq!(
        (
            c.core.warp_size,
            c.core.max_threads_per_sm,
            c.core.max_warps_per_sm
        ),
        (32, 1536, 48)
    );
    assert_eq!(
        (c.core.max_ctas_per_sm, c.core.registers_per_sm),
        (8, 32768)
    );
    assert_eq!(
        (c.regfile.reg_banks, c.regfile.layout),
        (16, RegLayout::Swizzled)
    );
    assert_eq!(
        (c.regfile.collector_units.sp, c.regfile.collector_units.sfu),
        (6, 8)
    );
    assert_eq!(c.core.push_order, PushOrder::TakenLast);
    assert_eq!(
        (c.core.ibuffer_entries, c.core.scoreboard_max_entries),
        (2, None)
    );
    assert_eq!(
        (
            c.units.int.add.latency,
            c.units.int.div.latency,
            c.units.int.div.interval
        ),
        (4, 145, 8)
    );
    assert_eq!(
        (c.units.fp32.div.latency, c.units.fp64.div.latency),
        (39, 330)
    );
    assert_eq!(c.shmem.hash.to_string(), "mod");
    // config_fermi_islip.icnt: one router, one VC per port with 64-flit buffers, speedup 2.
    let i = &c.icnt;
    assert_eq!(
        (i.model, i.flit_bytes, i.latency, i.vc_buffer_flits),
        (IcntModel::Router, 40, 1, 64)
    );
    assert_eq!((i.injection_buffer_flits, i.internal_speedup), (9, 2));
}

#[test]
fn tesla_presets_match_mrpb_table_1() {
    for name in ["tesla-c2050-s", "tesla-c2050-l"] {
        let c = preset(name);
        let k = &c.core;
        assert_eq!(
            (k.schedulers_per_sm, k.scheduler),
            (2, SchedulerPolicy::Lrr),
            "{name}"
        );
        assert_eq!(
            (k.max_threads_per_sm, k.max_warps_per_sm, k.max_ctas_per_sm),
            (1536, 48, 8)
        );
        assert_eq!(k.max_threads_per_cta, 1024);
        let l1 = l1d(&c);
        assert_eq!(
            (l1.line_bytes, l1.mshr_entries, l1.set_index),
            (128, 32, SetIndex::Linear)
        );
        assert_eq!(c.l2.config, "64:128:16,L:B:m:W,A:32:4,4");
        let l2 = c.l2_cache().unwrap().unwrap();
        assert_eq!(
            (l2.size_bytes(), l2.assoc, c.l2_slices()),
            (128 * 1024, 16, 6)
        );
        assert_eq!(l2.write, WritePolicy::WriteBack);
        // The TeslaC2050 file's config_fermi_islip.icnt: 8-flit buffers, no speedup.
        assert_eq!(
            (
                c.icnt.model,
                c.icnt.vc_buffer_flits,
                c.icnt.internal_speedup
            ),
            (IcntModel::Router, 8, 1)
        );
        // Both share 64 KB between L1D and shared memory.
        assert_eq!(l1.size_bytes() + u64::from(c.shmem.size_bytes), 64 * 1024);
    }
    let s = preset("tesla-c2050-s");
    assert_eq!(s.l1d.config, "N:32:128:4,L:L:m:N:L,A:32:8,8");
    assert_eq!(
        (l1d(&s).size_bytes(), l1d(&s).assoc, s.shmem.size_bytes),
        (16 * 1024, 4, 48 * 1024)
    );
    let l = preset("tesla-c2050-l");
    assert_eq!(l.l1d.config, "N:64:128:6,L:L:m:N:L,A:32:8,8");
    assert_eq!(
        (l1d(&l).size_bytes(), l1d(&l).assoc, l.shmem.size_bytes),
        (48 * 1024, 6, 16 * 1024)
    );
}

#[test]
fn elastic_cf11_matches_table_3() {
    let c = preset("elastic-cf11");
    let k = &c.core;
    assert_eq!((k.simd_width, k.warp_size), (8, 32));
    assert_eq!(
        (k.max_threads_per_sm, k.max_ctas_per_sm, k.registers_per_sm),
        (1024, 8, 16384)
    );
    assert_eq!(k.scheduler, SchedulerPolicy::Lrr);
    assert_eq!((c.shmem.banks, c.shmem.size_bytes), (8, 16 * 1024));
    assert_eq!(c.elastic.mem_stages, 4);
    assert_eq!(c.premem_entries(), 3); // Elastic §5: PREMEM depth 3, NONMEM depth 4
    assert_eq!((c.elastic.history_sets, c.elastic.history_ways), (256, 2));
    assert_eq!(
        (c.dram.channels, c.dram.banks, c.dram.queue_size),
        (4, 8, 32)
    );
    assert_eq!(c.icnt.flit_bytes, 32);
    assert_eq!(c.l1d_cache().unwrap(), None);
}

#[test]
fn unified_micro12_matches_table_2() {
    let c = preset("unified-micro12");
    assert_eq!((c.core.warp_size, c.core.simd_width), (32, 32));
    assert_eq!(c.core.registers_per_sm * 4, 256 * 1024);
    assert_eq!(c.shmem.size_bytes, 64 * 1024);
    assert_eq!(c.shmem.banks * c.shmem.bank_width, 128); // 128 bytes/cycle
    let l1 = l1d(&c);
    assert_eq!(
        (l1.size_bytes(), l1.assoc, l1.line_bytes),
        (64 * 1024, 4, 128)
    );
    assert_eq!((c.units.int.add.latency, c.units.fp32.mad.latency), (8, 8));
    assert_eq!((c.units.sfu.latency, c.shmem.latency), (20, 20));
    // §5: DRAM latency 400, 8 bytes per cycle for the SM.
    assert_eq!(c.dram.latency + c.dram.timing.cl + c.dram.timing.rcd, 399);
    assert_eq!(c.dram_peak_bytes_per_core_cycle(), 8.0);
    assert_eq!(c.core.max_threads_per_sm, 1024);
    assert_eq!(c.unified.capacity_bytes, 384 * 1024);
}

#[test]
fn teaching_is_small() {
    let c = preset("teaching");
    assert_eq!(
        (c.core.warp_size, c.core.max_warps_per_sm, c.shmem.banks),
        (8, 4, 8)
    );
    assert_eq!(c.core.max_threads_per_sm, 32);
    assert!(c.units.int.add.latency <= 2 && c.shmem.latency <= 2 && c.l1d.latency <= 4);
    assert!(c.dram.latency + c.dram.timing.rp + c.dram.timing.rcd <= 30);
    assert!(l1d(&c).sets * l1d(&c).assoc <= 8);
}

// ---------------------------------------------------------------- errors name the key

#[test]
fn unknown_key_in_a_file_is_named_with_the_valid_keys() {
    let e = Config::from_json(r#"{"preset": "fermi", "shmem": {"bankz": 16}}"#).unwrap_err();
    assert!(matches!(&e, ConfigError::UnknownKey { key, .. } if key == "shmem.bankz"));
    let msg = e.to_string();
    assert!(
        msg.starts_with("shmem.bankz: unknown key; valid keys in `shmem`: "),
        "{msg}"
    );
    assert!(
        msg.contains("bank_width") && msg.contains("warp_parts"),
        "{msg}"
    );
    let top = err_of(Config::from_json(r#"{"preset": "fermi", "num_sm": 2}"#));
    assert!(
        top.starts_with("num_sm: unknown key; valid keys at the top level: clocks, constant, core"),
        "{top}"
    );
}

#[test]
fn unknown_key_in_a_complete_file_is_named() {
    let mut tree: serde_json::Value = serde_json::from_str(&preset("fermi").to_json()).unwrap();
    tree["dram"]["ranks"] = 2.into();
    let msg = err_of(Config::from_value(tree));
    assert!(msg.starts_with("dram.ranks: unknown key"), "{msg}");
}

#[test]
fn out_of_range_names_key_and_range() {
    let msg = err_of(Config::default().with_overrides(&["core.warp_size=33"]));
    assert_eq!(msg, "core.warp_size = 33: must be a power of two in 1..=64");
    let msg = err_of(Config::from_json(
        r#"{"preset": "fermi", "shmem": {"bank_width": 6}}"#,
    ));
    assert_eq!(msg, "shmem.bank_width = 6: must be one of 4, 8, 16");
    let msg = err_of(Config::default().with_overrides(&["mrpb.queue_depth=0"]));
    assert_eq!(msg, "mrpb.queue_depth = 0: must be in 1..=256");
    let msg = err_of(Config::default().with_overrides(&["units.fp64.div.interval=0"]));
    assert_eq!(msg, "units.fp64.div.interval = 0: must be in 1..=10000");
    let msg = err_of(Config::default().with_overrides(&["clocks.dram_mhz=-1"]));
    assert_eq!(
        msg,
        "clocks.dram_mhz = -1.0: must be a finite number in 1..=100000"
    );
    let e = Config::default()
        .with_overrides(&["num_sms=0"])
        .unwrap_err();
    assert!(
        matches!(e, ConfigError::OutOfRange { ref key, ref allowed, .. }
        if key == "num_sms" && allowed == "must be in 1..=64")
    );
}

#[test]
fn bad_enum_value_names_key_and_allowed_values() {
    let msg = err_of(Config::default().with_overrides(&["core.scheduler=fifo"]));
    assert_eq!(
        msg,
        "core.scheduler: unknown variant `fifo`, expected one of `lrr`, `gto`, `two_level`, `bank_conflict_aware`"
    );
    let msg = err_of(Config::from_json(
        r#"{"preset": "fermi", "mrpb": {"drain": "oldest"}}"#,
    ));
    assert!(
        msg.starts_with("mrpb.drain: unknown variant `oldest`"),
        "{msg}"
    );
    assert!(msg.contains("`greedy_longest_first`"), "{msg}");
    let msg = err_of(Config::default().with_overrides(&["core.push_order=left"]));
    assert!(
        msg.contains("`taken_last`, `fallthrough_last`, `smaller_last`"),
        "{msg}"
    );
}

#[test]
fn wrong_type_names_the_key() {
    let msg = err_of(Config::from_json(
        r#"{"preset": "fermi", "core": {"warp_size": "32"}}"#,
    ));
    assert!(
        msg.starts_with("core.warp_size: invalid type: string \"32\""),
        "{msg}"
    );
    let msg = err_of(Config::from_json(r#"{"preset": 3}"#));
    assert!(msg.starts_with("preset: must be a preset name"), "{msg}");
    let msg = err_of(Config::from_json("{"));
    assert!(msg.starts_with("not valid JSON"), "{msg}");
    let msg = err_of(Config::from_json(r#"{"num_sms": 1}"#));
    assert!(
        msg.contains("missing field `clocks`") && msg.contains("\"preset\""),
        "{msg}"
    );
}

#[test]
fn cross_field_checks_name_the_key() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["core.simd_width=64"],
            "core.simd_width: 64 must divide core.warp_size (32)",
        ),
        (
            &["core.max_threads_per_sm=1000"],
            "core.max_threads_per_sm: 1000 must be a multiple of core.warp_size (32)",
        ),
        (
            &["core.max_warps_per_sm=40"],
            "core.max_threads_per_sm: 1536 needs more than",
        ),
        (
            &["core.max_threads_per_cta=2048"],
            "core.max_threads_per_cta: 2048 exceeds",
        ),
        (&["core.active_warps=49"], "core.active_warps: 49 exceeds"),
        (
            &["shmem.warp_parts=64"],
            "shmem.warp_parts: 64 must divide core.warp_size",
        ),
        (
            &["shmem.size_bytes=1000"],
            "shmem.size_bytes: 1000 must be a multiple of",
        ),
        (&["shmem.hash=bwperm:0,1"], "shmem.hash: `bwperm:0,1`: "),
        (
            &["units.dp_units=1"],
            "regfile.collector_units.dp: must be at least 1",
        ),
        (
            &["dram.bank_groups=32"],
            "dram.bank_groups: 32 must be at most dram.banks (16)",
        ),
        (
            &["dram.burst_length=2"],
            "dram.burst_length: 2 must be a multiple of dram.data_command_ratio (4)",
        ),
        (
            &["l2.interleave_bytes=64"],
            "l2.interleave_bytes: 64 must be a multiple of the L2 line size (128)",
        ),
        (
            &["unified.banks_per_cluster=3"],
            "unified.banks_per_cluster: 3 must divide unified.banks (32)",
        ),
        (
            &["core.icache.model=cache", "core.icache.config=none"],
            "core.icache.config: is `none`",
        ),
        (
            &["icnt.injection_buffer_flits=3"],
            "icnt.injection_buffer_flits: 3 flits cannot hold a 136-byte packet",
        ),
        (
            &["icnt.flit_bytes=8", "icnt.injection_buffer_flits=64"],
            "icnt.flit_bytes: 8 makes a 136-byte packet 17 flits, more than",
        ),
    ];
    for (sets, want) in cases {
        let msg = err_of(Config::default().with_overrides(sets));
        assert!(msg.starts_with(want), "{sets:?}: got `{msg}`");
    }
}

// ---------------------------------------------------------------- --set and files

#[test]
fn set_changes_nested_keys_in_order() {
    let c = Config::default()
        .with_overrides(&[
            "core.scheduler=two_level",
            "core.active_warps=4",
            "units.fp32.mad.latency=7",
            "shmem.hash=bvxor:2,8,7",
            "core.scoreboard_max_entries=3",
            "l1d.config=N:64:128:6,L:L:m:N:L,A:32:8,8",
            "clocks.dram_mhz=1000.5",
            "dram.timing.ccdl=0",
            "mrpb.signature=\"block\"",
            "num_sms=2",
            "num_sms=3",
        ])
        .unwrap();
    assert_eq!(
        (c.core.scheduler, c.core.active_warps),
        (SchedulerPolicy::TwoLevel, 4)
    );
    assert_eq!(c.units.fp32.mad.latency, 7);
    assert_eq!(c.shmem.hash.to_string(), "bvxor:2,8,7");
    assert_eq!(c.core.scoreboard_max_entries, Some(3));
    assert_eq!(l1d(&c).assoc, 6);
    assert_eq!((c.clocks.dram_mhz, c.dram.timing.ccdl), (1000.5, 0));
    assert_eq!(c.mrpb.signature, MrpbSignature::Block);
    assert_eq!(c.mrpb_queues(), 8);
    assert_eq!(c.num_sms, 3);
    let back = c
        .with_overrides(&["core.scoreboard_max_entries=null"])
        .unwrap();
    assert_eq!(back.core.scoreboard_max_entries, None);
}

#[test]
fn set_rejects_unknown_keys_listing_the_level() {
    let e = Config::default()
        .with_overrides(&["core.warp_sise=16"])
        .unwrap_err();
    assert!(matches!(&e, ConfigError::UnknownKey { key, valid }
        if key == "core.warp_sise" && valid.iter().any(|v| v == "warp_size")));
    assert!(e
        .to_string()
        .starts_with("core.warp_sise: unknown key; valid keys in `core`: active_warps,"));
    let msg = err_of(Config::default().with_overrides(&["units.int.pow.latency=3"]));
    assert!(
        msg.starts_with(
            "units.int.pow: unknown key; valid keys in `units.int`: add, div, mad, max, mul"
        ),
        "{msg}"
    );
    let msg = err_of(Config::default().with_overrides(&["elastic=true"]));
    assert!(
        msg.starts_with("elastic: is a section; set one of its keys: "),
        "{msg}"
    );
    let msg = err_of(Config::default().with_overrides(&["core.warp_size"]));
    assert_eq!(msg, "--set core.warp_size: expected KEY=VALUE");
}

#[test]
fn partial_file_overlays_its_preset() {
    let text = r#"{
        "preset": "elastic-cf11",
        "core": { "scheduler": "gto", "icache": { "model": "perfect" } },
        "shmem": { "hash": "bvxor:2,8,7", "hash_latency": 2 }
    }"#;
    let c = Config::from_json(text).unwrap();
    let base = preset("elastic-cf11");
    assert_eq!(c.core.scheduler, SchedulerPolicy::Gto);
    assert_eq!(
        (c.shmem.hash.to_string().as_str(), c.shmem.hash_latency),
        ("bvxor:2,8,7", 2)
    );
    // Everything else is the preset's.
    assert_eq!((c.core.simd_width, c.shmem.banks), (8, 8));
    assert_eq!(c.core.icache, base.core.icache);
    let mut expected = base;
    expected.core.scheduler = SchedulerPolicy::Gto;
    expected.shmem.hash = "bvxor:2,8,7".parse().unwrap();
    expected.shmem.hash_latency = 2;
    assert_eq!(c, expected);
    // Then --set, as the CLI does.
    let c = c.with_overrides(&["elastic.enabled=true"]).unwrap();
    assert!(c.elastic.enabled);
}

#[test]
fn partial_file_still_validates_the_result() {
    let msg = err_of(Config::from_json(
        r#"{"preset": "teaching", "core": {"simd_width": 16}}"#,
    ));
    assert_eq!(msg, "core.simd_width: 16 must divide core.warp_size (8)");
    let msg = err_of(Config::from_json(r#"{"preset": "nope"}"#));
    assert!(
        msg.starts_with("unknown preset `nope`; presets: fermi, gtx480, tesla-c2050-s"),
        "{msg}"
    );
}

// ---------------------------------------------------------------- unbuilt switches

#[test]
fn unbuilt_switches_are_refused_never_ignored() {
    let cases = [(
        "l1d.config=N:32:128:4,L:L:m:N:P,S:64:8,8",
        "l1d.config = N:32:128:4,L:L:m:N:P,S:64:8,8: set index function P (IPOLY hash) is not built yet",
    )];
    for (set, want) in cases {
        let c = Config::default()
            .with_overrides(&[set])
            .expect("an unbuilt switch still validates");
        let e = c.check_supported().unwrap_err();
        assert_eq!(e.to_string(), want);
        assert!(matches!(e, ConfigError::NotBuilt(ref list) if list.len() == 1));
    }
    // Built since issue 14: the elastic pipeline and the in-order baseline run; since issue
    // 16, unified local memory.
    for set in [
        "elastic.enabled=true",
        "elastic.baseline=in_order",
        "unified.enabled=true",
    ] {
        let c = Config::default().with_overrides(&[set]).unwrap();
        assert!(c.check_supported().is_ok(), "{set}");
    }
}

// ---------------------------------------------------------------- cache strings

#[test]
fn cache_strings_round_trip_and_name_bad_fields() {
    for s in [
        "N:32:128:4,L:L:m:N:H,S:64:8,8",
        "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32",
        "64:128:16,L:B:m:W,A:32:4,4",
    ] {
        assert_eq!(CacheSpec::parse(s).unwrap().to_string(), s);
    }
    let l2 = CacheSpec::parse("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32").unwrap();
    assert_eq!(
        (l2.kind, l2.data_port_width, l2.result_fifo),
        (CacheKind::Sector, Some(32), Some(0))
    );
    let msg =
        err_of(Config::default().with_overrides(&["l1d.config=N:32:128:x,L:L:m:N:H,S:64:8,8"]));
    assert_eq!(msg, "l1d.config: field 3 (assoc) `x` is not a number");
    let msg = err_of(
        Config::default().with_overrides(&["l2.config=S:64:128:8,L:B:q:L:L,A:256:4,4:0,32"]),
    );
    assert!(
        msg.starts_with("l2.config: field 6 (alloc) `q` is not one of m (allocate on miss)"),
        "{msg}"
    );
    let msg = err_of(Config::default().with_overrides(&["constant.cache=N:64:64:2"]));
    assert!(
        msg.starts_with("constant.cache: `N:64:64:2` has 1 comma-separated groups"),
        "{msg}"
    );
}

// ---------------------------------------------------------------- robustness

#[test]
fn hostile_overrides_on_every_key_never_panic() {
    let tree: serde_json::Value = serde_json::from_str(&Config::default().to_json()).unwrap();
    let mut keys = Vec::new();
    collect_keys(&tree, String::new(), &mut keys);
    assert!(keys.len() > 90, "{} keys", keys.len());
    let values = [
        "0",
        "-1",
        "4294967295",
        "1e308",
        "NaN",
        "\"\"",
        "null",
        "[]",
        "{}",
        "x",
        "none",
        "true",
    ];
    for key in &keys {
        for value in values {
            let result = Config::default().with_overrides(&[format!("{key}={value}")]);
            if let Ok(c) = result {
                c.validate().unwrap();
                let _ = c.check_supported();
            }
        }
    }
}

fn collect_keys(value: &serde_json::Value, path: String, out: &mut Vec<String>) {
    match value {
        serde_json::Value::Object(map) => {
            for (k, v) in map {
                let p = if path.is_empty() {
                    k.clone()
                } else {
                    format!("{path}.{k}")
                };
                collect_keys(v, p, out);
            }
        }
        _ => out.push(path),
    }
}

// ---------------------------------------------------------------- CLI

fn warpstep(args: &[&str]) -> std::process::Output {
    Command::new(env!("CARGO_BIN_EXE_warpstep"))
        .args(args)
        .output()
        .expect("run warpstep")
}

#[test]
fn cli_show_prints_the_preset_as_json() {
    let out = warpstep(&["config", "show", "fermi"]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    let shown = Config::from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(shown, preset("fermi"));

    let out = warpstep(&[
        "config",
        "show",
        "teaching",
        "--set",
        "core.scheduler=gto",
        "--set",
        "shmem.banks=4",
    ]);
    assert!(out.status.success());
    let shown = Config::from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(
        (shown.core.scheduler, shown.shmem.banks),
        (SchedulerPolicy::Gto, 4)
    );
}

#[test]
fn cli_list_names_every_preset_with_its_description() {
    let out = warpstep(&["config", "list"]);
    assert!(out.status.success());
    let text = String::from_utf8(out.stdout).unwrap();
    assert_eq!(text.lines().count(), presets().len());
    for p in presets() {
        assert!(
            text.lines()
                .any(|l| l.starts_with(p.name) && l.ends_with(p.description)),
            "{}",
            p.name
        );
    }
}

#[test]
fn cli_bad_set_exits_2_with_the_message_on_stderr() {
    let out = warpstep(&["config", "show", "fermi", "--set", "core.warp_sise=16"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("core.warp_sise: unknown key; valid keys in `core`:"),
        "{err}"
    );

    let out = warpstep(&["config", "show", "fermi", "--set", "core.warp_size=33"]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("core.warp_size = 33: must be a power of two in 1..=64"));
}

#[test]
fn cli_check_reports_ok_or_the_unbuilt_switch() {
    let dir = std::env::temp_dir().join(format!("warpstep-config-test-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("partial.json");
    std::fs::write(
        &file,
        r#"{"preset": "tesla-c2050-s", "mrpb": {"queue_depth": 16}}"#,
    )
    .unwrap();
    let path = file.to_str().unwrap();

    let out = warpstep(&["config", "check", path]);
    assert!(
        out.status.success(),
        "{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_eq!(String::from_utf8(out.stdout).unwrap().trim(), "OK");

    let ipoly = "l1d.config=N:32:128:4,L:L:m:N:P,S:64:8,8";
    let out = warpstep(&["config", "check", path, "--set", ipoly]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("set index function P (IPOLY hash)"), "{err}");
    assert!(err.contains("is not built yet"), "{err}");
    // Unified local memory is built (issue 16).
    let out = warpstep(&["config", "check", path, "--set", "unified.enabled=true"]);
    assert_eq!(out.status.code(), Some(0));
    // MRPB is built: the same file with it on checks out.
    let out = warpstep(&["config", "check", path, "--set", "mrpb.enabled=true"]);
    assert_eq!(out.status.code(), Some(0));

    let out = warpstep(&["config", "show", path]);
    let shown = Config::from_json(&String::from_utf8(out.stdout).unwrap()).unwrap();
    assert_eq!(
        (shown.mrpb.queue_depth, shown.shmem.size_bytes),
        (16, 48 * 1024)
    );

    let out = warpstep(&[
        "config",
        "check",
        dir.join("missing.json").to_str().unwrap(),
    ]);
    assert_eq!(out.status.code(), Some(2));
    assert!(String::from_utf8(out.stderr)
        .unwrap()
        .contains("cannot read"));
    std::fs::remove_dir_all(&dir).unwrap();
}
