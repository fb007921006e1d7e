// Buttons and keyboard shortcuts: every control has a key, and the help overlay (`?`) lists
// them from the same table, then presentation mode's own keys (present.js), which go first
// while it is on.
import { PRESENT_KEYS } from './present.js';

const SHORTCUTS = [
  { keys: ['→'], key: 'ArrowRight', what: 'Step one cycle', run: (a) => a.step(1) },
  { keys: ['Shift', '→'], key: 'ArrowRight', shift: true, what: 'Step N cycles', run: (a) => a.step(a.stepN()) },
  { keys: ['←'], key: 'ArrowLeft', what: 'Step back one cycle', run: (a) => a.back(1) },
  { keys: ['Shift', '←'], key: 'ArrowLeft', shift: true, what: 'Step back N cycles', run: (a) => a.back(a.stepN()) },
  { keys: ['Space'], key: ' ', what: 'Run / pause (stops at breakpoints)', run: (a) => a.toggleRun() },
  { keys: ['['], key: '[', what: 'Slower', run: (a) => a.changeSpeed(-1) },
  { keys: [']'], key: ']', what: 'Faster', run: (a) => a.changeSpeed(1) },
  { keys: ['G'], key: 'g', what: 'Go to a cycle (type it, Enter)', run: (a) => a.focusGoto() },
  { keys: ['R'], key: 'r', what: 'Reset to cycle 0', run: (a) => a.reset() },
  { keys: ['B'], key: 'b', what: 'Toggle a breakpoint on the selected warp\'s line', run: (a) => a.toggleBreakpointHere() },
  { keys: ['W'], key: 'w', what: 'Select the next warp', run: (a) => a.selectWarp(a.warp + 1) },
  { keys: ['Shift', 'W'], key: 'W', shift: true, what: 'Select the previous warp', run: (a) => a.selectWarp(a.warp - 1) },
  { keys: ['S'], key: 's', what: 'Select the next SM', run: (a) => a.selectSm(a.sm + 1) },
  { keys: ['E'], key: 'e', what: 'Edit the PTX (Ctrl+Enter applies)', run: (a) => a.focusEditor() },
  { keys: ['A'], key: 'a', what: 'A/B: this kernel under another configuration, in lockstep (again: leave)', run: (a) => a.ab.toggle() },
  { keys: ['L'], key: 'l', what: 'Copy a share link', run: (a) => a.share() },
  { keys: ['F'], key: 'f', what: 'Enlarge the view under the pointer (again: back)', run: (a) => a.toggleFocus() },
  { keys: ['N'], key: 'n', what: 'Lesson: next step (also Page Down)', run: (a) => a.lessons.next() },
  { keys: ['P'], key: 'p', what: 'Lesson: previous step (also Page Up)', run: (a) => a.lessons.prev() },
  { keys: ['Shift', 'P'], key: 'P', what: 'Presentation mode: large type, chosen panels, lesson caption (again or Esc: leave)', run: (a) => a.present.toggle() },
  { keys: ['?'], key: '?', what: 'This help', run: (a) => a.toggleHelp() },
  { keys: ['Esc'], key: 'Escape', what: 'Close help / leave an input', run: (a) => a.escape() },
];

export function bindControls(app) {
  const on = (id, fn) => document.getElementById(id).addEventListener('click', fn);
  on('btn-step', () => app.step(1));
  on('btn-step-n', () => app.step(app.stepN()));
  on('btn-back', () => app.back(1));
  on('btn-back-n', () => app.back(app.stepN()));
  on('btn-run', () => app.toggleRun());
  on('btn-reset', () => app.reset());
  on('btn-goto', () => app.gotoTyped());
  on('btn-share', () => app.share());
  on('btn-present', () => app.present.toggle());
  on('btn-ab', () => app.ab.toggle());
  on('btn-help', () => app.toggleHelp());
  on('btn-help-close', () => app.toggleHelp(false));
  on('btn-apply', () => app.apply());
  on('btn-apply-setup', () => app.apply());
  document.getElementById('goto-cycle').addEventListener('keydown', (e) => {
    if (e.key !== 'Enter') return;
    e.target.blur();
    app.gotoTyped();
  });
  document.getElementById('speed').addEventListener('input', () => app.changeSpeed(0));
  // A control used with the mouse gives the keyboard back at once: a select or the speed slider
  // after a change, a button after a click. Otherwise the focused control would take the
  // shortcuts' keys (→ would switch examples, Space press the button again).
  document.addEventListener('change', (e) => {
    if (e.target.matches && e.target.matches('select, input[type=range]')) e.target.blur();
  });
  document.addEventListener('click', (e) => {
    const b = e.target.closest && e.target.closest('button');
    if (b) b.blur();
  });
  document.addEventListener('pointerup', (e) => {
    if (e.target.matches && e.target.matches('input[type=range]')) e.target.blur();
  });
  document.addEventListener('keydown', (e) => {
    if (e.ctrlKey && e.key === 'Enter') { e.preventDefault(); app.apply(); return; }
    const typing = e.target.closest && e.target.closest('input, textarea, select, .cm-editor');
    if (typing && e.key !== 'Escape') return;
    if (e.ctrlKey || e.altKey || e.metaKey) return;
    if (app.present.key(e)) { e.preventDefault(); return; }
    const s = SHORTCUTS.find((k) => k.key === e.key && (!e.key.startsWith('Arrow') || Boolean(k.shift) === e.shiftKey));
    if (!s) return;
    e.preventDefault();
    s.run(app);
  });
  const table = document.getElementById('help-table');
  for (const s of SHORTCUTS) keyRow(table, s.keys, s.what);
  const head = table.insertRow().insertCell();
  head.colSpan = 2;
  head.className = 'help-section';
  head.textContent = 'In presentation mode (Shift+P)';
  for (const k of PRESENT_KEYS) if (k.what) keyRow(table, k.keys, k.what);
}

// A row of the help table: the keys (each in a <kbd>, joined by +; "…" as text) and what they do.
function keyRow(table, keys, what) {
  const tr = table.insertRow();
  const cell = tr.insertCell();
  keys.forEach((k, i) => {
    if (i) cell.append(keys[i - 1] === '…' || k === '…' ? ' ' : ' + ');
    if (k === '…') { cell.append('…'); return; }
    const kbd = document.createElement('kbd');
    kbd.textContent = k;
    cell.append(kbd);
  });
  tr.insertCell().textContent = what;
}
