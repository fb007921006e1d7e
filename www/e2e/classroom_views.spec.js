// Views a teacher expects (issue 30, item 6): the kernel's output buffers with the changed values
// marked (at any cycle and after the run), the whole-GPU strip (each SM's CTAs, IPC and state;
// a click selects the SM), a lesson's printable handout. The speed meter is in classroom.spec.js.
// Screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, settle, runToEnd } from './helpers.js';

const SHOTS = '../target/e2e';

test('output buffers: the model\'s values at any cycle, the changed ones marked', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // The divergence example: out (arg 2) is u32[12], all 0 at the launch.
  let m = await model(page, 'buffers');
  expect(m.cycle).toBe(0);
  expect(m.buffers.map((b) => [b.arg, b.name, b.elem, b.count])).toEqual([
    [0, 'data1', 'u32', 4], [1, 'data2', 'u32', 4], [2, 'out', 'u32', 12],
  ]);
  expect(m.buffers.every((b) => b.changed_count === 0)).toBe(true);
  expect(m.buffers[0].values).toEqual([1, 1, 1, 0]);
  await runToEnd(page);
  await expect(page.locator('body')).toHaveAttribute('data-status', 'completed');
  m = await model(page, 'buffers');
  // What warpstep run --dump 2 gives after the run (the model's own report agrees).
  const report = await page.evaluate(() => JSON.parse(window.warpstep.app.session.reportWithBuffers(Uint32Array.from([2]))));
  const out = m.buffers[2];
  expect(out.values).toEqual(report.buffers['2']);
  expect(out.changed).toEqual(out.values.map((v, i) => (v !== 0 ? i : -1)).filter((i) => i >= 0));
  expect(out.changed_count).toBeGreaterThan(0);
  // The inputs were not written.
  expect(m.buffers[0].changed_count).toBe(0);
  const cells = page.locator('#view-buffers .buffer[data-arg="2"] .buffer-cell');
  await expect(cells).toHaveCount(12);
  await expect(page.locator('#view-buffers .buffer[data-arg="2"] .buffer-cell.changed')).toHaveCount(out.changed_count);
  await expect(page.locator('#view-buffers .buffer[data-arg="2"] .buffer-head')).toContainText(`${out.changed_count} of 12 changed`);
  await page.locator('#view-buffers').screenshot({ path: `${SHOTS}/classroom-buffers.png` });
  // Stepping back shows the buffers as they were then.
  await page.fill('#goto-cycle', '5');
  await page.click('#btn-goto');
  await expect(page.locator('body')).toHaveAttribute('data-cycle', '5');
  m = await model(page, 'buffers');
  expect(m.cycle).toBe(5);
  expect(m.buffers[2].changed_count).toBe(0);
  expect(problems).toEqual([]);
});

test('whole GPU strip: each SM\'s CTAs, IPC and state from the model; a click selects the SM', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await expect(page.locator('#view-gpu')).toBeHidden();
  await page.selectOption('#example', 'whole-gpu');
  await expect(page.locator('#view-gpu')).toBeVisible();
  await page.fill('#goto-cycle', '400');
  await page.click('#btn-goto');
  await expect(page.locator('body')).toHaveAttribute('data-cycle', '400', { timeout: 20_000 });
  let m = await model(page, 'gpu');
  expect(m.sms.length).toBe(15);
  const snap = await page.evaluate(() => JSON.parse(window.warpstep.app.session.snapshot(0)));
  m.sms.forEach((s, i) => {
    expect(s.sm).toBe(i);
    expect(s.ipc).toBeCloseTo(snap.stats.per_sm[i].ipc, 9);
    expect(s.warp_instructions).toBe(snap.stats.per_sm[i].warp_instructions);
  });
  // 30 CTAs on 15 SMs: every SM holds CTAs at cycle 400.
  expect(m.sms.every((s) => s.state === 'busy' && s.resident_ctas > 0)).toBe(true);
  await expect(page.locator('#view-gpu .gpu-sm')).toHaveCount(15);
  await page.locator('#view-gpu').screenshot({ path: `${SHOTS}/classroom-gpu-strip.png` });
  // Click SM 7: the other views show SM 7.
  await page.locator('#view-gpu .gpu-sm[data-sm="7"]').click();
  await expect(page.locator('#sm-select')).toHaveValue('7');
  expect(await page.evaluate(() => window.warpstep.app.sm)).toBe(7);
  await expect(page.locator('#view-gpu .gpu-sm[data-sm="7"]')).toHaveClass(/selected/);
  // At the end, every SM is done with its two CTAs.
  await runToEnd(page);
  m = await model(page, 'gpu');
  expect(m.sms.map((s) => [s.state, s.ctas_done, s.resident_ctas])).toEqual(Array(15).fill(['done', 2, 0]));
  expect(problems).toEqual([]);
});

test('a lesson handout: every step\'s text, question and picture, printable', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, '/#lesson=divergence&step=2');
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '2');
  const lesson = await page.evaluate(() => window.warpstep.app.lessons.lesson);
  await page.click('#lesson .lesson-handout');
  await expect(page.locator('body')).toHaveAttribute('data-handout', 'ready', { timeout: 25_000 });
  const steps = page.locator('#handout .handout-step');
  await expect(steps).toHaveCount(lesson.steps.length);
  for (let i = 0; i < lesson.steps.length; i++) {
    const s = steps.nth(i);
    await expect(s.locator('.handout-text')).toHaveText(lesson.steps[i].text);
    if (lesson.steps[i].question) await expect(s.locator('.handout-question')).toHaveText(`Question: ${lesson.steps[i].question}`);
    const img = await s.locator('img').evaluate((e) => ({ w: e.naturalWidth, h: e.naturalHeight, src: e.src.slice(0, 22) }));
    expect(img.src).toBe('data:image/png;base64,');
    expect(img.w).toBeGreaterThan(200);
    expect(img.h).toBeGreaterThan(50);
  }
  // The player is back on the step it was on.
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '2');
  await page.screenshot({ path: `${SHOTS}/classroom-handout.png` });
  // Printed: the handout alone.
  await page.emulateMedia({ media: 'print' });
  await expect(page.locator('#app')).toBeHidden();
  await expect(page.locator('#handout')).toBeVisible();
  await expect(page.locator('#handout .handout-bar')).toBeHidden();
  await page.pdf({ path: `${SHOTS}/classroom-handout.pdf` }).catch(() => {});
  await page.emulateMedia({ media: 'screen' });
  await page.click('#handout .handout-close');
  await expect(page.locator('#handout')).toHaveCount(0);
  await settle(page);
  expect(problems).toEqual([]);
});
