// The benchmark page (not a test of speed: speed is read from `node bench-run.mjs`) must keep
// working as the views change: its short run (?smoke), once drawing every panel every frame
// (?all) and once redrawing as the app does (only when a view's inputs changed: the Code panel's
// key once threw on this page without an editor), with the frames the page builds itself,
// finishes with results and no page error.
import { test, expect } from '@playwright/test';
import { watchConsole } from './helpers.js';

for (const [mode, query] of [['every panel drawn', '?smoke&all'], ['panels redrawn as in the app', '?smoke']]) test(`the benchmark page runs (short run, ${mode}) and reports its numbers`, async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await page.goto(`/bench.html${query}`);
  await expect(page.locator('body')).toHaveAttribute('data-done', 'true', { timeout: 60_000 });
  const { rows, back } = JSON.parse(await page.locator('body').getAttribute('data-results'));
  expect(rows.length).toBe(1);
  expect(rows[0].case).toBe('vector_add');
  expect(rows[0].cycles).toBeGreaterThan(0);
  expect(rows[0].cyclesPerSec).toBeGreaterThan(0);
  expect(back.at).toBeGreaterThanOrEqual(20_000);
  expect(problems).toEqual([]);
});
