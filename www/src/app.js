// The app: owns the wasm Session, the selection (SM, warp), the run loop and the redraw. It never
// computes hardware behaviour: it asks the Session to step and draws the snapshots it returns.
// Bad input (PTX, launch or configuration errors) leaves the last good simulation on screen.
import { bankFunction } from '../../pkg/warpstep.js';
import { createViews } from './views.js';
import { readSnapshot, allParts, panelParts } from './snapshot.js';
import { historyPoints } from './views/stats.js';
import { onCanvasResize } from './canvas.js';
import { nextBudget, SPEEDS } from './pacing.js';
import { CodePanes } from './code_panes.js';
import { createSetupPanel } from './setup_panel.js';
import { createOccupancyCalculator } from './occupancy.js';
import { shareUrl } from './share.js';
import { LessonPlayer } from './lessons.js';
import { Presenter } from './present.js';
import { AbMode } from './ab.js';
import { setRunButton } from './run_button.js';
import { kernelLoading } from './kernel_loading.js';
import { sideRuns } from './side_runs.js';
import { viewDownloads } from './view_downloads.js';
import { messages } from './messages.js';

// Speeds of the slider: simulated cycles per second (Infinity: full speed, a cycle budget per
// animation frame; pacing.js sizes it).
const MOTION_MS = 350;
const MARK_MS = 200;

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

  // The snapshot parts this redraw needs (snapshot.js): those of the panels on screen (in the
  // A/B mode, its columns'), or every part while a lesson is open (its text may cite any).
  wantedParts() {
    if (this.lessons && this.lessons.lesson) return allParts(this.tables);
    const panels = this.ab.active ? this.ab.drawnPanels() : this.views;
    return panelParts(panels.filter((v) => v.visible && !v.el.hidden));
  }

  // Redraws the panels whose inputs changed (all visible ones with `force`). The snapshot is
  // read once, with the parts of the panels on screen; the flat buffers (warp slots, warp
  // timeline, L1D lines) are read from wasm only when a panel on screen asks for them.
  draw(force = false) {
    if (!this.session) return;
    if (this.warp >= this.session.warpSlots()) this.warp = 0;
    const snap = readSnapshot(this.session, this.tables, this.sm, this.warp, this.wantedParts());
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
    const frame = {
      snap,
      // This frame with the parts in `bits` added (for a panel that was not on screen when it
      // was read), read from the session now; null if the session is gone.
      complete: (bits) => {
        try {
          const full = readSnapshot(s, this.tables, sm, warp, snap.asked | bits);
          return this.makeFrame(full, { session, prev, config, build, warp, sm, strips });
        } catch {
          return null;
        }
      },
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
    return frame;
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

// The App's methods kept in their own modules: loading a kernel (kernel_loading.js), the runs
// beside this one that the pipeline and SIMT views compare (side_runs.js), the files a view
// saves (view_downloads.js), and the notice and the banner over the views (messages.js).
Object.assign(App.prototype, kernelLoading, sideRuns, viewDownloads, messages);
