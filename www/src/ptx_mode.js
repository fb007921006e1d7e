// A small CodeMirror StreamLanguage mode for PTX: directives, opcodes with modifiers,
// registers, labels, numbers, comments and `// warpstep:` launch lines.
import { StreamLanguage } from '@codemirror/language';

const ptx = {
  name: 'ptx',
  startState: () => ({ inComment: false }),
  token(stream, state) {
    if (state.inComment) {
      if (stream.skipTo('*/')) { stream.match('*/'); state.inComment = false; } else stream.skipToEnd();
      return 'comment';
    }
    if (stream.eatSpace()) return null;
    if (stream.match(/^\/\/\s*warpstep:.*/)) return 'meta';
    if (stream.match('//')) { stream.skipToEnd(); return 'comment'; }
    if (stream.match('/*')) { state.inComment = true; return 'comment'; }
    // Debug lines (.loc: the CUDA line of what follows; .file) are dimmed like comments.
    if (stream.match(/^\.(loc|file)\b.*/)) return 'comment';
    if (stream.match(/^\.[a-zA-Z_][\w]*/)) return 'keyword';
    if (stream.match(/^%[a-zA-Z_][\w.]*/)) return 'variableName';
    if (stream.match(/^@!?%?\w+/)) return 'operator';
    if (stream.match(/^"[^"]*"/)) return 'string';
    if (stream.match(/^-?(0[xX][0-9a-fA-F]+|0[fFdD][0-9a-fA-F]+|\d+(\.\d+)?([eE][-+]?\d+)?)/)) return 'number';
    if (stream.match(/^[$a-zA-Z_][\w$]*:/)) return 'labelName';
    if (stream.match(/^[a-z][a-z0-9_]*(\.[a-z0-9_]+)*/)) {
      return stream.current().includes('.') || /^(bra|ret|exit|bar|mov|add|sub|mul|mad|setp|selp|ld|st|cvt|shl|shr|and|or|xor|not|neg|abs|min|max|div|rem|atom|red|shfl|vote|call)$/.test(stream.current()) ? 'typeName' : 'name';
    }
    stream.next();
    return null;
  },
};

export const ptxLanguage = StreamLanguage.define(ptx);
