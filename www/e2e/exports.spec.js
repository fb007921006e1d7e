// Exports (issue 17): the warp timeline's "Export Perfetto trace" button downloads the run so far
// as a Chrome/Perfetto trace built by the model (Session.perfetto): JSON with named SM and warp
// tracks, warp-state spans up to the current cycle, and one issue event per warp instruction the
// run reports; the session stays at its cycle.
import { test, expect } from '@playwright/test';
import { watchConsole, open, stepUntil } from './helpers.js';
import { readFileSync } from 'node:fs';

test('the warp timeline exports a Perfetto trace of the run so far', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'divergence');
  await expect(page.locator('#cycle')).toHaveText('0');
  const at = await stepUntil(page, '(s) => s.cycle >= 40');
  const download = page.waitForEvent('download');
  await page.click('#view-timeline .export-perfetto');
  const file = await download;
  expect(file.suggestedFilename()).toBe(`warpstep-book_fig3_2-cycle${at}.json`);
  const trace = JSON.parse(readFileSync(await file.path(), 'utf8'));
  const events = trace.traceEvents;
  expect(trace.otherData.cycles).toBe(at);
  expect(events.some((e) => e.ph === 'M' && e.args.name === 'warp slot 0')).toBe(true);
  const spans = events.filter((e) => e.ph === 'X');
  expect(spans.length).toBeGreaterThan(0);
  expect(spans.every((e) => e.ts + e.dur <= at)).toBe(true);
  const report = await page.evaluate(() => JSON.parse(window.warpstep.app.session.report()));
  expect(events.filter((e) => e.cat === 'issue').length).toBe(report.warp_instructions);
  await expect(page.locator('#cycle')).toHaveText(String(at));
  await expect(page.locator('#view-timeline .export-note')).toContainText('ui.perfetto.dev');
  expect(problems).toEqual([]);
});

test('the Stats view exports the counters over time as CSV, and a view saves as PNG', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'divergence');
  await expect(page.locator('#cycle')).toHaveText('0');
  const at = await stepUntil(page, '(s) => s.cycle >= 100');
  let download = page.waitForEvent('download');
  await page.click('#view-stats .export-csv');
  let file = await download;
  expect(file.suggestedFilename()).toBe(`warpstep-counters-cycle${at}.csv`);
  const lines = readFileSync(await file.path(), 'utf8').trim().split('\n');
  expect(lines[0]).toBe('cycle,ipc_interval,ipc_total,l1d_hit_rate_interval,l1d_hit_rate_total');
  // One line per model sample, the last at the present, as the session's own rate history.
  const history = await page.evaluate(() => Array.from(window.warpstep.app.session.rateHistory()));
  expect(lines.length - 1).toBe(history.length / 5);
  const last = lines[lines.length - 1].split(',');
  expect(Number(last[0])).toBe(at);
  expect(Number(last[2])).toBeCloseTo(history[history.length - 3], 5);
  download = page.waitForEvent('download');
  await page.click('#view-simt .png');
  file = await download;
  expect(file.suggestedFilename()).toBe(`warpstep-simt-cycle${at}.png`);
  const png = readFileSync(await file.path());
  expect(png.subarray(1, 4).toString()).toBe('PNG');
  expect(problems).toEqual([]);
});
