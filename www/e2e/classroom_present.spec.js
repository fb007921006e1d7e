// In front of a class, what remained of issue 30: the top bar of a multi-SM run keeps one row
// at 1280 px, running and at 7-digit cycles; the SIMT deadlock lesson's banner leaves the view it
// outlines uncovered and its last step's view shows the warp; the Memory view's legend does not
// overlap the miss queue at presentation zoom. Screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, settle } from './helpers.js';

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
const spin = (n) => `.version 7.0
.target sm_52
.address_size 64
// warpstep: --config gtx480 --grid 2 --block 1 --arg ${n}
.visible .entry spin(.param .u32 n)
{
  .reg .u32 %r<4>;
  .reg .pred %p<2>;
  ld.param.u32 %r1, [n];
  mov.u32 %r2, 0;
LOOP:
  add.u32 %r2, %r2, 1;
  setp.lt.u32 %p1, %r2, %r1;
  @%p1 bra LOOP;
  ret;
}
`;

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
