// Stats view (MODEL.md section 12): IPC over time and L1 hit rate over time (uPlot line plots),
// the stall breakdown and the conflict-degree histogram (bars). Every number comes from the
// snapshot's counters; the app samples them once per drawn frame into `history`.
import uPlot from 'uplot';
import 'uplot/dist/uPlot.min.css';
import { prepare, region, text, FONT_SMALL, FONT_BOLD } from '../canvas.js';
import { stateColour, OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const AXIS = { stroke: UI.muted, grid: { stroke: '#2b3440' }, ticks: { stroke: '#2b3440' }, font: '12px system-ui' };

export function createStatsView(el) {
  const ipcBox = el.querySelector('.plot-ipc');
  const hitBox = el.querySelector('.plot-hit');
  const bars = el.querySelector('canvas.stalls');
  const hist = el.querySelector('canvas.histogram');
  let ipcPlot = null;
  let lastLen = -1;
  function draw({ snap, history }) {
    const w = Math.max(240, ipcBox.clientWidth - 4);
    if (!ipcPlot) ipcPlot = makeIpcPlot(ipcBox, w);
    if (history.length !== lastLen || ipcPlot.width !== w) {
      if (ipcPlot.width !== w) ipcPlot.setSize({ width: w, height: 150 });
      ipcPlot.setData([history.map((h) => h.cycle), history.map((h) => h.ipc), history.map((h) => h.ipcTotal)]);
      lastLen = history.length;
    }
    hitBox.textContent = 'L1 hit rate over time: no L1 model yet (the memory-system issue adds it).';
    hitBox.title = GLOSSARY.l1;
    drawStalls(bars, snap);
    drawHistogram(hist, snap);
    el.dataset.model = JSON.stringify({ ipc: snap.stats.ipc, samples: history.length, stalls: snap.stats.stalls, degrees: snap.sm.stats.conflict_degrees || [] });
  }
  return { draw };
}

function makeIpcPlot(box, width) {
  return new uPlot({
    width, height: 150,
    title: '',
    legend: { show: true },
    cursor: { drag: { x: false, y: false } },
    scales: { x: { time: false } },
    axes: [{ ...AXIS, label: 'cycle', size: 36 }, { ...AXIS, size: 40 }],
    series: [
      { label: 'cycle' },
      { label: 'IPC (interval)', stroke: OKABE.sky, width: 2 },
      { label: 'IPC (run)', stroke: OKABE.orange, width: 2, dash: [6, 4] },
    ],
  }, [[], [], []], box);
}

function drawStalls(canvas, snap) {
  const entries = Object.entries(snap.stats.stalls).sort((a, b) => b[1] - a[1]);
  const { ctx, width } = prepare(canvas, 24 + Math.max(1, entries.length) * 20);
  text(ctx, 'Stall breakdown (scheduler-cycles)', 4, 10, { font: FONT_BOLD, colour: UI.accent });
  region(canvas, 0, 0, width, 20, GLOSSARY.stalls);
  const max = Math.max(1, ...entries.map((e) => e[1]));
  const labelW = 150;
  entries.forEach(([name, n], i) => {
    const y = 22 + i * 20;
    text(ctx, name, 4, y + 8, { font: FONT_SMALL, colour: UI.text, maxWidth: labelW - 8 });
    ctx.fillStyle = stateColour(name);
    const w = Math.max(1, (width - labelW - 70) * (n / max));
    ctx.fillRect(labelW, y + 1, w, 15);
    text(ctx, n, labelW + w + 6, y + 8, { font: FONT_SMALL, colour: UI.muted });
    region(canvas, 0, y, width, 20, `${name}: ${n} scheduler-cycles without an issue.`);
  });
  if (!entries.length) text(ctx, 'no stalls yet', 4, 32, { colour: UI.muted });
}

function drawHistogram(canvas, snap) {
  const degrees = snap.sm.stats.conflict_degrees || [];
  const { ctx, width, height } = prepare(canvas, 150);
  text(ctx, 'Conflict-degree histogram (shared accesses; degrees seen)', 4, 10, { font: FONT_BOLD, colour: UI.accent });
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
