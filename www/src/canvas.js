// Canvas helpers shared by the views: crisp sizing for the device pixel ratio, boxes, text,
// arrows and hover/click regions (read by tooltip.js).
import { UI } from './palette.js';

export const FONT = '14px ui-monospace, "DejaVu Sans Mono", monospace';
export const FONT_BOLD = 'bold 14px system-ui, "DejaVu Sans", sans-serif';
export const FONT_SMALL = '12px ui-monospace, "DejaVu Sans Mono", monospace';

// Sizes the canvas to its CSS width and `height` CSS pixels; returns a fresh 2D context and
// clears the canvas's hover regions.
export function prepare(canvas, height) {
  const dpr = window.devicePixelRatio || 1;
  const width = Math.max(200, canvas.parentElement.clientWidth - 2);
  if (canvas.width !== Math.round(width * dpr) || canvas.height !== Math.round(height * dpr)) {
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(height * dpr);
    canvas.style.height = `${height}px`;
  }
  const ctx = canvas.getContext('2d');
  ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.textBaseline = 'middle';
  canvas.regions = [];
  return { ctx, width, height };
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
  ctx.setLineDash(dash || []);
  ctx.strokeRect(x + 0.5, y + 0.5, w - 1, h - 1);
  ctx.setLineDash([]);
}

// Text clipped to `maxWidth` with an ellipsis.
export function text(ctx, s, x, y, { colour = UI.text, font = FONT, maxWidth = 1e9, align = 'left' } = {}) {
  ctx.font = font;
  ctx.fillStyle = colour;
  ctx.textAlign = align;
  let t = String(s);
  if (ctx.measureText(t).width > maxWidth) {
    while (t.length > 1 && ctx.measureText(`${t}…`).width > maxWidth) t = t.slice(0, -1);
    t = `${t}…`;
  }
  ctx.fillText(t, x, y);
  ctx.textAlign = 'left';
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
