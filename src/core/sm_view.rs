//! What the views read of an SM (MODEL.md section 12; book chapter 3's figures): its issue
//! stage and schedulers, warp and CTA slots, operand collector and register banks, PREMEM and
//! the EXE stall (Elastic), the pipelines, the LD/ST unit and its memory timing, the
//! instructions in flight, the fetch latch and each warp's functional state.

use super::*;

impl Sm {
    /// The issue stage (schedulers, the bank-conflict-aware mask).
    pub fn issue_stage(&self) -> &IssueStage {
        &self.issue
    }

    /// The warp slots.
    pub fn warps(&self) -> &[Option<WarpSlot>] {
        &self.warps
    }

    /// The CTA slots.
    pub fn ctas(&self) -> &[Option<CtaSlot>] {
        &self.ctas
    }

    /// The schedulers.
    pub fn schedulers(&self) -> &[Scheduler] {
        self.issue.schedulers()
    }

    /// The operand collector.
    pub fn collector(&self) -> &OperandCollector {
        &self.collector
    }

    /// The register file's banks: this cycle's bank activity and the register accesses so far.
    pub fn register_banks(&self) -> &RegisterBanks {
        &self.register_banks
    }

    /// The back end's shape.
    pub fn pipeline_mode(&self) -> PipelineMode {
        self.dispatch.mode()
    }

    /// The elastic pipeline's PREMEM FIFO (no entries in the other modes).
    pub fn premem(&self) -> &Premem {
        self.dispatch.premem()
    }

    /// Non-memory results that finished and lost writeback in the latest cycle, oldest first
    /// (the elastic NONMEM FIFO's entries; in a rigid pipeline, the results its units hold).
    pub fn nonmem_waiting(&self) -> &[u64] {
        self.writeback.waiting()
    }

    /// Why no warp could issue in the latest cycle because an instruction could not leave
    /// EXE (rigid pipelines), if that happened.
    pub fn exe_stall(&self) -> Option<WarpCycle> {
        self.dispatch.exe_stall()
    }

    /// The SP, SFU and DP pipelines.
    pub fn pipelines(&self) -> &[Pipeline] {
        &self.pipelines
    }

    /// The LD/ST unit.
    pub fn ldst(&self) -> &LdstUnit {
        &self.ldst
    }

    /// The memory timing (and the latest shared access's bank grid).
    pub fn memory(&self) -> &MemoryTiming {
        &self.memory
    }

    /// Instructions in flight.
    pub fn in_flight(&self) -> &[InFlight] {
        self.in_flight.as_slice()
    }

    /// The in-flight instruction tagged `tag`, if it has not written back.
    pub fn in_flight_instr(&self, tag: u64) -> Option<InFlight> {
        self.in_flight.get(tag)
    }

    /// The fetch latch (instruction fetched last cycle, decoded this one).
    pub fn fetch_latch(&self) -> Option<FetchLatch> {
        self.front.latch()
    }

    /// The functional state of the warp in `slot`.
    pub fn warp_state(&self, slot: u32) -> Option<&crate::exec::warp::WarpState> {
        let w = self.warps.get(slot as usize)?.as_ref()?;
        let cta = self.ctas.get(w.cta_slot as usize)?.as_ref()?;
        cta.cta.warps.get(w.warp_in_cta as usize)
    }
}
