// Presentation mode's caption bar, as methods of the Presenter (present.js mixes them in): a
// head line (the lesson and step, or the example; the cycle; a chip per chosen panel, the large
// one marked; Panels, Laser, Leave) over the step's text, what to look at and the question in
// large type, and the Panels list (a checkbox per panel, its number key in front). Text only.
import { element, button } from './dom.js';
import { exampleById } from './examples.js';

const $ = (id) => document.getElementById(id);

export const presentCaption = {
  // The bar at the bottom: a head line (lesson and step, or the example; the cycle; the chosen
  // panels, the large one marked; Panels, Laser, Leave) over the step's text, what to look at
  // and the question.
  makeCaption() {
    const el = element('section', 'present-caption');
    el.id = 'present-caption';
    el.setAttribute('aria-label', 'Presentation caption');
    el.hidden = true;
    const head = element('div', 'present-head');
    const title = element('b', 'present-title');
    const count = element('span', 'present-count');
    const cycleBox = element('span', 'present-cycle', 'cycle ');
    const cycle = element('b', 'present-cycle-n', '0');
    cycleBox.append(cycle);
    const chips = element('span', 'present-chips');
    const panels = button('present-panels', 'Panels', 'Pick the panels to show (number keys 1 … 0)', () => this.togglePicker());
    const laser = button('present-laser', 'Laser', 'Laser pointer on / off (L)', () => this.setLaser(!this.laser));
    const leave = button('present-leave', 'Leave (Esc)', 'Leave presentation mode (Esc or Shift+P)', () => this.leave());
    head.append(title, count, cycleBox, chips, panels, laser, leave);
    const body = element('div', 'present-body');
    const text = element('p', 'present-text');
    const look = element('p', 'present-look');
    const question = element('p', 'present-question');
    body.append(text, look, question);
    const picker = element('div', 'present-picker');
    picker.hidden = true;
    el.append(picker, head, body);
    $('app').after(el);
    this.caption = { el, title, count, cycle, chips, laser, body, text, look, question, picker };
  },

  refreshCaption() {
    const c = this.caption;
    this.captionFor = this.app.loaded;
    const cur = this.app.lessons.current();
    if (cur) {
      const { lesson, step, index } = cur;
      c.title.textContent = lesson.title;
      c.count.textContent = `step ${index + 1} of ${lesson.steps.length}`;
      c.text.textContent = this.app.lessons.stepText(step);
      c.look.textContent = this.app.lessons.lookText(step);
      c.question.textContent = step.question ? `Question: ${step.question}` : '';
    } else {
      const l = this.app.loaded;
      const e = l && l.example ? exampleById(l.example) : null;
      c.title.textContent = e ? e.title : 'Your kernel';
      c.count.textContent = '';
      c.text.textContent = '';
      c.look.textContent = '';
      c.question.textContent = '';
    }
    c.body.hidden = !cur;
    c.question.hidden = !c.question.textContent;
    c.look.hidden = !c.look.textContent;
    this.fillChips();
    if (!c.picker.hidden) this.fillPicker();
  },

  // One chip per chosen panel: its number (the key that hides it) and title; a click makes it
  // large.
  fillChips() {
    const chips = this.caption.chips;
    chips.textContent = '';
    for (const id of this.chosen) {
      const v = this.viewOf(id);
      const n = this.ids.indexOf(id) + 1;
      const name = v.el.querySelector('header h2').textContent;
      const b = button(`present-chip${id === this.main ? ' main' : ''}`, `${n % 10} ${name}`, id === this.main ? `${name}: the large panel` : `Make ${name} the large panel (V cycles)`, () => this.setMain(id));
      b.dataset.panel = id;
      chips.append(b);
    }
  },

  togglePicker() {
    const p = this.caption.picker;
    p.hidden = !p.hidden;
    if (!p.hidden) this.fillPicker();
  },

  // Every panel with a checkbox (number key in front); a change shows or hides it.
  fillPicker() {
    const p = this.caption.picker;
    p.textContent = '';
    this.ids.forEach((id, i) => {
      const v = this.viewOf(id);
      const label = element('label', 'present-pick');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.checked = this.chosen.includes(id);
      box.dataset.panel = id;
      box.addEventListener('change', () => {
        box.blur();
        this.togglePanel(id);
      });
      const key = element('kbd', '', i < 10 ? String((i + 1) % 10) : ' ');
      label.append(box, key, document.createTextNode(` ${v.el.querySelector('header h2').textContent}${v.el.hidden ? ' (not in this run)' : ''}`));
      p.append(label);
    });
  },
};
