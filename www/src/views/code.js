// The Code panel (issue 30): the kernel's CUDA and PTX beside the other views, for presentation
// mode (where the editor is hidden) and the normal layout alike. A window of lines around the
// selected warp's current line: the PTX line marked, the CUDA line it was compiled from marked,
// and the other PTX lines compiled from that CUDA line tinted; each line keeps its number, as
// the captions cite them ("PTX line 60", the blocks A to G of the book's example are the PTX's
// labels). The texts are the Code tab's panes (the input and what the model compiled from it),
// the line mapping the model's listing (source_lines, through source_line.js). All text goes
// in with textContent.
import { cudaLine } from './source_line.js';
import { setModel } from '../canvas.js';

export const CODE_BODY = '<div class="code-cols"><div class="code-col code-cuda"><h3>CUDA</h3><ol></ol></div><div class="code-col code-ptx"><h3>PTX</h3><ol></ol></div></div>';

// Lines shown around the current one: before it and after it; fewer as a miniature beside
// presentation mode's large panel.
const AROUND = { normal: [5, 7], side: [2, 3] };

export function createCodeView(el, app) {
  const cudaCol = el.querySelector('.code-cuda');
  const ptxCol = el.querySelector('.code-ptx');

  // The window of `lines` (text split) around `at` (1-based; 0: the top).
  function window(lines, at) {
    const n = lines.length;
    const [before, after] = AROUND[el.dataset.present === 'side' ? 'side' : 'normal'];
    const size = before + after + 1;
    let first = at > 0 ? at - before : 1;
    first = Math.max(1, Math.min(first, n - size + 1));
    return { first, last: Math.min(n, first + size - 1) };
  }

  function fill(col, text, at, linked) {
    const ol = col.querySelector('ol');
    ol.textContent = '';
    const lines = text.split('\n');
    if (lines.length && lines[lines.length - 1] === '') lines.pop();
    const { first, last } = window(lines, at);
    ol.start = first;
    for (let i = first; i <= last; i++) {
      const li = document.createElement('li');
      li.dataset.line = String(i);
      const no = document.createElement('span');
      no.className = 'code-no';
      no.textContent = String(i);
      const t = document.createElement('span');
      t.className = 'code-text';
      t.textContent = lines[i - 1].replace(/\t/g, '  ');
      li.append(no, t);
      if (i === at) li.className = 'current';
      else if (linked.includes(i)) li.className = 'linked';
      ol.append(li);
    }
    return { first, last };
  }

  function state({ snap, warp }) {
    const line = warp === app.warp ? app.currentLine(snap) : 0;
    const ptx = app.panes.ptx.getText();
    const cuda = app.panes.cudaShown ? app.panes.cuda.getText() : '';
    return { warp, line, cuda: cuda ? cudaLine(app, line) : 0, ptx, cudaText: cuda };
  }

  function draw(frame) {
    if (!app.panes) return; // a page without the editor (bench.html) has no code to show
    const s = state(frame);
    const linked = s.cuda ? app.panes.ptxLines(s.cuda) : [];
    const p = fill(ptxCol, s.ptx, s.line, linked);
    cudaCol.hidden = !s.cudaText;
    const c = s.cudaText ? fill(cudaCol, s.cudaText, s.cuda, []) : null;
    ptxCol.querySelector('h3').textContent = `PTX · warp ${s.warp}${s.line ? ` at line ${s.line}` : ''}`;
    cudaCol.querySelector('h3').textContent = `CUDA${s.cuda ? ` · line ${s.cuda}` : ''}`;
    setModel(el, { warp: s.warp, ptxLine: s.line, cudaLine: s.cuda, ptx: [p.first, p.last], cuda: c ? [c.first, c.last] : null, linked });
  }

  function key(frame) {
    if (!app.panes) return 'no editor';
    const s = state(frame);
    return `${s.warp}|${s.line}|${s.cuda}|${s.ptx.length}|${s.cudaText.length}|${el.dataset.present || ''}`;
  }

  return { draw, key };
}
