//! The L1D as the views see it (MODEL.md section 12: "L1 sets and ways (valid / reserved / LRU
//! order), MSHRs, miss queue"): the sets and MSHR entries a request maps to or waits in, the
//! queues' depths for the Perfetto trace, and the memory view's picture of the whole cache.

use super::*;

/// Which of the SM's caches an MSHR belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum CacheName {
    L1d,
    Constant,
    Texture,
}

/// An MSHR entry an instruction waits in ([`L1d::mshrs_of`]).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MshrWait {
    pub cache: CacheName,
    /// Its index among the cache's entries (allocation order, as the memory view draws them).
    pub entry: u32,
    /// The address (block or sector) it waits for.
    pub addr: u64,
    /// The fill has arrived; the waiters leave one per cycle.
    pub filled: bool,
    /// The miss is still in the cache's miss queue, at this position (0: next to leave).
    pub queued: Option<u32>,
}

/// A queued request as the views show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct FetchView {
    pub addr: u64,
    pub size: u32,
    pub kind: FetchKind,
}

impl From<&Fetch> for FetchView {
    fn from(f: &Fetch) -> FetchView {
        FetchView {
            addr: f.addr,
            size: f.size,
            kind: f.kind,
        }
    }
}

/// The L1D's state for the memory view (MODEL.md section 12: "L1 sets and ways (valid /
/// reserved / LRU order), MSHRs, miss queue").
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct L1dView {
    /// `sets[set][way]`; empty when there is no L1D.
    pub sets: Vec<Vec<LineView>>,
    pub mshrs: Vec<MshrView>,
    pub miss_queue: Vec<FetchView>,
    /// Reservation failures this cycle, in order.
    pub fails: Vec<FailReason>,
    pub stats: L1dStats,
}

impl L1d {
    /// The L1D set a global or local request maps to (local addresses as the cache sees them),
    /// if there is an L1D.
    pub fn set_of(&self, a: &Access) -> Option<u32> {
        let addr = match a.space {
            DataSpace::Local => a.addr + self.local_offset,
            _ => a.addr,
        };
        self.cache.as_ref().map(|c| c.tags().set_index(addr))
    }

    /// The set a global or local request maps to and every way of it (state, block, who
    /// brought it in), if there is an L1D: what a request refused for associativity saw.
    pub fn set_lines(&self, a: &Access) -> Option<(u32, Vec<SetLine>)> {
        let set = self.set_of(a)?;
        let cache = self.cache.as_ref()?;
        Some((set, cache.tags().set_owners(set)))
    }

    /// The MSHR entries of the L1D (then of the constant cache) in which instruction `tag`
    /// waits for a fill.
    pub fn mshrs_of(&self, tag: u64) -> Vec<MshrWait> {
        let caches = [
            (CacheName::L1d, self.cache.as_ref()),
            (CacheName::Constant, self.constant.as_ref()),
            (CacheName::Texture, self.texture.as_ref()),
        ];
        let mut waits = Vec::new();
        for (cache, c) in caches {
            let Some(c) = c else { continue };
            waits.extend(c.mshrs_waiting(|&t| t == tag).into_iter().map(
                |(entry, addr, filled)| {
                    MshrWait {
                        cache,
                        entry: entry as u32,
                        addr,
                        filled,
                        queued: c
                            .miss_queue()
                            .iter()
                            .position(|f| !f.bypass && f.token == addr)
                            .map(|p| p as u32),
                    }
                },
            ));
        }
        waits
    }

    /// The instruction tags waiting in the L1D's MSHR entry for `addr`'s line, oldest first.
    pub fn line_waiters(&self, addr: u64) -> Vec<u64> {
        let Some(c) = self.cache.as_ref() else {
            return Vec::new();
        };
        c.mshr_waiters(c.mshr_key(addr)).copied().collect()
    }

    /// Where a bypassing request of instruction `tag` is: its position in the outgoing queue.
    pub fn bypass_position(&self, tag: u64) -> Option<u32> {
        let queue: Vec<&Fetch> = match &self.cache {
            Some(c) => c.miss_queue().iter().collect(),
            None => self.direct.iter().collect(),
        };
        queue
            .iter()
            .position(|f| f.bypass && f.token == tag)
            .map(|p| p as u32)
    }

    /// Requests in the miss queue (the L1D's, or the outgoing queue without one) and MSHR
    /// entries in use: the queue depths of the Perfetto trace's counters.
    pub fn queue_depths(&self) -> (usize, usize) {
        match &self.cache {
            Some(c) => (c.miss_queue().len(), c.mshrs_in_use()),
            None => (self.direct.len(), 0),
        }
    }

    /// The cache, if there is one.
    pub fn cache(&self) -> Option<&DataCache<u64>> {
        self.cache.as_ref()
    }

    /// Everything the memory view draws.
    pub fn view(&self) -> L1dView {
        let (sets, mshrs) = match &self.cache {
            Some(c) => (c.sets_view(), c.mshr_view()),
            None => (Vec::new(), Vec::new()),
        };
        let queue: Vec<FetchView> = match &self.cache {
            Some(c) => c.miss_queue().iter().map(FetchView::from).collect(),
            None => self.direct.iter().map(FetchView::from).collect(),
        };
        L1dView {
            sets,
            mshrs,
            miss_queue: queue,
            fails: self.fails.iter().map(|f| f.reason).collect(),
            stats: self.stats(),
        }
    }
}
