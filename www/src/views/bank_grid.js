// Bank access grid (MODEL.md section 12; book §4.1.1): the latest shared-memory access of the
// selected SM. Banks are columns, serialisation passes are rows; each lane is a cell coloured by
// lane (its number written in it); lanes served the same word in one pass (a broadcast) share
// one joined cell. The degree and the extra cycles are written above.
import { prepare, region, box, text, FONT_BOLD, FONT_SMALL } from '../canvas.js';
import { laneColour, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

export function createBankGridView(el) {
  const canvas = el.querySelector('canvas');
  function draw({ snap }) {
    const g = snap.sm.bank_grid;
    const passes = Math.max(1, g.cycles);
    const rowH = Math.max(12, Math.min(30, Math.floor(380 / passes)));
    const height = 58 + passes * rowH + 10;
    const { ctx, width } = prepare(canvas, Math.max(120, height));
    const summary = g.lanes.length
      ? `degree ${g.degree} · ${g.cycles} pass${g.cycles === 1 ? '' : 'es'} · ${g.extra_cycles} extra cycle${g.extra_cycles === 1 ? '' : 's'} · ${g.lanes.length} lanes`
      : 'no shared-memory access yet';
    text(ctx, `Latest shared access: ${summary}`, 8, 12, { font: FONT_BOLD, colour: g.extra_cycles ? '#d55e00' : UI.accent, maxWidth: width - 16 });
    region(canvas, 0, 0, width, 24, `${GLOSSARY.degree}\n\nThis access: degree ${g.degree}, ${g.cycles} passes, ${g.extra_cycles} extra cycles.`);
    const x0 = 64;
    const cw = Math.max(14, Math.floor((width - x0 - 8) / g.banks));
    for (let b = 0; b < g.banks; b++) {
      const x = x0 + b * cw;
      if (cw >= 20 || b % 2 === 0) text(ctx, b, x + cw / 2, 36, { align: 'center', font: FONT_SMALL, colour: UI.muted });
      region(canvas, x, 28, cw, 16, `Bank ${b} (column). ${GLOSSARY.bankgrid}`);
    }
    text(ctx, 'bank →', 4, 36, { font: FONT_SMALL, colour: UI.muted });
    const cells = groupCells(g.lanes);
    for (let p = 0; p < passes; p++) {
      const y = 48 + p * rowH;
      if (rowH >= 16 || p % 4 === 0) text(ctx, `pass ${p}`, 4, y + rowH / 2, { font: FONT_SMALL, colour: UI.muted });
      for (let b = 0; b < g.banks; b++) box(ctx, x0 + b * cw, y, cw, rowH, { fill: '#1a2029', stroke: '#2b3440' });
    }
    for (const cell of cells) {
      const x = x0 + cell.bank * cw;
      const y = 48 + cell.pass * rowH;
      const fill = laneColour(cell.lanes[0]);
      box(ctx, x + 1, y + 1, cw - 2, rowH - 2, { fill, stroke: cell.lanes.length > 1 ? '#ffffff' : fill, width: cell.lanes.length > 1 ? 2 : 1 });
      const label = cell.lanes.length > 1 ? `${cell.lanes[0]}+${cell.lanes.length - 1}` : String(cell.lanes[0]);
      text(ctx, label, x + cw / 2, y + rowH / 2, { align: 'center', font: FONT_SMALL, colour: inkOn(fill), maxWidth: cw - 2 });
      const tip = cell.lanes.length > 1
        ? `${GLOSSARY.broadcast}\n\nLanes ${cell.lanes.join(', ')} read word ${cell.word} in bank ${cell.bank}, pass ${cell.pass}.`
        : `Lane ${cell.lanes[0]}: word ${cell.word}, bank ${cell.bank}, served in pass ${cell.pass}${cell.pass > 0 ? ' (it waited for earlier passes: a bank conflict)' : ''}.`;
      region(canvas, x, y, cw, rowH, tip);
    }
    canvas.dataset.model = JSON.stringify({ banks: g.banks, degree: g.degree, passes: g.cycles, extra: g.extra_cycles, lanes: g.lanes.length, broadcasts: cells.filter((c) => c.lanes.length > 1).length });
  }
  return { draw };
}

// One cell per (pass, bank, word): the lanes the model served together.
function groupCells(lanes) {
  const map = new Map();
  for (const l of lanes) {
    const key = `${l.pass}:${l.bank}:${l.word}`;
    if (!map.has(key)) map.set(key, { pass: l.pass, bank: l.bank, word: l.word, lanes: [] });
    map.get(key).lanes.push(l.lane);
  }
  return [...map.values()];
}
