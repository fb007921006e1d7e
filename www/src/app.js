// The app: owns the wasm Session, the selection (SM, warp), the run loop and the redraw. It never
// computes hardware behaviour: it asks the Session to step and draws the snapshots it returns.
// Bad input (PTX, launch or configuration errors) leaves the last good simulation on screen.
import { element, button, downloadJson, downloadBlob } from './dom.js';
import { Session, bankFunction } from '../../pkg/warpstep.js';
import { createViews } from './views.js';
import { historyPoints } from './views/stats.js';
import { onCanvasResize } from './canvas.js';
import { nextBudget, SPEEDS } from './pacing.js';
import { CodePanes, sameEntries } from './code_panes.js';
import { createSetupPanel } from './setup_panel.js';
import { createOccupancyCalculator } from './occupancy.js';
import { EXAMPLES, DEFAULT_EXAMPLE, exampleById, exampleInput } from './examples.js';
import { shareUrl, decodeState, stateInUrl, presentInUrl, lessonLinkInUrl } from './share.js';
import { LessonPlayer, lessonInUrl } from './lessons.js';
import { Presenter } from './present.js';
import { AbMode } from './ab.js';
import { setRunButton } from './run_button.js';

// Speeds of the slider: simulated cycles per second (Infinity: full speed, a cycle budget per
// animation frame; pacing.js sizes it).
const MOTION_MS = 350;
const MARK_MS = 200;
// The comparison of the Elastic paper's three pipelines (pipeline view): the overrides each run
// gets on top of the session's own (whose pipeline keys it replaces), and the cycles recorded
// around the current one.
const PIPELINES = [
  { mode: 'in_order', sets: ['elastic.enabled=false', 'elastic.baseline=in_order'] },
  { mode: 'split', sets: ['elastic.enabled=false', 'elastic.baseline=split'] },
  { mode: 'elastic', sets: ['elastic.enabled=true'] },
];
const COMPARE_BEFORE = 200;
const COMPARE_AFTER = 400;
// The stack / convergence-barriers comparison (SIMT view): the two runs, each with the session's
// overrides and its core.divergence, and the cycle at which a run still going is cut off.
const DIVERGENCE_MODES = [
  { mode: 'stack', sets: ['core.divergence=stack'] },
  { mode: 'convergence_barriers', sets: ['core.divergence=convergence_barriers'] },
];
const DIVERGENCE_CAP = 20_000;
// Longest notice text shown (a link's or the model's message may be long).
const NOTICE_CHARS = 600;
// The Setup tab's explanation for a kernel of your own, and the first step it needs.
const USER_ABOUT = 'Your own kernel, on a clean default machine (it may be PTX, or CUDA C that warpstep compiles to PTX): the preset its // warpstep: --config line names (else fermi) and no overrides. It needs a launch: the grid, the block and one --arg per kernel parameter, in the Launch field below (or on // warpstep: lines at the top of the PTX or CUDA). Then Apply.';
const LAUNCH_HELP = 'Your kernel needs a launch. In the Setup tab, under Launch, give the grid, the block and one --arg per kernel parameter, e.g. --grid 1 --block 32 --arg f32[32]=iota --arg f32[32]=0 --arg 32 (or put them on // warpstep: lines at the top of the PTX or CUDA), then Apply.';

const $ = (id) => document.getElementById(id);

export class App {
  constructor(tables) {
    this.tables = { ...tables, byName: Object.fromEntries(tables.warp_states.map((s) => [s.name, s])) };
    this.session = null;
    this.sm = 0;
    this.warp = 0;
    // The lane the Why? panel explains (-1: the whole warp).
    this.lane = -1;
    // The L1D set linked from the MRPB view to the Memory view: { set, key, source, cycle }
    // (key names the label clicked, source says what it is), or null.
    this.linked = null;
    this.snap = null;
    this.prev = null;
    this.mode = null; // null | 'run' | 'goto'
    this.gotoTarget = 0;
    this.budget = 2000;
    this.hashCache = null;
    this.builds = 0;
    this.markedAt = 0;
    this.drawMs = 2;
    this.carry = 0;
    this.lastTime = 0;
    this.focused = null;
    // Called after each build (the new Session) and each redraw (the snapshot): classroom.js.
    this.hooks = { built: [], drawn: [], focus: [] };
    // {ptx, cuda, launch, preset, sets, example}: `ptx` is the text the Session was built from
    // (PTX, or CUDA the model compiles); `cuda` the CUDA shown beside a PTX input ('' if none).
    this.loaded = null;
    // The three pipelines' runs of this kernel (comparePipelines), for the build they belong to.
    this.compare = null;
    // The stack and convergence-barrier runs of this kernel (compareDivergence), likewise.
    this.divergence = null;
    // The Code tab: the PTX pane (this.editor: PTX lines, as the views name them) and, for a
    // kernel with CUDA, the CUDA pane beside it (code_panes.js).
    this.panes = new CodePanes({ ptxBreakpoints: (l) => this.setBreakpoints(l), cudaBreakpoints: (l) => this.setSourceBreakpoints(l), apply: () => this.apply() });
    this.editor = this.panes.ptx;
    this.setup = createSetupPanel(document, { onHashEdit: () => this.drawHashPanel() });
    this.occupancy = createOccupancyCalculator(document);
    this.views = createViews($('views'), this);
    // A click on a lane asks the Why? panel about it (dom.js askWhyLane).
    document.addEventListener('why-lane', (e) => this.askWhyLane(e.detail.lane));
    // The A/B mode: a second Session (B) stepped with this one, side by side (ab.js).
    this.ab = new AbMode(this, $('views'), $('tooltip'));
    this.makeNotice();
    this.lessons = new LessonPlayer(this);
    this.present = new Presenter(this);
    this.fillExamples();
    this.bindTabs();
    this.changeSpeed(0);
    window.addEventListener('resize', () => this.draw(true));
    onCanvasResize(() => this.draw(true));
  }

  // ----- loading ------------------------------------------------------------------------

  fillExamples() {
    const select = $('example');
    for (const e of EXAMPLES) {
      const o = document.createElement('option');
      o.value = e.id;
      o.textContent = e.label || e.title;
      o.title = e.title;
      select.append(o);
    }
    const custom = document.createElement('option');
    custom.value = '';
    custom.textContent = '(your kernel)';
    select.append(custom);
    select.addEventListener('change', () => {
      if (!select.value) return;
      this.hideNotice();
      this.loadExample(select.value);
    });
  }

  // Opens the URL's shared state, or the default example. A damaged link shows what is wrong
  // (the notice stays until dismissed or something else loads) and the default example, never
  // a blank page. A link typed into the address bar later opens the same way (hashchange).
  // Any of them may carry a present field (presentation mode, present.js), read before and
  // applied once the state or lesson it goes with has opened.
  start() {
    window.addEventListener('hashchange', () => {
      const encoded = stateInUrl();
      const lesson = lessonInUrl();
      const present = presentInUrl();
      let ok = true;
      if (encoded !== null) ok = this.openLink(encoded);
      if (lesson) ok = this.lessons.open(lesson.id, lesson.step);
      const linked = lessonLinkInUrl();
      if (linked) ok = this.lessons.openLink(linked.data, linked.step);
      if (ok) this.present.fromUrl(present, { leaveIfAbsent: true });
    });
    const encoded = stateInUrl();
    const present = presentInUrl();
    if (encoded !== null && this.openLink(encoded)) {
      this.present.fromUrl(present);
      return;
    }
    // A lesson's URL (#lesson=<id>&step=<n>), or a recorded lesson's link
    // (#lessonData=<data>&step=<n>): its step; a bad one says so over the default example.
    const lesson = lessonInUrl();
    if (lesson && this.lessons.open(lesson.id, lesson.step)) {
      this.present.fromUrl(present);
      return;
    }
    const linked = lessonLinkInUrl();
    if (linked && this.lessons.openLink(linked.data, linked.step)) {
      this.present.fromUrl(present);
      return;
    }
    this.loadExample(DEFAULT_EXAMPLE);
    this.markReady();
    if (encoded === null && !lesson) this.present.fromUrl(present);
  }

  // Opens an encoded link (share.js checks its data); the kernel is built and the SM and warp
  // checked against its machine before anything on screen changes. On any problem the notice
  // says what is wrong and the current state stays. Returns whether the link opened.
  openLink(encoded) {
    let state;
    let session = null;
    let b = null;
    try {
      state = decodeState(encoded);
      try {
        session = new Session(state.ptx, state.launch, state.preset, state.sets);
      } catch (err) {
        throw new Error(`its kernel does not load: ${err.kind ? `${err.kind} error: ` : ''}${err.message}`);
      }
      if (state.sm >= session.numSms()) throw new Error(`its SM ${state.sm} does not exist (the machine has ${session.numSms()} SM${session.numSms() === 1 ? '' : 's'})`);
      if (state.warp >= session.warpSlots()) throw new Error(`its warp ${state.warp} does not exist (an SM has ${session.warpSlots()} warp slots)`);
      const warpSize = JSON.parse(session.config()).core.warp_size;
      if (state.lane >= warpSize) throw new Error(`its lane ${state.lane} does not exist (a warp has ${warpSize} lanes)`);
      if (state.ab) {
        try {
          b = new Session(state.ptx, state.launch, state.preset, [...state.sets, ...state.ab]);
        } catch (err) {
          throw new Error(`its A/B configuration B does not load: ${err.kind ? `${err.kind} error: ` : ''}${err.message}`);
        }
      }
    } catch (err) {
      if (session) session.free();
      if (b) b.free();
      this.showNotice(`This link cannot be opened: ${err.message}. ${this.session ? 'The current simulation stays.' : 'Showing the default example instead.'}`);
      return false;
    }
    // The example's name only if the link's kernel is that example's (else its explanation
    // would describe another kernel).
    const ex = exampleById(state.example);
    const example = ex && exampleInput(ex).ptx === state.ptx ? state.example : '';
    this.hideNotice();
    // A link without A/B leaves the mode; one with it opens it on the new A with its own B.
    if (b) this.ab.dropB();
    else if (this.ab.open) this.ab.leave();
    this.load(state, example, session);
    if (b) this.ab.build(state.ab, state.abPanels || undefined, b);
    this.sm = state.sm;
    this.warp = state.warp;
    this.lane = state.lane;
    $('sm-select').value = this.sm;
    // The panel the link's author had enlarged.
    const focus = state.view ? this.views.find((v) => v.id === state.view) : null;
    if (focus && this.focused !== focus.el) this.toggleFocus(focus.el);
    else if (!focus && this.focused) this.toggleFocus(this.focused);
    this.runTo(state.cycle);
    return true;
  }

  loadExample(id) {
    const e = exampleById(id);
    if (!e) return false;
    return this.load(exampleInput(e), id);
  }

  // Builds a new Session; on an input error keeps the current one and shows the error at its
  // line. Returns whether it loaded.
  // `session`, if given, is already built from this input (a link's, checked before loading).
  load({ ptx, cuda = '', launch, preset, sets }, example, session = null) {
    this.pause();
    this.panes.load(ptx, cuda);
    this.setup.set({ launch, preset, sets });
    this.setupAtLoad = JSON.stringify(this.setup.get());
    $('example').value = example;
    const e = exampleById(example);
    $('example').title = e ? e.title : 'Built-in examples (each explained in the Setup tab)';
    $('example-about').textContent = e ? e.about : USER_ABOUT;
    return this.build({ ptx, cuda: this.panes.companion, launch, preset, sets, example, watch: e && e.watch ? e.watch : [] }, session);
  }

  // Applies the editor text and the setup fields. A kernel of your own pasted over an example
  // (not an edit of it: other .entry names) starts from a clean default machine, without the
  // example's overrides, launch or explanation, unless the Setup tab was changed too; if it
  // then lacks a launch, the notice says what to give and where.
  apply() {
    let setup = this.setup.get();
    const l = this.loaded;
    const raw = this.panes.inputText();
    const same = l && l.ptx === raw && l.example;
    const ex = !same && l && l.example ? exampleById(l.example) : null;
    const own = ex && !sameEntries(raw, exampleInput(ex).ptx);
    // A CUDA text typed over PTX moves to the CUDA pane (and back); other kernels than the
    // loaded ones drop the CUDA shown beside its PTX.
    const text = this.panes.takeInput(Boolean(l) && sameEntries(raw, l.ptx));
    if (!same) {
      if (own && JSON.stringify(setup) === this.setupAtLoad) {
        setup = { launch: '', preset: '', sets: [] };
        this.setup.set(setup);
        this.setupAtLoad = JSON.stringify(this.setup.get());
      }
      $('example').value = '';
      $('example').title = 'Your own kernel';
      $('example-about').textContent = USER_ABOUT;
    }
    this.hideNotice();
    this.pause();
    const ok = this.build({ ptx: text, cuda: this.panes.companion, ...setup, example: same ? l.example : '', watch: same ? l.watch : [] });
    const err = this.buildError;
    if (!ok && err && err.kind === 'launch' && err.line) {
      this.showNotice(`The launch on line ${err.line} of the kernel (its // warpstep: line, marked in the editor) does not fit: ${err.message.replace(/^line \d+ \(\/\/ warpstep:\): /, '')}`);
    } else if (!ok && !same && err && err.kind === 'launch' && !err.line) {
      this.showNotice(`${LAUNCH_HELP}\n(launch error: ${err.message})`);
      $('launch').scrollIntoView({ block: 'nearest' });
    }
  }

  build(input, built = null) {
    let session = built;
    this.buildError = null;
    if (!session) {
      try {
        session = new Session(input.ptx, input.launch, input.preset, input.sets);
      } catch (err) {
        this.buildError = err;
        this.showInputError(err, input.launch);
        return false;
      }
    }
    if (this.session) this.session.free();
    this.session = session;
    this.builds += 1;
    this.loaded = input;
    this.hideInputError();
    this.hideBanner();
    this.listing = JSON.parse(session.listing());
    this.panes.built(session, this.listing);
    this.config = JSON.parse(session.config());
    this.setup.showConfig(session.config());
    const l = JSON.parse(session.launch());
    $('launch-effective').textContent = `In effect: kernel ${l.kernel}, grid ${l.grid.join(',')}, block ${l.block.join(',')}${l.config ? `, config ${l.config.startsWith('{') ? '(JSON)' : l.config}` : ''}.`;
    this.sm = 0;
    this.warp = 0;
    this.lane = -1;
    this.linked = null;
    this.compare = null;
    this.divergence = null;
    this.prev = null;
    this.fillSms(session.numSms());
    session.setBreakpoints(Uint32Array.from(this.panes.ptxBreakpoints()));
    session.setSourceBreakpoints(Uint32Array.from(this.panes.cudaBreakpoints()));
    this.ab.rebuild();
    for (const h of this.hooks.built) h(input);
    this.draw(true);
    return true;
  }

  // An input error: its message under the panes and its line (and column) marked in the pane
  // holding that text (code_panes.js markError), else the Setup tab for a launch or config error.
  showInputError(err, launch = '') {
    const line = err.line;
    const kind = { cuda: 'CUDA compile', generated_ptx: 'generated PTX' }[err.kind] || err.kind;
    $('input-error').textContent = `${kind ? `${kind} error: ` : ''}${err.message}${this.session ? '\n(The last good simulation stays on screen.)' : ''}`;
    $('input-error').hidden = false;
    document.body.dataset.inputError = err.message;
    document.body.dataset.errorLine = line || '';
    document.body.dataset.errorKind = err.kind || '';
    document.body.dataset.errorColumn = err.column || '';
    if (this.panes.markError(err, launch)) {
      this.showTab('code');
    } else if (err.kind === 'launch' || err.kind === 'config') {
      this.showTab('setup');
      $('config-error').textContent = `${err.kind} error: ${err.message}`;
      $('config-error').hidden = false;
    }
  }

  hideInputError() {
    $('input-error').hidden = true;
    delete document.body.dataset.inputError;
    delete document.body.dataset.errorLine;
    delete document.body.dataset.errorKind;
    delete document.body.dataset.errorColumn;
  }

  fillSms(n) {
    const select = $('sm-select');
    select.textContent = '';
    for (let i = 0; i < n; i++) {
      const o = document.createElement('option');
      o.value = i;
      o.textContent = `SM ${i}`;
      select.append(o);
    }
    select.hidden = n <= 1;
    select.onchange = () => this.selectSm(Number(select.value));
  }

  // ----- stepping -----------------------------------------------------------------------

  stepN() {
    return Math.max(1, Number($('step-n').value) || 1);
  }

  // Stepping, going to a cycle and resetting move B too in the A/B mode (to the same cycle).
  step(n) {
    if (!this.session) return;
    this.pause();
    if (this.ab.active) this.ab.step(n);
    else this.session.step(n);
    this.draw();
  }

  back(n) {
    if (!this.session) return;
    this.pause();
    if (this.ab.active) this.ab.back(n);
    else this.session.stepBack(n);
    this.draw();
  }

  reset() {
    if (!this.session) return;
    this.pause();
    if (this.ab.active) this.ab.reset();
    else this.session.reset();
    this.draw();
  }

  // The cycle on screen: the session's, or in the A/B mode the later of A's and B's.
  clock() {
    return this.ab.active ? this.ab.clock() : this.session.cycle();
  }

  // Whether nothing is left to run (in the A/B mode: both runs ended).
  finished() {
    return this.ab.active ? this.ab.finished() : this.session.finished();
  }

  // The breakpoint the last run stopped at, as the status line says it.
  breakText() {
    if (this.ab.active) return this.ab.breakText();
    const b = this.session.breakLine();
    const c = this.panes.cudaShown ? this.panes.cudaLine(b) : 0;
    return b ? `breakpoint: ${c ? `CUDA line ${c}, PTX ` : ''}line ${b}` : '';
  }

  toggleRun() {
    if (this.mode) this.pause();
    else this.play('run');
  }

  runTo(cycle) {
    if (!this.session) return;
    this.gotoTarget = cycle;
    const ahead = this.ab.active ? this.ab.behind(cycle) : cycle > this.session.cycle();
    if (this.ab.active) this.ab.rewindTo(cycle);
    if (!ahead) {
      if (!this.ab.active) this.session.runUntil(cycle, 0);
      this.draw();
      this.markReady();
      return;
    }
    this.play('goto');
  }

  gotoTyped() {
    const v = Number($('goto-cycle').value);
    if (Number.isFinite(v) && v >= 0) this.runTo(Math.floor(v));
  }

  play(mode) {
    if (!this.session) return;
    if (mode === 'run' && this.finished()) return;
    this.mode = mode;
    this.carry = 0;
    this.lastTime = performance.now();
    setRunButton($('btn-run'), true);
    $('btn-run').classList.add('running');
    requestAnimationFrame((t) => this.frame(t));
  }

  // Stops running; views that thin out their redraws while running (stats) draw the final state.
  pause() {
    const was = this.mode;
    this.mode = null;
    setRunButton($('btn-run'), false);
    $('btn-run').classList.remove('running');
    // A/B: a run or catch-up stopped early leaves the two at one cycle again.
    if (was && this.ab.active) this.ab.realign();
    if (was && this.session) this.draw();
    // A replay to a linked cycle that is cancelled leaves the page ready where it stopped.
    if (was === 'goto') this.markReady();
  }

  // One animation frame of running: a cycle budget (full speed) or the cycles due at the
  // chosen slow-motion speed, then one redraw.
  frame(now) {
    if (!this.mode || !this.session) return;
    const speed = this.mode === 'goto' ? Infinity : SPEEDS[Number($('speed').value)];
    let n;
    if (speed === Infinity) {
      n = this.budget;
    } else {
      this.carry += (speed * (now - this.lastTime)) / 1000;
      n = Math.floor(this.carry);
      this.carry -= n;
    }
    this.lastTime = now;
    const t0 = performance.now();
    const stop = n > 0 ? this.advance(n) : 'budget';
    const dt = performance.now() - t0;
    if (speed === Infinity && n > 0) this.budget = nextBudget(this.budget, dt, this.drawMs);
    if (n > 0) {
      const d0 = performance.now();
      this.draw();
      this.drawMs = 0.8 * this.drawMs + 0.2 * (performance.now() - d0);
    }
    if (stop !== 'budget') {
      this.pause();
      if (stop === 'breakpoint') this.setStatus(this.breakText());
      this.markReady();
      return;
    }
    requestAnimationFrame((t) => this.frame(t));
  }

  // How long views animate a change between the drawn cycles: on steps and in slow motion (at
  // most 10 cycles/s) a push or pop moves visibly; faster, changes just appear.
  motionMs() {
    if (this.mode === null) return MOTION_MS;
    if (this.mode !== 'run') return 0;
    const speed = SPEEDS[Number($('speed').value)];
    return speed <= 10 ? Math.min(MOTION_MS, 700 / speed) : 0;
  }

  advance(n) {
    if (this.ab.active) return this.ab.advance(n, this.mode, this.gotoTarget);
    const code = this.mode === 'goto' ? this.session.runUntil(this.gotoTarget, n) : this.session.runFor(n);
    return this.tables.stop_reasons[code];
  }

  changeSpeed(delta) {
    const s = $('speed');
    s.value = Math.max(0, Math.min(SPEEDS.length - 1, Number(s.value) + delta));
    const v = SPEEDS[Number(s.value)];
    $('speed-label').textContent = v === Infinity ? 'max' : `${v}/s`;
  }

  setBreakpoints(lines) {
    if (this.session) this.session.setBreakpoints(Uint32Array.from(lines));
    this.ab.setBreakpoints(lines);
    document.body.dataset.breakpoints = lines.join(',');
  }

  // Breakpoints on CUDA lines (the CUDA pane's gutter): every instruction compiled from them.
  setSourceBreakpoints(lines) {
    if (this.session) this.session.setSourceBreakpoints(Uint32Array.from(lines));
    this.ab.setSourceBreakpoints(lines);
    document.body.dataset.sourceBreakpoints = lines.join(',');
  }

  toggleBreakpointHere() {
    const w = this.snap && this.snap.sm.warps[this.warp];
    if (!w || !w.line) return;
    const lines = new Set(this.editor.breakpoints());
    if (lines.has(w.line)) lines.delete(w.line); else lines.add(w.line);
    this.editor.setBreakpoints([...lines]);
  }

  // ----- selection and drawing ----------------------------------------------------------

  selectWarp(i) {
    if (!this.snap) return;
    const n = this.snap.sm.warps.length;
    this.warp = ((i % n) + n) % n;
    this.lane = -1;
    this.prev = null;
    this.draw(true);
  }

  // A click on a lane in a view (dom.js askWhyLane): the Why? panel explains that lane.
  askWhyLane(lane) {
    this.selectLane(lane);
    this.showView('why');
  }

  // The lane the Why? panel asks about (-1: the whole warp).
  selectLane(lane) {
    this.lane = Number.isInteger(lane) && lane >= 0 ? lane : -1;
    this.draw(true);
  }

  // Shows PTX line `line` in the editor (a Why? link's line).
  revealLine(line) {
    this.panes.reveal(line);
  }

  // Links an L1D set to the Memory view (the MRPB view's "set N" labels): the Memory view
  // outlines the set and says where it came from, and is brought on screen. The same label again
  // unlinks it; another label links its set instead. Like the warp, it survives stepping.
  linkSet(set, key, source) {
    if (!this.session) return;
    const same = this.linked && this.linked.set === set && this.linked.key === key;
    this.linked = same ? null : { set, key, source, cycle: this.session.cycle() };
    if (this.linked) this.showView('memory');
    this.draw(true);
  }

  // Runs this kernel under the in-order, split and elastic pipelines (Elastic Figs. 4-5) in three
  // extra Sessions, each with the session's launch, preset and overrides plus its pipeline's,
  // and records what their back ends did in each cycle from COMPARE_BEFORE cycles before the
  // current one to COMPARE_AFTER after it (as the snapshot says: writeback winners, the stall
  // that stopped issue, MEM0 replaying a conflict). The Sessions are freed at once.
  // Downloads the run so far (cycle 0 to now) as a Chrome/Perfetto trace the model builds
  // (Session.perfetto re-simulates from the first checkpoint; the session does not move).
  // Returns what was saved, for the note and the tests.
  exportPerfetto() {
    if (!this.session) return null;
    this.pause();
    const text = this.session.perfetto();
    const kernel = JSON.parse(this.session.listing()).kernel.replace(/[^A-Za-z0-9_.-]/g, '_');
    const name = `warpstep-${kernel}-cycle${this.session.cycle()}.json`;
    downloadJson(name, text);
    return { name, bytes: text.length };
  }

  // Downloads the counters over time (the model's samples) as CSV.
  exportCountersCsv() {
    if (!this.session) return null;
    const text = this.session.countersCsv();
    const name = `warpstep-counters-cycle${this.session.cycle()}.csv`;
    downloadBlob(name, new Blob([text], { type: 'text/csv' }));
    return { name, lines: text.trim().split('\n').length };
  }

  // Saves view `id` (its first canvas, as drawn) as a PNG.
  saveViewPng(el, id) {
    const canvas = el.querySelector('canvas');
    if (!canvas || !this.session) return;
    const name = `warpstep-${id}-cycle${this.session.cycle()}.png`;
    canvas.toBlob((blob) => { if (blob) downloadBlob(name, blob); }, 'image/png');
  }

  comparePipelines() {
    if (!this.session || !this.loaded) return;
    this.pause();
    const l = this.loaded;
    const now = this.session.cycle();
    const from = Math.max(0, now - COMPARE_BEFORE);
    const to = now + COMPARE_AFTER;
    const own = l.sets.filter((s) => !/^\s*elastic\.(baseline|enabled)\s*=/.test(s));
    const sm = this.sm;
    const rows = PIPELINES.map(({ mode, sets }) => {
      let s;
      try {
        s = new Session(l.ptx, l.launch, l.preset, [...own, ...sets]);
      } catch (err) {
        return { mode, sets, error: err.message, cycles: [] };
      }
      try {
        while (s.cycle() < from && !s.finished()) s.runUntil(from, 100_000);
        const cycles = [];
        while (s.cycle() < to && !s.finished()) {
          s.step(1);
          const b = JSON.parse(s.snapshot(sm)).sm.back_end;
          cycles.push({
            c: s.cycle(),
            wb: b.committed.map(([w, i]) => [w, i.op, i.pc, i.line]),
            stall: b.exe_stall,
            replay: b.mem0 && b.mem0.replaying_conflict ? [b.mem0.warp, b.mem0.instr.op] : null,
          });
        }
        return { mode, sets, from, cycles, end: s.finished() ? s.cycle() : null, status: s.status() };
      } finally {
        s.free();
      }
    });
    this.compare = { build: this.builds, from, to, rows, aligned: false };
    this.draw(true);
  }

  // Runs this kernel under the SIMT stack and under convergence barriers (book §3.1.1 vs
  // §3.1.2) in two extra Sessions, each with the session's launch, preset and overrides and its
  // own core.divergence, to the end or DIVERGENCE_CAP cycles, recording the selected warp's
  // issues (the model's issue trace: cycle, line, active mask), how the run ended and its
  // report (with the buffers the example watches). The Sessions are freed at once.
  compareDivergence() {
    if (!this.session || !this.loaded) return;
    this.pause();
    const l = this.loaded;
    const own = l.sets.filter((s) => !/^\s*core\.divergence\s*=/.test(s));
    const watch = l.watch || [];
    const sm = this.sm;
    const warp = this.warp;
    const rows = DIVERGENCE_MODES.map(({ mode, sets }) => {
      let s;
      try {
        s = new Session(l.ptx, l.launch, l.preset, [...own, ...sets]);
      } catch (err) {
        return { mode, sets, error: err.message, status: null, cycles: 0, issues: [], watched: [], report: null, warp, cap: DIVERGENCE_CAP };
      }
      try {
        s.setTracing(true);
        const issues = [];
        while (!s.finished() && s.cycle() < DIVERGENCE_CAP) {
          s.runUntil(Math.min(DIVERGENCE_CAP, s.cycle() + 2000), 2000);
          for (const e of JSON.parse(s.takeIssues())) if (e.sm === sm && e.warp === warp) issues.push({ cycle: e.cycle, line: e.line, mask: e.mask, lanes: e.lanes });
        }
        const report = JSON.parse(s.reportWithBuffers(Uint32Array.from(watch.map((w) => w.arg))));
        const watched = watch.map((w) => {
          const b = report.buffers && report.buffers[String(w.arg)];
          return { name: w.name, value: b ? b[w.index || 0] : null };
        });
        return { mode, sets, status: s.status(), cycles: s.cycle(), issues, watched, report, warp, cap: DIVERGENCE_CAP };
      } finally {
        s.free();
      }
    });
    this.divergence = { build: this.builds, sm, warp, warpSize: this.snap ? this.snap.warp_size : 32, rows };
    this.draw(true);
  }

  alignCompare(on) {
    if (!this.compare) return;
    this.compare.aligned = on;
    this.draw(true);
  }

  unlinkSet() {
    this.linked = null;
    this.draw(true);
  }

  // Brings a view on screen: the enlarged view becomes this one if another is enlarged, else the
  // view list scrolls to it.
  showView(id) {
    const v = this.views.find((x) => x.id === id);
    if (!v) return;
    if (this.focused && this.focused !== v.el) this.toggleFocus(v.el);
    else if (!this.focused) v.el.scrollIntoView({ block: 'nearest' });
    $('tooltip').hidden = true; // it described what was under the pointer before the move
  }

  selectSm(i) {
    if (!this.session) return;
    const n = this.session.numSms();
    this.sm = ((i % n) + n) % n;
    $('sm-select').value = this.sm;
    this.prev = null;
    this.draw(true);
  }

  // Redraws the panels whose inputs changed (all visible ones with `force`). The snapshot is
  // parsed once; the flat buffers (warp timeline, L1D lines) are read from wasm only when a
  // panel on screen asks for them.
  draw(force = false) {
    if (!this.session) return;
    const snap = JSON.parse(this.session.snapshot(this.sm));
    if (this.warp >= snap.sm.warps.length) this.warp = 0;
    // In the A/B mode the normal views are off screen: the two columns draw instead (without
    // the comparison strips, which belong to the normal views).
    if (this.ab.active) this.ab.draw(this.makeFrame(snap, { strips: false }), force);
    else {
      const frame = this.makeFrame(snap);
      for (const v of this.views) v.update(frame, force);
    }
    this.prev = snap;
    this.snap = snap;
    this.showState(snap);
    if (this.lessons) this.lessons.update(snap);
    this.present.update(snap);
    for (const h of this.hooks.drawn) h(snap);
  }

  // The frame the panels draw: `snap` and what goes with it, read from `session` (this one, or
  // the A/B mode's B with its own previous snapshot, configuration, SM and warp) on demand.
  makeFrame(snap, { session = this.session, prev = this.prev, config = this.config, build = this.builds, warp = this.warp, sm = this.sm, strips = true } = {}) {
    const s = session;
    let timeline = null;
    let lines = null;
    let history = null;
    return {
      snap,
      prev: prev && prev.cycle < snap.cycle ? prev : null,
      warp,
      lane: this.lane,
      // Why the selected warp (or lane) did what it did in the last cycle, from the model.
      why: () => {
        try {
          return JSON.parse(s.why(sm, warp, this.lane));
        } catch (err) {
          return { error: String(err.message || err) };
        }
      },
      linked: this.linked,
      compare: strips && this.compare && this.compare.build === this.builds ? this.compare : null,
      divergence: strips && this.divergence && this.divergence.build === this.builds ? this.divergence : null,
      sm,
      tables: this.tables,
      config,
      // IPC and L1 hit rate over time, sampled by the model every few cycles (read on demand:
      // only the stats view asks, and only when it redraws).
      get history() {
        history ||= historyPoints(s.rateHistory());
        return history;
      },
      running: this.mode !== null,
      motionMs: this.motionMs(),
      build,
      now: performance.now(),
      get timeline() {
        timeline ||= { bytes: s.timeline(sm), first: s.timelineFirst(sm), slots: s.warpSlots() };
        return timeline;
      },
      l1Lines: () => (lines ||= s.l1Lines(sm)),
      outputBuffers: () => JSON.parse(s.outputBuffers()),
      gpuStrip: () => JSON.parse(s.gpuStrip()),
      selectSm: (i) => this.selectSm(i),
      hash: () => this.hashFunction(),
    };
  }

  // The bank function the address-bit panel shows: the SPEC and bank count typed in the Setup
  // tab (live, before Apply), checked by the model; cached per input.
  hashFunction() {
    const { spec, banks } = this.setup.hashInput();
    const sh = this.config.shmem;
    const key = `${spec}|${banks}|${sh.size_bytes}|${sh.bank_width}`;
    if (this.hashCache && this.hashCache.key === key) return this.hashCache.value;
    let value;
    try {
      value = { ok: true, spec, fn: JSON.parse(bankFunction(spec, banks, sh.size_bytes, sh.bank_width)) };
    } catch (err) {
      value = { ok: false, spec, banks, error: err.message };
    }
    this.hashCache = { key, value };
    this.setup.showHashError(value.ok ? null : value.error);
    return value;
  }

  drawHashPanel() {
    const v = this.views.find((x) => x.id === 'hash');
    if (v && v.frame) v.update(v.frame);
  }

  // Sets `shmem.hash` in the Setup tab's overrides and rebuilds the simulation (the search
  // panel's "apply"). Returns whether the new configuration loaded.
  applyHash(spec) {
    this.setup.setOverride('shmem.hash', spec);
    this.apply();
    return this.loaded && this.config.shmem.hash === spec;
  }

  // Sets `unified.capacity_bytes` in the Setup tab's overrides and rebuilds the simulation (the
  // unified pool view's capacity select). Returns whether the new configuration loaded.
  setUnifiedCapacity(bytes) {
    this.setup.setOverride('unified.capacity_bytes', bytes);
    this.apply();
    return Boolean(this.loaded && this.config.unified.capacity_bytes === bytes);
  }

  // The selected warp's line to mark: the line of the instruction it issues next, or, when the
  // last run stopped at a breakpoint hit by this warp, the breakpoint's line (the instruction
  // that just issued there). 0: none.
  currentLine(snap) {
    const w = snap.sm.warps[this.warp];
    const b = !this.ab.active && this.session.breakLine();
    if (b && this.session.breakWarp() === this.warp && this.session.breakSm() === this.sm) return b;
    // A lesson step that stops at a breakpoint line marks it the same way.
    const l = this.lessons && !this.ab.active ? this.lessons.breakLineAt(snap.cycle, this.sm, this.warp) : 0;
    if (l) return l;
    return w && w.line ? w.line : 0;
  }

  showState(snap) {
    $('cycle').textContent = snap.cycle;
    document.body.dataset.cycle = snap.cycle;
    document.body.dataset.status = snap.status;
    const w = snap.sm.warps[this.warp];
    const errorLine = snap.status === 'failed' ? this.session.errorLine() : 0;
    // While running, the editor's current-line mark follows at most five times a second (each
    // CodeMirror update reads the DOM selection); stepping and pausing always update it.
    const now = performance.now();
    const line = this.currentLine(snap);
    if (this.mode !== 'run' || now - this.markedAt > MARK_MS) {
      this.panes.mark(line, errorLine);
      this.markedAt = now;
    }
    if (line && this.mode !== 'run') this.panes.reveal(line);
    if (snap.status === 'failed') {
      this.setStatus('failed', 'failed');
      this.showBanner(`The kernel stopped at cycle ${snap.cycle}:\n${snap.error}`);
    } else if (snap.status === 'completed') {
      this.setStatus(`completed in ${snap.cycle} cycles`, 'completed');
      this.hideBanner();
    } else {
      // Honest: "running" only while it runs; the IPC counts thread instructions.
      const b = this.breakText();
      const ipc = `IPC ${snap.stats.ipc.toFixed(2)} thread instr/cycle`;
      const ipcTitle = `IPC: thread instructions per cycle, all SMs together (a warp instruction with 32 active lanes counts 32), since cycle 0: ${snap.stats.ipc.toFixed(3)}`;
      if (this.mode === 'goto') {
        const at = this.ab.active ? Math.min(this.session.cycle(), this.ab.b.cycle()) : snap.cycle;
        const pct = this.gotoTarget > 0 ? Math.floor((100 * at) / this.gotoTarget) : 100;
        this.setStatus(`going to cycle ${this.gotoTarget}\n${pct}% · Space stops`, 'busy', `Replaying to cycle ${this.gotoTarget}; Space or Pause stops where it is`);
      } else if (b && this.mode === null) {
        this.setStatus(b);
      } else {
        const state = this.mode === 'run' ? 'running' : snap.cycle === 0 ? 'ready' : 'paused';
        this.setStatus(`${state}\n${ipc}`, state === 'running' ? 'busy' : '', `${state === 'ready' ? 'Ready at cycle 0' : state === 'running' ? 'Running' : `Paused at cycle ${snap.cycle}`}. ${ipcTitle}`);
      }
      this.hideBanner();
    }
    document.body.dataset.runState = this.mode === 'goto' ? 'going' : this.mode === 'run' ? 'running' : 'paused';
    if (this.ab.active) this.ab.showState();
  }

  setStatus(text, cls = '', title = text) {
    const el = $('run-status');
    el.textContent = text;
    el.title = title;
    el.className = `run-status ${cls}`;
  }

  // The notice under the top bar: what is wrong with a link, or the first step a kernel of your
  // own needs. Unlike the banner (the run's failure, redrawn each cycle) it stays until
  // dismissed (x) or until something else loads. Text only (textContent).
  makeNotice() {
    const n = element('div', 'notice');
    n.id = 'notice';
    n.setAttribute('role', 'alert');
    n.hidden = true;
    const text = element('span', 'notice-text');
    n.append(text, button('notice-close', '×', 'Dismiss', () => this.hideNotice()));
    $('banner').after(n);
    this.notice = { el: n, text };
  }

  showNotice(message) {
    const t = message.length > NOTICE_CHARS ? `${message.slice(0, NOTICE_CHARS)}…` : message;
    this.notice.text.textContent = t;
    this.notice.el.hidden = false;
    document.body.dataset.notice = t;
  }

  hideNotice() {
    this.notice.el.hidden = true;
    delete document.body.dataset.notice;
  }

  // The run's failure over the views; presenting, one line (its tooltip and a click show all).
  showBanner(text) {
    const b = $('banner');
    if (b.textContent !== text) {
      b.textContent = text;
      b.title = text;
      b.classList.remove('open');
    }
    b.onclick = () => b.classList.toggle('open');
    b.hidden = false;
  }

  hideBanner() {
    $('banner').hidden = true;
  }

  markReady() {
    document.body.dataset.ready = 'true';
  }

  // ----- sharing, tabs, help ------------------------------------------------------------

  shareState() {
    const l = this.loaded;
    // The enlarged panel and the Why? panel's lane go with it when there are.
    const focused = this.focused ? this.views.find((v) => v.el === this.focused) : null;
    const extra = { ...(focused ? { view: focused.id } : {}), ...(this.lane >= 0 ? { lane: this.lane } : {}) };
    // A CUDA kernel goes as its source (`cuda`, compiled again on opening); a PTX kernel as its
    // PTX, with the CUDA shown beside it when there is.
    const kernel = this.listing.generated ? { cuda: l.ptx } : { ptx: l.ptx, ...(l.cuda ? { cuda: l.cuda } : {}) };
    return { ...kernel, launch: l.launch, preset: l.preset, sets: l.sets, cycle: this.clock(), sm: this.sm, warp: this.warp, example: l.example, ...extra, ...this.ab.shareState() };
  }

  share() {
    if (!this.session) return;
    const url = shareUrl(this.shareState()) + this.present.urlField();
    history.replaceState(null, '', url);
    document.body.dataset.shareUrl = url;
    const done = () => this.setStatus('link copied');
    if (navigator.clipboard && window.isSecureContext) navigator.clipboard.writeText(url).then(done, () => this.setStatus('link in the address bar'));
    else this.setStatus('link in the address bar');
  }

  bindTabs() {
    for (const t of document.querySelectorAll('.tab[data-tab]')) t.addEventListener('click', () => this.showTab(t.dataset.tab));
  }

  showTab(name) {
    for (const t of document.querySelectorAll('.tab[data-tab]')) t.classList.toggle('active', t.dataset.tab === name);
    $('tab-code').hidden = name !== 'code';
    $('tab-setup').hidden = name !== 'setup';
  }

  focusEditor() {
    this.showTab('code');
    this.panes.input().view.focus();
  }

  focusGoto() {
    $('goto-cycle').focus();
    $('goto-cycle').select();
  }

  toggleFocus(el) {
    const target = el || document.querySelector('.view:hover') || this.focused;
    if (this.focused && this.focused !== target) this.focused.classList.remove('focused');
    if (!target) return;
    this.focused = target.classList.toggle('focused') ? target : null;
    for (const h of this.hooks.focus) h(target, this.focused === target);
    this.draw(true);
  }

  toggleHelp(show) {
    const h = $('help');
    h.hidden = show === undefined ? !h.hidden : !show;
    // In presentation mode, the keys it adds are what the presenter looks for.
    const keys = h.querySelector('.help-section');
    if (!h.hidden && this.present && this.present.on && keys) keys.scrollIntoView({ block: 'start' });
  }

  escape() {
    this.toggleHelp(false);
    // While presenting, the enlarged view stays enlarged for when presentation mode ends.
    if (this.focused && !this.present.on) this.toggleFocus(this.focused);
    if (document.activeElement) document.activeElement.blur();
  }
}
