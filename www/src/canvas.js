// Canvas helpers shared by the views: crisp sizing for the device pixel ratio, boxes, text,
// arrows and hover/click regions (read by tooltip.js). Drawing happens every animation frame, so
// the helpers avoid work the browser would repeat: panel widths come from a ResizeObserver (no
// layout read per draw), the font is set only when it changes, and text is measured only when it
// may need fitting (with the widths and the fitted strings cached).
// Sizes are CSS pixels: the backing store has devicePixelRatio pixels per CSS pixel, so canvas
// text grows with browser zoom like the page's own text; a wide canvas (a large window, an
// enlarged view) also draws its text larger (fontScale). In presentation mode (present.js) the
// large panel carries data-canvas-zoom: its canvases lay out at their width divided by that zoom
// and are drawn magnified by it (text, boxes and lines alike), so the views need no change.
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
// The smallest text a canvas draws, in CSS pixels.
export const MIN_TEXT_PX = 12;
// How narrow a text may be drawn (a fraction of its width) before it is shortened instead.
const SQUEEZE = 0.85;

// How much larger than the FONT sizes a canvas `width` CSS pixels wide draws its text: 1 up to
// 1000 px (a view beside the code at 1280 px, or any narrower one), growing to 1.25 at 1500 px.
export function fontScale(width) {
  return Math.max(1, Math.min(1.25, width / 1000));
}

// The magnification of a canvas: its panel's data-canvas-zoom (presentation mode), else 1.
function zoomOf(canvas) {
  const z = canvas.closest ? canvas.closest('[data-canvas-zoom]') : null;
  const k = z ? Number(z.dataset.canvasZoom) : 1;
  return Number.isFinite(k) && k > 0 ? k : 1;
}

// The width in layout pixels prepare() will give `canvas` (for a view whose height depends on it).
export function layoutWidth(canvas) {
  return Math.max(200, widthOf(canvas.parentElement) - 2) / zoomOf(canvas);
}

// Sizes the canvas to its CSS width and `height` layout pixels; returns a fresh 2D context and
// clears the canvas's hover regions and its record of the text drawn (canvas.drawn: what each
// text() call asked for and what it drew, with its size in CSS pixels, read by the tests).
// Under a zoom the returned width is the CSS width divided by it, and the canvas is `height`
// times the zoom tall: the caller draws in layout pixels as always.
export function prepare(canvas, height) {
  const dpr = window.devicePixelRatio || 1;
  const zoom = zoomOf(canvas);
  const css = Math.max(200, widthOf(canvas.parentElement) - 2);
  const width = css / zoom;
  canvas.ctx ||= canvas.getContext('2d');
  const ctx = canvas.ctx;
  if (canvas.width !== Math.round(css * dpr) || canvas.height !== Math.round(height * zoom * dpr)) {
    canvas.width = Math.round(css * dpr);
    canvas.height = Math.round(height * zoom * dpr);
    canvas.style.height = `${height * zoom}px`;
  }
  ctx.setTransform(dpr * zoom, 0, 0, dpr * zoom, 0, 0);
  ctx.clearRect(0, 0, width, height);
  ctx.textBaseline = 'middle';
  ctx.textAlign = 'left';
  ctx.setLineDash([]);
  ctx.fontScale = fontScale(width);
  ctx.zoom = zoom;
  // Set each frame: a view's ctx.restore() may have put back another font than currentFont.
  ctx.font = scaledFont(ctx, FONT);
  ctx.currentFont = scaledFont(ctx, FONT);
  canvas.zoom = zoom;
  canvas.regions = [];
  canvas.drawn = [];
  // The attributes the tests read, written only when they change (a write costs a DOM mutation).
  if (canvas.shownScale !== ctx.fontScale) {
    canvas.dataset.fontScale = ctx.fontScale;
    canvas.shownScale = ctx.fontScale;
  }
  if (canvas.shownZoom !== zoom) {
    canvas.dataset.zoom = zoom;
    canvas.shownZoom = zoom;
  }
  return { ctx, width, height };
}

// Where pointer event `e` is on `canvas`, in the layout pixels its view draws in (the regions').
export function canvasPoint(canvas, e) {
  const r = canvas.getBoundingClientRect();
  const z = canvas.zoom || 1;
  return { x: (e.clientX - r.left) / z, y: (e.clientY - r.top) / z };
}

// Sets the element's rendered-model attribute (read by the e2e tests) only when it changed.
export function setModel(el, model) {
  const json = JSON.stringify(model);
  if (el.shownModel !== json) {
    el.dataset.model = json;
    el.shownModel = json;
  }
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

function setFont(ctx, font) {
  if (ctx.currentFont !== font) {
    ctx.font = font;
    ctx.currentFont = font;
  }
}

// Whether every digit takes the same width in `font` beside the same neighbours, so that a text
// and the same text with each digit written 0 are equally wide: true for a monospace font (the
// views' labels, whose cycle counts and warp numbers change every frame), checked once per font
// in the browser's own glyphs; a proportional font is never taken for one.
const sameDigits = new Map();
const DIGIT_PROBE = 'W0 x.0 (L00·cu0) →00 +0 ✓%r0';

function digitsAlike(ctx, font) {
  let same = sameDigits.get(font);
  if (same === undefined) {
    same = font.includes('monospace');
    setFont(ctx, font);
    const w0 = ctx.measureText(DIGIT_PROBE).width;
    for (let d = 1; d <= 9 && same; d++) same = ctx.measureText(DIGIT_PROBE.replaceAll('0', String(d))).width === w0;
    sameDigits.set(font, same);
  }
  return same;
}

// The key a text's width is cached under: in a font whose digits are alike, its digits as 0
// ("W17 →1234" and "W3 →5678" share a width if they have as many digits).
function widthKey(ctx, font, t) {
  return digitsAlike(ctx, font) ? t.replace(/[1-9]/g, '0') : t;
}

function measure(ctx, font, t) {
  const key = `${font}\u0000${widthKey(ctx, font, t)}`;
  let w = measured.get(key);
  if (w === undefined) {
    if (measured.size > 20000) measured.clear();
    setFont(ctx, font);
    w = ctx.measureText(t).width;
    measured.set(key, w);
  }
  return w;
}

// `font` ("bold 14px …") at the canvas's font scale.
const scaledFonts = new Map();
function scaledFont(ctx, font) {
  const k = ctx.fontScale || 1;
  if (k === 1) return font;
  const key = `${k}\u0000${font}`;
  let f = scaledFonts.get(key);
  if (f === undefined) {
    if (scaledFonts.size > 2000) scaledFonts.clear();
    f = font.replace(/(\d+(?:\.\d+)?)px/, (_, px) => `${Math.round(Number(px) * k * 2) / 2}px`);
    scaledFonts.set(key, f);
  }
  return f;
}

function fontPx(font) {
  const m = /(\d+(?:\.\d+)?)px/.exec(font);
  return m ? Number(m[1]) : 14;
}

// The width `s` takes in `font` (scaled as text() would draw it).
export function textWidth(ctx, s, font = FONT) {
  return measure(ctx, scaledFont(ctx, font), String(s));
}

// Words never cut short when text must fit a width: numbers and anything with a digit (cycle
// counts, W3, L20, 0x1f), names with an underscore (stall reasons such as long_scoreboard), and
// the words a caller lists in `keep` (e.g. a stall reason without an underscore).
function kept(word, keep) {
  return /[0-9_]/.test(word) || (keep && keep.some((k) => k && word.includes(k)));
}

// How `t` is drawn within `maxWidth` in `font`: { t, font, squeeze }. First the font shrinks (to
// 80%, never under MIN_TEXT_PX on screen); then it is narrowed (to SQUEEZE); then the other words
// are shortened from the right ("…"); then only the kept words are
// drawn; if even they do not fit, they are drawn whole, squeezed (fillText's maxWidth).
// Cached by width key (widthKey): every text of a key fits as the first one did, since the widths
// are the same and so are the words fitting may shorten (those without digits; see kept).
const fitted = new Map();
function fit(ctx, t, font, maxWidth, keep) {
  const key = `${ctx.zoom || 1}\u0000${font}\u0000${maxWidth}\u0000${keep ? keep.join('\u0001') : ''}\u0000${widthKey(ctx, font, t)}`;
  let r = fitted.get(key);
  if (r === undefined) {
    if (fitted.size > 5000) fitted.clear();
    r = fitUncached(ctx, t, font, maxWidth, keep);
    r.from = t;
    fitted.set(key, r);
  }
  return r.from === t ? r : { t: sameFit(r, t), font: r.font, squeeze: r.squeeze };
}

// What fitting `t` gives, from the fit `r` of a text with t's width key: r's text with its words
// that hold digits (kept whole, in order) replaced by t's.
function sameFit(r, t) {
  if (r.t === r.from) return t;
  const words = t.match(DIGIT_WORDS);
  let i = 0;
  return r.t.replace(DIGIT_WORDS, () => words[i++]);
}
const DIGIT_WORDS = /\S*[0-9]\S*/g;

function fitUncached(ctx, t, font, maxWidth, keep) {
  const w = measure(ctx, font, t);
  if (w <= maxWidth) return { t, font, squeeze: false };
  const px = fontPx(font);
  // Never below MIN_TEXT_PX on screen (issue 30: readable at 1280x720): a zoomed canvas may
  // lay out smaller, since it draws magnified.
  const minPx = Math.min(px, Math.max(MIN_TEXT_PX / (ctx.zoom || 1), Math.floor(px * 0.8 * 2) / 2));
  const need = Math.floor(((px * maxWidth) / w) * 2) / 2;
  if (need >= minPx) {
    // Widths are nearly proportional to the size; step down until it fits.
    for (let p = need; p >= minPx; p -= 0.5) {
      const f = font.replace(/(\d+(?:\.\d+)?)px/, `${p}px`);
      if (measure(ctx, f, t) <= maxWidth) return { t, font: f, squeeze: false };
    }
  }
  const small = font.replace(/(\d+(?:\.\d+)?)px/, `${minPx}px`);
  // A little too wide at the smallest size: drawn whole, narrowed (fillText's maxWidth) to at
  // most SQUEEZE of its width, rather than shortened with "…".
  if (measure(ctx, small, t) * SQUEEZE <= maxWidth) return { t, font: small, squeeze: true };
  const parts = t.split(/(\s+)/);
  const tidy = (ps) => ps.join('').replace(/…(\s*…)+/g, '…').replace(/\s+$/, '');
  for (let i = parts.length - 1; i >= 0; i -= 2) {
    if (i % 2 !== 0 || !parts[i] || kept(parts[i], keep)) continue;
    const word = parts[i];
    for (let n = word.length - 1; n >= 0; n--) {
      parts[i] = `${word.slice(0, n)}…`;
      const s = tidy(parts);
      if (measure(ctx, small, s) <= maxWidth) return { t: s, font: small, squeeze: false };
    }
  }
  const only = parts.filter((p, i) => i % 2 === 0 && p && kept(p, keep)).join(' ') || tidy(parts);
  return { t: only, font: small, squeeze: measure(ctx, small, only) > maxWidth };
}

// Text within `maxWidth` (see fit): numbers and stall reasons are always drawn whole. Returns
// the string drawn; the canvas records it (canvas.drawn) with the size drawn.
export function text(ctx, s, x, y, { colour = UI.text, font = FONT, maxWidth = 1e9, align = 'left', keep = null } = {}) {
  let f = scaledFont(ctx, font);
  let t = String(s);
  let squeeze = false;
  if (maxWidth < 1e9) ({ t, font: f, squeeze } = fit(ctx, t, f, Math.max(1, maxWidth), keep));
  setFont(ctx, f);
  ctx.fillStyle = colour;
  if (align !== 'left') ctx.textAlign = align;
  if (squeeze) ctx.fillText(t, x, y, Math.max(1, maxWidth));
  else ctx.fillText(t, x, y);
  if (align !== 'left') ctx.textAlign = 'left';
  const drawn = ctx.canvas && ctx.canvas.drawn;
  if (drawn && drawn.length < 2000) drawn.push({ s: String(s), t, px: fontPx(f) * (ctx.zoom || 1) });
  return t;
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
