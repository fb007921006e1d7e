//! Miss status holding registers (MODEL.md section 9; book section 4.1.1, the "pending request
//! table"; MRPB section 2.1): one entry per block (or sector) with a miss outstanding, each
//! holding the requests waiting for it, up to `max_merge`.
//!
//! Semantics of GPGPU-Sim's `mshr_table` (`src/gpgpu-sim/gpu-cache.cc`): `probe` asks whether
//! an entry for the address exists; `full` is true when that entry's merge list is full or, for a
//! new address, when every entry is taken; a fill marks its entry ready, and the waiting requests
//! then leave one at a time in arrival order (`next_access`), the entry freeing with the last.
//! Entries are kept in allocation order (a `Vec`, not a hash map), so runs are deterministic.

use serde::Serialize;
use std::collections::VecDeque;

/// One MSHR entry.
#[derive(Debug, Clone)]
struct Entry<W> {
    /// Block (or sector) address.
    addr: u64,
    /// The requests merged into it, oldest first.
    waiting: VecDeque<W>,
    /// The fill has arrived.
    ready: bool,
    /// An atomic waits here (the fill marks the line modified).
    atomic: bool,
}

/// One entry as the views show it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct MshrView {
    pub addr: u64,
    /// Requests waiting for the fill.
    pub merged: u32,
    pub ready: bool,
}

/// The MSHR table of one cache.
#[derive(Debug, Clone)]
pub struct MshrTable<W> {
    entries_max: usize,
    max_merge: usize,
    entries: Vec<Entry<W>>,
    /// Addresses whose fill arrived, in arrival order.
    ready: VecDeque<u64>,
    /// Emptied merge lists, kept to avoid allocating per miss.
    spare: Vec<VecDeque<W>>,
}

impl<W: Copy> MshrTable<W> {
    /// A table of `entries` entries, each merging up to `max_merge` requests.
    pub fn new(entries: u32, max_merge: u32) -> MshrTable<W> {
        MshrTable {
            entries_max: entries.max(1) as usize,
            max_merge: max_merge.max(1) as usize,
            entries: Vec::new(),
            ready: VecDeque::new(),
            spare: Vec::new(),
        }
    }

    fn find(&self, addr: u64) -> Option<usize> {
        self.entries.iter().position(|e| e.addr == addr)
    }

    /// Whether a miss to `addr` is already outstanding.
    pub fn probe(&self, addr: u64) -> bool {
        self.find(addr).is_some()
    }

    /// Whether a request to `addr` cannot be tracked now (merge list or table full).
    pub fn full(&self, addr: u64) -> bool {
        match self.find(addr) {
            Some(i) => self.entries[i].waiting.len() >= self.max_merge,
            None => self.entries.len() >= self.entries_max,
        }
    }

    /// Adds `waiter` to `addr`'s entry, creating it. Returns false (and adds nothing) when
    /// [`MshrTable::full`].
    pub fn add(&mut self, addr: u64, waiter: W, atomic: bool) -> bool {
        if self.full(addr) {
            return false;
        }
        let i = match self.find(addr) {
            Some(i) => i,
            None => {
                let waiting = self.spare.pop().unwrap_or_default();
                self.entries.push(Entry {
                    addr,
                    waiting,
                    ready: false,
                    atomic: false,
                });
                self.entries.len() - 1
            }
        };
        let e = &mut self.entries[i];
        e.waiting.push_back(waiter);
        e.atomic |= atomic;
        true
    }

    /// The fill for `addr` arrived: its requests may leave. Returns whether an atomic waits
    /// there, or `None` if there is no such (not yet ready) entry.
    pub fn mark_ready(&mut self, addr: u64) -> Option<bool> {
        let i = self.find(addr)?;
        let e = &mut self.entries[i];
        if e.ready {
            return None;
        }
        e.ready = true;
        self.ready.push_back(addr);
        Some(e.atomic)
    }

    /// Whether a request is ready to leave.
    pub fn has_ready(&self) -> bool {
        !self.ready.is_empty()
    }

    /// The next ready request, without taking it.
    pub fn peek_ready(&self) -> Option<&W> {
        let &addr = self.ready.front()?;
        self.entries[self.find(addr)?].waiting.front()
    }

    /// The address (key) of the entry whose requests leave next, if one is ready.
    pub fn ready_key(&self) -> Option<u64> {
        self.ready.front().copied()
    }

    /// The next ready request (oldest fill first, then arrival order). Asked every cycle and
    /// mostly with no fill arrived: that check is inlined, the rest is not.
    #[inline]
    pub fn next_ready(&mut self) -> Option<W> {
        if self.ready.is_empty() {
            return None;
        }
        self.take_ready()
    }

    /// [`MshrTable::next_ready`] when a fill has arrived (kept out of line: inlined, it made
    /// every caller's cycle longer than the call it saved).
    #[inline(never)]
    fn take_ready(&mut self) -> Option<W> {
        let &addr = self.ready.front()?;
        let Some(i) = self.find(addr) else {
            self.ready.pop_front();
            return None;
        };
        let w = self.entries[i].waiting.pop_front();
        if self.entries[i].waiting.is_empty() {
            let e = self.entries.remove(i);
            self.spare.push(e.waiting);
            self.ready.pop_front();
        }
        w
    }

    /// Entries in use.
    pub fn len(&self) -> usize {
        self.entries.len()
    }

    pub fn is_empty(&self) -> bool {
        self.entries.is_empty()
    }

    /// The entries some of whose waiters `wants`: (entry index, address, fill arrived), in
    /// allocation order.
    pub fn entries_waiting(&self, wants: impl Fn(&W) -> bool) -> Vec<(usize, u64, bool)> {
        self.entries
            .iter()
            .enumerate()
            .filter(|(_, e)| e.waiting.iter().any(&wants))
            .map(|(i, e)| (i, e.addr, e.ready))
            .collect()
    }

    /// The waiters of the entry for `addr`, oldest first (none when there is no entry).
    pub fn waiters(&self, addr: u64) -> impl Iterator<Item = &W> {
        self.entries
            .iter()
            .filter(move |e| e.addr == addr)
            .flat_map(|e| e.waiting.iter())
    }

    /// The entries, in allocation order.
    pub fn view(&self) -> Vec<MshrView> {
        self.entries
            .iter()
            .map(|e| MshrView {
                addr: e.addr,
                merged: e.waiting.len() as u32,
                ready: e.ready,
            })
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn merges_up_to_max_merge_then_refuses() {
        let mut m: MshrTable<u32> = MshrTable::new(2, 3);
        assert!(!m.probe(0x80));
        assert!(m.add(0x80, 1, false));
        assert!(m.probe(0x80));
        assert!(m.add(0x80, 2, false));
        assert!(m.add(0x80, 3, false));
        assert!(m.full(0x80));
        assert!(!m.add(0x80, 4, false));
        assert_eq!(m.view()[0].merged, 3);
    }

    #[test]
    fn refuses_new_entries_when_the_table_is_full() {
        let mut m: MshrTable<u32> = MshrTable::new(2, 8);
        assert!(m.add(0x000, 1, false));
        assert!(m.add(0x080, 2, false));
        assert!(m.full(0x100));
        assert!(!m.full(0x080));
        assert!(!m.add(0x100, 3, false));
        assert_eq!(m.len(), 2);
    }

    #[test]
    fn a_fill_releases_its_requests_in_order_then_frees_the_entry() {
        let mut m: MshrTable<u32> = MshrTable::new(4, 8);
        m.add(0x000, 10, false);
        m.add(0x080, 20, false);
        m.add(0x000, 11, true);
        assert_eq!(m.next_ready(), None);
        assert_eq!(m.mark_ready(0x000), Some(true));
        assert_eq!(m.mark_ready(0x000), None, "already ready");
        assert_eq!(m.mark_ready(0x999), None);
        assert_eq!(m.next_ready(), Some(10));
        assert!(m.probe(0x000));
        assert_eq!(m.next_ready(), Some(11));
        assert!(!m.probe(0x000));
        assert_eq!(m.next_ready(), None);
        m.mark_ready(0x080);
        assert_eq!(m.next_ready(), Some(20));
        assert!(m.is_empty());
    }
}
