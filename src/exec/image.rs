//! A kernel launch made concrete: the kernel, the grid and block shape, the parameter buffer,
//! the buffers the arguments allocated in global memory, module variables placed in their
//! spaces, and the shared/local memory sizes. Everything here is fixed while the kernel runs;
//! the functional and timing models share it behind an `Arc` (the SMs read it from several threads).

use super::global_memory::GlobalMemory;
use crate::launch::{
    ArgSpec, BufferInit, Dim3, ElemType, LaunchError, LaunchFlags, Number, StructField,
};
use crate::ptx::{Function, Program, Space, Type, VarId, VarRef};
use std::sync::Arc;

/// A buffer argument: where it lives and how to read it back.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize)]
pub struct BufferArg {
    /// Position of the argument (0-based, as `--dump I` counts).
    pub index: usize,
    /// The field of a struct argument whose pointer it is (`None`: the argument itself).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub field: Option<usize>,
    /// Device address passed to the kernel.
    pub base: u64,
    pub elem: ElemType,
    pub count: usize,
    /// Whether the host copies contents in before the launch (any initialiser but a zero
    /// fill, which stands for `cudaMemset`); an L2 may keep such copies (`l2.fill_on_copy`).
    #[serde(skip)]
    pub copied: bool,
}

/// The concrete launch.
#[derive(Debug, Clone)]
pub struct KernelImage {
    pub program: Arc<Program>,
    /// Index of the kernel in `program.functions`.
    pub func_index: usize,
    pub grid: Dim3,
    pub block: Dim3,
    /// The kernel's `.param` space, laid out as its parameters declare.
    pub params: Vec<u8>,
    /// The `.const` bank: module `.const` variables with their initial values.
    pub consts: Vec<u8>,
    /// Per module variable: its address in its own space (global address, const offset); 0
    /// for shared variables (placed per kernel by the shared layout).
    pub module_var_addr: Vec<u64>,
    pub buffers: Vec<BufferArg>,
    /// Static plus dynamic shared memory per CTA, in bytes.
    pub shared_bytes: u32,
    /// Registers allocated per thread when `--regs` gave them (`None`: the most live at once).
    pub regs: Option<u32>,
    /// `.local` bytes per thread.
    pub local_bytes: u32,
}

/// The most dynamic shared memory a launch may ask for.
pub const MAX_DYNAMIC_SHARED: u32 = 1 << 20;

impl KernelImage {
    /// The kernel being launched.
    pub fn func(&self) -> &Function {
        &self.program.functions[self.func_index]
    }

    /// Threads per CTA.
    pub fn threads_per_cta(&self) -> u32 {
        self.block.count() as u32
    }

    /// Builds the launch: picks the kernel, allocates module globals and buffer arguments in
    /// `global`, and lays out the parameter buffer. `read_file` supplies `file:` buffers.
    pub fn new(
        program: Arc<Program>,
        flags: &LaunchFlags,
        global: &mut GlobalMemory,
        read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
    ) -> Result<KernelImage, LaunchError> {
        let func_index = pick_kernel(&program, flags.kernel.as_deref())?;
        let func = &program.functions[func_index];
        let block = flags.block.unwrap_or(Dim3::linear(1));
        let grid = flags.grid.unwrap_or(Dim3::linear(1));
        check_block(func, block)?;
        let (consts, module_var_addr) = place_module_vars(&program, global)?;
        let (params, buffers) =
            bind_args(func, &flags.args, program.address_size, global, read_file)?;
        let dynamic = flags.shared_dynamic.unwrap_or(0);
        if dynamic > MAX_DYNAMIC_SHARED {
            return Err(mismatch(format!(
                "--shared-dynamic {dynamic} is more than {MAX_DYNAMIC_SHARED} bytes"
            )));
        }
        let shared_bytes = match &func.shared.dynamic {
            Some(d) => d.base.saturating_add(dynamic),
            None => func.shared.static_bytes,
        };
        Ok(KernelImage {
            local_bytes: func.local_bytes,
            program,
            func_index,
            grid,
            block,
            params,
            consts,
            module_var_addr,
            buffers,
            shared_bytes,
            regs: flags.regs,
        })
    }

    /// The address of a variable in its own space: a parameter's offset in the parameter
    /// buffer, a shared variable's offset in the CTA's shared memory, a local variable's
    /// offset in the thread's local memory, a const variable's offset in the const bank, a
    /// global variable's address. `None` for call parameters (calls are not supported yet).
    pub fn var_address(&self, var: VarRef) -> Option<u64> {
        match (var.id, var.space) {
            (VarId::Module(i), Space::Global | Space::Const) => {
                self.module_var_addr.get(usize::from(i)).copied()
            }
            _ => self.func().var_offset(var).map(u64::from),
        }
    }
}

fn mismatch(why: String) -> LaunchError {
    LaunchError::Mismatch { why }
}

fn pick_kernel(program: &Program, name: Option<&str>) -> Result<usize, LaunchError> {
    let kernels: Vec<(usize, &Function)> = program
        .functions
        .iter()
        .enumerate()
        .filter(|(_, f)| f.is_entry() && f.defined)
        .collect();
    let names = || {
        kernels
            .iter()
            .map(|(_, f)| f.name.as_str())
            .collect::<Vec<_>>()
            .join(", ")
    };
    match name {
        Some(n) => kernels
            .iter()
            .find(|(_, f)| f.name == n)
            .map(|(i, _)| *i)
            .ok_or_else(|| mismatch(format!("no kernel `{n}` in the PTX (kernels: {})", names()))),
        None => match kernels.as_slice() {
            [(i, _)] => Ok(*i),
            [] => Err(mismatch("the PTX defines no kernel (.entry)".into())),
            _ => Err(mismatch(format!(
                "the PTX defines several kernels; choose one with --kernel ({})",
                names()
            ))),
        },
    }
}

fn check_block(func: &Function, block: Dim3) -> Result<(), LaunchError> {
    if let Some(req) = func.launch.reqntid {
        if [block.x, block.y, block.z] != req {
            return Err(mismatch(format!(
                "kernel `{}` requires a block of {},{},{} (.reqntid), got {block}",
                func.name, req[0], req[1], req[2]
            )));
        }
    }
    if let Some(max) = func.launch.maxntid {
        if block.count() > max.iter().map(|&m| m.max(1) as u64).product::<u64>() {
            return Err(mismatch(format!(
                "kernel `{}` allows at most {},{},{} threads per block (.maxntid), got {block}",
                func.name, max[0], max[1], max[2]
            )));
        }
    }
    Ok(())
}

/// Allocates module `.global` variables and lays out the `.const` bank.
fn place_module_vars(
    program: &Program,
    global: &mut GlobalMemory,
) -> Result<(Vec<u8>, Vec<u64>), LaunchError> {
    let mut consts = Vec::new();
    let mut addrs = Vec::with_capacity(program.vars.len());
    for var in &program.vars {
        let addr = match var.space {
            Space::Global => {
                let base = global.allocate(var.size, format!(".global {}", var.name));
                global
                    .write_bytes(base, &var.init)
                    .map_err(|_| mismatch(format!("cannot initialise .global {}", var.name)))?;
                base
            }
            Space::Const => {
                let align = var.align.max(1) as usize;
                let offset = consts.len().next_multiple_of(align);
                let size = usize::try_from(var.size).unwrap_or(usize::MAX);
                if offset.saturating_add(size) > super::space::WINDOW_LEN as usize {
                    return Err(mismatch(format!(
                        ".const {} does not fit the const bank",
                        var.name
                    )));
                }
                consts.resize(offset + size, 0);
                let n = var.init.len().min(size);
                consts[offset..offset + n].copy_from_slice(&var.init[..n]);
                offset as u64
            }
            _ => 0,
        };
        addrs.push(addr);
    }
    Ok((consts, addrs))
}

/// Checks the arguments against the kernel's parameters and writes the parameter buffer.
fn bind_args(
    func: &Function,
    args: &[ArgSpec],
    address_size: u32,
    global: &mut GlobalMemory,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<(Vec<u8>, Vec<BufferArg>), LaunchError> {
    if args.len() != func.params.len() {
        let names: Vec<String> = func
            .params
            .iter()
            .map(|p| format!("{}{}", p.name, p.ty))
            .collect();
        return Err(mismatch(format!(
            "kernel `{}` takes {} argument(s) ({}), but {} --arg given",
            func.name,
            func.params.len(),
            names.join(", "),
            args.len()
        )));
    }
    let mut params = vec![0u8; func.param_bytes as usize];
    let mut buffers = Vec::new();
    for (index, (param, spec)) in func.params.iter().zip(args).enumerate() {
        let bad = |why: String| LaunchError::ArgMismatch {
            index,
            param: param.name.clone(),
            why,
        };
        let bytes =
            match spec {
                ArgSpec::Scalar(n) => encode_scalar(*n, param.ty, param.size).map_err(bad)?,
                ArgSpec::Buffer { elem, count, init } => {
                    let pointer_bytes = address_size / 8;
                    if param.size != pointer_bytes || param.ty.is_float() {
                        return Err(bad(format!(
                        "a buffer passes a {address_size}-bit address, but the parameter is {}{}",
                        param.ty,
                        if param.size != param.ty.bytes() { " array" } else { "" }
                    )));
                    }
                    let place = (index, None);
                    let b = allocate_buffer(place, (*elem, *count, init), global, read_file)
                        .map_err(bad)?;
                    let bytes = b.base.to_le_bytes()[..pointer_bytes as usize].to_vec();
                    buffers.push(b);
                    bytes
                }
                ArgSpec::Struct(fields) => {
                    let bytes = struct_bytes(index, fields, address_size, global, read_file)
                        .map(|(bytes, mut bufs)| {
                            buffers.append(&mut bufs);
                            bytes
                        })
                        .map_err(bad)?;
                    if bytes.len() != param.size as usize {
                        return Err(bad(format!(
                            "the struct's fields take {} bytes, but the parameter has {}",
                            bytes.len(),
                            param.size
                        )));
                    }
                    bytes
                }
            };
        let at = param.offset as usize;
        params
            .get_mut(at..at + bytes.len())
            .ok_or_else(|| bad("parameter lies outside the parameter space".into()))?
            .copy_from_slice(&bytes);
    }
    Ok((params, buffers))
}

/// A global buffer for argument `place.0` (field `place.1` of a struct), initialised.
fn allocate_buffer(
    (index, field): (usize, Option<usize>),
    (elem, count, init): (ElemType, usize, &BufferInit),
    global: &mut GlobalMemory,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<BufferArg, String> {
    let data = ArgSpec::initial_bytes(elem, count, init, read_file)?;
    let name = match field {
        Some(f) => format!("arg {index} field {f}"),
        None => format!("arg {index}"),
    };
    let base = global.allocate(data.len() as u64, name);
    global
        .write_bytes(base, &data)
        .map_err(|_| "cannot initialise the buffer".to_string())?;
    Ok(BufferArg {
        index,
        field,
        base,
        elem,
        count,
        copied: !init.is_zero_fill(),
    })
}

/// The bytes of struct argument `index`, as a C compiler lays the struct out: each field at the
/// next multiple of its size (a pointer field: the address of its buffer, `address_size` bits),
/// the whole padded to its largest field; and the buffers its pointer fields point to.
fn struct_bytes(
    index: usize,
    fields: &[StructField],
    address_size: u32,
    global: &mut GlobalMemory,
    read_file: &dyn Fn(&str) -> Result<Vec<u8>, String>,
) -> Result<(Vec<u8>, Vec<BufferArg>), String> {
    let mut bytes = Vec::new();
    let mut buffers = Vec::new();
    let mut align = 1;
    for (k, field) in fields.iter().enumerate() {
        let value = match field {
            StructField::Value(ty, n) => n.encode(*ty)?,
            StructField::Buffer { elem, count, init } => {
                let b =
                    allocate_buffer((index, Some(k)), (*elem, *count, init), global, read_file)?;
                let at = b.base.to_le_bytes()[..(address_size / 8) as usize].to_vec();
                buffers.push(b);
                at
            }
        };
        align = align.max(value.len());
        bytes.resize(bytes.len().next_multiple_of(value.len()), 0);
        bytes.extend(value);
    }
    bytes.resize(bytes.len().next_multiple_of(align), 0);
    Ok((bytes, buffers))
}

/// The bytes of a scalar argument for a parameter of type `ty` and `size` bytes.
fn encode_scalar(n: Number, ty: Type, size: u32) -> Result<Vec<u8>, String> {
    if size != ty.bytes() {
        return Err(format!(
            "the parameter is an array of {size} bytes (a struct passed by value?); pass its fields as struct:TYPE=VALUE,..."
        ));
    }
    let elem = match ty {
        Type::F32 => ElemType::F32,
        Type::F64 => ElemType::F64,
        Type::S8 => ElemType::S8,
        Type::S16 => ElemType::S16,
        Type::S32 => ElemType::S32,
        Type::S64 => ElemType::S64,
        // nvcc declares C `int` parameters as `.u32`: a negative number that fits the signed
        // type of the same width is passed as its two's complement.
        Type::U8 | Type::U16 | Type::U32 | Type::U64 if matches!(n, Number::Int(v) if v < 0) => {
            return encode_bits(n, ty.bits());
        }
        Type::U8 => ElemType::U8,
        Type::U16 => ElemType::U16,
        Type::U32 => ElemType::U32,
        Type::U64 => ElemType::U64,
        // Untyped bits: accept any value that fits the width, signed or not.
        Type::B8 | Type::B16 | Type::B32 | Type::B64 => {
            return encode_bits(n, ty.bits());
        }
        Type::Pred => return Err("a .pred parameter cannot be passed".into()),
    };
    n.encode(elem)
}

fn encode_bits(n: Number, bits: u32) -> Result<Vec<u8>, String> {
    let Number::Int(v) = n else {
        return Err(format!(
            "{n} is not an integer, but the parameter is .b{bits}"
        ));
    };
    let lo = -(1i128 << (bits - 1));
    let hi = (1i128 << bits) - 1;
    if v < lo || v > hi {
        return Err(format!("{v} does not fit .b{bits}"));
    }
    Ok((v as u64).to_le_bytes()[..(bits / 8) as usize].to_vec())
}
