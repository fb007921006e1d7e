//! Why a warp or a scheduler did not issue in a cycle (MODEL.md section 4). The names are Nsight
//! Compute's where one fits, plus warpstep's own. Every scheduler records exactly one reason
//! each cycle it issues nothing (the reason of its best candidate); every warp records its own
//! state each cycle for the warp timeline.

use serde::Serialize;

/// A stall reason, or what a warp did this cycle. `repr(u8)`: the warp timeline stores one byte
/// per warp per cycle and the browser reads the codes from [`WarpCycle::ALL`].
#[derive(Debug, Clone, Copy, PartialEq, Eq, PartialOrd, Ord, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
#[repr(u8)]
pub enum WarpCycle {
    /// No warp in this slot (or it has finished).
    Idle = 0,
    /// The warp issued an instruction.
    Issued = 1,
    /// The I-buffer is empty: the next instruction has not been fetched and decoded yet.
    NoInstruction = 2,
    /// A branch issued and has not resolved yet; fetch waits for its target.
    BranchResolving = 3,
    /// A source or destination register waits for a shared-memory, SFU or ALU result.
    ShortScoreboard = 4,
    /// A source or destination register waits for a global or local memory load.
    LongScoreboard = 5,
    /// The warp waits at a CTA barrier.
    Barrier = 6,
    /// No collector unit or execution unit free for an arithmetic instruction.
    MathPipeThrottle = 7,
    /// The shared-memory pipe (LD/ST unit) is full.
    MioThrottle = 8,
    /// The global/local memory pipe (LD/ST unit) is full.
    LgThrottle = 9,
    /// The warp was ready but the scheduler chose another one.
    NotSelected = 10,
    /// The warp has exited and waits for its outstanding memory operations.
    Drain = 11,
    /// A shared-memory access is replaying its bank conflicts (in the paper's rigid pipelines
    /// this stops issue for every warp, Elastic Figs. 4(a)-(b)).
    BankConflict = 12,
    /// A finished result waits for a writeback port (in a rigid pipeline, behind data from the
    /// interconnect: Elastic Fig. 8's "other").
    WritebackConflict = 13,
    /// The bank-conflict-aware scheduler masked every ready warp (Elastic §4).
    SchedulingFail = 14,
    /// The MRPB queue of this warp is full (MRPB §3).
    MrpbFull = 15,
    /// The warp is ready but outside the two-level scheduler's active set.
    Inactive = 16,
    /// A barrier or fence waits until the MRPB holds none of the warp's requests.
    MrpbDrain = 17,
    /// Strict barrel processing: the warp's previous instruction is still in the pipeline.
    Barrel = 18,
    /// Outside cache-conscious scheduling's static wavefront limit (SWL, `core.ccws.swl_warps`).
    SwlLimit = 19,
    /// Its next instruction is a global/local load, and dynamic CCWS's locality scores put the
    /// warp past the cutoff (`core.ccws.dynamic`).
    CcwsThrottle = 20,
}

impl WarpCycle {
    /// Every value, in code order (the browser reads names and descriptions from this).
    pub const ALL: [WarpCycle; 21] = [
        WarpCycle::Idle,
        WarpCycle::Issued,
        WarpCycle::NoInstruction,
        WarpCycle::BranchResolving,
        WarpCycle::ShortScoreboard,
        WarpCycle::LongScoreboard,
        WarpCycle::Barrier,
        WarpCycle::MathPipeThrottle,
        WarpCycle::MioThrottle,
        WarpCycle::LgThrottle,
        WarpCycle::NotSelected,
        WarpCycle::Drain,
        WarpCycle::BankConflict,
        WarpCycle::WritebackConflict,
        WarpCycle::SchedulingFail,
        WarpCycle::MrpbFull,
        WarpCycle::Inactive,
        WarpCycle::MrpbDrain,
        WarpCycle::Barrel,
        WarpCycle::SwlLimit,
        WarpCycle::CcwsThrottle,
    ];

    /// The snake_case name used in JSON reports and the views.
    pub fn name(self) -> &'static str {
        match self {
            WarpCycle::Idle => "idle",
            WarpCycle::Issued => "issued",
            WarpCycle::NoInstruction => "no_instruction",
            WarpCycle::BranchResolving => "branch_resolving",
            WarpCycle::ShortScoreboard => "short_scoreboard",
            WarpCycle::LongScoreboard => "long_scoreboard",
            WarpCycle::Barrier => "barrier",
            WarpCycle::MathPipeThrottle => "math_pipe_throttle",
            WarpCycle::MioThrottle => "mio_throttle",
            WarpCycle::LgThrottle => "lg_throttle",
            WarpCycle::NotSelected => "not_selected",
            WarpCycle::Drain => "drain",
            WarpCycle::BankConflict => "bank_conflict",
            WarpCycle::WritebackConflict => "writeback_conflict",
            WarpCycle::SchedulingFail => "scheduling_fail",
            WarpCycle::MrpbFull => "mrpb_full",
            WarpCycle::Inactive => "inactive",
            WarpCycle::MrpbDrain => "mrpb_drain",
            WarpCycle::Barrel => "barrel",
            WarpCycle::SwlLimit => "swl_limit",
            WarpCycle::CcwsThrottle => "ccws_throttle",
        }
    }

    /// One sentence for the views' hover text.
    pub fn description(self) -> &'static str {
        match self {
            WarpCycle::Idle => "No warp runs in this slot.",
            WarpCycle::Issued => "The warp issued an instruction this cycle.",
            WarpCycle::NoInstruction => "The warp's instruction buffer is empty: fetch and decode have not delivered its next instruction yet.",
            WarpCycle::BranchResolving => "The warp issued a branch; it cannot fetch past it until the branch resolves and the SIMT stack gives the next PC.",
            WarpCycle::ShortScoreboard => "An operand is still being produced by a short-latency unit (ALU, SFU or shared memory): the scoreboard holds the warp.",
            WarpCycle::LongScoreboard => "An operand waits for a global or local memory load: the scoreboard holds the warp.",
            WarpCycle::Barrier => "The warp waits at __syncthreads() (bar.sync) for the other warps of its thread block.",
            WarpCycle::MathPipeThrottle => "The arithmetic pipeline it needs has no free collector unit or is busy.",
            WarpCycle::MioThrottle => "The shared-memory pipe is full.",
            WarpCycle::LgThrottle => "The global/local memory pipe is full.",
            WarpCycle::NotSelected => "The warp was ready, but its scheduler issued another warp.",
            WarpCycle::Drain => "The warp has exited and waits for its last memory operations.",
            WarpCycle::BankConflict => "A shared-memory access replays its bank conflicts and holds the memory pipe (in the paper's in-order pipelines, issue stops).",
            WarpCycle::WritebackConflict => "A finished result waits for a free writeback port (in the paper's in-order pipelines, issue stops).",
            WarpCycle::SchedulingFail => "The bank-conflict-aware scheduler masked every ready warp.",
            WarpCycle::MrpbFull => "The warp's memory request queue (MRPB) is full.",
            WarpCycle::Inactive => "The warp is outside the two-level scheduler's active set.",
            WarpCycle::MrpbDrain => "The warp's barrier or fence waits until its memory requests have left the MRPB, so none is reordered across it.",
            WarpCycle::Barrel => "Strict barrel processing: the warp's previous instruction has not written back yet.",
            WarpCycle::SwlLimit => "Throttled by cache-conscious scheduling: only the oldest warps up to the static wavefront limit (SWL) may be scheduled, so they keep more of the L1D to themselves.",
            WarpCycle::CcwsThrottle => "Throttled by cache-conscious scheduling: its next instruction loads through the L1D, and warps that lost locality (victim tag hits) have locality scores that push this warp past the cutoff.",
        }
    }

    /// Whether this is a stall (not `idle` or `issued`).
    pub fn is_stall(self) -> bool {
        !matches!(self, WarpCycle::Idle | WarpCycle::Issued)
    }
}
