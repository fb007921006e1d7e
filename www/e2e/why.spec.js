// The Why? panel (issue 17): the model's causal chain for the selected warp, on the column-walk
// example (a load whose 32 lines fall in one 4-way L1D set): the chain leads from the stalled
// warp to the set that refused the load and who reserved it; a warp named by a link can be
// followed; a lane masked off by divergence says which stack entry it waits in; step-back
// explains the earlier cycle. Content, not pixels; a screenshot under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, stepUntil, settle, clickRegion } from './helpers.js';

async function chain(page) {
  const view = page.locator('#view-why');
  await view.scrollIntoViewIfNeeded();
  await settle(page);
  return view.locator('.why-link').evaluateAll((items) => items.map((li) => ({
    kind: li.dataset.kind,
    text: li.querySelector('.why-text').textContent,
    buttons: [...li.querySelectorAll('button')].map((b) => b.textContent),
  })));
}

test('Why?: a stalled warp\'s chain reaches the reserved L1D set, from the model', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'column-walk');
  await stepUntil(page, '(s) => s.cycle >= 1500');
  const links = await chain(page);
  expect(links.map((l) => l.kind).slice(0, 6)).toEqual(['state', 'register', 'instruction', 'requests', 'refusal', 'set']);
  // The panel shows exactly what the model says (Session.why), nothing worked out in JavaScript.
  const model = await page.evaluate(() => JSON.parse(window.warpstep.app.session.why(0, 0, -1)));
  expect(links.map((l) => l.text)).toEqual(model.links.map((l) => l.text));
  expect(links[0].text).toContain('long_scoreboard');
  expect(links[4].text).toContain('L1D set 0 had every way reserved');
  expect(links[5].buttons).toEqual(['warp 0']);
  expect(links[2].buttons).toEqual(['line 38']);
  await expect(page.locator('#view-why .why-note')).toContainText('warp 0, SM 0, cycle 1499: long_scoreboard');
  await page.locator('#view-why').screenshot({ path: '../target/e2e/why-column-walk.png' });
  // Step back: the chain is the earlier cycle's.
  await page.keyboard.press('ArrowLeft');
  await settle(page);
  await expect(page.locator('#view-why .why-note')).toContainText('cycle 1498');
  expect(problems).toEqual([]);
});

test('Why?: follow a named warp, and ask about an idle lane', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  await stepUntil(page, '(s) => s.sm.warps.some((w) => w && w.state === "mio_throttle")');
  const slot = await page.evaluate(() => window.warpstep.app.snap.sm.warps.findIndex((w) => w && w.state === 'mio_throttle'));
  await page.evaluate((w) => window.warpstep.app.selectWarp(w), slot);
  let links = await chain(page);
  const mem0 = links.find((l) => l.kind === 'mem0');
  expect(mem0.text).toMatch(/MEM0 holds (ld|st)\.shared\.f32/);
  const holder = mem0.buttons.find((b) => b.startsWith('warp '));
  await page.locator('#view-why .why-mem0 button', { hasText: holder }).first().click();
  await settle(page);
  expect(await page.evaluate(() => window.warpstep.app.warp)).toBe(Number(holder.slice(5)));
  await expect(page.locator('#view-why .why-note')).toContainText(`warp ${holder.slice(5)},`);

  // The book's divergence example: a lane off the active mask waits in a SIMT stack entry.
  await page.selectOption('#example', 'divergence');
  await stepUntil(page, '(s) => s.sm.warps[0] && s.sm.warps[0].stack.length >= 3');
  const lane = await page.evaluate(() => {
    const w = window.warpstep.app.snap.sm.warps[0];
    const mask = parseInt(w.active_mask, 16);
    return [0, 1, 2, 3].find((l) => !(mask & (1 << l)));
  });
  await page.locator('#view-why .why-lane').selectOption(String(lane));
  await settle(page);
  links = await chain(page);
  expect(links[0].kind).toBe('stack');
  expect(links[0].text).toContain(`Lane ${lane} is masked off: it waits in SIMT stack entry`);
  // A click on that lane in the SIMT stack view asks about it too.
  await page.locator('#view-why .why-lane').selectOption('-1');
  expect(await page.evaluate(() => window.warpstep.app.lane)).toBe(-1);
  await clickRegion(page, 'simt', `Lane ${lane}: `);
  expect(await page.evaluate(() => window.warpstep.app.lane)).toBe(lane);
  links = await chain(page);
  expect(links[0].text).toContain(`Lane ${lane} is masked off`);
  // Keys still step after using the select (it blurs itself).
  const before = await page.evaluate(() => window.warpstep.app.session.cycle());
  await page.keyboard.press('ArrowRight');
  await settle(page);
  expect(await page.evaluate(() => window.warpstep.app.session.cycle())).toBe(before + 1);
  expect(problems).toEqual([]);
});

test('Why? in presentation mode: the chain in large type', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, '/#present=why,pipeline');
  await page.evaluate(() => window.warpstep.app.loadExample('column-walk'));
  await stepUntil(page, '(s) => s.cycle >= 1500');
  await settle(page);
  const px = await page.locator('#view-why .why-text').first().evaluate((e) => parseFloat(getComputedStyle(e).fontSize) * (parseFloat(getComputedStyle(e.closest('.why-chain')).zoom) || 1));
  expect(px).toBeGreaterThanOrEqual(20);
  // The caption names the kernel loaded while presenting.
  await expect(page.locator('#present-caption .present-title')).toHaveText('Column walk: L1 associativity stalls');
  await page.screenshot({ path: '../target/e2e/why-present.png' });
  expect(problems).toEqual([]);
});
