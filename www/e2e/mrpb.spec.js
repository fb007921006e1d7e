// The MRPB view (issue 13): atax's first kernel with MRPB on. The queues fill and drain, the
// queue the view marks as served is the model's choice, a bypass is drawn when the model made
// one, and stepping back restores the queues; a queue's "set N" label links its L1D set to the
// Memory view. Content, not pixels; screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, snapshot, stepUntil, cycle, settle, clickRegion } from './helpers.js';

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
  expect(['policy', 'full_queue', 'flush', 'retry', 'write']).toContain(mm.choice.why);
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

test('MRPB view: a queue\'s set label links its L1D set to the Memory view until clicked again', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'atax-mrpb');
  // Until misses are outstanding and a queue's head maps to a set other than 0.
  await stepUntil(page, `(s) => s.sm.mrpb && s.sm.l1.mshrs.length > 0 && s.sm.mrpb.queues.some((q) => q.length > 0 && q[0].set > 0)`);
  const m = await model(page, 'mrpb');
  const queue = m.heads.findIndex((set) => set > 0);
  const set = m.heads[queue];
  expect(set).toBe(JSON.parse(await snapshot(page)).sm.mrpb.queues[queue][0].set);
  expect((await model(page, 'memory')).linkedSet).toBeNull();
  const label = `head request of queue ${queue} maps to L1D set ${set}`;

  // A click on the label: the Memory view comes on screen with the set linked, saying from where.
  await clickRegion(page, 'mrpb', label);
  await expect(page.locator('#view-memory')).toBeInViewport();
  const linked = await model(page, 'memory');
  expect(linked.linkedSet).toBe(set);
  expect(linked.linkedFrom).toBe(`MRPB queue ${queue}'s head`);
  expect((await model(page, 'mrpb')).linked).toBe(`q${queue}`);

  // The same label again unlinks it; once more links it again.
  await clickRegion(page, 'mrpb', label);
  expect((await model(page, 'memory')).linkedSet).toBeNull();
  expect((await model(page, 'mrpb')).linked).toBeNull();
  await clickRegion(page, 'mrpb', label);
  expect((await model(page, 'memory')).linkedSet).toBe(set);
  await page.mouse.move(0, 0);
  await page.locator('#view-memory').screenshot({ path: '../target/e2e/view-memory-linked-set.png' });
  await page.locator('#view-mrpb').screenshot({ path: '../target/e2e/view-mrpb-linked-set.png' });

  // It is the app's selection: one more step keeps it.
  const at = await cycle(page);
  await page.click('#btn-step');
  await expect(page.locator('#cycle')).toHaveText(String(at + 1));
  const stepped = await model(page, 'memory');
  expect(stepped.linkedSet).toBe(set);
  expect(stepped.linkedFrom).toBe(`MRPB queue ${queue}'s head`);

  // The linked set's label in the Memory view unlinks it too.
  await clickRegion(page, 'memory', `Set ${set} is linked from the MRPB view`);
  expect((await model(page, 'memory')).linkedSet).toBeNull();
  expect(problems).toEqual([]);
});
