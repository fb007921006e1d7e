// The whole GPU at a glance (issue 30): one cell per SM with its CTAs, IPC and state, as the model
// gives them (Session.gpuStrip → src/view/classroom_view.rs); a click selects that SM for the other
// views. Shown when the machine has more than one SM.
import { element } from '../dom.js';
import { setModel } from '../canvas.js';

export const GPU_BODY = '<div class="gpu-strip" role="list"></div>';
const RUNNING_MS = 250;
const STATE_TEXT = { busy: 'running CTAs', idle: 'waiting for a CTA', done: 'done' };

export function createGpuStripView(el) {
  const strip = el.querySelector('.gpu-strip');

  function key({ snap, build, sm, running, now }) {
    const slot = running ? Math.floor(now / RUNNING_MS) : snap.cycle;
    return `${build}:${sm}:${running ? 'r' : 's'}:${slot}`;
  }

  function draw(frame) {
    const sms = frame.gpuStrip();
    strip.replaceChildren();
    for (const s of sms) {
      const cell = element('button', `gpu-sm gpu-${s.state}${s.sm === frame.sm ? ' selected' : ''}`);
      cell.type = 'button';
      cell.dataset.sm = s.sm;
      cell.setAttribute('role', 'listitem');
      cell.title = `SM ${s.sm}: ${STATE_TEXT[s.state]}; ${s.resident_ctas} CTA(s) and ${s.resident_warps} warp(s) resident, ${s.ctas_done} CTA(s) done, ${s.warp_instructions} warp instructions, IPC ${s.ipc.toFixed(3)} since cycle 0. Click to show this SM.`;
      cell.append(
        element('b', '', `SM ${s.sm}`),
        element('span', '', `${s.resident_ctas} CTA${s.resident_ctas === 1 ? '' : 's'}`),
        element('span', '', `${s.ctas_done} done`),
        element('span', '', `IPC ${s.ipc.toFixed(2)}`),
        element('span', 'gpu-state', s.state),
      );
      cell.addEventListener('click', () => frame.selectSm(s.sm));
      strip.append(cell);
    }
    setModel(el, { sm: frame.sm, cycle: frame.snap.cycle, sms });
  }

  return { key, draw };
}
