// A lesson's handout (issue 30): every step of the open lesson with its text, what to look at,
// its question and a picture of its view as the step shows it, on one printable page (the print
// stylesheet prints the handout alone; Print, or the browser's Save as PDF). The pictures are the
// views' own canvases at each step's cycle: the lesson player goes to every step in turn (the
// model replays to its cycle), then back to the step the teacher was on.
import { element, button } from './dom.js';

const nextFrame = () => new Promise((r) => requestAnimationFrame(() => r()));

// Waits until the app has finished going to the step's cycle (a replay runs over frames).
async function reached(app) {
  for (let i = 0; i < 600; i++) {
    await nextFrame();
    if (app.mode === null && String(app.session.cycle()) === document.body.dataset.lessonCycle) break;
  }
  await nextFrame();
  await nextFrame();
}

// The step's view as a PNG data URL (its first canvas), or null for a view without one.
function picture(app, step) {
  const v = app.views.find((x) => x.id === step.view);
  if (!v) return null;
  v.el.scrollIntoView({ block: 'nearest' });
  v.update(v.frame, true);
  const canvas = v.el.querySelector('canvas');
  if (!canvas || !canvas.width) return null;
  return canvas.toDataURL('image/png');
}

function viewTitle(app, id) {
  const v = app.views.find((x) => x.id === id);
  return v ? v.el.querySelector('header h2').textContent : id;
}

export async function makeHandout(app) {
  const player = app.lessons;
  const lesson = player.lesson;
  if (!lesson || !app.session) return null;
  const back = player.index;
  document.getElementById('handout')?.remove();
  const page = element('section', 'handout');
  page.id = 'handout';
  page.setAttribute('aria-label', 'Lesson handout');
  document.body.dataset.handout = 'making';
  const bar = element('div', 'handout-bar');
  bar.append(
    button('handout-print', 'Print', 'Print the handout (or save it as PDF)', () => window.print()),
    button('handout-close', 'Close', 'Close the handout', () => closeHandout()),
  );
  page.append(bar, element('h1', '', lesson.title));
  if (lesson.about) page.append(element('p', 'handout-summary', lesson.about));
  for (let i = 0; i < lesson.steps.length; i++) {
    const step = lesson.steps[i];
    if (!player.go(i)) continue;
    await reached(app);
    const sec = element('article', 'handout-step');
    sec.dataset.step = String(i + 1);
    sec.append(element('h2', '', `Step ${i + 1} · cycle ${app.session.cycle()} · ${viewTitle(app, step.view)} view`));
    sec.append(element('p', 'handout-text', step.text));
    const src = picture(app, step);
    if (src) {
      const img = element('img', 'handout-picture');
      img.alt = `The ${viewTitle(app, step.view)} view at step ${i + 1}`;
      img.src = src;
      sec.append(img);
    }
    if (step.question) sec.append(element('p', 'handout-question', `Question: ${step.question}`), element('div', 'handout-answer'));
    page.append(sec);
  }
  if (back !== undefined && back !== null && back >= 0) {
    player.go(back);
    await reached(app);
  }
  document.body.append(page);
  document.body.classList.add('handout-open');
  document.body.dataset.handout = 'ready';
  page.scrollIntoView({ block: 'start' });
  return page;
}

export function closeHandout() {
  document.getElementById('handout')?.remove();
  document.body.classList.remove('handout-open');
  delete document.body.dataset.handout;
}

// The Handout button in the lesson box's head.
export function installHandout(app) {
  const head = document.querySelector('#lesson .lesson-head');
  if (!head) return;
  const b = button('lesson-handout', 'Handout', 'A printable page of this lesson: every step\'s text, question and a picture of its view', () => {
    b.blur();
    makeHandout(app);
  });
  head.querySelector('.lesson-close').before(b);
}
