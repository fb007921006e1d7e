// Canvas helpers shared by the views: crisp sizing for the device pixel ratio, boxes, text,
// arrows and hover/click regions (read by tooltip.js). Drawing happens every animation frame, so
// the helpers avoid work the browser would repeat: panel widths come from a ResizeObserver (no
// layout read per draw), the font is set only when it changes, and text is measured only when it
// may need clipping (with the widths cached).
import { UI } from './palette.js';

const widths = new WeakMap();
let observer = null;
let onResize = () => {};

// `fn` runs when a panel holding a canvas changes width (the app redraws).
export function onCanvasResize(fn) {
  onResize = fn;
}

function widthOf(parent) {
  let w = widths.get(parent);
  if (w !== undefined) return w;
  w = parent.clientWidth;
  widths.set(parent, w);
  if (typeof ResizeObserver !== 'undefined') {
    observer ||= new ResizeObserver((entries) => {
      let changed = false;
      for (const e of entries) {
        const nw = e.target.clientWidth;
        if (nw !== widths.get(e.target)) changed = true;
        widths.set(e.target, nw);
      }
      if (changed) onResize();
    });
    observer.observe(parent);
  } else {
    widths.delete(parent);
  }
  return w;
}

export const FONT = '14px ui-monospace, "DejaVu Sans Mono", monospace';
export const FONT_BOLD = 'bold 14px system-ui, "DejaVu Sans", sans-serif';
export const FONT_SMALL = '12px ui-monospace, "DejaVu Sans Mono", monospace';

// Sizes the canvas to its CSS width and `height` CSS pixels; returns a fresh 2D context and
// clears the canvas's hover regions.
export function prepare(canvas, height) {
  const dpr = window.devicePixelRatio || 1;
  const width = Math.max(200, widthOf(canvas.parentElement) - 2);
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.height = `${height}px`;
  }
  canvas.ctx ||= canvas.getContext('2d');
  const ctx = canvas.ctx;
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.setLineDash([]);
  ctx.font = FONT;
  ctx.currentFont = FONT;
  canvas.regions = [];
  return { ctx, width, height };
}

// Sets the element's rendered-model attribute (read by the e2e tests) only when it changed.
export function setModel(el, model) {
  const json = JSON.stringify(model);
  if (el.dataset.model !== json) el.dataset.model = json;
}

// Registers a hover/click region on the canvas.
export function region(canvas, x, y, w, h, tip, onClick) {
  canvas.regions.push({ x, y, w, h, tip, onClick });
}

export function box(ctx, x, y, w, h, { fill = UI.box, stroke = UI.boxLine, width = 1, dash = null } = {}) {
  ctx.fillStyle = fill;
  ctx.fillRect(x, y, w, h);
  ctx.lineWidth = width;
  ctx.strokeStyle = stroke;
  if (dash) ctx.setLineDash(dash);
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  if (dash) ctx.setLineDash([]);
}

// Text widths by font and string (cleared when it grows large).
const measured = new Map();

function measure(ctx, font, t) {
  const key = `${font}\u0000${t}`;
  let w = measured.get(key);
  if (w === undefined) {
    if (measured.size > 20000) measured.clear();
    w = ctx.measureText(t).width;
    measured.set(key, w);
  }
  return w;
}

// Text clipped to `maxWidth` with an ellipsis.
export function text(ctx, s, x, y, { colour = UI.text, font = FONT, maxWidth = 1e9, align = 'left' } = {}) {
  if (ctx.currentFont !== font) {
    ctx.font = font;
    ctx.currentFont = font;
  }
  ctx.fillStyle = colour;
  if (align !== 'left') ctx.textAlign = align;
  let t = String(s);
  if (maxWidth < 1e9 && measure(ctx, font, t) > maxWidth) {
    while (t.length > 1 && measure(ctx, font, `${t}…`) > maxWidth) t = t.slice(0, -1);
    t = `${t}…`;
  }
  ctx.fillText(t, x, y);
  if (align !== 'left') ctx.textAlign = 'left';
}

export function arrow(ctx, x1, y1, x2, y2, colour = UI.arrow) {
  ctx.strokeStyle = colour;
  ctx.fillStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(x1, y1);
  ctx.lineTo(x2, y2);
  ctx.stroke();
  const a = Math.atan2(y2 - y1, x2 - x1);
  ctx.beginPath();
  ctx.moveTo(x2, y2);
  ctx.lineTo(x2 - 8 * Math.cos(a - 0.4), y2 - 8 * Math.sin(a - 0.4));
  ctx.lineTo(x2 - 8 * Math.cos(a + 0.4), y2 - 8 * Math.sin(a + 0.4));
  ctx.closePath();
  ctx.fill();
}

// "W3 add.s32 (L20)": how every view names an instruction in a unit.
export function instrLabel(warp, instr) {
  if (!instr) return warp == null ? '—' : `W${warp}`;
  return `${warp == null ? '' : `W${warp} `}${instr.op} (L${instr.line})`;
}
