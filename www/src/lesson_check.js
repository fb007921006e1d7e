// Checking a lesson before it plays (lessons/README.md): every field known, of its type and
// within the limits, its examples, kernels and views existing. A bundled lesson and one from a
// link are checked alike; the player shows nothing of a lesson with problems. Also the dotted
// path reader the captions and the tests use on snapshots.
import { exampleById } from './examples.js';
import { MAX_LINK_CYCLE } from './share.js';
import { stepInput } from './lesson_input.js';

// The fields a lesson and a step may have (`file` is added by the bundler), and the limits every
// lesson respects (a lesson from a link is checked against them like any other).
const LESSON_KEYS = ['id', 'title', 'about', 'example', 'ptx', 'launch', 'preset', 'sets', 'steps', 'file'];
const STEP_KEYS = ['text', 'cycle', 'breakpoint', 'hit', 'view', 'panels', 'highlight', 'question', 'expect', 'digest', 'example', 'ptx', 'launch', 'preset', 'sets'];
export const LESSON_LIMITS = { steps: 200, id: 60, title: 200, text: 5000, name: 100, launch: 2000, sets: 100, set: 500, expect: 100, path: 200, hit: 1000, cycle: MAX_LINK_CYCLE, line: 1_000_000 };

const isObject = (x) => Boolean(x) && typeof x === 'object' && !Array.isArray(x);

// Everything wrong with a lesson (an empty list: it can be played). `views`: the panel ids.
export function lessonProblems(lesson, views) {
  const out = [];
  if (!isObject(lesson)) return ['not a JSON object'];
  const L = LESSON_LIMITS;
  const unknown = (x, keys, where) => {
    for (const k of Object.keys(x)) if (!keys.includes(k)) out.push(`${where}: unknown field ${JSON.stringify(k.slice(0, 40))}`);
  };
  const textField = (x, key, max, where, required = false) => {
    if (!(key in x)) {
      if (required) out.push(`${where}: no ${key}`);
      return;
    }
    if (typeof x[key] !== 'string') out.push(`${where}: ${key} must be text`);
    else if (required && !x[key]) out.push(`${where}: no ${key}`);
    else if (x[key].length > max) out.push(`${where}: ${key} is too long (${x[key].length} characters; at most ${max})`);
  };
  unknown(lesson, LESSON_KEYS, 'lesson');
  if (typeof lesson.id !== 'string' || !/^[a-z0-9_-]+$/.test(lesson.id) || lesson.id.length > L.id) out.push(`id must be lower-case letters, digits, _ or - (at most ${L.id})`);
  if ('file' in lesson && lesson.file !== `${lesson.id}.json`) out.push(`the file should be named ${lesson.id}.json`);
  if (typeof lesson.title !== 'string' || !lesson.title) out.push('no title');
  else if (lesson.title.length > L.title) out.push(`the title is too long (at most ${L.title} characters)`);
  textField(lesson, 'about', L.text, 'lesson');
  if (!Array.isArray(lesson.steps) || lesson.steps.length === 0) return [...out, 'no steps'];
  if (lesson.steps.length > L.steps) return [...out, `too many steps (${lesson.steps.length}; at most ${L.steps})`];
  // A kernel's fields (on the lesson or a step); false if their types are wrong.
  const kernel = (x, where) => {
    const before = out.length;
    textField(x, 'example', L.name, where);
    textField(x, 'ptx', L.name, where);
    textField(x, 'launch', L.launch, where);
    textField(x, 'preset', L.name, where);
    if ('sets' in x) {
      if (!Array.isArray(x.sets) || !x.sets.every((v) => typeof v === 'string' && v.length <= L.set)) out.push(`${where}: sets must be a list of key=value texts (each at most ${L.set} characters)`);
      else if (x.sets.length > L.sets) out.push(`${where}: too many sets (at most ${L.sets})`);
    }
    if (out.length > before) return false;
    if (x.example && !exampleById(x.example)) out.push(`${where}: no example ${JSON.stringify(x.example)}`);
    if (x.ptx && typeof OWN_PTX[`../../lessons/${x.ptx}`] !== 'string') out.push(`${where}: no file lessons/${x.ptx}`);
    return true;
  };
  const lessonKernel = kernel(lesson, 'lesson');
  lesson.steps.forEach((s, i) => {
    const where = `step ${i + 1}`;
    if (!isObject(s)) {
      out.push(`${where}: not a JSON object`);
      return;
    }
    unknown(s, STEP_KEYS, where);
    if (kernel(s, where) && lessonKernel && !stepInput(lesson, s)) out.push(`${where}: no kernel (an example or a ptx file, on the lesson or the step)`);
    textField(s, 'text', L.text, where, true);
    const hasCycle = Number.isInteger(s.cycle) && s.cycle >= 0 && s.cycle <= L.cycle;
    const hasBreak = Number.isInteger(s.breakpoint) && s.breakpoint > 0 && s.breakpoint <= L.line;
    if ('cycle' in s && !hasCycle) out.push(`${where}: cycle must be a whole number from 0 to ${L.cycle}`);
    if ('breakpoint' in s && !hasBreak) out.push(`${where}: breakpoint must be a line number from 1 to ${L.line}`);
    if (hasCycle === hasBreak) out.push(`${where}: give either a cycle or a breakpoint line`);
    if ('hit' in s && !(Number.isInteger(s.hit) && s.hit >= 1 && s.hit <= L.hit)) out.push(`${where}: hit must be a whole number from 1 to ${L.hit}`);
    if (!views.includes(s.view)) out.push(`${where}: no view ${JSON.stringify(typeof s.view === 'string' ? s.view.slice(0, 40) : s.view === undefined ? null : typeof s.view)} (views: ${views.join(', ')})`);
    textField(s, 'question', L.text, where);
    textField(s, 'highlight', L.text, where);
    if ('expect' in s) {
      if (!isObject(s.expect)) out.push(`${where}: expect must be an object`);
      else if (Object.keys(s.expect).length > L.expect || Object.keys(s.expect).some((k) => k.length > L.path)) out.push(`${where}: expect holds at most ${L.expect} paths of at most ${L.path} characters`);
    }
    if ('digest' in s && !(typeof s.digest === 'string' && /^[0-9a-f]{16}$/.test(s.digest))) out.push(`${where}: digest must be 16 lower-case hex digits (Session.stateDigest())`);
    if ('panels' in s) out.push(...panelProblems(s, views).map((p) => `${where}: ${p}`));
  });
  return out;
}

// What is wrong with a step's `panels` (the panels shown beside its view in presentation mode).
function panelProblems(step, views) {
  const p = step.panels;
  if (!Array.isArray(p) || p.length === 0) return ['panels must be a list of view ids'];
  const out = [];
  p.forEach((id) => {
    if (!views.includes(id)) out.push(`no view ${JSON.stringify(id)} in panels (views: ${views.join(', ')})`);
    else if (id === step.view) out.push(`panels repeats the step's view ${JSON.stringify(id)} (it is shown anyway)`);
  });
  if (new Set(p).size !== p.length) out.push('panels names a view twice');
  return out;
}

// A value in a snapshot by a dotted path ("sm.warps.0.stack.length").
export function valueAt(obj, path) {
  let v = obj;
  for (const k of path.split('.')) {
    if (v === null || v === undefined) return undefined;
    v = v[k];
  }
  return v;
}
