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
import { deflateSync, Inflate, strToU8, strFromU8 } from 'fflate';

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
const KEYS = { v: true, ptx: true, launch: true, preset: true, sets: true, cycle: true, sm: false, warp: false, example: false };
const INFLATE_CHUNK = 1024; // input bytes per streaming step: at most ~1 MB of output each

export function encodeState(state) {
  const json = JSON.stringify({ v: VERSION, ...state });
  const bytes = deflateSync(strToU8(json), { level: 9 });
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

// The base64url text after `#s=` to bytes; a readable Error for anything else.
function base64Bytes(text) {
  if (typeof text !== 'string' || text.length === 0) throw new Error('the link has no data after #s=');
  if (text.length > MAX_LINK_CHARS) throw new Error(`the link is too long (${text.length} characters; a link holds at most ${MAX_LINK_CHARS})`);
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

// The state in a link: a fresh object with the known keys only, each checked. Throws an Error
// whose message says what is wrong.
export function decodeState(encoded) {
  const bytes = base64Bytes(encoded);
  const raw = inflateCapped(bytes, MAX_JSON_BYTES);
  let json;
  try {
    json = strFromU8(raw);
  } catch {
    throw new Error('the link\'s data is not text');
  }
  let state;
  try {
    state = JSON.parse(json);
  } catch {
    throw new Error('the link\'s data is not JSON (it may have been edited)');
  }
  if (!state || typeof state !== 'object' || Array.isArray(state)) throw new Error('the link\'s data is not a saved state');
  if (state.v !== VERSION) throw new Error(`the link is of an unknown version (${describe(state.v)}; this page reads version ${VERSION})`);
  for (const k of Object.keys(state)) {
    if (!Object.prototype.hasOwnProperty.call(KEYS, k)) throw new Error(`the link has an unknown key ${JSON.stringify(k.length > 40 ? `${k.slice(0, 40)}…` : k)} (a link holds ${Object.keys(KEYS).join(', ')})`);
  }
  for (const [k, required] of Object.entries(KEYS)) if (required && !(k in state)) throw new Error(`the link has no ${k}`);
  const ptx = text(state, 'ptx', MAX_PTX_CHARS);
  const launch = text(state, 'launch', MAX_LAUNCH_CHARS);
  const preset = text(state, 'preset', MAX_NAME_CHARS);
  if (!Array.isArray(state.sets)) throw new Error(`the link's sets is ${describe(state.sets)}, not a list of key=value`);
  if (state.sets.length > MAX_SETS) throw new Error(`the link has too many overrides (${state.sets.length}; at most ${MAX_SETS})`);
  const sets = state.sets.map((s, i) => {
    if (typeof s !== 'string') throw new Error(`the link's override ${i + 1} is ${describe(s)}, not key=value text`);
    if (s.length > MAX_SET_CHARS) throw new Error(`the link's override ${i + 1} is too long`);
    return s;
  });
  const cycle = whole(state, 'cycle', MAX_LINK_CYCLE, 0);
  const sm = whole(state, 'sm', MAX_INDEX, 0);
  const warp = whole(state, 'warp', MAX_INDEX, 0);
  const example = 'example' in state ? text(state, 'example', MAX_NAME_CHARS) : '';
  return { ptx, launch, preset, sets, cycle, sm, warp, example };
}

export function shareUrl(state) {
  const url = new URL(window.location.href);
  url.hash = `s=${encodeState(state)}`;
  return url.toString();
}

// The encoded state in the current URL, if any.
export function stateInUrl() {
  const m = window.location.hash.match(/^#s=(.*)$/s);
  return m ? m[1] : null;
}
