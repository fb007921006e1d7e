//! The FR-FCFS scheduler queue of a DRAM channel ([`super::dram`]), kept as one queue per bank
//! in arrival order. GPGPU-Sim's `frfcfs_scheduler` does the same (`m_queue[bank]`, with a
//! per-bank `m_bins` of rows): every decision the scheduler makes is about one bank, so it
//! looks only at that bank's requests instead of scanning the whole queue (up to
//! `dram.queue_size` requests, 64 on the GTX480) once per bank and cycle. The arrival order
//! across banks is kept as a sequence number, for the views ([`BankQueues::in_order`]).

/// A request in the scheduler queue: what the scheduler needs to pick (bank and row) and what
/// it carries (`T`), with its place in the arrival order.
#[derive(Debug, Clone, Copy)]
pub(super) struct Entry<T> {
    pub seq: u64,
    pub row: u64,
    pub item: T,
}

/// The scheduler queue, one arrival-ordered queue per bank (see the module documentation).
#[derive(Debug, Clone)]
pub(super) struct BankQueues<T> {
    banks: Vec<Vec<Entry<T>>>,
    len: usize,
    next_seq: u64,
}

impl<T> BankQueues<T> {
    /// An empty queue for `banks` banks.
    pub fn new(banks: usize) -> Self {
        BankQueues {
            banks: (0..banks).map(|_| Vec::new()).collect(),
            len: 0,
            next_seq: 0,
        }
    }

    /// Requests queued, over all banks.
    pub fn len(&self) -> usize {
        self.len
    }

    pub fn is_empty(&self) -> bool {
        self.len == 0
    }

    /// `item`, for `row` of `bank`, joins the queue as its newest request.
    pub fn push(&mut self, bank: usize, row: u64, item: T) {
        let seq = self.next_seq;
        self.next_seq += 1;
        self.banks[bank].push(Entry { seq, row, item });
        self.len += 1;
    }

    /// FR-FCFS for one bank: the index among the bank's requests, oldest first, of the request it takes next
    /// and the row stream that request belongs to. `stream` is the row the bank is draining,
    /// if any; otherwise a request to the bank's `open` row comes first, else its oldest
    /// request, whose row becomes the stream. `None` when the bank has no request.
    pub fn pick(&self, bank: usize, stream: Option<u64>, open: u64) -> Option<(usize, u64)> {
        let queue = &self.banks[bank];
        let row = match stream {
            Some(row) => row,
            None if queue.iter().any(|e| e.row == open) => open,
            None => queue.first()?.row,
        };
        let k = queue.iter().position(|e| e.row == row)?;
        Some((k, row))
    }

    /// Takes request `k` of bank `bank` out of the queue.
    pub fn take(&mut self, bank: usize, k: usize) -> Entry<T> {
        self.len -= 1;
        self.banks[bank].remove(k)
    }

    /// Whether bank `bank` has a request for `row`.
    pub fn has_row(&self, bank: usize, row: u64) -> bool {
        self.banks[bank].iter().any(|e| e.row == row)
    }

    /// Every request with its bank, oldest first.
    pub fn in_order(&self) -> Vec<(usize, &Entry<T>)> {
        let mut all: Vec<(usize, &Entry<T>)> = self
            .banks
            .iter()
            .enumerate()
            .flat_map(|(b, q)| q.iter().map(move |e| (b, e)))
            .collect();
        all.sort_by_key(|(_, e)| e.seq);
        all
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_bank_drains_its_stream_then_its_open_row_then_its_oldest() {
        let mut q = BankQueues::new(2);
        q.push(0, 5, 'a');
        q.push(1, 7, 'b');
        q.push(0, 9, 'c');
        q.push(0, 5, 'd');
        assert_eq!(q.len(), 4);
        // No stream, open row 9: its request first, wherever it is.
        assert_eq!(q.pick(0, None, 9), Some((1, 9)));
        // No stream, no request for the open row: the oldest.
        assert_eq!(q.pick(0, None, 3), Some((0, 5)));
        // A stream: its first request.
        assert_eq!(q.pick(0, Some(5), 9), Some((0, 5)));
        assert_eq!(q.take(0, 0).item, 'a');
        assert_eq!(q.pick(0, Some(5), 9), Some((1, 5)));
        assert!(q.has_row(0, 9) && !q.has_row(0, 7));
        let order: Vec<char> = q.in_order().iter().map(|(_, e)| e.item).collect();
        assert_eq!(order, vec!['b', 'c', 'd']);
        assert_eq!(q.pick(1, None, 0), Some((0, 7)));
        assert_eq!(BankQueues::<char>::new(1).pick(0, None, 0), None);
    }
}
