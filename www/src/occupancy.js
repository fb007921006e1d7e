// The Setup tab's occupancy calculator (issue 16; Unified MICRO'12 §4.5): registers a thread,
// shared bytes per thread or per CTA, capacity and mode in; threads and the registers / shared /
// cache KB out. The division is the model's (`unifiedPartition`, the code `warpstep occupancy`
// and the launch use); this module only reads the fields and writes the answer or the model's
// error message.
import { unifiedPartition } from '../../pkg/warpstep.js';
import { GLOSSARY } from './glossary.js';

export function createOccupancyCalculator(root = document) {
  const $ = (id) => root.getElementById(id);
  const fields = ['occ-regs', 'occ-per', 'occ-smem', 'occ-block', 'occ-capacity', 'occ-mode'].map($);
  const [regs, per, smem, block, capacity, mode] = fields;
  const result = $('occ-result');
  const error = $('occ-error');
  $('occupancy').querySelector('summary').title = GLOSSARY.occupancy;
  const num = (el) => (el.value.trim() === '' ? undefined : Number(el.value));

  function update() {
    const perCta = per.value === 'cta';
    try {
      if (regs.value.trim() === '') throw new Error('--regs: how many registers a thread?');
      if (perCta && num(block) === undefined) throw new Error('--smem-per-cta needs --block: how many threads a CTA?');
      const out = JSON.parse(unifiedPartition(
        Number(regs.value),
        perCta ? undefined : (num(smem) ?? 0),
        perCta ? (num(smem) ?? 0) : undefined,
        num(block),
        Number(capacity.value),
        mode.value,
      ));
      const kb = (v) => `${Number(v.toFixed(2))} KB`;
      result.innerHTML = `<b>${out.threads} threads</b> (${Number(out.bytes_per_thread.toFixed(2))} bytes a thread): registers <b>${kb(out.registers_kb)}</b> · shared <b>${kb(out.shared_kb)}</b> · cache <b>${kb(out.cache_kb)}</b> (${out.cache_sets} sets) of ${kb(out.capacity_kb)}, ${out.mode}`;
      result.dataset.model = JSON.stringify(out);
      result.hidden = false;
      error.hidden = true;
    } catch (err) {
      error.textContent = `occupancy: ${err.message}`;
      error.hidden = false;
      result.hidden = true;
      result.dataset.model = JSON.stringify({ error: err.message });
    }
  }
  for (const f of fields) f.addEventListener('input', update);
  for (const f of fields) f.addEventListener('change', update);
  update();
  return { update };
}
