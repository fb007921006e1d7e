// Search panel (issue 7 "In the app"; XOR paper section 5): runs the exhaustive bit-vector XOR
// search, the Givargis heuristic or the Minimum Imbalance Heuristic on this kernel's shared
// accesses (wasm Session.searchHash: a functional run collects every dynamic warp access, the
// model searches), steps through the search's recorded decisions, and applies the result
// (`shmem.hash`) to the configuration and re-runs, with the cycles before and after (both from
// the model: Session.reportAtEnd runs a copy of the simulation to its end).
import { prepare, region, text, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';
import { cudaLine, lineText } from './source_line.js';

export const SEARCH_BODY = `<div class="search-controls">
  <label title="exhaustive: every bvxor:K1,K2,MASK the paper's pruning leaves; gh: Givargis heuristic; mih: Minimum Imbalance Heuristic">Method <select class="s-method"></select></label>
  <label title="bvxor: bit-vector XOR; bwperm: one address bit per bank bit; bwxor: one bit or an XOR pair per bank bit">Family <select class="s-family"></select></label>
  <button class="s-run" title="Run the search on this kernel's shared-memory accesses">Search</button>
  <button class="s-prev" title="Previous decision" disabled>‹</button>
  <input class="s-step" type="range" min="0" max="0" value="0" disabled title="Step through the search's decisions" />
  <button class="s-next" title="Next decision" disabled>›</button>
  <button class="s-apply" title="Set shmem.hash to the result, rebuild and run; shows the cycles before and after" disabled>Apply &amp; re-run</button>
  <span class="s-result"></span>
</div><p class="error search-error" hidden></p><canvas></canvas>`;

export function createSearchView(el, app) {
  const $ = (c) => el.querySelector(c);
  const canvas = el.querySelector('canvas');
  const ui = { method: $('.s-method'), family: $('.s-family'), run: $('.s-run'), prev: $('.s-prev'), next: $('.s-next'), step: $('.s-step'), apply: $('.s-apply'), result: $('.s-result'), error: $('.search-error') };
  const state = { result: null, step: 0, compare: null, build: -1, stale: false, version: 0 };
  fillMethods(ui, app.tables.search_methods);
  ui.method.addEventListener('change', () => fillFamilies(ui, app.tables.search_methods));
  ui.run.addEventListener('click', () => run(app, ui, state, repaint));
  ui.prev.addEventListener('click', () => go(ui, state, state.step - 1, repaint));
  ui.next.addEventListener('click', () => go(ui, state, state.step + 1, repaint));
  ui.step.addEventListener('input', () => go(ui, state, Number(ui.step.value), repaint));
  ui.apply.addEventListener('click', () => applyResult(app, ui, state, repaint));
  let last = null;
  function repaint() {
    state.version += 1;
    if (last) draw(last);
  }
  function key(frame) {
    return `${state.version}:${frame.build}`;
  }
  function draw(frame) {
    last = frame;
    if (state.result && frame.build !== state.build) state.stale = true;
    paint(canvas, state, state.stale ? null : app); // a stale result's lines are another program's
  }
  return { draw, key };
}

function fillMethods(ui, methods) {
  for (const m of methods) ui.method.append(new Option(m.method, m.method));
  ui.method.value = 'mih';
  fillFamilies(ui, methods);
}

function fillFamilies(ui, methods) {
  const m = methods.find((x) => x.method === ui.method.value);
  const keep = ui.family.value;
  ui.family.textContent = '';
  for (const f of m.families) ui.family.append(new Option(f, f));
  ui.family.value = m.families.includes(keep) ? keep : m.families[m.families.length - 1];
}

function run(app, ui, state, repaint) {
  if (!app.session) return;
  try {
    state.result = JSON.parse(app.session.searchHash(ui.method.value, ui.family.value, 0));
    state.build = app.builds;
    state.stale = false;
    state.compare = null;
    ui.error.hidden = true;
  } catch (err) {
    state.result = null;
    ui.error.textContent = `search: ${err.message}`;
    ui.error.hidden = false;
  }
  const n = state.result ? state.result.steps.length : 0;
  ui.step.max = Math.max(0, n - 1);
  ui.step.disabled = !n;
  ui.apply.disabled = !state.result;
  go(ui, state, 0, repaint);
}

function go(ui, state, i, repaint) {
  const n = state.result ? state.result.steps.length : 0;
  state.step = Math.max(0, Math.min(n - 1, i));
  ui.step.value = state.step;
  ui.prev.disabled = !n || state.step === 0;
  ui.next.disabled = !n || state.step >= n - 1;
  ui.result.textContent = state.result ? resultLine(state) : '';
  ui.result.classList.toggle('good', Boolean(state.compare));
  repaint();
}

function resultLine(state) {
  const r = state.result;
  if (state.compare) {
    const { before, after } = state.compare;
    return `cycles ${before.cycles} → ${after.cycles} · conflict cycles ${before.shared.bank_conflict_cycles} → ${after.shared.bank_conflict_cycles}`;
  }
  return `→ ${r.hash}`;
}

// Runs the kernel to the end as configured now and with the result, then loads the result.
function applyResult(app, ui, state, repaint) {
  if (!state.result || !app.session) return;
  const before = JSON.parse(app.session.reportAtEnd());
  if (!app.applyHash(state.result.hash)) {
    ui.error.textContent = `could not apply ${state.result.hash} (see the Setup tab)`;
    ui.error.hidden = false;
    return;
  }
  const after = JSON.parse(app.session.reportAtEnd());
  state.compare = { before, after, hash: state.result.hash };
  state.build = app.builds;
  state.stale = false;
  go(ui, state, state.step, repaint);
  app.play('run');
}

// ----- drawing -----------------------------------------------------------------------------

function paint(canvas, state, app) {
  const r = state.result;
  if (!r) {
    const { ctx, width } = prepare(canvas, 64);
    text(ctx, 'Pick a method and a family, then Search: the kernel runs functionally and its shared-memory', 8, 14, { colour: UI.muted, maxWidth: width - 16 });
    text(ctx, 'warp accesses become the access sets (XOR paper §5, trace-based). exhaustive pairs with bvxor.', 8, 34, { colour: UI.muted, maxWidth: width - 16 });
    region(canvas, 0, 0, width, 64, GLOSSARY.search);
    setModel(canvas, { result: null });
    return;
  }
  const s = r.steps[state.step];
  const height = s && s.kind === 'select' ? (s.measure === 'imbalance' ? 340 : 220) : 220;
  const { ctx, width } = prepare(canvas, height);
  drawSummary(canvas, ctx, width, state, app);
  if (s && s.kind === 'select') drawSelect(canvas, ctx, width, s, r);
  else if (s) drawExhaustive(canvas, ctx, width, r, state.step);
  setModel(canvas, {
    method: r.method, family: r.family, hash: r.hash, sets: r.sets, steps: r.steps.length, step: state.step,
    kind: s ? s.kind : null, costBefore: r.cost_before, costAfter: r.cost_after, stale: state.stale,
    compare: state.compare ? { before: state.compare.before.cycles, after: state.compare.after.cycles, conflictBefore: state.compare.before.shared.bank_conflict_cycles, conflictAfter: state.compare.after.shared.bank_conflict_cycles } : null,
  });
}

function drawSummary(canvas, ctx, width, state, app) {
  const r = state.result;
  const from = r.sources.map((s) => `line ${s.line}${cudaLine(app, s.line) ? ` (CUDA ${cudaLine(app, s.line)})` : ''} ×${s.count}`).join(', ');
  text(ctx, `${r.method} for ${r.family}: ${r.sets} access sets${r.truncated ? ' (the first ones)' : ''} from ${from}; ${r.banks} banks, ${r.addr_bits} address bits`, 8, 10, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
  const good = r.cost_after < r.cost_before;
  text(ctx, `Result ${r.hash}: conflict cycles over the sets ${r.cost_before} under mod → ${r.cost_after} (${r.candidates} candidates)`, 8, 28, { font: FONT_BOLD, colour: good ? OKABE.green : UI.text, maxWidth: width - 16 });
  const tip = `${GLOSSARY.search}\n\nStatic instructions searched: ${r.sources.map((s) => `${lineText(app, s.line)} (${s.count} accesses): ${s.text}`).join('; ')}.`;
  region(canvas, 0, 0, width, 36, tip);
  if (state.stale) text(ctx, '(searched on the kernel or configuration loaded before; Search again for this one)', 8, 44, { font: FONT_SMALL, colour: OKABE.orange, maxWidth: width - 16 });
}

// A heuristic step: every free candidate's measure as a bar (free: not chosen, and independent of
// the chosen bits, the searches' rank guard), the chosen one marked.
function drawSelect(canvas, ctx, width, s, r) {
  const best = s.measure === 'quality' ? 'highest combined quality (Eqs. 11-12)' : 'lowest total imbalance (Eqs. 13-15)';
  const before = s.selected.length ? `; chosen before: ${s.selected.join(', ')}` : '';
  text(ctx, `Decision ${s.step + 1} of ${r.steps.length}: bank bit b${s.step} ← ${s.chosen} (${best})${before}`, 8, 62, { font: FONT_BOLD, colour: UI.text, maxWidth: width - 16 });
  const top = 84;
  const h = 96;
  const max = Math.max(1e-9, ...s.candidates.map((c) => c.value));
  const bw = Math.max(2, Math.min(28, (width - 70) / s.candidates.length));
  text(ctx, `${s.measure} of each free candidate, independent of those chosen (${s.measure === 'quality' ? 'higher' : 'lower'} is better; yellow: chosen)`, 60, top - 6, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 70 });
  s.candidates.forEach((c, i) => {
    const x = 60 + i * bw;
    const bh = Math.max(1, (h * c.value) / max);
    const chosen = c.term === s.chosen;
    ctx.fillStyle = chosen ? OKABE.yellow : OKABE.sky;
    ctx.fillRect(x, top + h - bh, Math.max(1, bw - 1), bh);
    if (chosen) {
      ctx.beginPath();
      ctx.moveTo(x + bw / 2, top + h + 1);
      ctx.lineTo(x + bw / 2 - 5, top + h + 9);
      ctx.lineTo(x + bw / 2 + 5, top + h + 9);
      ctx.closePath();
      ctx.fill();
    }
    if (chosen || bw >= 22) text(ctx, c.term, x + bw / 2, top + h + 18, { font: FONT_SMALL, align: 'center', colour: chosen ? OKABE.yellow : UI.muted });
    region(canvas, x, top, bw, h + 24, `Candidate ${c.term}: ${s.measure} ${c.value.toFixed(4)}${chosen ? ' (chosen)' : ''}.`);
  });
  if (s.measure === 'imbalance') {
    const c = s.candidates.find((x) => x.term === s.chosen);
    if (c) drawHistogram(canvas, ctx, width, top + h + 40, c, s);
  }
}

function drawHistogram(canvas, ctx, width, y, c, s) {
  text(ctx, `Histogram of ${c.term} with the bits chosen before (bins (A, b${s.step - 1 >= 0 ? s.step - 1 : ''}…b0), lanes summed over the sets; even bars = balanced banks)`, 8, y, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
  const bins = c.histogram;
  const max = Math.max(1, ...bins);
  const bw = Math.max(6, Math.min(40, (width - 70) / bins.length));
  bins.forEach((v, i) => {
    const bh = (80 * v) / max;
    const x = 60 + i * bw;
    ctx.fillStyle = OKABE.green;
    ctx.fillRect(x, y + 96 - bh, bw - 2, bh);
    if (bw >= 18) text(ctx, i.toString(2).padStart(s.step + 1, '0'), x + bw / 2, y + 106, { font: FONT_SMALL, align: 'center', colour: UI.muted, maxWidth: bw });
    region(canvas, x, y + 12, bw, 100, `Bin ${i.toString(2).padStart(s.step + 1, '0')}: ${v} lane accesses.`);
  });
}

// Exhaustive search: every candidate's cost, the best so far as a line, the current one marked.
function drawExhaustive(canvas, ctx, width, r, step) {
  const s = r.steps[step];
  const cands = r.steps.filter((x) => x.kind === 'candidate');
  let best = null;
  for (const x of r.steps.slice(0, step + 1)) if (x.best || x.kind === 'same_k') best = x;
  const line = s.kind === 'same_k'
    ? `Every access set has the same stride k: the search takes ${s.spec} directly (cost ${s.cost}).`
    : `Candidate ${step + 1} of ${r.steps.length}: ${s.spec}, cost ${s.cost}${s.best ? ' (new best)' : ''}; best so far ${best ? `${best.spec} (${best.cost})` : '—'}`;
  text(ctx, line, 8, 62, { font: FONT_BOLD, colour: UI.text, maxWidth: width - 16 });
  if (!cands.length) return;
  const top = 80;
  const h = 110;
  const max = Math.max(1, ...cands.map((c) => c.cost));
  const bw = (width - 70) / cands.length;
  text(ctx, 'cost', 8, top + 4, { font: FONT_SMALL, colour: UI.muted });
  let run = Infinity;
  ctx.strokeStyle = OKABE.green;
  ctx.lineWidth = 2;
  ctx.beginPath();
  cands.forEach((c, i) => {
    const x = 60 + i * bw;
    const bh = Math.max(1, (h * c.cost) / max);
    ctx.fillStyle = i === step ? OKABE.yellow : i < step ? OKABE.sky : '#3d4a59';
    ctx.fillRect(x, top + h - bh, Math.max(1, bw - (bw > 3 ? 1 : 0)), bh);
    run = Math.min(run, c.cost);
    const ly = top + h - Math.max(1, (h * run) / max);
    if (i === 0) ctx.moveTo(x, ly); else ctx.lineTo(x + bw, ly);
  });
  ctx.stroke();
  ctx.fillStyle = OKABE.yellow;
  ctx.fillRect(60 + step * bw + bw / 2 - 1, top + h + 2, 3, 8);
  text(ctx, 'bars: each candidate\'s conflict cycles (yellow: this one); green line: best so far', 60, top + h + 20, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 70 });
  region(canvas, 60, top, width - 70, h, () => `Exhaustive search over bvxor candidates in order (k1, then mask, then k2). Candidate ${step + 1}: ${s.spec}.`);
}
