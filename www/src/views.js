// The view panels: one JS module per view under views/, each drawing a snapshot on its canvas.
import { createPipelineView } from './views/pipeline.js';
import { createSimtStackView } from './views/simt_stack.js';
import { createBankGridView } from './views/bank_grid.js';
import { createTimelineView } from './views/timeline.js';
import { createMemoryView } from './views/memory.js';
import { createMrpbView } from './views/mrpb.js';
import { createStatsView } from './views/stats.js';
import { GLOSSARY } from './glossary.js';

const CANVAS = '<canvas></canvas>';
const PANELS = [
  { id: 'pipeline', help: 'scheduler', title: 'Pipeline', note: 'this cycle: fetch → issue → operands → execute → writeback', body: CANVAS, create: createPipelineView },
  { id: 'simt', help: 'simt', title: 'SIMT stack', note: 'selected warp, and every warp', body: CANVAS, create: createSimtStackView },
  { id: 'timeline', help: 'timeline', title: 'Warp timeline', note: 'warps × recent cycles, coloured by state', body: `${CANVAS}<div class="legend"></div>`, create: createTimelineView },
  { id: 'banks', help: 'bankgrid', title: 'Shared-memory bank grid', note: 'latest shared access of this SM', body: CANVAS, create: createBankGridView },
  { id: 'memory', help: 'l1', title: 'Memory', note: 'register banks now; L1 / MSHRs / miss queue when the memory system lands', body: CANVAS, create: createMemoryView },
  { id: 'stats', help: 'ipc', title: 'Stats', note: 'IPC, stalls, conflicts', body: '<div class="plots"><div class="plot"><h3>IPC over time</h3><div class="plot-ipc"></div></div><div class="plot"><h3>L1 hit rate over time</h3><div class="plot-hit muted"></div><canvas class="histogram"></canvas></div></div><canvas class="stalls"></canvas>', create: createStatsView },
  { id: 'mrpb', help: 'mrpb', title: 'MRPB queues', note: 'reserved', body: CANVAS, create: createMrpbView },
];

export function createViews(container, app) {
  return PANELS.map((p) => {
    const el = document.createElement('section');
    el.className = 'view';
    el.id = `view-${p.id}`;
    el.innerHTML = `<header title="${GLOSSARY[p.help].replace(/"/g, '&quot;')}"><h2>${p.title}</h2><span class="note">${p.note}</span><button class="focus" title="Enlarge this view (F); again to shrink">⤢</button></header>${p.body}`;
    container.append(el);
    el.querySelector('.focus').addEventListener('click', () => app.toggleFocus(el));
    const view = p.create(el, app);
    return { id: p.id, el, draw: (frame) => view.draw(frame) };
  });
}
