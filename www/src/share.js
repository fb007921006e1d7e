// Shareable URLs: the kernel text, launch, preset, overrides, cycle and selection, as JSON,
// deflated with fflate (8 kB, no dependencies, synchronous API: a long PTX fits in a URL) and
// base64url-encoded after `#s=`. Decoding checks everything and throws a readable error.
import { deflateSync, inflateSync, strToU8, strFromU8 } from 'fflate';

const VERSION = 1;

export function encodeState(state) {
  const json = JSON.stringify({ v: VERSION, ...state });
  const bytes = deflateSync(strToU8(json), { level: 9 });
  let bin = '';
  for (const b of bytes) bin += String.fromCharCode(b);
  return btoa(bin).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, '');
}

export function decodeState(text) {
  let bytes;
  try {
    const b64 = text.replace(/-/g, '+').replace(/_/g, '/');
    const bin = atob(b64 + '==='.slice((b64.length + 3) % 4));
    bytes = Uint8Array.from(bin, (c) => c.charCodeAt(0));
  } catch {
    throw new Error('the link is not valid base64 (it may have been cut short)');
  }
  let state;
  try {
    state = JSON.parse(strFromU8(inflateSync(bytes)));
  } catch {
    throw new Error('the link\'s data does not decompress (it may have been cut short or edited)');
  }
  if (!state || state.v !== VERSION) throw new Error(`the link is of an unknown version (${state && state.v})`);
  const strings = ['ptx', 'launch', 'preset'];
  for (const k of strings) if (typeof state[k] !== 'string') throw new Error(`the link has no ${k}`);
  if (!Array.isArray(state.sets) || !state.sets.every((s) => typeof s === 'string')) throw new Error('the link\'s overrides are not a list of key=value');
  if (!Number.isInteger(state.cycle) || state.cycle < 0) throw new Error('the link\'s cycle is not a whole number');
  return state;
}

export function shareUrl(state) {
  const url = new URL(window.location.href);
  url.hash = `s=${encodeState(state)}`;
  return url.toString();
}

// The encoded state in the current URL, if any.
export function stateInUrl() {
  const m = window.location.hash.match(/^#s=(.*)$/);
  return m ? m[1] : null;
}
