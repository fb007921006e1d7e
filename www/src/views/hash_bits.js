// Address-bit panel (issue 7 "In the app"; XOR paper section 4, Fig. 5): the word-address bits
// (byte address / bank width, most significant left), which of them feed each bank-index bit,
// and the XOR gates that combine them. It draws the function the model compiled from the SPEC
// typed in the Setup tab (wasm bankFunction: BankFunction::sources), so it follows each edit;
// an invalid SPEC shows the model's own error message.
import { prepare, region, box, text, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, UI, inkOn } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

const WIRE = [OKABE.sky, OKABE.orange, OKABE.green, OKABE.yellow, OKABE.purple, OKABE.vermillion, OKABE.blue, '#bbbbbb'];
const ADDR_Y = 44;
const BOX_H = 28;

export function createHashBitsView(el) {
  const canvas = el.querySelector('canvas');
  function key(frame) {
    const h = frame.hash();
    return `${h.spec}|${h.ok ? h.fn.banks : h.banks}|${h.ok}`;
  }
  function draw(frame) {
    const h = frame.hash();
    if (!h.ok) {
      drawError(canvas, h);
      return;
    }
    const f = h.fn;
    const n = Math.min(64, Math.max(f.addr_bits, f.highest_bit == null ? 0 : f.highest_bit + 1));
    const m = f.bank_bits;
    const busY = ADDR_Y + BOX_H + 10;
    const gateY = busY + m * 8 + 14;
    const bankY = gateY + 46;
    const { ctx, width } = prepare(canvas, bankY + BOX_H + 16);
    text(ctx, `${f.spec}: ${f.banks} banks (${m} bank bits) from ${n} word-address bits`, 8, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 16 });
    region(canvas, 0, 0, width, 20, GLOSSARY.hashbits);
    const cost = f.configurable ? 'configurable: every shared access takes shmem.hash_latency more cycles' : 'fixed wiring: no extra cycle';
    text(ctx, `word address = byte address / bank width; a(i) is its bit i · ${cost}`, 8, 28, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
    const formulaW = Math.min(260, Math.floor(width * 0.3));
    const addr = addressRow(canvas, ctx, f, n, width - formulaW - 24);
    const banks = bankRow(f, m, addr);
    drawWires(ctx, f, addr, banks, busY, gateY);
    drawGatesAndBanks(canvas, ctx, f, banks, gateY, bankY);
    drawFormulas(ctx, f, width - formulaW - 8, ADDR_Y + BOX_H + 14, formulaW);
    setModel(canvas, {
      spec: f.spec,
      banks: f.banks,
      bankBits: m,
      addrBits: n,
      sources: f.sources.map((s) => s.word_bits),
      gates: f.sources.filter((s) => s.word_bits.length > 1).length,
      error: null,
    });
  }
  return { draw, key };
}

function drawError(canvas, h) {
  const { ctx, width } = prepare(canvas, 80);
  text(ctx, `shmem.hash = ${h.spec} (with ${h.banks} banks) is not a valid bank function:`, 8, 14, { font: FONT_BOLD, colour: OKABE.vermillion, maxWidth: width - 16 });
  text(ctx, h.error, 8, 40, { colour: OKABE.vermillion, maxWidth: width - 16 });
  text(ctx, 'Fix the SPEC in the Setup tab; the simulation keeps the configuration in effect.', 8, 64, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
  region(canvas, 0, 0, width, 80, GLOSSARY.hashbits);
  setModel(canvas, { spec: h.spec, error: h.error });
}

// Address bits a(n-1) ... a(0), most significant left; returns each bit's box centre.
function addressRow(canvas, ctx, f, n, width) {
  const used = new Map();
  f.sources.forEach((s) => s.word_bits.forEach((b) => used.set(b, [...(used.get(b) || []), s.bank_bit])));
  const bw = Math.max(18, Math.min(48, Math.floor((width - 8) / n) - 3));
  const small = bw < 34;
  const centre = [];
  for (let i = n - 1; i >= 0; i--) {
    const x = 8 + (n - 1 - i) * (bw + 3);
    const feeds = used.get(i);
    box(ctx, x, ADDR_Y, bw, BOX_H, { fill: feeds ? '#34455a' : '#1a2029', stroke: feeds ? UI.text : UI.boxLine });
    text(ctx, small ? i : `a${i}`, x + bw / 2, ADDR_Y + BOX_H / 2, { font: FONT_SMALL, colour: feeds ? UI.text : UI.muted, align: 'center' });
    const tip = feeds ? `Word-address bit a${i} feeds bank bit${feeds.length > 1 ? 's' : ''} ${feeds.map((b) => `b${b}`).join(', ')}.` : `Word-address bit a${i} is not used by this bank function.`;
    region(canvas, x, ADDR_Y, bw, BOX_H, tip);
    centre[i] = x + bw / 2;
  }
  return { centre, bw };
}

// Bank bits b(m-1) ... b(0) spread under the address row, each with its XOR gate's inputs.
function bankRow(f, m, addr) {
  const xs = addr.centre.filter((x) => x != null);
  const lo = Math.min(...xs);
  const hi = Math.max(...xs);
  const step = m > 1 ? (hi - lo) / m : 0;
  return f.sources.map((s) => ({
    bit: s.bank_bit,
    srcs: s.word_bits,
    x: m > 1 ? lo + step / 2 + (m - 1 - s.bank_bit) * step : (lo + hi) / 2,
    colour: WIRE[s.bank_bit % WIRE.length],
  }));
}

// Orthogonal wires: down from each source bit to the bank bit's bus lane, across to its gate
// input (or straight to the bank bit when it has one source), then down.
function drawWires(ctx, f, addr, banks, busY, gateY) {
  const m = banks.length;
  for (const b of banks) {
    const lane = busY + b.bit * 8;
    const k = b.srcs.length;
    const gw = gateWidth(k);
    b.srcs.forEach((a, j) => {
      const x0 = addr.centre[a] + (b.bit - (m - 1) / 2) * 2.5;
      const xin = k > 1 ? b.x - gw / 2 + (gw * (j + 1)) / (k + 1) : b.x;
      ctx.strokeStyle = b.colour;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(x0, ADDR_Y + BOX_H);
      ctx.lineTo(x0, lane);
      ctx.lineTo(xin, lane);
      ctx.lineTo(xin, k > 1 ? gateY + 4 : gateY + 46);
      ctx.stroke();
      ctx.fillStyle = b.colour;
      ctx.beginPath();
      ctx.arc(x0, lane, 2.5, 0, 2 * Math.PI);
      ctx.fill();
    });
  }
}

function gateWidth(k) {
  return Math.max(30, 12 * k);
}

function drawGatesAndBanks(canvas, ctx, f, banks, gateY, bankY) {
  const bw = 44;
  for (const b of banks) {
    const k = b.srcs.length;
    if (k > 1) {
      xorGate(ctx, b.x, gateY, gateWidth(k), 30, b.colour);
      ctx.strokeStyle = b.colour;
      ctx.lineWidth = 2;
      ctx.beginPath();
      ctx.moveTo(b.x, gateY + 30);
      ctx.lineTo(b.x, bankY);
      ctx.stroke();
      region(canvas, b.x - gateWidth(k) / 2, gateY, gateWidth(k), 32, `XOR gate: bank bit b${b.bit} = ${formula(b.srcs)}. Its output is 1 when an odd number of its inputs are 1.`);
    }
    box(ctx, b.x - bw / 2, bankY, bw, BOX_H, { fill: b.colour });
    text(ctx, `b${b.bit}`, b.x, bankY + BOX_H / 2, { font: FONT_BOLD, colour: inkOn(b.colour), align: 'center' });
    const why = k === 0 ? 'constant 0 (no address bit feeds it)' : k === 1 ? `word-address bit a${b.srcs[0]} itself` : `${formula(b.srcs)} (an XOR of ${k} bits)`;
    region(canvas, b.x - bw / 2, bankY, bw, BOX_H, `Bank-index bit b${b.bit} = ${why}.\nThe bank is b${f.bank_bits - 1}…b0 read as a binary number.`);
  }
}

// An XOR gate pointing down: an OR shape (curved back, pointed front) with a second back curve.
function xorGate(ctx, cx, y, w, h, colour) {
  const l = cx - w / 2;
  const r = cx + w / 2;
  ctx.fillStyle = '#222b36';
  ctx.strokeStyle = colour;
  ctx.lineWidth = 2;
  ctx.beginPath();
  ctx.moveTo(l, y + 6);
  ctx.quadraticCurveTo(cx, y + 16, r, y + 6);
  ctx.quadraticCurveTo(r, y + h * 0.7, cx, y + h);
  ctx.quadraticCurveTo(l, y + h * 0.7, l, y + 6);
  ctx.closePath();
  ctx.fill();
  ctx.stroke();
  ctx.beginPath();
  ctx.moveTo(l, y);
  ctx.quadraticCurveTo(cx, y + 10, r, y);
  ctx.stroke();
  text(ctx, '⊕', cx, y + h * 0.55, { font: FONT_SMALL, colour, align: 'center' });
}

function formula(srcs) {
  return srcs.length ? srcs.map((a) => `a${a}`).join(' ⊕ ') : '0';
}

function drawFormulas(ctx, f, x, y, w) {
  text(ctx, 'bank bits', x, y, { font: FONT_SMALL, colour: UI.muted });
  [...f.sources].reverse().forEach((s, i) => {
    const colour = WIRE[s.bank_bit % WIRE.length];
    ctx.fillStyle = colour;
    ctx.fillRect(x, y + 12 + i * 18, 10, 10);
    text(ctx, `b${s.bank_bit} = ${formula(s.word_bits)}`, x + 16, y + 17 + i * 18, { colour: UI.text, maxWidth: w - 16 });
  });
  if (f.rank < f.bank_bits) text(ctx, `rank ${f.rank} < ${f.bank_bits}: some banks are never used`, x, y + 22 + f.bank_bits * 18, { font: FONT_SMALL, colour: OKABE.vermillion, maxWidth: w });
}
