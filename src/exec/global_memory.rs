//! Global memory: one flat 64-bit address space of allocated buffers (MODEL.md section 2).
//!
//! Each allocation is a list of fixed-size pages behind `Arc`, so cloning the whole memory for a
//! checkpoint copies page tables, not data; a write copies only the page it touches
//! (`Arc::make_mut`, STYLE.md "Reverse stepping"). Allocations are 256-byte aligned and separated
//! by an unmapped guard gap, so a kernel that runs one element past a buffer faults instead of
//! silently landing in the next one. Address 0 is never mapped (null pointers fault).

use std::sync::Arc;

/// Bytes per page.
pub const PAGE_SIZE: usize = 4096;
/// Where the first allocation starts.
pub const FIRST_BASE: u64 = 0x1_0000_0000;
/// Alignment of every allocation's base (CUDA's cudaMalloc guarantees 256).
pub const ALLOC_ALIGN: u64 = 256;
/// Unmapped bytes left after every allocation.
pub const GUARD_GAP: u64 = 4096;

type Page = [u8; PAGE_SIZE];

/// Why an access faulted.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize)]
#[serde(rename_all = "snake_case")]
pub enum AccessFault {
    /// No allocation holds every byte of the access.
    OutOfBounds,
    /// The address is not a multiple of the access size.
    Misaligned,
}

/// One buffer in the address space.
#[derive(Debug, Clone)]
pub struct Allocation {
    /// First byte's address.
    pub base: u64,
    /// Size in bytes.
    pub size: u64,
    /// What the buffer is, for error messages and the memory view ("arg 0", ".global table").
    pub name: String,
    pages: Vec<Arc<Page>>,
}

impl Allocation {
    /// The little-endian value of `size` bytes at `addr` (inside this allocation, aligned).
    #[inline]
    fn read_le(&self, addr: u64, size: u32) -> u64 {
        let off = (addr - self.base) as usize;
        let at = off % PAGE_SIZE;
        le_value(&self.pages[off / PAGE_SIZE][at..at + size as usize])
    }

    /// Writes the low `size` bytes of `value` at `addr` (inside this allocation, aligned),
    /// copying the page first if a checkpoint shares it.
    #[inline]
    fn write_le(&mut self, addr: u64, size: u32, value: u64) {
        let off = (addr - self.base) as usize;
        let page = Arc::make_mut(&mut self.pages[off / PAGE_SIZE]);
        let at = off % PAGE_SIZE;
        put_le(&mut page[at..at + size as usize], value);
    }

    fn contains(&self, addr: u64, len: u64) -> bool {
        addr >= self.base
            && addr
                .checked_add(len)
                .is_some_and(|end| end <= self.base + self.size)
    }
}

/// The global address space.
#[derive(Debug, Clone, Default)]
pub struct GlobalMemory {
    /// Sorted by base; bases only grow.
    allocations: Vec<Allocation>,
}

impl GlobalMemory {
    /// An empty address space.
    pub fn new() -> Self {
        Self::default()
    }

    /// Allocates `size` zeroed bytes (at least 1) and returns the base address.
    pub fn allocate(&mut self, size: u64, name: impl Into<String>) -> u64 {
        let size = size.max(1);
        let base = match self.allocations.last() {
            Some(last) => (last.base + last.size + GUARD_GAP).next_multiple_of(ALLOC_ALIGN),
            None => FIRST_BASE,
        };
        let pages = (size as usize).div_ceil(PAGE_SIZE);
        // Every page starts as the same shared zero page; the first write copies it.
        let zero_page = Arc::new([0u8; PAGE_SIZE]);
        self.allocations.push(Allocation {
            base,
            size,
            name: name.into(),
            pages: vec![zero_page; pages],
        });
        base
    }

    /// Every allocation, in address order.
    pub fn allocations(&self) -> &[Allocation] {
        &self.allocations
    }

    /// The allocation holding `[addr, addr+len)`, if one does.
    pub fn find(&self, addr: u64, len: u64) -> Option<&Allocation> {
        let i = self.allocations.partition_point(|a| a.base <= addr);
        let a = self.allocations.get(i.checked_sub(1)?)?;
        a.contains(addr, len).then_some(a)
    }

    fn find_index(&self, addr: u64, len: u64) -> Option<usize> {
        let i = self
            .allocations
            .partition_point(|a| a.base <= addr)
            .checked_sub(1)?;
        self.allocations[i].contains(addr, len).then_some(i)
    }

    /// Reads a naturally aligned little-endian value of 1, 2, 4 or 8 bytes.
    pub fn load(&self, addr: u64, size: u32) -> Result<u64, AccessFault> {
        check_aligned(addr, size)?;
        let i = self
            .find_index(addr, size as u64)
            .ok_or(AccessFault::OutOfBounds)?;
        Ok(self.allocations[i].read_le(addr, size))
    }

    /// Writes the low `size` bytes of `value` (1, 2, 4 or 8; naturally aligned).
    pub fn store(&mut self, addr: u64, size: u32, value: u64) -> Result<(), AccessFault> {
        check_aligned(addr, size)?;
        let i = self
            .find_index(addr, size as u64)
            .ok_or(AccessFault::OutOfBounds)?;
        self.allocations[i].write_le(addr, size, value);
        Ok(())
    }

    /// [`load`](Self::load), trying allocation `*hint` before searching (and leaving the
    /// allocation found there): the same result, cheaper for a warp whose lanes read one buffer.
    /// Allocations never overlap, so at most one can hold the access.
    #[inline]
    pub fn load_near(&self, hint: &mut usize, addr: u64, size: u32) -> Result<u64, AccessFault> {
        check_aligned(addr, size)?;
        Ok(self.allocation_near(hint, addr, size)?.read_le(addr, size))
    }

    /// [`store`](Self::store), trying allocation `*hint` first as [`load_near`](Self::load_near).
    #[inline]
    pub fn store_near(
        &mut self,
        hint: &mut usize,
        addr: u64,
        size: u32,
        value: u64,
    ) -> Result<(), AccessFault> {
        check_aligned(addr, size)?;
        self.allocation_near(hint, addr, size)?;
        self.allocations[*hint].write_le(addr, size, value);
        Ok(())
    }

    /// Whether a store of `size` bytes at `addr` would succeed (alignment and bounds).
    #[inline]
    pub fn can_store_near(&self, hint: &mut usize, addr: u64, size: u32) -> bool {
        check_aligned(addr, size).is_ok() && self.allocation_near(hint, addr, size).is_ok()
    }

    /// The allocation holding `[addr, addr+size)`, trying `*hint` first; `*hint` becomes its index.
    #[inline]
    fn allocation_near(
        &self,
        hint: &mut usize,
        addr: u64,
        size: u32,
    ) -> Result<&Allocation, AccessFault> {
        if let Some(a) = self.allocations.get(*hint) {
            if a.contains(addr, size as u64) {
                return Ok(a);
            }
        }
        *hint = self
            .find_index(addr, size as u64)
            .ok_or(AccessFault::OutOfBounds)?;
        Ok(&self.allocations[*hint])
    }

    /// Host-side copy into memory (no alignment rule), e.g. a buffer's initial contents.
    pub fn write_bytes(&mut self, addr: u64, bytes: &[u8]) -> Result<(), AccessFault> {
        let i = self
            .find_index(addr, bytes.len() as u64)
            .ok_or(AccessFault::OutOfBounds)?;
        let a = &mut self.allocations[i];
        let mut off = (addr - a.base) as usize;
        for chunk in split_at_pages(off, bytes.len()) {
            let page = Arc::make_mut(&mut a.pages[off / PAGE_SIZE]);
            let at = off % PAGE_SIZE;
            page[at..at + chunk].copy_from_slice(&bytes[off - (addr - a.base) as usize..][..chunk]);
            off += chunk;
        }
        Ok(())
    }

    /// Host-side copy out of memory, e.g. a buffer's final contents.
    pub fn read_bytes(&self, addr: u64, len: usize) -> Result<Vec<u8>, AccessFault> {
        let a = self
            .find(addr, len as u64)
            .ok_or(AccessFault::OutOfBounds)?;
        let mut out = Vec::with_capacity(len);
        let mut off = (addr - a.base) as usize;
        for chunk in split_at_pages(off, len) {
            let at = off % PAGE_SIZE;
            out.extend_from_slice(&a.pages[off / PAGE_SIZE][at..at + chunk]);
            off += chunk;
        }
        Ok(out)
    }
}

/// The little-endian value of `src` (1 to 8 bytes), zero-extended. Each access size is its own
/// fixed-size copy (a variable-length `copy_from_slice` costs a `memcpy` call per lane).
#[inline(always)]
pub fn le_value(src: &[u8]) -> u64 {
    let mut raw = [0u8; 8];
    match src.len() {
        1 => raw[..1].copy_from_slice(src),
        2 => raw[..2].copy_from_slice(src),
        4 => raw[..4].copy_from_slice(src),
        8 => raw.copy_from_slice(src),
        n => raw[..n].copy_from_slice(src),
    }
    u64::from_le_bytes(raw)
}

/// Writes the low `dst.len()` bytes (1 to 8) of `value` little-endian, as [`le_value`] reads.
#[inline(always)]
pub fn put_le(dst: &mut [u8], value: u64) {
    let bytes = value.to_le_bytes();
    match dst.len() {
        1 => dst.copy_from_slice(&bytes[..1]),
        2 => dst.copy_from_slice(&bytes[..2]),
        4 => dst.copy_from_slice(&bytes[..4]),
        8 => dst.copy_from_slice(&bytes),
        n => dst.copy_from_slice(&bytes[..n]),
    }
}

fn check_aligned(addr: u64, size: u32) -> Result<(), AccessFault> {
    if !matches!(size, 1 | 2 | 4 | 8) || addr % size as u64 != 0 {
        return Err(AccessFault::Misaligned);
    }
    Ok(())
}

/// Lengths of the pieces of `[off, off+len)` that stay within one page each.
fn split_at_pages(mut off: usize, mut len: usize) -> impl Iterator<Item = usize> {
    std::iter::from_fn(move || {
        if len == 0 {
            return None;
        }
        let chunk = (PAGE_SIZE - off % PAGE_SIZE).min(len);
        off += chunk;
        len -= chunk;
        Some(chunk)
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn allocations_are_aligned_separated_and_never_at_zero() {
        let mut m = GlobalMemory::new();
        let a = m.allocate(10, "a");
        let b = m.allocate(4, "b");
        assert_eq!(a, FIRST_BASE);
        assert_eq!(b % ALLOC_ALIGN, 0);
        assert!(b >= a + 10 + GUARD_GAP);
        assert_eq!(m.load(0, 4), Err(AccessFault::OutOfBounds));
        assert_eq!(m.find(b, 4).unwrap().name, "b");
    }

    #[test]
    fn loads_and_stores_check_bounds_and_alignment() {
        let mut m = GlobalMemory::new();
        let a = m.allocate(16, "a");
        m.store(a + 8, 8, 0x1122_3344_5566_7788).unwrap();
        assert_eq!(m.load(a + 8, 4).unwrap(), 0x5566_7788);
        assert_eq!(m.load(a + 12, 2).unwrap(), 0x3344);
        assert_eq!(m.load(a + 2, 4), Err(AccessFault::Misaligned));
        assert_eq!(m.load(a + 16, 4), Err(AccessFault::OutOfBounds));
        assert_eq!(m.store(a + 12, 8, 0), Err(AccessFault::Misaligned));
        assert_eq!(m.store(a - 4, 4, 0), Err(AccessFault::OutOfBounds));
    }

    #[test]
    fn host_copies_cross_pages_and_clones_share_until_written() {
        let mut m = GlobalMemory::new();
        let a = m.allocate(3 * PAGE_SIZE as u64, "big");
        let data: Vec<u8> = (0..(2 * PAGE_SIZE + 100))
            .map(|i| (i % 251) as u8)
            .collect();
        m.write_bytes(a + 50, &data).unwrap();
        assert_eq!(m.read_bytes(a + 50, data.len()).unwrap(), data);
        let snapshot = m.clone();
        m.store(a + 4096, 4, 0xdead_beef).unwrap();
        assert_eq!(
            snapshot.load(a + 4096, 4).unwrap(),
            u32::from_le_bytes([data[4046], data[4047], data[4048], data[4049]]) as u64
        );
        assert_eq!(m.load(a + 4096, 4).unwrap(), 0xdead_beef);
        assert!(m
            .write_bytes(a + 3 * PAGE_SIZE as u64 - 2, &[1, 2, 3])
            .is_err());
    }
}
