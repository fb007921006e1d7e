// Pipeline view (MODEL.md section 12): fetch, decode/I-buffer, schedulers, operand collectors
// and register banks, execution units with LD/ST MEM0, writeback; each box shows the warp and
// instruction in it this cycle; a scheduler that issued nothing shows its stall reason in that
// reason's colour. With one of the Elastic paper's pipelines (sm.back_end.mode not
// `decoupled`), a row beneath shows its back end (back_end.js) and, on request, the same kernel
// under the three pipelines as linked timelines (compare.js); with the bank-conflict-aware
// scheduler, its history cache and masked warps sit under the schedulers. Below: every warp
// slot, coloured by what it did (click to select). An instruction is named by its PTX line and,
// when the program has `.loc` lines, its CUDA line ("W3 ld.shared.f32 (L69 · CUDA 14)"). The view
// is drawn every frame while the kernel runs: the hover texts of the many small boxes are built
// only when hovered (functions of this frame's values), not for every frame.
import { prepare, region, box, text, textWidth, arrow, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { stateColour, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { BACK_END_H, backEndModel, maskModel, drawBackEnd, drawMask } from './back_end.js';
import { createCompare } from './compare.js';
import { captionCuda, fitted, fittedForm, instrTag, lineTag, lineText } from './source_line.js';

const ROW = 19;
const MASK_H = 84;
// The stage columns start at COL_Y; STAGE_H is how tall their content may be (the execution
// units share it, the schedulers all but its heading). Under them: the back-end row of an
// Elastic pipeline (BACK_END_H, back_end.js) and the warp slots (STRIP_H).
const COL_Y = 26;
const STAGE_H = 282;
const STRIP_H = 52;
// Presentation mode's large panel is laid out for the room above the caption at 1280x720
// (issue 30): the columns shorter (fewer in-flight and collector rows), and with a back end,
// that row first, the columns under it shorter still and the warp slots left out (they are in
// the Timeline and the SIMT view; the back end is what the elastic lessons are about).
const PRESENT_STAGE_H = 250;
const PRESENT_BACK_STAGE_H = 144;

// The view's vertical layout: where the columns, the back-end row and the warp slots go.
function geometry(elastic, presented) {
  const backFirst = elastic && presented;
  const stage = backFirst ? PRESENT_BACK_STAGE_H : presented ? PRESENT_STAGE_H : STAGE_H;
  const strip = !backFirst;
  const dy = backFirst ? BACK_END_H + 6 : 0;
  const columnsEnd = dy + COL_Y + stage;
  const backEndY = backFirst ? 10 : elastic ? columnsEnd + 6 : null;
  const height = backFirst ? columnsEnd + 4 : columnsEnd + (elastic ? BACK_END_H : 0) + STRIP_H;
  return { backFirst, stage, strip, dy, backEndY, height };
}

export function createPipelineView(el, app) {
  const canvas = el.querySelector('canvas');
  const compare = createCompare(el, app);
  function draw(frame) {
    const { snap } = frame;
    const sm = snap.sm;
    const be = sm.back_end;
    const elastic = Boolean(be && be.mode !== 'decoupled');
    // As presentation mode's large panel the view is laid out for the room (issue 30, geometry):
    // with a back end, that row first.
    const geo = geometry(elastic, el.dataset.present === 'main');
    const { backFirst, dy } = geo;
    const { ctx, width, height } = prepare(canvas, geo.height);
    const cols = columns(width);
    for (const c of cols) c.stage = geo.stage;
    const model = {
      fetch: sm.fetch ? `W${sm.fetch[0]} ${sm.fetch[1].op}` : null,
      schedulers: sm.schedulers.map((s) => (s.issued != null ? `W${s.issued} ${s.issued_instr ? s.issued_instr.op : ''}` : s.stall)),
      collectors: sm.collectors.filter((c) => c.warp != null).length,
      units: sm.units.map((u) => `${u.kind}:${u.in_flight.length}`),
      mem0: sm.units.find((u) => u.mem0) ? sm.units.find((u) => u.mem0).mem0[1] : 0,
      backEnd: backEndModel(be),
      mask: maskModel(be && be.mask),
      backEndFirst: backFirst,
    };
    const firstRegion = canvas.regions.length;
    if (backFirst) {
      ctx.save();
      ctx.translate(0, dy);
    }
    drawFrontEnd(canvas, ctx, cols[0], frame, app);
    // What each scheduler's box says (the stall reason or the issue), as drawn.
    const drawn = drawSchedulers(canvas, ctx, cols[1], frame, app);
    model.schedulerLabels = drawn.labels;
    model.schedulerCaptions = drawn.captions;
    drawCollectors(canvas, ctx, cols[2], frame, app);
    model.unitLabels = drawUnits(canvas, ctx, cols[3], frame, app);
    drawWriteback(canvas, ctx, cols[4], frame);
    const arrowY = COL_Y + Math.min(104, geo.stage / 2);
    for (let i = 0; i + 1 < cols.length; i++) {
      arrow(ctx, cols[i].x + cols[i].w + 2, arrowY, cols[i + 1].x - 3, arrowY);
    }
    if (backFirst) {
      ctx.restore();
      for (const r of canvas.regions.slice(firstRegion)) r.y += dy;
    }
    if (elastic) drawBackEnd(canvas, ctx, width, geo.backEndY, be, frame.tables, app);
    if (geo.strip) drawWarpStrip(canvas, ctx, width, height, frame, app);
    model.warpSlots = geo.strip;
    setModel(canvas, model);
    compare.draw(frame, elastic);
  }
  return { draw };
}

function columns(width) {
  const fr = [0.18, 0.2, 0.22, 0.26, 0.14];
  const gap = 16;
  const usable = width - gap * (fr.length + 1);
  let x = gap;
  return fr.map((f) => {
    const c = { x, w: Math.floor(usable * f), y: COL_Y, stage: STAGE_H };
    x += c.w + gap;
    return c;
  });
}

// A column's title; in a narrow column (a zoomed page, presentation mode) its short form rather
// than a title cut short.
function heading(ctx, c, title, short = title) {
  const t = textWidth(ctx, title, FONT_BOLD) * 0.8 <= c.w ? title : short;
  text(ctx, t, c.x, 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: c.w });
}

function drawFrontEnd(canvas, ctx, c, { snap, warp }, app) {
  heading(ctx, c, 'Fetch → Decode', 'Fetch');
  const f = snap.sm.fetch;
  box(ctx, c.x, c.y, c.w, 44);
  // Where the label has no room for the CUDA line, the caption names it.
  const fl = f ? fittedForm(ctx, c.w - 10, (k) => instrTag(app, f[0], f[1], k)) : { s: '—', form: 0 };
  text(ctx, `fetched${f ? captionCuda(app, f[1].line, fl.form) : ''}:`, c.x + 6, c.y + 12, { colour: UI.muted, font: FONT_SMALL, maxWidth: c.w - 10 });
  text(ctx, fl.s, c.x + 6, c.y + 31, { maxWidth: c.w - 10 });
  region(canvas, c.x, c.y, c.w, 44, f ? `${GLOSSARY.fetch}\n\nNow: warp ${f[0]} fetched ${f[1].text} (${lineText(app, f[1].line)}).` : GLOSSARY.fetch);
  const w = snap.sm.warps[warp];
  const y = c.y + 54;
  const all = w ? w.ibuffer : [];
  // As many entries as the column has room for (the rest counted in the hover text).
  const entries = all.slice(0, Math.max(2, Math.floor((c.stage - 54 - 22) / ROW)));
  const h = 22 + Math.max(2, entries.length) * ROW;
  box(ctx, c.x, y, c.w, h);
  text(ctx, `I-buffer of W${warp}:`, c.x + 6, y + 11, { colour: UI.muted, font: FONT_SMALL, maxWidth: c.w - 10 });
  entries.forEach((e, i) => text(ctx, fitted(ctx, c.w - 10, (k) => `${e.op} (${lineTag(app, e.line, k)})`), c.x + 6, y + 30 + i * ROW, { maxWidth: c.w - 10 }));
  if (!entries.length) text(ctx, 'empty', c.x + 6, y + 30, { colour: UI.muted });
  region(canvas, c.x, y, c.w, h, `${GLOSSARY.ibuffer}\n\nThe selected warp (W${warp}) holds ${all.length} decoded instruction(s).`);
}

function drawSchedulers(canvas, ctx, c, { snap, tables }, app) {
  heading(ctx, c, 'Schedulers (issue)', 'Schedulers');
  const n = snap.sm.schedulers.length;
  const mask = snap.sm.back_end && snap.sm.back_end.mask;
  const room = mask ? c.stage - 32 - MASK_H - 6 : c.stage - 32;
  const h = Math.min(60, Math.floor(room / Math.max(1, n)) - 6);
  const drawnLabels = [];
  const captions = [];
  snap.sm.schedulers.forEach((s, i) => {
    const y = c.y + i * (h + 6);
    const stalled = s.issued == null;
    const fill = stalled ? stateColour(s.stall) : stateColour('issued');
    box(ctx, c.x, y, c.w, h, { fill: '#222b36', stroke: fill, width: 3, dash: stalled ? [5, 3] : null });
    ctx.fillStyle = fill;
    ctx.fillRect(c.x + 3, y + 3, 8, h - 6);
    const issued = stalled ? null : fittedForm(ctx, c.w - 20, (k) => instrTag(app, s.issued, s.issued_instr, k));
    const cuda = issued && s.issued_instr ? captionCuda(app, s.issued_instr.line, issued.form) : '';
    const caption = `S${s.id}${cuda}${s.active_set.length ? ` active {${s.active_set.join(',')}}` : ''}`;
    captions.push(text(ctx, caption, c.x + 16, y + 11, { font: FONT_SMALL, colour: UI.muted, maxWidth: c.w - 20 }));
    const label = stalled ? `stall: ${s.stall}` : issued.s;
    const idle = stalled && s.stall === 'idle';
    drawnLabels.push(text(ctx, idle ? 'idle: no warp to issue' : label, c.x + 16, y + h - 14, { maxWidth: c.w - 20, colour: idle ? UI.muted : stalled ? fill : UI.text, keep: stalled ? [s.stall] : null }));
    const desc = tables.byName[stalled ? s.stall : 'issued'];
    const tip = () => stalled
      ? `${GLOSSARY.scheduler}\n\nScheduler ${s.id} issued nothing: ${s.stall}. ${desc ? desc.description : ''}`
      : `${GLOSSARY.scheduler}\n\nScheduler ${s.id} issued warp ${s.issued}: ${s.issued_instr ? `${s.issued_instr.text} (${lineText(app, s.issued_instr.line)})` : ''}`;
    region(canvas, c.x, y, c.w, h, tip);
  });
  if (mask) drawMask(canvas, ctx, c, c.y + n * (h + 6), MASK_H, mask);
  return { labels: drawnLabels, captions };
}

function drawCollectors(canvas, ctx, c, { snap }, app) {
  heading(ctx, c, 'Operand collectors', 'Operands');
  const units = snap.sm.collectors;
  const busy = units.filter((u) => u.warp != null);
  // Rows of busy units, fewer when the stage is shorter (the banks stay under them).
  const bankRows = Math.ceil(snap.sm.register_banks.length / Math.min(8, Math.max(1, snap.sm.register_banks.length)));
  const maxRows = c.stage === STAGE_H ? 9 : Math.max(1, Math.min(9, Math.floor((c.stage - 58 - 22 * (bankRows - 1)) / ROW)));
  busy.slice(0, maxRows).forEach((u, i) => {
    const y = c.y + i * ROW;
    box(ctx, c.x, y, c.w, ROW - 2, { fill: '#2e3c4d' });
    const ops = u.operands.map((o) => `${o[2] ? '✓' : '·'}${o[0]}`).join(' ');
    text(ctx, fitted(ctx, c.w - 8, (k) => `${u.kind} ${instrTag(app, u.warp, u.instr, k)} ${ops}`, FONT_SMALL), c.x + 4, y + ROW / 2 - 1, { font: FONT_SMALL, maxWidth: c.w - 8 });
    const tip = () => `${GLOSSARY.collector}\n\n${u.kind} unit holds warp ${u.warp}: ${u.instr ? `${u.instr.text} (${lineText(app, u.instr.line)})` : ''}\nOperands (✓ read): ${u.operands.map((o) => `${o[0]} in bank ${o[1]}${o[2] ? ' ✓' : ''}`).join(', ') || 'none'}`;
    region(canvas, c.x, y, c.w, ROW - 2, tip);
  });
  const shownRows = Math.min(busy.length, maxRows);
  const free = {};
  for (const u of units) if (u.warp == null) free[u.kind] = (free[u.kind] || 0) + 1;
  const more = busy.length > maxRows ? `+${busy.length - maxRows} busy · ` : '';
  const y = c.y + shownRows * ROW;
  const summary = `${more}free: ${Object.entries(free).map(([k, n]) => `${k} ${n}`).join(', ') || 'none'}`;
  text(ctx, summary, c.x + 2, y + 9, { font: FONT_SMALL, colour: UI.muted, maxWidth: c.w - 4, keep: Object.keys(free) }); // unit names stay with their counts
  region(canvas, c.x, y, c.w, 18, `${GLOSSARY.collector}\n\n${units.length} collector units: ${busy.length} busy; free ones by unit type: ${summary}.`);
  drawBanks(canvas, ctx, c, snap.sm.register_banks, Math.max(y + 24, c.y + 4 * ROW));
}

function drawBanks(canvas, ctx, c, banks, y) {
  text(ctx, 'register banks', c.x, y + 6, { font: FONT_SMALL, colour: UI.muted });
  const perRow = Math.min(banks.length, 8);
  const w = Math.max(12, Math.floor(c.w / Math.max(1, perRow)) - 2);
  banks.forEach((b, i) => {
    const x = c.x + (i % perRow) * (w + 2);
    y += i > 0 && i % perRow === 0 ? 22 : 0;
    const fill = b.kind === 'read' ? '#56b4e9' : b.kind === 'write' ? '#e69f00' : b.kind === 'memory' ? '#cc79a7' : '#1c232c';
    box(ctx, x, y + 14, w, 20, { fill });
    if (b.kind !== 'idle') text(ctx, { read: 'R', write: 'W', memory: 'M' }[b.kind], x + w / 2, y + 24, { align: 'center', colour: inkOn(fill), font: FONT_SMALL });
    region(canvas, x, y + 14, w, 20, () => `${GLOSSARY.regbank}\n\nBank ${i}: ${b.kind === 'idle' ? 'idle this cycle' : `${b.kind} of ${b.reg} for warp ${b.warp}`}.`);
  });
}

// Returns the instruction labels drawn (for the e2e tests).
function drawUnits(canvas, ctx, c, { snap }, app) {
  const labels = [];
  heading(ctx, c, 'Execution units');
  const units = snap.sm.units.filter((u) => u.kind !== 'DP' || u.in_flight.length);
  const h = Math.floor(c.stage / Math.max(1, units.length)) - 6;
  units.forEach((u, i) => {
    const y = c.y + i * (h + 6);
    const mem = u.mem0;
    const conflict = mem && mem[1] > 1;
    box(ctx, c.x, y, c.w, h, { stroke: conflict ? stateColour('bank_conflict') : UI.boxLine, width: conflict ? 3 : 1 });
    text(ctx, `${u.kind}  (${u.in_flight.length} in flight)`, c.x + 6, y + 11, { font: FONT_SMALL, colour: UI.muted, maxWidth: c.w - 10 });
    let line = 0;
    if (mem) {
      const label = fitted(ctx, c.w - 10, (k) => `MEM0: ${instrTag(app, mem[0].warp, mem[0].instr, k)}${mem[1] > 1 ? `, holds ${mem[1]} more` : ''}`);
      labels.push(text(ctx, label, c.x + 6, y + 29, { maxWidth: c.w - 10, colour: conflict ? stateColour('bank_conflict') : UI.text }));
      region(canvas, c.x, y + 20, c.w, ROW, () => `${GLOSSARY.mem0}\n\nWarp ${mem[0].warp}: ${mem[0].instr.text} (${lineText(app, mem[0].instr.line)}); it holds MEM0 for ${mem[1]} more cycle(s).`);
      line = 1;
    }
    const room = Math.max(0, Math.floor((h - 22) / ROW) - line);
    const shown = u.in_flight.slice(0, room);
    const rows = shown.map((f, k) => {
      const more = k === room - 1 && u.in_flight.length > room ? `  +${u.in_flight.length - room}` : '';
      // ready_at is null while a load still waits for memory (its cycle is not known yet).
      const when = f.ready_at === null ? ' waiting for memory' : ` →${f.ready_at}`;
      return (form) => `${instrTag(app, f.warp, f.instr, form)}${when}${more}`;
    });
    // One form for the whole list, the one its widest row needs, so the rows read alike.
    const form = Math.max(0, ...rows.map((r) => fittedForm(ctx, c.w - 10, r).form));
    rows.forEach((r, k) => labels.push(text(ctx, r(form), c.x + 6, y + 29 + (k + line) * ROW, { maxWidth: c.w - 10 })));
    const list = () => u.in_flight.map((f) => `W${f.warp} ${f.instr.text}, ${lineText(app, f.instr.line)}: ${f.ready_at === null ? 'waiting for memory (its data has not all come back)' : `ready at cycle ${f.ready_at}`}`).join('\n');
    region(canvas, c.x, y, c.w, h, () => `${GLOSSARY.unit}\n\n${u.kind}: ${u.in_flight.length} instruction(s) in flight.${u.in_flight.length ? `\n${list()}` : ''}`);
  });
  return labels;
}

function drawWriteback(canvas, ctx, c, { snap }) {
  heading(ctx, c, 'Writeback');
  const writes = snap.sm.register_banks.map((b, i) => ({ ...b, bank: i })).filter((b) => b.kind === 'write');
  const h = 22 + Math.max(1, writes.length) * ROW;
  box(ctx, c.x, c.y, c.w, h);
  writes.forEach((b, i) => text(ctx, `W${b.warp} ${b.reg}`, c.x + 6, c.y + 12 + i * ROW, { maxWidth: c.w - 10 }));
  if (!writes.length) text(ctx, 'nothing', c.x + 6, c.y + 12, { colour: UI.muted });
  region(canvas, c.x, c.y, c.w, h, () => `${GLOSSARY.writeback}\n\n${writes.length ? writes.map((b) => `warp ${b.warp} wrote ${b.reg} (bank ${b.bank})`).join('\n') : 'No result was written back this cycle.'}`);
}

function drawWarpStrip(canvas, ctx, width, height, { snap, tables, warp }, app) {
  const y = height - 44;
  text(ctx, 'Warp slots (click to select):', 16, y - 10, { font: FONT_SMALL, colour: UI.muted });
  const warps = snap.sm.warps;
  const cell = Math.max(10, Math.min(34, Math.floor((width - 32) / Math.max(1, warps.length)) - 2));
  warps.forEach((w, i) => {
    const x = 16 + i * (cell + 2);
    const name = w ? w.state : 'idle';
    const fill = stateColour(name);
    box(ctx, x, y, cell, 28, { fill, stroke: i === warp ? UI.selected : UI.boxLine, width: i === warp ? 3 : 1 });
    if (cell >= 16) text(ctx, i, x + cell / 2, y + 14, { align: 'center', colour: inkOn(fill), font: FONT_SMALL });
    const d = tables.byName[name];
    const tip = () => w
      ? `Warp slot ${i} (CTA ${w.cta.join(',')}, warp ${w.warp_in_cta}): ${name}.\n${d ? d.description : ''}\nNext: ${lineText(app, w.line)}, lanes ${w.active_mask}, stack depth ${w.depth}.\n\nClick: select it; the Why? panel gives the model's chain of causes.`
      : `Warp slot ${i}: empty.`;
    region(canvas, x, y, cell, 28, tip, () => app.selectWarp(i));
  });
}
