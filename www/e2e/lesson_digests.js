// Writing the recorded state digests into lesson files (WARPSTEP_BLESS_LESSONS=1 with
// e2e/lessons.spec.js; lessons/README.md): each step's "digest" field is replaced, or added as
// the step's last field, in the file's own text, so its layout (one-line `expect` objects,
// inline lists) stays as its author wrote it.

// The [start, end] offsets of each object of the root object's "steps" array in JSON `text`.
export function stepSpans(text) {
  const stack = [];
  const spans = [];
  let lastString = null;
  let key = null;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (c === '"') {
      let j = i + 1;
      while (j < text.length && text[j] !== '"') j += text[j] === '\\' ? 2 : 1;
      lastString = text.slice(i + 1, j);
      i = j;
    } else if (c === ':') {
      key = lastString;
    } else if (c === '{' || c === '[') {
      stack.push({ c, key, start: i });
      key = null;
    } else if (c === '}' || c === ']') {
      const top = stack.pop();
      const parent = stack[stack.length - 1];
      if (c === '}' && stack.length === 2 && parent.c === '[' && parent.key === 'steps') spans.push([top.start, i]);
    } else if (c === ',') {
      key = null;
    }
  }
  return spans;
}

// `text` with step i's digest set to digests[i] (hex text).
export function withDigests(text, digests) {
  const spans = stepSpans(text);
  if (spans.length !== digests.length) throw new Error(`${spans.length} steps in the file, ${digests.length} digests`);
  let out = text;
  for (let i = spans.length - 1; i >= 0; i--) {
    const [start, end] = spans[i];
    const body = out.slice(start, end + 1);
    const field = body.match(/("digest"\s*:\s*)"[^"]*"/);
    if (field) {
      const at = start + field.index;
      out = `${out.slice(0, at)}${field[1]}"${digests[i]}"${out.slice(at + field[0].length)}`;
      continue;
    }
    const indent = (body.match(/\{\s*\n([ \t]*)"/) || [null, '      '])[1];
    let k = end - 1;
    while (/\s/.test(out[k])) k--;
    out = `${out.slice(0, k + 1)},\n${indent}"digest": "${digests[i]}"${out.slice(k + 1)}`;
  }
  const steps = JSON.parse(out).steps;
  steps.forEach((s, i) => {
    if (s.digest !== digests[i]) throw new Error(`step ${i + 1}: the digest did not go in`);
  });
  return out;
}
