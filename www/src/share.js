// Shareable URLs: the kernel text, launch, preset, overrides, cycle and selection, as JSON,
// deflated with fflate (8 kB, no dependencies, synchronous API: a long PTX fits in a URL) and
// base64url-encoded after `#s=`.
//
// A link is data, never code, and may be cut, edited or hostile. Decoding fails fast with a
// readable Error and never allocates much: the encoded length is capped before anything is
// decoded (MAX_LINK_CHARS), the deflate stream is inflated in small pieces and abandoned as soon
// as its output passes MAX_JSON_BYTES (a decompression bomb costs at most that much), and every
// field is checked for its type and range (known keys only; the cycle a whole number of at most
// MAX_LINK_CYCLE; SM and warp whole numbers, which the app then checks against the machine).
//
// Any of the app's links (`#s=…`, `#lesson=…&step=…`, or none: `#present=…`) may end in
// `&present=1` (open in presentation mode) or `&present=simt,timeline` (with these panels, the
// first one large); presentInUrl reads the field and parsePresent checks it like the rest.
// A CUDA kernel's link holds its source as `cuda` and no `ptx` (the page compiles it again, as
// the model is deterministic: the same PTX, cycle and digest); a PTX kernel shown beside its
// CUDA (an example's nvcc PTX with `.loc` lines) holds both. Links from before CUDA (`ptx` only)
// open as they did.
// In the A/B mode a link also holds B's overrides (`ab`, checked like `sets`; the model then
// validates them) and the panels of the two columns (`ab_panels`, known panel names only).
import { deflateSync, Inflate, strToU8, strFromU8 } from 'fflate';
import { PANEL_CHOICES, PANEL_IDS } from './views.js';

const VERSION = 1;

// The limits a link must respect (an example's link is a few kB and a few thousand cycles).
export const MAX_LINK_CHARS = 400_000; // base64url characters after `#s=`
export const MAX_JSON_BYTES = 2_000_000; // the JSON once inflated
export const MAX_PTX_CHARS = 1_000_000;
export const MAX_LAUNCH_CHARS = 20_000;
export const MAX_SETS = 500;
export const MAX_SET_CHARS = 2_000;
export const MAX_NAME_CHARS = 100; // preset and example names
export const MAX_LINK_CYCLE = 10_000_000; // the most cycles opening a link replays
export const MAX_INDEX = 1_000_000; // SM and warp indices (the app checks them against the machine)

// The keys a link may carry, and whether each is required.
const KEYS = { v: true, ptx: false, cuda: false, launch: true, preset: true, sets: true, cycle: true, sm: false, warp: false, example: false, ab: false, ab_panels: false, view: false, lane: false };
const INFLATE_CHUNK = 1024; // input bytes per streaming step: at most ~1 MB of output each

export function encodeState(state) {
  return encodeRaw({ v: VERSION, ...state });
}

function encodeRaw(value) {
  const json = JSON.stringify(value);
  const bytes = deflateSync(strToU8(json), { level: 9 });
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The base64url text after `#s=` (or `after`) to bytes; a readable Error for anything else.
function base64Bytes(text, after = '#s=', maxChars = MAX_LINK_CHARS) {
  if (typeof text !== 'string' || text.length === 0) throw new Error(`the link has no data after ${after}`);
  if (text.length > maxChars) throw new Error(`the link is too long (${text.length} characters; a link holds at most ${maxChars})`);
  if (!/^[A-Za-z0-9_-]*={0,2}$/.test(text) || text.replace(/=+$/, '').length % 4 === 1) {
    throw new Error('the link is not valid base64url (it may have been cut short or edited)');
  }
  const b64 = text.replace(/=+$/, '').replace(/-/g, '+').replace(/_/g, '/');
  let bin;
  try {
    bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
  } catch {
    throw new Error('the link is not valid base64url (it may have been cut short or edited)');
  }
  const bytes = new Uint8Array(bin.length);
  for (let i = 0; i < bin.length; i++) bytes[i] = bin.charCodeAt(i);
  return bytes;
}

// Inflates raw deflate data, stopping as soon as the output passes `limit` bytes.
function inflateCapped(bytes, limit) {
  const parts = [];
  let total = 0;
  let done = false;
  const stream = new Inflate((chunk, final) => {
    total += chunk.length;
    if (total > limit) throw new RangeError('over the limit');
    parts.push(chunk);
    if (final) done = true;
  });
  try {
    for (let at = 0; at < bytes.length; at += INFLATE_CHUNK) {
      const end = Math.min(bytes.length, at + INFLATE_CHUNK);
      stream.push(bytes.subarray(at, end), end === bytes.length);
    }
  } catch (err) {
    if (err instanceof RangeError && total > limit) throw new Error(`the link's data is too large once decompressed (over ${limit} bytes)`);
    throw new Error('the link\'s data does not decompress (it may have been cut short or edited)');
  }
  if (!done) throw new Error('the link\'s data does not decompress (it may have been cut short or edited)');
  const out = new Uint8Array(total);
  let o = 0;
  for (const p of parts) { out.set(p, o); o += p.length; }
  return out;
}

function text(state, key, max) {
  const v = state[key];
  if (typeof v !== 'string') throw new Error(`the link's ${key} is ${describe(v)}, not text`);
  if (v.length > max) throw new Error(`the link's ${key} is too long (${v.length} characters; at most ${max})`);
  return v;
}

function whole(state, key, max, fallback) {
  if (!(key in state)) return fallback;
  const v = state[key];
  if (typeof v !== 'number' || !Number.isInteger(v)) throw new Error(`the link's ${key} is ${describe(v)}, not a whole number`);
  if (v < 0) throw new Error(`the link's ${key} is negative (${v})`);
  if (v > max) throw new Error(`the link's ${key} ${v} is above the most a link allows (${max})`);
  return v;
}

function describe(v) {
  if (v === null) return 'null';
  if (Array.isArray(v)) return 'a list';
  if (typeof v === 'string') return `the text "${v.length > 20 ? `${v.slice(0, 20)}…` : v}"`;
  if (typeof v === 'number') return String(v);
  return typeof v === 'object' ? 'an object' : `a ${typeof v}`;
}

// The JSON object encoded in a link's data (after `after`), decoded within the limits; an Error
// whose message says what is wrong for anything else.
function decodeObject(encoded, after, maxChars, maxBytes, what) {
  const bytes = base64Bytes(encoded, after, maxChars);
  const raw = inflateCapped(bytes, maxBytes);
  let json;
  try {
    json = strFromU8(raw);
  } catch {
    throw new Error('the link\'s data is not text');
  }
  let value;
  try {
    value = JSON.parse(json);
  } catch {
    throw new Error('the link\'s data is not JSON (it may have been edited)');
  }
  if (!value || typeof value !== 'object' || Array.isArray(value)) throw new Error(`the link's data is not ${what}`);
  return value;
}

// The state in a link: a fresh object with the known keys only, each checked. Throws an Error
// whose message says what is wrong.
export function decodeState(encoded) {
  const state = decodeObject(encoded, '#s=', MAX_LINK_CHARS, MAX_JSON_BYTES, 'a saved state');
  if (state.v !== VERSION) throw new Error(`the link is of an unknown version (${describe(state.v)}; this page reads version ${VERSION})`);
  for (const k of Object.keys(state)) {
    if (!Object.prototype.hasOwnProperty.call(KEYS, k)) throw new Error(`the link has an unknown key ${JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k)} (a link holds ${Object.keys(KEYS).join(', ')})`);
  }
  for (const [k, required] of Object.entries(KEYS)) if (required && !(k in state)) throw new Error(`the link has no ${k}`);
  // The kernel: its PTX, else its CUDA source (`ptx` below is the text the Session is built
  // from, either); `cuda` is the CUDA shown beside a PTX kernel.
  if (!('ptx' in state) && !('cuda' in state)) throw new Error('the link has no ptx (and no cuda): it holds no kernel');
  const source = 'cuda' in state ? text(state, 'cuda', MAX_PTX_CHARS) : '';
  const ptx = 'ptx' in state ? text(state, 'ptx', MAX_PTX_CHARS) : source;
  const cuda = 'ptx' in state ? source : '';
  const launch = text(state, 'launch', MAX_LAUNCH_CHARS);
  const preset = text(state, 'preset', MAX_NAME_CHARS);
  const sets = overrides(state, 'sets', 'override');
  // B's overrides (the A/B mode), and the panels its columns show.
  const ab = 'ab' in state ? overrides(state, 'ab', 'A/B override') : null;
  const abPanels = 'ab_panels' in state ? panels(state) : null;
  if (abPanels && !ab) throw new Error('the link has ab_panels but no ab (the A/B overrides)');
  const cycle = whole(state, 'cycle', MAX_LINK_CYCLE, 0);
  const sm = whole(state, 'sm', MAX_INDEX, 0);
  const warp = whole(state, 'warp', MAX_INDEX, 0);
  const example = 'example' in state ? text(state, 'example', MAX_NAME_CHARS) : '';
  // The enlarged panel, and the lane the Why? panel explains (checked against the warp size
  // once the machine is known).
  const view = 'view' in state ? panelId(state.view) : null;
  const lane = 'lane' in state ? whole(state, 'lane', MAX_INDEX, 0) : -1;
  // The CUDA and the A/B keys only when the link has them.
  return { ptx, launch, preset, sets, cycle, sm, warp, example, view, lane, ...(cuda ? { cuda } : {}), ...(ab ? { ab, abPanels } : {}) };
}

// A link's enlarged panel: one of the app's panel ids.
function panelId(v) {
  if (typeof v !== 'string') throw new Error(`the link's view is ${describe(v)}, not a panel name`);
  if (!PANEL_IDS.includes(v)) throw new Error(`the link's view ${JSON.stringify(v.length > 40 ? `${v.slice(0, 40)}…` : v)} is not a panel (panels: ${PANEL_IDS.join(', ')})`);
  return v;
}

// A list of key=value texts (`sets`, or B's `ab`), each checked for type and length.
function overrides(state, key, what) {
  const list = state[key];
  if (!Array.isArray(list)) throw new Error(`the link's ${key} is ${describe(list)}, not a list of key=value`);
  if (list.length > MAX_SETS) throw new Error(`the link has too many ${what}s (${list.length}; at most ${MAX_SETS})`);
  return list.map((s, i) => {
    if (typeof s !== 'string') throw new Error(`the link's ${what} ${i + 1} is ${describe(s)}, not key=value text`);
    if (s.length > MAX_SET_CHARS) throw new Error(`the link's ${what} ${i + 1} is too long`);
    return s;
  });
}

// The A/B columns' panels: known panel names, each once.
function panels(state) {
  const list = state.ab_panels;
  const known = PANEL_CHOICES.map((p) => p.id);
  if (!Array.isArray(list)) throw new Error(`the link's ab_panels is ${describe(list)}, not a list of panel names`);
  if (list.length > known.length) throw new Error(`the link has too many ab_panels (${list.length}; there are ${known.length} panels)`);
  return list.map((p, i) => {
    if (typeof p !== 'string') throw new Error(`the link's A/B panel ${i + 1} is ${describe(p)}, not a panel name`);
    const name = JSON.stringify(p.length > 40 ? `${p.slice(0, 40)}…` : p);
    if (!known.includes(p)) throw new Error(`the link's A/B panel ${name} is not a panel (panels: ${known.join(', ')})`);
    if (list.indexOf(p) !== i) throw new Error(`the link names the A/B panel ${name} twice`);
    return p;
  });
}

// A recorded lesson as a link (`#lessonData=`; lessons/README.md): the lesson's JSON, deflated
// and base64url-encoded as a state is. The lesson names its kernels by example id, so the link
// stays short; decodeLesson checks only the envelope, and the lesson player then checks every
// field exactly as it checks the bundled lessons (lessonProblems in lessons.js).
export const MAX_LESSON_LINK_CHARS = 200_000;
export const MAX_LESSON_JSON_BYTES = 1_000_000;

export function encodeLesson(lesson) {
  return encodeRaw({ v: VERSION, lesson });
}

// The lesson in a lesson link, unchecked beyond being an object (see above). Throws an Error
// whose message says what is wrong.
export function decodeLesson(encoded) {
  const data = decodeObject(encoded, '#lessonData=', MAX_LESSON_LINK_CHARS, MAX_LESSON_JSON_BYTES, 'a lesson');
  if (data.v !== VERSION) throw new Error(`the link is of an unknown version (${describe(data.v)}; this page reads version ${VERSION})`);
  for (const k of Object.keys(data)) {
    if (k !== 'v' && k !== 'lesson') throw new Error(`the link has an unknown key ${JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k)} (a lesson link holds v, lesson)`);
  }
  const lesson = data.lesson;
  if (!lesson || typeof lesson !== 'object' || Array.isArray(lesson)) throw new Error(`the link's lesson is ${describe(lesson)}, not a lesson`);
  return lesson;
}

export function lessonUrl(lesson) {
  const url = new URL(window.location.href);
  url.hash = `lessonData=${encodeLesson(lesson)}`;
  return url.toString();
}

// The encoded lesson and the step (text, from 1) in the current URL
// (#lessonData=<data>[&step=<n>]), if any.
export function lessonLinkInUrl() {
  const m = window.location.hash.match(/^#lessonData=([^&]*)(?:&step=([^&]*))?$/s);
  if (!m) return null;
  return { data: m[1], step: m[2] === undefined ? '1' : uriText(m[2]) };
}

// A URL component decoded, or as it is when it does not decode (a hand-edited `%`).
export function uriText(t) {
  try {
    return decodeURIComponent(t);
  } catch {
    return t;
  }
}

export function shareUrl(state) {
  const url = new URL(window.location.href);
  url.hash = `s=${encodeState(state)}`;
  return url.toString();
}

// The encoded state in the current URL, if any (without a trailing &present= field).
export function stateInUrl() {
  const h = window.location.hash;
  if (!h.startsWith('#s=')) return null;
  const m = h.match(/^#s=([^&]*)&present=[^&]*$/);
  return m ? m[1] : h.slice(3);
}

// The longest `present` value read, and the panels it may name.
export const MAX_PRESENT_CHARS = 200;
export const MAX_PRESENT_PANELS = 20;

// The raw text of the URL's present field (`#present=…` or `…&present=…`), or null if none.
export function presentInUrl(hash = window.location.hash) {
  const m = hash.match(/(?:^#|&)present=([^&]*)/);
  if (!m) return null;
  try {
    return decodeURIComponent(m[1]);
  } catch {
    return m[1];
  }
}

// A link's present value checked: `1` (the default panels: the lesson step's, or the
// instructor's) or panel ids separated by commas, the large one first. Returns { panels } (empty
// for `1`); throws an Error whose message says what is wrong. `views`: the panel ids.
export function parsePresent(value, views) {
  const quote = (t) => JSON.stringify(t.length > 30 ? `${t.slice(0, 30)}…` : t);
  const hint = `give present=1, or panel names separated by commas (${views.join(', ')})`;
  if (typeof value !== 'string' || value.length === 0) throw new Error(`the link's present field is empty: ${hint}`);
  if (value.length > MAX_PRESENT_CHARS) throw new Error(`the link's present field is too long (${value.length} characters; at most ${MAX_PRESENT_CHARS})`);
  if (value === '1') return { panels: [] };
  const names = value.split(',');
  if (names.length > MAX_PRESENT_PANELS) throw new Error(`the link's present field names ${names.length} panels (at most ${MAX_PRESENT_PANELS})`);
  const seen = new Set();
  for (const n of names) {
    if (!views.includes(n)) {
      const what = names.length === 1 ? `is ${quote(value)}, neither 1 nor a panel` : `${quote(value)} ${n ? `names no panel ${quote(n)}` : 'has an empty panel name'}`;
      throw new Error(`the link's present field ${what}: ${hint}`);
    }
    if (seen.has(n)) throw new Error(`the link's present field names the panel ${n} twice`);
    seen.add(n);
  }
  return { panels: names };
}
