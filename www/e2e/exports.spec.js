// Exports (issue 17): the warp timeline's "Export Perfetto trace" button downloads the run so far
// as a Chrome/Perfetto trace built by the model (Session.perfetto): JSON with named SM and warp
// tracks, warp-state spans up to the current cycle, one issue event per warp instruction the
// run reports, the memory requests on the SM's L1D track and the memory system's L2 and DRAM
// tracks (one L1D lookup per access the report counts), and the execution-unit and queue
// counters; the session stays at its cycle.
import { test, expect } from '@playwright/test';
import { watchConsole, open, stepUntil } from './helpers.js';
import { readFileSync } from 'node:fs';

test('the warp timeline exports a Perfetto trace of the run so far', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'divergence');
  await expect(page.locator('#cycle')).toHaveText('0');
  const at = await stepUntil(page, '(s) => s.cycle >= 300');
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
  // The memory tracks: the SM's L1D thread, the memory system's process with its L2 slices and
  // DRAM channels, each L1D lookup the report counts, and spans from request to reply.
  const mem = trace.otherData.memory_pid;
  expect(mem).toBe(report.per_sm.length);
  expect(events.some((e) => e.ph === 'M' && e.pid === 0 && e.args.name === 'L1D')).toBe(true);
  expect(events.some((e) => e.ph === 'M' && e.pid === mem && e.args.name === 'memory system')).toBe(true);
  expect(events.some((e) => e.ph === 'M' && e.pid === mem && e.args.name === 'L2 slice 0')).toBe(true);
  expect(events.some((e) => e.ph === 'M' && e.pid === mem && e.args.name === 'DRAM channel 0')).toBe(true);
  const l1d = events.filter((e) => e.cat === 'L1D' && e.ph !== 'e');
  expect(l1d.filter((e) => e.args.lookup === 'miss').length).toBe(report.l1d.misses);
  expect(l1d.filter((e) => ['hit', 'miss', 'merged'].includes(e.args.lookup)).length).toBe(report.l1d.accesses);
  const begins = events.filter((e) => e.ph === 'b');
  expect(begins.some((e) => e.name === 'L1D miss' && e.pid === 0)).toBe(true);
  expect(begins.some((e) => e.cat === 'L2' && e.pid === mem)).toBe(true);
  expect(begins.some((e) => e.cat === 'DRAM' && e.pid === mem)).toBe(true);
  const ends = new Map(events.filter((e) => e.ph === 'e').map((e) => [e.id, e]));
  for (const b of begins) expect(ends.get(b.id).ts).toBeGreaterThanOrEqual(b.ts);
  const counters = new Set(events.filter((e) => e.ph === 'C').map((e) => `${e.pid}:${e.name}`));
  for (const c of ['0:units busy', '0:in execution units', '0:L1D queues', `${mem}:interconnect packets`, `${mem}:L2 slice 0 queues`]) expect(counters.has(c), c).toBe(true);
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
