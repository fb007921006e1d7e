// Unified pool view (issue 16; Unified MICRO'12 §4, docs/unified.md): shown when the run has a
// unified local memory (`stats.unified` in the snapshot). The 32 banks drawn as 8 clusters of 4,
// each bank's rows split by owner (registers / shared memory / cache) in the proportion of the
// model's own partition (`stats.unified`: registers_kb, shared_kb, cache_kb), the partition's
// numbers written out, this cycle's bank-column activity from `sm.pool_columns` (a register
// read or write, or a shared/cache access holding the column: `memory`), the arbitration
// conflicts so far (and this cycle's, from the previous snapshot), and this cycle's arbitration
// losers (`sm.arbitration_losers`: the shared or cache access that found its column taken, named
// in text with the register access that held it, its column crossed out in every cluster). The
// capacity select sets `unified.capacity_bytes` through the Setup tab's overrides and rebuilds
// the run.
import { prepare, region, box, text, FONT_BOLD, FONT_SMALL, setModel } from '../canvas.js';
import { OKABE, inkOn, UI } from '../palette.js';
import { GLOSSARY } from '../glossary.js';

export const UNIFIED_BODY = '<div class="unified-bar"><label title="' + GLOSSARY.unified_capacity.replace(/"/g, '&quot;') + '">Capacity <select class="unified-capacity"><option value="131072">128 KB</option><option value="262144">256 KB</option><option value="393216">384 KB</option></select></label><span class="muted">re-partitions and re-runs from cycle 0</span></div><canvas></canvas>';

const OWNERS = [
  { key: 'registers_kb', name: 'registers', colour: OKABE.blue },
  { key: 'shared_kb', name: 'shared', colour: OKABE.green },
  { key: 'cache_kb', name: 'cache', colour: OKABE.orange },
];
const BANK_H = 120;
// Presentation mode's large panel: lower bank bars, so that the view stands whole above the
// caption at 1280x720 (issue 30).
const PRESENT_BANK_H = 92;
const ACTIVITY = {
  read: { colour: OKABE.sky, letter: 'R' },
  write: { colour: OKABE.yellow, letter: 'W' },
  memory: { colour: OKABE.purple, letter: 'M' },
};
const LOST = OKABE.vermillion;
const LINE = 18;

export function createUnifiedView(el, app) {
  const canvas = el.querySelector('canvas');
  const select = el.querySelector('.unified-capacity');
  select.addEventListener('change', () => app.setUnifiedCapacity(Number(select.value)));
  function draw(frame) {
    const { snap, prev } = frame;
    const u = snap.stats.unified;
    if (!u) return;
    const bytes = String(Math.round(u.capacity_kb * 1024));
    if (document.activeElement !== select && select.value !== bytes) {
      if (![...select.options].some((o) => o.value === bytes)) {
        const o = document.createElement('option');
        o.value = bytes;
        o.textContent = `${u.capacity_kb} KB`;
        select.append(o);
      }
      select.value = bytes;
    }
    const columns = snap.sm.pool_columns;
    // Conflicts since the previous snapshot drawn: this cycle's when it is the cycle before.
    const since = prev && prev.stats.unified ? prev : null;
    const conflictsNow = since ? u.arbitration_conflicts - since.stats.unified.arbitration_conflicts : null;
    const oneCycle = since && since.cycle === snap.cycle - 1;
    const losers = snap.sm.arbitration_losers || [];
    const loserLines = losers.map(loserText);
    const lostColumns = new Map(losers.map((l, i) => [l.column, loserLines[i]]));
    const rows = Math.max(1, losers.length);
    const bankH = el.dataset.present === 'main' ? PRESENT_BANK_H : BANK_H;
    const { ctx, width } = prepare(canvas, 92 + bankH + 100 + rows * LINE);
    const kb = (v) => `${Number(v.toFixed(2))} KB`;
    const head = `${kb(u.capacity_kb)} ${u.mode === 'fermi' ? 'Fermi-like (fixed register file)' : 'unified'} pool: ${u.threads} threads`;
    text(ctx, head, 8, 10, { font: FONT_BOLD, colour: UI.accent, maxWidth: width - 16 });
    region(canvas, 0, 0, width, 20, GLOSSARY.unified);
    const split = `registers ${kb(u.registers_kb)} · shared ${kb(u.shared_kb)} · cache ${kb(u.cache_kb)} (${u.cache_sets} sets of ${u.cache_assoc} × ${u.cache_line_bytes} B)`;
    text(ctx, split, 8, 30, { font: FONT_SMALL, colour: UI.text, maxWidth: width - 16 });
    const conflicts = `arbitration conflicts: ${u.arbitration_conflicts} so far${conflictsNow == null ? '' : ` · ${conflictsNow} ${oneCycle ? 'this cycle' : `since cycle ${since.cycle}`}`}`;
    text(ctx, conflicts, 8, 48, { font: FONT_SMALL, colour: conflictsNow ? OKABE.vermillion : UI.muted, maxWidth: width - 16 });
    region(canvas, 0, 40, width, 18, 'Arbitration conflicts (Unified §4.3): cycles a shared or cache access found a bank column it needs taken by a register read or write (registers win) and waited a cycle.');
    // This cycle's losers, one line each (the model records them; at most one today: MEM0 asks once a cycle).
    if (!losers.length) text(ctx, 'arbitration losers this cycle: none', 8, 66, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
    loserLines.forEach((t, i) => {
      const y = 66 + i * LINE;
      cross(ctx, 14, y, 5);
      text(ctx, `arbitration loser: ${t}`, 26, y, { font: FONT_SMALL, colour: LOST, maxWidth: width - 34 });
      region(canvas, 0, y - 9, width, LINE, `Arbitration loser this cycle (Unified §4.3): ${t}. Register reads and writes claim the pool's bank columns first; the memory access waits in MEM0 and asks again next cycle.`);
    });

    // 8 clusters side by side, 4 banks each; a bank is a bar of its rows split by owner.
    const y0 = 66 + rows * LINE;
    const gap = 10;
    const clusterW = Math.max(60, Math.floor((width - 16 - (u.clusters - 1) * gap) / u.clusters));
    const bankW = Math.floor((clusterW - 8 - (u.banks_per_cluster - 1) * 3) / u.banks_per_cluster);
    const bankKb = u.capacity_kb / (u.clusters * u.banks_per_cluster);
    const total = OWNERS.reduce((s, o) => s + u[o.key], 0) || 1;
    for (let c = 0; c < u.clusters; c++) {
      const cx = 8 + c * (clusterW + gap);
      box(ctx, cx, y0 + 14, clusterW, bankH + 34, { fill: '#161c23' });
      text(ctx, `cluster ${c}`, cx + clusterW / 2, y0 + 6, { font: FONT_SMALL, colour: UI.muted, align: 'center', maxWidth: clusterW });
      for (let k = 0; k < u.banks_per_cluster; k++) {
        const bx = cx + 4 + k * (bankW + 3);
        const by = y0 + 18;
        let yy = by;
        for (const o of OWNERS) {
          const h = (bankH * u[o.key]) / total;
          ctx.fillStyle = o.colour;
          ctx.fillRect(bx, yy, bankW, h);
          yy += h;
        }
        const reg = columns[k] || null; // the model's activity of column k (the register bank it holds)
        const act = reg && ACTIVITY[reg.kind];
        box(ctx, bx, by, bankW, bankH, { fill: 'rgba(0,0,0,0)', stroke: act ? act.colour : '#0b0f14', width: act ? 3 : 1 });
        const lost = lostColumns.get(k);
        if (lost) {
          // The column a shared or cache access wanted and lost: outlined and crossed out.
          box(ctx, bx - 2, by - 2, bankW + 4, bankH + 4, { fill: 'rgba(0,0,0,0)', stroke: LOST, width: 2 });
          cross(ctx, bx + bankW / 2, by + bankH / 2, Math.min(bankW, bankH) / 2 - 2, 3);
        }
        const label = act ? act.letter : '·';
        box(ctx, bx, by + bankH + 4, bankW, 18, { fill: act ? act.colour : '#1c232c', stroke: '#0b0f14' });
        text(ctx, label, bx + bankW / 2, by + bankH + 13, { font: FONT_SMALL, colour: act ? inkOn(act.colour) : UI.muted, align: 'center' });
        const n = c * u.banks_per_cluster + k;
        const shares = OWNERS.map((o) => `${o.name} ${(bankKb * u[o.key] / total).toFixed(2)} KB`).join(', ');
        region(canvas, bx, by, bankW + 3, bankH + 22, `${GLOSSARY.unified}\n\nBank ${n} (cluster ${c}, column ${k}): ${Number(bankKb.toFixed(2))} KB, of it ${shares}.\nThis cycle: ${activityText(reg, k)}.${lost ? `\nLost this cycle: ${lost}.` : ''}`);
      }
    }
    // Legend: owners, then activity.
    let ly = y0 + bankH + 64;
    let lx = 8;
    const item = (fill, letter, label, colour) => {
      box(ctx, lx, ly - 7, 14, 14, { fill, stroke: '#0b0f14' });
      if (letter) text(ctx, letter, lx + 7, ly, { font: FONT_SMALL, colour: inkOn(fill), align: 'center' });
      text(ctx, label, lx + 20, ly, { font: FONT_SMALL, colour });
      lx += 20 + ctx.measureText(label).width + 18;
    };
    for (const o of OWNERS) item(o.colour, '', `${o.name} ${kb(u[o.key])}`, UI.text);
    lx = 8;
    ly += 20;
    for (const [kind, a] of Object.entries(ACTIVITY)) item(a.colour, a.letter, kind === 'memory' ? 'shared/cache access' : `register ${kind}`, UI.muted);
    cross(ctx, lx + 7, ly, 5);
    text(ctx, 'column an access lost (arbitration loser)', lx + 20, ly, { font: FONT_SMALL, colour: UI.muted });
    text(ctx, 'column k of every cluster is register bank k; outlined: used this cycle', 8, ly + 20, { font: FONT_SMALL, colour: UI.muted, maxWidth: width - 16 });
    setModel(canvas, {
      cycle: snap.cycle,
      mode: u.mode,
      capacityKb: u.capacity_kb,
      threads: u.threads,
      registersKb: u.registers_kb,
      sharedKb: u.shared_kb,
      cacheKb: u.cache_kb,
      cacheSets: u.cache_sets,
      arbitrationConflicts: u.arbitration_conflicts,
      conflictsThisCycle: oneCycle ? conflictsNow : null,
      columns: columns.map((b) => b.kind),
      losers: losers.map((l) => ({ warp: l.warp, pc: l.instr ? l.instr.pc : null, kind: l.kind, column: l.column, heldBy: l.held_by })),
      loserText: loserLines,
      lostColumns: [...lostColumns.keys()],
      head,
      split,
    });
  }
  return { draw };
}

// "W0 pc 20 ldu.global.s32 (L110), a cache request, lost column 1 to W1's register read of %rd8".
function loserText(l) {
  const who = l.instr ? `W${l.warp} pc ${l.instr.pc} ${l.instr.op} (L${l.instr.line})` : `W${l.warp}`;
  const what = l.kind === 'shared' ? 'a shared pass' : 'a cache request';
  const h = l.held_by;
  const holder = h.kind === 'memory' ? `W${h.warp}'s shared/cache access` : `W${h.warp}'s register ${h.kind} of ${h.reg}`;
  return `${who}, ${what}, lost column ${l.column} to ${holder}`;
}

// A red cross centred on (x, y), `r` from the centre to each end, on a dark edge so it reads
// over any owner colour.
function cross(ctx, x, y, r, w = 2) {
  ctx.beginPath();
  ctx.moveTo(x - r, y - r);
  ctx.lineTo(x + r, y + r);
  ctx.moveTo(x + r, y - r);
  ctx.lineTo(x - r, y + r);
  ctx.lineCap = 'round';
  ctx.strokeStyle = '#0b0f14';
  ctx.lineWidth = w + 2;
  ctx.stroke();
  ctx.strokeStyle = LOST;
  ctx.lineWidth = w;
  ctx.stroke();
  ctx.lineCap = 'butt';
}

function activityText(b, k) {
  if (!b || b.kind === 'idle') return `column ${k} idle`;
  if (b.kind === 'memory') return `a shared or cache access of warp ${b.warp} holds column ${k} of every cluster`;
  return `register ${b.kind} of ${b.reg} for warp ${b.warp}, in column ${k}`;
}
