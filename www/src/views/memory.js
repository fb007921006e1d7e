// Memory view (MODEL.md sections 9 and 12): what the memory side of the selected SM does this
// cycle. Top: the register-file banks (the operand collector's reads and writes). Below: the L1
// data cache as sets x ways (each line's state and LRU rank, from the model's flat line buffer,
// Session.l1Lines), its MSHRs and miss queue (snapshot sm.l1), and this cycle's reservation
// failures drawn where they happened: an `assoc` failure on its set, an `mshr` failure on the
// MSHR table (or the entry of its line), a `miss_queue` failure on the queue. A set linked from
// the MRPB view (app.linkSet: the set a queue's head, or the outbound request, maps to) is
// outlined, and the heading says where it came from.
import { prepare, layoutWidth, region, box, text, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const BANKS_H = 64;
const QUEUES_W = 300;
// The narrowest queue column drawn; the miss queue box's height; the legend's entry width and
// row height.
const QUEUES_MIN = 150;
const MISS_QUEUE_H = 54;
const LEGEND_STEP = 104;
const LEGEND_ROW = 20;
const FAIL = OKABE.vermillion;
const LINKED = UI.selected;
const FONT_BOLD_SMALL = `bold ${FONT_SMALL}`;

// Line states: fill and the letter written in the cell (colour is never the only cue).
const LINE_STYLE = {
  invalid: { fill: '#1c232c', letter: '·' },
  reserved: { fill: OKABE.orange, letter: 'R' },
  valid: { fill: OKABE.sky, letter: 'V' },
  modified: { fill: OKABE.purple, letter: 'M' },
};

export function createMemoryView(el, app) {
  const canvas = el.querySelector('canvas');
  function draw(frame) {
    const { snap } = frame;
    const l1 = snap.sm.l1;
    const lines = l1 ? frame.l1Lines() : null;
    const layout = l1 ? gridLayout(l1, layoutWidth(canvas), el.dataset.present === 'main') : null;
    const height = BANKS_H + (l1 ? l1Height(layout, l1) : 60);
    const { ctx, width } = prepare(canvas, height);
    drawRegisterBanks(canvas, ctx, width, snap.sm.register_banks);
    if (!l1) {
      text(ctx, 'No L1 data cache in this configuration (l1d.config = none): every global access goes to the L2.', 8, BANKS_H + 20, { colour: UI.muted, maxWidth: width - 16 });
      region(canvas, 0, BANKS_H, width, 40, GLOSSARY.l1);
      setModel(canvas, { banks: snap.sm.register_banks.map((b) => b.kind), l1: false });
      return;
    }
    const y0 = BANKS_H;
    const linked = frame.linked && frame.linked.set < l1.sets ? frame.linked : null;
    drawL1Heading(canvas, ctx, width, y0, l1, app, linked);
    const lineModel = readLines(lines, l1, frame.tables);
    drawSets(canvas, ctx, 8, y0 + 40, layout, l1, lineModel, linked, app);
    drawQueues(canvas, ctx, layout.queueX, y0 + 40, layout.queueW, l1, layout.mshrRows);
    const legend = legendPlace(layout, l1);
    drawLineLegend(canvas, ctx, legend.x, y0 + legend.y, legend.width);
    setModel(canvas, {
      banks: snap.sm.register_banks.map((b) => b.kind),
      l1: true,
      sets: l1.sets,
      ways: l1.ways,
      states: countStates(lineModel),
      mshrs: l1.mshrs.length,
      missQueue: l1.miss_queue.length,
      fails: l1.fails.map((f) => ({ reason: f.reason, set: f.set, mshr: f.mshr })),
      linkedSet: linked ? linked.set : null,
      linkedFrom: linked ? linked.source : null,
    });
  }
  return { draw };
}

function drawRegisterBanks(canvas, ctx, width, banks) {
  text(ctx, 'Register-file banks this cycle', 8, 10, { font: FONT_BOLD, colour: UI.accent });
  const cw = Math.max(40, Math.min(110, Math.floor((width - 16) / Math.max(1, banks.length)) - 4));
  banks.forEach((b, i) => {
    const x = 8 + i * (cw + 4);
    const fill = b.kind === 'read' ? OKABE.sky : b.kind === 'write' ? OKABE.orange : b.kind === 'memory' ? OKABE.purple : '#1c232c';
    const ink = b.kind === 'idle' ? UI.muted : inkOn(fill);
    box(ctx, x, 20, cw, 38, { fill });
    text(ctx, cw >= 56 ? `bank ${i}` : `b${i}`, x + 4, 29, { font: FONT_SMALL, colour: ink });
    text(ctx, b.kind === 'idle' ? 'idle' : (b.kind === 'memory' ? `MEM W${b.warp}` : `${b.kind === 'read' ? 'R' : 'W'} W${b.warp} ${b.reg}`), x + 4, 47, { font: FONT_SMALL, colour: ink, maxWidth: cw - 6 });
    region(canvas, x, 20, cw, 38, `${GLOSSARY.regbank}\n\nBank ${i}: ${b.kind === 'idle' ? 'idle' : `${b.kind} of ${b.reg} for warp ${b.warp}`}.`);
  });
}

function drawL1Heading(canvas, ctx, width, y, l1, app, linked) {
  const s = l1.stats;
  const rate = s.accesses ? `${((100 * s.hits) / s.accesses).toFixed(1)}% hits` : 'no accesses yet';
  const title = `L1D of SM ${app.sm}: ${l1.sets} sets × ${l1.ways} ways × ${l1.line_bytes} B · ${rate} (${s.hits}/${s.accesses})`;
  text(ctx, title, 8, y + 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 16 });
  const fails = l1.fails.length ? l1.fails.map((f) => `${f.reason} failure${f.set != null && f.reason === 'assoc' ? ` in set ${f.set}` : ''}`).join(', ') : null;
  const note = fails ? `This cycle: ${fails}; the request stays in MEM0 and retries next cycle.` : `${l1.replacement}, ${l1.set_index} set index, hit latency ${l1.latency}`;
  region(canvas, 0, y, width, 36, fails ? `${GLOSSARY.resfail}\n\n${note}` : GLOSSARY.l1);
  const x = linked ? drawLinkNote(canvas, ctx, width, y + 20, linked, app) : 8;
  text(ctx, note, x, y + 29, { font: FONT_SMALL, colour: fails ? FAIL : UI.muted, maxWidth: width - 8 - x });
}

// The linked set at the start of the note line ("set 12 ← MRPB queue 3's head at cycle 140"),
// in the selection colour; a click unlinks it. Returns where the rest of the note starts.
function drawLinkNote(canvas, ctx, width, y, linked, app) {
  const s = `set ${linked.set} ← ${linked.source} at cycle ${linked.cycle} ·`;
  text(ctx, s, 8, y + 9, { font: FONT_SMALL, colour: LINKED, maxWidth: width - 16 });
  const w = Math.min(width - 16, ctx.measureText(s).width);
  region(canvas, 8, y, w, 18, `${linkTip(linked)}\nClick to unlink it.`, () => app.unlinkSet());
  return 8 + w + 8;
}

function linkTip(linked) {
  return `Set ${linked.set} is linked from the MRPB view: the L1D set ${linked.source} mapped to at cycle ${linked.cycle}. It stays outlined until another set is linked or this one is unlinked (click its label again).`;
}

// Sets in blocks of rows side by side (16 rows for up to 32 sets, else 32), each row the set
// index and its ways; cells as wide as the room left of the MSHR and miss-queue panel allows.
// Presentation mode's large panel has less height than width: up to 64 sets, blocks of 8 rows
// (fewer rows, more blocks), so the grid is no taller than the queues beside it.
function gridRows(l1, presented = false) {
  const rows = presented && l1.sets <= 64 ? Math.min(l1.sets, 8) : Math.min(l1.sets, l1.sets <= 32 ? 16 : 32);
  const rowH = rows <= 16 ? 17 : 13;
  return { rows, rowH, height: 16 + rows * rowH };
}

function gridLayout(l1, width, presented = false) {
  const { rows, rowH, height } = gridRows(l1, presented);
  const blocks = Math.ceil(l1.sets / rows);
  const label = 28;
  const avail = Math.max(200, width - 16 - QUEUES_W);
  const cell = Math.max(12, Math.min(30, Math.floor((avail - blocks * (label + 10)) / (blocks * l1.ways))));
  const blockW = label + l1.ways * cell + 10;
  // The MSHR and miss-queue column right of the sets (none when narrower than QUEUES_MIN).
  const queueX = 8 + blocks * blockW + 16;
  // The MSHR rows listed (the rest counted), fewer when presented for the same reason.
  const mshrRows = presented ? 4 : 8;
  return { blocks, rows, cell, rowH, label, blockW, height, queueX, queueW: width - blocks * blockW - 32, mshrRows };
}

// The L1D part's height: the sets, the queue column and the legend, whichever ends lowest.
function l1Height(g, l1) {
  const queues = g.queueW >= QUEUES_MIN ? 40 + queuesHeight(l1, g.mshrRows) : 0;
  return Math.max(g.height + 78, legendPlace(g, l1).bottom + 8, queues + 8, 244);
}

// Where the line-state legend goes (y from the L1D part's top, and the bottom it needs): under
// the miss queue in the queue column, which has room beside the sets, else under the sets; laid
// out in the width it has, so it never runs into the queues.
function legendPlace(g, l1) {
  const gridBottom = 40 + 14 + g.rows * g.rowH;
  const width = g.blocks * g.blockW;
  const under = { x: 8, y: gridBottom + 6, width, bottom: gridBottom + 6 + legendHeight(width) };
  if (g.queueW < QUEUES_MIN) return under;
  const queuesBottom = 40 + queuesHeight(l1, g.mshrRows);
  const y = queuesBottom + 14;
  const beside = { x: g.queueX, y, width: g.queueW, bottom: y + legendHeight(g.queueW) };
  // Wherever the view ends higher (beside the sets when the grid is the taller part).
  return Math.max(beside.bottom, gridBottom) <= Math.max(under.bottom, queuesBottom) ? beside : under;
}

// Sector states in the line buffer use the same codes as lines (tables().line_states).
let SECTOR_NAMES = ['invalid', 'reserved', 'valid', 'modified'];

function readLines(lines, l1, tables) {
  SECTOR_NAMES = tables.line_states;
  const L = tables.l1_line;
  const out = [];
  for (let i = 0; i + L.words <= lines.length; i += L.words) {
    const block = lines[i + L.block_hi] * 2 ** 32 + lines[i + L.block_lo];
    out.push({ state: tables.line_states[lines[i + L.state]], rank: lines[i + L.rank], block, sectors: lines[i + L.sectors] });
  }
  return out;
}

function countStates(lineModel) {
  const c = { invalid: 0, reserved: 0, valid: 0, modified: 0 };
  for (const l of lineModel) c[l.state] += 1;
  return c;
}

function drawSets(canvas, ctx, x0, y0, g, l1, lineModel, linked, app) {
  const failedSets = new Set(l1.fails.filter((f) => f.reason === 'assoc').map((f) => f.set));
  for (let b = 0; b < g.blocks; b++) {
    const bx = x0 + b * g.blockW;
    text(ctx, 'set', bx, y0 + 6, { font: FONT_SMALL, colour: UI.muted });
    for (let w = 0; w < l1.ways; w++) if (g.cell >= 20 || w % 2 === 0) text(ctx, `w${w}`, bx + g.label + w * g.cell + g.cell / 2, y0 + 6, { font: FONT_SMALL, colour: UI.muted, align: 'center' });
  }
  for (let set = 0; set < l1.sets; set++) {
    const bx = x0 + Math.floor(set / g.rows) * g.blockW;
    const y = y0 + 14 + (set % g.rows) * g.rowH;
    const isLinked = linked && linked.set === set;
    text(ctx, set, bx + g.label - 4, y + g.rowH / 2, { font: isLinked ? FONT_BOLD_SMALL : FONT_SMALL, colour: isLinked ? LINKED : failedSets.has(set) ? FAIL : UI.muted, align: 'right' });
    for (let w = 0; w < l1.ways; w++) drawLine(canvas, ctx, bx + g.label + w * g.cell, y, g, set, w, l1, lineModel[set * l1.ways + w]);
    if (failedSets.has(set)) {
      box(ctx, bx + g.label - 2, y - 1, l1.ways * g.cell + 4, g.rowH + 2, { fill: 'rgba(0,0,0,0)', stroke: FAIL, width: 3 });
      region(canvas, bx, y, g.label, g.rowH, `${GLOSSARY.resfail}\n\nSet ${set}: every way is RESERVED (waiting for a fill), so this cycle's miss to the set could not allocate a line: an assoc reservation failure. The request stays in MEM0 and retries next cycle.`);
    }
  }
  if (linked) drawLinkedSet(canvas, ctx, x0, y0, g, l1, linked, failedSets.has(linked.set), app);
}

// The linked set's row: an outline around its label and ways (outside an assoc failure's),
// drawn after every row so its neighbours do not cover it; a click on its label unlinks it.
function drawLinkedSet(canvas, ctx, x0, y0, g, l1, linked, failed, app) {
  const bx = x0 + Math.floor(linked.set / g.rows) * g.blockW;
  const y = y0 + 14 + (linked.set % g.rows) * g.rowH;
  box(ctx, bx + 1, y - 3, g.label + l1.ways * g.cell + 4, g.rowH + 6, { fill: 'rgba(0,0,0,0)', stroke: LINKED, width: 2 });
  const fail = failed ? '\n\nThis cycle every way of the set is RESERVED: an assoc reservation failure.' : '';
  region(canvas, bx, y, g.label, g.rowH, `${linkTip(linked)}${fail}\nClick to unlink it.`, () => app.unlinkSet());
}

function drawLine(canvas, ctx, x, y, g, set, way, l1, line) {
  if (!line) return;
  const st = LINE_STYLE[line.state];
  box(ctx, x, y, g.cell - 1, g.rowH - 1, { fill: st.fill, stroke: '#0b0f14' });
  if (line.state === 'reserved') hatch(ctx, x, y, g.cell - 1, g.rowH - 1);
  const label = line.state === 'invalid' ? st.letter : g.cell >= 20 ? `${st.letter}${line.rank}` : st.letter;
  if (g.rowH < 12 && line.state === 'invalid') return region(canvas, x, y, g.cell, g.rowH, () => lineTip(set, way, l1, line));
  text(ctx, label, x + (g.cell - 1) / 2, y + g.rowH / 2, { font: FONT_SMALL, colour: line.state === 'invalid' ? UI.muted : inkOn(st.fill), align: 'center' });
  region(canvas, x, y, g.cell, g.rowH, () => lineTip(set, way, l1, line));
}

function lineTip(set, way, l1, line) {
  const rank = `LRU rank ${line.rank} of ${l1.ways} (0 = most recently used; the highest rank is evicted next).`;
  const block = `Block 0x${line.block.toString(16)}.`;
  const what = GLOSSARY[`line_${line.state}`];
  const sectors = l1.sectors > 1 ? `\nSectors (32 B each): ${Array.from({ length: l1.sectors }, (_, i) => SECTOR_NAMES[(line.sectors >> (2 * i)) & 3]).join(', ')}.` : '';
  return `Set ${set}, way ${way}: ${line.state.toUpperCase()}.\n${what}${line.state === 'invalid' ? '' : `\n${block} ${rank}${sectors}`}`;
}

// Diagonal stripes over a reserved line, so it differs from a valid one without colour.
function hatch(ctx, x, y, w, h) {
  ctx.save();
  ctx.beginPath();
  ctx.rect(x, y, w, h);
  ctx.clip();
  ctx.strokeStyle = 'rgba(0,0,0,0.35)';
  ctx.lineWidth = 2;
  ctx.beginPath();
  for (let d = -h; d < w; d += 6) {
    ctx.moveTo(x + d, y + h);
    ctx.lineTo(x + d + h, y);
  }
  ctx.stroke();
  ctx.restore();
}

// The legend's entries per row in `width`, and the height it takes.
const legendPerRow = (width) => Math.max(1, Math.min(4, Math.floor(width / LEGEND_STEP)));
const legendHeight = (width) => Math.ceil(4 / legendPerRow(width)) * LEGEND_ROW + 18;

function drawLineLegend(canvas, ctx, x, y, width) {
  const perRow = legendPerRow(width);
  Object.entries(LINE_STYLE).forEach(([name, st], i) => {
    const lx = x + (i % perRow) * LEGEND_STEP;
    const ly = y + Math.floor(i / perRow) * LEGEND_ROW;
    box(ctx, lx, ly, 16, 14, { fill: st.fill, stroke: '#0b0f14' });
    if (name === 'reserved') hatch(ctx, lx, ly, 16, 14);
    text(ctx, st.letter, lx + 8, ly + 7, { font: FONT_SMALL, colour: name === 'invalid' ? UI.muted : inkOn(st.fill), align: 'center' });
    text(ctx, name, lx + 20, ly + 7, { font: FONT_SMALL, colour: UI.muted, maxWidth: LEGEND_STEP - 24 });
    region(canvas, lx, ly, LEGEND_STEP - 8, 14, GLOSSARY[`line_${name}`]);
  });
  text(ctx, 'digit: LRU rank (0 = most recent)', x, y + Math.ceil(4 / perRow) * LEGEND_ROW + 4, { font: FONT_SMALL, colour: UI.muted, maxWidth: width });
}

// The MSHR box's height (one row per outstanding line, at most `maxRows` shown).
function mshrHeight(l1, maxRows) {
  const rows = Math.min(maxRows, Math.max(1, l1.mshrs.length));
  return 22 + rows * 17 + (l1.mshrs.length > rows ? 14 : 0);
}

// The queue column's height: the MSHRs, then the miss queue.
function queuesHeight(l1, maxRows) {
  return mshrHeight(l1, maxRows) + 8 + MISS_QUEUE_H;
}

// MSHRs (one row per outstanding line, merged requests as small squares) and the miss queue.
function drawQueues(canvas, ctx, x, y, w, l1, maxRows) {
  if (w < QUEUES_MIN) return;
  const mshrFail = l1.fails.find((f) => f.reason === 'mshr');
  const qFail = l1.fails.find((f) => f.reason === 'miss_queue');
  const rows = Math.min(maxRows, Math.max(1, l1.mshrs.length));
  const mh = mshrHeight(l1, maxRows);
  box(ctx, x, y, w, mh, { stroke: mshrFail ? FAIL : UI.boxLine, width: mshrFail ? 3 : 1 });
  text(ctx, `MSHRs: ${l1.mshrs.length} of ${l1.mshr_entries} in use (≤ ${l1.mshr_max_merge} requests each)`, x + 6, y + 10, { font: FONT_SMALL, colour: mshrFail ? FAIL : UI.muted, maxWidth: w - 12 });
  region(canvas, x, y, w, 20, mshrFail ? `${GLOSSARY.mshr}\n\n${mshrFail.mshr != null ? 'This cycle a request to a pending line found its MSHR entry full (max merge reached)' : 'This cycle a miss found no free MSHR entry'}: an mshr reservation failure; the request retries next cycle.` : GLOSSARY.mshr);
  l1.mshrs.slice(0, rows).forEach((m, i) => {
    const ry = y + 20 + i * 17;
    const failed = mshrFail && mshrFail.mshr === i;
    text(ctx, `0x${m.addr.toString(16)}`, x + 6, ry + 7, { font: FONT_SMALL, colour: failed ? FAIL : UI.text, maxWidth: 110 });
    for (let k = 0; k < l1.mshr_max_merge; k++) {
      const filled = k < m.merged;
      ctx.fillStyle = filled ? (m.ready ? OKABE.green : OKABE.orange) : '#2b3440';
      ctx.fillRect(x + 122 + k * 11, ry + 1, 9, 12);
    }
    if (m.ready) text(ctx, 'filled', x + 126 + l1.mshr_max_merge * 11, ry + 7, { font: FONT_SMALL, colour: OKABE.green });
    region(canvas, x, ry, w, 17, `${GLOSSARY.mshr}\n\nLine 0x${m.addr.toString(16)}: ${m.merged} request(s) wait for it${m.ready ? '; its fill arrived and they are being answered, one per cycle' : ''}.${failed ? '\nThis cycle another request to this line found the merge list full and must retry.' : ''}`);
  });
  if (l1.mshrs.length > rows) text(ctx, `+${l1.mshrs.length - rows} more`, x + 6, y + mh - 8, { font: FONT_SMALL, colour: UI.muted });
  if (!l1.mshrs.length) text(ctx, 'none outstanding', x + 6, y + 28, { font: FONT_SMALL, colour: UI.muted });
  drawMissQueue(canvas, ctx, x, y + mh + 8, w, l1, qFail);
}

function drawMissQueue(canvas, ctx, x, y, w, l1, qFail) {
  const n = Math.max(1, l1.miss_queue_entries);
  const slot = Math.max(14, Math.min(60, Math.floor((w - 12) / n) - 3));
  box(ctx, x, y, w, MISS_QUEUE_H, { stroke: qFail ? FAIL : UI.boxLine, width: qFail ? 3 : 1 });
  text(ctx, `Miss queue: ${l1.miss_queue.length} of ${l1.miss_queue_entries} (oldest left, to the interconnect)`, x + 6, y + 10, { font: FONT_SMALL, colour: qFail ? FAIL : UI.muted, maxWidth: w - 12 });
  for (let i = 0; i < n; i++) {
    const f = l1.miss_queue[i];
    const sx = x + 6 + i * (slot + 3);
    const fill = f ? (f.kind === 'read' ? OKABE.sky : f.kind === 'atomic' ? OKABE.purple : OKABE.yellow) : '#1c232c';
    box(ctx, sx, y + 22, slot, 24, { fill });
    if (f && slot >= 24) text(ctx, f.kind === 'read' ? 'R' : f.kind === 'atomic' ? 'A' : 'W', sx + slot / 2, y + 34, { font: FONT_SMALL, colour: inkOn(fill), align: 'center' });
    region(canvas, sx, y + 22, slot + 3, 24, f ? `${GLOSSARY.missqueue}\n\nSlot ${i}: ${f.kind} of ${f.size} B at 0x${f.addr.toString(16)}.` : `${GLOSSARY.missqueue}\n\nSlot ${i}: free.`);
  }
  region(canvas, x, y, w, 20, qFail ? `${GLOSSARY.missqueue}\n\nThis cycle the queue was full, so a miss could not be sent: a miss_queue reservation failure; the request retries next cycle.` : GLOSSARY.missqueue);
}
