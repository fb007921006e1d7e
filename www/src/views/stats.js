// Stats view (MODEL.md section 12): IPC and L1 hit rate over time (uPlot line plots), the
// conflict-degree histogram, the memory counters (L1D, L2, DRAM, interconnect, shared memory) and
// the stall breakdown. Every number comes from the model: the snapshot's counters, and the rate
// history the simulator samples itself every few cycles (`Session.rateHistory`, read through
// `historyPoints`). While running, the panel redraws at most five times a second
// (a plot cannot be read faster); a step or a pause always redraws it.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { prepare, region, text, FONT_SMALL, FONT_BOLD, setModel } from '../canvas.js';
import { stateColour, OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const AXIS = { stroke: UI.muted, grid: { stroke: '#2b3440' }, ticks: { stroke: '#2b3440' }, font: '12px system-ui' };
const PLOT_H = 150;
const RUNNING_MS = 200;
// The counters and the stall bars as presentation mode's large panel lays them out for the room
// above the caption at 1280x720 (issue 30): rows closer together, the stall bars and the
// histogram as tall as the bars need, the counter rows the lessons cite (the detail rows, L1I,
// L1C, DRAM bus and interconnect, stay in the normal layout); style.css hides the plots.
const ROWS = { normal: { counter: 22, counterTop: 30, stall: 20, stallTop: 22 }, presented: { counter: 18, counterTop: 26, stall: 17, stallTop: 21 } };
const DETAIL_ROWS = new Set(['L1I', 'L1C', 'DRAM bus', 'interconnect']);

export function createStatsView(el, app) {
  el.querySelector('.export-csv').addEventListener('click', (e) => {
    e.currentTarget.blur();
    app.exportCountersCsv();
  });
  const ipcBox = el.querySelector('.plot-ipc');
  const hitBox = el.querySelector('.plot-hit');
  const bars = el.querySelector('canvas.stalls');
  const hist = el.querySelector('canvas.histogram');
  const counters = el.querySelector('canvas.counters');
  hitBox.title = GLOSSARY.hitrate;
  const plots = { ipc: null, hit: null, len: -1, w: 0 };
  function key({ snap, sm, running, now }) {
    return running ? `run:${Math.floor(now / RUNNING_MS)}` : `${sm}:${snap.cycle}:${snap.status}`;
  }
  function draw({ snap, history }) {
    const presented = el.dataset.present === 'main';
    drawPlots(plots, ipcBox, hitBox, history);
    const stallsH = drawStalls(bars, snap, presented);
    drawHistogram(hist, snap, presented ? Math.max(110, stallsH) : 170);
    drawCounters(counters, snap, presented);
    setModel(el, { ipc: snap.stats.ipc, samples: history.length, historyEnd: history.length ? history[history.length - 1].cycle : null, stalls: snap.stats.stalls, degrees: snap.sm.stats.conflict_degrees || [], l1: snap.stats.l1d, l2: snap.stats.l2, dram: snap.stats.dram, sm: snap.sm.id, perSm: (snap.stats.per_sm || [])[snap.sm.id] || null });
  }
  return { draw, key };
}

function drawPlots(plots, ipcBox, hitBox, history) {
  const w = Math.max(200, ipcBox.clientWidth - 4);
  if (!plots.ipc) {
    plots.ipc = makePlot(ipcBox, w, [{ label: 'interval', stroke: OKABE.sky, width: 2 }, { label: 'whole run', stroke: OKABE.orange, width: 2, dash: [6, 4] }], {});
    plots.hit = makePlot(hitBox, w, [{ label: 'interval', stroke: OKABE.green, width: 2, spanGaps: true }, { label: 'whole run', stroke: OKABE.vermillion, width: 2, dash: [6, 4] }], { range: [0, 1] });
  }
  if (plots.w !== w) {
    plots.ipc.setSize({ width: w, height: PLOT_H });
    plots.hit.setSize({ width: w, height: PLOT_H });
    plots.w = w;
  }
  if (history.length === plots.len && history.length && plots.lastCycle === history[history.length - 1].cycle) return;
  const x = history.map((h) => h.cycle);
  plots.ipc.setData([x, history.map((h) => h.ipc), history.map((h) => h.ipcTotal)]);
  plots.hit.setData([x, history.map((h) => h.hit), history.map((h) => h.hitTotal)]);
  plots.len = history.length;
  plots.lastCycle = history.length ? history[history.length - 1].cycle : -1;
}

function makePlot(box, width, series, y) {
  return new uPlot({
    width, height: PLOT_H,
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false }, y },
    axes: [{ ...AXIS, label: 'cycle', size: 36 }, { ...AXIS, size: 40 }],
    series: [{ label: 'cycle' }, ...series],
  }, [[], [], []], box);
}

// Returns the chart's height (layout pixels).
function drawStalls(canvas, snap, presented = false) {
  const g = presented ? ROWS.presented : ROWS.normal;
  const entries = Object.entries(snap.stats.stalls).filter(([, n]) => n > 0 || !presented).sort((a, b) => b[1] - a[1]);
  const { ctx, width, height } = prepare(canvas, g.stallTop + 2 + Math.max(1, entries.length) * g.stall);
  text(ctx, 'Stall breakdown (scheduler-cycles)', 4, 10, { font: FONT_BOLD, colour: UI.accent });
  region(canvas, 0, 0, width, 20, GLOSSARY.stalls);
  const max = Math.max(1, ...entries.map((e) => e[1]));
  const labelW = 150;
  entries.forEach(([name, n], i) => {
    const y = g.stallTop + i * g.stall;
    text(ctx, name, 4, y + 8, { font: FONT_SMALL, colour: UI.text, maxWidth: labelW - 8 });
    ctx.fillStyle = stateColour(name);
    const w = Math.max(1, (width - labelW - 70) * (n / max));
    ctx.fillRect(labelW, y + 1, w, g.stall - 5);
    text(ctx, n, labelW + w + 6, y + 8, { font: FONT_SMALL, colour: UI.muted });
    region(canvas, 0, y, width, g.stall, `${name}: ${n} scheduler-cycles without an issue.`);
  });
  if (!entries.length) text(ctx, 'no stalls yet', 4, 32, { colour: UI.muted });
  return height;
}

function drawHistogram(canvas, snap, tall) {
  const degrees = snap.sm.stats.conflict_degrees || [];
  const { ctx, width, height } = prepare(canvas, tall);
  text(ctx, 'Conflict degrees (shared accesses)', 4, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 8 });
  region(canvas, 0, 0, width, 20, GLOSSARY.histogram);
  const ds = degrees.map((n, d) => [d, n]).filter(([d, n]) => d === 1 || (d > 1 && n > 0));
  if (!ds.length || ds.every(([, n]) => n === 0)) {
    text(ctx, 'no shared-memory accesses yet', 4, 40, { colour: UI.muted });
    return;
  }
  const max = Math.max(1, ...ds.map(([, n]) => n));
  const bw = Math.min(40, Math.floor((width - 20) / ds.length) - 4);
  ds.forEach(([d, n], i) => {
    const x = 10 + i * (bw + 4);
    const h = (height - 60) * (n / max);
    ctx.fillStyle = d === 1 ? OKABE.green : OKABE.vermillion;
    ctx.fillRect(x, height - 22 - h, bw, h);
    text(ctx, d, x + bw / 2, height - 12, { align: 'center', font: FONT_SMALL, colour: UI.muted });
    if (n) text(ctx, n, x + bw / 2, height - 30 - h, { align: 'center', font: FONT_SMALL });
    region(canvas, x, 20, bw + 4, height - 20, `Degree ${d}: ${n} access(es)${d > 1 ? `, each ${d - 1} extra cycle(s) per sub-warp` : ' (conflict free)'}.`);
  });
}

// The memory counters as a small table: one row per level.
function drawCounters(canvas, snap, presented = false) {
  const g = presented ? ROWS.presented : ROWS.normal;
  const st = snap.stats;
  const l1 = st.l1d;
  const pct = (a, b) => (b ? `${((100 * a) / b).toFixed(1)}%` : '—');
  const avg = (total, n) => (n ? (total / n).toFixed(1) : '—');
  const rows = [
    ['L1D', `${l1.accesses} accesses · ${l1.hits} hits (${pct(l1.hits, l1.accesses)}) · ${l1.misses} misses · ${l1.mshr_merges} merged`, GLOSSARY.l1],
    ['L1D fails', `assoc ${l1.reservation_fails.assoc} · mshr ${l1.reservation_fails.mshr} · miss queue ${l1.reservation_fails.miss_queue}`, GLOSSARY.resfail],
    ...(l1.evictions_by ? [['L1D evictions', `of the same warp ${l1.evictions_by.intra_warp} · another warp of its CTA ${l1.evictions_by.cross_warp_intra_block} · another CTA ${l1.evictions_by.cross_warp_cross_block}`, 'Misses that pushed out a line another request had brought in, by whose request that was (MRPB paper section 2.2): the same warp (intra-warp contention: conflict misses within one warp access), another warp of the same thread block, or a warp of another block (cross-warp contention: the warps\' footprints exceed the cache).']] : []),
    ...(st.mrpb ? [['MRPB', `${st.mrpb.enqueued} queued · ${st.mrpb.drained} to L1D · bypassed ${st.mrpb.bypassed.assoc + st.mrpb.bypassed.mshr + st.mrpb.bypassed.miss_queue} · ${st.mrpb.flushes} flushes · ${st.mrpb.full_queue_drains} full-queue drains · stalls: full ${st.mrpb.full_stall_cycles}, flush ${st.mrpb.flush_stall_cycles}`, GLOSSARY.mrpb]] : []),
    ...(st.l1i && st.l1i.accesses ? [['L1I', `${st.l1i.accesses} fetches · ${st.l1i.hits} hits (${pct(st.l1i.hits, st.l1i.accesses)}) · ${st.l1i.misses} misses · ${st.l1i.mshr_merges} merged · fails: mshr ${st.l1i.reservation_fails.mshr}, miss queue ${st.l1i.reservation_fails.miss_queue}`, 'Instruction caches: every SM fetches its warps\' instructions through one (core.icache.model = cache, GPGPU-Sim\'s L1I); a warp whose line misses waits for it.']] : []),
    ...(st.l1c && st.l1c.accesses ? [['L1C', `${st.l1c.accesses} accesses · ${st.l1c.hits} hits (${pct(st.l1c.hits, st.l1c.accesses)}) · ${st.l1c.misses} misses · ${st.l1c.mshr_merges} merged · fails: mshr ${st.l1c.reservation_fails.mshr}, miss queue ${st.l1c.reservation_fails.miss_queue}`, 'Constant caches: parameter and .const loads of every SM (constant.model = cache, GPGPU-Sim\'s L1C); a miss goes to the L2 and DRAM like a global one.']] : []),
    ['L2', `${st.l2.accesses} accesses · ${st.l2.hits} hits (${pct(st.l2.hits, st.l2.accesses)}) · ${st.l2.misses} misses`, 'L2 slices: address-interleaved, shared by every SM (MODEL.md section 9).'],
    ['DRAM', `${st.dram.reads} reads · ${st.dram.writes} writes · row hits ${pct(st.dram.row_hits, st.dram.row_hits + st.dram.row_misses)}`, 'DRAM channels: open-row policy, FR-FCFS scheduling (row hits first, then oldest).'],
    ...(st.dram.busy_cycles ? [['DRAM bus', `data ${pct(st.dram.bus.data, st.dram.busy_cycles)} · column blocked ${pct(st.dram.bus.column_blocked, st.dram.busy_cycles)} · row blocked ${pct(st.dram.bus.row_blocked, st.dram.busy_cycles)} · waits: tRTW ${st.dram.bus.rtw}, tWTR ${st.dram.bus.wtr}, tCCDL ${st.dram.bus.ccdl}, tRCD ${st.dram.bus.rcd + st.dram.bus.rcd_write}`, 'Where the DRAM channels\' busy cycles went, as GPGPU-Sim breaks its bandwidth down: data on the bus; a bank held a request to its open row but no read or write could issue (column blocked); banks only opened or closed rows (row blocked). The waits count, over the column-blocked cycles, the banks held back by each timing: write after read (tRTW), read after write (tWTR), the same bank group (tCCDL), the row just opened (tRCD).']] : []),
    ['interconnect', `${st.icnt.packets} packets · to L2 ${avg(st.icnt.request_cycles, st.icnt.requests)} · to SM ${avg(st.icnt.reply_cycles, st.icnt.replies)} cycles on average · refused ${st.icnt.request_refusals} requests, ${st.icnt.reply_refusals} replies`, 'Interconnect: packets between the SMs and the L2 slices, both ways; the average cycles a request takes from its SM to its L2 slice and a reply back (GPGPU-Sim: avg_icnt2mem_latency, avg_icnt2sh_latency); requests and replies the network refused because the sender\'s injection queue was full.'],
    ['shared', `${st.shared.instructions} instructions · ${st.shared.accesses} accesses · ${st.shared.bank_conflict_cycles} conflict cycles`, GLOSSARY.degree],
  ];
  // With more than one SM, the selected SM's own share (the model's per-SM statistics).
  const mine = (st.per_sm || []).length > 1 ? st.per_sm[snap.sm.id] : null;
  if (mine) {
    const m1 = mine.l1d;
    rows.push([`SM ${mine.sm}`, `${mine.ctas} CTAs done · IPC ${mine.ipc.toFixed(2)} · L1D ${m1.accesses} accesses, ${m1.hits} hits (${pct(m1.hits, m1.accesses)}), ${m1.misses} misses · ${mine.bank_conflict_cycles} conflict cycles`, 'The selected SM\'s own share: CTAs it completed, its thread instructions per cycle, its L1D and its shared-memory conflicts (the rows above are the whole GPU).']);
  }
  const shown = presented ? rows.filter(([name]) => !DETAIL_ROWS.has(name)) : rows;
  const { ctx, width } = prepare(canvas, g.counterTop - 2 + shown.length * g.counter);
  text(ctx, 'Memory counters (whole GPU)', 4, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 8 });
  region(canvas, 0, 0, width, 20, GLOSSARY.memcounters);
  shown.forEach(([name, value, tip], i) => {
    const y = g.counterTop + i * g.counter;
    text(ctx, name, 4, y, { font: FONT_SMALL, colour: UI.muted });
    text(ctx, value, 112, y, { font: FONT_SMALL, colour: UI.text, maxWidth: width - 116 });
    region(canvas, 0, y - 10, width, g.counter, `${tip}\n\n${name}: ${value}.`);
  });
}

// The model's rate history (five numbers per point, NaN for "no L1D accesses") as plot points.
export function historyPoints(flat) {
  const points = [];
  const orNull = (v) => (Number.isNaN(v) ? null : v);
  for (let i = 0; i + 4 < flat.length; i += 5) {
    points.push({ cycle: flat[i], ipc: flat[i + 1], ipcTotal: flat[i + 2], hit: orNull(flat[i + 3]), hitTotal: orNull(flat[i + 4]) });
  }
  return points;
}
