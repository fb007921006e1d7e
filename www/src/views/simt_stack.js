// SIMT stack view (MODEL.md section 12; book §3.1.1): the selected warp's entries, top of stack
// first: next PC with its PTX line, reconvergence PC, and the active mask as lane squares. When
// the program has `.loc` lines (CUDA), each PTX line is named with its CUDA line too.
// Entries that changed since the previous drawn cycle are outlined (a push or a pop); in slow
// motion and on single steps a push or pop is animated. Stepping back over a push or a pop shows
// it undone the same way ("undo push": the pushed entries leave; "undo pop": the popped ones
// return, outlined), against the later cycle this view drew last. At the
// right, a compact stack for every warp slot (click one to select it).
// Under core.divergence = convergence_barriers (the warp's snapshot has `splits`) the view is a
// warp-split view instead (book §3.1.2, Figs. 3.6-3.11; views/splits.js), and the compact column
// shows each warp's splits. Under the canvas, "Compare stack / convergence barriers" runs the
// kernel in both modes side by side (views/divergence_compare.js).
import { prepare, region, box, text, textWidth, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { askWhyLane } from '../dom.js';
import { drawSplits, drawAllSplits, SPLITS_HEIGHT, splitsModel } from './splits.js';
import { drawWarpGrid } from './warp_grid.js';
import { createDivergenceCompare } from './divergence_compare.js';
import { cudaLine, hasCuda, lineTag, lineText, pcTag, blockLabel } from './source_line.js';

const HEIGHT = 250;
const ROW = 30;
// Presentation mode's large panel is laid out for the room it has: as tall as the selected
// warp's entries need (at least PRESENT_MIN_H), not HEIGHT with empty rows under them.
const PRESENT_MIN_H = 150;
const PRESENT_SPLITS_TRIM = 14;

// The canvas height for warp `w`'s stack in the panel `el`.
function stackHeight(el, w) {
  if (el.dataset.present !== 'main') return HEIGHT;
  const rows = Math.max(2, w ? w.stack.length : 0);
  return Math.min(HEIGHT, Math.max(PRESENT_MIN_H, 34 + 12 + rows * ROW + 20));
}

export function createSimtStackView(el, app) {
  const canvas = el.querySelector('canvas');
  const heading = el.querySelector('header h2');
  const header = el.querySelector('header');
  const note = el.querySelector('header .note');
  const compare = createDivergenceCompare(el, app);
  let mode = 'stack';
  // The panel's heading says which mechanism the selected warp's view shows.
  function setMode(splits) {
    const m = splits ? 'splits' : 'stack';
    if (m === mode) return;
    mode = m;
    heading.textContent = splits ? 'Warp splits (convergence barriers)' : 'SIMT stack';
    note.textContent = splits ? 'selected warp: threads, barriers, splits; and every warp' : 'selected warp, and every warp';
    header.title = splits ? GLOSSARY.splits : GLOSSARY.simt;
  }
  // A push or pop seen in slow motion (or on a single step) is animated over `frame.motionMs`:
  // entries slide to their new rows, pushed ones fade in, popped ones fade out.
  const motion = { frame: null, compared: null, start: 0, request: 0 };
  // The selected warp's stack as this view last drew it (for stepping back: the frame's `prev`
  // is only an earlier cycle).
  let last = null;
  // The stack to compare with: the previous cycle's going forward, the later cycle's (last
  // drawn) going back; `back` says which.
  function compared(frame) {
    const { snap, warp, prev } = frame;
    if (prev) return { before: prev.sm.warps[warp] ? prev.sm.warps[warp].stack : null, back: false };
    const same = last && last.build === frame.build && last.sm === frame.sm && last.warp === warp && last.cycle > snap.cycle;
    return { before: same ? last.stack : null, back: Boolean(same) };
  }
  // `cmp`: what compared(frame) said when the frame was first drawn (the animation redraws it).
  function render(frame, t, cmp) {
    const { snap, warp } = frame;
    const w = snap.sm.warps[warp];
    const { ctx, width, height } = prepare(canvas, stackHeight(el, w));
    const { before, back } = cmp;
    const leftW = Math.floor(width * 0.7);
    drawSelected(canvas, ctx, leftW, height, w, warp, before, snap.warp_size, t, back, app);
    drawAll(canvas, ctx, leftW + 16, width - leftW - 20, height, frame, app);
    return { w, before, back };
  }
  function animate() {
    const t = Math.min(1, (performance.now() - motion.start) / motion.frame.motionMs);
    render(motion.frame, ease(t), motion.compared);
    motion.request = t < 1 ? requestAnimationFrame(animate) : 0;
  }
  function draw(frame) {
    if (motion.request) cancelAnimationFrame(motion.request);
    motion.request = 0;
    compare.draw(frame);
    // The configuration says which mechanism runs (before any warp is launched, too).
    const barriers = frame.config && frame.config.core && frame.config.core.divergence === 'convergence_barriers';
    const splits = barriers || frame.snap.sm.warps.some((x) => x && (x.splits || x.has_splits));
    setMode(splits);
    if (splits) {
      drawSplitMode(frame);
      return;
    }
    const { w, before, back } = render(frame, 1, compared(frame));
    const kind = changeKind(before, w ? w.stack : null);
    last = { build: frame.build, sm: frame.sm, warp: frame.warp, cycle: frame.snap.cycle, stack: w ? w.stack : null };
    if (frame.motionMs > 0 && (kind === 'push' || kind === 'pop')) {
      motion.frame = frame;
      motion.compared = { before, back };
      motion.start = performance.now();
      animate();
    }
    setModel(canvas, {
      warp: frame.warp,
      depth: w ? w.stack.length : 0,
      entries: w ? w.stack.map((e) => ({ line: e.line, rpc_line: e.rpc_line, mask: e.mask, cuda_line: cudaLine(app, e.line), rpc_cuda_line: e.rpc == null ? 0 : cudaLine(app, e.rpc_line), block: blockLabel(app, e.pc), rpc_block: e.rpc == null ? '' : blockLabel(app, e.rpc) })) : [],
      changed: back ? undoKind(kind) : kind,
      direction: back ? 'back' : 'forward',
      cue: cueText(kind, back),
      animated: motion.request !== 0,
    });
  }
  // The warp-split view: the selected warp's threads, barriers and splits at the left, every
  // warp's splits at the right. Nothing is animated: the state changes after every instruction.
  function drawSplitMode(frame) {
    // Presented large, without the empty band under the legend (the view is laid out for the room).
    const h = el.dataset.present === 'main' ? SPLITS_HEIGHT - PRESENT_SPLITS_TRIM : SPLITS_HEIGHT;
    const { ctx, width } = prepare(canvas, h);
    const { snap, warp, prev } = frame;
    const w = snap.sm.warps[warp];
    const before = prev && prev.sm.warps[warp] ? prev.sm.warps[warp].splits : null;
    const leftW = Math.floor(width * 0.72);
    drawSplits(canvas, ctx, leftW, h, w, warp, before, snap.warp_size, app);
    drawAllSplits(canvas, ctx, leftW + 16, width - leftW - 20, h, frame, app);
    setModel(canvas, splitsModel(frame, app));
  }
  return { draw };
}

// Slow in, slow out.
function ease(t) {
  return t < 0.5 ? 2 * t * t : 1 - 2 * (1 - t) * (1 - t);
}

function changeKind(before, now) {
  if (!before || !now) return 'none';
  if (now.length > before.length) return 'push';
  if (now.length < before.length) return 'pop';
  return JSON.stringify(before) === JSON.stringify(now) ? 'none' : 'update';
}

// Stepping back, the change seen from the later cycle: its push undone looks like a pop.
function undoKind(kind) {
  return kind === 'pop' ? 'undo push' : kind === 'push' ? 'undo pop' : kind;
}

// The label at the top right for a change (`back`: stepping back over it).
function cueText(kind, back) {
  if (kind === 'none') return '';
  if (back) return kind === 'pop' ? 'undo push (stepped back)' : kind === 'push' ? 'undo pop (stepped back)' : 'top entry restored';
  return kind === 'push' ? 'pushed (divergence)' : kind === 'pop' ? 'popped (reconverged)' : 'top entry moved';
}

// The columns of an entry (x and text width of the PC and RPC columns, x of the lanes): wider PC
// columns when the lines carry CUDA lines ("TOS 24 (L73 · CUDA 9)"), grown with the font scale
// and as wide as the lanes leave room for (at least 6 px per lane square).
function columnsFor(cuda, width, warpSize, scale = 1) {
  if (!cuda) return { pc: 8, rpc: 140, lanes: 270, pcW: 130, rpcW: 130 };
  const ideal = 8 + 400 * scale;
  const lanes = Math.round(Math.max(280, Math.min(ideal, width - 10 - warpSize * 8)));
  const rpc = Math.round(8 + (lanes - 8) * 0.52);
  return { pc: 8, rpc, lanes, pcW: rpc - 14, rpcW: lanes - rpc - 12 };
}

function drawSelected(canvas, ctx, width, height, w, warp, before, warpSize, t = 1, back = false, app = null) {
  const kind = w ? changeKind(before, w.stack) : 'none';
  const cue = cueText(kind, back);
  const cueW = cue ? textWidth(ctx, cue, FONT_BOLD) + 16 : 0;
  if (cue) text(ctx, cue, width - 8, 12, { align: 'right', colour: UI.changed, font: FONT_BOLD });
  text(ctx, `Warp ${warp}${w ? ` (CTA ${w.cta.join(',')}, warp ${w.warp_in_cta})` : ''}: SIMT stack, top first`, 8, 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - cueW - 8 });
  if (!w) {
    text(ctx, 'No warp in this slot.', 8, 44, { colour: UI.muted });
    return;
  }
  const cuda = hasCuda(app);
  const cols = columnsFor(cuda, width, warpSize, ctx.fontScale || 1);
  const y0 = 34;
  text(ctx, cuda ? 'next PC (line · CUDA)' : 'next PC (line)', cols.pc, y0, { font: FONT_SMALL, colour: UI.muted, maxWidth: cols.pcW });
  text(ctx, cuda ? 'RPC (line · CUDA)' : 'RPC (line)', cols.rpc, y0, { font: FONT_SMALL, colour: UI.muted, maxWidth: cols.rpcW });
  text(ctx, `active lanes 0…${warpSize - 1}`, cols.lanes, y0, { font: FONT_SMALL, colour: UI.muted, maxWidth: Math.max(40, width - cols.lanes - 6) });
  region(canvas, cols.pc, y0 - 8, cols.pcW, 16, GLOSSARY.pc);
  region(canvas, cols.rpc, y0 - 8, cols.rpcW, 16, GLOSSARY.rpc);
  if (!w.stack.length && t >= 1) text(ctx, 'Every thread of this warp has exited: its stack is empty.', 8, y0 + 26, { colour: UI.muted });
  const maxRows = Math.floor((height - y0 - 16) / ROW);
  ctx.save();
  ctx.beginPath();
  ctx.rect(0, y0 + 10, width, maxRows * ROW + 4);
  ctx.clip();
  for (const r of stackRows(w.stack, before, t)) {
    if (r.row > maxRows - 0.01) continue;
    const y = y0 + 12 + r.row * ROW;
    const changed = before && (r.depth >= before.length || JSON.stringify(before[r.depth]) !== JSON.stringify(r.entry));
    ctx.globalAlpha = r.alpha;
    drawEntry(canvas, ctx, width, cols, y, r, changed && !r.popped, app);
  }
  ctx.restore();
  const entries = w.stack.length;
  if (entries > maxRows) text(ctx, `+${entries - maxRows} deeper entries`, 8, height - 8, { colour: UI.muted });
}

// Where each entry is drawn at animation time `t` (0: the previous cycle's rows, 1: this
// cycle's), top of stack at row 0. Entries keep their depth; pushed ones slide in from above
// and fade in, popped ones slide out upwards and fade out.
function stackRows(stack, before, t) {
  const now = stack.length;
  const old = before && t < 1 ? before.length : now;
  const rows = [];
  for (let d = now - 1; d >= 0; d--) {
    const rowNow = now - 1 - d;
    if (d < old) rows.push({ entry: stack[d], depth: d, row: old - 1 - d + (rowNow - (old - 1 - d)) * t, alpha: 1 });
    else rows.push({ entry: stack[d], depth: d, row: rowNow - (1 - t) * (now - old), alpha: t });
  }
  for (let d = old - 1; d >= now; d--) {
    rows.push({ entry: before[d], depth: d, row: old - 1 - d - t * (old - now), alpha: 1 - t, popped: true });
  }
  return rows;
}

function drawEntry(canvas, ctx, width, cols, y, { entry: e, depth, row }, changed, app) {
  const top = Math.round(row) === 0;
  box(ctx, 4, y, width - 8, ROW - 4, { fill: top ? '#2a3a4c' : '#1f2731', stroke: changed ? UI.changed : UI.boxLine, width: changed ? 3 : 1 });
  text(ctx, `${top ? 'TOS ' : ''}${pcTag(app, e.pc)} (${lineTag(app, e.line)})`, cols.pc + 2, y + ROW / 2 - 2, { maxWidth: cols.pcW + 6 });
  const exit = e.rpc === 4294967295;
  const rpc = e.rpc == null ? '—' : exit ? 'exit' : `${pcTag(app, e.rpc)} (${lineTag(app, e.rpc_line)})`;
  text(ctx, rpc, cols.rpc + 2, y + ROW / 2 - 2, { maxWidth: cols.rpcW + 6 });
  const below = Math.round(row);
  region(canvas, cols.pc, y, cols.pcW + 10, ROW - 4, `${GLOSSARY.pc}\n\nEntry ${depth} (${below === 0 ? 'top of stack' : `${below} below the top`}): next PC ${e.pc}, ${lineText(app, e.line)}.`);
  region(canvas, cols.rpc, y, cols.rpcW + 10, ROW - 4, `${GLOSSARY.rpc}\n\n${e.rpc == null ? 'The bottom entry has no reconvergence PC: it runs to the end of the kernel.' : exit ? 'Reconverges at the exit.' : `Reconverges at PC ${e.rpc}, ${lineText(app, e.rpc_line)}.`}`);
  drawLanes(canvas, ctx, cols.lanes, y + 4, width - cols.lanes - 10, e.lanes);
}

function drawLanes(canvas, ctx, x, y, w, lanes) {
  const size = Math.max(6, Math.min(18, Math.floor(w / lanes.length) - 2));
  lanes.forEach((on, l) => {
    const lx = x + l * (size + 2);
    ctx.fillStyle = on ? OKABE.green : '#1a2029';
    ctx.fillRect(lx, y, size, size);
    ctx.strokeStyle = on ? '#0b3d2e' : '#5b6672';
    ctx.strokeRect(lx + 0.5, y + 0.5, size - 1, size - 1);
    region(canvas, lx, y, size + 2, size, `Lane ${l}: ${on ? GLOSSARY.lanesOn : GLOSSARY.lanesOff}\n\nClick: why is this lane (not) running? (the Why? panel)`, () => askWhyLane(canvas, l));
  });
}

function drawAll(canvas, ctx, x0, width, height, frame, app) {
  const layout = { x0, width, height, title: 'Warps (stack depth)' };
  const warpSize = frame.snap.warp_size;
  // Every warp's entries from the warp table (snapshot.js): each entry's active lanes.
  drawWarpGrid(canvas, ctx, layout, frame, app, (w, i, x, y, cw, ch) => {
    const stack = w.stack_lanes;
    const eh = Math.max(2, Math.min(10, Math.floor((ch - 16) / Math.max(1, stack.length))));
    stack.forEach((active, d) => {
      const frac = active / warpSize;
      const ey = y + ch - 4 - (d + 1) * eh;
      ctx.fillStyle = '#3d4a59';
      ctx.fillRect(x + 3, ey, cw - 6, eh - 1);
      ctx.fillStyle = d === stack.length - 1 ? OKABE.green : OKABE.sky;
      ctx.fillRect(x + 3, ey, Math.max(1, (cw - 6) * frac), eh - 1);
    });
    return `Warp slot ${i}: stack depth ${stack.length}; top: ${lineText(app, w.line)}, lanes ${w.active_mask}. Bars: one per entry, filled by the share of active lanes. Click to select.`;
  });
}
