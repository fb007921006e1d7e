// Bank access grid (MODEL.md sections 7 and 12; book §4.1.1; XOR paper): the shared-memory access
// MEM0 of the selected SM holds (snapshot bank_grid.in_mem0), or the last one it served. Banks are columns, serialisation passes are rows; each lane is a
// cell coloured by lane (its number written in it when there is room); lanes served the same word
// in one pass (a broadcast) share one joined cell. When `shmem.hash` is not `mod`, the same access
// under `mod` (the model's baseline, snapshot bank_grid.baseline) is drawn on the left and the
// configured hash on the right, on the same row scale, each with its degree and extra cycles.
import { prepare, region, box, text, textWidth, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { laneColour, inkOn, OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const TOP = 64;
const GAP = 18;
// The height the pass rows share (layout pixels); presentation mode's large panel gives them less,
// so that a 32-way conflict (32 passes) stands whole above the caption at 1280x720 (issue 30):
// its rows too low for the lane numbers, every lane is still its own coloured cell (its number
// in its hover text) and every 8th pass is labelled.
const ROWS_H = 380;
const PRESENT_ROWS_H = 200;

export function createBankGridView(el) {
  const canvas = el.querySelector('canvas');
  // The grid changes only when a shared access issues (or the SM or configuration changes).
  function key({ snap, sm, config }) {
    return `${sm}:${snap.sm.stats.shared_instructions}:${snap.sm.bank_grid.hash}:${config && config.shmem.banks}:${el.dataset.present}`;
  }
  function draw({ snap }) {
    const g = snap.sm.bank_grid;
    const sides = g.baseline
      ? [{ ...g.baseline, role: 'baseline' }, { ...g, role: 'hashed' }]
      : [{ ...g, role: 'only' }];
    const passes = Math.max(1, ...sides.map((s) => s.cycles));
    const presented = el.dataset.present === 'main';
    const rowH = Math.max(presented ? 5 : 10, Math.min(30, Math.floor((presented ? PRESENT_ROWS_H : ROWS_H) / passes)));
    const { ctx, width } = prepare(canvas, Math.max(120, TOP + passes * rowH + 12));
    heading(canvas, ctx, width, g);
    const sideW = Math.floor((width - GAP * (sides.length - 1)) / sides.length);
    const cells = sides.map((s, i) => drawSide(canvas, ctx, i * (sideW + GAP), sideW, s, g.banks, passes, rowH));
    if (sides.length > 1) divider(ctx, sideW + GAP / 2, TOP - 30, passes * rowH + 34);
    const model = (s, c) => ({ hash: s.hash, degree: s.degree, passes: s.cycles, extra: s.extra_cycles, lanes: s.lanes.length, broadcasts: c.filter((x) => x.lanes.length > 1).length });
    const mine = model(g, cells[cells.length - 1]);
    const whose = g.instr ? `W${g.warp} ${g.instr.op}` : null;
    setModel(canvas, { banks: g.banks, ...mine, hashLatency: g.hash_latency, baseline: g.baseline ? model(g.baseline, cells[0]) : null, whose });
  }
  return { draw, key };
}

// The heading says whether MEM0 holds the access now and, at the right, whose it is (the warp and
// instruction the model names: bank_grid.warp and .instr, while the instruction is in flight).
function heading(canvas, ctx, width, g) {
  const what = g.lanes.length ? `${g.lanes.length} lanes${g.atomic ? ', atomic' : ''}` : 'no shared-memory access yet';
  const title = `${g.in_mem0 ? 'In MEM0' : 'Last in MEM0'}: ${what}`;
  const left = textWidth(ctx, title, FONT_BOLD);
  text(ctx, title, 8, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 16 });
  const whose = g.instr ? `W${g.warp} ${g.instr.op}` : '';
  const room = width - 16 - left - 24;
  if (whose && room > 40) text(ctx, whose, width - 8, 10, { colour: UI.muted, maxWidth: room, align: 'right' });
  const tip = g.instr ? `\n\nWarp ${g.warp}'s ${g.instr.text} (PTX line ${g.instr.line}).` : '';
  region(canvas, 0, 0, width, 20, `${GLOSSARY.bankgrid}${tip}\n\n${GLOSSARY.degree}`);
}

function summary(s) {
  if (!s.lanes.length) return 'no access';
  const hash = s.hash_latency ? ` + ${s.hash_latency} hash cycle${s.hash_latency === 1 ? '' : 's'}` : '';
  return `degree ${s.degree} · ${s.cycles} pass${s.cycles === 1 ? '' : 'es'} · ${s.extra_cycles} extra${hash}`;
}

// One grid: its title (function and cost), bank numbers, pass rows and lane cells.
function drawSide(canvas, ctx, x0, w, s, banks, passes, rowH) {
  const title = s.role === 'baseline' ? 'mod (baseline)' : s.role === 'hashed' ? `${s.hash} (configured)` : s.hash;
  const conflict = s.extra_cycles > 0;
  text(ctx, title, x0 + 8, 28, { font: FONT_BOLD, colour: s.role === 'baseline' ? UI.muted : UI.text, maxWidth: w - 16 });
  text(ctx, summary(s), x0 + 8, 44, { font: FONT_SMALL, colour: conflict ? OKABE.vermillion : OKABE.green, maxWidth: w - 16 });
  const tip = s.role === 'baseline' ? `${GLOSSARY.baseline}\n\n` : s.role === 'hashed' ? `${GLOSSARY.hashbits}\n\n` : '';
  region(canvas, x0, 20, w, 32, `${tip}${title}: ${summary(s)}.\n${GLOSSARY.degree}`);
  const label = w > 500 ? 52 : 36;
  const cw = Math.max(4, (w - label - 4) / banks);
  drawBankNumbers(canvas, ctx, x0 + label, cw, banks);
  drawRows(ctx, x0, label, cw, banks, passes, rowH);
  const cells = groupCells(s.lanes);
  for (const cell of cells) drawCell(canvas, ctx, x0 + label + cell.bank * cw, TOP + cell.pass * rowH, cw, rowH, cell);
  return cells;
}

function drawBankNumbers(canvas, ctx, x0, cw, banks) {
  const every = cw >= 18 ? 1 : cw >= 9 ? 4 : 8;
  for (let b = 0; b < banks; b++) {
    const x = x0 + b * cw;
    if (b % every === 0) text(ctx, b, x + cw / 2, TOP - 7, { align: 'center', font: FONT_SMALL, colour: UI.muted });
    region(canvas, x, TOP - 14, cw, 14, `Bank ${b} (column). ${GLOSSARY.bankgrid}`);
  }
}

function drawRows(ctx, x0, label, cw, banks, passes, rowH) {
  const every = rowH >= 16 ? 1 : rowH >= 12 ? 4 : 8;
  ctx.fillStyle = '#1a2029';
  ctx.fillRect(x0 + label, TOP, cw * banks, passes * rowH);
  ctx.strokeStyle = '#2b3440';
  ctx.lineWidth = 1;
  ctx.beginPath();
  for (let p = 0; p <= passes; p++) {
    ctx.moveTo(x0 + label, TOP + p * rowH + 0.5);
    ctx.lineTo(x0 + label + cw * banks, TOP + p * rowH + 0.5);
  }
  for (let b = 0; b <= banks; b++) {
    ctx.moveTo(Math.round(x0 + label + b * cw) + 0.5, TOP);
    ctx.lineTo(Math.round(x0 + label + b * cw) + 0.5, TOP + passes * rowH);
  }
  ctx.stroke();
  for (let p = 0; p < passes; p += every) text(ctx, label > 40 ? `pass ${p}` : `p${p}`, x0 + 2, TOP + p * rowH + rowH / 2, { font: FONT_SMALL, colour: UI.muted });
}

function drawCell(canvas, ctx, x, y, cw, rowH, cell) {
  const fill = laneColour(cell.lanes[0]);
  const merged = cell.lanes.length > 1;
  box(ctx, x + 1, y + 1, Math.max(2, cw - 2), rowH - 2, { fill, stroke: merged ? '#ffffff' : fill, width: merged ? 2 : 1 });
  const label = merged ? `${cell.lanes[0]}+${cell.lanes.length - 1}` : String(cell.lanes[0]);
  if (cw >= 14 && rowH >= 10) text(ctx, label, x + cw / 2, y + rowH / 2, { align: 'center', font: FONT_SMALL, colour: inkOn(fill), maxWidth: cw - 2 });
  const tip = merged
    ? `${GLOSSARY.broadcast}\n\nLanes ${cell.lanes.join(', ')} read word ${cell.word} in bank ${cell.bank}, pass ${cell.pass}.`
    : `Lane ${cell.lanes[0]}: word ${cell.word}, bank ${cell.bank}, served in pass ${cell.pass}${cell.pass > 0 ? ' (it waited for earlier passes: a bank conflict)' : ''}.`;
  region(canvas, x, y, cw, rowH, tip);
}

function divider(ctx, x, y, h) {
  ctx.strokeStyle = UI.boxLine;
  ctx.setLineDash([4, 4]);
  ctx.beginPath();
  ctx.moveTo(x, y);
  ctx.lineTo(x, y + h);
  ctx.stroke();
  ctx.setLineDash([]);
}

// One cell per (pass, bank, word): the lanes the model served together.
function groupCells(lanes) {
  const map = new Map();
  for (const l of lanes) {
    const key = `${l.pass}:${l.bank}:${l.word}`;
    if (!map.has(key)) map.set(key, { pass: l.pass, bank: l.bank, word: l.word, lanes: [] });
    map.get(key).lanes.push(l.lane);
  }
  return [...map.values()];
}
