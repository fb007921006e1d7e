// The Run / Pause button's face: an SVG triangle or two bars beside the word. Debian's Chromium
// has no font with U+23F8 (⏸), which drew as an empty box (issue 30), so the glyphs are drawn.
const SVG = 'http://www.w3.org/2000/svg';

function icon(running) {
  const svg = document.createElementNS(SVG, 'svg');
  svg.setAttribute('viewBox', '0 0 10 10');
  svg.setAttribute('width', '0.8em');
  svg.setAttribute('height', '0.8em');
  svg.setAttribute('aria-hidden', 'true');
  svg.classList.add('run-icon');
  const shapes = running ? [[1.5, 1, 2.5, 8], [6, 1, 2.5, 8]] : null;
  if (shapes) {
    for (const [x, y, w, h] of shapes) {
      const r = document.createElementNS(SVG, 'rect');
      for (const [k, v] of Object.entries({ x, y, width: w, height: h })) r.setAttribute(k, v);
      svg.append(r);
    }
  } else {
    const p = document.createElementNS(SVG, 'polygon');
    p.setAttribute('points', '1.5,1 9,5 1.5,9');
    svg.append(p);
  }
  return svg;
}

// Shows `button` as Pause (running) or Run; its text stays "Run" / "Pause" for the tests.
export function setRunButton(button, running) {
  button.textContent = '';
  button.append(icon(running), document.createTextNode(running ? ' Pause' : ' Run'));
  button.dataset.state = running ? 'pause' : 'run';
}
