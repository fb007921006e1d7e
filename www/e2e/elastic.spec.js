// The elastic pipeline in the app (issue 14): the lesson example (Elastic CF'11 Figs. 4-5) under
// the in-order, split and elastic pipelines, chosen through the Setup tab's overrides. The
// pipeline view's back-end row shows warp 0's shared load replaying its bank conflict in MEM0,
// the split pipeline's writeback clash, and the elastic pipeline committing warps 1 and 2 before
// warp 0; the three-pipeline comparison links its rows to the session; stepping back restores
// the PREMEM FIFO and the scheduler's countdown. Content, not pixels; screenshots under
// target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, snapshot, stepUntil, cycle, settle } from './helpers.js';

const EXAMPLE = 'elastic-timeline';
const BASE = ['elastic.mem_stages=2', 'units.int.add.latency=1', 'core.strict_barrel=true'];
const MODES = {
  in_order: ['elastic.baseline=in_order'],
  split: ['elastic.baseline=split'],
  elastic: ['elastic.enabled=true'],
};
const LOAD = 11; // ld.shared.u32 of warp 0 (W_i)
const ADD = 13; // add.u32 of warps 1 and 2 (W_i+1, W_i+2)
const REPLAYING = '(s) => s.sm.back_end.mem0 !== null && s.sm.back_end.mem0.warp === 0 && s.sm.back_end.mem0.replaying_conflict';

// Applies a preset and overrides through the Setup tab, as a user would.
async function configure(page, preset, sets) {
  await page.click('.tab[data-tab=setup]');
  await page.selectOption('#preset', preset);
  await page.fill('#overrides', sets.join('\n'));
  await expect(page.locator('#config-error')).toBeHidden();
  await page.click('#btn-apply-setup');
  await expect(page.locator('#cycle')).toHaveText('0');
  await page.click('.tab[data-tab=code]');
}

async function openExample(page, mode) {
  await open(page);
  await page.selectOption('#example', EXAMPLE);
  await configure(page, 'teaching', [...BASE, ...MODES[mode]]);
  await expect(page.locator('#example')).toHaveValue(EXAMPLE);
  expect((await model(page, 'pipeline')).backEnd.mode).toBe(mode);
}

// Steps one cycle with the button and returns the pipeline view's model.
async function stepOne(page) {
  const at = await cycle(page);
  await page.click('#btn-step');
  await expect(page.locator('#cycle')).toHaveText(String(at + 1));
  return model(page, 'pipeline');
}

// Clicks the region of a canvas in a view whose hover text contains `tip`.
async function clickRegion(page, selector, tip) {
  const canvas = page.locator(selector);
  await canvas.scrollIntoViewIfNeeded();
  await settle(page);
  const at = await canvas.evaluate((c, t) => {
    const tipOf = (r) => (typeof r.tip === 'function' ? r.tip() : r.tip);
    const g = c.regions.find((r) => typeof tipOf(r) === 'string' && tipOf(r).includes(t));
    if (!g) return null;
    const r = c.getBoundingClientRect();
    return { x: r.left + g.x + g.w / 2, y: r.top + g.y + g.h / 2, clickable: Boolean(g.onClick) };
  }, tip);
  expect(at, `a region saying "${tip}"`).not.toBeNull();
  expect(at.clickable).toBe(true);
  await page.mouse.click(at.x, at.y);
  await settle(page);
}

for (const mode of Object.keys(MODES)) {
  test(`elastic example, ${mode}: MEM0 shows warp 0's shared load replaying its bank conflict`, async ({ page }) => {
    const problems = watchConsole(page);
    await openExample(page, mode);
    await stepUntil(page, REPLAYING, 500);
    const m = await model(page, 'pipeline');
    const b = JSON.parse(await snapshot(page)).sm.back_end;
    expect(m.backEnd.mem0).toEqual({ warp: 0, op: 'ld.shared.u32', pc: LOAD, cyclesLeft: b.mem0.cycles_left, shared: true, replaying: true, conflictCycles: b.mem0.conflict_cycles });
    expect(m.backEnd.memStages).toBe(2);
    expect(m.backEnd.latches).toHaveLength(1);
    expect(m.backEnd.nonmemCapacity).toBe(mode === 'elastic' ? 2 : 0);
    if (mode === 'in_order') {
      // Fig. 4(a): W_i+1 cannot follow W_i into MEM0, so issue stops.
      expect(m.backEnd.stall).toBe('bank_conflict');
      expect(m.backEnd.banner).toBe('issue stalled: bank_conflict');
    } else {
      expect(m.backEnd.stall).toBeNull();
    }
    await page.mouse.move(0, 0);
    await page.locator('#view-pipeline').screenshot({ path: `../target/e2e/view-pipeline-${mode}-mem0.png` });
    expect(problems).toEqual([]);
  });
}

test('elastic example, split: at the writeback clash W0\'s load wins, W1\'s add waits, issue stalls', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'split');
  await stepUntil(page, REPLAYING, 500);
  await stepUntil(page, `(s) => s.sm.back_end.committed.some(([w, i]) => w === 0 && i.pc === ${LOAD})`, 50);
  const m = await model(page, 'pipeline');
  expect(m.backEnd.committed).toEqual([{ warp: 0, op: 'ld.shared.u32', pc: LOAD }]);
  expect(m.backEnd.nonmem).toEqual([{ warp: 1, op: 'add.u32', pc: ADD }]);
  expect(m.backEnd.stall).toBe('bank_conflict');
  expect(m.backEnd.banner).toBe('issue stalled: bank_conflict');
  await page.mouse.move(0, 0);
  await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/view-pipeline-split-writeback.png' });
  // The next cycle W1's add writes back.
  const next = await stepOne(page);
  expect(next.backEnd.committed).toEqual([{ warp: 1, op: 'add.u32', pc: ADD }]);
  expect(next.backEnd.nonmem).toEqual([]);
  expect(problems).toEqual([]);
});

test('elastic example, elastic: W1 and W2 commit before W0, without a stall', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'elastic');
  await stepUntil(page, REPLAYING, 500);
  const order = [];
  const stalls = [];
  for (let i = 0; i < 12 && !order.some((c) => c.warp === 0); i++) {
    const m = await stepOne(page);
    for (const c of m.backEnd.committed) if ((c.warp === 0 && c.pc === LOAD) || c.pc === ADD) order.push(c);
    if (m.backEnd.stall) stalls.push(m.backEnd.stall);
    if (m.backEnd.committed.some((c) => c.warp === 2 && c.pc === ADD)) {
      await page.mouse.move(0, 0);
      await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/view-pipeline-elastic-commit.png' });
    }
  }
  expect(order.map((c) => `W${c.warp} ${c.op}`)).toEqual(['W1 add.u32', 'W2 add.u32', 'W0 ld.shared.u32']);
  expect(stalls).toEqual([]);
  expect(problems).toEqual([]);
});

test('three pipelines as linked timelines: the rows follow the paper, a click steps the session', async ({ page }) => {
  const problems = watchConsole(page);
  await openExample(page, 'split');
  await expect(page.locator('#view-pipeline .compare-bar')).toBeVisible();
  await expect(page.locator('#view-pipeline canvas.compare')).toHaveCount(0);
  await page.click('#view-pipeline .compare-run');
  const strip = page.locator('#view-pipeline canvas.compare');
  await expect(strip).toBeVisible();
  const cmp = JSON.parse(await strip.getAttribute('data-model'));
  expect(cmp.rows.map((r) => [r.mode, r.current, r.status])).toEqual([['in_order', false, 'completed'], ['split', true, 'completed'], ['elastic', false, 'completed']]);
  const at = (row, warp, pc) => row.commits.find(([, w, , p]) => w === warp && p === pc)[0];
  const [inOrder, split, elastic] = cmp.rows;
  // Figs. 4(a) and 4(b): in order, W_i first; Fig. 5: W_i+1 and W_i+2 before W_i.
  for (const r of [inOrder, split]) {
    expect(at(r, 0, LOAD)).toBeLessThan(at(r, 1, ADD));
    expect(at(r, 1, ADD)).toBeLessThan(at(r, 2, ADD));
  }
  expect(at(elastic, 1, ADD)).toBeLessThan(at(elastic, 0, LOAD));
  expect(at(elastic, 2, ADD)).toBeLessThan(at(elastic, 0, LOAD));
  // Each row's first MEM0 replay is the one the session itself shows in that pipeline.
  expect(split.firstConflict).toBe(await stepUntil(page, REPLAYING, 500));

  // A click on the split row's cycle of W0's writeback (in the window around the cursor)
  // steps the session there.
  const wb = at(split, 0, LOAD);
  await clickRegion(page, '#view-pipeline canvas.compare', `split (4b), cycle ${wb}:`);
  await expect(page.locator('#cycle')).toHaveText(String(wb), { timeout: 10_000 });
  const m = await model(page, 'pipeline');
  expect(m.backEnd.committed).toEqual([{ warp: 0, op: 'ld.shared.u32', pc: LOAD }]);
  const moved = JSON.parse(await strip.getAttribute('data-model'));
  expect(moved.cursor).toBe(wb);
  expect(moved.window[0]).toBeLessThanOrEqual(wb);
  expect(moved.window[1]).toBeGreaterThanOrEqual(wb);
  await page.mouse.move(0, 0);
  await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/view-pipeline-compare.png' });
  // A click on an earlier cycle, in another row, steps it back.
  await clickRegion(page, '#view-pipeline canvas.compare', `in-order (4a), cycle ${wb - 10}:`);
  await expect(page.locator('#cycle')).toHaveText(String(wb - 10), { timeout: 10_000 });
  expect(JSON.parse(await strip.getAttribute('data-model')).cursor).toBe(wb - 10);

  // Aligned on the first bank conflict: each row shifted by its distance from this run's.
  await page.check('#view-pipeline .compare-align');
  await settle(page);
  const aligned = JSON.parse(await strip.getAttribute('data-model'));
  expect(aligned.aligned).toBe(true);
  expect(aligned.rows.map((r) => r.offset)).toEqual(aligned.rows.map((r) => r.firstConflict - split.firstConflict));
  await page.mouse.move(0, 0);
  await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/view-pipeline-compare-aligned.png' });
  await page.screenshot({ path: '../target/e2e/elastic-app.png' });

  // A new build drops the comparison.
  await page.selectOption('#example', EXAMPLE);
  await expect(strip).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('bank-conflict-aware scheduler on elastic-cf11: stepping back restores PREMEM and the countdown', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  await configure(page, 'elastic-cf11', ['elastic.enabled=true', 'core.scheduler=bank_conflict_aware', 'core.max_threads_per_cta=1024']);
  const first = await model(page, 'pipeline');
  expect(first.backEnd.mode).toBe('elastic');
  expect(first.mask).not.toBeNull();
  // A cycle with a warp instruction waiting in PREMEM while memory warps are masked.
  const n = await stepUntil(page, '(s) => s.sm.back_end.premem.length > 0 && s.sm.back_end.mask.countdown > 0', 10_000);
  const atN = await model(page, 'pipeline');
  expect(atN.backEnd.premem.length).toBeGreaterThan(0);
  expect(atN.backEnd.prememDepth).toBeGreaterThanOrEqual(atN.backEnd.premem.length);
  expect(atN.backEnd.prememSubwarps).toBe(3);
  expect(atN.mask.countdown).toBeGreaterThan(0);
  expect(atN.mask.lookup.op).toBe('ld.shared.f32');
  await page.mouse.move(0, 0);
  await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/view-pipeline-mask.png' });
  await page.fill('#step-n', '25');
  await page.click('#btn-step-n');
  await expect(page.locator('#cycle')).toHaveText(String(n + 25));
  const later = await model(page, 'pipeline');
  expect(later).not.toEqual(atN);
  await page.click('#btn-back-n');
  await expect(page.locator('#cycle')).toHaveText(String(n), { timeout: 15_000 });
  expect(await model(page, 'pipeline')).toEqual(atN);
  expect(problems).toEqual([]);
});
