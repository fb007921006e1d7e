// Recording a lesson in the app (the instructor), as methods of the LessonPlayer (lessons.js
// mixes them in): the Setup tab's "Record a lesson" section turns the current example and cycle,
// a text, a view and a question into a step (with the snapshot values and state digest the tests
// replay), exports the steps as a lesson file for lessons/, or copies a link that plays them.
import { button, downloadJson } from './dom.js';
import { exampleById } from './examples.js';
import { encodeLesson, lessonUrl, MAX_LESSON_LINK_CHARS } from './share.js';
import { lessonProblems } from './lesson_check.js';

export const lessonRecorder = {
  // A "Record a lesson" section in the Setup tab: the current example and cycle, the text,
  // view and question typed become a step (with the snapshot values and state digest the tests
  // replay); Export downloads the steps as a lesson file to put in lessons/ (the test then
  // checks it like the others); Copy link puts the whole lesson in a link that plays it.
  makeRecorder() {
    const tab = document.getElementById('tab-setup');
    if (!tab) return;
    const d = document.createElement('details');
    d.id = 'lesson-recorder';
    const sum = document.createElement('summary');
    sum.textContent = 'Record a lesson';
    sum.title = 'Add the current example and cycle as a lesson step, then export the lesson as a JSON file for lessons/';
    const field = (label, el) => {
      const l = document.createElement('label');
      l.className = 'field';
      const span = document.createElement('span');
      span.textContent = label;
      l.append(span, el);
      return l;
    };
    const title = document.createElement('input');
    title.id = 'rec-title';
    title.placeholder = 'Lesson title';
    const text = document.createElement('textarea');
    text.id = 'rec-text';
    text.rows = 3;
    const view = document.createElement('select');
    view.id = 'rec-view';
    for (const id of this.views) {
      const o = document.createElement('option');
      o.value = id;
      o.textContent = id;
      view.append(o);
    }
    const question = document.createElement('input');
    question.id = 'rec-question';
    const link = document.createElement('input');
    link.id = 'rec-link';
    link.readOnly = true;
    link.hidden = true;
    link.setAttribute('aria-label', 'Link to the recorded lesson');
    link.addEventListener('focus', () => link.select());
    const note = document.createElement('p');
    note.id = 'rec-note';
    note.className = 'muted';
    const withId = (el, id) => { el.id = id; return el; };
    const add = withId(button('', 'Add step', 'Add the current example and cycle, with this text, view and question, as a step', () => {
      const r = this.recordStep({ text: text.value, view: view.value, question: question.value });
      note.textContent = r.error || `${this.recorded.length} step${this.recorded.length === 1 ? '' : 's'} recorded (last: cycle ${r.step.cycle}).`;
      if (!r.error) { text.value = ''; question.value = ''; }
    }), 'rec-add');
    const exp = withId(button('', 'Export lesson', 'Download the recorded steps as a lesson file (put it in lessons/ as <id>.json)', () => {
      const r = this.exportLesson(title.value);
      note.textContent = r.error || `Saved ${r.name}: put it in lessons/ of the repository.`;
    }), 'rec-export');
    const copy = withId(button('', 'Copy link', 'Put the recorded lesson in a link (copied, and shown below) that opens it in the app, like a bundled lesson', () => {
      const r = this.lessonLink(title.value);
      if (r.error) {
        note.textContent = r.error;
        return;
      }
      link.value = r.url;
      link.hidden = false;
      document.body.dataset.lessonUrl = r.url;
      const steps = `${r.lesson.steps.length} step${r.lesson.steps.length === 1 ? '' : 's'}`;
      note.textContent = `A link to the ${steps} is below (${r.url.length} characters): select it and copy it.`;
      if (navigator.clipboard && window.isSecureContext) {
        navigator.clipboard.writeText(r.url).then(() => { note.textContent = `Link to the ${steps} copied (${r.url.length} characters; it is below too).`; }, () => {});
      }
    }), 'rec-link-copy');
    d.append(sum, field('Title', title), field('Step text', text), field('View', view), field('Question (optional)', question), add, exp, copy, note, link);
    tab.append(d);
  },

  // Records the state on screen as a step. Needs a built-in example (a lesson names its kernel)
  // with its own launch and preset; overrides added in the Setup tab go in the step's `sets`.
  recordStep({ text, view, question }) {
    const l = this.app.loaded;
    if (!this.app.session || !l) return { error: 'Nothing loaded.' };
    if (!l.example) return { error: 'Record steps on a built-in example (a lesson names its kernel by example id, or by a .ptx file you add to lessons/ by hand).' };
    if (!text || !text.trim()) return { error: 'Type the step text first.' };
    const e = exampleById(l.example);
    const words = (t) => (t || '').trim().replace(/\s+/g, ' ');
    const base = e.sets || [];
    const sets = l.sets || [];
    if ((l.preset || '') !== (e.preset || '') || JSON.stringify(sets.slice(0, base.length)) !== JSON.stringify(base)) {
      return { error: `Record steps on the example ${l.example} with its own preset (key=value overrides added in the Setup tab are kept with the step, and so is another launch).` };
    }
    const step = { text: text.trim(), cycle: this.app.session.cycle(), view, example: l.example };
    // Another launch of the example's kernel (another size) goes with the step.
    if (words(l.launch) !== words(e.launch)) step.launch = words(l.launch);
    if (question && question.trim()) step.question = question.trim();
    if (sets.length > base.length) step.sets = sets.slice(base.length);
    step.expect = { cycle: step.cycle, status: this.app.session.status() };
    step.digest = this.app.session.stateDigest();
    this.recorded.push(step);
    return { step };
  },

  // The recorded lesson (its first step's example becomes the lesson's).
  recordedLesson(title) {
    const t = (title || '').trim() || 'My lesson';
    const id = t.toLowerCase().replace(/[^a-z0-9]+/g, '_').replace(/^_+|_+$/g, '').slice(0, 40) || 'lesson';
    const example = this.recorded[0].example;
    const steps = this.recorded.map((s) => {
      const { example: e, ...rest } = s;
      // A step with a launch of its own keeps its example: the launch goes with it.
      return e === example && !rest.launch ? rest : { ...rest, example: e };
    });
    return { id, title: t, example, steps };
  },

  // The recorded lesson as a link that plays it (share.js), checked as a bundled lesson is.
  lessonLink(title) {
    if (!this.recorded.length) return { error: 'Add a step first.' };
    const lesson = this.recordedLesson(title);
    const problems = lessonProblems(lesson, this.views);
    if (problems.length) return { error: `The lesson cannot be played: ${problems.join('; ')}.` };
    if (encodeLesson(lesson).length > MAX_LESSON_LINK_CHARS) return { error: 'The lesson is too long for a link: export it as a file instead.' };
    return { url: lessonUrl(lesson), lesson };
  },

  exportLesson(title) {
    if (!this.recorded.length) return { error: 'Add a step first.' };
    const lesson = this.recordedLesson(title);
    const text = `${JSON.stringify(lesson, null, 2)}\n`;
    const name = `${lesson.id}.json`;
    downloadJson(name, text);
    return { name, lesson };
  },
};
