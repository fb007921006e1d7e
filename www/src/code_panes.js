// The Code tab's two panes: the CUDA source and the PTX, side by side when the kernel has CUDA
// (a CUDA input, compiled by the model; or an nvcc PTX with `.loc` lines whose .cu text is
// known, an example's `cuda` field), else the PTX pane alone. The pane holding the input is
// editable; the other is read-only. Every CUDA line the panes show comes from the model's
// listing (`source_lines`: PTX line -> CUDA line, from `.loc`): the selected warp's current line
// is marked in both, a breakpoint can be set in either (the CUDA gutter sets
// Session.setSourceBreakpoints), and hovering a line tints the lines of the other pane compiled
// from it / into it. Nothing here recomputes what the hardware does.
import { isCuda, compileCuda } from '../../pkg/warpstep.js';
import { createEditor } from './editor.js';
import { setupLanguageSwitch } from './lang_switch.js';

const $ = (id) => document.getElementById(id);
const detect = (text) => (isCuda(text) ? 'cuda' : 'ptx');
const LANG_TITLE = {
  cuda: 'This text is CUDA C (it has a __global__ function and no .version): Apply compiles it to PTX, shown beside it',
  ptx: 'This text is PTX: Apply loads it as it is (a __global__ function without .version would make it CUDA)',
};

export class CodePanes {
  // `on`: { ptxBreakpoints(lines), cudaBreakpoints(lines), apply() }.
  constructor(on) {
    this.on = on;
    this.inputLang = 'ptx'; // the language of the input (the last text given to load or apply)
    this.companion = ''; // the CUDA text beside a PTX input (an example's `cuda`), or ''
    this.sourceLines = []; // the built kernel's listing: PTX line -> CUDA line
    this.builtText = { ptx: null, cuda: null }; // each pane's text when the listing was read
    this.pinned = 0; // the CUDA line clicked (its PTX lines stay tinted), 0: none
    // The input error marked ({ pane, line, column, message }), kept over redraws until the
    // next build or load.
    this.inputError = null;
    const common = { onApply: () => on.apply(), detect };
    this.ptxHint = document.createElement('span');
    this.ptx = createEditor($('editor'), {
      ...common,
      hint: this.ptxHint,
      onBreakpoints: (l) => on.ptxBreakpoints(l),
      onLanguage: () => this.showLanguage(),
      onHoverLine: (l) => this.hoverPtx(l),
    });
    this.cuda = createEditor($('cuda-editor'), {
      ...common,
      onBreakpoints: (l) => on.cudaBreakpoints(l),
      onLanguage: () => this.showLanguage(),
      onHoverLine: (l) => this.hoverCuda(l),
      onClickLine: (l) => this.pinCuda(l),
    });
    this.langSwitch = setupLanguageSwitch($('code-lang-pick'), this);
    this.showPanes(false);
  }

  // ----- the input --------------------------------------------------------------------------

  // The editor holding the input (CUDA or PTX).
  input() {
    return this.inputLang === 'cuda' ? this.cuda : this.ptx;
  }

  inputText() {
    return this.input().getText();
  }

  // Puts a kernel's text in its pane (`companion`: the CUDA text of a PTX input, or '').
  load(text, companion = '') {
    this.inputLang = detect(text);
    this.companion = this.inputLang === 'ptx' ? companion || '' : '';
    this.sourceLines = [];
    this.pinned = 0;
    this.inputError = null;
    if (this.inputLang === 'cuda') {
      this.cuda.setText(text);
      this.ptx.setText('');
    } else {
      this.ptx.setText(text);
      this.cuda.setText(this.companion);
    }
    this.ptx.setReadOnly(this.inputLang === 'cuda');
    this.cuda.setReadOnly(this.inputLang !== 'cuda');
    this.showPanes(this.inputLang === 'cuda');
    this.showHeads({});
    this.showNotes([]);
  }

  // The text Apply builds. A text typed into the input pane in the other language moves to its
  // own pane first (CUDA pasted over PTX opens the CUDA pane; PTX over CUDA closes it), so its
  // errors, breakpoints and highlighting land where they belong. `keepCompanion`: whether a PTX
  // input keeps its CUDA beside it (an edit of the same kernel).
  takeInput(keepCompanion) {
    const text = this.inputText();
    const lang = detect(text);
    if (lang !== this.inputLang) this.load(text);
    else if (lang === 'ptx' && !keepCompanion && this.companion) {
      this.companion = '';
      this.cuda.setText('');
      this.showPanes(false);
    }
    return text;
  }

  // ----- after a build ---------------------------------------------------------------------

  // Shows what the model built: the generated PTX (read-only) beside a CUDA input, or the CUDA
  // beside a PTX input whose listing maps lines to it; the compile notes.
  built(session, listing) {
    if (this.inputLang === 'cuda') {
      const generated = session.generatedPtx() || '';
      if (this.ptx.getText() !== generated) this.ptx.setText(generated);
    }
    this.sourceLines = listing.source_lines || [];
    this.builtText = { ptx: this.ptx.getText(), cuda: this.cuda.getText() };
    this.pinned = 0;
    this.inputError = null;
    const mapped = this.sourceLines.some((l) => l > 0);
    this.showPanes(this.inputLang === 'cuda' || (Boolean(this.companion) && mapped));
    this.showHeads(listing);
    this.showNotes(listing.compile_notes || []);
    this.ptx.setPlaced(placedByLine(listing));
  }

  // A CUDA input that did not build (no launch, or its PTX does not load): the PTX the model
  // compiles from it, when it compiles, so the PTX pane still shows it. Returns whether it did.
  showCompiled(text, launch) {
    if (this.inputLang !== 'cuda') return false;
    try {
      const ptx = compileCuda(text, launch);
      if (this.ptx.getText() !== ptx) this.ptx.setText(ptx);
      this.sourceLines = [];
      this.builtText = { ptx: null, cuda: null };
      this.showPanes(true);
      return true;
    } catch {
      return false;
    }
  }

  // The CUDA line of PTX line `line` (0: none), from the listing.
  cudaLine(line) {
    return this.sourceLines[line] || 0;
  }

  // The PTX lines compiled from CUDA line `line`, from the listing.
  ptxLines(line) {
    const out = [];
    if (line > 0) this.sourceLines.forEach((l, i) => { if (l === line) out.push(i); });
    return out;
  }

  // ----- marks ------------------------------------------------------------------------------

  // The selected warp's current PTX line and the line that faulted, in both panes (an input
  // error's mark stays instead, in its pane).
  mark(current, error) {
    const e = this.inputError;
    if (e && e.pane === this.ptx) this.ptx.mark(current, e.line, e.column, e.message);
    else this.ptx.mark(current, error);
    if (e && e.pane === this.cuda) this.cuda.mark(this.cudaLine(current), e.line, e.column, e.message);
    else if (this.cudaShown) this.cuda.mark(this.cudaLine(current), this.cudaLine(error));
  }

  reveal(line) {
    this.ptx.reveal(line);
    if (this.cudaShown && this.cudaLine(line)) this.cuda.reveal(this.cudaLine(line));
  }

  // An input error at its line: a CUDA error (line and column) in the CUDA pane; an error of
  // the generated PTX, or of a launch line, in the PTX pane (for a CUDA input the compiled PTX
  // is shown first); a PTX error in the PTX pane. Returns whether a line was marked.
  markError(err, launch) {
    const message = err.message || '';
    if (this.inputLang === 'cuda' && err.kind !== 'cuda') this.showCompiled(this.inputText(), launch);
    if (!err.line) return false;
    // A launch error at a `// warpstep:` line of a CUDA input is at that CUDA line.
    const pane = err.kind === 'cuda' || (err.kind === 'launch' && this.inputLang === 'cuda') ? this.cuda : this.ptx;
    this.inputError = { pane, line: err.line, column: err.kind === 'cuda' ? err.column || 0 : 0, message };
    this.mark(0, 0);
    pane.reveal(err.line);
    return true;
  }

  // ----- breakpoints ------------------------------------------------------------------------

  ptxBreakpoints() {
    return this.ptx.breakpoints();
  }

  cudaBreakpoints() {
    return this.cudaShown ? this.cuda.breakpoints() : [];
  }

  // ----- linked lines -----------------------------------------------------------------------

  // Whether the listing still describes both panes' text (not edited since the build).
  fresh() {
    return this.sourceLines.length > 0 && this.cudaShown
      && this.builtText.ptx === this.ptx.getText() && this.builtText.cuda === this.cuda.getText();
  }

  // The pointer over CUDA line `line`: its PTX lines tinted (or the clicked line's, when off).
  hoverCuda(line) {
    if (!this.fresh()) return;
    const lines = this.ptxLines(line || this.pinned);
    this.ptx.setLinked(lines);
    document.body.dataset.linkedPtx = lines.join(',');
  }

  // A click on CUDA line `line`: its PTX lines stay tinted and the first is brought on screen.
  pinCuda(line) {
    if (!this.fresh()) return;
    this.pinned = line;
    const lines = this.ptxLines(line);
    this.ptx.setLinked(lines);
    document.body.dataset.linkedPtx = lines.join(',');
    if (lines.length) this.ptx.reveal(lines[0]);
  }

  // The pointer over PTX line `line`: the CUDA line it was compiled from tinted.
  hoverPtx(line) {
    if (!this.fresh()) return;
    const l = this.cudaLine(line);
    this.cuda.setLinked(l ? [l] : []);
  }

  // ----- what is shown ----------------------------------------------------------------------

  showPanes(two) {
    this.cudaShown = two;
    // Side by side: CUDA lines wrap (a line is a statement); PTX lines keep one row each (the
    // opcode first; the operands scroll), with narrower tabs.
    this.ptx.setNarrow({ tab: two ? 2 : 0 });
    this.cuda.setNarrow({ wrap: two });
    this.ptxHint.textContent = this.inputLang === 'cuda' ? 'The PTX compiled from the CUDA appears here once it compiles.' : 'Type or paste a kernel here, in PTX or in CUDA C (a __global__ function), then Apply.';
    $('pane-cuda').hidden = !two;
    document.body.classList.toggle('code-two', two);
    document.body.dataset.code = two ? 'cuda+ptx' : 'ptx';
    for (const el of document.querySelectorAll('.pane-head')) el.hidden = !two;
    this.showLanguage();
  }

  // The small tag by Apply: the language of the text in the input pane, as the model reads it.
  showLanguage() {
    const lang = this.input().language();
    const tag = $('code-lang');
    tag.textContent = lang === 'cuda' ? 'CUDA' : 'PTX';
    tag.title = LANG_TITLE[lang];
    tag.className = `lang-tag lang-${lang}`;
    document.body.dataset.codeLang = lang;
    if (this.langSwitch) this.langSwitch.sync();
  }

  showHeads(listing) {
    const file = (listing.source_file || 'kernel.cu').split('/').pop();
    const cudaInput = this.inputLang === 'cuda';
    if (!this.cudaShown) return;
    $('cuda-head').textContent = cudaInput ? `CUDA · ${file} · your input` : `CUDA · ${file} · the source, read-only`;
    $('cuda-head').title = cudaInput
      ? 'The CUDA input: edit it and Apply to recompile. Click a line number to stop at every instruction compiled from the line; hover or click a line to see its PTX lines.'
      : 'The CUDA the PTX was compiled from (by nvcc; its .loc lines name these lines). Read-only: the PTX beside it is what runs.';
    $('ptx-head').textContent = cudaInput ? 'PTX · compiled by warpstep · read-only' : 'PTX · your input';
    $('ptx-head').title = cudaInput
      ? 'The PTX warpstep compiled from the CUDA (what runs). Breakpoints can be set here too.'
      : 'The PTX that runs: edit it and Apply.';
  }

  // What the compiler skipped (host code, #include), shown quietly under the panes.
  showNotes(notes) {
    const el = $('compile-notes');
    el.textContent = notes.length ? `Compiler notes: ${notes.join('; ')}` : '';
    el.hidden = notes.length === 0;
  }
}

// Whether two kernel texts define the same kernels (PTX .entry names, CUDA __global__
// functions): an edit of an example, not a kernel of your own.
export function sameEntries(a, b) {
  const names = (t) => [...t.matchAll(/\.entry\s+([A-Za-z0-9_$%]+)|__global__[^(]*?([A-Za-z_]\w*)\s*\(/g)].map((m) => m[1] || m[2]).sort().join(',');
  return names(a) === names(b);
}

// The listing's convergence-barrier pseudo-instructions by PTX line: each PC's `placed` list
// (ADD Bn / WAIT Bn, placed before the PC's instruction) goes before that PC's line.
function placedByLine(listing) {
  const out = [];
  (listing.placed || []).forEach((list, pc) => {
    if (!list || !list.length) return;
    const line = listing.instr_lines[pc];
    const at = out.find((p) => p.line === line);
    if (at) at.items.push(...list);
    else out.push({ line, pc, items: [...list] });
  });
  return out;
}
