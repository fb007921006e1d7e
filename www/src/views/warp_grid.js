// The compact column of every warp slot beside the SIMT stack and warp-split views: a titled grid
// of boxes, the selected warp outlined; `cell` draws one slot's content and returns its tooltip.
// A click on a slot selects that warp.
import { region, box, text, FONT_BOLD, FONT_SMALL } from '../canvas.js';
import { UI } from '../palette.js';

export function drawWarpGrid(canvas, ctx, { x0, width, height, title }, { snap, warp }, app, cell) {
  text(ctx, title, x0, 12, { font: FONT_BOLD, colour: UI.accent, maxWidth: width });
  const warps = snap.sm.warps;
  const perRow = Math.max(1, Math.min(warps.length, 16));
  const cw = Math.max(10, Math.min(48, Math.floor(width / perRow) - 3));
  const rows = Math.ceil(warps.length / perRow);
  const ch = Math.min(110, Math.floor((height - 30) / rows) - 6);
  warps.forEach((w, i) => {
    const x = x0 + (i % perRow) * (cw + 3);
    const y = 28 + Math.floor(i / perRow) * (ch + 6);
    box(ctx, x, y, cw, ch, { fill: '#1c232c', stroke: i === warp ? UI.selected : UI.boxLine, width: i === warp ? 3 : 1 });
    if (cw >= 16) text(ctx, i, x + cw / 2, y + 8, { align: 'center', font: FONT_SMALL, colour: UI.muted });
    const tip = w ? cell(w, i, x, y, cw, ch) : `Warp slot ${i}: empty.`;
    region(canvas, x, y, cw, ch, tip, () => app.selectWarp(i));
  });
}
