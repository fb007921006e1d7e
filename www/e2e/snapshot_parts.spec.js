// Issue 32: the page reads the snapshot for the views on screen only. A panel off screen costs
// no snapshot part (the app does not ask for it, and the model's JSON leaves it out), a panel
// scrolled into view gets it; and the warp slots read from the flat warp table
// (`Session.warpTable`, snapshot.js) and the parts (`Session.snapshotParts`) hold the values
// of the full JSON snapshot (`Session.snapshot`), cycle after cycle.
import { test, expect } from '@playwright/test';
import { watchConsole, open, settle } from './helpers.js';

// Records the parts the app asks the model for (Session.snapshotParts' bits), from now on.
async function recordAsks(page) {
  await page.evaluate(() => {
    const s = window.warpstep.app.session;
    const proto = Object.getPrototypeOf(s);
    window.asked = [];
    if (!proto.snapshotParts.recorded) {
      const own = proto.snapshotParts;
      proto.snapshotParts = function (sm, parts, warp) {
        const json = own.call(this, sm, parts, warp);
        window.asked.push({ parts, keys: Object.keys(JSON.parse(json).sm) });
        return json;
      };
      proto.snapshotParts.recorded = true;
    }
  });
}

test('a view off screen costs no snapshot part; scrolled into view, it gets its part', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  await expect(page.locator('#cycle')).toHaveText('0');
  await page.locator('#view-pipeline').scrollIntoViewIfNeeded();
  await settle(page);
  const bits = await page.evaluate(() => window.warpstep.app.tables.snapshot_parts);
  const onScreen = () => page.evaluate(() => Object.fromEntries(window.warpstep.app.views.map((v) => [v.id, v.visible && !v.el.hidden])));
  const shown = await onScreen();
  // The pipeline is on screen, the Memory view (L1D) and the MRPB queues are below it.
  expect(shown.pipeline).toBe(true);
  expect(shown.memory).toBe(false);
  expect(shown.mrpb).toBe(false);
  await recordAsks(page);
  await page.fill('#step-n', '50');
  await page.click('#btn-step-n');
  await expect(page.locator('#cycle')).toHaveText('50');
  let asked = await page.evaluate(() => window.asked);
  expect(asked.length).toBeGreaterThan(0);
  for (const a of asked) {
    expect(a.parts & bits.pipeline).toBeTruthy();
    expect(a.parts & bits.l1).toBe(0);
    expect(a.parts & bits.mrpb).toBe(0);
    // Left out of the model's JSON, so never built.
    expect(a.keys).toContain('schedulers');
    expect(a.keys).not.toContain('l1');
    expect(a.keys).not.toContain('mrpb');
    expect(a.keys).not.toContain('warps');
  }
  // Scrolled into view, the Memory view gets its part and draws the L1D.
  await page.evaluate(() => { window.asked = []; });
  await page.locator('#view-memory').scrollIntoViewIfNeeded();
  await settle(page);
  asked = await page.evaluate(() => window.asked);
  expect(asked.some((a) => (a.parts & bits.l1) && a.keys.includes('l1'))).toBe(true);
  const m = JSON.parse(await page.locator('#view-memory canvas').first().getAttribute('data-model'));
  expect(m.l1).toBeTruthy();
  // While running, only the parts of the panels on screen are asked for.
  await page.evaluate(() => { window.asked = []; });
  await page.locator('#speed').fill('8');
  await page.click('#btn-run');
  await page.waitForTimeout(400);
  await page.click('#btn-run');
  asked = await page.evaluate(() => window.asked);
  const now = await onScreen();
  expect(asked.length).toBeGreaterThan(2);
  expect(now.memory).toBe(true);
  for (const a of asked) {
    expect(a.parts & bits.l1).toBeTruthy();
    if (!now.pipeline) expect(a.parts & bits.pipeline).toBe(0);
    if (!now.banks) expect(a.parts & bits.bank_grid).toBe(0);
  }
  expect(problems).toEqual([]);
});

// The typed warp table and each part against the full JSON snapshot, over a run that diverges
// (the book's example: SIMT stack pushes and pops) and one with many warps, shared accesses and
// an L1D (transpose): every slot's state, line, PC, CTA, mask, stack depth and each entry's
// active lanes, the selected warp's whole view, and every part's field.
for (const example of ['divergence', 'transpose-naive']) test(`the warp table and the parts hold the full snapshot's values (${example})`, async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', example);
  await expect(page.locator('#cycle')).toHaveText('0');
  const result = await page.evaluate(async () => {
    const { readSnapshot, allParts } = await import('/src/snapshot.js');
    const app = window.warpstep.app;
    const s = app.session;
    const t = app.tables;
    const names = Object.keys(t.snapshot_parts);
    const fields = { pipeline: ['fetch', 'schedulers', 'collectors', 'units'], register_banks: ['register_banks'], warps: ['warps'], bank_grid: ['bank_grid'], l1: ['l1'], mrpb: ['mrpb'], back_end: ['back_end'], unified: ['pool_columns', 'arbitration_losers'], sm_stats: ['stats'] };
    const same = (a, b) => JSON.stringify(a) === JSON.stringify(b);
    const bad = [];
    let compared = 0;
    let deep = 0;
    for (let i = 0; i < 400 && !s.finished(); i++) {
      s.step(i < 100 ? 1 : 7);
      const full = JSON.parse(s.snapshot(0));
      const warp = i % full.sm.warps.length;
      // Every part but the warps: the table gives the warp slots.
      const snap = readSnapshot(s, t, 0, warp, allParts(t) & ~t.snapshot_parts.warps);
      for (const k of ['cycle', 'status', 'error', 'kernel', 'warp_size', 'stats']) if (!same(snap[k], full[k])) bad.push(`${full.cycle} ${k}`);
      for (const n of names.filter((x) => x !== 'warps')) for (const k of fields[n]) if (!same(snap.sm[k], full.sm[k])) bad.push(`${full.cycle} sm.${k}`);
      full.sm.warps.forEach((w, slot) => {
        const got = snap.sm.warps[slot];
        if (!w || !got) {
          if (w !== got) bad.push(`${full.cycle} slot ${slot}: ${w} / ${got}`);
          return;
        }
        compared += 1;
        for (const k of ['slot', 'cta', 'warp_in_cta', 'pc', 'line', 'active_mask', 'state', 'state_code', 'at_barrier', 'branch_pending', 'finished', 'in_flight']) if (!same(got[k], w[k])) bad.push(`${full.cycle} slot ${slot} ${k}: ${JSON.stringify(got[k])} / ${JSON.stringify(w[k])}`);
        if (got.depth !== w.stack.length) bad.push(`${full.cycle} slot ${slot} depth`);
        if (!same(got.stack_lanes, w.stack.map((e) => e.lanes.filter(Boolean).length))) bad.push(`${full.cycle} slot ${slot} stack lanes`);
        deep = Math.max(deep, w.stack.length);
        if (slot === warp) {
          const { depth, stack_lanes: lanes, has_splits: splits, ...whole } = got;
          if (!same(whole, w)) bad.push(`${full.cycle} selected warp ${slot}`);
        }
      });
      // Each part alone, and nothing else.
      for (const n of names) {
        const one = JSON.parse(s.snapshotParts(0, t.snapshot_parts[n], warp));
        const extra = Object.keys(one.sm).filter((k) => !['id', 'selected', 'warp', ...fields[n]].includes(k));
        if (extra.length) bad.push(`${full.cycle} part ${n} has ${extra}`);
        for (const k of fields[n]) if (!same(one.sm[k], full.sm[k])) bad.push(`${full.cycle} part ${n}: sm.${k}`);
      }
    }
    return { bad: bad.slice(0, 20), compared, deep };
  });
  expect(result.bad).toEqual([]);
  expect(result.compared).toBeGreaterThan(100);
  if (example === 'divergence') expect(result.deep).toBeGreaterThan(1);
  expect(problems).toEqual([]);
});
