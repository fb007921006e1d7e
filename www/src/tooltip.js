// One tooltip for every canvas: views register regions (canvas.js `region`) with their hover
// text and an optional click action; this module finds the region under the pointer.
import { canvasPoint } from './canvas.js';

export function attachTooltips(root, tooltip) {
  function hit(e) {
    const canvas = e.target;
    if (!(canvas instanceof HTMLCanvasElement) || !canvas.regions) return null;
    const { x, y } = canvasPoint(canvas, e);
    for (let i = canvas.regions.length - 1; i >= 0; i--) {
      const g = canvas.regions[i];
      if (x >= g.x && x < g.x + g.w && y >= g.y && y < g.y + g.h) return g;
    }
    return null;
  }
  root.addEventListener('mousemove', (e) => {
    const g = hit(e);
    if (!g || !g.tip) { tooltip.hidden = true; return; }
    tooltip.textContent = typeof g.tip === 'function' ? g.tip() : g.tip;
    tooltip.hidden = false;
    const pad = 14;
    const w = tooltip.offsetWidth;
    const h = tooltip.offsetHeight;
    tooltip.style.left = `${Math.min(e.clientX + pad, window.innerWidth - w - 4)}px`;
    tooltip.style.top = `${Math.min(e.clientY + pad, window.innerHeight - h - 4)}px`;
    e.target.style.cursor = g.onClick ? 'pointer' : 'default';
  });
  root.addEventListener('mouseleave', () => { tooltip.hidden = true; });
  root.addEventListener('click', (e) => {
    const g = hit(e);
    if (g && g.onClick) g.onClick();
  });
}
