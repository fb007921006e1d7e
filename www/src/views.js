// The view panels: one JS module per view under views/, each drawing a snapshot on its canvas.
// A panel redraws only when it is on screen (an IntersectionObserver watches each one; a panel
// scrolled into view draws the latest frame at once) and when its inputs changed: a view may
// give `key(frame)`, and a frame with the same key as the last one drawn is skipped.
// Each panel names the snapshot parts it draws (`parts`, snapshot.js): the app asks the model
// only for the parts of the panels on screen, so a hidden panel's part is not built; a panel
// handed a frame without its parts (one scrolled into view) draws a frame completed with them.
import { partBits, holds } from './snapshot.js';
import { createPipelineView } from './views/pipeline.js';
import { COMPARE_BAR } from './views/compare.js';
import { createSimtStackView } from './views/simt_stack.js';
import { DIVERGENCE_BAR } from './views/divergence_compare.js';
import { createBankGridView } from './views/bank_grid.js';
import { createHashBitsView } from './views/hash_bits.js';
import { createSearchView, SEARCH_BODY } from './views/search.js';
import { createTimelineView } from './views/timeline.js';
import { createMemoryView } from './views/memory.js';
import { createMrpbView } from './views/mrpb.js';
import { createStatsView } from './views/stats.js';
import { createEnergyView } from './views/energy.js';
import { createUnifiedView, UNIFIED_BODY } from './views/unified.js';
import { createWhyView, WHY_BODY } from './views/why.js';
import { createCodeView, CODE_BODY } from './views/code.js';
import { createBuffersView, BUFFERS_BODY } from './views/buffers.js';
import { createGpuStripView, GPU_BODY } from './views/gpu_strip.js';
import { GLOSSARY } from './glossary.js';

const CANVAS = '<canvas></canvas>';
const PERFETTO_BAR = '<div class="export-bar"><button class="export-perfetto" title="Download this run, from cycle 0 to now, as a Chrome/Perfetto trace (warp states, every instruction\'s issue and writeback, instructions in flight, execution units busy, each memory request through the L1D, L2 slices and DRAM, queue depths): open it in ui.perfetto.dev">Export Perfetto trace</button><span class="note export-note"></span></div>';
const STATS_BODY = '<div class="export-bar"><button class="export-csv" title="Download IPC and L1D hit rate over time (the model\'s samples) as CSV">Export counters (CSV)</button></div>' + '<div class="plots"><div class="plot"><h3>IPC over time</h3><div class="plot-ipc"></div></div><div class="plot"><h3>L1 hit rate over time</h3><div class="plot-hit"></div></div></div><div class="plots"><div><canvas class="histogram"></canvas></div><div><canvas class="stalls"></canvas></div></div><div><canvas class="counters"></canvas></div>';
const PANELS = [
  { id: 'pipeline', parts: ['pipeline', 'register_banks', 'back_end'], help: 'scheduler', title: 'Pipeline', note: 'this cycle: fetch → issue → operands → execute → writeback', body: `${CANVAS}${COMPARE_BAR}`, create: createPipelineView },
  { id: 'simt', parts: ['warps'], help: 'simt', title: 'SIMT stack', note: 'selected warp, and every warp', body: `${CANVAS}${DIVERGENCE_BAR}`, create: createSimtStackView },
  { id: 'timeline', help: 'timeline', title: 'Warp timeline', note: 'warps × recent cycles, coloured by state', body: `${CANVAS}<div class="legend"></div>${PERFETTO_BAR}`, create: createTimelineView },
  { id: 'why', help: 'why', title: 'Why?', note: 'the model\'s causal chain behind the selected warp (or lane) this cycle', body: WHY_BODY, create: createWhyView },
  { id: 'banks', parts: ['bank_grid', 'sm_stats'], help: 'bankgrid', title: 'Shared-memory bank grid', note: 'the shared access MEM0 serves; mod baseline beside a hash', body: CANVAS, create: createBankGridView },
  { id: 'hash', help: 'hashbits', title: 'Bank index function', note: 'word-address bits → bank bits (XOR paper Fig. 5); follows the Setup tab', body: CANVAS, create: createHashBitsView },
  { id: 'search', help: 'search', title: 'Hash search', note: 'configure the bank hash from this kernel\'s shared accesses', body: SEARCH_BODY, create: createSearchView },
  { id: 'memory', parts: ['l1', 'register_banks'], help: 'l1', title: 'Memory', note: 'register banks; L1D sets × ways, MSHRs, miss queue', body: CANVAS, create: createMemoryView },
  { id: 'unified', parts: ['unified'], help: 'unified', title: 'Unified pool', note: '32 banks by owner (registers / shared / cache); this cycle\'s bank columns', body: UNIFIED_BODY, create: createUnifiedView, when: (f) => Boolean(f.snap.stats.unified) },
  { id: 'stats', parts: ['sm_stats'], help: 'ipc', title: 'Stats', note: 'IPC, L1 hit rate, stalls, conflicts, memory counters', body: STATS_BODY, create: createStatsView },
  { id: 'energy', help: 'energy', title: 'Energy', note: 'the run\'s energy so far by part (Unified §5.2)', body: CANVAS, create: createEnergyView },
  { id: 'mrpb', parts: ['mrpb'], help: 'mrpb', title: 'MRPB queues', note: 'one row per queue, head left; the queue served this cycle and why', body: CANVAS, create: createMrpbView },
  { id: 'code', help: 'code', title: 'Code', note: 'the CUDA and PTX around the selected warp\'s line', body: CODE_BODY, create: createCodeView },
  // Issue 30. The whole-GPU strip is drawn above the other panels (CSS order) when there are SMs to pick.
  { id: 'buffers', help: 'buffers', title: 'Output buffers', note: 'the kernel\'s buffers at this cycle, changed values marked', body: BUFFERS_BODY, create: createBuffersView },
  { id: 'gpu', help: 'gpu', title: 'Whole GPU', note: 'every SM: CTAs, IPC, state; click one to show it', body: GPU_BODY, create: createGpuStripView, when: (f) => f.snap.stats.per_sm.length > 1 },
];

export function createViews(container, app) {
  const views = PANELS.map((p) => createPanel(container, p, app));
  watchVisibility(views);
  return views;
}

// The panels a set of side-by-side columns may show (the A/B mode), by id, with titles.
// Every panel's id, in order (a link's `view`).
export const PANEL_IDS = PANELS.map((p) => p.id);
export const PANEL_CHOICES = PANELS.filter((p) => !['hash', 'search'].includes(p.id)).map((p) => ({ id: p.id, title: p.title }));

// One panel of `PANELS` (or the one with id `p`) in `container`: its section (id `view-<id>`, or
// `<prefix><id>`), header and body, and its view from the module's create(el, app). The A/B mode
// makes a second set this way, fed from the other session's frames: no view is written twice.
export function createPanel(container, p, app, prefix = 'view-') {
  if (typeof p === 'string') p = PANELS.find((x) => x.id === p);
  const el = document.createElement('section');
  el.className = 'view';
  el.id = `${prefix}${p.id}`;
  el.innerHTML = `<header title="${GLOSSARY[p.help].replace(/"/g, '&quot;')}"><h2>${p.title}</h2><span class="note">${p.note}</span><button class="png" title="Save this view as a PNG image">PNG</button><button class="focus" title="Enlarge this view (F); again to shrink">⤢</button></header>${p.body}`;
  container.append(el);
  el.querySelector('.focus').addEventListener('click', () => app.toggleFocus(el));
  el.querySelector('.png').addEventListener('click', (e) => {
    e.currentTarget.blur();
    app.saveViewPng(el, p.id);
  });
  return panel(p.id, el, p.create(el, app), p.when, partBits(app.tables, p.parts));
}

// A panel's redraw state: the last frame handed to it, whether it is on screen, whether it
// missed a frame while off screen, and the key of what it last drew. A panel with `when` is
// shown only for frames it holds for (the unified pool: a snapshot with `stats.unified`).
// `parts`: the snapshot parts it draws (bits).
function panel(id, el, view, when, parts = 0) {
  const p = {
    id, el, view, frame: null, visible: true, dirty: true, lastKey: undefined, drawMs: 0, parts,
    // Draws `frame` if the panel is visible and its inputs changed (or `force`).
    update(frame, force = false) {
      p.frame = frame;
      if (when) {
        const show = when(frame);
        if (el.hidden === show) { el.hidden = !show; p.dirty = true; }
        if (!show) return false;
      }
      if (!p.visible) { p.dirty = true; return false; }
      // A frame read for other panels: the same state with this panel's parts added.
      if (!holds(frame.snap, parts)) {
        frame = frame.complete ? frame.complete(parts) : null;
        if (!frame) { p.dirty = true; return false; }
        p.frame = frame;
      }
      const key = view.key ? view.key(frame) : undefined;
      if (!force && !p.dirty && key !== undefined && key === p.lastKey) return false;
      const t0 = performance.now();
      view.draw(frame);
      p.drawMs = performance.now() - t0;
      p.lastKey = key;
      p.dirty = false;
      return true;
    },
    draw(frame) { return p.update(frame, true); },
  };
  return p;
}

// Watches which of `views` are on screen; returns the observer (disconnect it when they go).
export function watchVisibility(views) {
  if (typeof IntersectionObserver === 'undefined') return null;
  const byEl = new Map(views.map((v) => [v.el, v]));
  const io = new IntersectionObserver((entries) => {
    for (const e of entries) {
      const v = byEl.get(e.target);
      v.visible = e.isIntersecting;
      if (v.visible && v.dirty && v.frame) v.update(v.frame, true);
    }
  });
  for (const v of views) io.observe(v.el);
  return io;
}
