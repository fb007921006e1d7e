// MRPB queues (MODEL.md sections 10 and 12): the selected SM's memory request prioritization
// buffer as the model's snapshot (sm.mrpb) holds it. One row per queue (two columns when there
// are many), head on the left: each slot coloured and labelled by the warp whose request it
// holds, with a bar for its age against the buffer latency (outlined once it may leave), and
// the L1D set the head request maps to. Above: the configuration, the queue served this cycle
// and why (drain policy, full-queue drain, write flush, retry), the outbound request on its way
// to the L1D, and a request that bypassed the L1D this cycle, drawn on its way to the L2.
// A "set N" label links that L1D set to the Memory view (a click; again to unlink).
import { prepare, region, box, text, arrow, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const WARP_HUES = [OKABE.orange, OKABE.sky, OKABE.green, OKABE.yellow, OKABE.blue, OKABE.vermillion, OKABE.purple, '#9fe0c9'];
const HEADER_H = 78;
const ROW_H = 16;
// Presentation mode's large panel (issue 30): the queues in columns of at most PRESENT_ROWS rows
// of PRESENT_ROW_H, so that 48 queues (one per warp) stand whole above the caption at 1280x720.
const PRESENT_ROW_H = 15;
const PRESENT_ROWS = 16;
const LABEL_W = 34;
const SET_W = 52;

const WHY = {
  policy: (m) => `the drain policy (${DRAIN[m.drain]})`,
  full_queue: () => 'a full-queue drain: a read met this queue full (flush)',
  flush: () => 'a write flush: a store waits for this queue to empty (flush)',
  retry: () => 'a retry: the L1D refused this request last cycle',
  write: () => 'the held write: no queued read was ready (flush: writes wait in the write register, unqueued)',
};

const DRAIN = {
  fixed: 'fixed order: the lowest queue with a ready head',
  round_robin: 'round robin over the queues with a ready head',
  longest_first: 'the longest queue with a ready head',
  greedy_fixed: 'greedy fixed order: empty the chosen queue first',
  greedy_round_robin: 'greedy round robin: empty the chosen queue first',
  greedy_longest_first: 'greedy longest first: empty the chosen queue first',
};

export const MRPB_HELP = {
  signature: 'Signature: which queue a request enters. warp: one queue per hardware warp; block: one per thread block; warp_in_block: the i-th warp of every block shares queue i; single: one queue, no reordering.',
  drain: 'Drain policy: which queue sends its head to the L1D each cycle. Fixed order serves the lowest-numbered queue whose head has waited the buffer latency, so one warp\'s requests reach the cache together.',
  flush: 'Flush: a read that meets a full queue makes that queue drain first; a store does not enter a queue: its queue empties first, then the store waits in the write register until no queued read is ready, and goes to the L1D.',
  bypass: 'Bypass: a global read the L1D refuses (assoc: every way of its set waits for a fill) goes straight to the L2 and fills only registers, instead of stalling the memory stage.',
};

function warpFill(w) {
  return WARP_HUES[w % WARP_HUES.length];
}

export function createMrpbView(el, app) {
  const canvas = el.querySelector('canvas');
  function draw({ snap, config, linked }) {
    const m = snap.sm.mrpb;
    if (!m) {
      drawOff(canvas, Boolean(config && config.mrpb && config.mrpb.enabled));
      return;
    }
    const presented = el.dataset.present === 'main';
    const rowH = presented ? PRESENT_ROW_H : ROW_H;
    const cols = presented ? Math.max(1, Math.ceil(m.queues.length / PRESENT_ROWS)) : m.queues.length > 16 ? 2 : 1;
    const rows = Math.ceil(m.queues.length / cols);
    const { ctx, width } = prepare(canvas, HEADER_H + rows * rowH + 8);
    const link = { app, linked: linked || null };
    drawHeader(canvas, ctx, width, m, link);
    const colW = Math.floor((width - 16) / cols);
    const cell = Math.max(10, Math.min(34, Math.floor((colW - LABEL_W - SET_W - 12) / Math.max(1, m.depth))));
    m.queues.forEach((q, i) => {
      const x = 8 + Math.floor(i / rows) * colW;
      const y = HEADER_H + (i % rows) * rowH;
      drawQueue(canvas, ctx, x, y, cell, rowH, i, q, m, link);
    });
    setModel(canvas, {
      enabled: true,
      queues: m.queues.map((q) => q.map((e) => e.warp)),
      heads: m.queues.map((q) => (q.length ? q[0].set : null)),
      choice: m.choice ? { queue: m.choice[0], why: m.choice[1] } : null,
      outbound: m.outbound ? m.outbound[0] : null,
      flushing: m.flushing,
      bypassed: m.bypassed ? { reason: m.bypassed[0], warp: m.bypassed[1].warp } : null,
      stats: m.stats,
      linked: linked ? linked.key : null,
    });
  }
  return { draw };
}

function drawOff(canvas, on) {
  const { ctx, width } = prepare(canvas, 84);
  box(ctx, 8, 6, width - 16, 72, { fill: '#161b22', dash: [6, 4] });
  text(ctx, on ? 'MRPB is on: its queues appear once the kernel runs.' : 'MRPB is off in this configuration (mrpb.enabled = false).', 18, 26, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 40 });
  text(ctx, 'Switch it on in the Setup tab (or --set mrpb.enabled=true) to see one row per queue: slots by warp, age, the queue chosen each cycle and why.', 18, 54, { colour: UI.muted, maxWidth: width - 40 });
  region(canvas, 8, 6, width - 16, 72, GLOSSARY.mrpb);
  setModel(canvas, { enabled: false });
}

function drawHeader(canvas, ctx, width, m, link) {
  const held = m.queues.reduce((n, q) => n + q.length, 0) + (m.held_write ? 1 : 0);
  const conf = `signature ${m.signature} · ${m.queues.length} queues × ${m.depth} · latency ${m.latency} · drain ${m.drain} · flush ${m.flush ? 'on' : 'off'} · bypass ${m.bypass}`;
  const w = m.held_write ? ` · write register: W${m.held_write[1].warp}'s store (queue ${m.held_write[0]}) waits for the ready reads` : '';
  text(ctx, `MRPB of this SM: ${held} request(s) waiting${w}`, 8, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 16 });
  text(ctx, conf, 8, 26, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
  region(canvas, 0, 18, width, 16, `${GLOSSARY.mrpb}\n\n${MRPB_HELP.signature}\n\n${MRPB_HELP.drain}\n\n${MRPB_HELP.flush}\n\n${MRPB_HELP.bypass}`);
  const why = m.choice ? `This cycle: queue ${m.choice[0]} served, by ${WHY[m.choice[1]](m)}.` : (m.flushing != null ? `This cycle: a store waits for queue ${m.flushing} to empty.` : 'This cycle: no queue served (no head has waited the buffer latency, or MEM0 used the L1D).');
  text(ctx, why, 8, 42, { font: FONT_SMALL, colour: m.choice ? UI.text : UI.muted, maxWidth: width - 16 });
  region(canvas, 0, 34, width, 16, m.choice ? MRPB_HELP[m.choice[1] === 'policy' ? 'drain' : 'flush'] : MRPB_HELP.drain);
  drawOutbound(canvas, ctx, width, m, link);
}

// The outbound slot, its way to the L1D, and a bypass drawn as an arrow past the L1D to the L2.
function drawOutbound(canvas, ctx, width, m, link) {
  const y = 52;
  const out = m.outbound ? m.outbound[1] : null;
  const bypassed = m.bypassed ? m.bypassed[1] : null;
  text(ctx, 'outbound', 8, y + 9, { font: FONT_SMALL, colour: UI.muted });
  const shown = out || bypassed;
  const fill = shown ? warpFill(shown.warp) : '#1c232c';
  box(ctx, 70, y, 64, 18, { fill });
  text(ctx, shown ? `W${shown.warp}` : '—', 76, y + 9, { font: FONT_SMALL, colour: shown ? inkOn(fill) : UI.muted });
  box(ctx, 180, y, 44, 18, { fill: '#161b22' });
  text(ctx, 'L1D', 190, y + 9, { font: FONT_SMALL });
  box(ctx, 300, y, 44, 18, { fill: '#161b22' });
  text(ctx, 'L2', 314, y + 9, { font: FONT_SMALL });
  let note = 'nothing on its way';
  if (bypassed) {
    // Over the L1D, to the L2.
    ctx.strokeStyle = OKABE.vermillion;
    ctx.lineWidth = 2;
    ctx.beginPath();
    ctx.moveTo(134, y + 5);
    ctx.lineTo(160, y - 3);
    ctx.lineTo(280, y - 3);
    ctx.stroke();
    arrow(ctx, 280, y - 3, 300, y + 5, OKABE.vermillion);
    note = `W${bypassed.warp}'s read (0x${bypassed.addr.toString(16)}) bypassed the L1D (${m.bypassed[0]} stall): to the L2, filling only registers`;
  } else if (out) {
    arrow(ctx, 134, y + 9, 180, y + 9, m.choice && m.choice[1] === 'retry' ? OKABE.vermillion : UI.arrow);
    note = `W${out.warp}'s ${out.write ? 'store' : 'read'} (0x${out.addr.toString(16)}) refused by the L1D: retried next cycle`;
  }
  text(ctx, note, 356, y + 9, { font: FONT_SMALL, colour: bypassed ? OKABE.vermillion : UI.muted, maxWidth: width - 364 });
  region(canvas, 0, y, width, 20, `${MRPB_HELP.bypass}\n\n${note}.`);
  // The L1D set of the request drawn (between the L1D and the L2 boxes).
  if (bypassed) {
    setLink(canvas, ctx, 228, y + 2, bypassed.set, 'bypassed', `W${bypassed.warp}'s read that bypassed the L1D`, link,
      `W${bypassed.warp}'s read maps to L1D set ${bypassed.set}; the L1D refused it (${m.bypassed[0]} stall), so it went past the L1D to the L2.`);
  } else if (out) {
    setLink(canvas, ctx, 228, y + 2, out.set, 'outbound', `MRPB queue ${m.outbound[0]}'s outbound request`, link,
      `The outbound request (W${out.warp}'s ${out.write ? 'store' : 'read'}, from queue ${m.outbound[0]}) maps to L1D set ${out.set}.`);
  }
}

// A "set N" label: the L1D set a request maps to, linked to the Memory view. A click links the
// set there (the app outlines it in the Memory view); the label of the linked set is drawn in the
// selection colour, and a click on it unlinks the set. Underlined, like a link.
function setLink(canvas, ctx, x, y, set, key, source, link, tip) {
  const on = Boolean(link.linked && link.linked.key === key && link.linked.set === set);
  const label = `set ${set}`;
  text(ctx, label, x + 4, y + 7, { font: FONT_SMALL, colour: on ? UI.selected : UI.text });
  ctx.fillStyle = on ? UI.selected : UI.muted;
  ctx.fillRect(x + 4, y + 13, Math.min(SET_W - 6, ctx.measureText(label).width), 1);
  const what = on ? 'It is linked there: click again to unlink it.' : 'Click to show it in the Memory view.';
  region(canvas, x, y, SET_W, ROW_H, `${tip}\n${what}`, () => link.app.linkSet(set, key, source));
}

function drawQueue(canvas, ctx, x, y, cell, rowH, i, q, m, link) {
  const chosen = m.choice && m.choice[0] === i;
  const flushing = m.flushing === i;
  text(ctx, `q${i}`, x, y + 7, { font: FONT_SMALL, colour: chosen ? UI.accent : q.length ? UI.text : UI.muted });
  const x0 = x + LABEL_W;
  for (let k = 0; k < m.depth; k++) {
    const e = q[k];
    const cx = x0 + k * cell;
    if (!e) {
      box(ctx, cx, y, cell - 2, rowH - 3, { fill: '#1c232c' });
      continue;
    }
    const fill = warpFill(e.warp);
    const ready = e.age >= m.latency;
    box(ctx, cx, y, cell - 2, rowH - 3, { fill, stroke: ready ? '#ffffff' : fill });
    const frac = m.latency ? Math.min(1, e.age / m.latency) : 1;
    ctx.fillStyle = inkOn(fill);
    ctx.fillRect(cx + 2, y + rowH - 6, Math.max(1, (cell - 6) * frac), 2);
    if (cell >= 20) text(ctx, `${e.write ? 's' : ''}${e.warp}`, cx + 3, y + 5, { font: FONT_SMALL, colour: inkOn(fill), maxWidth: cell - 5 });
    region(canvas, cx, y, cell, rowH, `Queue ${i}, slot ${k}${k === 0 ? ' (head)' : ''}: warp ${e.warp}'s ${e.write ? 'store' : 'read'} of 0x${e.addr.toString(16)}, L1D set ${e.set}; ${e.age} cycle(s) in the buffer (${ready ? 'may leave' : `leaves after ${m.latency}`}).`);
  }
  if (chosen || flushing) {
    box(ctx, x0 - 2, y - 1, m.depth * cell + 2, rowH - 1, { fill: 'transparent', stroke: flushing ? OKABE.purple : UI.accent, width: 2 });
  }
  if (q.length) {
    setLink(canvas, ctx, x0 + m.depth * cell, y, q[0].set, `q${i}`, `MRPB queue ${i}'s head`, link, `The head request of queue ${i} maps to L1D set ${q[0].set}.`);
  }
}
