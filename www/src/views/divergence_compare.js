// The SIMT stack and convergence barriers side by side (book §3.1.1 vs §3.1.2), under the SIMT
// stack / warp-split view: a button runs this kernel twice more (app.compareDivergence: two extra
// Sessions with core.divergence overridden, run to the end or a cycle cap, then freed), and this
// strip draws one row per mode: how the run ended, as that session reported it (its status, the
// cycle, the error's first line, the buffers the example watches, the report's SIMT figures),
// and per cycle the lanes of the selected warp that issued an instruction (from the model's
// issue trace, Session.takeIssues). Both rows share one cycle axis, so their lengths compare.
import { prepare, region, text, textWidth, FONT_SMALL, FONT_BOLD, setModel } from '../canvas.js';
import { OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { lineText } from './source_line.js';

const LABEL_W = 12;
const HEAD_H = 36;
const AXIS_H = 16;

export const TITLE = { stack: 'SIMT stack', convergence_barriers: 'Convergence barriers' };

export const DIVERGENCE_BAR = '<div class="compare-bar divergence-bar"><button class="divergence-run" title="Run this kernel again with core.divergence = stack and with core.divergence = convergence_barriers (two extra simulations) and draw the two runs side by side">Compare stack / convergence barriers</button><span class="note divergence-note">the same kernel under both reconvergence mechanisms</span></div>';

export function createDivergenceCompare(el, app) {
  const bar = el.querySelector('.divergence-bar');
  const note = el.querySelector('.divergence-note');
  let canvas = null;
  el.querySelector('.divergence-run').addEventListener('click', () => app.compareDivergence());

  function draw(frame) {
    const cmp = frame.divergence;
    if (!cmp) {
      note.textContent = 'the same kernel under both reconvergence mechanisms';
      if (canvas) canvas.remove();
      canvas = null;
      return;
    }
    if (!canvas) {
      canvas = document.createElement('canvas');
      canvas.className = 'compare divergence-strip';
      bar.after(canvas);
    }
    drawStrip(canvas, frame, cmp, app, note);
  }
  return { draw };
}

// The outcome line of one run, from what its session reported.
export function outcomeText(r) {
  if (r.error && !r.status) return `did not start: ${r.error}`;
  if (r.status === 'completed') return `completed in ${r.cycles} cycles`;
  if (r.status === 'failed') return `${firstErrorLine(r).startsWith('deadlock') ? 'deadlock reported' : 'failed'} at cycle ${r.cycles}`;
  return `still running at cycle ${r.cycles} (the comparison stops at ${r.cap} cycles)`;
}

// The report's error, first line ("deadlock: no forward progress for ..."), or ''.
function firstErrorLine(r) {
  return r.report && r.report.error ? r.report.error.split('\n')[0] : '';
}

function detailText(r) {
  const parts = [];
  if (r.status === 'failed') parts.push(firstErrorLine(r).replace(/^deadlock: /, ''));
  for (const wv of r.watched) parts.push(`${wv.name} = ${wv.value == null ? '?' : wv.value}`);
  const simt = r.report && r.report.simt;
  if (simt) {
    parts.push(`average active lanes ${simt.average_active_lanes.toFixed(2)}`);
    if (simt.splits) parts.push(`yields ${simt.splits.yields}`, `thread groups per divergent branch ${Number(simt.splits.groups_per_divergent_branch).toFixed(2)}`);
    else parts.push(`max stack depth ${simt.max_stack_depth}`);
  }
  parts.push(`${r.issues.length} issues of warp ${r.warp}`);
  return parts.join(' · ');
}

function drawStrip(canvas, frame, cmp, app, note) {
  const rows = cmp.rows;
  const lanes = Math.max(1, cmp.warpSize);
  const laneH = Math.max(1, Math.min(6, Math.floor(48 / lanes)));
  const stripH = lanes * laneH + 4;
  const rowH = HEAD_H + stripH + 6;
  const height = rows.length * rowH + AXIS_H + 4;
  const { ctx, width } = prepare(canvas, height);
  const x0 = LABEL_W;
  const plotW = Math.max(50, width - x0 - 8);
  const last = Math.max(1, ...rows.map((r) => r.cycles || 0));
  // One cycle axis for both rows: the longer run fills the width (several pixels a cycle for a
  // short kernel, several cycles a pixel for a long one).
  const scale = plotW / (last + 1);
  const xOf = (c) => x0 + Math.floor(c * scale);
  const colW = Math.max(1, Math.floor(scale) - (scale >= 3 ? 1 : 0));
  const cursor = frame.snap.cycle;
  const mode = frame.config && frame.config.core ? frame.config.core.divergence : null;
  const res = scale >= 1 ? `${Math.floor(scale)} px a cycle` : `${Math.ceil(1 / scale)} cycles a pixel`;
  note.textContent = `warp ${cmp.warp} of SM ${cmp.sm} · ${res} · hover a row for its report, click to go to that cycle`;
  const model = { warp: cmp.warp, sm: cmp.sm, rows: [] };
  rows.forEach((r, i) => {
    const y = i * rowH;
    const mine = r.mode === mode;
    const outcome = outcomeText(r);
    const colour = r.status === 'completed' ? OKABE.green : r.status === 'failed' ? OKABE.vermillion : UI.muted;
    text(ctx, `${TITLE[r.mode]}${mine ? ' (this run\'s mode)' : ''}:`, 8, y + 9, { font: FONT_BOLD, colour: UI.accent, maxWidth: 340 });
    const tw = Math.min(340, textWidth(ctx, `${TITLE[r.mode]}${mine ? ' (this run\'s mode)' : ''}:`, FONT_BOLD));
    const outcomeDrawn = text(ctx, outcome, 16 + tw, y + 9, { font: FONT_BOLD, colour, maxWidth: width - tw - 24 });
    text(ctx, detailText(r), 8, y + 26, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
    region(canvas, 0, y, width, HEAD_H, `${GLOSSARY.compareDivergence}\n\nThis row: ${r.sets.join(' ')} on top of this run's configuration.\n${r.report && r.report.error ? r.report.error : outcome}`);
    // The strip: one line per lane, each cycle at its place on the shared axis.
    const sy = y + HEAD_H;
    ctx.fillStyle = '#12161c';
    ctx.fillRect(x0, sy, plotW, stripH);
    ctx.fillStyle = '#1c232c';
    ctx.fillRect(x0, sy, xOf(r.cycles) - x0, stripH);
    ctx.fillStyle = OKABE.green;
    for (const ev of r.issues) {
      const x = xOf(ev.cycle);
      ev.lanes.forEach((on, l) => { if (on) ctx.fillRect(x, sy + 2 + l * laneH, colW, Math.max(1, laneH - (laneH > 2 ? 1 : 0))); });
    }
    // The end of the run: a bar in the outcome's colour.
    if (r.status === 'completed' || r.status === 'failed') {
      ctx.fillStyle = colour;
      ctx.fillRect(xOf(r.cycles), sy - 2, 3, stripH + 4);
    }
    if (cursor <= last) {
      ctx.fillStyle = UI.selected;
      ctx.fillRect(xOf(cursor), sy - 3, 2, stripH + 6);
    }
    // Hover and click: a region per cycle when a cycle is 4 px or wider, else per 4 px.
    const span = Math.max(1, Math.ceil(4 / scale));
    for (let c0 = 0; c0 <= r.cycles; c0 += span) {
      const c1 = Math.min(r.cycles, c0 + span - 1);
      const evs = r.issues.filter((e) => e.cycle >= c0 && e.cycle <= c1);
      const range = c1 > c0 ? `cycles ${c0}-${c1}` : `cycle ${c0}`;
      const tip = `${TITLE[r.mode]}, ${range}: ${evs.length ? evs.slice(0, 8).map((e) => `cycle ${e.cycle}: ${lineText(app, e.line)}, lanes ${e.mask}`).join('\n') : 'no instruction of this warp issued'}${evs.length > 8 ? `\n… ${evs.length - 8} more` : ''}\nClick: go to cycle ${c0} in the run on screen.`;
      region(canvas, xOf(c0), sy, Math.max(1, xOf(c1 + 1) - xOf(c0)), stripH, tip, () => app.runTo(c0));
    }
    model.rows.push({
      mode: r.mode, current: mine, status: r.status, cycles: r.cycles, outcome, outcomeDrawn, error: r.report ? r.report.error : r.error || null,
      watched: Object.fromEntries(r.watched.map((wv) => [wv.name, wv.value])),
      issues: r.issues.length,
      lanesIssued: r.issues.reduce((a, e) => a + e.lanes.filter(Boolean).length, 0),
    });
  });
  // Axis and the current cycle of the run on screen.
  const ay = rows.length * rowH;
  const tick = [5, 10, 20, 50, 100, 200, 500, 1000, 2000, 5000, 10000].find((t) => t * scale >= 70) || 20000;
  for (let c = 0; c <= last; c += tick) {
    ctx.fillStyle = UI.boxLine;
    ctx.fillRect(xOf(c), ay, 1, 4);
    text(ctx, c, xOf(c) + 2, ay + 9, { font: FONT_SMALL, colour: UI.muted });
  }
  model.cursor = cursor;
  setModel(canvas, model);
}
