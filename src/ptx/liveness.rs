//! Register pressure: the most 32-bit register slots live at any point of a function, by
//! backward liveness over its CFG. PTX names virtual registers (nvcc writes SSA-like code with a
//! fresh register per value), so the declared count overstates what `ptxas` would allocate;
//! the live count is what a register allocator needs and is what the SM charges a thread for
//! CTA placement (book section 5.1: "resources" per CTA). Predicates live in their own file
//! and are not counted.

use super::ir::{Function, RegId};

/// A set of registers as a bit vector.
#[derive(Clone, PartialEq, Eq)]
struct Bits(Vec<u64>);

impl Bits {
    fn new(n: usize) -> Self {
        Bits(vec![0; n.div_ceil(64)])
    }
    fn set(&mut self, r: usize) {
        if let Some(w) = self.0.get_mut(r / 64) {
            *w |= 1 << (r % 64);
        }
    }
    fn clear(&mut self, r: usize) {
        if let Some(w) = self.0.get_mut(r / 64) {
            *w &= !(1 << (r % 64));
        }
    }
    fn union(&mut self, other: &Bits) -> bool {
        let mut changed = false;
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            let n = *a | b;
            changed |= n != *a;
            *a = n;
        }
        changed
    }
    fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, &w)| {
            (0..64)
                .filter(move |b| w >> b & 1 == 1)
                .map(move |b| i * 64 + b)
        })
    }
}

/// The largest number of 32-bit register slots live at once in `func` (64-bit registers
/// count two), at least 1.
pub fn max_live_registers(func: &Function) -> u32 {
    let n = func.regs.len();
    let slots: Vec<u32> = func
        .regs
        .iter()
        .map(|r| {
            if r.ty.is_pred() {
                0
            } else {
                r.bits().div_ceil(32)
            }
        })
        .collect();
    let blocks = &func.cfg.blocks;
    let mut live_in = vec![Bits::new(n); blocks.len()];
    let mut changed = true;
    let mut rounds = 0;
    while changed && rounds < 10_000 {
        changed = false;
        rounds += 1;
        for b in (0..blocks.len()).rev() {
            let mut live = live_out(func, b, &live_in, n);
            for pc in (blocks[b].start..blocks[b].end).rev() {
                step(func, pc, &mut live);
            }
            changed |= live_in[b].union(&live);
        }
    }
    let mut best = 0;
    for (b, block) in blocks.iter().enumerate() {
        let mut live = live_out(func, b, &live_in, n);
        best = best.max(weight(&live, &slots));
        for pc in (block.start..block.end).rev() {
            step(func, pc, &mut live);
            best = best.max(weight(&live, &slots));
        }
    }
    best.max(1)
}

fn live_out(func: &Function, b: usize, live_in: &[Bits], n: usize) -> Bits {
    let mut out = Bits::new(n);
    for &s in &func.cfg.blocks[b].succs {
        if let Some(l) = live_in.get(s as usize) {
            out.union(l);
        }
    }
    out
}

/// Live before `pc` from live after it: kill the destinations, add the sources. A guarded
/// instruction may not write, so its destinations stay live.
fn step(func: &Function, pc: u32, live: &mut Bits) {
    let Some(instr) = func.instrs.get(pc as usize) else {
        return;
    };
    if instr.guard.is_none() {
        for r in instr.dst_regs().as_slice() {
            live.clear(index(*r));
        }
    }
    for r in instr.src_regs().as_slice() {
        live.set(index(*r));
    }
}

fn index(r: RegId) -> usize {
    r.index()
}

fn weight(live: &Bits, slots: &[u32]) -> u32 {
    live.iter()
        .map(|r| slots.get(r).copied().unwrap_or(0))
        .sum()
}

#[cfg(test)]
mod tests {
    use crate::ptx::load;

    #[test]
    fn counts_what_is_live_not_what_is_declared() {
        let src = r#"
.version 7.0
.target sm_52
.address_size 64
.visible .entry k(.param .u64 p)
{
    .reg .b32 %r<10>;
    .reg .b64 %rd<3>;
    ld.param.u64 %rd1, [p];
    mov.u32 %r1, 1;
    add.u32 %r2, %r1, 1;
    add.u32 %r3, %r2, 1;
    add.u32 %r4, %r3, %r1;
    st.global.u32 [%rd1], %r4;
    ret;
}
"#;
        let program = load(src).unwrap();
        // Live at most: %rd1 (2 slots) + %r1 + %r3 (or %r2) = 4.
        assert_eq!(super::max_live_registers(&program.functions[0]), 4);
    }
}
