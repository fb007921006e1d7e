//! Parser and loader: directives, declarations, operands and instructions of the PTX subset
//! (issue 3), on tests/data/ptx-subset/{directives,instructions}.ptx and small snippets.

use std::path::Path;

use warpstep::ptx::ast::{FunctionKind, Linkage};
use warpstep::ptx::ir::{MemAccess, OpClass, VecRegs};
use warpstep::ptx::ops::{AtomOp, BarKind, Cmp, CvtaDir, MemSem, MulPart, Rounding, VecWidth};
use warpstep::ptx::{
    self, AddrBase, Address, Function, Op, Operand, Pc, Program, RegId, Space, SpecialReg, Type,
    VarId, VarRef,
};

fn load_file(name: &str) -> Program {
    let path = Path::new(env!("CARGO_MANIFEST_DIR"))
        .join("tests/data/ptx-subset")
        .join(name);
    ptx::load(&std::fs::read_to_string(path).unwrap()).unwrap_or_else(|e| panic!("{name}: {e}"))
}

fn func<'p>(p: &'p Program, name: &str) -> &'p Function {
    p.functions.iter().find(|f| f.name == name).unwrap()
}

/// Pc of the first instruction whose display text starts with `prefix`.
fn pc_of(f: &Function, prefix: &str) -> Pc {
    (0..f.instrs.len() as Pc)
        .find(|&pc| f.text(pc).starts_with(prefix))
        .unwrap_or_else(|| panic!("no instruction `{prefix}`"))
}

fn reg(f: &Function, name: &str) -> RegId {
    let i = f.regs.iter().position(|r| r.name == name).unwrap();
    RegId(i as u16)
}

fn regs(f: &Function, names: &[&str]) -> Vec<RegId> {
    names.iter().map(|n| reg(f, n)).collect()
}

// ----- directives -------------------------------------------------------------------------

#[test]
fn module_directives() {
    let p = load_file("directives.ptx");
    assert_eq!(p.version, (1, 4));
    assert_eq!(p.target, ["sm_13", "map_f64_to_f32", "texmode_independent"]);
    assert_eq!(p.address_size, 64, "absent .address_size means 64");
    assert_eq!(p.files[&1], "<command-line>");
    assert_eq!(p.files[&2], "kernel.cu");
    let names: Vec<(&str, FunctionKind, bool, Linkage)> = p
        .functions
        .iter()
        .map(|f| (f.name.as_str(), f.kind, f.defined, f.linkage))
        .collect();
    assert_eq!(
        names,
        [
            ("vprintf", FunctionKind::Func, false, Linkage::Extern),
            ("weak_fn", FunctionKind::Func, true, Linkage::Weak),
            ("old_style", FunctionKind::Func, true, Linkage::Internal),
            ("old_kernel", FunctionKind::Entry, true, Linkage::Internal),
        ]
    );
    assert_eq!(p.kernels().count(), 1);
}

#[test]
fn version_target_and_address_size_forms() {
    for (v, want) in [("2.3", (2, 3)), ("7.7", (7, 7)), ("8.5", (8, 5))] {
        let src = format!(".version {v}\n.target sm_52\n.address_size 32\n");
        let p = ptx::load(&src).unwrap();
        assert_eq!(p.version, want);
        assert_eq!(p.address_size, 32);
    }
    for bad in ["1.3", "9.0", "0.9"] {
        let e = ptx::load(&format!(".version {bad}\n.target sm_52\n")).unwrap_err();
        assert!(e.message.contains("unsupported PTX version"), "{e}");
    }
}

#[test]
fn module_variables_sizes_and_initialisers() {
    let p = load_file("directives.ptx");
    let var = |n: &str| p.vars.iter().find(|v| v.name == n).unwrap();
    assert_eq!(var("g_scalar").init, (-7i32).to_le_bytes());
    assert_eq!(var("g_scalar").align, 4);
    assert_eq!(var("g_d").init, 1.5f64.to_le_bytes());
    assert_eq!(var("c_bytes").size, 6);
    assert_eq!(var("c_bytes").init, [1, 2, 3, 4, 5, 6]);
    assert_eq!(var("c_bytes").space, Space::Const);
    assert_eq!(var("g_unsized").size, 6);
    assert_eq!(var("g_vec").size, 16);
    assert_eq!(var("g_vec").init.len(), 16);
    assert_eq!(var("s_module").size, 32);
    assert!(var("s_dyn").dynamic_shared);
}

#[test]
fn parameters_and_performance_directives() {
    let p = load_file("directives.ptx");
    let k = p.kernel("old_kernel").unwrap();
    let params: Vec<(&str, u32, u32, u32)> = k
        .params
        .iter()
        .map(|q| (q.name.as_str(), q.offset, q.size, q.align))
        .collect();
    assert_eq!(
        params,
        [
            ("__cudaparm_p", 0, 8, 8),
            ("__cudaparm_q", 8, 8, 4),
            ("__cudaparm_s", 16, 24, 16)
        ]
    );
    assert_eq!(k.params[1].ptr_space, Some(Space::Global));
    assert_eq!(k.param_bytes, 40);
    assert_eq!(k.launch.reqntid, Some([32, 4, 1]));
    assert_eq!(k.launch.maxnreg, Some(64));
    // Old-style `.reg` parameters of a .func are registers.
    let old = func(&p, "old_style");
    assert!(old.params[0].reg.is_some() && old.rets[0].reg.is_some());
    assert_eq!(old.instrs.len(), 2);
}

#[test]
fn registers_of_every_class_and_block_scopes() {
    let p = load_file("directives.ptx");
    let k = p.kernel("old_kernel").unwrap();
    let counts = k.reg_counts();
    assert_eq!(counts[&Type::U16], 4);
    assert_eq!(counts[&Type::U32], 20 + 1);
    assert_eq!(counts[&Type::U64], 10);
    assert_eq!(counts[&Type::S64], 4);
    assert_eq!(counts[&Type::Pred], 4);
    assert_eq!(counts[&Type::B32], 2);
    assert_eq!(counts[&Type::F32], 4 + 1);
    // The two `%inner` of sibling blocks are different registers of different types.
    let inner: Vec<Type> = k
        .regs
        .iter()
        .filter(|r| r.name == "%inner")
        .map(|r| r.ty)
        .collect();
    assert_eq!(inner, [Type::U32, Type::F32]);
    let mov_f = pc_of(k, "mov.f32 %inner");
    let Operand::Reg(r) = k.instrs[mov_f as usize].operands()[0] else {
        panic!()
    };
    assert_eq!(k.reg(r).unwrap().ty, Type::F32);
    // `%rh1` read from `%tid.x` (old 16-bit form).
    let pc = pc_of(k, "mov.u16 %rh1");
    assert_eq!(
        k.instrs[pc as usize].operands()[1],
        Operand::Special(SpecialReg::Tid(ptx::types::Dim::X))
    );
}

#[test]
fn shared_local_and_dynamic_layout() {
    let p = load_file("directives.ptx");
    let k = p.kernel("old_kernel").unwrap();
    let slots: Vec<(&str, u32, u32)> = k
        .shared
        .slots
        .iter()
        .map(|s| (s.name.as_str(), s.offset, s.size))
        .collect();
    assert_eq!(slots, [("s_module", 0, 32), ("s_local", 32, 16)]);
    assert_eq!(k.shared.static_bytes, 48);
    let dynamic = k.shared.dynamic.as_ref().unwrap();
    assert_eq!(dynamic.base, 48);
    assert_eq!(k.shared.offset_of(VarId::Module(6)), Some(48));
    assert_eq!(k.local_bytes, 12);
    let st = pc_of(k, "st.shared.u32 [s_local+4]");
    assert_eq!(
        k.instrs[st as usize].operands()[0],
        Operand::Addr(Address {
            base: AddrBase::Var(VarRef {
                space: Space::Shared,
                id: VarId::Local(1)
            }),
            offset: 4
        })
    );
    assert_eq!(k.shared.offset_of(VarId::Local(1)), Some(32));
    assert_eq!(k.vars[1].offset, 32);
    let var = |space, id| VarRef { space, id };
    assert_eq!(k.var_offset(var(Space::Shared, VarId::Local(1))), Some(32));
    assert_eq!(k.var_offset(var(Space::Shared, VarId::Module(5))), Some(0));
    assert_eq!(k.var_offset(var(Space::Shared, VarId::Module(6))), Some(48));
    assert_eq!(k.var_offset(var(Space::Param, VarId::Param(2))), Some(16));
    assert_eq!(k.var_offset(var(Space::Local, VarId::Local(0))), Some(0));
    assert_eq!(k.var_offset(var(Space::Global, VarId::Module(0))), None);
}

#[test]
fn loc_labels_and_guards() {
    let p = load_file("directives.ptx");
    let k = p.kernel("old_kernel").unwrap();
    let first = k.instrs[0];
    assert_eq!(first.loc.map(|l| (l.file, l.line)), Some((2, 10)));
    let setp = k.instrs[pc_of(k, "setp.lt.u32") as usize];
    assert_eq!(setp.loc.map(|l| (l.line, l.col)), Some((12, 3)));
    assert_eq!(k.labels["BB0_2"], k.labels["$L__BB0_3"]);
    assert_eq!(k.labels["$LDWbegin_old_kernel"], 0);
    let neg = k.instrs[pc_of(k, "@!%p1 bra.uni BB0_2") as usize];
    assert!(neg.guard.unwrap().negate);
    assert_eq!(neg.op, Op::Bra { uni: true });
    assert_eq!(neg.branch_target(), Some(k.labels["BB0_2"]));
    assert_eq!(
        k.instrs[pc_of(k, "@%p1 bra") as usize]
            .guard
            .map(|g| g.negate),
        Some(false)
    );
}

// ----- instructions and operands ----------------------------------------------------------

#[test]
fn every_instruction_form_loads() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    assert_eq!(k.instrs.len(), 210);
    assert_eq!(k.branch_count(), 3);
    assert_eq!(k.launch.maxntid, Some([256, 1, 1]));
    assert_eq!(k.launch.minnctapersm, Some(2));
    let helper = func(&p, "helper");
    assert_eq!(helper.rets.len(), 1);
    assert_eq!(k.call_param_bytes, 12);
}

#[test]
fn immediates_are_typed_bit_patterns() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    let src = |prefix: &str, i: usize| k.instrs[pc_of(k, prefix) as usize].operands()[i];
    assert_eq!(
        src("mov.s32 %r17, -42", 1),
        Operand::Imm(u64::from(-42i32 as u32))
    );
    assert_eq!(
        src("mov.u32 %r18, 0x7fffffff", 1),
        Operand::Imm(0x7fff_ffff)
    );
    assert_eq!(src("mov.u32 %r19, 017", 1), Operand::Imm(15));
    assert_eq!(src("mov.f32 %f1", 1), Operand::Imm(0x3F80_0000));
    assert_eq!(src("mov.f64 %fd1", 1), Operand::Imm(1.0f64.to_bits()));
    assert_eq!(src("bar.warp.sync", 0), Operand::Imm(0xFFFF_FFFF));
    assert_eq!(src("add.u64 %rd12", 2), Operand::Imm(8));
    let c = p.vars.iter().find(|v| v.name == "coeffs").unwrap();
    let floats: Vec<f32> = c
        .init
        .chunks(4)
        .map(|b| f32::from_le_bytes(b.try_into().unwrap()))
        .collect();
    assert_eq!(floats, [1.0, 2.0, 1.5, -2.0]);
}

#[test]
fn symbol_and_address_operands() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    let op = |prefix: &str, i: usize| k.instrs[pc_of(k, prefix) as usize].operands()[i];
    let counter = VarRef {
        space: Space::Global,
        id: VarId::Module(0),
    };
    assert_eq!(
        op("mov.u64 %rd3, counter+4", 1),
        Operand::VarAddr(counter, 4)
    );
    assert_eq!(
        op("ld.param.v2.u32", 1),
        Operand::Addr(Address {
            base: AddrBase::Var(VarRef {
                space: Space::Param,
                id: VarId::Param(2)
            }),
            offset: 8
        })
    );
    assert_eq!(
        op("ld.global.ca.u8", 1),
        Operand::Addr(Address {
            base: AddrBase::Reg(reg(k, "%rd7")),
            offset: -4
        })
    );
    assert_eq!(
        op("mov.b64 {%r3, _}", 0),
        Operand::Vector(VecRegs::new(&[reg(k, "%r3"), RegId::SINK]).unwrap())
    );
    assert_eq!(
        op("mov.b64 %rd5", 1),
        Operand::Vector(VecRegs::new(&regs(k, &["%r1", "%r2"])).unwrap())
    );
    assert_eq!(op("setp.ltu.or.f32", 3), Operand::NotPred(reg(k, "%p1")));
    assert_eq!(
        op("shfl.sync.up.b32", 0),
        Operand::PredPair(reg(k, "%r39"), reg(k, "%p7"))
    );
    assert_eq!(
        op("mov.u32 %r15", 1),
        Operand::Special(SpecialReg::LanemaskGt)
    );
    assert_eq!(
        op("mov.u64 %rd1, %clock64", 1),
        Operand::Special(SpecialReg::Clock64)
    );
    assert_eq!(
        op("ld.shared.u32 %r26, [dyn_smem]", 1),
        Operand::Addr(Address {
            base: AddrBase::Var(VarRef {
                space: Space::Shared,
                id: VarId::Module(3)
            }),
            offset: 0
        })
    );
    assert_eq!(k.shared.dynamic.as_ref().unwrap().base, 64);
}

#[test]
fn opcodes_decode_with_typed_modifiers() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    let op = |prefix: &str| k.instrs[pc_of(k, prefix) as usize].op;
    assert!(matches!(
        op("ld.global.nc.v4.f32"),
        Op::Ld {
            space: Space::Global,
            ty: Type::F32,
            vec: VecWidth::V4,
            nc: true,
            ..
        }
    ));
    assert!(matches!(
        op("ld.acquire.sys"),
        Op::Ld {
            sem: MemSem::Acquire(ptx::ops::Scope::Sys),
            ..
        }
    ));
    assert!(matches!(
        op("cvta.to.global.u64"),
        Op::Cvta {
            dir: CvtaDir::FromGeneric,
            ..
        }
    ));
    assert!(matches!(
        op("mad.wide.s32"),
        Op::Mad {
            part: Some(MulPart::Wide),
            ty: Type::S32,
            ..
        }
    ));
    assert!(matches!(
        op("cvt.rzi.s32.f32"),
        Op::Cvt {
            dty: Type::S32,
            sty: Type::F32,
            round: Some(Rounding::Rzi),
            ..
        }
    ));
    assert!(matches!(
        op("setp.nan.f64"),
        Op::Setp {
            cmp: Cmp::Nan,
            ty: Type::F64,
            ..
        }
    ));
    assert!(matches!(
        op("atom.shared.cas.b64"),
        Op::Atom {
            op: AtomOp::Cas,
            space: Space::Shared,
            ..
        }
    ));
    assert!(matches!(
        op("bar.red.or.pred"),
        Op::Bar {
            kind: BarKind::RedOr,
            ..
        }
    ));
    assert_eq!(
        op("bar.sync 1, 64"),
        Op::Bar {
            kind: BarKind::Sync,
            aligned: true
        }
    );
}

#[test]
fn scoreboard_registers() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    let rw = |prefix: &str| {
        let i = k.instrs[pc_of(k, prefix) as usize];
        (
            i.dst_regs().as_slice().to_vec(),
            i.src_regs().as_slice().to_vec(),
        )
    };
    assert_eq!(
        rw("ld.global.nc.v4.f32"),
        (regs(k, &["%f2", "%f3", "%f4", "%f5"]), regs(k, &["%rd7"]))
    );
    assert_eq!(
        rw("st.global.cs.v2.f32"),
        (vec![], regs(k, &["%rd7", "%f2", "%f3"]))
    );
    assert_eq!(
        rw("setp.lt.and.s32"),
        (regs(k, &["%p2", "%p3"]), regs(k, &["%r1", "%r2", "%p1"]))
    );
    assert_eq!(
        rw("atom.global.cas.b32"),
        (regs(k, &["%r38"]), regs(k, &["%rd7"]))
    );
    assert_eq!(rw("@%p1 bra"), (vec![], regs(k, &["%p1"])));
    assert_eq!(
        rw("bar.red.popc.u32"),
        (regs(k, &["%r39"]), regs(k, &["%p1"]))
    );
    assert_eq!(
        rw("mov.b64 {%r3, _}"),
        (regs(k, &["%r3"]), regs(k, &["%rd5"]))
    );
    assert_eq!(
        rw("shfl.sync.up.b32"),
        (regs(k, &["%r39", "%p7"]), regs(k, &["%r1"]))
    );
    assert_eq!(rw("bar.sync 0"), (vec![], vec![]));
}

#[test]
fn op_classes() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    let class = |prefix: &str| k.instrs[pc_of(k, prefix) as usize].class();
    assert_eq!(class("add.s32"), OpClass::IntAlu);
    assert_eq!(class("mul.lo.s32"), OpClass::IntMulDiv);
    assert_eq!(class("div.s32"), OpClass::IntMulDiv);
    assert_eq!(class("add.f32"), OpClass::Fp32);
    assert_eq!(class("fma.rn.f64"), OpClass::Fp64);
    assert_eq!(class("cvt.f64.f32"), OpClass::Fp64);
    assert_eq!(class("ex2.approx.ftz.f32"), OpClass::Sfu);
    assert_eq!(class("div.rn.f32"), OpClass::Sfu);
    assert_eq!(class("sqrt.rn.f64"), OpClass::Fp64);
    assert_eq!(
        class("ld.shared.v2.f32"),
        OpClass::Memory {
            space: Space::Shared,
            access: MemAccess::Load
        }
    );
    assert_eq!(
        class("st.local.u64"),
        OpClass::Memory {
            space: Space::Local,
            access: MemAccess::Store
        }
    );
    assert_eq!(
        class("red.global.add.u32"),
        OpClass::Memory {
            space: Space::Global,
            access: MemAccess::Atomic
        }
    );
    assert_eq!(class("bar.sync 0"), OpClass::Barrier);
    assert_eq!(class("@%p1 bra"), OpClass::Branch);
    assert_eq!(class("ret"), OpClass::Exit);
    assert_eq!(class("vote.all.pred"), OpClass::Other);
    let ret = k.instrs[pc_of(k, "ret") as usize];
    assert!(ret.is_exit() && !ret.is_branch());
}

#[test]
fn calls_resolve_to_functions_and_argument_lists() {
    let p = load_file("instructions.ptx");
    let k = p.kernel("every_instruction").unwrap();
    let call = k.instrs[pc_of(k, "call.uni") as usize];
    assert_eq!(
        call.operands(),
        [Operand::CallList(0), Operand::Func(0), Operand::CallList(1)]
    );
    assert_eq!(k.call_lists[0].len(), 1);
    assert_eq!(k.call_lists[1].len(), 2);
    assert_eq!(p.function(0).unwrap().name, "helper");
}

#[test]
fn comments_and_launch_lines() {
    let src = "// warpstep: --grid 8 --block 256\n.version 7.7 // trailing comment\n/* block */ .target sm_52\n  // warpstep: --arg 1\n";
    let p = ptx::load(src).unwrap();
    let lc: Vec<(u32, &str)> = p
        .launch_comments
        .iter()
        .map(|c| (c.line, c.text.as_str()))
        .collect();
    assert_eq!(lc, [(1, "--grid 8 --block 256"), (4, "--arg 1")]);
    assert_eq!(p.lines.len(), 4);
    assert_eq!(p.source_line(3), Some("/* block */ .target sm_52"));
}

#[test]
fn dwarf_sections_and_new_loc_forms_are_accepted() {
    let src = "\
.version 7.7
.target sm_52
.address_size 64
.file 1 \"a.cu\"
.visible .entry k()
{
.loc 1 5 3, function_name $L__info_string0, inlined_at 1 9 1
ret;
}
.section .debug_str
{
$L__info_string0:
.b8 95,90,0
}
";
    let p = ptx::load(src).unwrap();
    let k = p.kernel("k").unwrap();
    assert_eq!(k.instrs[0].loc.map(|l| l.line), Some(5));
}
