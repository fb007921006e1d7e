//! The functional state of one CTA (thread block): its warps, its shared memory and its
//! barriers (MODEL.md section 2; book section 2.2 "thread blocks").

use super::cta_barrier::CtaBarriers;
use super::image::KernelImage;
use super::warp::WarpState;

/// One resident CTA.
#[derive(Debug, Clone)]
pub struct CtaState {
    /// `%ctaid`.
    pub ctaid: [u32; 3],
    /// Static plus dynamic shared memory.
    pub shared: Vec<u8>,
    pub warps: Vec<WarpState>,
    pub barriers: CtaBarriers,
}

impl CtaState {
    /// CTA `ctaid` of the launch, all threads at PC 0, diverging as `divergence` says.
    pub fn new(
        image: &KernelImage,
        ctaid: [u32; 3],
        warp_size: u32,
        divergence: crate::config::Divergence,
    ) -> Self {
        let func = image.func();
        let threads = image.threads_per_cta();
        let warps = (0..threads.div_ceil(warp_size))
            .map(|w| {
                WarpState::new(
                    warp_size,
                    w,
                    image.block,
                    (func.regs.len(), image.local_bytes),
                    divergence,
                    &func.convergence_barriers,
                )
            })
            .collect();
        CtaState {
            ctaid,
            shared: vec![0; image.shared_bytes as usize],
            warps,
            barriers: CtaBarriers::new(),
        }
    }

    /// Warps that still have threads running.
    pub fn live_warps(&self) -> u32 {
        self.warps.iter().filter(|w| !w.is_finished()).count() as u32
    }

    /// True when every warp has exited.
    pub fn is_finished(&self) -> bool {
        self.warps.iter().all(WarpState::is_finished)
    }
}

/// The `i`-th CTA of a grid in launch order (x fastest, then y, then z).
pub fn cta_index(grid: crate::launch::Dim3, i: u64) -> [u32; 3] {
    let (gx, gy) = (grid.x as u64, grid.y as u64);
    [
        (i % gx) as u32,
        ((i / gx) % gy) as u32,
        (i / (gx * gy)) as u32,
    ]
}
