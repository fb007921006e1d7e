// SIMT stack view (MODEL.md section 12; book §3.1.1): the selected warp's entries, top of stack
// first: next PC with its PTX line, reconvergence PC, and the active mask as lane squares.
// Entries that changed since the previous drawn cycle are outlined (a push or a pop). At the
// right, a compact stack for every warp slot (click one to select it).
import { prepare, region, box, text, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const HEIGHT = 250;
const ROW = 30;

export function createSimtStackView(el, app) {
  const canvas = el.querySelector('canvas');
  function draw(frame) {
    const { ctx, width } = prepare(canvas, HEIGHT);
    const { snap, warp, prev } = frame;
    const w = snap.sm.warps[warp];
    const before = prev && prev.sm.warps[warp] ? prev.sm.warps[warp].stack : null;
    const leftW = Math.floor(width * 0.7);
    drawSelected(canvas, ctx, leftW, w, warp, before, snap.warp_size);
    drawAll(canvas, ctx, leftW + 16, width - leftW - 20, frame, app);
    setModel(canvas, {
      warp,
      depth: w ? w.stack.length : 0,
      entries: w ? w.stack.map((e) => ({ line: e.line, rpc_line: e.rpc_line, mask: e.mask })) : [],
      changed: changeKind(before, w ? w.stack : null),
    });
  }
  return { draw };
}

function changeKind(before, now) {
  if (!before || !now) return 'none';
  if (now.length > before.length) return 'push';
  if (now.length < before.length) return 'pop';
  return JSON.stringify(before) === JSON.stringify(now) ? 'none' : 'update';
}

function drawSelected(canvas, ctx, width, w, warp, before, warpSize) {
  text(ctx, `Warp ${warp}${w ? ` (CTA ${w.cta.join(',')}, warp ${w.warp_in_cta})` : ''}: SIMT stack, top first`, 8, 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: width });
  if (!w) {
    text(ctx, 'No warp in this slot.', 8, 44, { colour: UI.muted });
    return;
  }
  const cols = { pc: 8, rpc: 140, lanes: 270 };
  const y0 = 34;
  text(ctx, 'next PC (line)', cols.pc, y0, { font: FONT_SMALL, colour: UI.muted });
  text(ctx, 'RPC (line)', cols.rpc, y0, { font: FONT_SMALL, colour: UI.muted });
  text(ctx, `active lanes 0…${warpSize - 1}`, cols.lanes, y0, { font: FONT_SMALL, colour: UI.muted });
  region(canvas, cols.pc, y0 - 8, 130, 16, GLOSSARY.pc);
  region(canvas, cols.rpc, y0 - 8, 130, 16, GLOSSARY.rpc);
  const entries = [...w.stack].reverse();
  if (!entries.length) text(ctx, 'Every thread of this warp has exited: its stack is empty.', 8, y0 + 26, { colour: UI.muted });
  const kind = changeKind(before, w.stack);
  const maxRows = Math.floor((HEIGHT - y0 - 16) / ROW);
  entries.slice(0, maxRows).forEach((e, i) => {
    const y = y0 + 12 + i * ROW;
    const depthIndex = w.stack.length - 1 - i;
    const changed = before && (depthIndex >= before.length || JSON.stringify(before[depthIndex]) !== JSON.stringify(e));
    box(ctx, 4, y, width - 8, ROW - 4, { fill: i === 0 ? '#2a3a4c' : '#1f2731', stroke: changed ? UI.changed : UI.boxLine, width: changed ? 3 : 1 });
    text(ctx, `${i === 0 ? 'TOS ' : ''}${e.pc} (L${e.line})`, cols.pc + 2, y + ROW / 2 - 2, { maxWidth: 136 });
    const rpc = e.rpc == null ? '—' : e.rpc === 4294967295 ? 'exit' : `${e.rpc} (L${e.rpc_line})`;
    text(ctx, rpc, cols.rpc + 2, y + ROW / 2 - 2, { maxWidth: 136 });
    region(canvas, cols.pc, y, 140, ROW - 4, `${GLOSSARY.pc}\n\nEntry ${depthIndex} (${i === 0 ? 'top of stack' : `${i} below the top`}): next PC ${e.pc}, PTX line ${e.line}.`);
    region(canvas, cols.rpc, y, 140, ROW - 4, `${GLOSSARY.rpc}\n\n${e.rpc == null ? 'The bottom entry has no reconvergence PC: it runs to the end of the kernel.' : `Reconverges at PC ${rpc}.`}`);
    drawLanes(canvas, ctx, cols.lanes, y + 4, width - cols.lanes - 10, e.lanes);
  });
  if (entries.length > maxRows) text(ctx, `+${entries.length - maxRows} deeper entries`, 8, HEIGHT - 8, { colour: UI.muted });
  if (kind !== 'none') text(ctx, kind === 'push' ? 'pushed (divergence)' : kind === 'pop' ? 'popped (reconverged)' : 'top entry moved', width - 8, 12, { align: 'right', colour: UI.changed, font: FONT_BOLD });
}

function drawLanes(canvas, ctx, x, y, w, lanes) {
  const size = Math.max(6, Math.min(18, Math.floor(w / lanes.length) - 2));
  lanes.forEach((on, l) => {
    const lx = x + l * (size + 2);
    ctx.fillStyle = on ? OKABE.green : '#1a2029';
    ctx.fillRect(lx, y, size, size);
    ctx.strokeStyle = on ? '#0b3d2e' : '#5b6672';
    ctx.strokeRect(lx + 0.5, y + 0.5, size - 1, size - 1);
    region(canvas, lx, y, size + 2, size, `Lane ${l}: ${on ? GLOSSARY.lanesOn : GLOSSARY.lanesOff}`);
  });
}

function drawAll(canvas, ctx, x0, width, { snap, warp }, app) {
  text(ctx, 'All warps (depth, click to select)', x0, 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: width });
  const warps = snap.sm.warps;
  const perRow = Math.max(1, Math.min(warps.length, 16));
  const cw = Math.max(10, Math.min(48, Math.floor(width / perRow) - 3));
  const rows = Math.ceil(warps.length / perRow);
  const ch = Math.min(110, Math.floor((HEIGHT - 30) / rows) - 6);
  warps.forEach((w, i) => {
    const x = x0 + (i % perRow) * (cw + 3);
    const y = 28 + Math.floor(i / perRow) * (ch + 6);
    box(ctx, x, y, cw, ch, { fill: '#1c232c', stroke: i === warp ? UI.selected : UI.boxLine, width: i === warp ? 3 : 1 });
    const stack = w ? w.stack : [];
    const eh = Math.max(2, Math.min(10, Math.floor((ch - 16) / Math.max(1, stack.length))));
    stack.forEach((e, d) => {
      const frac = e.lanes.filter(Boolean).length / e.lanes.length;
      const ey = y + ch - 4 - (d + 1) * eh;
      ctx.fillStyle = '#3d4a59';
      ctx.fillRect(x + 3, ey, cw - 6, eh - 1);
      ctx.fillStyle = d === stack.length - 1 ? OKABE.green : OKABE.sky;
      ctx.fillRect(x + 3, ey, Math.max(1, (cw - 6) * frac), eh - 1);
    });
    if (cw >= 16) text(ctx, i, x + cw / 2, y + 8, { align: 'center', font: FONT_SMALL, colour: UI.muted });
    const tip = w
      ? `Warp slot ${i}: stack depth ${stack.length}; top: line ${w.line}, lanes ${w.active_mask}. Bars: one per entry, filled by the share of active lanes.`
      : `Warp slot ${i}: empty.`;
    region(canvas, x, y, cw, ch, tip, () => app.selectWarp(i));
  });
}
