//! Generic addressing (PTX ISA "Generic Addressing"): one address space in which the shared,
//! local and constant windows sit at fixed places and everything else is global memory.
//!
//! warpstep's layout, chosen so no window overlaps a global allocation (those start at 4 GiB,
//! `global_memory::FIRST_BASE`) and so window addresses are easy to read in the views:
//! shared at 0x0100_0000, local at 0x0200_0000, const at 0x0300_0000, each 16 MiB long.
//! `cvta` adds or subtracts the window base; a non-generic address is the offset in its space.

use crate::ptx::Space;

/// Where each window starts in the generic space.
pub const SHARED_WINDOW: u64 = 0x0100_0000;
pub const LOCAL_WINDOW: u64 = 0x0200_0000;
pub const CONST_WINDOW: u64 = 0x0300_0000;
/// Length of each window.
pub const WINDOW_LEN: u64 = 0x0100_0000;

/// The window base of a space that has one.
pub fn window(space: Space) -> Option<u64> {
    match space {
        Space::Shared => Some(SHARED_WINDOW),
        Space::Local => Some(LOCAL_WINDOW),
        Space::Const => Some(CONST_WINDOW),
        _ => None,
    }
}

/// Splits a generic address into its space and the address within that space.
pub fn decode_generic(addr: u64) -> (Space, u64) {
    for space in [Space::Shared, Space::Local, Space::Const] {
        let base = window(space).unwrap_or(0);
        if (base..base + WINDOW_LEN).contains(&addr) {
            return (space, addr - base);
        }
    }
    (Space::Global, addr)
}

/// `cvta.space d, a`: the generic address of `a` (global addresses are already generic).
pub fn to_generic(space: Space, addr: u64) -> u64 {
    window(space).map_or(addr, |base| addr.wrapping_add(base))
}

/// `cvta.to.space d, a`: the address in `space` of generic address `a`.
pub fn from_generic(space: Space, addr: u64) -> u64 {
    window(space).map_or(addr, |base| addr.wrapping_sub(base))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn windows_round_trip_and_global_is_the_rest() {
        for space in [Space::Shared, Space::Local, Space::Const] {
            let g = to_generic(space, 0x40);
            assert_eq!(decode_generic(g), (space, 0x40));
            assert_eq!(from_generic(space, g), 0x40);
        }
        assert_eq!(
            decode_generic(0x1_0000_0010),
            (Space::Global, 0x1_0000_0010)
        );
        assert_eq!(to_generic(Space::Global, 0x1_0000_0010), 0x1_0000_0010);
        assert_eq!(decode_generic(0), (Space::Global, 0));
    }
}
