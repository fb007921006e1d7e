// The MRPB view (issue 13): atax's first kernel with MRPB on. The queues fill and drain, the
// queue the view marks as served is the model's choice, a bypass is drawn when the model made
// one, and stepping back restores the queues. Content, not pixels; screenshot under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, snapshot, stepUntil, cycle } from './helpers.js';

test('MRPB view: queues fill and drain, the served queue is the model\'s, stepping back restores them', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'atax-mrpb');
  // Until several warps have requests waiting.
  await stepUntil(page, `(s) => s.sm.mrpb && s.sm.mrpb.queues.filter((q) => q.length > 0).length >= 3`);
  const full = JSON.parse(await snapshot(page));
  const m = await model(page, 'mrpb');
  expect(m.enabled).toBe(true);
  expect(m.queues.length).toBe(48);
  // One row per queue, each slot labelled with the warp whose request it holds (queue = warp).
  expect(m.queues).toEqual(full.sm.mrpb.queues.map((q) => q.map((e) => e.warp)));
  m.queues.forEach((q, i) => q.forEach((w) => expect(w).toBe(i)));
  const waiting = m.queues.reduce((n, q) => n + q.length, 0);
  expect(waiting).toBeGreaterThan(0);
  const atFull = await cycle(page);

  // A cycle in which a queue is served: the view marks the model's choice.
  await stepUntil(page, `(s) => s.sm.mrpb && s.sm.mrpb.choice !== null`);
  const served = JSON.parse(await snapshot(page));
  const mm = await model(page, 'mrpb');
  expect(mm.choice).toEqual({ queue: served.sm.mrpb.choice[0], why: served.sm.mrpb.choice[1] });
  expect(['policy', 'full_queue', 'flush', 'retry']).toContain(mm.choice.why);
  await page.locator('#view-mrpb').screenshot({ path: '../target/e2e/view-mrpb.png' });

  // Later the buffer drains (the requests leave for the L1D or the L2) and bypasses happen.
  await stepUntil(page, `(s) => s.sm.mrpb && s.sm.mrpb.bypassed !== null`);
  const by = await model(page, 'mrpb');
  expect(by.bypassed.reason).toBe('assoc');
  expect(by.stats.bypassed.assoc).toBeGreaterThan(0);
  expect(by.stats.drained + by.stats.bypassed.assoc).toBeLessThanOrEqual(by.stats.enqueued);
  await page.locator('#view-mrpb').screenshot({ path: '../target/e2e/view-mrpb-bypass.png' });

  // Step back to the cycle of the full queues: the same queues again.
  const now = await cycle(page);
  await page.fill('#step-n', String(now - atFull));
  await page.click('#btn-back-n');
  await expect(page.locator('#cycle')).toHaveText(String(atFull), { timeout: 15_000 });
  const back = await model(page, 'mrpb');
  expect(back.queues).toEqual(m.queues);
  expect(problems).toEqual([]);
});

test('MRPB view: off in the configuration says so', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'atax-mrpb-off');
  await stepUntil(page, `(s) => s.cycle >= 50`);
  const m = await model(page, 'mrpb');
  expect(m.enabled).toBe(false);
  expect(problems).toEqual([]);
});
