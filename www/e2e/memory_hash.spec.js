// The memory-system and bank-hashing panels end to end: the L1D memory view during an
// associativity stall, the stats view's hit rate and counters, the bank grid's mod baseline beside
// a hash, the address-bit panel following the Setup tab's SPEC, the search panel from search to
// applied hash, and the transpose-hash example's numbers. Screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, stepUntil, settle, runToEnd } from './helpers.js';

test('memory view: an assoc failure is drawn on its set, lines explain themselves', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'column-walk');
  await stepUntil(page, '(s) => s.sm.l1 && s.sm.l1.fails.length > 0');
  const m = await model(page, 'memory');
  expect(m.l1).toBe(true);
  expect([m.sets, m.ways]).toEqual([32, 4]);
  expect(m.fails).toEqual([{ reason: 'assoc', set: 0, mshr: null }]);
  expect(m.states.reserved).toBe(4);
  expect(m.mshrs).toBe(4);
  const canvas = page.locator('#view-memory canvas');
  await page.locator('#view-memory').screenshot({ path: '../target/e2e/view-memory-assoc.png' });
  // Hover the first way of set 0 (a reserved line), then the failure note.
  const box = await canvas.boundingBox();
  await page.mouse.move(box.x + 8 + 28 + 10, box.y + 64 + 40 + 14 + 6);
  await expect(page.locator('#tooltip')).toContainText('Set 0, way 0: RESERVED');
  await expect(page.locator('#tooltip')).toContainText('cannot be evicted');
  await page.screenshot({ path: '../target/e2e/hover-memory.png' });
  await page.mouse.move(box.x + 200, box.y + 64 + 29);
  await expect(page.locator('#tooltip')).toContainText('retries next cycle');
  expect(problems).toEqual([]);
});

test('stats view: L1 hit rate over time and the memory counters', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'vector-add');
  await page.locator('#view-stats').scrollIntoViewIfNeeded();
  await page.locator('#speed').fill('7');
  await page.click('#btn-run');
  await expect(page.locator('body')).toHaveAttribute('data-status', 'completed', { timeout: 20_000 });
  const m = await model(page, 'stats');
  expect(m.l1.accesses).toBeGreaterThan(0);
  expect(m.l1.accesses).toBe(m.l1.hits + m.l1.misses);
  expect(m.l2.accesses).toBeGreaterThan(0);
  // The model samples the counters itself (every 16 cycles at first), however fast the run went.
  const cycle = Number(await page.locator('body').getAttribute('data-cycle'));
  expect(m.historyEnd).toBe(cycle);
  expect(m.samples).toBeGreaterThan(Math.min(256, cycle / 16));
  await expect(page.locator('#view-stats .plot-hit .u-legend')).toContainText('interval');
  // Stepping back takes the history back with it.
  await page.locator('#step-n').fill('100');
  await page.click('#btn-back-n');
  await expect(page.locator('body')).toHaveAttribute('data-cycle', String(cycle - 100));
  expect((await model(page, 'stats')).historyEnd).toBe(cycle - 100);
  await page.locator('#view-stats').screenshot({ path: '../target/e2e/view-stats-memory.png' });
  expect(problems).toEqual([]);
});

test('bank grid: the same access under mod and under the configured hash', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-hash');
  await stepUntil(page, '(s) => s.sm.bank_grid.baseline && s.sm.bank_grid.baseline.degree === 32');
  const m = await model(page, 'banks');
  expect(m.hash).toBe('bwxor:0^5,1^6,2^7,3^8,4^9');
  expect([m.degree, m.passes, m.extra, m.hashLatency]).toEqual([1, 1, 0, 1]);
  expect(m.baseline).toEqual({ hash: 'mod', degree: 32, passes: 32, extra: 31, lanes: 32, broadcasts: 0 });
  await page.locator('#view-banks').screenshot({ path: '../target/e2e/view-banks-hashed.png' });
  // Under mod there is one grid only.
  await page.selectOption('#example', 'transpose-naive');
  await stepUntil(page, '(s) => s.sm.bank_grid.degree === 32');
  const plain = await model(page, 'banks');
  expect([plain.hash, plain.degree, plain.baseline]).toEqual(['mod', 32, null]);
  // The heading names whose access it is: the warp and instruction MEM0 holds (issue 31).
  const g = await page.evaluate(() => JSON.parse(window.warpstep.app.session.snapshot(0)).sm.bank_grid);
  expect(g.in_mem0).toBe(true);
  expect(plain.whose).toBe(`W${g.warp} ${g.instr.op}`);
  expect(g.instr.op).toMatch(/^(ld|st)\.shared/);
  await page.locator('#view-banks').screenshot({ path: '../target/e2e/view-banks-mod.png' });
  expect(problems).toEqual([]);
});

test('address-bit panel follows the SPEC typed in the Setup tab', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-hash');
  let m = await model(page, 'hash');
  expect(m.spec).toBe('bwxor:0^5,1^6,2^7,3^8,4^9');
  expect(m.gates).toBe(5);
  await page.click('.tab[data-tab=setup]');
  await page.fill('#f-hash', 'bvxor:2,8,7');
  m = await model(page, 'hash');
  // XOR paper Fig. 5: b0=a2^a8, b1=a3^a9, b2=a4^a10, b3=a5, b4=a6.
  expect(m.sources).toEqual([[2, 8], [3, 9], [4, 10], [5], [6]]);
  expect([m.gates, m.addrBits, m.bankBits]).toEqual([3, 14, 5]);
  await page.locator('#view-hash').screenshot({ path: '../target/e2e/view-hash-fig5.png' });
  await page.fill('#f-hash', 'bwxor:0,1^6');
  m = await model(page, 'hash');
  expect(m.error).toContain('log2(32) = 5');
  await expect(page.locator('#hash-error')).toContainText('log2(32) = 5');
  await page.screenshot({ path: '../target/e2e/hash-error.png' });
  await page.fill('#f-banks', '16');
  await page.fill('#f-hash', 'fixed-xor');
  m = await model(page, 'hash');
  expect(m.sources).toEqual([[0, 4], [1, 5], [2, 6], [3, 7]]);
  await expect(page.locator('#hash-error')).toBeHidden();
  expect(problems).toEqual([]);
});

test('search panel: search, step through the decisions, apply and re-run', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  const panel = page.locator('#view-search');
  await panel.scrollIntoViewIfNeeded();
  await page.selectOption('#view-search .s-method', 'mih');
  await page.selectOption('#view-search .s-family', 'bwxor');
  await page.click('#view-search .s-run');
  let m = await model(page, 'search');
  expect(m).toMatchObject({ method: 'mih', family: 'bwxor', hash: 'bwxor:0^5,1^6,2^7,3^8,4^9', sets: 64, steps: 5, step: 0, kind: 'select', costBefore: 992, costAfter: 0 });
  await page.click('#view-search .s-next');
  await page.click('#view-search .s-next');
  m = await model(page, 'search');
  expect(m.step).toBe(2);
  await panel.screenshot({ path: '../target/e2e/view-search-mih.png' });
  await page.click('#view-search .s-apply');
  await expect(page.locator('#run-status')).toHaveText('completed in 1755 cycles', { timeout: 20_000 });
  m = await model(page, 'search');
  expect(m.compare).toEqual({ before: 2415, after: 1755, conflictBefore: 992, conflictAfter: 0 });
  await expect(page.locator('#view-search .s-result')).toHaveText('cycles 2415 → 1755 · conflict cycles 992 → 0');
  await expect(page.locator('#overrides')).toHaveValue('shmem.hash=bwxor:0^5,1^6,2^7,3^8,4^9');
  await panel.screenshot({ path: '../target/e2e/view-search-applied.png' });
  // The exhaustive search steps through its bvxor candidates; a wrong pairing is refused.
  await page.selectOption('#view-search .s-method', 'exhaustive');
  await page.click('#view-search .s-run');
  m = await model(page, 'search');
  expect(m).toMatchObject({ method: 'exhaustive', family: 'bvxor', kind: 'candidate', costAfter: 0 });
  await page.locator('#view-search .s-step').fill(String(m.steps - 1));
  await settle(page);
  await panel.screenshot({ path: '../target/e2e/view-search-exhaustive.png' });
  expect(problems).toEqual([]);
});

test('the transpose-hash example states the model\'s own numbers', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-hash');
  const about = await page.locator('#example-about').textContent();
  const [hashed, plain] = await page.evaluate(() => {
    const app = window.warpstep.app;
    const hashedReport = JSON.parse(app.session.reportAtEnd());
    app.loadExample('transpose-naive');
    return [hashedReport, JSON.parse(app.session.reportAtEnd())];
  });
  expect(about).toContain(`${plain.cycles} cycles with ${plain.shared.bank_conflict_cycles} bank-conflict cycles`);
  expect(about).toContain(`with the hash ${hashed.cycles} cycles and none`);
  expect(hashed.shared.bank_conflict_cycles).toBe(0);
  expect(problems).toEqual([]);
});

test('coalesced vs strided examples: 1 request per warp load against 32', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.locator('#view-stats').scrollIntoViewIfNeeded();
  const atEnd = async (id) => {
    await page.selectOption('#example', id);
    await runToEnd(page);
    await expect(page.locator('body')).toHaveAttribute('data-status', 'completed');
    const m = await model(page, 'stats');
    return { l1: m.l1.accesses, cycles: Number(await page.locator('body').getAttribute('data-cycle')) };
  };
  const one = await atEnd('stride-1');
  const strided = await atEnd('stride-32');
  // 16 warps, each one load and one store: 16 + 16 requests, against 16 x 32 + 16.
  expect(one.l1).toBe(32);
  expect(strided.l1).toBe(16 * 32 + 16);
  expect(strided.cycles).toBeGreaterThan(1.5 * one.cycles);
  expect(problems).toEqual([]);
});
