// Energy view (issue 16; Unified MICRO'12 §5.2, Tables 3-4; docs/energy.md): the run's energy so
// far as one stacked horizontal bar of its eight parts, with a legend naming each part and its
// share. Every number is the snapshot's `stats.energy` (priced by the model, src/energy.rs):
// nothing is recomputed here. The bar's full width is a 1-2-5 step at or above the total, so the
// bar grows as the kernel runs and the scale steps up when the total passes it.
import { prepare, region, box, text, textWidth, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

// The parts in src/energy.rs's order (EnergyReport::parts), with a name and a colour each.
export const ENERGY_PARTS = [
  { key: 'register_file_pj', name: 'register file', colour: OKABE.sky, tip: 'energy_register_file' },
  { key: 'register_hierarchy_pj', name: 'ORF/LRF', colour: OKABE.orange, tip: 'energy_register_hierarchy' },
  { key: 'shared_memory_pj', name: 'shared memory', colour: OKABE.green, tip: 'energy_shared_memory' },
  { key: 'l1d_pj', name: 'L1D', colour: OKABE.yellow, tip: 'energy_l1d' },
  { key: 'dram_pj', name: 'DRAM', colour: OKABE.vermillion, tip: 'energy_dram' },
  { key: 'sram_leakage_pj', name: 'SRAM leakage', colour: OKABE.purple, tip: 'energy_sram_leakage' },
  { key: 'sm_dynamic_pj', name: 'SM dynamic', colour: OKABE.blue, tip: 'energy_sm_dynamic' },
  { key: 'core_leakage_pj', name: 'core leakage', colour: '#8a96a3', tip: 'energy_core_leakage' },
];
const RUNNING_MS = 200;
const BAR_Y = 30;
const BAR_H = 30;
const LEGEND_Y = BAR_Y + BAR_H + 26;
const LEGEND_ROW = 20;

export function createEnergyView(el) {
  const canvas = el.querySelector('canvas');
  function key({ snap, sm, running, now }) {
    return running ? `run:${Math.floor(now / RUNNING_MS)}` : `${sm}:${snap.cycle}:${snap.status}`;
  }
  function draw({ snap }) {
    const e = snap.stats.energy;
    const { ctx, width } = prepare(canvas, LEGEND_Y + Math.ceil(ENERGY_PARTS.length / 2) * LEGEND_ROW + 6);
    const total = e.total_pj;
    const scale = niceScale(total);
    const totalText = `${(total / 1e6).toFixed(3)} µJ`;
    text(ctx, `Energy so far: ${totalText} (${e.unified ? 'unified prices' : 'partitioned prices'}, cycle ${snap.cycle})`, 8, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 16 });
    region(canvas, 0, 0, width, 22, GLOSSARY.energy);
    const scaleW = 120;
    const barW = Math.max(100, width - 16 - scaleW);
    box(ctx, 8, BAR_Y, barW, BAR_H, { fill: '#1c232c' });
    let x = 8;
    for (const p of ENERGY_PARTS) {
      const v = e[p.key];
      const w = scale ? (barW * v) / scale : 0;
      if (w > 0) {
        ctx.fillStyle = p.colour;
        ctx.fillRect(x, BAR_Y + 1, w, BAR_H - 2);
        if (w > 40) text(ctx, pct(v, total), x + w / 2, BAR_Y + BAR_H / 2, { font: FONT_SMALL, colour: inkOn(p.colour), align: 'center', maxWidth: w - 4 });
        region(canvas, x, BAR_Y, Math.max(w, 2), BAR_H, `${GLOSSARY[p.tip]}\n\n${p.name}: ${nj(v)} (${pct(v, total)} of ${totalText}).`);
      }
      x += w;
    }
    // The total's end, and the scale at the bar's end.
    ctx.fillStyle = UI.text;
    ctx.fillRect(Math.min(x, 8 + barW - 2), BAR_Y - 4, 2, BAR_H + 8);
    text(ctx, `full: ${uj(scale)}`, 8 + barW + 8, BAR_Y + BAR_H / 2, { font: FONT_SMALL, colour: UI.muted, maxWidth: scaleW - 8 });
    region(canvas, 8 + barW, BAR_Y, scaleW, BAR_H, GLOSSARY.energy);
    text(ctx, '0', 8, BAR_Y + BAR_H + 10, { font: FONT_SMALL, colour: UI.muted });
    text(ctx, uj(scale / 2), 8 + barW / 2, BAR_Y + BAR_H + 10, { font: FONT_SMALL, colour: UI.muted, align: 'center' });
    ctx.fillStyle = UI.boxLine;
    ctx.fillRect(8 + barW / 2, BAR_Y + BAR_H, 1, 4);
    // Legend: two columns of colour, name, energy and share.
    const colW = Math.floor((width - 16) / 2);
    // The value column starts after the widest name as drawn (fonts grow with the view's zoom).
    const nameW = Math.min(Math.max(...ENERGY_PARTS.map((p) => textWidth(ctx, p.name, FONT_SMALL))), colW / 2 - 20);
    ENERGY_PARTS.forEach((p, i) => {
      const lx = 8 + (i % 2) * colW;
      const ly = LEGEND_Y + Math.floor(i / 2) * LEGEND_ROW;
      box(ctx, lx, ly - 7, 14, 14, { fill: p.colour, stroke: '#0b0f14' });
      const v = e[p.key];
      text(ctx, `${p.name}`, lx + 20, ly, { font: FONT_SMALL, colour: UI.text, maxWidth: nameW });
      text(ctx, `${nj(v)} · ${pct(v, total)}`, lx + 32 + nameW, ly, { font: FONT_SMALL, colour: UI.muted, maxWidth: colW - 40 - nameW });
      region(canvas, lx, ly - 9, colW, LEGEND_ROW, `${GLOSSARY[p.tip]}\n\n${p.name}: ${nj(v)}.`);
    });
    setModel(canvas, {
      cycle: snap.cycle,
      totalPj: total,
      scalePj: scale,
      unified: e.unified,
      parts: Object.fromEntries(ENERGY_PARTS.map((p) => [p.key, e[p.key]])),
      label: totalText,
    });
  }
  return { draw, key };
}

// The smallest 1, 2 or 5 x 10^k picojoules at or above `pj` (at least 1 nJ).
export function niceScale(pj) {
  const v = Math.max(pj, 1000);
  const p = 10 ** Math.floor(Math.log10(v));
  for (const m of [1, 2, 5, 10]) if (m * p >= v) return m * p;
  return 10 * p;
}

function pct(v, total) {
  return total > 0 ? `${((100 * v) / total).toFixed(1)}%` : '0%';
}

function nj(pj) {
  return pj >= 1e6 ? `${(pj / 1e6).toFixed(3)} µJ` : `${(pj / 1e3).toFixed(1)} nJ`;
}

function uj(pj) {
  const u = pj / 1e6;
  return u >= 1 ? `${Number(u.toPrecision(3))} µJ` : `${Number((pj / 1e3).toPrecision(3))} nJ`;
}
