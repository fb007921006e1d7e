// The benchmark page (issue 6, "Speed"; not a test): runs warpstep::bench::STANDARD kernels
// through the same wasm API as the app, at full speed with the views drawn each animation frame
// and the app's pacing (pacing.js), and reports simulated cycles/s, frames/s, frame times (mean, median, p95,
// worst), one-step-and-redraw time (and its parts by view), and the time to
// step back one cycle at cycle 1,000,000. Results also land in body[data-results] as JSON.
// The views redraw as in the app (only panels on screen, only when their inputs changed); with
// `?all` every panel draws every frame, on screen or not. `?smoke` is the e2e test's short run
// (e2e/bench.spec.js): one kernel for a fraction of a second, step-back at cycle 20,000.
import init, { Session, tables, benchCases, bankFunction } from '../../pkg/warpstep.js';
import { createViews } from './views.js';
import { readSnapshot, allParts, panelParts } from './snapshot.js';
import { nextBudget } from './pacing.js';
import { historyPoints } from './views/stats.js';

const $ = (id) => document.getElementById(id);

const FORCE_ALL = new URLSearchParams(location.search).has('all');
const SMOKE = new URLSearchParams(location.search).has('smoke');
const SECONDS = SMOKE ? 0.3 : 3;
// `?work=ms`: another frame budget than the app's (pacing.js FRAME_WORK_MS), to compare.
const WORK_MS = Number(new URLSearchParams(location.search).get('work')) || undefined;

let views;
let tab;
let builds = 0;

// The parts of the snapshot the views drawing now need (app.js wantedParts): every part with
// `?all`, else those of the panels on screen.
function wanted() {
  return FORCE_ALL ? allParts(tab) : panelParts(views.filter((v) => v.visible && !v.el.hidden));
}

// The frame the app hands its views (app.js makeFrame), for SM 0 and warp 0, with the parts in
// `bits`. Adds the time the model takes to build the snapshot and the page to read it
// (`snapshot`: the parts' JSON and the warp table, parsed) to `perView`.
function frameOf(session, running, perView = null, bits = wanted()) {
  const t0 = performance.now();
  const snap = readSnapshot(session, tab, 0, 0, bits);
  if (perView) perView.snapshot = (perView.snapshot || 0) + performance.now() - t0;
  let timeline = null;
  let history = null;
  let lines = null;
  const hash = { ok: true, spec: 'mod', fn: JSON.parse(bankFunction('mod', 32, 49152, 4)) };
  return {
    snap, prev: null, warp: 0, lane: -1, sm: 0, tables: tab, config: null, running, now: performance.now(), build: builds,
    complete: (more) => frameOf(session, running, null, bits | more),
    // As app.js: a slot with no warp (between kernels' waves, after a reset) is an answer to draw.
    why: () => {
      try {
        return JSON.parse(session.why(0, 0, -1));
      } catch (err) {
        return { error: String(err.message || err) };
      }
    },
    get history() {
      history ||= historyPoints(session.rateHistory());
      return history;
    },
    get timeline() {
      timeline ||= { bytes: session.timeline(0), first: session.timelineFirst(0), slots: session.warpSlots() };
      return timeline;
    },
    l1Lines: () => (lines ||= session.l1Lines(0)),
    outputBuffers: () => JSON.parse(session.outputBuffers()),
    gpuStrip: () => JSON.parse(session.gpuStrip()),
    selectSm() {},
    hash: () => hash,
  };
}

// Draws the frame; adds each view's drawing time (ms) to `perView` when given.
function drawAll(session, running = false, perView = null) {
  const f = frameOf(session, running, perView);
  for (const v of views) {
    const t0 = performance.now();
    if (FORCE_ALL) v.view.draw(f);
    else v.update(f);
    if (perView) perView[v.id] = (perView[v.id] || 0) + performance.now() - t0;
  }
  return f.snap;
}

const nextFrame = () => new Promise((r) => requestAnimationFrame(r));

// Full speed for SECONDS: an adaptive cycle budget per frame, then a redraw of every view.
async function fullSpeed(session) {
  let budget = 2000;
  let frames = 0;
  let maxFrame = 0;
  const start = performance.now();
  let last = start;
  let cycles = 0;
  let simMs = 0;
  let drawMs = 0;
  let drawAvgMs = 2;
  const perView = {};
  const frameTimes = [];
  while (performance.now() - start < SECONDS * 1000) {
    await nextFrame();
    const t0 = performance.now();
    // A kernel that ends starts again from cycle 0 (a checkpoint copy) within the same budget.
    for (let left = budget; left > 0;) {
      const before = session.cycle();
      session.runFor(left);
      const ran = session.cycle() - before;
      cycles += ran;
      left -= Math.max(1, ran);
      if (session.finished()) session.reset();
    }
    const t1 = performance.now();
    drawAll(session, true, perView);
    const t2 = performance.now();
    simMs += t1 - t0;
    drawMs += t2 - t1;
    budget = nextBudget(budget, t1 - t0, drawAvgMs, WORK_MS);
    drawAvgMs = 0.8 * drawAvgMs + 0.2 * (t2 - t1);
    frames += 1;
    maxFrame = Math.max(maxFrame, t2 - last);
    frameTimes.push(t2 - last);
    last = t2;
  }
  const secs = (performance.now() - start) / 1000;
  for (const k of Object.keys(perView)) perView[k] /= frames;
  frameTimes.sort((x, y) => x - y);
  const at = (q) => frameTimes[Math.min(frameTimes.length - 1, Math.floor(q * frameTimes.length))] || 0;
  return { cycles, cyclesPerSec: cycles / secs, simCyclesPerSec: cycles / (simMs / 1000), fps: frames / secs, frameAvg: (secs * 1000) / frames, frameMedian: at(0.5), frameP95: at(0.95), frameMax: maxFrame, simAvg: simMs / frames, drawAvg: drawMs / frames, perView };
}

// One cycle and a redraw, as the step button does, 30 times.
function stepAndRedraw(session) {
  const times = [];
  const perView = {};
  drawAll(session); // warm-up: the first draw creates the plots
  for (let i = 0; i < 30 && !session.finished(); i++) {
    const t0 = performance.now();
    session.step(1);
    const t1 = performance.now();
    drawAll(session, false, perView);
    times.push(performance.now() - t0);
    perView.step = (perView.step || 0) + t1 - t0;
  }
  for (const k of Object.keys(perView)) perView[k] /= Math.max(1, times.length);
  return { avg: times.reduce((a, b) => a + b, 0) / Math.max(1, times.length), max: Math.max(...times), perView };
}

function makeSession(c, preset, extra) {
  builds += 1;
  return new Session(c.ptx, `${c.flags} ${extra}`.trim(), preset, []);
}

async function caseRow(c, preset, extra) {
  const s = makeSession(c, preset, extra);
  const warps = s.warpSlots();
  s.step(200);
  const step = stepAndRedraw(s);
  const full = await fullSpeed(s);
  s.free();
  return { case: c.name, preset, extra, warps, ...full, stepAvg: step.avg, stepMax: step.max, stepPerView: step.perView };
}

// Step back one cycle at cycle `target` of a long vector_add (fermi, 48 warps resident).
async function backStep(cases, target) {
  const va = cases.find((c) => c.name === 'vector_add');
  const n = 48 * 256 * 120;
  const s = new Session(va.ptx, `--grid ${48 * 120} --block 256 --arg f32[${n}]=rand:1 --arg f32[${n}]=rand:2 --arg f32[${n}]=0 --arg ${n}`, 'fermi', []);
  const t0 = performance.now();
  while (s.cycle() < target && !s.finished()) {
    s.runUntil(target, 200_000);
    $('bench-status').textContent = `reaching cycle ${target}: ${s.cycle()}`;
    await nextFrame();
  }
  const reach = (performance.now() - t0) / 1000;
  const times = [];
  for (let i = 0; i < 5; i++) {
    const t = performance.now();
    s.stepBack(1);
    times.push(performance.now() - t);
  }
  const at = s.cycle();
  const result = { at: at + 5, avg: times.reduce((a, b) => a + b, 0) / times.length, max: Math.max(...times), checkpoints: s.checkpointCycles().length, memoryMB: wasmMemory / 1e6, reach };
  s.free();
  return result;
}

let wasmMemory = 0;
const fmt = (x, d = 0) => Number(x).toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d });

async function run() {
  $('bench-status').textContent = 'Running…';
  document.body.dataset.done = 'false';
  const cases = JSON.parse(benchCases());
  const plan = SMOKE ? [[cases[0], 'fermi', '']] : [
    ...cases.map((c) => [c, 'fermi', '']),
    [cases.find((c) => c.name === 'vector_add'), 'teaching', '--grid 384 --block 32'],
    [cases.find((c) => c.name === 'reduction'), 'teaching', '--grid 384 --block 32'],
  ];
  const rows = [];
  const body = document.querySelector('#results tbody');
  body.textContent = '';
  for (const [c, preset, extra] of plan) {
    $('bench-status').textContent = `Running ${c.name} on ${preset}…`;
    const r = await caseRow(c, preset, extra);
    rows.push(r);
    const tr = body.insertRow();
    for (const v of [r.case, r.preset, r.warps, fmt(r.cycles), fmt(r.cyclesPerSec), fmt(r.fps, 1), `${fmt(r.frameAvg, 1)} / ${fmt(r.frameMax, 1)} (median ${fmt(r.frameMedian, 1)}, p95 ${fmt(r.frameP95, 1)}; sim ${fmt(r.simAvg, 1)}, draw ${fmt(r.drawAvg, 1)})`, `${fmt(r.stepAvg, 2)} / ${fmt(r.stepMax, 2)}`, r.warps >= 48 ? 'yes' : '']) tr.insertCell().textContent = v;
  }
  const back = await backStep(cases, SMOKE ? 20_000 : 1_000_000);
  const tr = document.querySelector('#backstep tbody').insertRow();
  for (const v of ['vector_add, fermi, 48 warps', fmt(back.at), `${fmt(back.avg, 1)} / ${fmt(back.max, 1)}`, back.checkpoints, fmt(back.memoryMB, 1), fmt(back.reach, 1)]) tr.insertCell().textContent = v;
  $('bench-status').textContent = 'Done.';
  document.body.dataset.results = JSON.stringify({ rows, back });
  document.body.dataset.done = 'true';
}

async function start() {
  const wasm = await init();
  const t = JSON.parse(tables());
  tab = { ...t, byName: Object.fromEntries(t.warp_states.map((s) => [s.name, s])) };
  views = createViews($('bench-views'), { tables: tab, sm: 0, selectWarp() {}, toggleFocus() {} });
  const memory = () => { wasmMemory = wasm.memory.buffer.byteLength; };
  setInterval(memory, 200);
  $('start').addEventListener('click', run);
  // The views learn which of them are on screen from an observer that reports after layout: wait
  // for it, or the first case would redraw every view, on screen or not.
  await nextFrame();
  await nextFrame();
  await run();
}

start();
