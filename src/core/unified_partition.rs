//! How a unified local memory is divided at kernel launch (Gebhart et al., MICRO'12, §4.5
//! "Allocation Decisions"; MODEL.md section 11).
//!
//! The register file, shared memory and primary data cache of an SM are one pool of
//! `unified.capacity_bytes` (Unified §4.1). Before a kernel runs, the hardware scheduler divides
//! the pool by the number of bytes each thread needs (4 per register the compiler asks for, plus
//! the shared memory per thread): that gives the most threads the pool can hold, capped by the
//! SM's thread limit and rounded down to whole CTAs. Registers and shared memory take what those
//! threads need; the rest is a 4-way cache of 128-byte lines (sets = floor(bytes / 512), indexed
//! modulo the set count when it is not a power of two; bytes beyond whole sets stay unused).
//!
//! Section 6.3's limited, Fermi-like unification keeps a fixed register file and divides only
//! the rest between shared memory and cache, 3:1 one way or the other (the paper's 96/32 and
//! 32/96 KB beside a 256 KB register file).

use crate::config::{Config, UnifiedMode};

/// What one kernel asks of an SM's local storage.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct StorageDemand {
    /// Registers per thread (the most live at once, or `--regs`).
    pub registers_per_thread: u32,
    /// Shared-memory bytes per thread (Table 1, column 9: fractional when a CTA's shared
    /// memory does not divide by its threads).
    pub shared_bytes_per_thread: f64,
    /// Threads per CTA: the thread count is rounded down to whole CTAs (1: no rounding).
    pub threads_per_cta: u32,
}

impl StorageDemand {
    /// A kernel launch's demand: `shared_bytes_per_cta` over `threads_per_cta` threads.
    pub fn for_launch(
        registers_per_thread: u32,
        shared_bytes_per_cta: u32,
        threads_per_cta: u32,
    ) -> Self {
        let threads = threads_per_cta.max(1);
        StorageDemand {
            registers_per_thread,
            shared_bytes_per_thread: f64::from(shared_bytes_per_cta) / f64::from(threads),
            threads_per_cta: threads,
        }
    }

    /// Bytes one thread needs: 4 per register plus its shared memory.
    pub fn bytes_per_thread(&self) -> f64 {
        4.0 * f64::from(self.registers_per_thread) + self.shared_bytes_per_thread
    }

    /// Shared-memory bytes of one CTA.
    fn shared_bytes_per_cta(&self) -> f64 {
        self.shared_bytes_per_thread * f64::from(self.threads_per_cta)
    }
}

/// The limits of one SM that the partition respects.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PoolShape {
    /// The pool's bytes (`unified.capacity_bytes`).
    pub capacity_bytes: u32,
    /// Most resident threads (`core.max_threads_per_sm`).
    pub max_threads: u32,
    pub mode: UnifiedMode,
    /// The register file that `fermi` mode keeps apart from the pool (`unified.fermi_rf_bytes`).
    pub fermi_rf_bytes: u32,
    /// Cache ways and line bytes (`unified.cache_assoc`, `unified.cache_line_bytes`).
    pub cache_assoc: u32,
    pub cache_line_bytes: u32,
}

impl PoolShape {
    pub fn of(config: &Config) -> PoolShape {
        let u = &config.unified;
        PoolShape {
            capacity_bytes: u.capacity_bytes,
            max_threads: config.core.max_threads_per_sm,
            mode: u.mode,
            fermi_rf_bytes: u.fermi_rf_bytes,
            cache_assoc: u.cache_assoc,
            cache_line_bytes: u.cache_line_bytes,
        }
    }
}

/// The division of the pool for one kernel.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Partition {
    /// Resident threads per SM.
    pub threads: u32,
    /// Register-file bytes (4 x registers per thread x threads; in `fermi` mode the fixed file).
    pub register_bytes: u32,
    /// Shared-memory bytes.
    pub shared_bytes: u32,
    /// Bytes left for the cache (all of what registers and shared memory do not take).
    pub cache_bytes: u32,
    /// Cache sets: floor(cache bytes / (ways x line)).
    pub cache_sets: u32,
}

/// Why a kernel cannot run in the pool.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct PartitionError(pub String);

impl std::fmt::Display for PartitionError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl Partition {
    /// Divides `pool` for `demand` (§4.5). Fails when not one CTA fits.
    pub fn divide(pool: &PoolShape, demand: &StorageDemand) -> Result<Partition, PartitionError> {
        match pool.mode {
            UnifiedMode::Full => Self::divide_full(pool, demand),
            UnifiedMode::Fermi => Self::divide_fermi(pool, demand),
        }
    }

    /// Registers, shared memory and cache from one pool.
    fn divide_full(pool: &PoolShape, demand: &StorageDemand) -> Result<Partition, PartitionError> {
        let cta_bytes = demand.bytes_per_thread() * f64::from(demand.threads_per_cta);
        let ctas = whole_ctas(f64::from(pool.capacity_bytes), cta_bytes, pool, demand);
        let threads = ctas * demand.threads_per_cta;
        if threads == 0 {
            return Err(PartitionError(format!(
                "a CTA of {} threads needs {} bytes of the {}-byte unified memory",
                demand.threads_per_cta,
                cta_bytes.ceil(),
                pool.capacity_bytes
            )));
        }
        let register_bytes = 4 * demand.registers_per_thread * threads;
        let shared_bytes = shared_bytes_for(demand, ctas);
        Ok(Self::with_cache(
            pool,
            threads,
            register_bytes,
            shared_bytes,
        ))
    }

    /// §6.3: a fixed register file beside a shared/cache pool split 3:1 either way; the split
    /// with the smaller shared memory when it holds as many threads as the larger one.
    fn divide_fermi(pool: &PoolShape, demand: &StorageDemand) -> Result<Partition, PartitionError> {
        let rest = pool.capacity_bytes.saturating_sub(pool.fermi_rf_bytes);
        let registers_per_thread = 4.0 * f64::from(demand.registers_per_thread);
        let cta_registers = registers_per_thread * f64::from(demand.threads_per_cta);
        let by_registers = whole_ctas(f64::from(pool.fermi_rf_bytes), cta_registers, pool, demand);
        let fit = |shared: u32| {
            let by_shared = whole_ctas(
                f64::from(shared),
                demand.shared_bytes_per_cta(),
                pool,
                demand,
            );
            by_registers.min(by_shared)
        };
        let (small, large) = (rest / 4, rest - rest / 4);
        let shared = if fit(small) >= fit(large) {
            small
        } else {
            large
        };
        let ctas = fit(shared);
        let threads = ctas * demand.threads_per_cta;
        if threads == 0 {
            return Err(PartitionError(format!(
                "a CTA of {} threads does not fit a {}-byte register file and {} bytes of shared memory",
                demand.threads_per_cta, pool.fermi_rf_bytes, large
            )));
        }
        Ok(Self::with_cache(pool, threads, pool.fermi_rf_bytes, shared))
    }

    /// The division with what registers and shared memory leave of the pool as the cache.
    fn with_cache(
        pool: &PoolShape,
        threads: u32,
        register_bytes: u32,
        shared_bytes: u32,
    ) -> Partition {
        let cache_bytes = pool
            .capacity_bytes
            .saturating_sub(register_bytes + shared_bytes);
        let set_bytes = (pool.cache_assoc * pool.cache_line_bytes).max(1);
        Partition {
            threads,
            register_bytes,
            shared_bytes,
            cache_bytes,
            cache_sets: cache_bytes / set_bytes,
        }
    }

    /// The cache as a GPGPU-Sim cache string for the L1D (`N:sets:line:assoc`, the rest as
    /// `policies` gives it); `None` when less than one set is left.
    pub fn cache_string(&self, pool: &PoolShape, policies: &str) -> Option<String> {
        (self.cache_sets > 0).then(|| {
            format!(
                "N:{}:{}:{},{policies}",
                self.cache_sets, pool.cache_line_bytes, pool.cache_assoc
            )
        })
    }
}

/// The SM a kernel runs on when `unified.enabled`: `config` with the partition's thread limit,
/// register file, shared memory and cache (the L1D: the partition's sets, the pool's ways and
/// lines, modulo indexing, the preset's L1D policies), and shared memory banked as the pool is
/// for it (Unified §4.2): one 16-byte bank per cluster, so an access serialises on two rows in
/// one cluster. In `fermi` mode shared memory keeps the preset's banks.
pub fn launch_config(
    config: &Config,
    demand: &StorageDemand,
) -> Result<(Config, Partition), PartitionError> {
    let pool = PoolShape::of(config);
    let p = Partition::divide(&pool, demand)?;
    let mut c = config.clone();
    let core = &mut c.core;
    core.max_threads_per_sm = p.threads;
    // Whole CTAs of whole warps: a 16-thread CTA still takes a warp slot.
    let ctas = p.threads / demand.threads_per_cta.max(1);
    let warps_per_cta = demand.threads_per_cta.div_ceil(core.warp_size.max(1));
    core.max_warps_per_sm = core.max_warps_per_sm.min(ctas * warps_per_cta);
    core.registers_per_sm = p.register_bytes / 4;
    if pool.mode == UnifiedMode::Full {
        let u = &config.unified;
        c.shmem.banks = u.banks / u.banks_per_cluster.max(1);
        c.shmem.bank_width = u.bank_width;
        c.shmem.warp_parts = 1;
    }
    // Shared memory comes in whole bank rows (a few bytes more than the threads need).
    let row = c.shmem.banks * c.shmem.bank_width;
    c.shmem.size_bytes = p.shared_bytes.div_ceil(row.max(1)) * row;
    c.l1d.config = p
        .cache_string(&pool, &modulo_policies(&config.l1d.config))
        .unwrap_or_else(|| "none".to_string());
    Ok((c, p))
}

/// The L1D string's fields after `sets:line:assoc`, with the set index made `M` (modulo);
/// the Fermi L1D's when the preset has none.
fn modulo_policies(l1d: &str) -> String {
    let rest = match l1d.split_once(',') {
        Some((_, rest)) if l1d != "none" => rest,
        _ => "L:L:m:N:L,A:32:8,8",
    };
    let (policies, tail) = rest.split_once(',').unwrap_or((rest, ""));
    let mut fields: Vec<&str> = policies.split(':').collect();
    fields.resize(4.max(fields.len()), "N");
    if fields.len() > 4 {
        fields[4] = "M";
    } else {
        fields.push("M");
    }
    let policies = fields.join(":");
    if tail.is_empty() {
        policies
    } else {
        format!("{policies},{tail}")
    }
}

/// Whole CTAs of `cta_bytes` each that fit `bytes`, capped by the SM's thread limit.
fn whole_ctas(bytes: f64, cta_bytes: f64, pool: &PoolShape, demand: &StorageDemand) -> u32 {
    let by_threads = pool.max_threads / demand.threads_per_cta.max(1);
    if cta_bytes <= 0.0 {
        return by_threads;
    }
    // A hair of tolerance: 1024 x 66.5 is exact, but per-thread figures like 264.1 are not.
    let fits = (bytes / cta_bytes + 1e-9).floor();
    by_threads.min(fits.min(f64::from(u32::MAX)) as u32)
}

/// Shared-memory bytes of `ctas` CTAs, whole bytes.
fn shared_bytes_for(demand: &StorageDemand, ctas: u32) -> u32 {
    (demand.shared_bytes_per_cta() * f64::from(ctas) - 1e-6)
        .ceil()
        .max(0.0) as u32
}

#[cfg(test)]
mod tests {
    use super::*;

    const KB: f64 = 1024.0;

    fn pool(capacity_kb: u32) -> PoolShape {
        PoolShape {
            capacity_bytes: capacity_kb * 1024,
            max_threads: 1024,
            mode: UnifiedMode::Full,
            fermi_rf_bytes: 256 * 1024,
            cache_assoc: 4,
            cache_line_bytes: 128,
        }
    }

    fn per_thread(registers: u32, shared: f64) -> StorageDemand {
        StorageDemand {
            registers_per_thread: registers,
            shared_bytes_per_thread: shared,
            threads_per_cta: 1,
        }
    }

    fn kb(bytes: u32) -> f64 {
        (f64::from(bytes) / KB * 10.0).round() / 10.0
    }

    #[test]
    fn sets_are_whole_4_way_sets_of_128_byte_lines() {
        let p = Partition::divide(&pool(384), &per_thread(9, 0.0)).unwrap();
        assert_eq!(p.cache_bytes, 348 * 1024);
        assert_eq!(p.cache_sets, 348 * 2);
        let s = p.cache_string(&pool(384), "L:L:m:N:L").unwrap();
        assert_eq!(s, "N:696:128:4,L:L:m:N:L");
    }

    #[test]
    fn whole_ctas_only() {
        // 160 bytes a thread (40 registers): 64-thread CTAs of 10,240 bytes; 128 KB holds 12.8.
        let d = StorageDemand::for_launch(40, 0, 64);
        let p = Partition::divide(&pool(128), &d).unwrap();
        assert_eq!(p.threads, 12 * 64);
        assert_eq!(p.register_bytes, 12 * 10240);
        assert_eq!(p.cache_bytes, 128 * 1024 - 12 * 10240);
        // One thread at a time (no CTA rounding): 819.2 threads, 819.
        let p = Partition::divide(&pool(128), &per_thread(40, 0.0)).unwrap();
        assert_eq!(p.threads, 819);
    }

    #[test]
    fn a_cta_that_does_not_fit_is_an_error() {
        let d = StorageDemand::for_launch(255, 0, 1024);
        let e = Partition::divide(&pool(128), &d).unwrap_err();
        assert!(e.0.contains("1044480 bytes"), "{e}");
    }

    #[test]
    fn fermi_mode_keeps_the_register_file_and_splits_the_rest_3_to_1() {
        let mut shape = pool(384);
        shape.mode = UnifiedMode::Fermi;
        // No shared memory: the small shared split (32 KB) and a 96 KB cache.
        let p = Partition::divide(&shape, &per_thread(9, 0.0)).unwrap();
        assert_eq!(
            (p.register_bytes, p.shared_bytes, p.cache_bytes),
            (256 * 1024, 32 * 1024, 96 * 1024)
        );
        assert_eq!(p.threads, 1024);
        // Needle's 264.1 B a thread: 96 KB of shared memory holds 372 threads, 32 KB only 124.
        let p = Partition::divide(&shape, &per_thread(18, 264.1)).unwrap();
        assert_eq!((p.shared_bytes / 1024, p.cache_bytes / 1024), (96, 32));
        assert_eq!(p.threads, 372);
    }

    #[test]
    fn the_launch_config_is_the_partition() {
        let mut config = Config::preset("unified-micro12").unwrap();
        config.unified.enabled = true;
        let d = StorageDemand::for_launch(18, 8452, 32); // needle, BLOCK_SIZE 32
        let (c, p) = launch_config(&config, &d).unwrap();
        assert_eq!(p.threads, 1024);
        assert_eq!(
            (c.core.max_threads_per_sm, c.core.max_warps_per_sm),
            (1024, 32)
        );
        assert_eq!(c.core.registers_per_sm, 18 * 1024);
        assert_eq!(c.shmem.size_bytes, 32 * 8452);
        assert_eq!((c.shmem.banks, c.shmem.bank_width), (8, 16));
        let sets = (384 * 1024 - 4 * 18 * 1024 - 32 * 8452) / 512;
        assert_eq!(c.l1d.config, format!("N:{sets}:128:4,L:L:f:N:M,A:32:8,8"));
        assert!(c.l1d_cache().unwrap().is_some());
        c.validate().unwrap();
    }

    #[test]
    fn a_cta_narrower_than_a_warp_still_takes_a_warp_slot() {
        // Rodinia's needle at BLOCK_SIZE 16: 18 registers and 2180 shared bytes a CTA. At
        // 128 KB the pool holds 39 CTAs (624 threads); each needs a warp slot, so the SM's 32
        // warp slots, not 624 / 32 = 19.5 warps, bound it.
        let mut config = Config::preset("unified-micro12").unwrap();
        config.unified.enabled = true;
        config.unified.capacity_bytes = 128 * 1024;
        let d = StorageDemand::for_launch(18, 2180, 16);
        let (c, p) = launch_config(&config, &d).unwrap();
        assert_eq!(p.threads, 624);
        assert_eq!(c.core.max_warps_per_sm, 32);
        config.unified.capacity_bytes = 64 * 1024;
        let (c, p) = launch_config(&config, &d).unwrap();
        assert_eq!((p.threads, c.core.max_warps_per_sm), (304, 19));
    }

    #[test]
    fn modulo_policies_keep_the_rest_of_the_string() {
        assert_eq!(
            modulo_policies("N:128:128:4,L:L:m:N:L,A:32:8,8"),
            "L:L:m:N:M,A:32:8,8"
        );
        assert_eq!(
            modulo_policies("N:128:128:4,L:L:m:N,A:32:8,8,16"),
            "L:L:m:N:M,A:32:8,8,16"
        );
        assert_eq!(modulo_policies("none"), "L:L:m:N:M,A:32:8,8");
    }

    #[test]
    fn kb_rounds_to_a_tenth() {
        assert_eq!(kb(68096), 66.5);
    }
}

/// One question to the occupancy calculator (`warpstep occupancy`, the app's Setup tab): a
/// kernel's registers and shared memory (per thread, or per CTA of `block` threads), and the
/// pool's capacity and mode when they differ from the preset's.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct OccupancyQuery {
    pub regs: u32,
    pub smem_per_thread: Option<f64>,
    pub smem_per_cta: Option<u32>,
    pub block: Option<u32>,
    pub capacity_bytes: Option<u32>,
    /// `full` or `fermi`.
    pub mode: Option<String>,
}

/// The calculator's answer for `config`'s pool: the pool, the demand and its division, or the
/// message for bad input (in the CLI's flag names).
pub fn occupancy(
    config: &Config,
    q: &OccupancyQuery,
) -> Result<(PoolShape, StorageDemand, Partition), String> {
    let mut pool = PoolShape::of(config);
    if let Some(c) = q.capacity_bytes {
        if c == 0 {
            return Err("--capacity 0: expected bytes > 0".into());
        }
        pool.capacity_bytes = c;
    }
    if let Some(m) = &q.mode {
        pool.mode = match m.as_str() {
            "full" => UnifiedMode::Full,
            "fermi" => UnifiedMode::Fermi,
            other => return Err(format!("--mode {other}: expected full or fermi")),
        };
    }
    let block = q.block.unwrap_or(1);
    if block == 0 {
        return Err("--block 0: a CTA has at least one thread".into());
    }
    let demand = match q.smem_per_cta {
        Some(cta) => StorageDemand::for_launch(q.regs, cta, block),
        None => {
            let per_thread = q.smem_per_thread.unwrap_or(0.0);
            if !per_thread.is_finite() || per_thread < 0.0 {
                return Err(format!(
                    "--smem-per-thread {per_thread}: expected bytes >= 0"
                ));
            }
            StorageDemand {
                registers_per_thread: q.regs,
                shared_bytes_per_thread: per_thread,
                threads_per_cta: block,
            }
        }
    };
    let p = Partition::divide(&pool, &demand).map_err(|e| e.to_string())?;
    Ok((pool, demand, p))
}

/// The calculator's JSON (`warpstep occupancy --json`; scripts read these names): `threads`,
/// `registers_kb`, `shared_kb`, `cache_kb` (KB = 1024 bytes), `cache_sets`, `capacity_kb`,
/// `bytes_per_thread`, `mode`.
pub fn occupancy_json(
    pool: &PoolShape,
    demand: &StorageDemand,
    p: &Partition,
) -> serde_json::Value {
    let kb = |bytes: u32| f64::from(bytes) / 1024.0;
    serde_json::json!({
        "threads": p.threads,
        "registers_kb": kb(p.register_bytes),
        "shared_kb": kb(p.shared_bytes),
        "cache_kb": kb(p.cache_bytes),
        "cache_sets": p.cache_sets,
        "capacity_kb": kb(pool.capacity_bytes),
        "bytes_per_thread": demand.bytes_per_thread(),
        "mode": match pool.mode { UnifiedMode::Full => "full", UnifiedMode::Fermi => "fermi" },
    })
}
