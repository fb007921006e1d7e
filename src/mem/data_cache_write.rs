//! A data cache's writes (MODEL.md section 9; book section 4.1.1), as GPGPU-Sim's `data_cache`
//! (`src/gpgpu-sim/gpu-cache.cc`) handles them: a write hit by write policy (`B` write-back, `T`
//! write-through, `E` write-evict, `L` write-back for local and write-evict for global data,
//! `wr_hit_global_we_local_wb`) and a write miss by write-allocate policy (`N`, `W`
//! `wr_miss_wa_naive`, `F` `wr_miss_wa_fetch_on_write`, `L` `wr_miss_wa_lazy_fetch_on_read`);
//! the writes it sends down go through the miss queue. The module documentation of
//! `data_cache.rs` describes each policy.

use super::*;

impl<W: Copy> DataCache<W> {
    fn send_write(&mut self, req: &CacheRequest) {
        self.writes_sent += 1;
        self.miss_queue.push_back(Fetch {
            addr: req.addr,
            size: req.size,
            kind: FetchKind::Write,
            space: req.space,
            sm: req.sm,
            token: req.token,
            bypass: false,
            bytes: req.bytes,
            parent: NO_PARENT,
            pieces: 1,
            stamp: 0,
        });
    }

    pub(super) fn write(&mut self, req: &CacheRequest, probe: Probe, now: u64) -> Outcome {
        match probe {
            Probe::Hit(i) => self.write_hit(req, i, now),
            Probe::ReservationFail
                if self.spec.write_alloc != WriteAllocPolicy::NoWriteAllocate =>
            {
                Outcome::Fail(FailReason::Assoc)
            }
            _ => self.write_miss(req, probe, now),
        }
    }

    fn whole(&self, req: &CacheRequest) -> bool {
        let atom = self.atom_mask(req.addr);
        req.bytes & atom == atom
    }

    fn write_hit(&mut self, req: &CacheRequest, i: usize, now: u64) -> Outcome {
        let policy = match (self.spec.write, req.space) {
            (WritePolicy::LocalWbGlobalWt, DataSpace::Local) => WritePolicy::WriteBack,
            (
                WritePolicy::LocalWbGlobalWt,
                DataSpace::Global
                | DataSpace::Constant
                | DataSpace::Texture
                | DataSpace::Instruction,
            ) => WritePolicy::WriteEvict,
            (p, _) => p,
        };
        let whole = self.whole(req);
        match policy {
            WritePolicy::WriteBack => {
                self.tags.mark_modified(i, req.addr, whole, now);
                self.stats.data_writes += rows(req.size);
                Outcome::Hit
            }
            _ if self.mq_full(0) => Outcome::Fail(FailReason::MissQueue),
            WritePolicy::WriteThrough => {
                self.tags.mark_modified(i, req.addr, whole, now);
                self.stats.data_writes += rows(req.size);
                self.send_write(req);
                Outcome::Hit
            }
            _ => {
                self.send_write(req);
                self.tags.invalidate(i);
                Outcome::Hit
            }
        }
    }

    fn write_miss(&mut self, req: &CacheRequest, probe: Probe, now: u64) -> Outcome {
        let whole = self.whole(req);
        match self.spec.write_alloc {
            WriteAllocPolicy::NoWriteAllocate => {
                if self.mq_full(0) {
                    return Outcome::Fail(FailReason::MissQueue);
                }
                self.send_write(req);
                Outcome::Miss
            }
            WriteAllocPolicy::WriteAllocate => self.write_and_read(req, probe, 2, true, now),
            WriteAllocPolicy::FetchOnWrite if !whole => {
                self.write_and_read(req, probe, 1, false, now)
            }
            WriteAllocPolicy::FetchOnWrite | WriteAllocPolicy::LazyFetchOnRead => {
                let through = self.spec.write == WritePolicy::WriteThrough;
                let need = usize::from(through);
                if self.mq_full(need) {
                    return Outcome::Fail(FailReason::MissQueue);
                }
                if through {
                    self.send_write(req);
                }
                let evicted = self.write_line(probe, req, whole, now);
                self.write_back(evicted, req);
                Outcome::Miss
            }
        }
    }

    /// `W` (naive: send the write and read the line) or partial `F` (read the line and modify
    /// it on fill).
    fn write_and_read(
        &mut self,
        req: &CacheRequest,
        probe: Probe,
        queue: usize,
        send: bool,
        now: u64,
    ) -> Outcome {
        if self.mq_full(queue) {
            return Outcome::Fail(FailReason::MissQueue);
        }
        if let Err(reason) = self.mshr_check(req.addr) {
            return Outcome::Fail(reason);
        }
        if send {
            self.send_write(req);
        }
        let read = CacheRequest {
            kind: AccessKind::Read,
            ..*req
        };
        self.send_read(&read, probe, Waiter::Silent, FetchKind::AllocRead, now);
        if !send {
            if let Probe::Miss(i) | Probe::SectorMiss(i) | Probe::HitReserved(i) =
                self.tags.probe(req.addr, true)
            {
                self.tags.mark_modified(i, req.addr, false, now);
            }
        }
        Outcome::Miss
    }

    /// Allocates (or takes) the line of a write that needs no fetch and marks it modified.
    fn write_line(
        &mut self,
        probe: Probe,
        req: &CacheRequest,
        whole: bool,
        now: u64,
    ) -> Option<Evicted> {
        let addr = req.addr;
        match probe {
            Probe::Miss(i) => {
                self.note_allocation(i, req);
                let evicted = self.tags.allocate_modified(i, addr, whole, now);
                self.tags.set_owner(i, req.owner);
                self.stats.data_writes += rows(req.size);
                evicted
            }
            Probe::Hit(i) | Probe::HitReserved(i) | Probe::SectorMiss(i) => {
                self.tags.mark_modified(i, addr, whole, now);
                self.stats.data_writes += rows(req.size);
                None
            }
            Probe::ReservationFail => None,
        }
    }
}
