// The CUDA line beside a PTX line, for the views that name PTX lines (issue 29). The mapping is
// the model's: Session.listing().source_lines (ptx::SourceLines, from the program's `.loc`
// lines; index = PTX line, 0 = none), which app.js keeps as app.listing. Plain PTX without
// `.loc` lines has no CUDA lines, and every label reads as it did before.

// The CUDA line of PTX line `line` (0: none).
export function cudaLine(app, line) {
  const lines = app && app.listing && app.listing.source_lines;
  return (lines && lines[line]) || 0;
}

import { textWidth, FONT } from '../canvas.js';

// Whether the program on screen has any CUDA line.
export function hasCuda(app) {
  const lines = app && app.listing && app.listing.source_lines;
  return Boolean(lines && lines.some((l) => l > 0));
}

// A short tag for a canvas label: "L69", or "L69 · CUDA 14". `form` 1 (compact): "L69·cu14",
// one word, for a narrow box (canvas.js keeps words with digits whole when it fits text to a
// width); form 2: "L69" alone, where even that would cut the opcode short.
export function lineTag(app, line, form = 0) {
  const c = cudaLine(app, line);
  if (!c || form >= 2) return `L${line}`;
  return form === 1 ? `L${line}·cu${c}` : `L${line} · CUDA ${c}`;
}

// The label of the block PC `pc` is in (the model's listing: block_labels, the last PTX label at
// or before it), when the kernel names its blocks itself, as the book's Figure 3.2 does (A to G);
// '' for a compiler's generated labels ($L__BB0_1) or none.
export function blockLabel(app, pc) {
  const labels = app && app.listing && app.listing.block_labels;
  const l = (labels && pc != null && labels[pc]) || '';
  return l && !l.startsWith('$') && l.length <= 12 ? l : '';
}

// A PC with its block: "24 [G]", or "24".
export function pcTag(app, pc) {
  const b = blockLabel(app, pc);
  return b ? `${pc} [${b}]` : String(pc);
}

// For hover text: "PTX line 69", or "PTX line 69 (CUDA line 14)".
export function lineText(app, line) {
  const c = cudaLine(app, line);
  return c ? `PTX line ${line} (CUDA line ${c})` : `PTX line ${line}`;
}

// An instruction in a unit: "W3 ld.shared.f32 (L69)", or "W3 ld.shared.f32 (L69 · CUDA 14)"
// (canvas.js instrLabel with the CUDA line).
export function instrTag(app, warp, instr, form = 0) {
  if (!instr) return warp == null ? '—' : `W${warp}`;
  return `${warp == null ? '' : `W${warp} `}${instr.op} (${lineTag(app, instr.line, form)})`;
}

// `build(form)` in the first form (0: long, 1: compact; see lineTag) that fits `maxWidth`
// (text() may shrink the font to 80%; the compact form may also be squeezed by a tenth, still
// readable), else without the CUDA line (form 2).
export function fitted(ctx, maxWidth, build, font = FONT) {
  return fittedForm(ctx, maxWidth, build, font).s;
}

// fitted's text `s` and the form it took (2: the CUDA line left out).
export function fittedForm(ctx, maxWidth, build, font = FONT) {
  for (const [form, squeeze] of [[0, 1], [1, 1.1]]) {
    const s = build(form);
    if (textWidth(ctx, s, font) * 0.8 <= maxWidth * squeeze) return { s, form };
  }
  return { s: build(2), form: 2 };
}

// " (CUDA line 14)" for a box's caption when its label left the CUDA line out (form 2), or ''.
export function captionCuda(app, line, form) {
  const c = form === 2 ? cudaLine(app, line) : 0;
  return c ? ` (CUDA line ${c})` : '';
}
