// The back end of the pipeline view when the SM runs one of the Elastic paper's pipelines
// (sm.back_end.mode `in_order`, `split` or `elastic`; Gou & Gaydadjiev, CF'11, Figs. 4-7): a row
// beneath the stage columns with the memory lane (PREMEM FIFO, MEM0, the MEM1..MEM(M-1)
// latches), the non-memory lane (the NONMEM FIFO, or the rigid pipelines' NONMEM path and the
// result that holds it), the writeback mux with this cycle's winners and the results that wait,
// and a banner with the stall that stopped issue. Also the bank-conflict-aware scheduler's
// history cache, countdown and masked warps, drawn in the schedulers column. Everything is read
// from the snapshot (src/view/back_end_view.rs); nothing is recomputed here.
import { region, box, text, arrow, FONT_BOLD, FONT_SMALL } from '../canvas.js';
import { stateColour, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { fitted, instrTag, lineText } from './source_line.js';

// Height of the back-end row.
export const BACK_END_H = 136;

const MODE_TITLE = {
  in_order: 'in-order pipeline (Elastic Fig. 4a)',
  split: 'split pipeline (Elastic Fig. 4b)',
  elastic: 'elastic pipeline (Elastic Figs. 5-7)',
};

const LANE_H = 38;
const MUX_W = 22;
const RESULT_W = 184;
const GAP = 12;
const WAIT_COLOUR = stateColour('writeback_conflict');

// A warp instruction in a small box (its line is in the hover text).
const short = (u) => (u ? `W${u.warp} ${u.instr.op}` : '—');

// The rendered model of the back end (the e2e tests read it): plain labels and warp numbers.
export function backEndModel(b) {
  if (!b || b.mode === 'decoupled') return null;
  const one = (u) => (u ? { warp: u.warp, op: u.instr.op, pc: u.instr.pc } : null);
  return {
    mode: b.mode,
    memStages: b.mem_stages,
    mem0: b.mem0 ? { ...one(b.mem0), cyclesLeft: b.mem0.cycles_left, shared: b.mem0.shared, replaying: b.mem0.replaying_conflict, conflictCycles: b.mem0.conflict_cycles } : null,
    latches: b.mem_latches.map(one),
    premem: b.premem.map(one),
    prememDepth: b.premem_depth,
    prememSubwarps: b.premem_subwarps,
    nonmem: b.nonmem_waiting.map(one),
    nonmemCapacity: b.nonmem_capacity,
    committed: b.committed.map(([warp, instr]) => ({ warp, op: instr.op, pc: instr.pc })),
    stall: b.exe_stall,
    banner: banner(b),
  };
}

export function maskModel(m) {
  if (!m) return null;
  return {
    countdown: m.countdown,
    masked: m.masked,
    lookup: m.lookup ? { op: m.lookup.instr.op, pc: m.lookup.instr.pc, line: m.lookup.instr.line, hit: m.lookup.hit, predicted: m.lookup.predicted } : null,
    lookups: m.lookups,
    hits: m.hits,
  };
}

function banner(b) {
  return b.exe_stall ? `issue stalled: ${b.exe_stall}` : 'issue not held by the back end';
}

// The back-end row at y (full width).
export function drawBackEnd(canvas, ctx, width, y, b, tables, app = null) {
  const x0 = 16;
  const x1 = width - 16;
  text(ctx, `Back end: ${MODE_TITLE[b.mode] || b.mode} · M = ${b.mem_stages} memory stages`, x0, y + 8, { font: FONT_BOLD, colour: UI.accent, maxWidth: x1 - x0 - 250 });
  region(canvas, x0, y, x1 - x0 - 250, 16, `${GLOSSARY.backend}\n\nThis SM runs the ${MODE_TITLE[b.mode] || b.mode}; M = ${b.mem_stages} (elastic.mem_stages).`);
  drawBanner(canvas, ctx, x1 - 240, y - 1, 240, b, tables);
  const lane1 = y + 22;
  const lane2 = lane1 + LANE_H + 8;
  const mux = x1 - RESULT_W - MUX_W;
  const end1 = drawMemoryLane(canvas, ctx, x0, mux - GAP, lane1, b, app);
  const end2 = drawNonmemLane(canvas, ctx, x0, mux - GAP, lane2, b, app);
  arrow(ctx, end1 + 2, lane1 + LANE_H / 2, mux - 2, lane1 + LANE_H / 2);
  arrow(ctx, end2 + 2, lane2 + LANE_H / 2, mux - 2, lane2 + LANE_H / 2);
  drawMux(canvas, ctx, mux, lane1, lane2 + LANE_H, b, app);
}

function drawBanner(canvas, ctx, x, y, w, b, tables) {
  const stalled = Boolean(b.exe_stall);
  const fill = stalled ? stateColour(b.exe_stall) : UI.box;
  box(ctx, x, y, w, 18, { fill, stroke: stalled ? fill : UI.boxLine, dash: stalled ? null : [4, 3] });
  text(ctx, banner(b), x + 6, y + 9, { font: FONT_SMALL, colour: stalled ? inkOn(fill) : UI.muted, maxWidth: w - 10 });
  const d = stalled ? tables.byName[b.exe_stall] : null;
  region(canvas, x, y, w, 18, stalled
    ? `No warp issued in the latest cycle: an instruction could not leave EXE (${b.exe_stall}).${d ? `\n${d.description}` : ''}\n\nIn the rigid pipelines (Elastic Fig. 4) a held stage stops issue for every warp.`
    : 'Issue was not held by the back end in the latest cycle (no instruction was stuck at EXE).');
}

// PREMEM entries, MEM0, the latches; returns the right edge.
function drawMemoryLane(canvas, ctx, x, right, y, b, app) {
  const latches = b.mem_latches.length;
  const depth = b.premem_depth;
  const avail = right - x;
  // Widths: MEM0 gets the most room, then the PREMEM entries, then the latches.
  const slots = Math.max(1, depth) + latches;
  const unit = Math.max(40, Math.floor((avail - GAP * slots) / (1.6 + 1.4 * Math.max(1, depth) + latches)));
  const mem0W = Math.min(240, Math.floor(unit * 1.6));
  const premW = Math.min(180, Math.floor(unit * 1.4));
  const slotW = Math.min(150, unit);
  let cx = x;
  if (depth > 0) {
    const entries = b.premem;
    for (let i = 0; i < depth; i++) {
      const e = entries[i];
      box(ctx, cx, y, premW, LANE_H, { fill: e ? '#2e3c4d' : '#1c232c' });
      text(ctx, depth > 1 ? `PREMEM ${i + 1}/${depth}` : 'PREMEM', cx + 5, y + 10, { font: FONT_SMALL, colour: UI.muted, maxWidth: premW - 8 });
      text(ctx, e ? short(e) : '—', cx + 5, y + 27, { font: FONT_SMALL, colour: e ? UI.text : UI.muted, maxWidth: premW - 8 });
      region(canvas, cx, y, premW, LANE_H, `${GLOSSARY.premem}\n\nThis SM: ${depth} warp instruction(s), N = ${b.premem_subwarps} sub-warps.\nEntry ${i + 1} (oldest first): ${e ? `warp ${e.warp}: ${e.instr.text}` : 'empty'}.`);
      cx += premW + GAP;
    }
  } else {
    box(ctx, cx, y, slotW, LANE_H, { fill: '#161b22', dash: [4, 3] });
    text(ctx, 'no PREMEM', cx + 5, y + 19, { font: FONT_SMALL, colour: UI.muted, maxWidth: slotW - 8 });
    region(canvas, cx, y, slotW, LANE_H, `${GLOSSARY.premem}\n\nThe ${b.mode === 'elastic' ? 'elastic pipeline has no PREMEM entry here: each warp instruction takes one MEM0 pass' : 'rigid pipelines have no PREMEM FIFO'} (N = ${b.premem_subwarps} sub-warps).`);
    cx += slotW + GAP;
  }
  const m0 = b.mem0;
  const replay = Boolean(m0 && m0.replaying_conflict);
  const red = stateColour('bank_conflict');
  arrow(ctx, cx - GAP + 1, y + LANE_H / 2, cx - 2, y + LANE_H / 2);
  box(ctx, cx, y, mem0W, LANE_H, { fill: replay ? '#3a1d12' : m0 ? '#2e3c4d' : '#1c232c', stroke: replay ? red : UI.boxLine, width: replay ? 3 : 1 });
  const state = m0 ? `${replay ? 'replay, ' : ''}${m0.cycles_left} left` : 'empty';
  text(ctx, `MEM0 ${state}`, cx + 6, y + 10, { font: FONT_SMALL, colour: replay ? red : UI.muted, maxWidth: mem0W - 10 });
  text(ctx, m0 ? (mem0W >= 180 ? fitted(ctx, mem0W - 10, (k) => instrTag(app, m0.warp, m0.instr, k), FONT_SMALL) : short(m0)) : '—', cx + 6, y + 27, { font: FONT_SMALL, colour: m0 ? UI.text : UI.muted, maxWidth: mem0W - 10 });
  const m0tip = m0
    ? `Warp ${m0.warp}: ${m0.instr.text} (${lineText(app, m0.instr.line)}), a ${m0.shared ? 'shared-memory' : 'memory'} access; it holds MEM0 for ${m0.cycles_left} more cycle(s)${m0.conflict_cycles ? `, ${m0.conflict_cycles} bank-conflict pass(es) in all` : ''}.${replay ? '\nWhat is left are only conflict passes: a conflict-free access would have left MEM0.' : ''}`
    : 'MEM0 is empty.';
  region(canvas, cx, y, mem0W, LANE_H, `${GLOSSARY.mem0}\n\n${GLOSSARY.mem0replay}\n\n${m0tip}`);
  cx += mem0W;
  b.mem_latches.forEach((l, i) => {
    cx += GAP;
    arrow(ctx, cx - GAP + 1, y + LANE_H / 2, cx - 2, y + LANE_H / 2);
    box(ctx, cx, y, slotW, LANE_H, { fill: l ? '#2e3c4d' : '#1c232c' });
    text(ctx, `MEM${i + 1}`, cx + 5, y + 10, { font: FONT_SMALL, colour: UI.muted });
    text(ctx, l ? short(l) : '—', cx + 5, y + 27, { font: FONT_SMALL, colour: l ? UI.text : UI.muted, maxWidth: slotW - 8 });
    region(canvas, cx, y, slotW, LANE_H, `MEM${i + 1}: memory stage ${i + 1} of M = ${b.mem_stages} (Elastic Fig. 4). ${l ? `Warp ${l.warp}: ${l.instr.text}; its data is ready at cycle ${l.ready_at}.` : 'Empty.'}`);
    cx += slotW;
  });
  return cx;
}

// The NONMEM FIFO (elastic) or the rigid NONMEM path; returns the right edge.
function drawNonmemLane(canvas, ctx, x, right, y, b, app) {
  const waiting = b.nonmem_waiting;
  if (b.mode === 'elastic') {
    const cap = b.nonmem_capacity || 0;
    const w = Math.max(60, Math.min(150, Math.floor((right - x - 60 - GAP * cap) / Math.max(1, cap))));
    let cx = x;
    for (let i = 0; i < cap; i++) {
      const e = waiting[i];
      box(ctx, cx, y, w, LANE_H, { fill: e ? '#3b2a35' : '#1c232c', stroke: e ? WAIT_COLOUR : UI.boxLine });
      text(ctx, cap > 1 ? `NONMEM ${i + 1}/${cap}` : 'NONMEM', cx + 5, y + 10, { font: FONT_SMALL, colour: UI.muted, maxWidth: w - 8 });
      text(ctx, e ? short(e) : '—', cx + 5, y + 27, { font: FONT_SMALL, colour: e ? UI.text : UI.muted, maxWidth: w - 8 });
      region(canvas, cx, y, w, LANE_H, `${GLOSSARY.nonmem}\n\nEntry ${i + 1} of ${cap} (M = ${b.mem_stages}; oldest first): ${e ? `warp ${e.warp}: ${e.instr.text}, lost writeback last cycle and waits here` : 'empty'}.`);
      cx += w + (i + 1 < cap ? GAP : 0);
    }
    if (waiting.length > cap) text(ctx, `+${waiting.length - cap}`, cx + 4, y + LANE_H / 2, { font: FONT_SMALL, colour: WAIT_COLOUR });
    return cx;
  }
  const w = Math.min(right - x, 360);
  const held = waiting.length > 0;
  box(ctx, x, y, w, LANE_H, { fill: held ? '#3b2a35' : '#1c232c', stroke: held ? WAIT_COLOUR : UI.boxLine, width: held ? 2 : 1 });
  text(ctx, `rigid NONMEM path (${b.mem_stages} stages, no FIFO)`, x + 6, y + 10, { font: FONT_SMALL, colour: UI.muted, maxWidth: w - 10 });
  const what = held ? `${waiting.map((u) => instrTag(app, u.warp, u.instr, 1)).join(', ')} waits: holds its unit` : 'no result waiting';
  text(ctx, what, x + 6, y + 27, { font: FONT_SMALL, colour: held ? WAIT_COLOUR : UI.muted, maxWidth: w - 10 });
  region(canvas, x, y, w, LANE_H, `${GLOSSARY.nonmem}\n\nThis ${b.mode === 'split' ? 'split' : 'in-order'} pipeline has no NONMEM FIFO: a result that loses writeback stays in its unit and stops it (and, in turn, issue).\n${held ? waiting.map((u) => `Warp ${u.warp}: ${u.instr.text} lost writeback and holds its unit.`).join('\n') : 'No result is waiting.'}`);
  return x + w;
}

function drawMux(canvas, ctx, x, top, bottom, b, app) {
  const win = b.committed;
  const waiting = b.nonmem_waiting;
  ctx.fillStyle = '#2e3c4d';
  ctx.strokeStyle = UI.boxLine;
  ctx.lineWidth = 1;
  ctx.beginPath();
  ctx.moveTo(x, top);
  ctx.lineTo(x + MUX_W, top + 12);
  ctx.lineTo(x + MUX_W, bottom - 12);
  ctx.lineTo(x, bottom);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  text(ctx, 'WB', x + 3, (top + bottom) / 2, { font: FONT_SMALL, colour: UI.muted });
  const tx = x + MUX_W + 10;
  const w = RESULT_W - 12;
  text(ctx, 'writeback this cycle:', tx, top + 7, { font: FONT_SMALL, colour: UI.muted, maxWidth: w });
  const lines = [
    ...win.map(([warp, instr]) => ({ s: `✓ ${short({ warp, instr })}`, colour: stateColour('issued') })),
    ...waiting.map((u) => ({ s: `… ${short(u)} waits`, colour: WAIT_COLOUR })),
  ];
  if (!lines.length) lines.push({ s: 'nothing', colour: UI.muted });
  const room = 4;
  lines.slice(0, room).forEach((l, i) => {
    const more = i === room - 1 && lines.length > room ? `  +${lines.length - room}` : '';
    text(ctx, `${l.s}${more}`, tx, top + 23 + i * 16, { font: FONT_SMALL, colour: l.colour, maxWidth: w });
  });
  const tip = `${GLOSSARY.wbmux}\n\n${win.length ? win.map(([warp, instr]) => `Wrote back: warp ${warp}: ${instr.text} (${lineText(app, instr.line)})`).join('\n') : 'Nothing wrote back in the latest cycle.'}${waiting.length ? `\n${waiting.map((u) => `Waiting (lost writeback): warp ${u.warp}: ${u.instr.text}`).join('\n')}` : ''}`;
  region(canvas, x, top, RESULT_W + MUX_W, bottom - top, tip);
}

// The bank-conflict-aware scheduler's memory-warp mask (Elastic §4, Fig. 7), in the schedulers
// column: countdown, the latest history-cache lookup, the masked warps.
export function drawMask(canvas, ctx, c, y, h, m) {
  const fail = stateColour('scheduling_fail');
  const on = m.countdown > 0;
  box(ctx, c.x, y, c.w, h, { stroke: on ? fail : UI.boxLine, width: on ? 2 : 1 });
  text(ctx, 'history cache', c.x + 6, y + 9, { font: FONT_SMALL, colour: UI.muted, maxWidth: c.w - 10 });
  text(ctx, `countdown ${m.countdown}`, c.x + 6, y + 24, { font: FONT_SMALL, colour: on ? UI.text : UI.muted, maxWidth: c.w - 10 });
  const l = m.lookup;
  text(ctx, l ? `${l.instr.op} L${l.instr.line}` : 'no lookup yet', c.x + 6, y + 39, { font: FONT_SMALL, colour: l ? UI.text : UI.muted, maxWidth: c.w - 10 });
  if (l) text(ctx, `${l.hit ? 'hit' : 'miss'}, predicted +${l.predicted}`, c.x + 6, y + 54, { font: FONT_SMALL, colour: l.hit ? UI.text : UI.muted, maxWidth: c.w - 10 });
  const chipY = y + 63;
  text(ctx, 'masked:', c.x + 6, chipY + 8, { font: FONT_SMALL, colour: UI.muted });
  let cx = c.x + 62;
  if (!m.masked.length) text(ctx, 'none', cx, chipY + 8, { font: FONT_SMALL, colour: UI.muted });
  for (const w of m.masked) {
    if (cx + 30 > c.x + c.w - 4) { text(ctx, '…', cx, chipY + 8, { font: FONT_SMALL }); break; }
    box(ctx, cx, chipY, 28, 16, { fill: fail, stroke: fail });
    text(ctx, `W${w}`, cx + 14, chipY + 8, { font: FONT_SMALL, colour: inkOn(fail), align: 'center' });
    cx += 31;
  }
  const tip = `${GLOSSARY.historycache}\n\nCountdown: ${m.countdown} cycle(s) of memory warps masked.\nLatest lookup: ${l ? `${l.instr.text} (line ${l.instr.line}): ${l.hit ? 'hit' : 'miss'}, predicted ${l.predicted} extra cycle(s)` : 'none yet'}.\nMasked last cycle: ${m.masked.length ? m.masked.map((w) => `W${w}`).join(', ') : 'none'}.\nLookups ${m.lookups}, hits ${m.hits} (exact ${m.exact}, under ${m.under}, over ${m.over}).`;
  region(canvas, c.x, y, c.w, h, tip);
}
