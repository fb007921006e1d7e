//! The DRAM address mapping: which bits of a channel-local address select the bank, the row and
//! the column (GPGPU-Sim's `-gpgpu_mem_addr_mapping`). Its own module so that configuration
//! checking can parse a mapping without depending on the DRAM channel model.

/// Which bits of a channel-local address are bank, row and column (GPGPU-Sim's
/// `-gpgpu_mem_addr_mapping`, the part after `dramid@N;`).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct AddressMapping {
    /// Bit positions of the bank number, least significant first.
    bank_bits: Vec<u8>,
    /// Bit positions of the row number, least significant first.
    row_bits: Vec<u8>,
    /// Bit positions of the column number, least significant first.
    col_bits: Vec<u8>,
    /// Bits the string covers; the bits above it are row bits too.
    width: u8,
}

impl AddressMapping {
    /// Parses `spec` (`R`, `B`, `C`, `S`, `0`, most significant bit first; `.` ignored) for a
    /// channel of `banks` banks.
    pub fn parse(spec: &str, banks: u32) -> Result<AddressMapping, String> {
        let bits: Vec<char> = spec.chars().filter(|c| *c != '.').collect();
        if bits.is_empty() || bits.len() > 48 {
            return Err(format!(
                "`{spec}` must name 1 to 48 address bits with R, B, C, S and 0"
            ));
        }
        let width = bits.len() as u8;
        let (mut bank_bits, mut row_bits, mut col_bits) = (Vec::new(), Vec::new(), Vec::new());
        for (i, c) in bits.iter().rev().enumerate() {
            let pos = i as u8;
            match c {
                'B' => bank_bits.push(pos),
                'R' => row_bits.push(pos),
                'C' => col_bits.push(pos),
                'S' | '0' => {}
                other => {
                    return Err(format!(
                    "`{spec}`: `{other}` is not R (row), B (bank), C (column), S (burst byte) or 0"
                ))
                }
            }
        }
        if 1u64 << bank_bits.len() != u64::from(banks) {
            return Err(format!(
                "`{spec}` has {} bank bits, but dram.banks = {banks} needs {}",
                bank_bits.len(),
                banks.trailing_zeros()
            ));
        }
        Ok(AddressMapping {
            bank_bits,
            row_bits,
            col_bits,
            width,
        })
    }

    /// A mapping with no bits: every address is bank 0, row 0, column 0 (what a channel
    /// falls back to for a mapping validation already refused).
    pub fn empty() -> AddressMapping {
        AddressMapping {
            bank_bits: Vec::new(),
            row_bits: Vec::new(),
            col_bits: Vec::new(),
            width: 0,
        }
    }

    fn gather(bits: &[u8], addr: u64) -> u64 {
        bits.iter()
            .enumerate()
            .fold(0, |v, (i, &b)| v | (((addr >> b) & 1) << i))
    }

    /// (bank, row, column) of a channel-local address.
    pub fn decode(&self, local: u64) -> (u32, u64, u64) {
        let bank = Self::gather(&self.bank_bits, local) as u32;
        let high = (local >> self.width) << self.row_bits.len();
        let row = Self::gather(&self.row_bits, local) | high;
        (bank, row, Self::gather(&self.col_bits, local))
    }
}
