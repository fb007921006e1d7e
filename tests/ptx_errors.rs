//! Malformed and unsupported PTX gives a `PtxError` naming the line (issue 3): never a panic.

use warpstep::ptx::{self, PtxError};

/// A kernel whose body starts on line 13.
fn kernel(body: &str) -> String {
    format!(
        ".version 7.7\n.target sm_52\n.address_size 64\n.visible .entry k(\n.param .u64 p\n)\n\
         .maxntid 64\n{{\n.reg .pred %p<4>;\n.reg .b32 %r<8>;\n.reg .b64 %rd<4>;\n.reg .f32 %f<4>;\n\
         {body}\nret;\n}}\n"
    )
}

/// Line of the first body line.
const BODY_LINE: u32 = 13;

fn err(src: &str) -> PtxError {
    match ptx::load(src) {
        Ok(_) => panic!("expected an error for:\n{src}"),
        Err(e) => e,
    }
}

fn body_err(body: &str) -> PtxError {
    err(&kernel(body))
}

#[test]
fn body_line_numbering_is_as_documented() {
    let e = body_err("bogus.op %r1;");
    assert_eq!(e.line, BODY_LINE, "{e}");
}

#[test]
fn unsupported_instruction_names_line_and_text() {
    let e =
        body_err("add.s32 %r1, %r2, %r3;\ntex.2d.v4.f32.f32 {%f0,%f1,%f2,%f3}, [t, {%f0,%f1}];");
    assert_eq!(e.line, BODY_LINE + 1);
    let shown = e.to_string();
    assert!(
        shown.starts_with(&format!("line {}:", BODY_LINE + 1)),
        "{shown}"
    );
    assert!(
        shown.contains("unsupported instruction `tex.2d.v4.f32.f32`"),
        "{shown}"
    );
    assert!(
        shown.contains("in `tex.2d.v4.f32.f32 {%f0,%f1,%f2,%f3}, [t, {%f0,%f1}];`"),
        "{shown}"
    );
    let e = body_err("trap;");
    assert!(e.message.contains("unsupported instruction `trap`"), "{e}");
    let e = body_err("frobnicate %r1;");
    assert!(
        e.message.contains("unsupported instruction `frobnicate`"),
        "{e}"
    );
}

#[test]
fn unsupported_modifiers_are_named() {
    let e = body_err("add.cc.u32 %r1, %r2, %r3;");
    assert_eq!(e.line, BODY_LINE);
    assert!(
        e.message.contains("unsupported instruction `add.cc.u32`"),
        "{e}"
    );
    assert!(e.message.contains("`.cc`"), "{e}");
    let e = body_err("ld.global.L1::evict_last.u32 %r1, [%rd1];");
    assert!(e.message.contains("L1::evict_last"), "{e}");
    let e = body_err("mul.s32 %r1, %r2, %r3;");
    assert!(e.message.contains(".lo"), "{e}");
}

#[test]
fn unknown_register() {
    let e = body_err("mov.u32 %r1, 0;\nadd.s32 %r1, %r2, %q9;");
    assert_eq!(e.line, BODY_LINE + 1);
    assert!(e.message.contains("unknown register `%q9`"), "{e}");
    // Beyond the declared range.
    let e = body_err("mov.u32 %r8, 0;");
    assert!(e.message.contains("unknown register `%r8`"), "{e}");
    // Out of scope after its block closed.
    let e = body_err("{\n.reg .b32 %t;\nmov.u32 %t, 1;\n}\nmov.u32 %t, 2;");
    assert_eq!(e.line, BODY_LINE + 4);
    assert!(e.message.contains("unknown register `%t`"), "{e}");
}

#[test]
fn undefined_label() {
    let e = body_err("setp.eq.s32 %p1, %r1, 0;\n@%p1 bra $L__nowhere;");
    assert_eq!(e.line, BODY_LINE + 1);
    assert!(e.message.contains("undefined label `$L__nowhere`"), "{e}");
    let e = body_err("L1:\nL1:\nmov.u32 %r1, 0;");
    assert!(e.message.contains("defined twice"), "{e}");
}

#[test]
fn bad_immediates() {
    let e = body_err("add.s32 %r1, %r2, 0x1FFFFFFFF;");
    assert_eq!(e.line, BODY_LINE);
    assert!(e.message.contains("does not fit"), "{e}");
    let e = body_err("mov.f32 %f1, 0f3F80;");
    assert_eq!(e.line, BODY_LINE);
    assert!(e.message.contains("bad floating-point literal"), "{e}");
    let e = body_err("mov.u32 %r1, 0f3F800000;");
    assert!(e.message.contains("floating-point literal"), "{e}");
    let e = body_err("mov.u32 %r1, 12abc;");
    assert!(e.message.contains("bad integer literal"), "{e}");
    let e = body_err("mov.u32 %r1, 99999999999999999999999;");
    assert!(e.message.contains("64 bits"), "{e}");
}

#[test]
fn missing_comma() {
    let e = body_err("add.s32 %r1, %r2 %r3;");
    assert_eq!(e.line, BODY_LINE, "{e}");
    assert!(
        e.message.contains("missing `,` between `%r2` and `%r3`"),
        "{e}"
    );
    assert!(!e.message.contains(';'), "{e}");
    let e = body_err("ld.global.f32 %f1 [%rd1];");
    assert!(
        e.message.contains("missing `,` between `%f1` and `[`"),
        "{e}"
    );
    // A missing `;` at the end of a line is still that.
    let e = body_err("mov.u32 %r1, 0\nmov.u32 %r2, 0;");
    assert!(e.message.contains("missing `;`"), "{e}");
}

#[test]
fn unterminated_comment() {
    let e = body_err("mov.u32 %r1, 0;\n/* never closed\nmov.u32 %r2, 0;");
    assert_eq!(e.line, BODY_LINE + 1);
    assert!(e.message.contains("unterminated `/*`"), "{e}");
}

#[test]
fn missing_semicolon() {
    let e = body_err("mov.u32 %r1, 0\nmov.u32 %r2, 0;");
    assert_eq!(e.line, BODY_LINE, "{e}");
    assert!(e.message.contains("missing `;`"), "{e}");
    let e = body_err("bar.sync 0\n}");
    assert_eq!(e.line, BODY_LINE, "{e}");
    let e = err(".version 7.7\n.target sm_52\n.global .u32 x\n.global .u32 y;");
    assert_eq!(e.line, 3, "{e}");
}

#[test]
fn operand_shape_and_type_errors() {
    let cases = [
        ("add.s32 %r1, %r2;", "takes 3 operands"),
        ("add.s32 %rd1, %r2, %r3;", "64-bit"),
        ("add.s32 %p1, %r2, %r3;", "predicate"),
        ("@%r1 bra L;\nL:", "not a predicate"),
        ("setp.eq.s32 %r1, %r2, %r3;", "not a predicate"),
        ("ld.global.u32 %r1, %rd1;", "memory operand"),
        ("ld.global.v2.u32 %r1, [%rd1];", "vector of 2"),
        ("ld.shared.u32 %r1, [p];", "not `.shared`"),
        ("ld.global.u32 %r1, [%f1];", "cannot hold an address"),
        ("mov.u32 %r1, %tid;", "needs a component"),
        ("mov.u32 %r1, %gridid;", "unsupported special register"),
        ("mov.f32 %f1, %tid.x;", "not a `.f32` value"),
        ("st.global.u32 [%rd1], {_, %r1};", "vector"),
        ("bra %r1;", "undefined label"),
        ("mov.u32 %r1, %r2+4;", "only variables"),
    ];
    for (body, want) in cases {
        let e = body_err(body);
        assert_eq!(e.line, BODY_LINE, "{body}: {e}");
        assert!(e.message.contains(want), "{body}: {e}");
    }
}

#[test]
fn declaration_errors_and_caps() {
    let cases = [
        (".reg .b32 %r<8>;", "redeclares"),
        (".reg .b32 %huge<99999999999>;", "too large"),
        (".reg .b32 %many<70000>;", "too many registers"),
        (".shared .b8 big[99999999999999];", "larger than"),
        (".shared .b8 nodim[];", "needs a size"),
        (".local .b8 x[4] = {1};", "initialisers"),
        (".reg .v4 .f32 %v;", "vector registers"),
        (".shared .align 3 .b8 x[4];", "power of two"),
        (".const .b8 x[4];", "not supported"),
    ];
    for (body, want) in cases {
        let e = body_err(body);
        assert_eq!(e.line, BODY_LINE, "{body}: {e}");
        assert!(e.message.contains(want), "{body}: {e}");
    }
    let module_cases = [
        (".global .u32 g[2] = {1, 2, 3};", "too many initial values"),
        (".global .u32 g = {sym};", "addresses of variables"),
        (".global .b8 g[99999999999];", "larger than"),
        (".extern .global .u32 g;", "only dynamic"),
        (".shared .u32 s = 1;", "cannot have initialisers"),
        (".global .u32 g;\n.global .u32 g;", "declared twice"),
        (".local .u32 l;", "not supported"),
    ];
    for (decl, want) in module_cases {
        let e = err(&format!(".version 7.7\n.target sm_52\n{decl}\n"));
        assert!(e.line >= 3, "{decl}: {e}");
        assert!(e.message.contains(want), "{decl}: {e}");
    }
}

#[test]
fn module_structure_errors() {
    let cases = [
        ("", 1, "missing `.version`"),
        (".version 7.7\n", 1, "missing `.target`"),
        (
            ".version 7.7\n.target sm_52\nadd.s32 %r1, %r2, %r3;",
            3,
            "expected a directive",
        ),
        (
            ".version 7.7\n.target sm_52\n.entry k()\n{\nret;\n",
            4,
            "no closing `}`",
        ),
        (
            ".version 7.7\n.target sm_52\n.texref t;",
            3,
            "unsupported directive `.texref`",
        ),
        (
            ".version 7.7\n.target sm_52\n.address_size 48",
            3,
            "32 or 64",
        ),
        (
            ".version 7.7\n.target sm_52\n.entry k()\n{\nret;\n}\n.entry k()\n{\nret;\n}",
            7,
            "defined twice",
        ),
        (
            ".version 7.7\n.target sm_52\n.entry k()\n{\n.file 1 \"x\"\n}",
            5,
            "unsupported directive",
        ),
        ("\u{feff}.version 7.7", 1, "unexpected character"),
    ];
    for (src, line, want) in cases {
        let e = err(src);
        assert_eq!(e.line, line, "{src:?}: {e}");
        assert!(e.message.contains(want), "{src:?}: {e}");
    }
}

#[test]
fn deep_nesting_is_an_error_not_a_stack_overflow() {
    let body = "{\n".repeat(5000) + &"}\n".repeat(5000);
    let e = body_err(&body);
    assert!(e.message.contains("nested too deeply"), "{e}");
    let init = format!(
        ".version 7.7\n.target sm_52\n.global .u32 g[1] = {}1{};\n",
        "{".repeat(100_000),
        "}".repeat(100_000)
    );
    let e = err(&init);
    assert!(e.message.contains("nested too deeply"), "{e}");
}

#[test]
fn errors_display_the_line_first() {
    let e = body_err("mov.u32 %r1, %r9;");
    let shown = e.to_string();
    assert!(shown.starts_with(&format!("line {BODY_LINE}: ")), "{shown}");
    assert!(shown.contains("(column "), "{shown}");
}

#[test]
fn module_wide_register_budget() {
    let mut src = String::from(".version 7.7\n.target sm_52\n");
    for i in 0..17 {
        src.push_str(&format!(".entry k{i}() {{ .reg .b32 %r<65000>; ret; }}\n"));
    }
    let e = err(&src);
    assert!(
        e.message.contains("too many registers in the module"),
        "{e}"
    );
}

#[test]
fn register_ranges_with_digit_prefixes_and_empty_ranges() {
    let src = kernel(".reg .b32 %q1<3>;\n.reg .b32 %q<12>;\n.reg .b32 %z<0>;\nmov.u32 %q12, 1;\nmov.u32 %q11, 2;");
    let p = ptx::load(&src).unwrap();
    let k = p.kernel("k").unwrap();
    // `%q12` is in `%q1<3>` (index 2); `%q11` in `%q<12>` (index 11) or `%q1<3>` (index 1):
    // the shorter prefix wins.
    let dst = |pc: usize| match k.instrs[pc].operands()[0] {
        ptx::Operand::Reg(r) => k.reg(r).unwrap().name.clone(),
        _ => panic!(),
    };
    assert_eq!(dst(0), "%q12");
    assert_eq!(dst(1), "%q11");
    assert!(!k.regs.iter().any(|r| r.name.starts_with("%z")));
}

#[test]
fn array_size_overflow_is_an_error() {
    let e = err(".version 7.7\n.target sm_52\n.global .u32 g[][4294967296][4294967296] = {1};\n");
    assert_eq!(e.line, 3);
    assert!(
        e.message.contains("too large") || e.message.contains("larger than"),
        "{e}"
    );
}
