// Warp timeline (MODEL.md section 12): warps x recent cycles, each cell coloured by what the
// warp did (issued, or its stall reason). The bytes come straight from the model's ring buffer
// (Session.timeline: one state code per warp slot per cycle); the newest cycle is at the right,
// so the picture scrolls left as the run advances. Hover a cell for the reason (in the newest
// column, also the line the warp's next instruction is on: PTX and, with `.loc` lines, CUDA);
// click to select.
import { prepare, region, text, canvasPoint, FONT_SMALL, FONT_BOLD, setModel } from '../canvas.js';
import { stateColour, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { lineText } from './source_line.js';

const LABEL = 44;

export function createTimelineView(el, app) {
  const canvas = el.querySelector('canvas');
  const cells = { canvas: document.createElement('canvas'), image: null, colours: null, tables: null };
  const legend = el.querySelector('.legend');
  const exportNote = el.querySelector('.export-note');
  el.querySelector('.export-perfetto').addEventListener('click', (e) => {
    e.currentTarget.blur();
    const saved = app.exportPerfetto();
    exportNote.textContent = saved ? `saved ${saved.name} (${Math.ceil(saved.bytes / 1024)} kB): open it in ui.perfetto.dev` : '';
  });
  let legendFor = null;
  function draw(frame) {
    const { timeline, tables, warp, snap } = frame;
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
    drawCells(ctx, cells, timeline, codes, { shown, held, slots, cellW, rowH });
    for (let s = 0; s < slots; s++) {
      const y = 22 + s * rowH;
      if (rowH >= 10 || s % 4 === 0) text(ctx, `W${s}`, 4, y + rowH / 2, { font: rowH >= 12 ? FONT_BOLD : FONT_SMALL, colour: s === warp ? UI.selected : UI.muted });
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
      tip: () => cellTip(canvas, timeline, tables, { shown, held, cellW, rowH, slots }) + nextLine(canvas, snap, app, { shown, held, cellW, rowH }),
      onClick: () => { const s = Math.floor((canvas.lastY - 22) / rowH); if (s >= 0 && s < slots) app.selectWarp(s); },
    });
    canvas.onmousemove = (e) => { const p = canvasPoint(canvas, e); canvas.lastX = p.x; canvas.lastY = p.y; };
    if (legendFor !== tables) { fillLegend(legend, tables); legendFor = tables; }
    setModel(canvas, { slots, held, first: timeline.first, last: held ? Array.from(timeline.bytes.slice((held - 1) * slots, held * slots)).map((c) => codes[c].name) : [] });
  }
  return { draw };
}

// The cells as an image, one pixel per (cycle, warp), scaled up without smoothing: one
// drawImage instead of a fillRect per cell. Rows are then separated by 1-pixel gaps.
function drawCells(ctx, cells, timeline, codes, g) {
  if (!g.shown || !g.slots) return;
  if (cells.tables !== codes) {
    cells.colours = new Uint32Array(codes.length).map((_, i) => rgba(stateColour(codes[i].name)));
    cells.tables = codes;
  }
  const off = cells.canvas;
  if (off.width !== g.shown || off.height !== g.slots) {
    off.width = g.shown;
    off.height = g.slots;
    cells.image = null;
  }
  const octx = off.getContext('2d');
  cells.image ||= octx.createImageData(g.shown, g.slots);
  const px = new Uint32Array(cells.image.data.buffer);
  const idle = rgba(stateColour('idle'));
  const bytes = timeline.bytes;
  const start = (g.held - g.shown) * g.slots;
  for (let c = 0; c < g.shown; c++) {
    const base = start + c * g.slots;
    for (let s = 0; s < g.slots; s++) px[s * g.shown + c] = cells.colours[bytes[base + s]] ?? idle;
  }
  octx.putImageData(cells.image, 0, 0);
  ctx.imageSmoothingEnabled = false;
  ctx.drawImage(off, LABEL, 22, g.shown * g.cellW, g.slots * g.rowH);
  if (g.rowH > 6) {
    ctx.fillStyle = '#1a2029';
    for (let s = 1; s <= g.slots; s++) ctx.fillRect(LABEL, 22 + s * g.rowH - 1, g.shown * g.cellW, 1);
  }
}

// '#rrggbb' as a little-endian RGBA pixel.
function rgba(hex) {
  const n = parseInt(hex.slice(1), 16);
  return (0xff << 24) | ((n & 0xff) << 16) | (n & 0xff00) | (n >> 16);
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

// In the newest column, the line of the warp's next instruction (the snapshot's), or ''.
function nextLine(canvas, snap, app, g) {
  const c = Math.floor((canvas.lastX - LABEL) / g.cellW);
  const s = Math.floor((canvas.lastY - 22) / g.rowH);
  const w = snap && snap.sm.warps[s];
  if (c !== g.shown - 1 || !w || w.line == null) return '';
  return `\nIts next instruction: ${lineText(app, w.line)}.`;
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
