// Loading a kernel, as methods of the App (app.js mixes them in): the examples list, the start
// (a shared link, a lesson link or the default example), an example, the editor's text, and
// building the Session from it; a bad input leaves the last good simulation on screen with its
// error marked where it comes from.
import { Session } from '../../pkg/warpstep.js';
import { sameEntries } from './code_panes.js';
import { EXAMPLES, DEFAULT_EXAMPLE, exampleById, exampleInput } from './examples.js';
import { decodeState, stateInUrl, presentInUrl, lessonLinkInUrl } from './share.js';
import { lessonInUrl } from './lessons.js';

// The Setup tab's explanation for a kernel of your own, and the first step it needs.
const USER_ABOUT = 'Your own kernel, on a clean default machine (it may be PTX, or CUDA C that warpstep compiles to PTX): the preset its // warpstep: --config line names (else fermi) and no overrides. It needs a launch: the grid, the block and one --arg per kernel parameter, in the Launch field below (or on // warpstep: lines at the top of the PTX or CUDA). Then Apply.';
const LAUNCH_HELP = 'Your kernel needs a launch. In the Setup tab, under Launch, give the grid, the block and one --arg per kernel parameter, e.g. --grid 1 --block 32 --arg f32[32]=iota --arg f32[32]=0 --arg 32 (or put them on // warpstep: lines at the top of the PTX or CUDA), then Apply.';

const $ = (id) => document.getElementById(id);

export const kernelLoading = {
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
  },

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
  },

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
  },

  loadExample(id) {
    const e = exampleById(id);
    if (!e) return false;
    return this.load(exampleInput(e), id);
  },

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
  },

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
  },

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
  },

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
  },

  hideInputError() {
    $('input-error').hidden = true;
    delete document.body.dataset.inputError;
    delete document.body.dataset.errorLine;
    delete document.body.dataset.errorKind;
    delete document.body.dataset.errorColumn;
  },

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
  },
};
