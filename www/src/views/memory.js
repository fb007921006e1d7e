// Memory view (MODEL.md section 12): what the memory side of the selected SM does this cycle.
// Register-file banks (the operand collector's reads and writes) are drawn now; the L1 data
// cache (sets x ways: valid / reserved / LRU), its MSHRs and the miss queue have a reserved,
// labelled panel until the memory-system model exports them in the snapshot.
import { prepare, region, box, text, FONT_BOLD, FONT_SMALL } from '../canvas.js';
import { OKABE, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

export function createMemoryView(el) {
  const canvas = el.querySelector('canvas');
  function draw({ snap }) {
    const { ctx, width } = prepare(canvas, 190);
    const banks = snap.sm.register_banks;
    text(ctx, 'Register-file banks this cycle', 8, 12, { font: FONT_BOLD, colour: UI.accent });
    const cw = Math.max(40, Math.min(110, Math.floor((width - 16) / Math.max(1, banks.length)) - 4));
    banks.forEach((b, i) => {
      const x = 8 + i * (cw + 4);
      const fill = b.kind === 'read' ? OKABE.sky : b.kind === 'write' ? OKABE.orange : '#1c232c';
      box(ctx, x, 26, cw, 44, { fill });
      text(ctx, cw >= 56 ? `bank ${i}` : `b${i}`, x + 4, 36, { font: FONT_SMALL, colour: b.kind === 'idle' ? UI.muted : inkOn(fill) });
      text(ctx, b.kind === 'idle' ? 'idle' : `${b.kind === 'read' ? 'R' : 'W'} W${b.warp} ${b.reg}`, x + 4, 56, { font: FONT_SMALL, colour: b.kind === 'idle' ? UI.muted : inkOn(fill), maxWidth: cw - 6 });
      region(canvas, x, 26, cw, 44, `${GLOSSARY.regbank}\n\nBank ${i}: ${b.kind === 'idle' ? 'idle' : `${b.kind} of ${b.reg} for warp ${b.warp}`}.`);
    });
    const y = 84;
    box(ctx, 8, y, width - 16, 96, { fill: '#161b22', dash: [6, 4] });
    const l1 = snap.sm.l1;
    text(ctx, 'L1 data cache · MSHRs · miss queue', 18, y + 16, { font: FONT_BOLD, colour: UI.accent });
    text(ctx, l1 ? 'The snapshot carries L1 state; its drawing lands with the memory-system issue.' : 'Not in the model yet: the memory-system issue adds L1 sets x ways (valid / reserved / LRU),', 18, y + 42, { colour: UI.muted, maxWidth: width - 40 });
    if (!l1) text(ctx, 'MSHRs and the miss queue to the snapshot; this panel will draw them.', 18, y + 62, { colour: UI.muted, maxWidth: width - 40 });
    text(ctx, `Global requests so far: ${snap.sm.stats.global_requests} (fixed-latency placeholder memory).`, 18, y + 84, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 40 });
    region(canvas, 8, y, width - 16, 96, GLOSSARY.l1);
    canvas.dataset.model = JSON.stringify({ banks: banks.map((b) => b.kind), l1: Boolean(l1) });
  }
  return { draw };
}
