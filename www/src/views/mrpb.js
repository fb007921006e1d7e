// MRPB queues (MODEL.md sections 10 and 12): a reserved panel. It reads the configuration in
// effect and says whether MRPB is switched on; the MRPB issue fills it with one row per queue.
import { prepare, region, box, text, FONT_BOLD, setModel } from '../canvas.js';
import { UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

export function createMrpbView(el) {
  const canvas = el.querySelector('canvas');
  function draw({ config }) {
    const { ctx, width } = prepare(canvas, 84);
    const on = Boolean(config && config.mrpb && config.mrpb.enabled);
    box(ctx, 8, 6, width - 16, 72, { fill: '#161b22', dash: [6, 4] });
    text(ctx, on ? 'MRPB is on, but its queues are not built yet.' : 'MRPB is off in this configuration (mrpb.enabled = false).', 18, 26, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 40 });
    text(ctx, 'When built, this panel shows one row per queue: slots, head/tail, age, and the queue chosen this cycle and why.', 18, 54, { colour: UI.muted, maxWidth: width - 40 });
    region(canvas, 8, 6, width - 16, 72, GLOSSARY.mrpb);
    setModel(canvas, { enabled: on });
  }
  return { draw };
}
