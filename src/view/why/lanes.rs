//! The links of a chain about one lane: why it is not active (the SIMT stack entry or the
//! convergence-barrier state that holds it).

use super::*;

impl Ctx<'_> {
    /// Explains `lane` of `slot`: returns whether the lane is active (then the warp's chain
    /// follows).
    pub(super) fn lane_links(&self, slot: u32, lane: u32, links: &mut Vec<Link>) -> bool {
        let Some(state) = self.sm.warp_state(slot) else {
            return false;
        };
        let bit = 1u64 << lane;
        if state.valid & bit == 0 {
            links.push(Link::new(
                "lane",
                format!("Lane {lane} holds no thread: the CTA's last warp is partial."),
            ));
            return false;
        }
        let rec = &state.reconvergence;
        if rec.live_mask() & bit == 0 {
            links.push(Link::new(
                "lane",
                format!("Lane {lane}'s thread has exited."),
            ));
            return false;
        }
        if rec.active_mask() & bit != 0 {
            links.push(Link::new(
                "lane",
                format!("Lane {lane} is in the active mask: it runs whenever warp {slot} issues."),
            ));
            return true;
        }
        match rec {
            Reconvergence::Stack(_) => self.stack_lane(rec, lane, links),
            Reconvergence::Barriers(b) => {
                let groups = b.groups();
                let mine = groups.iter().find(|(_, _, m)| m & bit != 0);
                let text = match mine {
                    Some((ThreadState::Ready, pc, _)) => format!(
                        "Lane {lane}'s thread is ready at {} but in another warp split: the warp runs one split at a time ({} policy).",
                        self.instr(*pc),
                        config_name(b.policy())
                    ),
                    Some((ThreadState::Blocked(id), pc, _)) => format!(
                        "Lane {lane}'s thread waits at WAIT B{} before {} for the other threads of its barrier.",
                        id,
                        self.instr(*pc)
                    ),
                    Some((ThreadState::Yielded, pc, _)) => format!(
                        "Lane {lane}'s thread executed YIELD at {}: it resumes when no split is ready.",
                        self.instr(*pc)
                    ),
                    Some((ThreadState::WarpSync, pc, _)) => format!(
                        "Lane {lane}'s thread waits at the warp-synchronous {} for the other members.",
                        self.instr(*pc)
                    ),
                    _ => format!("Lane {lane}'s thread is not active."),
                };
                let place = mine.map_or((0, 0), |(_, pc, _)| self.place(*pc));
                links.push(Link::new("threads", text).at(place));
            }
        }
        false
    }

    pub(super) fn stack_lane(&self, rec: &Reconvergence, lane: u32, links: &mut Vec<Link>) {
        let bit = 1u64 << lane;
        let entries = rec.stack_entries();
        let top = entries.len().saturating_sub(1);
        let Some((i, e)) = entries
            .iter()
            .enumerate()
            .rev()
            .skip(1)
            .find(|(_, e)| e.mask & bit != 0)
        else {
            return;
        };
        let top_entry = &entries[top];
        let rejoin = top_entry.rpc.map_or(String::new(), |r| {
            format!(", and the paths reconverge at {}", self.line_text(r))
        });
        links.push(
            Link::new(
                "stack",
                format!(
                    "Lane {lane} is masked off: it waits in SIMT stack entry {i} to run from {} (PC {}) after the entry above it (lanes {:#x}, now at {}) finishes{rejoin}.",
                    self.instr(e.pc),
                    e.pc,
                    top_entry.mask,
                    self.line_text(top_entry.pc)
                ),
            )
            .at(self.place(e.pc)),
        );
    }
}
