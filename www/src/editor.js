// A code editor (CodeMirror 6) for PTX or CUDA: line numbers, highlighting for the language its
// text is in (detect(text) decides, as the model's isCuda does), a breakpoint gutter (click a
// line number or the gutter), the selected warp's current line highlighted, input or fault
// errors marked at their line (and column), and lines linked from the other pane (the PTX lines
// compiled from a hovered CUDA line) tinted. The Code tab has two of them (code_panes.js). Under convergence barriers the listing's pseudo-instructions
// (ADD Bn / WAIT Bn, placed by the compiler pass before an instruction) are shown as dimmed
// italic widgets above that instruction's line: they are not text of the document, so line
// numbers, breakpoints and the current-line mark stay on the PTX lines.
import { EditorView, lineNumbers, gutter, GutterMarker, Decoration, WidgetType, keymap, highlightActiveLineGutter, placeholder } from '@codemirror/view';
import { EditorState, StateField, StateEffect, RangeSet, Compartment } from '@codemirror/state';
import { defaultKeymap, history, historyKeymap } from '@codemirror/commands';
import { syntaxHighlighting, HighlightStyle } from '@codemirror/language';
import { tags } from '@lezer/highlight';
import { ptxLanguage } from './ptx_mode.js';
import { cudaLanguage } from './cuda_mode.js';

const LANGUAGES = { ptx: ptxLanguage, cuda: cudaLanguage };
// How long typing pauses before the language is detected again.
const DETECT_MS = 150;

const toggleBreakpoint = StateEffect.define();
const setBreakpoints = StateEffect.define();
const setMarks = StateEffect.define();
const setPlaced = StateEffect.define();
const setLinked = StateEffect.define();

// One line of pseudo-instructions placed before a PTX line (built with textContent only).
class PlacedWidget extends WidgetType {
  constructor(line, pc, items) { super(); this.line = line; this.pc = pc; this.items = items; }
  eq(o) { return o.line === this.line && o.pc === this.pc && o.items.join('|') === this.items.join('|'); }
  toDOM() {
    const d = document.createElement('div');
    d.className = 'cm-placed';
    d.dataset.line = this.line;
    d.dataset.items = this.items.join(',');
    d.title = 'Placed by the convergence-barrier pass (book §3.1.2): pseudo-instructions with no PC of their own, run as a split reaches the instruction below. ADD Bn before a divergent branch adds the active threads to barrier Bn; WAIT Bn at the reconvergence point blocks each thread until every participant arrives.';
    const tag = document.createElement('span');
    tag.className = 'cm-placed-tag';
    tag.textContent = 'pseudo';
    d.append(tag, document.createTextNode(` ${this.items.join('; ')}`));
    return d;
  }
  ignoreEvent() { return false; }
}

const placedField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setPlaced)) continue;
      const doc = tr.state.doc;
      const ranges = e.value
        .filter((p) => p.line >= 1 && p.line <= doc.lines)
        .sort((a, b) => a.line - b.line)
        .map((p) => Decoration.widget({ widget: new PlacedWidget(p.line, p.pc, p.items), block: true, side: -1 }).range(doc.line(p.line).from));
      deco = Decoration.set(ranges, true);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

class Dot extends GutterMarker {
  constructor(cls) { super(); this.cls = cls; }
  toDOM() { const s = document.createElement('span'); s.className = this.cls; s.textContent = '●'; return s; }
}
const breakpointMarker = new Dot('cm-breakpoint');
const spacerMarker = new Dot('cm-breakpoint-spacer');

const breakpointField = StateField.define({
  create: () => RangeSet.empty,
  update(set, tr) {
    set = set.map(tr.changes);
    for (const e of tr.effects) {
      if (e.is(setBreakpoints)) {
        set = RangeSet.of(e.value.filter((l) => l >= 1 && l <= tr.state.doc.lines).map((l) => breakpointMarker.range(tr.state.doc.line(l).from)), true);
      } else if (e.is(toggleBreakpoint)) {
        let has = false;
        set.between(e.value, e.value, () => { has = true; });
        set = has ? set.update({ filter: (from) => from !== e.value }) : set.update({ add: [breakpointMarker.range(e.value)] });
      }
    }
    return set;
  },
});

// Line decorations: the selected warp's current line and the error line (with its column
// underlined and the message as the mark's title when there is one).
const marksField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setMarks)) continue;
      const ranges = [];
      const { current, error, column, message } = e.value;
      const doc = tr.state.doc;
      if (current >= 1 && current <= doc.lines) ranges.push(Decoration.line({ class: 'cm-current-line' }).range(doc.line(current).from));
      if (error >= 1 && error <= doc.lines) {
        const line = doc.line(error);
        ranges.push(Decoration.line({ class: 'cm-error-line', attributes: message ? { title: message } : {} }).range(line.from));
        const at = errorSpan(line, column);
        if (at) ranges.push(Decoration.mark({ class: 'cm-error-at', attributes: message ? { title: message } : {} }).range(at.from, at.to));
      }
      ranges.sort((a, b) => a.from - b.from || a.startSide - b.startSide);
      deco = Decoration.set(ranges, true);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

// The text an error's column points at on `line`: the word (or one character) there.
function errorSpan(line, column) {
  if (!(column >= 1) || line.length === 0) return null;
  const from = line.from + Math.min(column - 1, line.length - 1);
  const rest = line.text.slice(from - line.from);
  const word = rest.match(/^\w+/);
  return { from, to: from + (word ? word[0].length : 1) };
}

// The lines linked from the other pane (tinted), e.g. the PTX lines of a hovered CUDA line.
const linkedField = StateField.define({
  create: () => Decoration.none,
  update(deco, tr) {
    deco = deco.map(tr.changes);
    for (const e of tr.effects) {
      if (!e.is(setLinked)) continue;
      const doc = tr.state.doc;
      const ranges = [...new Set(e.value)].filter((l) => l >= 1 && l <= doc.lines).sort((a, b) => a - b)
        .map((l) => Decoration.line({ class: 'cm-linked-line' }).range(doc.line(l).from));
      deco = Decoration.set(ranges);
    }
    return deco;
  },
  provide: (f) => EditorView.decorations.from(f),
});

const highlight = HighlightStyle.define([
  { tag: tags.comment, color: '#8a96a3' },
  { tag: tags.meta, color: '#f0e442' },
  { tag: tags.keyword, color: '#cc79a7' },
  { tag: tags.variableName, color: '#56b4e9' },
  { tag: tags.number, color: '#e69f00' },
  { tag: tags.string, color: '#e69f00' },
  { tag: tags.labelName, color: '#f0e442', fontWeight: 'bold' },
  { tag: tags.typeName, color: '#7fd4b8' },
  { tag: tags.operator, color: '#d55e00' },
]);

const theme = EditorView.theme({
  '&': { color: '#e8edf2', backgroundColor: '#10141a' },
  '.cm-gutters': { backgroundColor: '#1a2029', color: '#a9b5c1', border: 'none' },
  '.cm-content': { caretColor: '#f0e442', fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace' },
  '.cm-lineNumbers .cm-gutterElement': { cursor: 'pointer' },
  '.cm-placed': { color: '#9fb3c8', fontStyle: 'italic', opacity: 0.85, paddingLeft: '2ch', fontFamily: 'ui-monospace, "DejaVu Sans Mono", monospace', borderLeft: '3px solid #cc79a7', backgroundColor: '#181d25' },
  '.cm-placed-tag': { fontSize: '0.7em', fontStyle: 'normal', color: '#10141a', backgroundColor: '#cc79a7', borderRadius: '3px', padding: '0 0.3em', marginRight: '0.3em' },
}, { dark: true });

// `detect(text)`: the language of a text ('cuda' or 'ptx'); `onLanguage(lang)` hears when it
// changes; `onHoverLine(line)` / `onClickLine(line)`: the pointer over / a click on a line of
// the text (0: off the text).
// `hint`: an element shown while the editor is empty (its text may change).
export function createEditor(parent, { onBreakpoints, onApply, detect = () => 'ptx', onLanguage = () => {}, onHoverLine = () => {}, onClickLine = () => {}, hint = null }) {
  const breakpointLines = (state) => {
    const lines = [];
    const it = state.field(breakpointField).iter();
    while (it.value) { lines.push(state.doc.lineAt(it.from).number); it.next(); }
    return lines;
  };
  const clickLine = (view, line) => {
    view.dispatch({ effects: toggleBreakpoint.of(line.from) });
    return true;
  };
  let marked = null; // the marks last dispatched ("current|error"), to skip repeats each frame
  let language = 'ptx';
  let detectTimer = 0;
  let hovered = 0;
  const languageConf = new Compartment();
  const readOnlyConf = new Compartment();
  const wrapConf = new Compartment();
  const lineAt = (view, event) => {
    const pos = view.posAtCoords({ x: event.clientX, y: event.clientY });
    return pos === null ? 0 : view.state.doc.lineAt(pos).number;
  };
  const hover = (line) => { if (line !== hovered) { hovered = line; onHoverLine(line); } };
  const setLanguage = (lang) => {
    if (lang === language) return;
    language = lang;
    view.dispatch({ effects: languageConf.reconfigure(LANGUAGES[lang]) });
    onLanguage(lang);
  };
  const redetect = () => { clearTimeout(detectTimer); detectTimer = setTimeout(() => setLanguage(detect(view.state.doc.toString())), DETECT_MS); };
  const view = new EditorView({
    parent,
    state: EditorState.create({
      doc: '',
      extensions: [
        breakpointField,
        marksField,
        linkedField,
        placedField,
        gutter({
          class: 'cm-breakpoint-gutter',
          markers: (v) => v.state.field(breakpointField),
          initialSpacer: () => spacerMarker,
          domEventHandlers: { mousedown: (v, line) => clickLine(v, line) },
        }),
        lineNumbers({ domEventHandlers: { mousedown: (v, line) => clickLine(v, line) } }),
        highlightActiveLineGutter(),
        history(),
        keymap.of([{ key: 'Mod-Enter', run: () => { onApply(); return true; } }, ...defaultKeymap, ...historyKeymap]),
        languageConf.of(ptxLanguage),
        readOnlyConf.of(EditorState.readOnly.of(false)),
        wrapConf.of([]),
        hint ? placeholder(hint) : [],
        syntaxHighlighting(highlight),
        theme,
        EditorView.domEventHandlers({
          mousemove: (e, v) => { hover(lineAt(v, e)); },
          mouseleave: () => { hover(0); },
          click: (e, v) => { const l = lineAt(v, e); if (l) onClickLine(l); },
        }),
        EditorView.updateListener.of((u) => {
          if (u.docChanged) { marked = null; redetect(); }
          if (u.transactions.some((t) => t.effects.some((e) => e.is(toggleBreakpoint) || e.is(setBreakpoints))) || (u.docChanged && u.state.field(breakpointField).size)) {
            onBreakpoints(breakpointLines(u.state));
          }
        }),
      ],
    }),
  });
  return {
    view,
    getText: () => view.state.doc.toString(),
    setText(text) {
      marked = null;
      // A new text shows from its top (the selected warp's line is revealed when there is one).
      view.dispatch({ changes: { from: 0, to: view.state.doc.length, insert: text }, selection: { anchor: 0 }, effects: [setBreakpoints.of([]), setPlaced.of([]), setLinked.of([]), EditorView.scrollIntoView(0, { y: 'start' })] });
      clearTimeout(detectTimer);
      setLanguage(detect(text));
    },
    language: () => language,
    setReadOnly(on) { view.dispatch({ effects: readOnlyConf.reconfigure(EditorState.readOnly.of(on)) }); },
    readOnly: () => view.state.readOnly,
    // A narrow pane: long lines wrap (`wrap`), or tabs are `tab` columns wide (0: the default).
    setNarrow({ wrap = false, tab = 0 } = {}) {
      view.dispatch({ effects: wrapConf.reconfigure([wrap ? EditorView.lineWrapping : [], tab ? EditorState.tabSize.of(tab) : []]) });
    },
    // Tints `lines` (the other pane's lines linked to the one hovered); [] clears.
    setLinked(lines) { view.dispatch({ effects: setLinked.of(lines) }); },
    // The pseudo-instructions to show: [{line, pc, items: ["WAIT B0", ...]}].
    setPlaced(list) { view.dispatch({ effects: setPlaced.of(list) }); },
    setBreakpoints(lines) { view.dispatch({ effects: setBreakpoints.of(lines) }); },
    breakpoints: () => breakpointLines(view.state),
    mark(current, error, column = 0, message = '') {
      const key = `${current}|${error}|${column}|${message}`;
      if (key === marked) return;
      marked = key;
      view.dispatch({ effects: setMarks.of({ current, error, column, message }) });
    },
    reveal(line) {
      if (line < 1 || line > view.state.doc.lines) return;
      const pos = view.state.doc.line(line).from;
      const block = view.lineBlockAt(pos);
      const dom = view.scrollDOM;
      if (block.top < dom.scrollTop || block.bottom > dom.scrollTop + dom.clientHeight) {
        view.dispatch({ effects: EditorView.scrollIntoView(pos, { y: 'center' }) });
      }
    },
  };
}
