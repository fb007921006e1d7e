//! Which line of the CUDA source each PTX line came from, read from the program's `.loc`
//! directives (PTX ISA, "Debugging Directives": `.loc file line column` gives the source
//! position of the instructions after it; `.file index "name"` names the file). nvcc writes
//! them with `-lineinfo` or `-G`; warpstep's own CUDA compiler (`crate::cuda`) always does.
//!
//! The views name a CUDA line beside every PTX line they show, and a breakpoint set on a CUDA
//! line stops at every instruction compiled from it. One source file is shown: the `.cu` file
//! most `.loc` lines point at (headers such as `cuda_runtime.h` are not shown).

use super::ir::{Program, SourceLoc};

/// The CUDA source lines of a program: per PTX line (1-based; 0 where the line holds no
/// instruction or its instruction has no `.loc` in the shown file).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SourceLines {
    /// The `.file` index shown, if any `.loc` names a file.
    pub file: Option<u32>,
    /// Its name as the `.file` directive gives it.
    pub file_name: Option<String>,
    /// `by_ptx_line[l]`: the CUDA line of PTX line `l` (index 0 unused).
    pub by_ptx_line: Vec<u32>,
}

impl SourceLines {
    /// The source lines of every function of `program`.
    pub fn of(program: &Program) -> SourceLines {
        let file = shown_file(program);
        let mut by_ptx_line = vec![0u32; program.lines.len() + 1];
        if let Some(file) = file {
            for f in &program.functions {
                for i in &f.instrs {
                    if let (Some(loc), Some(slot)) = (i.loc, by_ptx_line.get_mut(i.line as usize)) {
                        if u32::from(loc.file) == file {
                            *slot = loc.line;
                        }
                    }
                }
            }
        }
        SourceLines {
            file,
            file_name: file.and_then(|f| program.files.get(&f).cloned()),
            by_ptx_line,
        }
    }

    /// Whether any PTX line maps to a source line.
    pub fn any(&self) -> bool {
        self.by_ptx_line.iter().any(|&l| l > 0)
    }

    /// The CUDA line of PTX line `ptx_line` (0: none).
    pub fn source_line(&self, ptx_line: u32) -> u32 {
        self.by_ptx_line
            .get(ptx_line as usize)
            .copied()
            .unwrap_or(0)
    }

    /// The shown file's line of a `.loc` position (0: none or another file).
    pub fn source_of(&self, loc: Option<SourceLoc>) -> u32 {
        match (loc, self.file) {
            (Some(l), Some(f)) if u32::from(l.file) == f => l.line,
            _ => 0,
        }
    }
}

/// The file most `.loc` lines name, preferring one whose name ends in `.cu`.
fn shown_file(program: &Program) -> Option<u32> {
    let mut counts: std::collections::BTreeMap<u32, usize> = Default::default();
    for f in &program.functions {
        for loc in f.instrs.iter().filter_map(|i| i.loc) {
            *counts.entry(u32::from(loc.file)).or_default() += 1;
        }
    }
    let is_cu = |f: &u32| program.files.get(f).is_some_and(|n| n.ends_with(".cu"));
    counts
        .iter()
        .max_by_key(|(f, n)| (is_cu(f), **n, std::cmp::Reverse(**f)))
        .map(|(f, _)| *f)
}

#[cfg(test)]
mod tests {
    use super::*;

    const PTX: &str = r#".version 7.8
.target sm_52
.address_size 64
.file 1 "k.cu"
.file 2 "/usr/include/cuda_runtime.h"
.visible .entry k(.param .u64 p)
{
	.reg .b32 %r<4>;
	.loc 1 7 3
	mov.u32 %r1, %tid.x;
	.loc 2 100 1
	add.s32 %r2, %r1, 1;
	.loc 1 9 5
	add.s32 %r3, %r2, 2;
	ret;
}
"#;

    #[test]
    fn maps_ptx_lines_and_instructions_to_the_cu_file() {
        let program = crate::ptx::load(PTX).unwrap();
        let s = SourceLines::of(&program);
        assert_eq!(s.file, Some(1));
        assert_eq!(s.file_name.as_deref(), Some("k.cu"));
        assert_eq!(s.source_line(10), 7, "mov on PTX line 10 comes from k.cu:7");
        assert_eq!(
            s.source_line(12),
            0,
            "an instruction from the header is not shown"
        );
        assert_eq!(s.source_line(14), 9);
        assert_eq!(s.source_line(15), 9, "ret keeps the last .loc");
        assert_eq!(s.source_line(9), 0, "a .loc line holds no instruction");
        let func = program.kernel("k").unwrap();
        let lines: Vec<u32> = func.instrs.iter().map(|i| s.source_of(i.loc)).collect();
        assert_eq!(lines, vec![7, 0, 9, 9]);
    }

    #[test]
    fn code_inlined_from_a_header_is_placed_at_its_call() {
        // nvcc -lineinfo's atomicCAS: the header's line, inlined at k.cu line 7.
        let ptx = PTX.replace(
            ".loc 2 100 1",
            ".loc 2 100 1, function_name $L__info_string0, inlined_at 1 8 12",
        );
        let s = SourceLines::of(&crate::ptx::load(&ptx).unwrap());
        assert_eq!(
            s.source_line(12),
            8,
            "the add is placed at the call on k.cu:8"
        );
        let same_file = PTX.replace(
            ".loc 1 9 5",
            ".loc 1 9 5, function_name $L__info_string0, inlined_at 1 3 1",
        );
        let s = SourceLines::of(&crate::ptx::load(&same_file).unwrap());
        assert_eq!(
            s.source_line(14),
            9,
            "a __device__ function's own line is kept"
        );
    }

    #[test]
    fn ptx_without_loc_has_no_source_lines() {
        let program = crate::ptx::load(&PTX.replace(".loc", "// .loc")).unwrap();
        let s = SourceLines::of(&program);
        assert!(!s.any());
        assert_eq!(s.file, None);
    }
}
