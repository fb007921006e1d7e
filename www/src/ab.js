// The A/B mode (issue 17, "Side by side"): the session on screen is A; B is a second Session of
// the same kernel and launch with A's configuration plus a few overrides, from a quick preset
// (the five comparisons of the design documents) or typed as key=value (the model validates
// them; its message names the key at fault, and A is never touched). Every step, run, go-to,
// step back and reset drives both sessions to the same cycle (a run that ended earlier stays at
// its end, marked finished). Chosen panels are drawn for A and for B in two columns: the same
// view modules (views.js createPanel), a second set fed from B's snapshots. The counters are
// paired by the model (Session.compareCounters: src/research/compare.rs, as `warpstep compare`), never
// here. Leaving the mode frees B's Session. Text only: nothing typed or decoded from a link goes
// into innerHTML.
import { Session } from '../../pkg/warpstep.js';
import { createPanel, watchVisibility, PANEL_CHOICES } from './views.js';
import { readSnapshot } from './snapshot.js';
import { element, button } from './dom.js';
import { attachTooltips } from './tooltip.js';
import { AB_PRESETS } from './ab_presets.js';

// Short labels of the panels a column may show.
const PANEL_LABEL = { pipeline: 'Pipeline', simt: 'SIMT', timeline: 'Timeline', why: 'Why?', banks: 'Banks', memory: 'Memory', unified: 'Unified', stats: 'Stats', energy: 'Energy', mrpb: 'MRPB' };
const DEFAULT_PANELS = ['pipeline', 'simt', 'banks', 'memory', 'mrpb', 'stats'];
// The diff table follows a run at most this often (each pairing serialises both reports).
const RUNNING_MS = 250;

// A configuration value by dotted key, as text ('?' where the key is not there).
function valueAt(config, key) {
  const v = key.split('.').reduce((o, k) => (o == null ? o : o[k]), config);
  if (v === undefined) return '?';
  return typeof v === 'object' ? JSON.stringify(v) : String(v);
}

// A counter as the CLI prints it: whole numbers as they are, others to four decimals.
export function counterText(v) {
  if (v == null) return '-';
  return Number.isInteger(v) ? String(v) : v.toFixed(4);
}

export class AbMode {
  // `views`: the normal views' container; the bar goes above it, the columns beside it (one of
  // the two is shown). `tooltip`: the hover box the columns' canvases share.
  constructor(app, views, tooltip) {
    this.app = app;
    this.views = views;
    this.b = null; // B's Session
    this.sets = []; // B's overrides, on top of A's configuration
    this.panels = [...DEFAULT_PANELS];
    this.open = false;
    this.builds = 0;
    this.prev = null; // B's snapshot drawn last
    this.config = null; // B's configuration in effect
    this.label = ['', '']; // what the A and B columns are (labels())
    this.cells = []; // per panel row: { a, b } panels
    this.io = null;
    this.diffKey = null;
    this.all = false;
    this.breakAt = null; // { who: 'A' | 'B' | 'A and B', line } after a run stopped at a breakpoint
    this.extra = null; // a panel presentation mode shows large that is not one of `panels`
    this.makeBar(views);
    this.makeColumns(tooltip);
  }

  // Whether B exists (the sessions step in lockstep and the columns are on screen).
  get active() {
    return this.b !== null;
  }

  // ----- the form -----------------------------------------------------------------------

  makeBar(views) {
    const bar = element('div', 'ab-bar');
    bar.id = 'ab-bar';
    bar.hidden = true;
    const row1 = element('div', 'ab-row');
    const title = element('b', 'ab-title', 'A/B');
    title.title = 'A is the simulation on screen; B is this kernel and launch with A\'s configuration plus the overrides below, stepped with A cycle for cycle';
    row1.append(title);
    for (const p of AB_PRESETS) {
      const b = button('ab-preset', p.label, p.title, () => this.usePreset(p.id));
      b.dataset.preset = p.id;
      row1.append(b);
    }
    // While the columns are on screen they take the code panel's width, unless it is asked for.
    this.code = button('ab-code', 'Show code', 'Show or hide the code panel beside the two columns', () => this.showCode(!document.body.classList.contains('ab-show-code')));
    this.code.hidden = true;
    row1.append(this.code, button('ab-leave', 'Leave A/B', 'Back to one simulation (frees B)', () => this.leave()));
    const row2 = element('div', 'ab-row');
    const sets = document.createElement('textarea');
    sets.id = 'ab-sets';
    sets.rows = 1;
    sets.wrap = 'off';
    sets.spellcheck = false;
    sets.placeholder = 'key=value overrides for B, one a line (e.g. core.scheduler=gto)';
    sets.title = 'B\'s overrides on top of A\'s configuration: one key=value a line, the CLI\'s --set (Ctrl+Enter builds B)';
    sets.addEventListener('keydown', (e) => {
      if (e.ctrlKey && e.key === 'Enter') { e.preventDefault(); e.stopPropagation(); this.buildFromForm(); }
    });
    // The panels: a list that opens under its button.
    const checks = document.createElement('details');
    checks.className = 'ab-panels';
    this.panelsSummary = element('summary', 'ab-panels-summary', 'Panels');
    this.panelsSummary.title = 'The panels drawn for A and for B, one row each';
    const list = element('div', 'ab-panels-list');
    checks.append(this.panelsSummary, list);
    // The list closes on a click anywhere else.
    document.addEventListener('click', (e) => { if (checks.open && !checks.contains(e.target)) checks.open = false; });
    this.checks = new Map();
    for (const p of PANEL_CHOICES) {
      const label = element('label', 'ab-check');
      const box = document.createElement('input');
      box.type = 'checkbox';
      box.value = p.id;
      box.addEventListener('change', () => this.choosePanels([...this.checks.values()].filter((c) => c.checked).map((c) => c.value)));
      label.title = p.title;
      label.append(box, document.createTextNode(PANEL_LABEL[p.id] || p.title));
      list.append(label);
      this.checks.set(p.id, box);
    }
    row2.append(element('span', 'muted', 'B:'), sets, button('ab-build', 'Build B', 'Build B from this kernel with A\'s configuration plus these overrides, and step it with A (Ctrl+Enter)', () => this.buildFromForm()), checks);
    const error = element('p', 'error ab-error');
    error.id = 'ab-error';
    error.setAttribute('role', 'alert');
    error.hidden = true;
    const hint = element('p', 'muted ab-hint', 'Pick a comparison, or type overrides and Build B: B is stepped with A, cycle for cycle, and the panels and counters of both are shown side by side.');
    bar.append(row1, row2, error, hint);
    views.before(bar);
    this.bar = bar;
    this.setsField = sets;
    this.error = error;
    this.hint = hint;
    this.showChecks();
  }

  makeColumns(tooltip) {
    const cols = element('section', 'views ab-views');
    cols.id = 'ab-views';
    cols.hidden = true;
    const heads = element('div', 'ab-heads');
    this.heads = ['a', 'b'].map((side) => {
      const h = element('div', `ab-head ab-head-${side}`);
      h.id = `ab-head-${side}`;
      const what = element('span', 'ab-what');
      const where = element('span', 'ab-where');
      h.append(what, where);
      heads.append(h);
      return { el: h, what, where };
    });
    const diff = document.createElement('details');
    diff.className = 'ab-diff';
    diff.id = 'ab-diff';
    diff.open = true;
    const summary = element('summary', 'ab-diff-summary');
    summary.title = 'Every counter of the two runs so far, paired by the model (Session.compareCounters, as warpstep compare A B): the headline ones, then those that differ';
    this.diffTitle = element('span', 'ab-diff-title', 'Counters, B against A');
    const allLabel = element('label', 'ab-all');
    const all = document.createElement('input');
    all.type = 'checkbox';
    all.addEventListener('change', () => { this.all = all.checked; this.app.draw(true); });
    allLabel.append(all, document.createTextNode('every counter'));
    allLabel.addEventListener('click', (e) => e.stopPropagation());
    summary.append(this.diffTitle, allLabel);
    const wrap = element('div', 'ab-table-wrap');
    const table = document.createElement('table');
    table.className = 'ab-table';
    const head = table.createTHead().insertRow();
    for (const [t, tip] of [['counter', 'The report\'s counter, by dotted key'], ['A', 'Run A so far'], ['B', 'Run B so far'], ['B/A', 'B divided by A (the model\'s ratio)']]) {
      const th = document.createElement('th');
      th.textContent = t;
      th.title = tip;
      head.append(th);
    }
    this.tbody = table.createTBody();
    wrap.append(table);
    diff.append(summary, wrap);
    const grid = element('div', 'ab-grid');
    cols.append(heads, diff, grid);
    this.views.after(cols);
    attachTooltips(cols, tooltip);
    this.cols = cols;
    this.grid = grid;
    this.table = table;
  }

  showChecks() {
    for (const [id, box] of this.checks) box.checked = this.panels.includes(id);
    this.panelsSummary.textContent = `Panels (${this.panels.length})`;
  }

  // Opens the form (B is built from it), or leaves the mode when it is open.
  toggle() {
    if (this.open) this.leave();
    else this.show();
  }

  show() {
    this.open = true;
    this.bar.hidden = false;
    document.getElementById('btn-ab').classList.add('active');
    document.body.dataset.ab = this.active ? 'on' : 'open';
  }

  usePreset(id) {
    const p = AB_PRESETS.find((x) => x.id === id);
    if (!p || !this.app.config) return false;
    const sets = p.sets(this.app.config);
    this.setsField.value = sets.join('\n');
    return this.build(sets, p.panels);
  }

  buildFromForm() {
    const sets = this.setsField.value.split('\n').map((l) => l.trim()).filter((l) => l.length > 0);
    return this.build(sets, this.panels);
  }

  showError(message) {
    this.error.textContent = message;
    this.error.hidden = !message;
    if (message) document.body.dataset.abError = message;
    else delete document.body.dataset.abError;
  }

  // ----- B's session --------------------------------------------------------------------

  // B = A's kernel, launch, preset and overrides plus `sets`. On a configuration (or any input)
  // error the message names what is wrong and nothing changes: A, and B if there was one.
  // `built`: a Session already built from that input (a link's, checked before loading).
  build(sets, panels = this.panels, built = null) {
    const app = this.app;
    const l = app.loaded;
    if (!l || !app.session) return false;
    this.show();
    let s = built;
    if (!s) {
      try {
        s = new Session(l.ptx, l.launch, l.preset, [...l.sets, ...sets]);
      } catch (err) {
        this.showError(`B is not built: ${err.kind ? `${err.kind} error: ` : ''}${err.message}\n(A is unchanged${this.b ? '; B stays as it was' : ''}.)`);
        return false;
      }
    }
    app.pause();
    this.install(s, sets, panels);
    // B starts at cycle 0: it catches up with A (A stays where it is).
    app.runTo(app.session.cycle());
    return true;
  }

  install(s, sets, panels) {
    if (this.b) this.b.free();
    this.b = s;
    this.sets = [...sets];
    this.builds += 1;
    this.prev = null;
    this.breakAt = null;
    this.config = JSON.parse(s.config());
    this.label = this.labels();
    s.setBreakpoints(Uint32Array.from(this.app.panes.ptxBreakpoints()));
    s.setSourceBreakpoints(Uint32Array.from(this.app.panes.cudaBreakpoints()));
    this.showError(null);
    this.setsField.value = this.sets.join('\n');
    this.panels = PANEL_CHOICES.map((p) => p.id).filter((id) => panels.includes(id));
    this.showChecks();
    this.layout(true);
    // The panels of the last B draw the new one (as the normal views outlive each A).
    if (this.cells.map((c) => c.id).join() !== this.rowIds().join()) this.makePanels();
    else this.changed();
  }

  // A was rebuilt (Apply, another example, a link, a lesson): B follows it with the same
  // overrides, from cycle 0; if B no longer builds, it goes and the form says why.
  rebuild() {
    if (!this.b) return;
    const l = this.app.loaded;
    let s;
    try {
      s = new Session(l.ptx, l.launch, l.preset, [...l.sets, ...this.sets]);
    } catch (err) {
      this.dropB();
      this.showError(`B is not built for the new A: ${err.kind ? `${err.kind} error: ` : ''}${err.message}`);
      return;
    }
    this.install(s, this.sets, this.panels);
  }

  dropB() {
    if (this.b) this.b.free();
    this.b = null;
    this.clearPanels();
    this.layout(false);
    this.changed();
  }

  // Presentation mode (present.js) lays out again when B comes or goes or the rows change.
  changed() {
    if (this.app.present) this.app.present.abChanged();
  }

  // The code panel beside the columns (on), or the columns in its place.
  showCode(on) {
    document.body.classList.toggle('ab-show-code', on);
    this.code.textContent = on ? 'Hide code' : 'Show code';
  }

  // Back to one simulation: B's Session is freed and the normal views return.
  leave() {
    this.dropB();
    this.showCode(false);
    this.open = false;
    this.bar.hidden = true;
    document.getElementById('btn-ab').classList.remove('active');
    this.showError(null);
    delete document.body.dataset.ab;
    this.app.draw(true);
  }

  // The columns (with B) or the normal views.
  layout(on) {
    this.cols.hidden = !on;
    this.views.hidden = on;
    this.hint.hidden = on;
    this.code.hidden = !on;
    document.body.classList.toggle('ab-mode', on);
    if (on || this.open) document.body.dataset.ab = on ? 'on' : 'open';
    else delete document.body.dataset.ab;
  }

  choosePanels(ids) {
    this.panels = PANEL_CHOICES.map((p) => p.id).filter((id) => ids.includes(id));
    this.showChecks();
    if (this.active) {
      this.makePanels();
      this.app.draw(true);
    }
  }

  clearPanels() {
    if (this.io) this.io.disconnect();
    this.io = null;
    this.cells = [];
    this.grid.textContent = '';
  }

  // The rows' panels: the chosen ones, then presentation mode's large one if it is not among them.
  rowIds() {
    return this.extra && !this.panels.includes(this.extra) ? [...this.panels, this.extra] : this.panels;
  }

  // The row of panel `id` for presentation mode's large pair (A's beside B's), made for it if
  // `id` is not a chosen panel; `null` drops such a row. Returns the row ({ id, a, b }) or null.
  presentPair(id) {
    const extra = id && !this.panels.includes(id) ? id : null;
    if (extra !== this.extra) {
      this.extra = extra;
      if (this.active) this.makePanels();
    }
    return this.cells.find((c) => c.id === id) || null;
  }

  // One row per chosen panel: A's instance in the left column, B's in the right.
  makePanels() {
    this.clearPanels();
    this.rowIds().forEach((id, row) => {
      const a = createPanel(this.grid, id, this.app, 'ab-a-');
      const b = createPanel(this.grid, id, this.app, 'ab-b-');
      for (const [p, col] of [[a, 1], [b, 2]]) {
        p.el.style.gridRow = String(row + 1);
        p.el.style.gridColumn = String(col);
      }
      this.cells.push({ id, a, b });
    });
    this.io = watchVisibility(this.cells.flatMap((c) => [c.a, c.b]));
    this.changed();
  }

  // ----- lockstep -----------------------------------------------------------------------

  sessions() {
    return [this.app.session, this.b];
  }

  // The cycle both stand at: the later of the two (a run that ended earlier stays at its end).
  clock() {
    return Math.max(...this.sessions().map((s) => s.cycle()));
  }

  finished() {
    return this.sessions().every((s) => s.finished());
  }

  // Whether a session still running is short of `cycle`.
  behind(cycle) {
    return this.sessions().some((s) => !s.finished() && s.cycle() < cycle);
  }

  // After a run or a catch-up is stopped early: a session still running that is ahead of the
  // other goes back to the other's cycle, so both show the same cycle (a finished one stays at
  // its end).
  realign() {
    const running = this.sessions().filter((s) => !s.finished());
    if (running.length < 2) return;
    const cycle = Math.min(...running.map((s) => s.cycle()));
    for (const s of running) if (s.cycle() > cycle) s.runUntil(cycle, 0);
  }

  // Every session past `cycle` goes back to it (restore + replay).
  rewindTo(cycle) {
    this.breakAt = null;
    for (const s of this.sessions()) if (s.cycle() > cycle) s.runUntil(cycle, 0);
  }

  // `n` cycles forwards for both (breakpoints ignored, as Step).
  step(n) {
    this.breakAt = null;
    const target = this.clock() + n;
    for (const s of this.sessions()) if (!s.finished() && s.cycle() < target) s.runUntil(target, target - s.cycle());
  }

  back(n) {
    this.rewindTo(Math.max(0, this.clock() - n));
  }

  reset() {
    this.breakAt = null;
    for (const s of this.sessions()) s.reset();
  }

  // One frame of running: at most `n` cycles each. `goto`: towards `target` (no breakpoints);
  // else to the clock + n, stopping both at the first breakpoint either hits (the other goes
  // back to that cycle if it ran past it). Returns a stop name like Session's.
  advance(n, mode, target) {
    this.breakAt = null;
    const list = this.sessions();
    if (mode === 'goto') {
      for (const s of list) if (!s.finished() && s.cycle() < target) s.runUntil(target, n);
      if (this.finished()) return 'finished';
      return this.behind(target) ? 'budget' : 'target';
    }
    let end = this.clock() + n;
    list.forEach((s, i) => {
      if (s.finished() || s.cycle() >= end) return;
      const stop = this.app.tables.stop_reasons[s.runFor(end - s.cycle())];
      if (stop !== 'breakpoint') return;
      const who = i === 0 ? 'A' : 'B';
      if (this.breakAt && s.cycle() === end) this.breakAt.who = 'A and B';
      else this.breakAt = { who, line: s.breakLine() };
      end = s.cycle();
    });
    if (this.breakAt) {
      for (const s of list) if (s.cycle() > end) s.runUntil(end, 0);
      return 'breakpoint';
    }
    return this.finished() ? 'finished' : 'budget';
  }

  breakText() {
    return this.breakAt ? `breakpoint: line ${this.breakAt.line} (${this.breakAt.who})` : '';
  }

  setBreakpoints(lines) {
    if (this.b) this.b.setBreakpoints(Uint32Array.from(lines));
  }

  // B stops at the CUDA lines A stops at (the CUDA pane's breakpoints).
  setSourceBreakpoints(lines) {
    if (this.b) this.b.setSourceBreakpoints(Uint32Array.from(lines));
  }

  // ----- drawing ------------------------------------------------------------------------

  // The panels of both columns (the app reads A's snapshot with the parts they need).
  drawnPanels() {
    return this.cells.flatMap((c) => [c.a, c.b]);
  }

  // Draws both columns: A's panels from A's frame (the app's), B's from B's snapshot of the
  // same SM and warp (the first ones if B has fewer), then the column heads and the table.
  draw(frameA, force) {
    const app = this.app;
    const B = this.b;
    const sm = Math.min(app.sm, B.numSms() - 1);
    const warp = app.warp < B.warpSlots() ? app.warp : 0;
    const snap = readSnapshot(B, app.tables, sm, warp, frameA.snap.asked);
    const frameB = app.makeFrame(snap, { session: B, prev: this.prev, config: this.config, build: -this.builds, warp, sm, strips: false });
    for (const c of this.cells) {
      c.a.update(frameA, force);
      c.b.update(frameB, force);
    }
    this.prev = snap;
    this.drawHeads(frameA.snap, snap);
    this.drawDiff(frameA, force);
  }

  // What each column is: A's preset, its own override count and its values of the keys B
  // overrides; B's overrides (what differs).
  labels() {
    const app = this.app;
    const launch = JSON.parse(app.session.launch());
    const preset = launch.config ? (launch.config.startsWith('{') ? '(JSON configuration)' : launch.config) : 'fermi';
    const n = app.loaded.sets.length;
    const own = n ? ` + ${n} override${n === 1 ? '' : 's'}` : '';
    const mine = this.sets.map((s) => s.split('=')[0].trim()).map((k) => `${k}=${valueAt(app.config, k)}`);
    return [
      `A: ${preset}${own}${mine.length ? ` · ${mine.join(' · ')}` : ''}`,
      `B: ${this.sets.length ? this.sets.join(' · ') : 'no overrides (the same as A)'}`,
    ];
  }

  drawHeads(snapA, snapB) {
    const app = this.app;
    [[this.heads[0], this.label[0], app.session, snapA], [this.heads[1], this.label[1], this.b, snapB]].forEach(([h, what, s, snap]) => {
      h.what.textContent = what;
      h.what.title = what;
      const status = s.status();
      const cycle = s.cycle();
      let where = `cycle ${cycle}`;
      if (status === 'completed') where = `completed at cycle ${cycle} · finished`;
      if (status === 'failed') where = `failed at cycle ${cycle} · finished`;
      h.where.textContent = where;
      h.where.title = status === 'failed' && snap.error ? snap.error : where;
      h.el.dataset.cycle = cycle;
      h.el.dataset.status = status;
      h.el.classList.toggle('finished', status !== 'running');
      h.el.classList.toggle('failed', status === 'failed');
    });
  }

  drawDiff(frameA, force) {
    const A = this.app.session;
    const B = this.b;
    const key = frameA.running ? `run:${Math.floor(frameA.now / RUNNING_MS)}` : `${this.builds}:${frameA.build}:${A.cycle()}:${B.cycle()}:${this.all}`;
    if (!force && key === this.diffKey) return;
    this.diffKey = key;
    const d = JSON.parse(A.compareCounters(B, this.all));
    this.tbody.textContent = '';
    for (const r of d.counters) {
      const tr = this.tbody.insertRow();
      tr.dataset.key = r.key;
      if (r.differs) tr.className = 'differs';
      for (const t of [r.key, counterText(r.a), counterText(r.b), r.ratio == null ? '-' : r.ratio.toFixed(3)]) tr.insertCell().textContent = t;
    }
    const cycles = A.cycle() === B.cycle() ? `cycle ${A.cycle()}` : `A at cycle ${A.cycle()}, B at cycle ${B.cycle()}`;
    this.diffTitle.textContent = `Counters, B against A, ${cycles}: ${d.differing} differ`;
    this.table.dataset.model = JSON.stringify({ cycles: [A.cycle(), B.cycle()], differing: d.differing, counters: d.counters });
  }

  // The top bar while both step: the clock (the later cycle) and where each run stands.
  showState() {
    const [A, B] = this.sessions();
    const clock = this.clock();
    document.getElementById('cycle').textContent = clock;
    const body = document.body.dataset;
    body.cycle = clock;
    const st = [A.status(), B.status()];
    body.status = st.includes('running') ? 'running' : st.every((s) => s === 'completed') ? 'completed' : 'failed';
    body.abCycles = `${A.cycle()},${B.cycle()}`;
    const app = this.app;
    // A run that failed says why, whichever of the two it is.
    const failed = [['A', A], ['B', B]].filter(([, s]) => s.status() === 'failed');
    if (failed.length) app.showBanner(failed.map(([n, s]) => `${n} stopped at cycle ${s.cycle()}:\n${s.error()}`).join('\n'));
    else app.hideBanner();
    if (app.mode !== null) return;
    if (this.breakAt) {
      app.setStatus(this.breakText());
      return;
    }
    // Short (the top bar keeps one row); the column heads have the cycles.
    const word = (s) => ({ running: 'running', completed: 'done', failed: 'failed' }[s.status()]);
    const text = `A/B ${clock === 0 ? 'ready' : 'paused'}\nA ${word(A)} · B ${word(B)}`;
    const full = (s) => (s.status() === 'running' ? `running at cycle ${s.cycle()}` : `${s.status()} at cycle ${s.cycle()}`);
    app.setStatus(text, '', `Both runs stepped in lockstep: A ${full(A)}, B ${full(B)}.`);
  }

  // What a shared link keeps of the mode: B's overrides and the panels.
  shareState() {
    return this.active ? { ab: [...this.sets], ab_panels: [...this.panels] } : {};
  }
}
