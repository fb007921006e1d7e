// The editor's language switch (issue 29's leftover, done in issue 30): the input is CUDA or PTX
// as the model recognises it (isCuda: a __global__ function and no .version), unless a
// `// warpstep: --lang cuda|ptx` line forces it; the model reads that line (cuda::is_cuda, and the
// CLI's --lang flag), so the choice travels with the text into share links, A/B and lessons.
// The select by the language tag writes or removes that line at the top of the input.

const LANG_LINE = /^[ \t]*\/\/ warpstep:[ \t]*--lang[ \t=]+(cuda|ptx)[ \t]*$/;

// The language a text's own --lang line forces ('cuda' or 'ptx'), or 'auto'.
export function forcedLanguage(text) {
  for (const line of text.split('\n')) {
    const m = line.match(LANG_LINE);
    if (m) return m[1];
  }
  return 'auto';
}

// `text` with its --lang lines replaced by one for `lang` at the top ('auto': none).
export function withLanguage(text, lang) {
  const kept = text.split('\n').filter((l) => !LANG_LINE.test(l)).join('\n');
  return lang === 'auto' ? kept : `// warpstep: --lang ${lang}\n${kept}`;
}

// Wires the select `el` to the code panes: a choice rewrites the input's text (the tag by Apply
// follows once the text is read again); the select shows the text's own choice after a load.
export function setupLanguageSwitch(el, panes) {
  el.addEventListener('change', () => {
    const ed = panes.input();
    ed.setText(withLanguage(ed.getText(), el.value));
    document.body.dataset.codeLangPick = el.value;
    el.blur();
  });
  return {
    sync() {
      el.value = forcedLanguage(panes.inputText());
      document.body.dataset.codeLangPick = el.value;
    },
  };
}
