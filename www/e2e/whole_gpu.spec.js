// The whole GPU (issue 12): the gtx480 preset's 15 SMs, the SM selector, and the selected SM's
// own statistics beside the totals. Screenshot under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, snapshot } from './helpers.js';

test('whole GPU: 15 SMs share the work, the selector follows one SM and the stats show its share', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'whole-gpu');
  await expect(page.locator('#sm-select option')).toHaveCount(15);
  await expect(page.locator('#sm-select')).toBeVisible();
  await page.locator('#view-stats').scrollIntoViewIfNeeded();
  await page.locator('#speed').fill('7');
  await page.click('#btn-run');
  await expect(page.locator('body')).toHaveAttribute('data-status', 'completed', { timeout: 30_000 });
  await page.selectOption('#sm-select', '7');
  const snap = JSON.parse(await snapshot(page));
  expect(snap.sm.id).toBe(7);
  const per = snap.stats.per_sm;
  expect(per.length).toBe(15);
  // 30 CTAs handed out round-robin: two per SM; the SMs' shares add up to the totals.
  expect(per.map((s) => s.ctas)).toEqual(Array(15).fill(2));
  expect(per.reduce((a, s) => a + s.warp_instructions, 0)).toBe(snap.stats.warp_instructions);
  expect(per.reduce((a, s) => a + s.l1d.accesses, 0)).toBe(snap.stats.l1d.accesses);
  const m = await model(page, 'stats');
  expect(m.sm).toBe(7);
  expect(m.perSm.ctas).toBe(2);
  expect(m.perSm.l1d.accesses).toBeGreaterThan(0);
  await page.locator('#view-stats').screenshot({ path: '../target/e2e/view-stats-whole-gpu.png' });
  await page.evaluate(() => window.scrollTo(0, 0));
  await page.screenshot({ path: '../target/e2e/whole-gpu.png' });
  expect(problems).toEqual([]);
});
