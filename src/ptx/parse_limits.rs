//! The caps the parser enforces so that no input makes it nest, loop or allocate without
//! bound. Re-exported from [`super::parser`].

/// Deepest `{ }` nesting accepted inside a function body.
pub const MAX_BLOCK_DEPTH: u32 = 256;
/// Most array dimensions in one declaration.
pub const MAX_ARRAY_DIMS: usize = 8;
/// Most elements in an operand vector `{...}` or call list `(...)`.
pub const MAX_LIST_ELEMENTS: usize = 64;
