// Warp timeline (MODEL.md section 12): warps x recent cycles, each cell coloured by what the
// warp did (issued, or its stall reason). The bytes come straight from the model's ring buffer
// (Session.timeline: one state code per warp slot per cycle); the newest cycle is at the right,
// so the picture scrolls left as the run advances. Hover a cell for the reason; click to select.
import { prepare, region, text, FONT_SMALL, FONT_BOLD } from '../canvas.js';
import { stateColour, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const LABEL = 44;

export function createTimelineView(el, app) {
  const canvas = el.querySelector('canvas');
  const legend = el.querySelector('.legend');
  let legendFor = null;
  function draw(frame) {
    const { timeline, tables, warp } = frame;
    const slots = timeline.slots;
    const rowH = Math.max(4, Math.min(22, Math.floor(200 / Math.max(1, slots))));
    const height = 30 + slots * rowH + 4;
    const { ctx, width } = prepare(canvas, height);
    const held = slots ? timeline.bytes.length / slots : 0;
    const cellW = slots > 16 ? 3 : 5;
    const shown = Math.min(held, Math.floor((width - LABEL - 4) / cellW));
    const firstShown = timeline.first + held - shown;
    text(ctx, `cycles ${firstShown}…${timeline.first + held - 1} (newest at the right)`, LABEL, 10, { font: FONT_SMALL, colour: UI.muted });
    region(canvas, 0, 0, width, 20, GLOSSARY.timeline);
    const codes = tables.warp_states;
    for (let s = 0; s < slots; s++) {
      const y = 22 + s * rowH;
      if (rowH >= 10 || s % 4 === 0) text(ctx, `W${s}`, 4, y + rowH / 2, { font: rowH >= 12 ? FONT_BOLD : FONT_SMALL, colour: s === warp ? UI.selected : UI.muted });
      for (let c = 0; c < shown; c++) {
        const code = timeline.bytes[(held - shown + c) * slots + s];
        ctx.fillStyle = stateColour(codes[code] ? codes[code].name : 'idle');
        ctx.fillRect(LABEL + c * cellW, y, cellW, rowH - (rowH > 6 ? 1 : 0));
      }
      if (s === warp) {
        ctx.strokeStyle = UI.selected;
        ctx.lineWidth = 2;
        ctx.strokeRect(LABEL - 1, y - 1, shown * cellW + 2, rowH + 1);
      }
      region(canvas, 0, y, width, rowH, null, () => app.selectWarp(s));
    }
    canvas.tipAt = null;
    canvas.regions.push({
      x: LABEL, y: 22, w: shown * cellW, h: slots * rowH,
      tip: () => cellTip(canvas, timeline, tables, { shown, held, cellW, rowH, slots }),
      onClick: () => { const s = Math.floor((canvas.lastY - 22) / rowH); if (s >= 0 && s < slots) app.selectWarp(s); },
    });
    canvas.onmousemove = (e) => { const r = canvas.getBoundingClientRect(); canvas.lastX = e.clientX - r.left; canvas.lastY = e.clientY - r.top; };
    if (legendFor !== tables) { fillLegend(legend, tables); legendFor = tables; }
    canvas.dataset.model = JSON.stringify({ slots, held, first: timeline.first, last: held ? Array.from(timeline.bytes.slice((held - 1) * slots, held * slots)).map((c) => codes[c].name) : [] });
  }
  return { draw };
}

function cellTip(canvas, timeline, tables, g) {
  const c = Math.floor((canvas.lastX - LABEL) / g.cellW);
  const s = Math.floor((canvas.lastY - 22) / g.rowH);
  if (c < 0 || c >= g.shown || s < 0 || s >= g.slots) return '';
  const index = g.held - g.shown + c;
  const code = timeline.bytes[index * g.slots + s];
  const st = tables.warp_states[code];
  return `Warp slot ${s}, cycle ${timeline.first + index}: ${st.name}\n${st.description}`;
}

function fillLegend(legend, tables) {
  legend.textContent = '';
  for (const st of tables.warp_states) {
    const span = document.createElement('span');
    span.title = st.description;
    const i = document.createElement('i');
    i.style.background = stateColour(st.name);
    span.append(i, st.name);
    legend.append(span);
  }
}
