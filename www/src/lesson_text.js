// A lesson step's text as the class reads it (issue 30): the numbers a caption states come from
// the model at the step. A caption may hold `{path}` or `{path|unit}`: `path` is a dotted path
// into the snapshot the wasm exports (Session.snapshot: `cycle`, `stats.l1d.misses`,
// `stats.energy.register_file_pj`, `sm.bank_grid.degree`, ...), filled in once the app stands
// at the step's cycle, in the units the views show it (`|nj`: picojoules shown as the Energy view
// shows them; `|kb`: kilobytes as the Unified view does; none: the number as the views and the
// cycle counter write it, 2415). Until then (a long run on its way) the place shows "…". Nothing is computed here
// but the formatting of one value.
import { valueAt } from './lesson_check.js';

const FIELD = /\{([A-Za-z0-9_.]+)(?:\|([a-z%]+))?\}/g;

// The Energy view's way of writing picojoules (src/views/energy.js).
function nj(pj) {
  return pj >= 1e6 ? `${(pj / 1e6).toFixed(3)} µJ` : `${(pj / 1e3).toFixed(1)} nJ`;
}

function format(v, unit) {
  if (typeof v !== 'number') return String(v);
  if (unit === 'nj') return nj(v);
  if (unit === 'kb') return `${Number(v.toFixed(2))} KB`;
  return Number.isInteger(v) ? String(v) : String(Number(v.toFixed(2)));
}

// The paths a text's fields read (the tests check each against the snapshot).
export function textFields(text) {
  return [...(text || '').matchAll(FIELD)].map((m) => ({ path: m[1], unit: m[2] || '' }));
}

// `text` with its fields filled from `snap` (null: not there yet, each field "…"). A path the
// snapshot does not have shows as "?" (lessonProblems cannot know the snapshot; the lesson tests
// find it).
export function fillText(text, snap) {
  if (!text) return '';
  return text.replace(FIELD, (_, path, unit) => {
    if (!snap) return '…';
    const v = valueAt(snap, path);
    return v === undefined || v === null ? '?' : format(v, unit || '');
  });
}
