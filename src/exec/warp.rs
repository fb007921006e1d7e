//! The functional state of one warp: its threads' registers, its reconvergence state, and its threads'
//! local memory (MODEL.md section 2). Registers are stored register-major, lane-minor
//! (`regs[r * warp_size + lane]`), each value zero-extended to 64 bits from the register's width,
//! so one instruction walks one contiguous row per operand.

pub use super::lanes::lanes;
use super::reconvergence::{LaneMask, Reconvergence};
use crate::config::Divergence;
use crate::launch::Dim3;
use crate::ptx::convergence_barriers::BarrierPlan;

/// One warp's threads.
#[derive(Debug, Clone)]
pub struct WarpState {
    /// Lanes per warp.
    pub warp_size: u32,
    /// This warp's index within its CTA.
    pub warp_in_cta: u32,
    /// Register values, `regs[r * warp_size + lane]`.
    pub regs: Vec<u64>,
    /// Reconvergence state (the SIMT stack or convergence barriers): gives the PC and the
    /// active mask.
    pub reconvergence: Reconvergence,
    /// Lanes that hold a thread of the CTA (the last warp of a CTA may be partial).
    pub valid: LaneMask,
    /// `.local` memory, `local_bytes` per lane, lane after lane.
    pub local: Vec<u8>,
    /// Bytes of local memory per lane.
    pub local_bytes: u32,
    /// Thread indices of each lane within the CTA.
    pub tids: Vec<[u32; 3]>,
    /// Set when an instruction wrote a register value different from the one it held: the
    /// warp's state moved (a loop counter, an address), which a spin lock never does. The timing
    /// model reads and clears it for deadlock detection (MODEL.md section 3).
    pub changed: bool,
}

impl WarpState {
    /// Warp `warp_in_cta` of a CTA shaped `block`, starting at PC 0 with `num_regs` registers,
    /// diverging as `divergence` says (`plan`: the kernel's convergence barriers).
    pub fn new(
        warp_size: u32,
        warp_in_cta: u32,
        block: Dim3,
        (num_regs, local_bytes): (usize, u32),
        divergence: Divergence,
        plan: &BarrierPlan,
    ) -> Self {
        let threads = block.count();
        let first = warp_in_cta as u64 * warp_size as u64;
        let mut valid: LaneMask = 0;
        let mut tids = Vec::with_capacity(warp_size as usize);
        let (bx, by) = (block.x as u64, block.y as u64);
        // The first lane's thread index by division, the next ones by counting x, then y, then z.
        let mut tid = [first % bx, (first / bx) % by, first / (bx * by)];
        for lane in 0..warp_size as u64 {
            let t = first + lane;
            if t < threads {
                valid |= 1 << lane;
            }
            tids.push(tid.map(|d| d as u32));
            tid[0] += 1;
            if tid[0] == bx {
                tid[0] = 0;
                tid[1] += 1;
                if tid[1] == by {
                    tid[1] = 0;
                    tid[2] += 1;
                }
            }
        }
        WarpState {
            warp_size,
            warp_in_cta,
            regs: vec![0; num_regs * warp_size as usize],
            reconvergence: Reconvergence::new(divergence, warp_size, 0, valid, plan),
            valid,
            local: vec![0; local_bytes as usize * warp_size as usize],
            local_bytes,
            tids,
            changed: false,
        }
    }

    /// True once every thread has exited.
    pub fn is_finished(&self) -> bool {
        self.reconvergence.is_finished()
    }

    /// The value of register `r` in `lane`.
    #[inline]
    pub fn reg(&self, r: usize, lane: u32) -> u64 {
        self.regs[r * self.warp_size as usize + lane as usize]
    }

    /// Sets register `r` in `lane`.
    #[inline]
    pub fn set_reg(&mut self, r: usize, lane: u32, value: u64) {
        let ws = self.warp_size as usize;
        let slot = &mut self.regs[r * ws + lane as usize];
        self.changed |= *slot != value;
        *slot = value;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_partial_last_warp_has_only_its_threads_valid() {
        let block = Dim3 { x: 5, y: 2, z: 1 };
        let w = WarpState::new(
            8,
            1,
            block,
            (3, 0),
            Divergence::default(),
            &BarrierPlan::default(),
        );
        assert_eq!(w.valid, 0b11);
        assert_eq!(w.tids[0], [3, 1, 0]);
        assert_eq!(w.tids[1], [4, 1, 0]);
        assert_eq!(w.reconvergence.active_mask(), 0b11);
        assert_eq!(lanes(0b1010_0001).collect::<Vec<_>>(), vec![0, 5, 7]);
    }
}
