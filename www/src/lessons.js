// Lessons (lessons/README.md): short sequences of steps stored as JSON files in the repository's
// lessons/ directory, bundled by Vite, opened from the top bar's Lessons select or by URL
// (#lesson=<id>&step=<n>, n from 1). A step names a cycle or a breakpoint line, the view to
// highlight (and, optionally, other panels to show beside it in presentation mode) and a
// question; the player loads the lesson's kernel (an example or a .ptx file of
// its own in lessons/) once, goes to the step with the session's own calls (runToLine in a
// scratch Session to find a breakpoint's hit, then the app's runTo, which replays or steps
// back), and shows the step's text in a caption box (and tells its listeners, such as
// presentation mode's caption, that the step changed). It computes no hardware behaviour. All
// lesson text goes in with textContent.
//
// A lesson recorded in the app travels as a file (Export lesson) or as a link (Copy link:
// #lessonData=<the lesson's JSON deflated and base64url-encoded, share.js>&step=<n>), which
// plays like a bundled lesson. A lesson from a link is data from anywhere: it is checked field
// by field exactly as the bundled lessons are (lessonProblems) before anything on screen
// changes, and a damaged one leaves the current state with a message.
//
// Checking a lesson is lesson_check.js; recording one in the app, lesson_recorder.js.
import { element, button } from './dom.js';
import { Session } from '../../pkg/warpstep.js';
import { fillText } from './lesson_text.js';
import { decodeLesson, uriText } from './share.js';
import { lessonProblems } from './lesson_check.js';
import { lessonRecorder } from './lesson_recorder.js';
import { stepInput } from './lesson_input.js';

// Checking lessons lives in lesson_check.js; these names are imported from here too.
export { lessonProblems, valueAt, LESSON_LIMITS } from './lesson_check.js';
export { stepInput } from './lesson_input.js';

const FILES = import.meta.glob('../../lessons/*.json', { eager: true, import: 'default' });

// The lessons, in file-name order, each with the file it came from.
export const LESSONS = Object.keys(FILES).sort().map((path) => ({ ...FILES[path], file: path.replace(/^.*\//, '') }));

// The most cycles a breakpoint step is searched for, and the run budget of each search call.
const MAX_BREAK_CYCLES = 2_000_000;
const BREAK_BUDGET = 100_000;
// Element keys a view understands (step.highlight): a selector inside the view's panel.
export const HIGHLIGHT_KEYS = {
  simt: { compare: '.divergence-run' },
  pipeline: { compare: '.compare-bar button' },
  timeline: { export: '.export-perfetto' },
};

// The panels a step shows in presentation mode: its view (the large one), then its `panels`.
export function stepPanels(step) {
  return [step.view, ...(Array.isArray(step.panels) ? step.panels.filter((p) => p !== step.view) : [])];
}

export function lessonById(id) {
  return LESSONS.find((l) => l.id === id);
}

// The lesson and step (from 1) a URL names: #lesson=<id>&step=<n> (maybe with &present=…, which
// share.js reads); null if none.
export function lessonInUrl() {
  const m = window.location.hash.match(/^#lesson=([^&]*)(?:&step=([^&]*))?(?:&present=[^&]*)?$/);
  if (!m) return null;
  return { id: uriText(m[1]), step: m[2] === undefined ? '1' : uriText(m[2]) };
}

// The Lessons select's entry for a lesson opened from a link.
const LINK_OPTION = '#link';

export class LessonPlayer {
  constructor(app) {
    this.app = app;
    this.lesson = null;
    this.link = null; // the encoded data of the lesson link on screen (null: a bundled lesson)
    this.index = 0;
    this.cycles = []; // resolved cycle of each step (breakpoint steps found once)
    this.hits = []; // each breakpoint step's hit: { cycle, line, sm, warp }
    this.loadedKey = null; // the kernel input loaded for this lesson
    this.setBreak = null; // the breakpoint line the lesson put in the editor
    this.views = app.views.map((v) => v.id);
    this.listeners = [];
    this.makeBox();
    this.fillSelect();
    this.recorded = [];
    this.makeRecorder();
    document.addEventListener('keydown', (e) => {
      if (!this.lesson || e.ctrlKey || e.altKey || e.metaKey) return;
      if (e.target.closest && e.target.closest('input, textarea, select, .cm-editor')) return;
      if (e.key === 'PageDown') { e.preventDefault(); this.next(); }
      if (e.key === 'PageUp') { e.preventDefault(); this.prev(); }
    });
  }

  // `fn` runs after every step shown and when the lesson closes (presentation mode's caption).
  onChange(fn) {
    this.listeners.push(fn);
  }

  changed() {
    for (const fn of this.listeners) fn();
  }

  // The step's text with its `{path}` fields filled from the snapshot (lesson_text.js) once the
  // app stands at the step's cycle; "…" in their place before.
  stepText(step) {
    const snap = this.app.snap;
    const at = snap && String(snap.cycle) === document.body.dataset.lessonCycle && this.lesson && step === this.lesson.steps[this.index];
    return fillText(step.text, at ? snap : null);
  }

  // After every redraw (app.draw): the step's text is filled in when the app reaches the step's
  // cycle (a field's value may need a long run); its listeners hear of it.
  update(snap) {
    if (!this.lesson || this.filledAt === snap.cycle || String(snap.cycle) !== document.body.dataset.lessonCycle) return;
    this.filledAt = snap.cycle;
    const step = this.lesson.steps[this.index];
    if (!/\{[A-Za-z0-9_.]+(\|[a-z%]+)?\}/.test(step.text)) return;
    this.box.text.textContent = this.stepText(step);
    this.changed();
  }

  // The breakpoint line the open step stopped at, for warp `warp` of SM `sm` at `cycle` (0: none).
  breakLineAt(cycle, sm, warp) {
    const h = this.lesson ? this.hits[this.index] : null;
    return h && h.cycle === cycle && h.sm === sm && h.warp === warp ? h.line : 0;
  }

  // The open lesson, its step and the step's index, or null.
  current() {
    return this.lesson ? { lesson: this.lesson, step: this.lesson.steps[this.index], index: this.index } : null;
  }

  // Each lesson's problems by id (the tests: every lesson can be played).
  problems() {
    return Object.fromEntries(LESSONS.map((l) => [l.id, lessonProblems(l, this.views)]));
  }

  problemsOf(lesson) {
    return lessonProblems(lesson, this.views);
  }

  fillSelect() {
    const select = document.getElementById('lesson-select');
    if (!select) return;
    const none = document.createElement('option');
    none.value = '';
    none.textContent = 'Lessons…';
    select.append(none);
    for (const l of LESSONS) {
      const o = document.createElement('option');
      o.value = l.id;
      o.textContent = l.title;
      select.append(o);
    }
    select.addEventListener('change', () => {
      if (select.value === LINK_OPTION) {
        if (this.link) this.openLink(this.link, 1);
      } else if (select.value) this.open(select.value, 1);
      else this.close();
    });
    this.select = select;
  }

  makeBox() {
    const box = document.createElement('section');
    box.id = 'lesson';
    box.className = 'lesson';
    box.setAttribute('aria-label', 'Lesson');
    box.hidden = true;
    const head = element('div', 'lesson-head');
    const title = element('b', 'lesson-title');
    const count = element('span', 'lesson-count muted');
    const prev = button('lesson-prev', '‹ Prev', 'Previous step (P or Page Up)', () => this.prev());
    const next = button('lesson-next', 'Next ›', 'Next step (N or Page Down)', () => this.next());
    const close = button('lesson-close', '×', 'Close the lesson', () => this.close());
    head.append(title, count, prev, next, close);
    const text = element('p', 'lesson-text');
    const look = element('p', 'lesson-look muted');
    const question = element('p', 'lesson-question');
    box.append(head, text, look, question);
    document.getElementById('banner').before(box);
    this.box = { el: box, title, count, prev, next, text, look, question };
  }

  // Opens lesson `id` at step `step` (from 1; a number or the URL's text). A bad id or step
  // shows a notice and keeps the current state. Returns whether it opened.
  open(id, step) {
    const lesson = lessonById(id);
    if (!lesson) {
      this.app.showNotice(`There is no lesson ${JSON.stringify(String(id).slice(0, 60))}. Lessons: ${LESSONS.map((l) => l.id).join(', ')}. The current state stays.`);
      this.syncSelect();
      return false;
    }
    return this.play(lesson, step, null, `The lesson ${lesson.id}`);
  }

  // Opens the lesson in a lesson link (`data`: the text after #lessonData=) at step `step`.
  // A damaged link, or a lesson in it that would not pass as a bundled one, shows what is
  // wrong and keeps the current state. Returns whether it opened.
  openLink(data, step) {
    let lesson;
    try {
      lesson = this.link === data && this.lesson ? this.lesson : decodeLesson(data);
    } catch (err) {
      this.app.showNotice(`This lesson link cannot be opened: ${err.message}. ${this.app.session ? 'The current state stays.' : 'Showing the default example instead.'}`);
      this.syncSelect();
      return false;
    }
    return this.play(lesson, step, data, 'The linked lesson');
  }

  play(lesson, step, link, name) {
    const problems = lessonProblems(lesson, this.views);
    if (problems.length) {
      const shown = problems.slice(0, 5).join('; ') + (problems.length > 5 ? `; and ${problems.length - 5} more` : '');
      this.app.showNotice(`${link ? 'This lesson link cannot be opened: its lesson' : name} cannot be played: ${shown}. ${this.app.session ? 'The current state stays.' : 'Showing the default example instead.'}`);
      this.syncSelect();
      return false;
    }
    const n = Number(step);
    if (!Number.isInteger(n) || n < 1 || n > lesson.steps.length) {
      this.app.showNotice(`${name} ${link ? `"${lesson.title.slice(0, 60)}" ` : ''}has no step ${JSON.stringify(String(step).slice(0, 20))} (its steps are 1 to ${lesson.steps.length}). The current state stays.`);
      this.syncSelect();
      return false;
    }
    if (this.lesson !== lesson) {
      this.lesson = lesson;
      this.cycles = [];
      this.hits = [];
      this.loadedKey = null;
    }
    this.link = link;
    return this.go(n - 1);
  }

  close() {
    this.lesson = null;
    this.link = null;
    this.box.el.hidden = true;
    this.clearHighlight();
    this.clearBreak();
    delete document.body.dataset.lesson;
    delete document.body.dataset.lessonStep;
    delete document.body.dataset.lessonCycle;
    this.syncSelect();
    if (/^#lesson(Data)?=/.test(window.location.hash)) history.replaceState(null, '', window.location.pathname + window.location.search);
    this.changed();
  }

  next() {
    if (this.lesson && this.index + 1 < this.lesson.steps.length) this.go(this.index + 1);
  }

  prev() {
    if (this.lesson && this.index > 0) this.go(this.index - 1);
  }

  // The select shows the lesson on screen; a linked lesson gets an entry of its own while open.
  syncSelect() {
    if (!this.select) return;
    let opt = [...this.select.options].find((o) => o.value === LINK_OPTION);
    if (this.lesson && this.link) {
      if (!opt) {
        opt = document.createElement('option');
        opt.value = LINK_OPTION;
        this.select.append(opt);
      }
      opt.textContent = `Linked: ${this.lesson.title}`;
      this.select.value = LINK_OPTION;
      return;
    }
    if (opt) opt.remove();
    this.select.value = this.lesson ? this.lesson.id : '';
  }

  // The cycle step i goes to: its cycle, or the cycle of the breakpoint line's hit (the `hit`th
  // after the previous step's cycle on the same kernel, else after cycle 0), found in a scratch
  // Session so the one on screen does not move. Null if the line is never reached.
  resolve(i) {
    if (this.cycles[i] !== undefined) return this.cycles[i];
    const steps = this.lesson.steps;
    const s = steps[i];
    let cycle = null;
    if (Number.isInteger(s.cycle)) {
      cycle = s.cycle;
    } else {
      const input = stepInput(this.lesson, s);
      const key = JSON.stringify(input);
      const from = i > 0 && JSON.stringify(stepInput(this.lesson, steps[i - 1])) === key ? this.resolve(i - 1) : 0;
      const session = new Session(input.ptx, input.launch, input.preset, input.sets);
      try {
        if (from) session.runUntil(from, MAX_BREAK_CYCLES);
        const stops = this.app.tables.stop_reasons;
        for (let hit = 0; hit < (s.hit || 1); hit++) {
          let stop = 'budget';
          while (stop === 'budget' && session.cycle() < from + MAX_BREAK_CYCLES) stop = stops[session.runToLine(s.breakpoint, BREAK_BUDGET)];
          if (stop !== 'breakpoint') return (this.cycles[i] = null);
        }
        cycle = session.cycle();
        // The warp whose instruction on the line stopped the search: the app marks that line
        // for it at this cycle (app.currentLine), as after a stop at a breakpoint.
        this.hits[i] = { cycle, line: session.breakLine(), sm: session.breakSm(), warp: session.breakWarp() };
      } finally {
        session.free();
      }
    }
    this.cycles[i] = cycle;
    return cycle;
  }

  // Goes to step i of the open lesson: loads its kernel if another is on screen, goes to its
  // cycle, highlights its view and shows its text and question.
  go(i) {
    const lesson = this.lesson;
    const step = lesson.steps[i];
    const input = stepInput(lesson, step);
    const key = JSON.stringify(input);
    let cycle;
    try {
      cycle = this.resolve(i);
    } catch (err) {
      this.app.showNotice(`The lesson ${lesson.id}, step ${i + 1}, cannot be played: ${err.message}. The current state stays.`);
      return false;
    }
    if (cycle === null) {
      this.app.showNotice(`The lesson ${lesson.id}, step ${i + 1}: line ${step.breakpoint} is never reached. The current state stays.`);
      return false;
    }
    this.app.hideNotice();
    // A step points at the normal views: the A/B mode (two columns) gives way.
    if (this.app.ab.open) this.app.ab.leave();
    if (this.loadedKey !== key || !this.app.loaded || JSON.stringify(this.loadedInput()) !== key) {
      this.clearBreak();
      if (!this.app.load(input, input.example)) return false;
      this.loadedKey = key;
    }
    this.index = i;
    // A breakpoint step puts its line in the editor: Run from there stops at it again.
    if (step.breakpoint) {
      if (this.setBreak !== step.breakpoint) {
        this.clearBreak();
        const lines = new Set(this.app.editor.breakpoints());
        if (!lines.has(step.breakpoint)) {
          lines.add(step.breakpoint);
          this.app.editor.setBreakpoints([...lines]);
          this.setBreak = step.breakpoint;
        }
      }
    } else {
      this.clearBreak();
    }
    document.body.dataset.lesson = lesson.id;
    document.body.dataset.lessonStep = String(i + 1);
    document.body.dataset.lessonCycle = String(cycle);
    this.show(step, i);
    const hash = this.link ? `#lessonData=${this.link}` : `#lesson=${encodeURIComponent(lesson.id)}`;
    history.replaceState(null, '', `${window.location.pathname}${window.location.search}${hash}&step=${i + 1}`);
    this.app.runTo(cycle);
    this.highlight(step);
    this.changed();
    return true;
  }

  loadedInput() {
    const l = this.app.loaded;
    return { ptx: l.ptx, ...(l.cuda ? { cuda: l.cuda } : {}), launch: l.launch, preset: l.preset, sets: l.sets, example: l.example };
  }

  clearBreak() {
    if (this.setBreak === null) return;
    const lines = this.app.editor.breakpoints().filter((l) => l !== this.setBreak);
    this.setBreak = null;
    this.app.editor.setBreakpoints(lines);
  }

  show(step, i) {
    const b = this.box;
    const lesson = this.lesson;
    b.title.textContent = lesson.title;
    b.count.textContent = `step ${i + 1} of ${lesson.steps.length}${step.breakpoint ? ` · line ${step.breakpoint}${step.hit > 1 ? `, hit ${step.hit}` : ''}` : ` · cycle ${step.cycle}`}`;
    this.filledAt = null;
    b.text.textContent = this.stepText(step);
    b.look.textContent = this.lookText(step);
    b.question.textContent = step.question ? `Question: ${step.question}` : '';
    b.question.hidden = !step.question;
    b.prev.disabled = i === 0;
    b.next.disabled = i + 1 >= lesson.steps.length;
    b.el.hidden = false;
    this.syncSelect();
  }

  // "Look at: the SIMT stack view — …": the step's view and what to look at in it.
  lookText(step) {
    const view = this.app.views.find((v) => v.id === step.view);
    const name = view ? view.el.querySelector('header h2').textContent : step.view;
    return `Look at: the ${name} view${step.highlight ? ` — ${this.describe(step)}` : ''}`;
  }

  describe(step) {
    const keys = HIGHLIGHT_KEYS[step.view] || {};
    if (step.highlight === 'compare' && step.view === 'simt') return 'the "Compare stack / convergence barriers" button';
    if (keys[step.highlight]) return `the ${step.highlight} control`;
    return step.highlight;
  }

  clearHighlight() {
    for (const el of document.querySelectorAll('.lesson-highlight, .lesson-target')) el.classList.remove('lesson-highlight', 'lesson-target');
  }

  // Outlines the step's view (and its element, if the view has one by that key) and brings it
  // on screen.
  highlight(step) {
    this.clearHighlight();
    const view = this.app.views.find((v) => v.id === step.view);
    if (!view) return;
    view.el.classList.add('lesson-highlight');
    view.el.dataset.highlight = step.highlight || '';
    const sel = (HIGHLIGHT_KEYS[step.view] || {})[step.highlight];
    const target = sel ? view.el.querySelector(sel) : null;
    if (target) target.classList.add('lesson-target');
    this.app.showView(step.view);
  }
}

// Recording a lesson (lesson_recorder.js).
Object.assign(LessonPlayer.prototype, lessonRecorder);
