// In front of a class (issue 30): what the first minute needs and small repairs, kept apart from
// app.js. It hooks into the app (app.hooks: after each build, each redraw, each enlarge):
// - the Run speed a short kernel starts with, from a probe Session of the same kernel run by the
//   model to its end (at most PROBE_CYCLES): slow enough that the run lasts about RUN_SECONDS;
// - the simulation's speed (cycles/s) and the redraw rate (fps) in the top bar while running;
// - the start of a kernel explained while nothing (or only its parameter loads) has issued:
//   the model's own Why? chain for the selected warp and its instruction and constant cache
//   counters (nothing recomputed here);
// - the enlarged view (⤢) magnified as presentation mode magnifies (data-canvas-zoom);
// - the hover tooltip hidden when the page scrolls (it stayed over the bank grid).
import { Session } from '../../pkg/warpstep.js';
import { setRunButton } from './run_button.js';
import { SPEEDS } from './pacing.js';

const PROBE_CYCLES = 5000;
const RUN_SECONDS = 4;
// The enlarged view's magnification: at least presentation mode's at 1280x720 (present.js
// MIN_ZOOM), no narrower a layout than MIN_LAYOUT_W beyond that (the views shorten labels below
// it), at most ZOOM_MAX.
const MIN_LAYOUT_W = 700;
const ZOOM_MIN = 1.4;
const ZOOM_MAX = 2;
// The speed meter's window.
const METER_MS = 500;
// The Why? links the start-up strip quotes.
const SAYS_WHY = ['fetch', 'register', 'instruction'];

const $ = (id) => document.getElementById(id);

// The slider index whose run of `cycles` lasts at least RUN_SECONDS (the fastest such), or
// full speed for a kernel longer than the probe (`cycles` null).
export function defaultSpeedIndex(cycles) {
  if (cycles === null) return SPEEDS.length - 1;
  let best = 0;
  for (let i = 0; i < SPEEDS.length - 1; i++) if (cycles / SPEEDS[i] >= RUN_SECONDS) best = i;
  return best;
}

export function installClassroom(app) {
  setRunButton($('btn-run'), false);
  autoSpeed(app);
  speedMeter(app);
  startupHint(app);
  focusZoom(app);
  hideTooltipOnScroll();
}

// ----- the default run speed ----------------------------------------------------------------

function autoSpeed(app) {
  let chosen = false;
  const change = app.changeSpeed.bind(app);
  app.changeSpeed = (delta) => {
    if (delta) chosen = true;
    change(delta);
  };
  $('speed').addEventListener('input', () => { chosen = true; });
  app.hooks.built.push((input) => {
    if (chosen) return;
    const cycles = probeLength(input);
    $('speed').value = defaultSpeedIndex(cycles);
    change(0);
    document.body.dataset.defaultSpeed = $('speed-label').textContent;
    document.body.dataset.probeCycles = cycles === null ? 'long' : String(cycles);
  });
}

// How many cycles the kernel runs (the model, in a Session of its own), or null when it runs
// past PROBE_CYCLES or does not build.
function probeLength(input) {
  let s = null;
  try {
    s = new Session(input.ptx, input.launch, input.preset, input.sets);
    s.runUntil(PROBE_CYCLES, PROBE_CYCLES);
    return s.finished() ? s.cycle() : null;
  } catch {
    return null;
  } finally {
    if (s) s.free();
  }
}

// ----- cycles/s and fps --------------------------------------------------------------------

function speedMeter(app) {
  const el = document.createElement('span');
  el.id = 'perf';
  el.className = 'perf';
  el.title = 'Simulated cycles per second and frames drawn per second while running';
  // Under the cycle count, in a box as wide as the widest of the two (the top bar keeps one row).
  const cycle = document.querySelector('.topbar .cycle');
  const box = document.createElement('span');
  box.className = 'cycle-box';
  cycle.before(box);
  box.append(cycle, el);
  let start = null;
  const show = (cps, fps) => {
    el.textContent = `${compact(cps)} cycles/s · ${Math.round(fps)} fps`;
    document.body.dataset.cyclesPerSecond = Math.round(cps);
    document.body.dataset.fps = Math.round(fps);
  };
  el.textContent = '— cycles/s · — fps';
  app.hooks.drawn.push((snap) => {
    const now = performance.now();
    if (!app.mode) {
      start = null;
      el.classList.remove('live');
      return;
    }
    el.classList.add('live');
    if (!start || snap.cycle < start.cycle) {
      start = { t: now, cycle: snap.cycle, frames: 0 };
      return;
    }
    start.frames += 1;
    const dt = now - start.t;
    if (dt >= METER_MS) {
      show(((snap.cycle - start.cycle) * 1000) / dt, (start.frames * 1000) / dt);
      start = { t: now, cycle: snap.cycle, frames: 0 };
    }
  });
}

function compact(n) {
  if (n >= 1e6) return `${(n / 1e6).toFixed(1)}M`;
  if (n >= 1e4) return `${Math.round(n / 1e3)}k`;
  if (n >= 1e3) return `${(n / 1e3).toFixed(1)}k`;
  return String(Math.round(n));
}

// ----- the start of a kernel ---------------------------------------------------------------

function startupHint(app) {
  const el = document.createElement('div');
  el.id = 'startup-hint';
  el.className = 'startup-hint';
  el.hidden = true;
  el.setAttribute('aria-live', 'polite');
  const views = $('views');
  views.parentElement.insertBefore(el, views);
  app.hooks.drawn.push((snap) => {
    const text = startupText(app, snap);
    if (!text) {
      if (!el.hidden) el.hidden = true;
      delete document.body.dataset.startup;
      return;
    }
    if (el.textContent !== text) el.textContent = text;
    el.hidden = false;
    document.body.dataset.startup = text;
  });
}

// What holds the selected warp at the start of a run, in the model's words: while no warp
// instruction has issued (an instruction cache miss), or while the warp waits on a parameter
// load (ld.param through the constant cache). Null otherwise.
function startupText(app, snap) {
  if (snap.status !== 'running' || snap.cycle === 0) return null;
  const st = snap.stats;
  const nothing = st.warp_instructions === 0;
  if (!nothing && snap.cycle > 2000) return null;
  const w = snap.sm.warps[app.warp];
  if (!w) return null;
  let why;
  try {
    why = JSON.parse(app.session.why(app.sm, app.warp, -1));
  } catch {
    return null;
  }
  const links = why.links || [];
  const params = links.some((l) => /ld\.param/.test(l.text));
  if (!nothing && !params) return null;
  // The links that say what the warp waits for (not the whole way down to DRAM).
  const tail = links.filter((l) => SAYS_WHY.includes(l.kind)).map((l) => l.text).join(' ');
  const counts = `Instruction cache so far: ${st.l1i.accesses} accesses, ${st.l1i.misses} misses; constant cache (parameter loads): ${st.l1c.accesses} accesses, ${st.l1c.misses} misses.`;
  const head = nothing
    ? `Starting up: no instruction has issued in ${snap.cycle} cycles (IPC ${st.ipc.toFixed(2)}).`
    : `Starting up: warp ${app.warp} waits for its kernel parameters (ld.param).`;
  return `${head} ${tail} ${counts}`;
}

// ----- the enlarged view -------------------------------------------------------------------

function focusZoom(app) {
  const apply = (el, on) => {
    if (app.present && app.present.on) return;
    if (!on) {
      delete el.dataset.canvasZoom;
      return;
    }
    const w = el.clientWidth || window.innerWidth;
    const k = Math.round(Math.max(ZOOM_MIN, Math.min(ZOOM_MAX, (w - 12) / MIN_LAYOUT_W)) * 20) / 20;
    el.dataset.canvasZoom = String(k);
  };
  app.hooks.focus.push((el, on) => {
    for (const v of app.views) if (v.el !== el && v.el.dataset.canvasZoom && !(app.present && app.present.on)) delete v.el.dataset.canvasZoom;
    apply(el, on);
  });
  window.addEventListener('resize', () => {
    if (app.focused) apply(app.focused, true);
  });
  // Presentation mode takes the zoom off every panel when it ends: the enlarged one gets it back.
  app.hooks.drawn.push(() => {
    const f = app.focused;
    if (f && !f.dataset.canvasZoom && !(app.present && app.present.on)) {
      apply(f, true);
      requestAnimationFrame(() => app.draw(true));
    }
  });
}

// ----- the tooltip -------------------------------------------------------------------------

function hideTooltipOnScroll() {
  const tip = $('tooltip');
  const hide = () => { if (!tip.hidden) tip.hidden = true; };
  window.addEventListener('scroll', hide, true);
  window.addEventListener('wheel', hide, { passive: true });
}
