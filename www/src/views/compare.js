// The three pipelines as linked timelines (Elastic CF'11 Figs. 4-5), under the pipeline view:
// a "Compare" button runs the kernel under the in-order, split and elastic pipelines
// (app.comparePipelines: three extra Sessions, recorded and freed), and this strip draws one row
// per pipeline over the same window of cycles: per cycle, the stall that stopped issue (top
// band, in the reason's colour), the warps that wrote back (warp-coloured chips), and MEM0
// replaying a bank conflict (bottom band). A shared cursor marks the current cycle; a click on a
// cycle of any row takes the session there. "Align" shifts each row so that its first bank
// conflict lines up with this run's (the cycles a row shows are then its own, in its tooltip).
import { prepare, region, box, text, FONT_SMALL, FONT_BOLD, setModel } from '../canvas.js';
import { OKABE, stateColour, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { lineTag } from './source_line.js';

const WARP_HUES = [OKABE.orange, OKABE.sky, OKABE.green, OKABE.yellow, OKABE.blue, OKABE.vermillion, OKABE.purple, '#9fe0c9'];
const LABEL_W = 128;
const CELL = 18;
const AXIS_H = 18;
const ROW_H = 34;
const LEGEND_H = 22;

const TITLE = { in_order: 'in-order (4a)', split: 'split (4b)', elastic: 'elastic (5)' };

export const COMPARE_BAR = '<div class="compare-bar" hidden><button class="compare-run" title="Run this kernel under the in-order, split and elastic pipelines (three extra simulations) and draw them as linked timelines">Compare the three pipelines</button><label title="Shift each row so that its first bank conflict in MEM0 lines up with this run\'s"><input type="checkbox" class="compare-align" disabled /> align on the first bank conflict</label><span class="note compare-note"></span></div>';

export function createCompare(el, app) {
  const bar = el.querySelector('.compare-bar');
  // The strip's canvas exists only while there is a comparison to draw.
  let canvas = null;
  const note = el.querySelector('.compare-note');
  const align = el.querySelector('.compare-align');
  el.querySelector('.compare-run').addEventListener('click', () => app.comparePipelines());
  align.addEventListener('change', () => app.alignCompare(align.checked));

  function draw(frame, shown) {
    bar.hidden = !shown;
    const cmp = shown ? frame.compare : null;
    align.disabled = !cmp;
    if (!cmp) {
      align.checked = false;
      note.textContent = shown ? 'this kernel in each of the paper\'s pipelines, cycle by cycle' : '';
      if (canvas) canvas.remove();
      canvas = null;
      return;
    }
    if (!canvas) {
      canvas = document.createElement('canvas');
      canvas.className = 'compare';
      bar.after(canvas);
    }
    align.checked = cmp.aligned;
    drawStrip(canvas, frame, cmp, app, note);
  }
  return { draw };
}

function firstConflict(row) {
  const c = row.cycles.find((x) => x.replay);
  return c ? c.c : null;
}

function drawStrip(canvas, frame, cmp, app, note) {
  const rows = cmp.rows;
  const height = AXIS_H + rows.length * ROW_H + LEGEND_H;
  const { ctx, width } = prepare(canvas, height);
  const mode = frame.snap.sm.back_end.mode;
  const cursor = frame.snap.cycle;
  const main = rows.find((r) => r.mode === mode) || rows[0];
  const mainFirst = firstConflict(main);
  const offsets = rows.map((r) => {
    const f = firstConflict(r);
    return cmp.aligned && f != null && mainFirst != null ? f - mainFirst : 0;
  });
  // The window: as many cycles as fit, around the cursor, inside the recorded cycles.
  const n = Math.max(10, Math.floor((width - LABEL_W - 8) / CELL));
  const lo = cmp.from + 1;
  const hi = Math.max(lo, ...rows.map((r, i) => (r.cycles.length ? r.cycles[r.cycles.length - 1].c - offsets[i] : lo)));
  let start = Math.max(lo, Math.min(cursor - Math.floor(n / 3), hi - n + 1));
  start = Math.max(lo, start);
  const end = start + n - 1;
  const x0 = LABEL_W;
  const inside = cursor >= lo && cursor <= hi;
  note.textContent = inside
    ? `cycles ${lo}-${hi} recorded; click a cycle to go there`
    : `the current cycle is outside the compared cycles ${lo}-${hi}: compare again`;

  // Axis: a tick every 10 cycles.
  text(ctx, cmp.aligned ? 'this run\'s cycle' : 'cycle', 8, AXIS_H / 2, { font: FONT_SMALL, colour: UI.muted });
  for (let c = start; c <= end; c++) {
    if (c % 10 !== 0) continue;
    const x = x0 + (c - start) * CELL;
    ctx.fillStyle = UI.boxLine;
    ctx.fillRect(x, AXIS_H - 4, 1, 4 + rows.length * ROW_H);
    text(ctx, c, x + 2, AXIS_H / 2 - 1, { font: FONT_SMALL, colour: UI.muted });
  }

  const model = { from: lo, to: hi, window: [start, end], cursor, aligned: cmp.aligned, rows: [] };
  rows.forEach((r, i) => {
    const y = AXIS_H + i * ROW_H;
    const mine = r.mode === mode;
    const f = firstConflict(r);
    text(ctx, `${TITLE[r.mode]}${mine ? ' ◀' : ''}`, 8, y + 10, { font: mine ? FONT_BOLD : FONT_SMALL, colour: mine ? UI.accent : UI.text, maxWidth: LABEL_W - 12 });
    const sub = r.error ? 'did not start' : r.end != null ? `${r.status === 'completed' ? 'ends' : r.status} ${r.end}` : `still running at ${r.cycles.length ? r.cycles[r.cycles.length - 1].c : cmp.from}`;
    text(ctx, cmp.aligned && offsets[i] ? `${sub} · ${offsets[i] > 0 ? '+' : ''}${offsets[i]}` : sub, 8, y + 25, { font: FONT_SMALL, colour: UI.muted, maxWidth: LABEL_W - 12 });
    region(canvas, 0, y, LABEL_W, ROW_H, `${GLOSSARY.compare}\n\nThis row: the ${TITLE[r.mode]} pipeline, with ${r.sets.join(' ')} on top of this run's configuration.${cmp.aligned && offsets[i] ? `\nAligned: shifted by ${offsets[i]} cycle(s), so its first bank conflict lines up with this run's.` : ''}${r.error ? `\nIt did not start: ${r.error}` : `\nIt ${r.end != null ? `${r.status} at cycle ${r.end}` : 'had not ended at the last cycle recorded'}.${f != null ? ` First bank conflict replayed in MEM0 at cycle ${f}.` : ''}`}${mine ? '\nThis is the pipeline of the run on screen.' : ''}`);
    const byCycle = new Map(r.cycles.map((x) => [x.c, x]));
    const cells = [];
    for (let c = start; c <= end; c++) {
      const own = c + offsets[i];
      const x = x0 + (c - start) * CELL;
      const d = byCycle.get(own);
      box(ctx, x, y + 2, CELL - 1, ROW_H - 4, { fill: d ? '#1c232c' : '#12161c', stroke: '#2a313b' });
      if (!d) continue;
      if (d.stall) {
        ctx.fillStyle = stateColour(d.stall);
        ctx.fillRect(x + 1, y + 3, CELL - 3, 6);
      }
      if (d.wb.length) {
        const w = d.wb[0][0];
        const fill = WARP_HUES[w % WARP_HUES.length];
        ctx.fillStyle = fill;
        ctx.fillRect(x + 2, y + 10, CELL - 5, 15);
        text(ctx, d.wb.length > 1 ? `${w}+` : w, x + CELL / 2 - 1, y + 18, { font: FONT_SMALL, colour: inkOn(fill), align: 'center' });
      }
      if (d.replay) {
        ctx.fillStyle = stateColour('bank_conflict');
        ctx.fillRect(x + 1, y + ROW_H - 8, CELL - 3, 4);
      }
      if (d.wb.length || d.stall || d.replay) cells.push({ c: own, wb: d.wb.map((x) => [x[0], x[1]]), stall: d.stall, replay: Boolean(d.replay) });
      const tip = [
        `${TITLE[r.mode]}, cycle ${own}${offsets[i] ? ` (aligned with this run's cycle ${c})` : ''}:`,
        d.wb.length ? `wrote back ${d.wb.map(([ww, op, , line]) => `W${ww} ${op} (${lineTag(app, line)})`).join(', ')}` : 'nothing wrote back',
        d.stall ? `issue stalled: ${d.stall}` : null,
        d.replay ? `MEM0: W${d.replay[0]} ${d.replay[1]} replaying a bank conflict` : null,
        `Click: go to cycle ${c}.`,
      ].filter(Boolean).join('\n');
      region(canvas, x, y, CELL, ROW_H, tip, () => app.runTo(c));
    }
    model.rows.push({
      mode: r.mode, current: mine, end: r.end, status: r.status || null, error: r.error || null, offset: offsets[i], firstConflict: f,
      commits: r.cycles.flatMap((x) => x.wb.map(([w, op, pc]) => [x.c, w, op, pc])),
      cells,
    });
  });
  // The shared cursor.
  if (cursor >= start && cursor <= end) {
    const x = x0 + (cursor - start) * CELL;
    box(ctx, x - 1, AXIS_H - 2, CELL + 1, rows.length * ROW_H + 4, { fill: 'transparent', stroke: UI.selected, width: 2 });
  }
  drawLegend(canvas, ctx, width, AXIS_H + rows.length * ROW_H + 4);
  setModel(canvas, model);
}

function drawLegend(canvas, ctx, width, y) {
  let x = 8;
  const item = (draw, label) => {
    draw(x, y);
    text(ctx, label, x + 16, y + 8, { font: FONT_SMALL, colour: UI.muted });
    x += 22 + ctx.measureText(label).width;
  };
  item((lx, ly) => { ctx.fillStyle = stateColour('bank_conflict'); ctx.fillRect(lx, ly + 2, 12, 5); }, 'issue stalled (colour: why)');
  item((lx, ly) => { ctx.fillStyle = WARP_HUES[0]; ctx.fillRect(lx, ly + 1, 12, 13); }, 'n: warp n wrote back');
  item((lx, ly) => { ctx.fillStyle = stateColour('bank_conflict'); ctx.fillRect(lx, ly + 10, 12, 4); }, 'MEM0 replays a bank conflict');
  item((lx, ly) => { box(ctx, lx, ly, 12, 15, { fill: 'transparent', stroke: UI.selected, width: 2 }); }, 'now');
  region(canvas, 0, y, width, LEGEND_H, GLOSSARY.compare);
}
