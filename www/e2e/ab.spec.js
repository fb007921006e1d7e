// The A/B mode (issue 17, "Side by side"): the session on screen is A, B is the same kernel
// with A's configuration plus overrides (a quick preset or key=value), both stepped to the same
// cycle by every step, go-to and step back; the two columns draw the same panels from each
// session's snapshot; the counter table is the model's pairing (Session.compareCounters) and its
// values are each session's own report; a bad override names the key and leaves A alone; a share
// link keeps the mode; leaving frees B and brings the normal views back.
import { test, expect } from '@playwright/test';
import { watchConsole, open, settle } from './helpers.js';

async function load(page, id) {
  await page.selectOption('#example', id);
  await expect(page.locator('#cycle')).toHaveText('0');
  await expect(page.locator('body')).toHaveAttribute('data-status', 'running');
}

// Both sessions' cycles, as the sessions say.
async function cycles(page) {
  return page.evaluate(() => {
    const a = window.warpstep.app;
    return [a.session.cycle(), a.ab.b.cycle()];
  });
}

// A canvas view's model in one column (`a` or `b`).
async function columnModel(page, side, view) {
  const el = page.locator(`#ab-${side}-${view}`);
  await el.scrollIntoViewIfNeeded();
  await settle(page);
  return JSON.parse(await page.locator(`#ab-${side}-${view} canvas`).first().getAttribute('data-model'));
}

// The diff table as drawn: per row its key, cells and whether it is marked as differing.
async function table(page) {
  return page.evaluate(() => [...document.querySelectorAll('#ab-diff tbody tr')].map((tr) => ({
    key: tr.dataset.key, cells: [...tr.cells].map((c) => c.textContent), differs: tr.classList.contains('differs'),
  })));
}

async function goTo(page, cycle) {
  await page.fill('#goto-cycle', String(cycle));
  await page.click('#btn-goto');
  await expect(page.locator('body')).toHaveAttribute('data-ab-cycles', `${cycle},${cycle}`, { timeout: 15_000 });
}

test('mod vs XOR hash on the naive transpose: lockstep, the model\'s diff, a bad key, leaving', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'transpose-naive');
  await page.fill('#goto-cycle', '300');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('300', { timeout: 15_000 });
  await page.click('#btn-ab');
  await expect(page.locator('#ab-bar')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'open');
  await page.click('.ab-preset[data-preset=hash]');
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  // B is built at cycle 0 and catches up with A, which stays at 300.
  await expect(page.locator('body')).toHaveAttribute('data-ab-cycles', '300,300', { timeout: 15_000 });
  await expect(page.locator('#views')).toBeHidden();
  await expect(page.locator('#ab-views')).toBeVisible();
  await expect(page.locator('#ab-sets')).toHaveValue('shmem.hash=bwxor:0^5,1^6,2^7,3^8,4^9');
  await expect(page.locator('#ab-head-a')).toContainText('A: fermi');
  await expect(page.locator('#ab-head-a')).toContainText('shmem.hash=mod');
  await expect(page.locator('#ab-head-b')).toContainText('B: shmem.hash=bwxor:0^5,1^6,2^7,3^8,4^9');

  // Step both to a cycle after the column reads began: the same cycle in both columns.
  await goTo(page, 1500);
  await expect(page.locator('#cycle')).toHaveText('1500');
  await expect(page.locator('#ab-head-a')).toHaveAttribute('data-cycle', '1500');
  await expect(page.locator('#ab-head-b')).toHaveAttribute('data-cycle', '1500');
  await expect(page.locator('#ab-head-a .ab-where')).toHaveText('cycle 1500');
  await expect(page.locator('#ab-head-b .ab-where')).toHaveText('cycle 1500');
  // Each column draws its own session: the bank grid under mod and under the hash.
  const banksA = await columnModel(page, 'a', 'banks');
  const banksB = await columnModel(page, 'b', 'banks');
  expect(banksA.hash).toBe('mod');
  expect(banksB.hash).toBe('bwxor:0^5,1^6,2^7,3^8,4^9');
  const grids = await page.evaluate(() => {
    const a = window.warpstep.app;
    return [JSON.parse(a.session.snapshot(0)).sm.bank_grid, JSON.parse(a.ab.b.snapshot(0)).sm.bank_grid];
  });
  expect(banksA.degree).toBe(grids[0].degree);
  expect(banksB.degree).toBe(grids[1].degree);
  const pipeB = await columnModel(page, 'b', 'pipeline');
  expect(pipeB.schedulers).toHaveLength(2);

  // The table is the model's pairing of the two reports, and its values are theirs.
  const fromModel = await page.evaluate(() => {
    const a = window.warpstep.app;
    return { pairs: JSON.parse(a.session.compareCounters(a.ab.b, false)), ra: JSON.parse(a.session.report()), rb: JSON.parse(a.ab.b.report()) };
  });
  const drawn = JSON.parse(await page.locator('#ab-diff table').getAttribute('data-model'));
  expect(drawn.counters).toEqual(fromModel.pairs.counters);
  expect(drawn.cycles).toEqual([1500, 1500]);
  const rows = await table(page);
  expect(rows.map((r) => r.key)).toEqual(fromModel.pairs.counters.map((c) => c.key));
  expect(rows.slice(0, 4).map((r) => r.key)).toEqual(['cycles', 'warp_instructions', 'thread_instructions', 'ipc']);
  const conflicts = rows.find((r) => r.key === 'shared.bank_conflict_cycles');
  expect(conflicts.differs).toBe(true);
  expect(Number(conflicts.cells[1])).toBe(fromModel.ra.shared.bank_conflict_cycles);
  expect(Number(conflicts.cells[2])).toBe(fromModel.rb.shared.bank_conflict_cycles);
  expect(fromModel.ra.shared.bank_conflict_cycles).toBeGreaterThan(0);
  expect(fromModel.rb.shared.bank_conflict_cycles).toBe(0);
  expect(conflicts.cells[3]).toBe('0.000');
  const cyc = rows.find((r) => r.key === 'cycles');
  expect(cyc.cells.slice(1)).toEqual(['1500', '1500', '1.000']);
  expect(cyc.differs).toBe(false);
  await expect(page.locator('#ab-diff summary')).toContainText('cycle 1500');
  // Every counter on request (the model's `all`), the table staying open.
  await page.locator('.ab-all input').check();
  await expect(page.locator('#ab-diff')).toHaveAttribute('open', '');
  const every = await table(page);
  const allKeys = await page.evaluate(() => {
    const a = window.warpstep.app;
    return JSON.parse(a.session.compareCounters(a.ab.b, true)).counters.map((c) => c.key);
  });
  expect(every.map((r) => r.key)).toEqual(allKeys);
  expect(every.length).toBeGreaterThan(rows.length);
  await page.locator('.ab-all input').uncheck();
  expect(await table(page)).toHaveLength(rows.length);
  await page.evaluate(() => { document.getElementById('ab-views').scrollTop = 0; });
  await settle(page);
  await page.screenshot({ path: '../target/e2e/ab-hash.png' });
  // The code panel on request, beside narrower columns.
  await expect(page.locator('#editor')).toBeHidden();
  await page.click('.ab-code');
  await expect(page.locator('#editor')).toBeVisible();
  await settle(page);
  await page.screenshot({ path: '../target/e2e/ab-hash-code.png' });
  await page.click('.ab-code');
  await expect(page.locator('#editor')).toBeHidden();

  // Step back (one, then N) and forwards: both move together.
  await page.locator('body').press('ArrowLeft');
  expect(await cycles(page)).toEqual([1499, 1499]);
  await expect(page.locator('#ab-head-b')).toHaveAttribute('data-cycle', '1499');
  await page.fill('#step-n', '50');
  await page.click('#btn-back-n');
  expect(await cycles(page)).toEqual([1449, 1449]);
  await page.locator('body').press('ArrowRight');
  expect(await cycles(page)).toEqual([1450, 1450]);
  await expect(page.locator('#cycle')).toHaveText('1450');
  await expect(page.locator('#ab-head-a')).toHaveAttribute('data-cycle', '1450');
  await expect(page.locator('#ab-head-b')).toHaveAttribute('data-cycle', '1450');
  const back = JSON.parse(await page.locator('#ab-diff table').getAttribute('data-model'));
  expect(back.cycles).toEqual([1450, 1450]);

  // A bad key: the model's message names it; A (and B) stay as they were.
  const before = await page.evaluate(() => {
    const a = window.warpstep.app;
    return { cycle: a.session.cycle(), config: a.session.config(), snap: a.session.snapshot(0), b: a.ab.b.config() };
  });
  await page.fill('#ab-sets', 'shmem.bogus_key=3');
  await page.click('.ab-build');
  await expect(page.locator('#ab-error')).toBeVisible();
  await expect(page.locator('#ab-error')).toContainText('shmem.bogus_key');
  await expect(page.locator('#ab-error')).toContainText('A is unchanged');
  await page.screenshot({ path: '../target/e2e/ab-bad-key.png' });
  const after = await page.evaluate(() => {
    const a = window.warpstep.app;
    return { cycle: a.session.cycle(), config: a.session.config(), snap: a.session.snapshot(0), b: a.ab.b.config() };
  });
  expect(after).toEqual(before);
  // A bad value: named too.
  await page.fill('#ab-sets', 'core.scheduler=fastest');
  await page.click('.ab-build');
  await expect(page.locator('#ab-error')).toContainText('core.scheduler');

  // Leaving frees B and restores the normal layout.
  await page.evaluate(() => { window.abB = window.warpstep.app.ab.b; });
  await page.click('.ab-leave');
  await expect(page.locator('#ab-views')).toBeHidden();
  await expect(page.locator('#ab-bar')).toBeHidden();
  await expect(page.locator('#views')).toBeVisible();
  await expect(page.locator('#editor')).toBeVisible();
  await expect(page.locator('body')).not.toHaveAttribute('data-ab', /.*/);
  await expect(page.locator('#ab-views .view')).toHaveCount(0);
  const freed = await page.evaluate(() => {
    try { window.abB.cycle(); return false; } catch { return true; }
  });
  expect(freed).toBe(true);
  expect(await page.evaluate(() => window.warpstep.app.ab.b)).toBe(null);
  await expect(page.locator('#cycle')).toHaveText('1450');
  await page.locator('body').press('ArrowRight');
  await expect(page.locator('#cycle')).toHaveText('1451');
  const main = page.locator('#view-banks canvas');
  await main.scrollIntoViewIfNeeded();
  await settle(page);
  expect(JSON.parse(await main.getAttribute('data-model')).hash).toBe('mod');
  expect(problems).toEqual([]);
});

test('stack vs convergence barriers on the spin lock: A deadlocks and stays at its end, B completes', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'spinlock');
  await page.locator('body').press('a');
  await page.click('.ab-preset[data-preset=divergence]');
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  await expect(page.locator('#ab-sets')).toHaveValue('core.divergence=convergence_barriers');
  await expect(page.locator('#ab-b-simt header h2')).toHaveText('Warp splits (convergence barriers)');
  await expect(page.locator('#ab-a-simt header h2')).toHaveText('SIMT stack');
  // Run both to their ends.
  await page.locator('#speed').fill('8');
  await page.click('#btn-run');
  await expect(page.locator('body')).not.toHaveAttribute('data-status', 'running', { timeout: 25_000 });
  const end = await page.evaluate(() => {
    const a = window.warpstep.app;
    return { a: [a.session.status(), a.session.cycle()], b: [a.ab.b.status(), a.ab.b.cycle()] };
  });
  expect(end.a[0]).toBe('failed');
  expect(end.b[0]).toBe('completed');
  await expect(page.locator('#ab-head-a')).toHaveClass(/finished/);
  await expect(page.locator('#banner')).toContainText(`A stopped at cycle ${end.a[1]}:\ndeadlock`);
  await expect(page.locator('#ab-head-a .ab-where')).toHaveText(`failed at cycle ${end.a[1]} · finished`);
  await expect(page.locator('#ab-head-b .ab-where')).toHaveText(`completed at cycle ${end.b[1]} · finished`);
  await expect(page.locator('#cycle')).toHaveText(String(Math.max(end.a[1], end.b[1])));
  await page.evaluate(() => { document.getElementById('ab-views').scrollTop = 0; });
  await settle(page);
  await page.screenshot({ path: '../target/e2e/ab-divergence.png' });
  // The report's `completed` pairs as 0 / 1.
  const rows = await table(page);
  const completed = rows.find((r) => r.key === 'completed');
  expect(completed.cells.slice(1, 3)).toEqual(['0', '1']);
  expect(completed.differs).toBe(true);
  // Stepping back before the earlier end moves both again; past it, the finished one waits.
  const early = Math.min(end.a[1], end.b[1]);
  await goTo(page, early - 10);
  const lateOne = end.a[1] > end.b[1] ? 0 : 1;
  await page.fill('#goto-cycle', String(early + 5));
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText(String(early + 5), { timeout: 15_000 });
  const now = await cycles(page);
  expect(now[lateOne]).toBe(early + 5);
  expect(now[1 - lateOne]).toBe(early);
  expect(problems).toEqual([]);
});

test('LRR vs GTO with a breakpoint: both stop at the first breakpoint either hits, at one cycle', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'reduction');
  await page.locator('body').press('a');
  await page.click('.ab-preset[data-preset=scheduler]');
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  // fermi schedules greedy-then-oldest: B is the loose round robin.
  await expect(page.locator('#ab-sets')).toHaveValue('core.scheduler=lrr');
  await expect(page.locator('#ab-head-a')).toContainText('core.scheduler=gto');
  // A breakpoint on the kernel's first bar.sync line.
  const line = await page.evaluate(() => window.warpstep.app.editor.getText().split('\n').findIndex((l) => l.includes('bar.sync')) + 1);
  expect(line).toBeGreaterThan(0);
  await page.evaluate((l) => window.warpstep.app.editor.setBreakpoints([l]), line);
  await page.click('#btn-run');
  await expect(page.locator('#run-status')).toContainText(`breakpoint: line ${line}`, { timeout: 15_000 });
  const [ca, cb] = await cycles(page);
  expect(ca).toBe(cb);
  expect(ca).toBeGreaterThan(0);
  // GTO and LRR issue differently: the stall counters differ already.
  const rows = await table(page);
  expect(rows.some((r) => r.key.startsWith('stalls.') && r.differs)).toBe(true);
  expect(problems).toEqual([]);
});

test('a share link keeps the A/B mode, its overrides, panels and cycle; a bad one names the panel', async ({ page, context }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'atax-mrpb-off');
  await page.click('#btn-ab');
  await page.click('.ab-preset[data-preset=mrpb]');
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  await expect(page.locator('#ab-sets')).toHaveValue('mrpb.enabled=true');
  await goTo(page, 400);
  expect(await columnModel(page, 'a', 'mrpb')).toEqual({ enabled: false });
  expect((await columnModel(page, 'b', 'mrpb')).enabled).not.toBe(false);
  await page.click('#btn-share');
  const url = await page.locator('body').getAttribute('data-share-url');
  const other = await context.newPage();
  const problems2 = watchConsole(other);
  await open(other, url);
  await expect(other.locator('body')).toHaveAttribute('data-ab', 'on');
  await expect(other.locator('body')).toHaveAttribute('data-ab-cycles', '400,400', { timeout: 15_000 });
  await expect(other.locator('#ab-sets')).toHaveValue('mrpb.enabled=true');
  const panels = await other.evaluate(() => [...document.querySelectorAll('#ab-views .view')].map((v) => v.id));
  expect(panels).toEqual(['ab-a-memory', 'ab-b-memory', 'ab-a-stats', 'ab-b-stats', 'ab-a-mrpb', 'ab-b-mrpb']);
  // Links with an unknown panel, or B's overrides that do not load: the notice says which.
  const bad = await other.evaluate(async () => {
    const { encodeState } = await import('/src/share.js');
    const s = window.warpstep.app.shareState();
    return [encodeState({ ...s, ab_panels: ['banks', 'cockpit'] }), encodeState({ ...s, ab: ['mrpb.nonsense=1'] })];
  });
  await other.evaluate((h) => { window.location.hash = `s=${h}`; }, bad[0]);
  await expect(other.locator('#notice')).toContainText('"cockpit" is not a panel');
  await other.evaluate((h) => { window.location.hash = `s=${h}`; }, bad[1]);
  await expect(other.locator('#notice')).toContainText('mrpb.nonsense');
  await expect(other.locator('body')).toHaveAttribute('data-ab', 'on');
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
});

test('partitioned vs unified: each column shows what its session has; a new A rebuilds B; the panel list', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'needle-partitioned');
  await page.click('#btn-ab');
  await page.click('.ab-preset[data-preset=unified]');
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  await expect(page.locator('#ab-sets')).toHaveValue('unified.enabled=true');
  await page.click('#btn-step-n');
  expect(await cycles(page)).toEqual([10, 10]);
  // The unified pool exists in B only; the energy bars in both.
  await expect(page.locator('#ab-b-unified')).toBeVisible();
  await expect(page.locator('#ab-a-unified')).toBeHidden();
  await expect(page.locator('#ab-a-energy')).toBeVisible();
  await expect(page.locator('#ab-head-a')).toContainText('unified.enabled=false');
  // The panel list: one row per panel, both columns.
  await page.click('.ab-panels summary');
  await expect(page.locator('.ab-panels-list')).toBeVisible();
  await page.screenshot({ path: '../target/e2e/ab-panels.png' });
  await page.locator('.ab-check', { hasText: 'Pipeline' }).click();
  await expect(page.locator('#ab-a-pipeline')).toBeVisible();
  await expect(page.locator('#ab-b-pipeline')).toBeVisible();
  await expect(page.locator('.ab-panels summary')).toHaveText('Panels (5)');
  await page.mouse.click(640, 700);
  await expect(page.locator('.ab-panels-list')).toBeHidden();
  // Another A (an example): B is rebuilt from it with the same overrides, both at cycle 0.
  await page.selectOption('#example', 'needle-unified');
  await expect(page.locator('#cycle')).toHaveText('0');
  expect(await cycles(page)).toEqual([0, 0]);
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  await expect(page.locator('#ab-a-unified')).toBeVisible();
  const cfg = await page.evaluate(() => JSON.parse(window.warpstep.app.ab.b.config()).unified.enabled);
  expect(cfg).toBe(true);
  expect(problems).toEqual([]);
});

test('a run stopped with one session ahead realigns both on the earlier cycle', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'transpose-naive');
  await page.click('#btn-ab');
  await page.click('.ab-preset[data-preset=hash]');
  await expect(page.locator('body')).toHaveAttribute('data-ab', 'on');
  await goTo(page, 200);
  // As if a catch-up or run was cut short with B ahead: B alone goes on, then the run stops.
  const after = await page.evaluate(() => {
    const app = window.warpstep.app;
    app.ab.b.step(37);
    app.mode = 'run';
    app.pause();
    return [app.session.cycle(), app.ab.b.cycle()];
  });
  expect(after).toEqual([200, 200]);
  await expect(page.locator('body')).toHaveAttribute('data-ab-cycles', '200,200');
  expect(problems).toEqual([]);
});
