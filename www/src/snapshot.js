// Reading a snapshot for the views on screen (issue 32): the page asks the model only for the
// parts the panels about to draw need (`Session.snapshotParts`, bits from
// `tables().snapshot_parts`), and reads the warp slots that views draw every frame (the
// pipeline's warp strip, the SIMT view's every-warp column) from a flat table
// (`Session.warpTable`, laid out by `tables().warp_table`) instead of JSON. The result has the
// shape of the full snapshot (`Session.snapshot`) for what it holds: `sm.warps` lists every slot,
// the selected one with its whole view (stack entries, I-buffer, scoreboard, splits), the others
// with the table's values (state, line, PC, CTA, mask); every warp also has `depth` (its SIMT
// stack entries) and `stack_lanes` (each entry's active lanes, bottom first), from the table.
// Nothing is computed here that the model does not export: the table's numbers are read and
// named, the active mask written in hex as the model writes it (`mask_text`).

// The bits of `names` (part names as `tables().snapshot_parts` gives them).
export function partBits(tables, names = []) {
  const bits = tables.snapshot_parts;
  return names.reduce((b, n) => b | bits[n], 0);
}

// Every part (the full snapshot's fields).
export function allParts(tables) {
  return Object.values(tables.snapshot_parts).reduce((b, x) => b | x, 0);
}

// The union of the parts the panels in `panels` (views.js) need.
export function panelParts(panels) {
  return panels.reduce((b, p) => b | p.parts, 0);
}

// `mask_text` of the model: the mask in hex, at least 8 digits (more for wider warps).
export function maskText(lo, hi, warpSize) {
  const digits = Math.max(8, Math.ceil(warpSize / 4));
  const hex = hi ? hi.toString(16) + lo.toString(16).padStart(8, '0') : lo.toString(16);
  return `0x${hex.padStart(digits, '0')}`;
}

// The warp slots of a warp table (`Session.warpTable`): one object per slot (null: empty).
export function warpsFromTable(table, tables, warpSize) {
  const L = tables.warp_table;
  const names = tables.warp_states;
  const slots = table[0];
  const out = new Array(slots);
  for (let i = 0; i < slots; i++) {
    const o = L.header + i * L.fields;
    if (!table[o + L.present]) {
      out[i] = null;
      continue;
    }
    const code = table[o + L.state];
    const pc = table[o + L.pc];
    const flags = table[o + L.flags];
    const depth = table[o + L.depth];
    const at = table[o + L.stack_at];
    out[i] = {
      slot: i,
      cta: [table[o + L.cta], table[o + L.cta + 1], table[o + L.cta + 2]],
      warp_in_cta: table[o + L.warp_in_cta],
      pc: pc === L.no_pc ? null : pc,
      line: table[o + L.line],
      active_mask: maskText(table[o + L.mask_lo], table[o + L.mask_hi], warpSize),
      state: names[code].name,
      state_code: code,
      at_barrier: (flags & L.at_barrier) !== 0,
      branch_pending: (flags & L.branch_pending) !== 0,
      finished: (flags & L.finished) !== 0,
      in_flight: table[o + L.in_flight],
      depth,
      stack_lanes: Array.from(table.subarray(at, at + depth)),
      has_splits: (flags & L.splits) !== 0,
    };
  }
  return out;
}

// The snapshot of SM `sm` with the parts in `bits` and warp slot `warp`'s whole view. The
// `warps` part (every warp's whole view) is only built while the warps run under convergence
// barriers (the warp-split view's every-warp column draws their splits; the SIMT stack's reads
// the table) or when every part is asked for. `snap.asked` records `bits`.
export function readSnapshot(session, tables, sm, warp, bits) {
  const table = session.warpTable(sm);
  const L = tables.warp_table;
  let splits = false;
  for (let i = 0; i < table[0] && !splits; i++) splits = (table[L.header + i * L.fields + L.flags] & L.splits) !== 0;
  const WARPS = tables.snapshot_parts.warps;
  const ask = splits || bits === allParts(tables) ? bits : bits & ~WARPS;
  const snap = JSON.parse(session.snapshotParts(sm, ask, warp));
  const light = warpsFromTable(table, tables, snap.warp_size);
  const warps = snap.sm.warps || light;
  for (let i = 0; i < warps.length; i++) {
    if (!warps[i] || !light[i]) continue;
    warps[i].depth = light[i].depth;
    warps[i].stack_lanes = light[i].stack_lanes;
    warps[i].has_splits = light[i].has_splits;
  }
  if (snap.sm.warp && warp < warps.length && !snap.sm.warps) warps[warp] = Object.assign(snap.sm.warp, { depth: light[warp].depth, stack_lanes: light[warp].stack_lanes, has_splits: light[warp].has_splits });
  snap.sm.warps = warps;
  delete snap.sm.warp;
  delete snap.sm.selected;
  snap.asked = bits;
  return snap;
}

// Whether `snap` holds the parts in `bits` (asked for when it was read).
export function holds(snap, bits) {
  return !bits || (snap.asked !== undefined && (snap.asked & bits) === bits);
}
