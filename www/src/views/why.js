// "Why?" panel (issue 17): the causal chain behind the selected warp's state in the last cycle,
// or behind one idle lane of it, as the model gives it (Session.why → src/view/why.rs): each link one
// fact the model holds (the register the warp waits for, the load that writes it, its requests
// at the L1D, the set that refused them, who reserved its ways, where the miss is below the L1D).
// Nothing is worked out here: the panel lists the links, each with a button to show its PTX
// line in the editor (naming its CUDA line too, the model's `source_line`, when the program has
// `.loc` lines) and buttons to follow the warps it names. The lane select (or a click on a
// lane in the warp-split view) asks about one lane instead of the whole warp.
import { element, button } from '../dom.js';

export const WHY_BODY = '<div class="why-bar"><label title="Ask about the whole warp, or why one of its lanes is not running">Lane <select class="why-lane"><option value="-1">whole warp</option></select></label><span class="note why-note"></span></div><ol class="why-chain"></ol>';

export function createWhyView(el, app) {
  const laneSelect = el.querySelector('.why-lane');
  const list = el.querySelector('.why-chain');
  const note = el.querySelector('.why-note');
  laneSelect.addEventListener('change', () => {
    laneSelect.blur();
    app.selectLane(Number(laneSelect.value));
  });

  function fillLanes(warpSize, lane) {
    if (laneSelect.options.length !== warpSize + 1) {
      const option = (value, label) => { const o = element('option', '', label); o.value = value; return o; };
      laneSelect.replaceChildren(option('-1', 'whole warp'));
      for (let l = 0; l < warpSize; l++) laneSelect.append(option(String(l), `lane ${l}`));
    }
    laneSelect.value = String(lane);
  }

  function key({ snap, sm, warp, lane }) {
    return `${sm}:${snap.cycle}:${warp}:${lane}:${snap.status}`;
  }

  function linkItem(link) {
    const li = element('li', `why-link why-${link.kind}`);
    li.dataset.kind = link.kind;
    li.append(element('span', 'why-kind', link.kind));
    li.append(element('span', 'why-text', link.text));
    const tools = element('span', 'why-tools');
    if (link.line) {
      const cuda = link.source_line ? ` · CUDA ${link.source_line}` : '';
      const tip = `Show PTX line ${link.line}${link.source_line ? ` (from CUDA line ${link.source_line})` : ''} in the editor`;
      tools.append(button('why-line', `line ${link.line}${cuda}`, tip, (e) => { e.currentTarget.blur(); app.revealLine(link.line); }));
    }
    for (const w of link.warps.slice(0, 8)) {
      tools.append(button('why-warp', `warp ${w}`, `Select warp ${w} and ask why about it`, (e) => { e.currentTarget.blur(); app.selectWarp(w); }));
    }
    if (tools.childElementCount) li.append(tools);
    return li;
  }

  function draw(frame) {
    const { snap, warp, lane } = frame;
    fillLanes(snap.warp_size, lane);
    const why = frame.why();
    if (why.error) {
      note.textContent = why.error;
      list.replaceChildren();
      return;
    }
    const who = why.lane === null ? `warp ${why.warp}` : `lane ${why.lane} of warp ${why.warp}`;
    note.textContent = `${who}, SM ${why.sm}, cycle ${why.cycle}: ${why.state}`;
    list.replaceChildren(...why.links.map(linkItem));
  }

  return { key, draw };
}
