// Warp-split view (independent thread scheduling, book §3.1.2, Figs. 3.6-3.11), drawn by the SIMT
// stack panel when the snapshot's warps carry `splits` (core.divergence = convergence_barriers).
// Everything drawn is read from the snapshot: per thread (lane) its state and rPC with its PTX
// line; each convergence barrier's participation mask and barrier state (arrivals) as lane
// squares; the split selected to issue next (outlined); the ready splits; the YIELD counter. At
// the right, a compact summary of every warp's splits (click one to select it). PTX lines are
// named with their CUDA line when the program has one (source_line.js).
import { region, box, text, FONT_BOLD, FONT_SMALL } from '../canvas.js';
import { drawWarpGrid } from './warp_grid.js';
import { OKABE, UI, inkOn } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { askWhyLane } from '../dom.js';
import { cudaLine, lineTag, lineText, pcTag } from './source_line.js';

export const SPLITS_HEIGHT = 290;
const LABEL_W = 122;
const ROW = 22;

// Thread states: colour, short text in the lane square, and the glossary entry.
const STATES = {
  ready: { fill: OKABE.sky, short: 'R', tip: GLOSSARY.threadReady },
  blocked: { fill: OKABE.purple, short: 'B', tip: GLOSSARY.threadBlocked },
  yielded: { fill: OKABE.orange, short: 'Y', tip: GLOSSARY.threadYielded },
  warp_sync: { fill: OKABE.yellow, short: 'S', tip: GLOSSARY.threadWarpSync },
  exited: { fill: '#44505e', short: 'E', tip: GLOSSARY.threadExited },
};
const stateOf = (name) => STATES[name] || { fill: '#777777', short: '?', tip: name };
const stateText = (t) => (t.state === 'blocked' ? `blocked at B${t.barrier}` : t.state);
const shortText = (t) => (t.state === 'blocked' ? `B${t.barrier}` : stateOf(t.state).short);

// "0-3,8,10-11": the lanes set in `lanes`.
export function laneRanges(lanes) {
  const out = [];
  let start = -1;
  for (let l = 0; l <= lanes.length; l++) {
    if (l < lanes.length && lanes[l]) {
      if (start < 0) start = l;
    } else if (start >= 0) {
      out.push(l - 1 > start ? `${start}-${l - 1}` : `${start}`);
      start = -1;
    }
  }
  return out.length ? out.join(',') : 'none';
}

// The snapshot's thread groups (state, barrier, rPC; exited threads are not a group) as lines:
// "ready, rPC 8 (L37): lanes 0-3", or "ready, rPC 8 (L43 · CUDA 7): lanes 0-3".
function groupLines(s, app) {
  return s.groups.map((g) => ({ g, label: `${stateText(g)}, rPC ${g.rpc} (${lineTag(app, g.line)}): lanes ${laneRanges(g.lanes)}` }));
}

export function drawSplits(canvas, ctx, width, height, w, warp, before, warpSize, app = null) {
  const title = `Warp ${warp}${w ? ` (CTA ${w.cta.join(',')}, warp ${w.warp_in_cta})` : ''}: warp splits`;
  text(ctx, title, 8, 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 190 });
  region(canvas, 8, 2, width - 190, 20, GLOSSARY.splits);
  if (!w || !w.splits) {
    text(ctx, w ? 'This warp has no split state.' : 'No warp in this slot.', 8, 44, { colour: UI.muted });
    return;
  }
  const s = w.splits;
  drawYield(canvas, ctx, width, s);

  const x0 = LABEL_W + 8;
  const n = Math.max(1, s.threads.length || warpSize);
  const size = Math.max(8, Math.min(34, Math.floor((width - x0 - 8) / n) - 2));
  const step = size + 2;
  const lanesEnd = x0 + n * step;
  const room = width - lanesEnd - 8; // for text right of the lane squares
  const laneX = (l) => x0 + l * step;
  const sel = s.selected ? s.selected.lanes : s.threads.map(() => false);

  // Lane numbers.
  let y = 30;
  text(ctx, 'lane', 8, y, { font: FONT_SMALL, colour: UI.muted, maxWidth: LABEL_W });
  const every = size >= 16 ? 1 : size >= 10 ? 4 : 8;
  for (let l = 0; l < n; l += every) text(ctx, l, laneX(l) + size / 2, y, { font: FONT_SMALL, colour: UI.muted, align: 'center' });
  const policyText = `split policy: ${s.policy}`;
  if (room > 60) text(ctx, policyText, lanesEnd + 4, y, { font: FONT_SMALL, colour: UI.muted, maxWidth: room });
  else text(ctx, s.policy, 8 + 36, y, { font: FONT_SMALL, colour: UI.muted, maxWidth: LABEL_W - 36 });
  region(canvas, lanesEnd, y - 8, Math.max(0, room), 16, `${policyText} (core.split_policy).\n\n${GLOSSARY.splitSelected}`);

  // Thread states, the selected split outlined.
  y = 40;
  text(ctx, 'thread state', 8, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.text, maxWidth: LABEL_W });
  region(canvas, 8, y, LABEL_W, ROW, `${GLOSSARY.splits}\n\n${Object.values(STATES).map((x) => x.tip).join('\n')}`);
  s.threads.forEach((t, l) => {
    const st = stateOf(t.state);
    const x = laneX(l);
    const old = before && before.threads[l];
    const changed = old && (old.state !== t.state || old.rpc !== t.rpc || old.barrier !== t.barrier);
    box(ctx, x, y, size, ROW - 2, { fill: st.fill, stroke: sel[l] ? UI.selected : changed ? UI.changed : '#10141a', width: sel[l] ? 3 : changed ? 2 : 1 });
    if (size >= 14) text(ctx, shortText(t), x + size / 2, y + ROW / 2 - 1, { font: FONT_SMALL, colour: inkOn(st.fill), align: 'center', maxWidth: size });
    region(canvas, x, y, step, ROW, `Lane ${l}: ${stateText(t)}, rPC ${t.rpc} (${lineText(app, t.line)})${sel[l] ? '; in the split that issues next' : ''}${changed ? '; changed this cycle' : ''}.\n\n${st.tip}\n${GLOSSARY.threadRpc}\n\nClick: why is this lane (not) running? (the Why? panel)`, () => askWhyLane(canvas, l));
  });

  // rPC per lane (its PTX line) where the squares are wide enough; the groups below say it too.
  y += ROW;
  text(ctx, 'rPC (line)', 8, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.text, maxWidth: LABEL_W });
  region(canvas, 8, y, LABEL_W, ROW, GLOSSARY.threadRpc);
  if (size >= 24) {
    s.threads.forEach((t, l) => text(ctx, `L${t.line}`, laneX(l) + size / 2, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.text, align: 'center', maxWidth: size + 1 }));
  } else {
    text(ctx, 'see the thread groups below (hover a lane)', x0, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - x0 });
  }

  // Convergence barriers: participation and arrivals, one row each.
  y += ROW + 4;
  const maxBarriers = 3;
  if (!s.barriers.length) {
    text(ctx, 'barriers: none placed in this kernel', 8, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.muted });
    y += ROW;
  }
  s.barriers.slice(0, maxBarriers).forEach((b) => {
    const parts = b.participants.filter(Boolean).length;
    const arrived = b.arrivals.filter(Boolean).length;
    const state = parts ? `${arrived} of ${parts} arrived` : 'idle (no participants)';
    const tip = `${GLOSSARY.convergenceBarrier}\n\nB${b.id}: participation ${b.participation}, arrived ${b.arrived}: ${state}.`;
    text(ctx, `B${b.id} participation`, 8, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.text, maxWidth: LABEL_W });
    region(canvas, 8, y, LABEL_W, ROW, `${GLOSSARY.participation}\n\n${tip}`);
    laneRow(canvas, ctx, laneX, size, y, b.participants, OKABE.blue, (l, on) => `Lane ${l}: ${on ? 'participates in' : 'not in'} B${b.id}.\n\n${GLOSSARY.participation}`);
    if (room > 60) text(ctx, b.participation, lanesEnd + 4, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.muted, maxWidth: room });
    y += ROW;
    text(ctx, `B${b.id} arrived`, 8, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.text, maxWidth: LABEL_W });
    region(canvas, 8, y, LABEL_W, ROW, `${GLOSSARY.arrival}\n\n${tip}`);
    laneRow(canvas, ctx, laneX, size, y, b.arrivals, OKABE.purple, (l, on) => `Lane ${l}: ${on ? 'arrived at' : 'not arrived at'} WAIT B${b.id}.\n\n${GLOSSARY.arrival}`);
    if (room > 60) text(ctx, `${b.arrived} · ${state}`, lanesEnd + 4, y + ROW / 2 - 1, { font: FONT_SMALL, colour: parts && arrived ? OKABE.purple : UI.muted, maxWidth: room });
    y += ROW;
  });
  if (s.barriers.length > maxBarriers) {
    text(ctx, `+${s.barriers.length - maxBarriers} more barrier registers (hover the compact column)`, 8, y + 8, { font: FONT_SMALL, colour: UI.muted });
    y += 16;
  }

  // The split that issues next.
  y += 4;
  text(ctx, 'issues next', 8, y + ROW / 2 - 1, { font: FONT_BOLD, colour: UI.selected, maxWidth: LABEL_W });
  region(canvas, 8, y, LABEL_W, ROW, GLOSSARY.splitSelected);
  if (s.selected) {
    laneRow(canvas, ctx, laneX, size, y, s.selected.lanes, OKABE.green, (l, on) => `Lane ${l}: ${on ? 'in' : 'not in'} the split that issues next (PC ${s.selected.pc}, ${lineText(app, s.selected.line)}).\n\n${GLOSSARY.splitSelected}`, UI.selected);
    if (room > 60) text(ctx, `PC ${pcTag(app, s.selected.pc)} (${lineTag(app, s.selected.line)})`, lanesEnd + 4, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.selected, maxWidth: room });
  } else {
    text(ctx, 'none: every thread has exited or is blocked', x0, y + ROW / 2 - 1, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - x0 });
  }
  y += ROW + 4;

  // Ready splits and thread groups as text.
  const lines = [];
  const readyText = s.ready.length
    ? s.ready.map((r) => `PC ${pcTag(app, r.pc)} (${lineTag(app, r.line)}) ${r.mask}${s.selected && r.pc === s.selected.pc ? ' ◀ next' : ''}`).join('  ·  ')
    : 'none';
  lines.push({ label: `ready: ${s.ready.length}`, body: readyText, tip: GLOSSARY.split });
  for (const { g, label } of groupLines(s, app)) lines.push({ label: 'threads', body: label, tip: `${stateOf(g.state).tip}\n${GLOSSARY.threadRpc}`, colour: stateOf(g.state).fill });
  const bottom = height - 22;
  for (const ln of lines) {
    if (y + 16 > bottom) {
      text(ctx, '… (hover the lanes for every thread)', 8, y + 6, { font: FONT_SMALL, colour: UI.muted });
      break;
    }
    if (ln.colour) {
      ctx.fillStyle = ln.colour;
      ctx.fillRect(8, y + 1, 10, 10);
    }
    text(ctx, ln.label, ln.colour ? 22 : 8, y + 6, { font: FONT_SMALL, colour: UI.muted, maxWidth: LABEL_W - 14 });
    text(ctx, ln.body, x0, y + 6, { font: FONT_SMALL, colour: UI.text, maxWidth: width - x0 - 4 });
    region(canvas, 8, y - 2, width - 16, 16, ln.tip);
    y += 17;
  }
  drawLegend(canvas, ctx, width, height - 10);
}

function laneRow(canvas, ctx, laneX, size, y, lanes, fill, tip, outline) {
  lanes.forEach((on, l) => {
    const x = laneX(l);
    box(ctx, x, y + 2, size, ROW - 6, { fill: on ? fill : '#1a2029', stroke: on ? outline || '#10141a' : '#5b6672', width: on && outline ? 2 : 1 });
    region(canvas, x, y, size + 2, ROW, tip(l, on));
  });
}

// The YIELD counter (Fig. 3.11): instructions without progress against core.yield_after.
function drawYield(canvas, ctx, width, s) {
  const x = width - 182;
  const label = s.yield_after ? `YIELD ${s.without_progress}/${s.yield_after}` : `YIELD off (${s.without_progress})`;
  text(ctx, label, x, 12, { font: FONT_SMALL, colour: s.yield_after && s.without_progress ? OKABE.orange : UI.muted, maxWidth: 100 });
  const bx = x + 106;
  const bw = 70;
  box(ctx, bx, 6, bw, 12, { fill: '#1a2029', stroke: UI.boxLine });
  if (s.yield_after) {
    ctx.fillStyle = OKABE.orange;
    ctx.fillRect(bx + 1, 7, Math.max(0, Math.min(1, s.without_progress / s.yield_after)) * (bw - 2), 10);
  }
  region(canvas, x, 2, 182, 20, `${GLOSSARY.yield}\n\nInstructions without progress: ${s.without_progress}; the split yields at ${s.yield_after || 'never (core.yield_after = 0)'}.`);
}

function drawLegend(canvas, ctx, width, y) {
  let x = 8;
  for (const [name, st] of Object.entries(STATES)) {
    ctx.fillStyle = st.fill;
    ctx.fillRect(x, y - 5, 10, 10);
    const label = `${name === 'blocked' ? 'Bn' : st.short} ${name}`;
    text(ctx, label, x + 14, y, { font: FONT_SMALL, colour: UI.muted });
    const w = ctx.measureText(label).width + 26;
    region(canvas, x, y - 7, w, 14, st.tip);
    x += w;
  }
  box(ctx, x, y - 6, 12, 12, { fill: 'transparent', stroke: UI.selected, width: 2 });
  text(ctx, 'issues next', x + 16, y, { font: FONT_SMALL, colour: UI.muted });
  region(canvas, x, y - 7, 100, 14, GLOSSARY.splitSelected);
}

// Every warp slot's splits: one bar per ready split (its share of the lanes; the selected one
// green), and a bottom bar of the threads blocked (purple), yielded (orange) and exited (grey).
export function drawAllSplits(canvas, ctx, x0, width, height, frame, app) {
  const layout = { x0, width, height, title: 'Warps (splits)' };
  drawWarpGrid(canvas, ctx, layout, frame, app, (w, i, x, y, cw, ch) => {
    const s = w.splits;
    if (!s) return `Warp slot ${i}: no split state.`;
    const n = s.threads.length || 1;
    const count = (st) => s.threads.filter((t) => t.state === st).length;
    const bh = Math.max(2, Math.min(10, Math.floor((ch - 30) / Math.max(1, s.ready.length))));
    s.ready.forEach((r, k) => {
      const frac = r.lanes.filter(Boolean).length / n;
      const ry = y + 18 + k * (bh + 1);
      if (ry + bh > y + ch - 10) return;
      ctx.fillStyle = '#3d4a59';
      ctx.fillRect(x + 3, ry, cw - 6, bh);
      ctx.fillStyle = s.selected && r.pc === s.selected.pc ? OKABE.green : OKABE.sky;
      ctx.fillRect(x + 3, ry, Math.max(1, (cw - 6) * frac), bh);
    });
    let bx = x + 3;
    for (const [st, fill] of [['blocked', OKABE.purple], ['yielded', OKABE.orange], ['warp_sync', OKABE.yellow], ['exited', '#5b6672']]) {
      const bw = ((cw - 6) * count(st)) / n;
      ctx.fillStyle = fill;
      ctx.fillRect(bx, y + ch - 8, bw, 5);
      bx += bw;
    }
    return `Warp slot ${i}: ${s.ready.length} ready split${s.ready.length === 1 ? '' : 's'}${s.selected ? `; issues next: PC ${s.selected.pc} (${lineText(app, s.selected.line)}), lanes ${s.selected.mask}` : ''}; threads blocked ${count('blocked')}, yielded ${count('yielded')}, exited ${count('exited')}; YIELD counter ${s.without_progress}/${s.yield_after}.\nBars: one per ready split, filled by its share of the lanes (green: issues next); bottom: blocked (purple), yielded (orange), warp_sync (yellow), exited (grey). Click to select.`;
  });
}

// What the view draws, for the e2e tests (the canvas's data-model).
export function splitsModel({ snap, warp }, app = null) {
  const w = snap.sm.warps[warp];
  const s = w && w.splits;
  return {
    mode: 'splits',
    warp,
    cycle: snap.cycle,
    policy: s ? s.policy : null,
    threads: s ? s.threads.map((t, lane) => ({ lane, state: t.state, barrier: t.barrier, rpc: t.rpc, line: t.line })) : [],
    groups: s ? groupLines(s, app).map((x) => x.label) : [],
    barriers: s ? s.barriers.map((b) => ({ id: b.id, participation: b.participation, arrived: b.arrived })) : [],
    selected: s && s.selected ? { pc: s.selected.pc, line: s.selected.line, mask: s.selected.mask } : null,
    // The CUDA line of the split that issues next (0: none), as the view names it.
    selectedCudaLine: s && s.selected ? cudaLine(app, s.selected.line) : 0,
    ready: s ? s.ready.map((r) => ({ pc: r.pc, line: r.line, mask: r.mask })) : [],
    yield: s ? { without_progress: s.without_progress, yield_after: s.yield_after } : null,
    all: snap.sm.warps.map((x, slot) => (x && x.splits ? { slot, splits: x.splits.ready.length, selected: x.splits.selected ? x.splits.selected.mask : null } : { slot, splits: null })),
  };
}
