//! The messages of the global memory path (MODEL.md section 9): a warp's coalesced [`Access`]
//! (GPGPU-Sim's `mem_access_t`, made by the coalescer and handed to the L1D) and the [`Fetch`]
//! that travels between the levels below it (GPGPU-Sim's `mem_fetch`: L1D miss queue,
//! interconnect, L2 slice queues, DRAM and back).
//!
//! The timing model carries no data: global memory is already correct functionally (MODEL.md
//! section 2), so a request is only an address, a size, a kind and who waits for it.

use serde::Serialize;

/// What an access does to memory.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessKind {
    /// `ld`: data comes back.
    Read,
    /// `st`: an acknowledgement comes back once the L2 has it (when a write went down).
    Write,
    /// `atom`/`red` on global memory: performed at the L2 (GPGPU-Sim's ROP), data comes back.
    Atomic,
}

/// Which space a request belongs to: the L1D's `L` policy is write-back for local and
/// write-evict for global data (MODEL.md section 9; GPGPU-Sim `wr_hit_global_we_local_wb`), and
/// constant and parameter reads go through the SM's constant cache instead of its L1D
/// (`constant.model = cache`; GPGPU-Sim's `CONST_ACC_R`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum DataSpace {
    Global,
    Local,
    Constant,
    /// A read-only global load (`ld.global.nc`) through the SM's texture cache
    /// (`l1d.texture_cache`); its addresses are global ones.
    Texture,
    /// An instruction fetch through the SM's instruction cache (`core.icache.model = cache`;
    /// GPGPU-Sim's `INST_ACC_R`).
    Instruction,
}

/// Where the memory system sees the `.param` buffer and the `.const` bank when their loads
/// go through the constant cache: apart from every global allocation (which start at
/// `exec::global_memory::FIRST_BASE`), so they share no cache line with global data.
pub const PARAM_BASE: u64 = 0xF0_0000_0000;
pub const CONST_BASE: u64 = 0xE0_0000_0000;
/// Where the memory system sees the kernel's code: instruction `pc` (an index) at
/// `INSTR_BASE + 8 pc` (GPGPU-Sim gives each PTX instruction 8 bytes, its code at
/// `PROGRAM_MEM_START`).
pub const INSTR_BASE: u64 = 0xD0_0000_0000;
/// Bytes of one PTX instruction in the code's address space.
pub const INSTR_BYTES: u64 = 8;

/// The address of instruction `pc` in the code's address space.
pub fn code_address(pc: u32) -> u64 {
    INSTR_BASE + INSTR_BYTES * u64::from(pc)
}

/// One coalesced request of a warp instruction: one segment of one sub-warp (GPGPU-Sim's
/// `mem_access_t`, built by `memory_coalescing_arch_reduce_and_send`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Access {
    /// First byte of the (possibly reduced) segment; aligned to `size`.
    pub addr: u64,
    /// Segment size in bytes: 32, 64 or 128.
    pub size: u32,
    pub kind: AccessKind,
    pub space: DataSpace,
    /// Lanes the request serves.
    pub lanes: u64,
    /// Bytes touched, as a mask over the 128-byte block that holds `addr` (bit i = byte i).
    pub bytes: u128,
    /// 32-byte chunks of that 128-byte block touched (bit i = chunk i).
    pub sectors: u8,
}

/// What a fetch asks of the level below.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize)]
#[serde(rename_all = "snake_case")]
pub enum FetchKind {
    /// A read; the reply carries the data back.
    Read,
    /// A store written through (or evicted past) a cache; no reply.
    Write,
    /// An atomic, performed at the L2; the reply carries the old value.
    Atomic,
    /// A dirty line evicted from a write-back cache; no reply.
    WriteBack,
    /// The read a write-allocate cache sends after a write miss (GPGPU-Sim `L2_WR_ALLOC_R`);
    /// its reply fills the cache and goes no further.
    AllocRead,
}

impl FetchKind {
    /// Whether data goes down with the request.
    pub fn carries_data_down(self) -> bool {
        matches!(
            self,
            FetchKind::Write | FetchKind::WriteBack | FetchKind::Atomic
        )
    }

    /// Whether the L2 acknowledges it: a store from an SM (GPGPU-Sim's `WRITE_ACK`), so the
    /// warp knows its stores are done; evictions are not acknowledged.
    pub fn acknowledged(self) -> bool {
        self == FetchKind::Write
    }

    /// Whether a reply with data comes back up.
    pub fn expects_reply(self) -> bool {
        matches!(
            self,
            FetchKind::Read | FetchKind::Atomic | FetchKind::AllocRead
        )
    }
}

/// Bytes of the header of every packet (GPGPU-Sim `READ_PACKET_SIZE`/`WRITE_PACKET_SIZE`, and the
/// 8-byte header of MRPB Table 1's "8-byte reads, 136-byte writes").
pub const HEADER_BYTES: u32 = 8;

/// No join slot (see [`Fetch::parent`]).
pub const NO_PARENT: u32 = u32::MAX;

/// A request between memory levels (GPGPU-Sim's `mem_fetch`).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize)]
pub struct Fetch {
    /// First byte (aligned to the requesting cache's fetch size for reads).
    pub addr: u64,
    /// Data bytes read or written.
    pub size: u32,
    pub kind: FetchKind,
    pub space: DataSpace,
    /// The SM that sent it: where the reply goes.
    pub sm: u32,
    /// The requester's key for the reply: the MSHR key of a cache fill, or the LD/ST unit's
    /// instruction tag for a bypassing request.
    pub token: u64,
    /// The reply goes straight to the LD/ST unit without filling the L1D (atomics; a missing
    /// L1D; later MRPB's bypass).
    pub bypass: bool,
    /// Bytes written or wanted, over the 128-byte block holding `addr`.
    pub bytes: u128,
    /// Inside an L2 slice: the join slot of the request this one is a piece of.
    pub parent: u32,
    /// On a reply: how many replies answer the request, one per piece the L2 split it into
    /// (GPGPU-Sim answers each 32-byte sector on its own); the requester waits for them all.
    pub pieces: u8,
    /// The cycle it last entered the interconnect (set by `Icnt` on sending), for the
    /// crossing-time counters.
    pub stamp: u64,
}

impl Fetch {
    /// A global read of `size` bytes at `addr` from SM 0, answered to `token` (unit tests).
    #[cfg(test)]
    pub(crate) fn global_read(addr: u64, size: u32, token: u64) -> Fetch {
        Fetch {
            addr,
            size,
            kind: FetchKind::Read,
            space: DataSpace::Global,
            sm: 0,
            token,
            bypass: false,
            bytes: u128::MAX,
            parent: NO_PARENT,
            pieces: 1,
            stamp: 0,
        }
    }

    /// Bytes of the packet on the way down (SM to L2, L2 to DRAM): the header, plus data for
    /// writes and atomics (GPGPU-Sim `icnt_push` sends only the control bytes of a read).
    pub fn request_bytes(&self) -> u32 {
        if self.kind.carries_data_down() {
            HEADER_BYTES + self.size
        } else {
            HEADER_BYTES
        }
    }

    /// Bytes of the reply packet: the header and the data, or only the header for a store's
    /// acknowledgement (GPGPU-Sim sends a write ack with its control bytes only).
    pub fn reply_bytes(&self) -> u32 {
        if self.kind == FetchKind::Write {
            HEADER_BYTES
        } else {
            HEADER_BYTES + self.size
        }
    }
}

/// The byte mask of `len` bytes starting at `offset` within a 128-byte block (clipped).
pub fn byte_mask(offset: u32, len: u32) -> u128 {
    if offset >= 128 || len == 0 {
        return 0;
    }
    let len = len.min(128 - offset);
    let ones = if len == 128 {
        u128::MAX
    } else {
        (1u128 << len) - 1
    };
    ones << offset
}

/// The 32-byte chunks a byte mask touches.
pub fn sectors_of(bytes: u128) -> u8 {
    let mut s = 0u8;
    for i in 0..4 {
        if (bytes >> (32 * i)) as u32 != 0 {
            s |= 1 << i;
        }
    }
    s
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn masks() {
        assert_eq!(byte_mask(0, 4), 0xF);
        assert_eq!(byte_mask(124, 8), 0xFu128 << 124);
        assert_eq!(byte_mask(0, 128), u128::MAX);
        assert_eq!(byte_mask(200, 4), 0);
        assert_eq!(sectors_of(byte_mask(30, 4)), 0b11);
        assert_eq!(sectors_of(u128::MAX), 0b1111);
    }

    #[test]
    fn packet_sizes_follow_mrpb_table_1() {
        let mut f = Fetch {
            addr: 0,
            size: 128,
            kind: FetchKind::Read,
            space: DataSpace::Global,
            sm: 0,
            token: 0,
            bypass: false,
            bytes: u128::MAX,
            parent: NO_PARENT,
            pieces: 1,
            stamp: 0,
        };
        assert_eq!(f.request_bytes(), 8);
        assert_eq!(f.reply_bytes(), 136);
        f.kind = FetchKind::Write;
        assert_eq!(f.request_bytes(), 136);
        // A store's acknowledgement is the header alone (GPGPU-Sim's WRITE_ACK control bytes).
        assert_eq!(f.reply_bytes(), 8);
    }
}
