//! GPGPU-Sim cache configuration strings (MODEL.md section 9), parsed into [`CacheSpec`] and
//! printed back.
//!
//! The grammar is the one `cache_config::init` in GPGPU-Sim's `gpu-cache.h` reads with `sscanf`,
//! in its full (Accel-Sim, GPGPU-Sim 4) form and in the older 3.x forms, so values from either
//! generation of config files can be pasted in:
//!
//! ```text
//! [T:]sets:line:assoc , R:W:A:WA[:SI] , M:entries:max_merge , miss_queue[:result_fifo] [, data_port_width]
//! N:32:128:4,L:L:m:N:H,S:64:8,8            fermi L1D (GPGPU-Sim 4 GTX480)
//! S:64:128:8,L:B:m:L:L,A:256:4,4:0,32      fermi L2 slice
//! 64:128:16,L:B:m:W,A:32:4,4               GPGPU-Sim 3.2 TeslaC2050 L2 (no type, no set index)
//! none                                     no cache at all (GPGPU-Sim accepts it too)
//! ```
//!
//! Fields are numbered as in GPGPU-Sim's full format, starting at 0 with the type letter, so an
//! error names the same field whether or not the optional type letter was written:
//! 0 type, 1 sets, 2 line, 3 assoc, 4 replacement, 5 write, 6 alloc, 7 write_alloc, 8 set_index,
//! 9 mshr, 10 mshr_entries, 11 mshr_max_merge, 12 miss_queue, 13 result_fifo, 14 data_port_width.
//!
//! Besides the syntax, [`CacheSpec::parse`] applies the checks GPGPU-Sim makes when it builds the
//! cache (a write-back cache cannot allocate on fill, fetch-on-write needs allocate-on-miss, a
//! sector cache has 4 sectors of 32 B, `H` needs 32 or 64 sets, a texture FIFO MSHR needs the
//! result-FIFO field), plus power-of-two sets and line sizes, which GPGPU-Sim's index arithmetic
//! assumes without checking (any set count with warpstep's own modulo index `M`).
//!
//! Letters GPGPU-Sim accepts but warpstep does not model (set index `P`, `C`, `X`; MSHR `F`, `T`;
//! allocation `s`) parse here and are rejected by `Config::check_supported` (see `unbuilt.rs`).

use std::fmt;

/// Defines a one-letter cache-string enum: the variants, the letter of each, and a description
/// used in error messages and documentation.
macro_rules! letter_enum {
    ($(#[$meta:meta])* $name:ident { $($(#[$vmeta:meta])* $variant:ident = $letter:literal, $desc:literal;)+ }) => {
        $(#[$meta])*
        #[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, PartialOrd, Ord)]
        pub enum $name {
            $($(#[$vmeta])* $variant,)+
        }

        impl $name {
            /// Every variant, in GPGPU-Sim's order.
            pub const ALL: &'static [$name] = &[$($name::$variant),+];

            /// The letter GPGPU-Sim uses for this choice.
            pub fn letter(self) -> char {
                match self { $($name::$variant => $letter,)+ }
            }

            /// What the letter means, in a few words.
            pub fn description(self) -> &'static str {
                match self { $($name::$variant => $desc,)+ }
            }

            /// The variant written with `letter` (case-sensitive, as in GPGPU-Sim).
            pub fn from_letter(letter: char) -> Option<$name> {
                match letter { $($letter => Some($name::$variant),)+ _ => None }
            }

            /// "L (LRU), F (FIFO)": the accepted letters, for error messages.
            fn choices() -> String {
                Self::ALL
                    .iter()
                    .map(|v| format!("{} ({})", v.letter(), v.description()))
                    .collect::<Vec<_>>()
                    .join(", ")
            }
        }
    };
}

letter_enum! {
    /// Field 0: line-granular or sectored tag array (`m_cache_type`).
    CacheKind {
        /// `N`: one valid bit per line; a miss fetches the whole line.
        Normal = 'N', "normal";
        /// `S`: four 32-byte sectors per 128-byte line, each filled separately.
        Sector = 'S', "sector";
    }
}

letter_enum! {
    /// Field 4: which way of a set is evicted (`m_replacement_policy`).
    Replacement {
        /// `L`: least recently used.
        Lru = 'L', "LRU";
        /// `F`: first in, first out (allocation order).
        Fifo = 'F', "FIFO";
    }
}

letter_enum! {
    /// Field 5: what a store does (`m_write_policy`).
    WritePolicy {
        /// `R`: read-only cache (instruction, constant, texture).
        ReadOnly = 'R', "read-only";
        /// `B`: write-back; dirty lines are written when evicted.
        WriteBack = 'B', "write-back";
        /// `T`: write-through.
        WriteThrough = 'T', "write-through";
        /// `E`: write-evict; a store invalidates the line and goes to the next level.
        WriteEvict = 'E', "write-evict";
        /// `L`: local memory write-back, global memory write-through (Fermi L1D).
        LocalWbGlobalWt = 'L', "local write-back, global write-through";
    }
}

letter_enum! {
    /// Field 6: when a missing line takes a way (`m_alloc_policy`).
    AllocPolicy {
        /// `m`: on miss; the victim way becomes RESERVED until the fill (MODEL.md section 9).
        OnMiss = 'm', "allocate on miss";
        /// `f`: on fill; no way is held while the miss is outstanding.
        OnFill = 'f', "allocate on fill";
        /// `s`: streaming (Volta-style, GPGPU-Sim 4): on fill with MSHRs sized to the lines.
        Streaming = 's', "streaming";
    }
}

letter_enum! {
    /// Field 7: what a store miss does (`m_write_alloc_policy`).
    WriteAllocPolicy {
        /// `N`: no write-allocate; the store goes to the next level only.
        NoWriteAllocate = 'N', "no write-allocate";
        /// `W`: write-allocate (GPGPU-Sim 3.x: a read and a write for every store miss).
        WriteAllocate = 'W', "write-allocate";
        /// `F`: fetch-on-write.
        FetchOnWrite = 'F', "fetch-on-write";
        /// `L`: lazy fetch-on-read (write-validate; fetch only when a partial line is read).
        LazyFetchOnRead = 'L', "lazy fetch-on-read";
    }
}

letter_enum! {
    /// Field 8: how an address picks its set (`m_set_index_function`). Absent in 3.x strings,
    /// where it means `L`.
    SetIndex {
        /// `L`: linear, the bits just above the line offset.
        Linear = 'L', "linear";
        /// `H`: Fermi's hash (XOR of higher address bits), for 32 or 64 sets.
        FermiHash = 'H', "Fermi hash";
        /// `P`: IPOLY hash (GPGPU-Sim 4).
        Ipoly = 'P', "IPOLY hash";
        /// `C`: custom function compiled into GPGPU-Sim.
        Custom = 'C', "custom";
        /// `X`: bitwise XOR (GPGPU-Sim 4).
        BitwiseXor = 'X', "bitwise XOR";
        /// `M`: the line address modulo the set count, for any number of sets (warpstep's
        /// letter, not GPGPU-Sim's: the unified memory's cache, MODEL.md section 11).
        Modulo = 'M', "modulo";
    }
}

letter_enum! {
    /// Field 9: how outstanding misses are tracked (`m_mshr_type`).
    MshrKind {
        /// `A`: associative MSHR table, merging requests to one line.
        Assoc = 'A', "associative";
        /// `S`: associative, merging per 32-byte sector.
        SectorAssoc = 'S', "sector associative";
        /// `F`: texture-cache FIFO (needs the result-FIFO field).
        TexFifo = 'F', "texture FIFO";
        /// `T`: sectored texture FIFO (needs the result-FIFO field).
        SectorTexFifo = 'T', "sector texture FIFO";
    }
}

/// GPGPU-Sim's sector size and sectors per line (`SECTOR_SIZE`, `SECTOR_CHUNCK_SIZE`).
pub const SECTOR_BYTES: u32 = 32;
/// Sectors in one line of a sector cache.
pub const SECTORS_PER_LINE: u32 = 4;

/// Which optional parts a string spelled out, so printing gives back what was written.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Default)]
pub struct Spelling {
    /// The type letter (field 0) was written. A sector cache always prints it.
    pub type_letter: bool,
    /// The set-index letter (field 8) was written. A non-linear index always prints it.
    pub set_index_letter: bool,
}

/// One cache's geometry and policies, as GPGPU-Sim's `cache_config` holds them.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub struct CacheSpec {
    /// Field 0: normal or sector tag array.
    pub kind: CacheKind,
    /// Field 1: number of sets (a power of two).
    pub sets: u32,
    /// Field 2: line size in bytes (a power of two).
    pub line_bytes: u32,
    /// Field 3: ways per set.
    pub assoc: u32,
    /// Field 4: replacement policy.
    pub replacement: Replacement,
    /// Field 5: write policy.
    pub write: WritePolicy,
    /// Field 6: allocation policy.
    pub alloc: AllocPolicy,
    /// Field 7: write-allocate policy.
    pub write_alloc: WriteAllocPolicy,
    /// Field 8: set index function.
    pub set_index: SetIndex,
    /// Field 9: MSHR organisation.
    pub mshr: MshrKind,
    /// Field 10: MSHR entries (distinct lines or sectors outstanding).
    pub mshr_entries: u32,
    /// Field 11: requests one MSHR entry can merge.
    pub mshr_max_merge: u32,
    /// Field 12: miss-queue entries towards the next level.
    pub miss_queue: u32,
    /// Field 13: result-FIFO entries (texture FIFO MSHRs; GPGPU-Sim 4 writes `0` otherwise).
    pub result_fifo: Option<u32>,
    /// Field 14: bytes the data array reads per cycle (`0`, or absent, means one line).
    pub data_port_width: Option<u32>,
    /// Which optional letters the string spelled out.
    pub spelling: Spelling,
}

/// Why one field of a cache string is wrong.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FieldProblem {
    /// The field should be a number and is not.
    NotANumber,
    /// The field should be one letter out of a set.
    NotALetter {
        /// The accepted letters with their meanings.
        choices: String,
    },
    /// A number outside what GPGPU-Sim can build.
    Invalid {
        /// The rule it breaks.
        rule: String,
    },
}

/// A cache string GPGPU-Sim would refuse (or abort on).
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum CacheStringError {
    /// The comma/colon structure is wrong.
    Shape(String),
    /// One field is wrong.
    Field {
        /// Field number in GPGPU-Sim's full format (0 = type letter).
        index: u8,
        /// The field's name.
        name: &'static str,
        /// The text found there.
        text: String,
        /// What is wrong with it.
        problem: FieldProblem,
    },
    /// The fields parse but do not fit together.
    Combination(String),
}

impl fmt::Display for CacheStringError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            CacheStringError::Shape(msg) | CacheStringError::Combination(msg) => f.write_str(msg),
            CacheStringError::Field {
                index,
                name,
                text,
                problem,
            } => {
                write!(f, "field {index} ({name}) `{text}` ")?;
                match problem {
                    FieldProblem::NotANumber => f.write_str("is not a number"),
                    FieldProblem::NotALetter { choices } => write!(f, "is not one of {choices}"),
                    FieldProblem::Invalid { rule } => write!(f, "is invalid: {rule}"),
                }
            }
        }
    }
}

impl std::error::Error for CacheStringError {}

/// Field names by index, as in the module documentation.
const FIELD_NAMES: [&str; 15] = [
    "type",
    "sets",
    "line",
    "assoc",
    "replacement",
    "write",
    "alloc",
    "write_alloc",
    "set_index",
    "mshr",
    "mshr_entries",
    "mshr_max_merge",
    "miss_queue",
    "result_fifo",
    "data_port_width",
];

fn field_error(index: u8, text: &str, problem: FieldProblem) -> CacheStringError {
    CacheStringError::Field {
        index,
        name: FIELD_NAMES[usize::from(index)],
        text: text.to_string(),
        problem,
    }
}

fn number(index: u8, text: &str) -> Result<u32, CacheStringError> {
    let digits = !text.is_empty() && text.bytes().all(|b| b.is_ascii_digit());
    let parsed = if digits {
        text.parse::<u32>().ok()
    } else {
        None
    };
    parsed.ok_or_else(|| field_error(index, text, FieldProblem::NotANumber))
}

fn letter<T>(
    index: u8,
    text: &str,
    from: fn(char) -> Option<T>,
    choices: fn() -> String,
) -> Result<T, CacheStringError> {
    let mut chars = text.chars();
    let found = match (chars.next(), chars.next()) {
        (Some(c), None) => from(c),
        _ => None,
    };
    found.ok_or_else(|| field_error(index, text, FieldProblem::NotALetter { choices: choices() }))
}

fn split_group<'a>(
    group: &'a str,
    counts: &[usize],
    what: &str,
) -> Result<Vec<&'a str>, CacheStringError> {
    let parts: Vec<&str> = group.split(':').collect();
    if counts.contains(&parts.len()) {
        Ok(parts)
    } else {
        Err(CacheStringError::Shape(format!(
            "`{group}` has {} colon-separated fields; expected {what}",
            parts.len()
        )))
    }
}

/// Partly built spec: everything is filled in group by group.
struct Builder {
    spec: CacheSpec,
}

impl Builder {
    fn new() -> Builder {
        Builder {
            spec: CacheSpec {
                kind: CacheKind::Normal,
                sets: 0,
                line_bytes: 0,
                assoc: 0,
                replacement: Replacement::Lru,
                write: WritePolicy::ReadOnly,
                alloc: AllocPolicy::OnMiss,
                write_alloc: WriteAllocPolicy::NoWriteAllocate,
                set_index: SetIndex::Linear,
                mshr: MshrKind::Assoc,
                mshr_entries: 0,
                mshr_max_merge: 0,
                miss_queue: 0,
                result_fifo: None,
                data_port_width: None,
                spelling: Spelling::default(),
            },
        }
    }

    fn geometry(&mut self, group: &str) -> Result<(), CacheStringError> {
        let parts = split_group(group, &[3, 4], "[type:]sets:line:assoc")?;
        let rest = if parts.len() == 4 {
            self.spec.kind = letter(0, parts[0], CacheKind::from_letter, CacheKind::choices)?;
            self.spec.spelling.type_letter = true;
            &parts[1..]
        } else {
            &parts[..]
        };
        self.spec.sets = number(1, rest[0])?;
        self.spec.line_bytes = number(2, rest[1])?;
        self.spec.assoc = number(3, rest[2])?;
        Ok(())
    }

    fn policies(&mut self, group: &str) -> Result<(), CacheStringError> {
        let what = "replacement:write:alloc:write_alloc[:set_index]";
        let parts = split_group(group, &[4, 5], what)?;
        let s = &mut self.spec;
        s.replacement = letter(4, parts[0], Replacement::from_letter, Replacement::choices)?;
        s.write = letter(5, parts[1], WritePolicy::from_letter, WritePolicy::choices)?;
        s.alloc = letter(6, parts[2], AllocPolicy::from_letter, AllocPolicy::choices)?;
        s.write_alloc = letter(
            7,
            parts[3],
            WriteAllocPolicy::from_letter,
            WriteAllocPolicy::choices,
        )?;
        if let Some(text) = parts.get(4) {
            s.set_index = letter(8, text, SetIndex::from_letter, SetIndex::choices)?;
            s.spelling.set_index_letter = true;
        }
        Ok(())
    }

    fn mshr(&mut self, group: &str) -> Result<(), CacheStringError> {
        let parts = split_group(group, &[3], "mshr:entries:max_merge")?;
        self.spec.mshr = letter(9, parts[0], MshrKind::from_letter, MshrKind::choices)?;
        self.spec.mshr_entries = number(10, parts[1])?;
        self.spec.mshr_max_merge = number(11, parts[2])?;
        Ok(())
    }

    fn queues(&mut self, group: &str) -> Result<(), CacheStringError> {
        let parts = split_group(group, &[1, 2], "miss_queue[:result_fifo]")?;
        self.spec.miss_queue = number(12, parts[0])?;
        if let Some(text) = parts.get(1) {
            self.spec.result_fifo = Some(number(13, text)?);
        }
        Ok(())
    }

    fn port(&mut self, group: &str) -> Result<(), CacheStringError> {
        split_group(group, &[1], "data_port_width")?;
        self.spec.data_port_width = Some(number(14, group)?);
        Ok(())
    }
}

fn positive(index: u8, value: u32, max: u32) -> Result<(), CacheStringError> {
    if (1..=max).contains(&value) {
        Ok(())
    } else {
        let rule = format!("must be in 1..={max}");
        Err(field_error(
            index,
            &value.to_string(),
            FieldProblem::Invalid { rule },
        ))
    }
}

fn power_of_two(index: u8, value: u32, min: u32, max: u32) -> Result<(), CacheStringError> {
    if value.is_power_of_two() && (min..=max).contains(&value) {
        Ok(())
    } else {
        let rule = format!("must be a power of two in {min}..={max}");
        Err(field_error(
            index,
            &value.to_string(),
            FieldProblem::Invalid { rule },
        ))
    }
}

fn combination(msg: &str) -> Result<(), CacheStringError> {
    Err(CacheStringError::Combination(msg.to_string()))
}

impl CacheSpec {
    /// Parses a cache string (not `none`; see [`parse_optional`]).
    pub fn parse(text: &str) -> Result<CacheSpec, CacheStringError> {
        let text = text.trim();
        let groups: Vec<&str> = text.split(',').collect();
        if !(4..=5).contains(&groups.len()) {
            return Err(CacheStringError::Shape(format!(
                "`{text}` has {} comma-separated groups; expected 4 or 5: \
                 [type:]sets:line:assoc,replacement:write:alloc:write_alloc[:set_index],\
                 mshr:entries:max_merge,miss_queue[:result_fifo][,data_port_width]",
                groups.len()
            )));
        }
        let mut b = Builder::new();
        b.geometry(groups[0])?;
        b.policies(groups[1])?;
        b.mshr(groups[2])?;
        b.queues(groups[3])?;
        if let Some(group) = groups.get(4) {
            b.port(group)?;
        }
        b.spec.check()?;
        Ok(b.spec)
    }

    /// GPGPU-Sim's construction-time checks plus the power-of-two rules its indexing assumes.
    fn check(&self) -> Result<(), CacheStringError> {
        match self.set_index {
            SetIndex::Modulo => positive(1, self.sets, 1 << 16)?,
            _ => power_of_two(1, self.sets, 1, 1 << 16)?,
        }
        power_of_two(2, self.line_bytes, 4, 4096)?;
        positive(3, self.assoc, 1024)?;
        positive(10, self.mshr_entries, 4096)?;
        positive(11, self.mshr_max_merge, 1024)?;
        positive(12, self.miss_queue, 4096)?;
        self.check_port()?;
        self.check_sector()?;
        self.check_policies()?;
        self.check_mshr()
    }

    fn check_port(&self) -> Result<(), CacheStringError> {
        match self.data_port_width {
            Some(w) if w != 0 && self.line_bytes % w != 0 => {
                let rule = format!("must divide the line size {}", self.line_bytes);
                Err(field_error(
                    14,
                    &w.to_string(),
                    FieldProblem::Invalid { rule },
                ))
            }
            _ => Ok(()),
        }
    }

    fn check_sector(&self) -> Result<(), CacheStringError> {
        if self.kind == CacheKind::Sector && self.line_bytes != SECTOR_BYTES * SECTORS_PER_LINE {
            return combination("a sector cache (S) needs 128-byte lines (4 sectors of 32 B)");
        }
        let sets_ok = matches!(self.sets, 32 | 64);
        if self.set_index == SetIndex::FermiHash && !sets_ok {
            return combination("the Fermi hash set index (H) needs 32 or 64 sets");
        }
        Ok(())
    }

    fn check_policies(&self) -> Result<(), CacheStringError> {
        let on_fill = matches!(self.alloc, AllocPolicy::OnFill | AllocPolicy::Streaming);
        if on_fill && self.write == WritePolicy::WriteBack {
            return combination("a write-back cache (B) cannot allocate on fill (f, s)");
        }
        let fetch = matches!(
            self.write_alloc,
            WriteAllocPolicy::FetchOnWrite | WriteAllocPolicy::LazyFetchOnRead
        );
        if on_fill && fetch {
            return combination(
                "fetch-on-write (F) and lazy fetch-on-read (L) need alloc on miss (m)",
            );
        }
        Ok(())
    }

    fn check_mshr(&self) -> Result<(), CacheStringError> {
        let fifo = matches!(self.mshr, MshrKind::TexFifo | MshrKind::SectorTexFifo);
        if fifo && self.result_fifo.is_none() {
            return combination(
                "a texture FIFO MSHR (F, T) needs the result-FIFO field (field 13)",
            );
        }
        Ok(())
    }

    /// Capacity in bytes: sets x ways x line.
    pub fn size_bytes(&self) -> u64 {
        u64::from(self.sets) * u64::from(self.assoc) * u64::from(self.line_bytes)
    }
}

/// Parses a cache string, where `none` (as in GPGPU-Sim) means there is no such cache.
pub fn parse_optional(text: &str) -> Result<Option<CacheSpec>, CacheStringError> {
    if text.trim() == "none" {
        Ok(None)
    } else {
        CacheSpec::parse(text).map(Some)
    }
}

impl fmt::Display for CacheSpec {
    /// Prints the string in the form it was read (optional parts as written), so canonical
    /// input round-trips exactly.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        if self.spelling.type_letter || self.kind != CacheKind::Normal {
            write!(f, "{}:", self.kind.letter())?;
        }
        write!(f, "{}:{}:{},", self.sets, self.line_bytes, self.assoc)?;
        write!(
            f,
            "{}:{}:{}:{}",
            self.replacement.letter(),
            self.write.letter(),
            self.alloc.letter(),
            self.write_alloc.letter()
        )?;
        if self.spelling.set_index_letter || self.set_index != SetIndex::Linear {
            write!(f, ":{}", self.set_index.letter())?;
        }
        let m = self.mshr.letter();
        write!(
            f,
            ",{m}:{}:{},{}",
            self.mshr_entries, self.mshr_max_merge, self.miss_queue
        )?;
        if let Some(r) = self.result_fifo {
            write!(f, ":{r}")?;
        }
        if let Some(w) = self.data_port_width {
            write!(f, ",{w}")?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const CANONICAL: &[&str] = &[
        "N:32:128:4,L:L:m:N:H,S:64:8,8",
        "S:64:128:8,L:B:m:L:L,A:256:4,4:0,32",
        "64:128:16,L:B:m:W,A:32:4,4",
        "N:32:128:4,L:L:m:N:L,A:32:8,8",
        "N:64:128:6,L:L:m:N:L,A:32:8,8",
        "N:4:128:4,L:R:f:N:L,S:2:32,4",
        "N:4:128:24,L:R:m:N:L,T:128:4,128:2",
        "32:128:4,L:L:m:N,A:32:8,8",
        "32:128:4,L:L:m:N:H,A:32:8,8",
        "N:64:64:2,L:R:f:N:L,A:2:32,4",
    ];

    #[test]
    fn canonical_strings_round_trip() {
        for s in CANONICAL {
            let spec = CacheSpec::parse(s).unwrap_or_else(|e| panic!("{s}: {e}"));
            assert_eq!(spec.to_string(), *s);
        }
    }

    #[test]
    fn fermi_l1d_fields() {
        let s = CacheSpec::parse("N:32:128:4,L:L:m:N:H,S:64:8,8").unwrap();
        assert_eq!(s.kind, CacheKind::Normal);
        assert_eq!((s.sets, s.line_bytes, s.assoc), (32, 128, 4));
        assert_eq!(s.size_bytes(), 16 * 1024);
        assert_eq!(s.replacement, Replacement::Lru);
        assert_eq!(s.write, WritePolicy::LocalWbGlobalWt);
        assert_eq!(s.alloc, AllocPolicy::OnMiss);
        assert_eq!(s.write_alloc, WriteAllocPolicy::NoWriteAllocate);
        assert_eq!(s.set_index, SetIndex::FermiHash);
        assert_eq!(s.mshr, MshrKind::SectorAssoc);
        assert_eq!((s.mshr_entries, s.mshr_max_merge, s.miss_queue), (64, 8, 8));
        assert_eq!((s.result_fifo, s.data_port_width), (None, None));
    }

    #[test]
    fn fermi_l2_fields() {
        let s = CacheSpec::parse("S:64:128:8,L:B:m:L:L,A:256:4,4:0,32").unwrap();
        assert_eq!(s.kind, CacheKind::Sector);
        assert_eq!(s.size_bytes(), 64 * 1024);
        assert_eq!(s.write, WritePolicy::WriteBack);
        assert_eq!(s.write_alloc, WriteAllocPolicy::LazyFetchOnRead);
        assert_eq!(s.set_index, SetIndex::Linear);
        assert_eq!(
            (s.mshr_entries, s.mshr_max_merge, s.miss_queue),
            (256, 4, 4)
        );
        assert_eq!((s.result_fifo, s.data_port_width), (Some(0), Some(32)));
    }

    #[test]
    fn legacy_form_defaults_to_normal_and_linear() {
        let s = CacheSpec::parse("64:128:16,L:B:m:W,A:32:4,4").unwrap();
        assert_eq!(s.kind, CacheKind::Normal);
        assert_eq!(s.set_index, SetIndex::Linear);
        assert_eq!(s.write_alloc, WriteAllocPolicy::WriteAllocate);
        assert_eq!(s.size_bytes(), 128 * 1024);
    }

    #[test]
    fn none_means_no_cache() {
        assert_eq!(parse_optional("none"), Ok(None));
        assert!(parse_optional("N:32:128:4,L:L:m:N:H,S:64:8,8")
            .unwrap()
            .is_some());
    }

    fn err(s: &str) -> String {
        CacheSpec::parse(s).unwrap_err().to_string()
    }

    #[test]
    fn each_malformed_field_is_named() {
        let cases: &[(&str, &str)] = &[
            (
                "Q:32:128:4,L:L:m:N:H,S:64:8,8",
                "field 0 (type) `Q` is not one of N (normal)",
            ),
            (
                "N:x:128:4,L:L:m:N:H,S:64:8,8",
                "field 1 (sets) `x` is not a number",
            ),
            (
                "N:32:y:4,L:L:m:N:H,S:64:8,8",
                "field 2 (line) `y` is not a number",
            ),
            (
                "N:32:128:x,L:L:m:N:H,S:64:8,8",
                "field 3 (assoc) `x` is not a number",
            ),
            (
                "N:32:128:4,Z:L:m:N:H,S:64:8,8",
                "field 4 (replacement) `Z` is not one of L (LRU)",
            ),
            (
                "N:32:128:4,L:Q:m:N:H,S:64:8,8",
                "field 5 (write) `Q` is not one of R (read-only)",
            ),
            (
                "N:32:128:4,L:L:M:N:H,S:64:8,8",
                "field 6 (alloc) `M` is not one of m (",
            ),
            (
                "N:32:128:4,L:L:m:n:H,S:64:8,8",
                "field 7 (write_alloc) `n` is not one of N (",
            ),
            (
                "N:32:128:4,L:L:m:N:Hx,S:64:8,8",
                "field 8 (set_index) `Hx` is not one of L (",
            ),
            (
                "N:32:128:4,L:L:m:N:H,Y:64:8,8",
                "field 9 (mshr) `Y` is not one of A (",
            ),
            (
                "N:32:128:4,L:L:m:N:H,S:6a:8,8",
                "field 10 (mshr_entries) `6a` is not a number",
            ),
            (
                "N:32:128:4,L:L:m:N:H,S:64:-8,8",
                "field 11 (mshr_max_merge) `-8` is not a number",
            ),
            (
                "N:32:128:4,L:L:m:N:H,S:64:8,",
                "field 12 (miss_queue) `` is not a number",
            ),
            (
                "N:32:128:4,L:L:m:N:H,S:64:8,8:z",
                "field 13 (result_fifo) `z` is not a number",
            ),
            (
                "N:32:128:4,L:L:m:N:H,S:64:8,8,w",
                "field 14 (data_port_width) `w` is not a number",
            ),
        ];
        for (s, want) in cases {
            let got = err(s);
            assert!(got.starts_with(want), "{s}: got `{got}`, want `{want}...`");
        }
    }

    #[test]
    fn shape_errors_say_what_was_expected() {
        assert!(err("N:32:128:4").contains("expected 4 or 5"));
        assert!(err("N:32:128,L:L:m:N:H,S:64:8,8").contains("field 1 (sets) `N`"));
        assert!(err("32:128,L:L:m:N:H,S:64:8,8").contains("`32:128` has 2"));
        assert!(err("32:128,L:L:m:N:H,S:64:8,8").contains("[type:]sets:line:assoc"));
        assert!(err("N:32:128:4,L:L:m,S:64:8,8").contains("replacement:write"));
        assert!(err("N:32:128:4,L:L:m:N,S:64,8").contains("mshr:entries:max_merge"));
        assert!(err("").contains("expected 4 or 5"));
    }

    #[test]
    fn gpgpu_sim_combination_rules() {
        assert!(err("N:48:128:4,L:L:m:N:L,A:32:8,8").contains("field 1 (sets) `48` is invalid"));
        assert!(err("N:32:100:4,L:L:m:N:L,A:32:8,8").contains("field 2 (line)"));
        assert!(err("N:32:128:0,L:L:m:N:L,A:32:8,8").contains("field 3 (assoc) `0` is invalid"));
        assert!(err("N:16:128:4,L:L:m:N:H,A:32:8,8").contains("32 or 64 sets"));
        assert!(err("S:32:64:4,L:L:m:N:L,A:32:8,8").contains("128-byte lines"));
        assert!(err("N:32:128:4,L:B:f:N:L,A:32:8,8").contains("write-back"));
        assert!(err("N:32:128:4,L:T:f:F:L,A:32:8,8").contains("fetch-on-write"));
        assert!(err("N:4:128:24,L:R:m:N:L,F:128:4,128").contains("result-FIFO"));
        assert!(err("N:32:128:4,L:L:m:N:L,A:32:8,8,48").contains("divide the line size"));
    }

    #[test]
    fn hostile_text_never_panics() {
        for s in [
            "",
            ",,,",
            ":::,:::,::,:",
            "N:4294967296:1:1,L:L:m:N,A:1:1,1",
            "é:1:1:1,L:L:m:N,A:1:1,1",
        ] {
            assert!(CacheSpec::parse(s).is_err(), "{s}");
        }
    }
}
