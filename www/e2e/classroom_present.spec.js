// In front of a class, what remained of issue 30: the top bar of a multi-SM run keeps one row
// at 1280 px, running and at 7-digit cycles; the SIMT deadlock lesson's banner leaves the view it
// outlines uncovered and its last step's view shows the warp; the Memory view's legend does not
// overlap the miss queue at presentation zoom. Screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, settle, spinKernel } from './helpers.js';

const SHOTS = '../target/e2e';

// The top bar's height and how many rows its shown children stand on.
async function topbarRows(page) {
  return page.evaluate(() => {
    const bar = document.querySelector('.topbar');
    const mids = [...bar.children].filter((e) => e.offsetParent !== null).map((e) => { const r = e.getBoundingClientRect(); return r.top + r.height / 2; });
    return { h: Math.round(bar.getBoundingClientRect().height), rows: new Set(mids.map((m) => Math.round(m / 12))).size };
  });
}

// A loop of `n` iterations on one thread, on the gtx480 preset's 15 SMs (the SM selector shows).
const spin = (n) => spinKernel(n, { grid: 2, config: 'gtx480' });

test('a multi-SM run: the top bar keeps one row and its height at 1280 px, running and at 7 digits', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const single = await topbarRows(page);
  expect(single.rows).toBe(1);
  // The Whole GTX480 example: its long name and the SM selector.
  await page.selectOption('#example', 'whole-gpu');
  await expect(page.locator('#sm-select')).toBeVisible();
  await settle(page);
  const start = await topbarRows(page);
  expect(start.rows).toBe(1);
  expect(start.h).toBe(single.h);
  await page.screenshot({ path: `${SHOTS}/classroom-topbar-multi-sm.png`, clip: { x: 0, y: 0, width: 1280, height: 60 } });
  // Running: the speed meter's numbers under the cycle do not widen the bar.
  await page.locator('#speed').fill('4');
  await page.click('#btn-run');
  await expect(page.locator('#perf')).toHaveClass(/live/);
  await expect(page.locator('#perf')).toContainText(/[0-9] cycles\/s/, { timeout: 10_000 });
  expect(await topbarRows(page)).toEqual(start);
  await page.click('#btn-run');
  // Past a million cycles on 15 SMs.
  await page.evaluate((t) => { window.warpstep.app.editor.setText(t); window.warpstep.app.apply(); }, spin(180000));
  await expect(page.locator('body')).not.toHaveAttribute('data-input-error');
  await expect(page.locator('#sm-select option')).toHaveCount(15);
  await page.fill('#goto-cycle', '1000000');
  await page.click('#btn-goto');
  await expect(page.locator('body')).toHaveAttribute('data-cycle', '1000000', { timeout: 60_000 });
  await expect(page.locator('#cycle')).toHaveText('1000000');
  expect(await topbarRows(page)).toEqual(start);
  // The SM selector shows its longest name whole, and the example select its name.
  const fits = await page.evaluate(() => ['sm-select', 'example'].map((id) => {
    const sel = document.getElementById(id);
    const cs = getComputedStyle(sel);
    const ctx = document.createElement('canvas').getContext('2d');
    ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
    const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
    return { id, room, widest: Math.max(...[...sel.options].map((o) => ctx.measureText(o.textContent).width)) };
  }));
  for (const f of fits) expect(f.widest, f.id).toBeLessThanOrEqual(f.room);
  await page.selectOption('#sm-select', '14');
  expect(await topbarRows(page)).toEqual(start);
  await page.screenshot({ path: `${SHOTS}/classroom-topbar-multi-sm-7-digits.png`, clip: { x: 0, y: 0, width: 1280, height: 60 } });
  expect(problems).toEqual([]);
});

// Waits for step n of lesson `id` in presentation mode, paused at its cycle, the large panel fitted.
async function presentStep(page, id, n) {
  await open(page, `/#lesson=${id}&step=${n}&present=1`);
  const body = page.locator('body');
  await expect(body).toHaveAttribute('data-lesson-step', String(n));
  await expect(body).toHaveAttribute('data-run-state', 'paused', { timeout: 60_000 });
  await expect(body).toHaveAttribute('data-cycle', await body.getAttribute('data-lesson-cycle'), { timeout: 60_000 });
  await page.waitForTimeout(300);
  await expect(body).not.toHaveAttribute('data-present-fitting', 'yes');
  await page.waitForTimeout(150);
}

// The box of each selector's first element (null when absent or hidden), with its own scroll.
async function boxesOf(page, sels) {
  return page.evaluate((list) => Object.fromEntries(list.map((s) => {
    const el = document.querySelector(s);
    if (!el || !el.checkVisibility()) return [s, null];
    const r = el.getBoundingClientRect();
    return [s, { top: r.top, bottom: r.bottom, left: r.left, right: r.right, scrollTop: el.scrollTop, scrollHeight: el.scrollHeight, clientHeight: el.clientHeight }];
  })), sels);
}

for (const [w, h] of [[1280, 720], [1920, 1080]]) {
  test(`SIMT deadlock step 2 at ${w}x${h}: the deadlock banner leaves the outlined SIMT view whole`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: w, height: h });
    await presentStep(page, 'simt_deadlock', 2);
    await expect(page.locator('#banner')).toContainText('deadlock');
    const b = await boxesOf(page, ['#banner', '#view-simt', '#view-simt .lesson-target', '#present-caption']);
    const view = b['#view-simt'];
    // Under the banner, above the caption, and whole: its top not scrolled away, nothing cut.
    expect(view.top).toBeGreaterThanOrEqual(b['#banner'].bottom - 1);
    expect(view.bottom).toBeLessThanOrEqual(b['#present-caption'].top + 1);
    expect(view.scrollTop).toBe(0);
    expect(view.scrollHeight).toBeLessThanOrEqual(view.clientHeight + 1);
    const target = b['#view-simt .lesson-target'];
    expect(target.top).toBeGreaterThanOrEqual(view.top);
    expect(target.bottom).toBeLessThanOrEqual(view.bottom);
    // The banner is still large type, its whole text a click (or its tooltip) away.
    const banner = page.locator('#banner');
    expect(await banner.evaluate((e) => parseFloat(getComputedStyle(e).fontSize))).toBeGreaterThanOrEqual(20);
    expect(await banner.getAttribute('title')).toContain('SIMT stack');
    await page.screenshot({ path: `${SHOTS}/classroom-deadlock-step2-${w}.png` });
    await banner.click();
    await expect(banner).toHaveClass(/open/);
    expect(problems).toEqual([]);
  });

  test(`SIMT deadlock step 5 at ${w}x${h}: the outlined view shows the run's result, as the caption says`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: w, height: h });
    await presentStep(page, 'simt_deadlock', 5);
    await expect(page.locator('body')).toHaveAttribute('data-status', 'completed');
    const outlined = await page.locator('.view.lesson-highlight').getAttribute('id');
    expect(outlined).toBe('view-buffers');
    // The counter the caption cites, as the model gives it: 4, marked as changed.
    const m = JSON.parse(await page.locator('#view-buffers').getAttribute('data-model'));
    const counter = m.buffers.find((b) => b.arg === 1);
    expect(counter.values[0]).toBe(4);
    expect(counter.changed).toContain(0);
    await expect(page.locator('#present-caption .present-text')).toContainText('holds 4');
    await expect(page.locator('#view-buffers .buffer-cell.changed')).toContainText('4');
    // Nothing in it says there is no warp.
    await expect(page.locator('#view-buffers')).not.toContainText('No warp');
    const b = await boxesOf(page, ['#view-buffers', '#present-caption']);
    expect(b['#view-buffers'].bottom).toBeLessThanOrEqual(b['#present-caption'].top + 1);
    await page.screenshot({ path: `${SHOTS}/classroom-deadlock-step5-${w}.png` });
    expect(problems).toEqual([]);
  });

  test(`the Memory view's legend overlaps neither the MSHRs nor the miss queue when presented at ${w}x${h}`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: w, height: h });
  for (const [lesson, step] of [['register_banks', 3], ['coalescing', 1]]) {
    // A small L1D (the teaching machine's 4 sets) beside its queues, and a large one.
    await presentStep(page, lesson, step);
    await expect(page.locator('body')).toHaveAttribute('data-present-main', 'memory');
    const r = await page.evaluate(async () => {
      const { GLOSSARY } = await import('/src/glossary.js');
      const c = document.querySelector('#view-memory canvas');
      const legend = ['invalid', 'reserved', 'valid', 'modified'].map((n) => c.regions.find((g) => g.tip === GLOSSARY[`line_${n}`]));
      const queues = c.regions.filter((g) => typeof g.tip === 'string' && (g.tip.startsWith(GLOSSARY.mshr) || g.tip.startsWith(GLOSSARY.missqueue)));
      const cells = c.regions.filter((g) => typeof g.tip === 'function');
      const drawn = (c.drawn || []).map((d) => d.t);
      const rect = (g) => g && { x: g.x, y: g.y, w: g.w, h: g.h };
      return { legend: legend.map(rect), queues: queues.map(rect), cells: cells.map(rect), drawn, height: c.getBoundingClientRect().height / c.zoom };
    });
    expect(r.legend.every(Boolean)).toBe(true);
    expect(r.queues.length).toBeGreaterThan(2);
    const overlap = (a, b) => a.x < b.x + b.w && b.x < a.x + a.w && a.y < b.y + b.h && b.y < a.y + a.h;
    for (const l of r.legend) {
      for (const q of [...r.queues, ...r.cells]) expect(overlap(l, q), JSON.stringify([l, q])).toBe(false);
      expect(l.y + l.h).toBeLessThanOrEqual(r.height);
    }
    expect(r.drawn).toContain('digit: LRU rank (0 = most recent)');
    await page.locator('#view-memory').screenshot({ path: `${SHOTS}/classroom-memory-legend-${lesson}-${w}.png` });
  }
    expect(problems).toEqual([]);
  });
}
