// Output buffers (issue 30): the kernel's buffer arguments as the model holds them at this cycle
// (Session.outputBuffers → src/view/classroom_view.rs), each value that differs from the launch's
// marked. Nothing is worked out here: the model says which values changed. While running, the
// panel follows at most a few times a second (reading the buffers is a copy of global memory).
import { element } from '../dom.js';
import { setModel } from '../canvas.js';

export const BUFFERS_BODY = '<p class="note buffers-note"></p><div class="buffers"></div>';
// Values shown per buffer (the model gives up to 4096; the rest are counted).
const SHOWN = 256;
const RUNNING_MS = 300;

function show(v, elem) {
  if (typeof v !== 'number') return String(v);
  if (elem.startsWith('f') && !Number.isInteger(v)) return String(Number(v.toPrecision(6)));
  return String(v);
}

export function createBuffersView(el) {
  const list = el.querySelector('.buffers');
  const note = el.querySelector('.buffers-note');
  let last = 0;

  function key({ snap, build, running, now }) {
    // While running, a new key at most every RUNNING_MS (the last state is drawn on pausing).
    const slot = running ? Math.floor(now / RUNNING_MS) : snap.cycle;
    return `${build}:${running ? 'r' : 's'}:${slot}`;
  }

  function draw(frame) {
    const { snap } = frame;
    last = snap.cycle;
    const bufs = frame.outputBuffers();
    list.replaceChildren();
    const when = snap.status === 'completed' ? `after the run (cycle ${snap.cycle})` : `at cycle ${snap.cycle}`;
    note.textContent = bufs.length
      ? `The kernel's buffers ${when}; values changed since the launch are marked.`
      : 'This kernel has no buffer arguments.';
    for (const b of bufs) {
      const box = element('div', 'buffer');
      box.dataset.arg = b.arg;
      const changed = new Set(b.changed);
      const head = `arg ${b.arg}${b.name ? ` · ${b.name}` : ''} · ${b.elem}[${b.count}] · ${b.changed_count} of ${b.count} changed`;
      box.append(element('div', 'buffer-head', head));
      const grid = element('div', 'buffer-grid');
      const n = Math.min(SHOWN, b.values.length);
      for (let i = 0; i < n; i++) {
        const cell = element('span', changed.has(i) ? 'buffer-cell changed' : 'buffer-cell');
        cell.append(element('i', '', String(i)), element('b', '', show(b.values[i], b.elem)));
        cell.title = `${b.name || `arg ${b.arg}`}[${i}] = ${b.values[i]}${changed.has(i) ? ' (changed since the launch)' : ''}`;
        grid.append(cell);
      }
      box.append(grid);
      if (b.count > n) box.append(element('div', 'note', `first ${n} of ${b.count} values shown`));
      list.append(box);
    }
    setModel(el, {
      cycle: last,
      buffers: bufs.map((b) => ({ arg: b.arg, name: b.name, elem: b.elem, count: b.count, changed_count: b.changed_count, changed: b.changed.slice(0, 64), values: b.values.slice(0, 64) })),
    });
  }

  return { key, draw };
}
