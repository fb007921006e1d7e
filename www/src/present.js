// Presentation mode (issue 17): for projecting the simulator in a lecture hall at 1280x720. The
// editor, the Setup tab and the top bar's controls go; only the chosen panels stay: one large
// (its canvases magnified through canvas.js's data-canvas-zoom, sized to fill the screen with
// canvas text of at least 20 px) and the others as miniatures in a narrow column beside it. In a lesson the panels
// are the step's view (large) and its `panels`, and the step's text and question stand in a
// caption bar at the bottom in large type; outside a lesson the instructor picks panels (the
// Panels list, or the number keys). A laser pointer (a red dot on an overlay that never takes
// the pointer's events) follows the mouse; the lesson step's highlighted element pulses as a
// spotlight (CSS). Entering and leaving only changes classes, attributes and where the panels
// sit: the session, the cycle, the selection and the open lesson never change, and leaving puts
// every panel back in its place and the view list's scroll where it was. Opened by the top
// bar's Present button, Shift+P, or a link's `present` field (share.js checks it).
// All text goes in with textContent.
import { element } from './dom.js';
import { parsePresent } from './share.js';
import { stepPanels } from './lessons.js';
import { presentCaption } from './present_caption.js';

// The panels shown outside a lesson when nothing else was picked (the first one large).
const DEFAULT_PANELS = ['pipeline', 'simt', 'timeline'];
// The large panel's magnification: as large as fits the height above the caption, at most
// MAX_ZOOM, and no narrower a layout than MIN_LAYOUT_W CSS pixels before magnifying (the width a
// page at 150% zoom leaves the views; below it the views shorten more of their labels). At
// 1280x720 that is 1.45 or more (the 14 px canvas font at 20 px or more). The views lay
// themselves out for that room when they are the large panel (data-present=main: fewer rows,
// smaller gaps, the part the lessons talk about first), so that every lesson step's view stands
// whole; one the instructor picks that is still too tall stays at MIN_ZOOM = 1.45 and scrolls:
// readable from the back of the room first, whole on screen second. + and - scale it by USER_STEP.
const MIN_ZOOM = 1.45;
const MAX_ZOOM = 2.4;
const MIN_LAYOUT_W = 600;
// In the A/B mode the large panel is two columns (A's and B's) side by side: each may lay out
// narrower before magnifying, so that at 1280x720 the pair is magnified as one panel is.
const AB_LAYOUT_W = 420;
// The other chosen panels are drawn as they would lay out SIDE_LAYOUT_W pixels wide, shrunk to
// the column (a faithful miniature rather than a squeezed layout).
const SIDE_LAYOUT_W = 760;
const USER_STEP = 1.15;
const USER_MIN = 0.6;
const USER_MAX = 1.8;
// Passes of fitting the large panel to the screen after a change (a zoom changes its height),
// and the CSS pixels kept free under it (the stage's padding and the panel's border).
// Every fit starts from START_ZOOM (a step shows at the same magnification however it was
// reached: opened by its link or by N from another step), and the large panel never reaches
// under the caption: a view taller than the room at MIN_ZOOM keeps its top part on screen and
// scrolls inside its own box (issue 30).
const FIT_PASSES = 6;
const FIT_MARGIN = 26;
const START_ZOOM = MIN_ZOOM;

// The keys presentation mode adds (and the help overlay lists): `match` says whether a keydown
// is this key; `run` does it. Keys not here (→, Space, N, P, W, ?, …) work as always.
export const PRESENT_KEYS = [
  { keys: ['Esc'], what: 'Leave presentation mode (as Shift+P)', match: (e) => e.key === 'Escape', run: (p) => p.leave() },
  { keys: ['V'], what: 'Next chosen panel large', match: (e) => e.key === 'v', run: (p) => p.cycleMain(1) },
  { keys: ['Shift', 'V'], what: 'Previous chosen panel large', match: (e) => e.key === 'V', run: (p) => p.cycleMain(-1) },
  { keys: ['1', '…', '0'], what: 'Show / hide panel 1 … 10 of the Panels list', match: (e) => /^[0-9]$/.test(e.key), run: (p, e) => p.toggleNth(e.key === '0' ? 9 : Number(e.key) - 1) },
  { keys: ['+'], what: 'Larger', match: (e) => e.key === '+' || e.key === '=', run: (p) => p.scale(USER_STEP) },
  { keys: ['-'], what: 'Smaller', match: (e) => e.key === '-' || e.key === '_', run: (p) => p.scale(1 / USER_STEP) },
  { keys: ['L'], what: 'Laser pointer on / off', match: (e) => e.key === 'l' || e.key === 'L', run: (p) => p.setLaser(!p.laser) },
  { keys: ['F'], what: 'Make the panel under the pointer large', match: (e) => e.key === 'f', run: (p) => p.mainUnderPointer() },
  // The editor and the cycle field are hidden: their keys do nothing here.
  { keys: [], match: (e) => e.key === 'e' || e.key === 'g', run: () => {} },
];

const $ = (id) => document.getElementById(id);
const clamp = (x, lo, hi) => Math.max(lo, Math.min(hi, x));

export class Presenter {
  constructor(app) {
    this.app = app;
    this.on = false;
    this.ids = app.views.map((v) => v.id);
    this.pick = null; // the instructor's panels (outside a lesson), the large one first
    this.chosen = []; // the panels shown now
    this.main = null; // the large one
    this.zoom = MIN_ZOOM;
    this.user = 1;
    this.laser = true;
    this.pointer = null;
    this.saved = null;
    this.fitting = 0;
    this.tooTall = Infinity; // the smallest zoom found too tall in this fit
    this.pair = null; // in the A/B mode: the A and B panels shown large ({ id, a, b }, ab.js)
    this.laying = false;
    this.viewsEl = $('views');
    this.side = element('div', 'present-side');
    this.makeCaption();
    this.makeLaser();
    app.lessons.onChange(() => { if (this.on) this.follow(); });
    window.addEventListener('resize', () => {
      if (!this.on) return;
      if (this.sizeSide()) this.app.draw(true);
      this.scheduleFit();
    });
    for (const v of app.views) {
      v.el.querySelector('header h2').addEventListener('click', () => {
        if (this.on && this.chosen.includes(v.id)) this.setMain(v.id);
      });
    }
  }

  // ----- entering and leaving -----------------------------------------------------------

  toggle() {
    if (this.on) this.leave();
    else this.enter();
  }

  enter() {
    if (this.on) return;
    this.saved = { scroll: this.viewsEl.scrollTop };
    this.on = true;
    document.body.classList.add('presenting');
    document.body.dataset.present = 'on';
    this.app.toggleHelp(false);
    $('tooltip').hidden = true;
    if (!this.pick) this.pick = this.defaultPick();
    this.caption.el.hidden = false;
    this.setLaser(this.laser);
    this.follow();
  }

  // Back to the layout from before: every panel in its place and order, no zoom, the view
  // list scrolled where it was. The simulation is not touched.
  leave() {
    if (!this.on) return;
    this.on = false;
    document.body.classList.remove('presenting', 'laser-on');
    delete document.body.dataset.present;
    delete document.body.dataset.presentPanels;
    delete document.body.dataset.presentMain;
    for (const v of this.app.views) {
      delete v.el.dataset.present;
      delete v.el.dataset.canvasZoom;
      v.el.style.maxHeight = '';
      v.el.style.removeProperty('--present-head-h');
      v.el.classList.remove('present-scroll');
      this.viewsEl.append(v.el);
    }
    this.side.remove();
    this.leavePair();
    this.viewsEl.classList.remove('present-two', 'present-code');
    this.caption.el.hidden = true;
    this.caption.picker.hidden = true;
    this.laserEl.hidden = true;
    this.app.draw(true);
    this.viewsEl.scrollTop = this.saved ? this.saved.scroll : 0;
    this.syncUrl();
  }

  // The panels to show when entering outside a lesson: the enlarged view, if one is, else the
  // default set.
  defaultPick() {
    const f = this.app.focused;
    const v = f && this.app.views.find((x) => x.el === f);
    return v ? [v.id] : DEFAULT_PANELS.filter((id) => this.ids.includes(id));
  }

  // A link's present field `raw` (share.js's presentInUrl, read before the link opened; null if
  // none), checked by share.js: enters with its panels; a bad value leaves the layout as it is
  // and says why. With `leaveIfAbsent` (a link typed while presenting) a link without the field
  // leaves presentation mode. Returns whether the field was good or absent.
  fromUrl(raw, { leaveIfAbsent = false } = {}) {
    if (raw === null) {
      if (leaveIfAbsent) this.leave();
      return true;
    }
    let parsed;
    try {
      parsed = parsePresent(raw, this.ids);
    } catch (err) {
      this.app.showNotice(`This link cannot open in presentation mode: ${err.message}. The normal layout stays.`);
      document.body.dataset.presentError = err.message;
      this.syncUrl();
      return false;
    }
    delete document.body.dataset.presentError;
    if (parsed.panels.length) this.pick = parsed.panels;
    if (this.on) this.follow();
    else this.enter();
    return true;
  }

  // The URL's present field follows the mode: `1` in a lesson (the steps pick the panels), the
  // instructor's panels outside one; none when not presenting.
  syncUrl() {
    const hash = window.location.hash;
    const base = hash.replace(/(?:^#|&)present=[^&]*/, '');
    const value = this.urlValue();
    let next = base;
    if (value) next = base && base !== '#' ? `${base}&present=${value}` : `#present=${value}`;
    if (next === '#') next = '';
    if (next !== hash) history.replaceState(null, '', `${window.location.pathname}${window.location.search}${next}`);
  }

  // The field to add to a shared link made while presenting ('' otherwise).
  urlField() {
    return this.on ? `&present=${this.urlValue()}` : '';
  }

  urlValue() {
    if (!this.on) return null;
    return this.app.lessons.current() ? '1' : this.pick.join(',');
  }

  // ----- which panels ---------------------------------------------------------------------

  // The panels of the lesson's step (its view large), or the instructor's; then the layout,
  // the caption and the URL follow.
  follow() {
    const cur = this.app.lessons.current();
    const ids = cur ? stepPanels(cur.step) : this.pick;
    this.chosen = ids.filter((id) => this.ids.includes(id));
    this.main = this.chosen[0] || null;
    this.layout();
  }

  layout() {
    if (!this.on) return;
    this.zoom = START_ZOOM;
    const views = this.app.views;
    const side = [];
    for (const v of views) {
      const role = v.id === this.main ? 'main' : this.chosen.includes(v.id) ? 'side' : null;
      if (role) v.el.dataset.present = role;
      else delete v.el.dataset.present;
      if (role !== 'main') {
        v.el.style.maxHeight = '';
        v.el.classList.remove('present-scroll');
      }
      if (role === 'main') v.el.dataset.canvasZoom = String(this.zoom);
      else delete v.el.dataset.canvasZoom;
      if (role === 'side') side.push(v);
      else if (v.el.parentElement !== this.viewsEl) this.viewsEl.append(v.el);
    }
    // The side column in the chosen order, its panels as miniatures.
    for (const id of this.chosen) {
      const v = side.find((x) => x.id === id);
      if (v) this.side.append(v.el);
    }
    if (side.length) this.viewsEl.append(this.side);
    else this.side.remove();
    this.viewsEl.classList.toggle('present-two', side.length > 0);
    // The code beside the large panel gets a wider column (its lines are text, not a drawing).
    this.viewsEl.classList.toggle('present-code', side.some((v) => v.id === 'code'));
    this.sizeSide();
    document.body.dataset.presentPanels = this.chosen.join(',');
    document.body.dataset.presentMain = this.main || '';
    this.pair = this.layoutPair();
    // The large panel is on screen from now: it draws at once, before its visibility observer
    // says so, or the fit would measure the canvas it had while hidden.
    for (const p of this.pair ? [this.pair.a, this.pair.b] : [this.viewOf(this.main)]) if (p) p.visible = true;
    this.refreshCaption();
    this.syncUrl();
    this.app.draw(true);
    this.viewsEl.scrollTop = 0;
    this.scheduleFit();
  }

  // ----- the A/B mode -----------------------------------------------------------------------

  // In the A/B mode (ab.js) the normal views are hidden: the large panel is the chosen panel's
  // pair, A's column beside B's under the two column heads, both magnified (the other chosen
  // panels stay reachable through the chips and V). Returns the pair, or null outside A/B.
  layoutPair() {
    const ab = this.app.ab;
    document.body.classList.toggle('present-ab', ab.active);
    if (!ab.active) return null;
    this.laying = true;
    const pair = ab.presentPair(this.main);
    this.laying = false;
    for (const c of ab.cells) {
      for (const p of [c.a, c.b]) this.markPairPanel(p.el, c === pair);
    }
    const cols = ab.cols;
    if (cols) cols.scrollTop = 0;
    return pair;
  }

  markPairPanel(el, large) {
    el.style.maxHeight = '';
    el.classList.remove('present-scroll');
    if (large) {
      el.dataset.present = 'main';
      el.dataset.canvasZoom = String(this.zoom);
    } else {
      delete el.dataset.present;
      delete el.dataset.canvasZoom;
    }
  }

  // Leaving presentation mode: the A/B columns as they were (no row made for it).
  leavePair() {
    document.body.classList.remove('present-ab');
    this.pair = null;
    const ab = this.app.ab;
    this.laying = true;
    ab.presentPair(null);
    this.laying = false;
    for (const c of ab.cells) for (const p of [c.a, c.b]) this.markPairPanel(p.el, false);
  }

  // A/B's B came or went or its rows changed: lay out again (not while laying out).
  abChanged() {
    if (this.on && !this.laying) this.layout();
  }

  // The elements shown large: the main panel, or A's and B's in the A/B mode.
  largeEls() {
    if (this.pair) return [this.pair.a.el, this.pair.b.el].filter((el) => !el.hidden);
    const v = this.viewOf(this.main);
    return v && !v.el.hidden ? [v.el] : [];
  }

  // The miniatures' zoom from the side column's width; returns whether it changed.
  sizeSide() {
    const side = this.app.views.filter((v) => v.el.dataset.present === 'side');
    if (!side.length) return false;
    const k = clamp((this.side.clientWidth - 12) / SIDE_LAYOUT_W, 0.2, 1).toFixed(3);
    let changed = false;
    for (const v of side) {
      if (v.el.dataset.canvasZoom !== k) changed = true;
      v.el.dataset.canvasZoom = k;
    }
    return changed;
  }

  setMain(id) {
    if (!this.chosen.includes(id) || id === this.main) return;
    this.main = id;
    this.chosen = [id, ...this.chosen.filter((x) => x !== id)];
    if (!this.app.lessons.current()) this.pick = [...this.chosen];
    this.layout();
  }

  // Makes the next (or previous) chosen panel large, in the order they were chosen.
  cycleMain(delta) {
    const order = this.ids.filter((id) => this.chosen.includes(id) && !this.viewOf(id).el.hidden);
    if (order.length < 2) return;
    const i = order.indexOf(this.main);
    this.setMain(order[(i + delta + order.length) % order.length]);
  }

  // Shows or hides panel `id` (the last one stays).
  flip(id) {
    if (this.chosen.includes(id)) {
      if (this.chosen.length === 1) return;
      this.chosen = this.chosen.filter((x) => x !== id);
      if (this.main === id) this.main = this.chosen[0];
      this.chosen = [this.main, ...this.chosen.filter((x) => x !== this.main)];
    } else {
      this.chosen = [...this.chosen, id];
    }
    if (!this.app.lessons.current()) this.pick = [...this.chosen];
    this.layout();
  }

  togglePanel(id) {
    if (this.ids.includes(id)) this.flip(id);
  }

  toggleNth(i) {
    if (i < this.ids.length) this.flip(this.ids[i]);
  }

  mainUnderPointer() {
    const el = document.querySelector('.view:hover');
    const v = el && this.app.views.find((x) => x.el === el);
    if (v) this.setMain(v.id);
  }

  viewOf(id) {
    return this.app.views.find((v) => v.id === id);
  }

  // ----- size -------------------------------------------------------------------------------

  scale(k) {
    this.user = clamp(this.user * k, USER_MIN, USER_MAX);
    this.scheduleFit();
  }

  // `restart`: from START_ZOOM (the panel's content changed), not from the zoom it has.
  scheduleFit(restart = false) {
    if (!this.on) return;
    if (restart && this.zoom !== START_ZOOM) {
      this.zoom = START_ZOOM;
      for (const el of this.largeEls()) el.dataset.canvasZoom = String(START_ZOOM);
      this.app.draw(true);
    }
    this.fitting = FIT_PASSES;
    this.tooTall = Infinity;
    document.body.dataset.presentFitting = 'yes';
    requestAnimationFrame(() => this.fitPass());
  }

  fitPass() {
    if (!this.on || this.fitting <= 0) return;
    this.fitting -= 1;
    if (this.fit() && this.fitting > 0) requestAnimationFrame(() => this.fitPass());
    else this.fitDone();
  }

  // The zoom is settled: the panel's box is held to the room above the caption (a taller view
  // scrolls inside it) and the step's highlighted element is brought into that box.
  fitDone() {
    this.fitting = 0;
    for (const el of this.largeEls()) {
      el.style.maxHeight = `${Math.max(120, this.roomFor(el))}px`;
      this.markScroll(el);
      // Again once the layout has settled (a box held to the room can end a pixel shorter).
      requestAnimationFrame(() => { if (this.on) this.markScroll(el); });
      const target = el.querySelector('.lesson-target');
      if (target) {
        const t = target.getBoundingClientRect();
        const b = el.getBoundingClientRect();
        if (t.bottom > b.bottom || t.top < b.top) el.scrollTop += t.top - b.top - (b.height - t.height) / 2;
      }
      this.viewsEl.scrollTop = 0;
    }
    document.body.dataset.presentZoom = String(this.zoom);
    delete document.body.dataset.presentFitting;
  }

  // Whether a large panel's box scrolls (a view taller than the room: style.css keeps its header,
  // and what it puts first, at the top) and where such a part sits: under the header.
  markScroll(el) {
    const scrolls = el.scrollHeight > el.clientHeight + 1;
    if (el.classList.contains('present-scroll') !== scrolls) el.classList.toggle('present-scroll', scrolls);
    const head = el.querySelector(':scope > header');
    el.style.setProperty('--present-head-h', `${head ? head.getBoundingClientRect().height : 0}px`);
  }

  // Sizes the large panel's zoom so that it fills the height left above the caption (the canvas
  // part scales with the zoom, the rest does not), within MIN_ZOOM..MAX_ZOOM and the width's
  // limit, times the instructor's + / -. Returns whether the zoom changed (and it redrew).
  fit() {
    const els = this.largeEls();
    if (!els.length) return false;
    this.fitKey = this.heightsKey();
    const z = this.zoom;
    let byHeight = Infinity;
    let byWidth = Infinity;
    for (const el of els) {
      const canvases = [...el.querySelectorAll('canvas')].filter((c) => c.drawn && c.offsetParent !== null);
      const tall = canvases.reduce((s, c) => s + c.getBoundingClientRect().height, 0);
      if (!tall) continue;
      // The panel's whole height (its box may be held to the room and scroll).
      el.style.maxHeight = '';
      const fixed = el.scrollHeight - tall;
      byHeight = Math.min(byHeight, (this.roomFor(el) - fixed) / (tall / z));
      byWidth = Math.min(byWidth, (el.clientWidth - 12) / (this.pair ? AB_LAYOUT_W : MIN_LAYOUT_W));
    }
    if (byHeight === Infinity) return false;
    // A zoom found too tall is never tried again: a view whose layout changes with its width
    // (a legend that wraps) does not grow in proportion, and the passes could swing back to it.
    if (byHeight < z - 0.001) this.tooTall = Math.min(this.tooTall, z);
    // Rounded down to a step of 0.05: rounding up could make the panel a few pixels too tall.
    let next = Math.floor(clamp(clamp(Math.min(byHeight, byWidth), MIN_ZOOM, MAX_ZOOM) * this.user, 0.8, 3) * 20 + 1e-6) / 20;
    if (next >= this.tooTall) next = Math.max(Math.min(MIN_ZOOM * this.user, next), Math.round((this.tooTall - 0.05) * 20) / 20);
    if (Math.abs(next - z) < 0.04) return false;
    this.zoom = next;
    for (const el of els) el.dataset.canvasZoom = String(next);
    this.app.draw(true);
    this.fitKey = this.heightsKey();
    return true;
  }

  // The height a large panel may take: its list's height less FIT_MARGIN, and in the A/B mode
  // less what stands above the pair (the column heads).
  roomFor(el) {
    const stage = el.closest('.views') || this.viewsEl;
    const above = this.pair ? Math.max(0, el.getBoundingClientRect().top - stage.getBoundingClientRect().top - 8) : 0;
    return stage.clientHeight - FIT_MARGIN - above;
  }

  // What the large panel's fit depends on that a redraw may change: its canvases' heights (a
  // bank grid grows with the passes of the access it shows, a comparison adds a strip).
  heightsKey() {
    return this.largeEls().flatMap((el) => [...el.querySelectorAll('canvas')].map((c) => c.style.height)).join(',');
  }

  // After every redraw: the caption's cycle; when paused, the large panel is fitted again if
  // its height changed (not while running: the size would jump). Nothing when not presenting.
  update(snap) {
    if (!this.on) return;
    // Another kernel was loaded while presenting: the caption names it.
    if (this.captionFor !== this.app.loaded) this.refreshCaption();
    const n = String(snap.cycle);
    if (this.caption.cycle.textContent !== n) this.caption.cycle.textContent = n;
    if (this.app.mode === null && this.fitting <= 0 && this.largeEls().length && this.heightsKey() !== this.fitKey) this.scheduleFit(true);
    else if (this.fitting <= 0) for (const el of this.largeEls()) this.markScroll(el);
  }

  // ----- laser pointer ------------------------------------------------------------------------

  makeLaser() {
    const el = element('div', 'laser');
    el.id = 'laser';
    el.hidden = true;
    el.setAttribute('aria-hidden', 'true');
    document.body.append(el);
    this.laserEl = el;
    document.addEventListener('pointermove', (e) => {
      this.pointer = { x: e.clientX, y: e.clientY };
      if (this.on && this.laser) this.placeLaser();
    });
    document.documentElement.addEventListener('pointerleave', () => { el.hidden = true; });
  }

  placeLaser() {
    const el = this.laserEl;
    el.style.transform = `translate(${this.pointer.x}px, ${this.pointer.y}px)`;
    el.hidden = false;
  }

  setLaser(on) {
    this.laser = on;
    document.body.dataset.laser = on ? 'on' : 'off';
    document.body.classList.toggle('laser-on', this.on && on);
    this.caption.laser.classList.toggle('active', on);
    if (this.on && on && this.pointer) this.placeLaser();
    else this.laserEl.hidden = true;
  }

  // A key while presenting: true if it was presentation mode's (the caller then stops it).
  key(e) {
    if (!this.on) return false;
    if (e.key === 'Escape' && !$('help').hidden) return false; // Esc closes the help first
    const k = PRESENT_KEYS.find((x) => x.match(e));
    if (!k) return false;
    k.run(this, e);
    return true;
  }
}

// The caption bar (present_caption.js).
Object.assign(Presenter.prototype, presentCaption);
