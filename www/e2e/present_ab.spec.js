// Presentation mode in the A/B mode (issue 30, "A/B in presentation mode"): the chosen large
// panel is shown as its two columns, A's beside B's under the column heads, both magnified as
// presentation mode magnifies one panel (canvas text of 20 px or more), above the caption; V and
// the number keys pick another panel, also one the A/B form did not choose; Esc gives back the
// A/B columns as they were. At 1280x720 and 1920x1080.
import { test, expect } from '@playwright/test';
import { open, watchConsole, settle } from './helpers.js';

const SHOTS = '../target/e2e';

// The boxes of the two large panels and the caption, their zoom and each one's largest text.
async function pairBoxes(page) {
  return page.evaluate(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { left: r.left, right: r.right, top: r.top, bottom: r.bottom, width: r.width }; };
    const large = [...document.querySelectorAll('#ab-views .view[data-present=main]')];
    const largest = (el) => Math.max(0, ...[...el.querySelectorAll('canvas')].flatMap((c) => c.drawn || []).map((d) => d.px));
    return {
      ids: large.map((el) => el.id),
      boxes: large.map(box),
      visible: large.map((el) => el.checkVisibility()),
      largest: large.map(largest),
      zooms: large.map((el) => Number(el.dataset.canvasZoom)),
      zoom: Number(document.body.dataset.presentZoom),
      caption: box(document.getElementById('present-caption')),
      heads: box(document.querySelector('#ab-views .ab-heads')),
      diff: document.getElementById('ab-diff').checkVisibility(),
    };
  });
}

async function fitted(page) {
  await expect(page.locator('body')).not.toHaveAttribute('data-present-fitting', 'yes');
  await page.waitForTimeout(200);
  await settle(page);
}

// The pair of `id` is on screen side by side, magnified, above the caption.
async function expectPair(page, id) {
  const p = await pairBoxes(page);
  expect(p.ids).toEqual([`ab-a-${id}`, `ab-b-${id}`]);
  expect(p.visible).toEqual([true, true]);
  const [a, b] = p.boxes;
  expect(a.right).toBeLessThanOrEqual(b.left + 1);
  expect(Math.abs(a.top - b.top)).toBeLessThanOrEqual(1);
  expect(a.width).toBeGreaterThan(300);
  for (const r of p.boxes) {
    expect(r.bottom).toBeLessThanOrEqual(p.caption.top + 1);
    expect(r.top).toBeGreaterThanOrEqual(p.heads.bottom - 1);
  }
  // Magnified as presentation mode magnifies one panel: both at its zoom (1.45 or more), the
  // titles at 20 px or more.
  expect(p.zoom).toBeGreaterThanOrEqual(1.45);
  expect(p.zooms).toEqual([p.zoom, p.zoom]);
  for (const m of p.largest) expect(m).toBeGreaterThanOrEqual(20);
  expect(p.diff).toBe(false);
  return p;
}

for (const [w, h] of [[1280, 720], [1920, 1080]]) {
  test(`A/B in presentation mode at ${w}x${h}: the large panel's two columns, magnified, above the caption`, async ({ page }) => {
    const problems = watchConsole(page);
    await page.setViewportSize({ width: w, height: h });
    await open(page);
    await page.selectOption('#example', 'transpose-naive');
    await page.fill('#goto-cycle', '1129');
    await page.click('#btn-goto');
    await expect(page.locator('#cycle')).toHaveText('1129', { timeout: 15_000 });
    await page.click('#btn-ab');
    await page.click('.ab-preset[data-preset=hash]');
    await expect(page.locator('body')).toHaveAttribute('data-ab-cycles', '1129,1129', { timeout: 15_000 });
    const rows = await page.evaluate(() => window.warpstep.app.ab.cells.map((c) => c.id));

    // Entering with the bank grid enlarged: its two columns are the large panel.
    await page.evaluate(() => window.warpstep.app.present.fromUrl('banks,pipeline'));
    await expect(page.locator('body')).toHaveAttribute('data-present', 'on');
    await expect(page.locator('body')).toHaveClass(/present-ab/);
    await fitted(page);
    await expectPair(page, 'banks');
    await expect(page.locator('#ab-head-a')).toBeVisible();
    await expect(page.locator('#ab-head-b')).toBeVisible();
    await page.screenshot({ path: `${SHOTS}/present-ab-${w}.png` });

    // V: the pipeline's pair; a step moves both columns.
    await page.keyboard.press('v');
    await expect(page.locator('body')).toHaveAttribute('data-present-main', 'pipeline');
    await fitted(page);
    await expectPair(page, 'pipeline');
    await page.keyboard.press('ArrowRight');
    await expect(page.locator('body')).toHaveAttribute('data-ab-cycles', '1130,1130');

    // A panel the A/B form did not choose (the SIMT stack, key 2): a pair is made for it.
    expect(rows).not.toContain('simt');
    await page.keyboard.press('2');
    await page.click('.present-chip[data-panel=simt]');
    await expect(page.locator('body')).toHaveAttribute('data-present-main', 'simt');
    await fitted(page);
    await expectPair(page, 'simt');
    await page.screenshot({ path: `${SHOTS}/present-ab-simt-${w}.png` });

    // Esc: the A/B columns as they were, nothing magnified, the form and the table back.
    await page.keyboard.press('Escape');
    await expect(page.locator('body')).not.toHaveAttribute('data-present', 'on');
    await settle(page);
    expect(await page.evaluate(() => window.warpstep.app.ab.cells.map((c) => c.id))).toEqual(rows);
    expect(await page.locator('#ab-views [data-canvas-zoom]').count()).toBe(0);
    await expect(page.locator('#ab-diff')).toBeVisible();
    await expect(page.locator('#ab-bar')).toBeVisible();
    await expect(page.locator('body')).not.toHaveClass(/present-ab/);
    expect(problems).toEqual([]);
  });
}
