// The app end to end in Debian's Chromium: every example steps forwards and backwards and runs
// to the end; the divergence example shows its SIMT stack push; breakpoints, share links, a
// broken PTX and a damaged link behave; no console errors; a screenshot of every view.
import { test, expect } from '@playwright/test';
import { watchConsole, open, snapshot, model, runToEnd, settle, stepUntil } from './helpers.js';

const EXAMPLES = ['divergence', 'transpose-naive', 'transpose-padded', 'transpose-hash', 'reduction', 'shuffle', 'vector-add', 'stride-1', 'stride-32', 'column-walk', 'elastic-timeline', 'pathfinder', 'spinlock', 'spinlock_barriers', 'volta_paths'];
const VIEWS = ['pipeline', 'simt', 'timeline', 'banks', 'hash', 'search', 'memory', 'stats', 'mrpb'];

for (const id of EXAMPLES) {
  test(`example ${id}: step 10, back 5, run to the end`, async ({ page }) => {
    const problems = watchConsole(page);
    await open(page);
    await page.selectOption('#example', id);
    await expect(page.locator('#cycle')).toHaveText('0');
    await page.fill('#step-n', '5');
    await page.click('#btn-step-n');
    const atFive = await snapshot(page);
    await page.click('#btn-step-n');
    await expect(page.locator('#cycle')).toHaveText('10');
    await page.locator('body').press('Shift+ArrowLeft');
    await expect(page.locator('#cycle')).toHaveText('5');
    expect(await snapshot(page)).toEqual(atFive);
    await runToEnd(page);
    const status = await page.locator('body').getAttribute('data-status');
    if (id === 'spinlock') {
      expect(status).toBe('failed');
      await expect(page.locator('#banner')).toContainText('deadlock');
    } else {
      expect(status).toBe('completed');
      await expect(page.locator('#run-status')).toContainText('completed');
    }
    expect(problems).toEqual([]);
  });
}

test('the divergence example pushes and pops the SIMT stack', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await expect(page.locator('#example')).toHaveValue('divergence');
  let deepest = 0;
  let pushed = false;
  let animated = false;
  for (let i = 0; i < 200 && (await page.locator('body').getAttribute('data-status')) === 'running'; i++) {
    await page.locator('body').press('ArrowRight');
    const m = await model(page, 'simt');
    deepest = Math.max(deepest, m.depth);
    pushed ||= m.changed === 'push';
    // A single step animates the push (entries slide and fade in over a third of a second).
    animated ||= m.changed === 'push' && m.animated;
    if (m.depth === 3) {
      // After the first branch (book Fig. 3.4): [(G,-,1111), (F,G,0001), (B,G,1110) top].
      expect(m.entries.map((e) => e.mask)).toEqual(['0x0000000f', '0x00000008', '0x00000007']);
      break;
    }
  }
  expect(pushed).toBe(true);
  expect(animated).toBe(true);
  expect(deepest).toBe(3);
  await page.waitForTimeout(400);
  await page.locator('#view-simt').screenshot({ path: '../target/e2e/view-simt-divergence.png' });
  expect(problems).toEqual([]);
});

test('a load waiting for memory says so in the pipeline view, not a ready cycle of 2^64', async ({ page }) => {
  // Issue 17: the model exported u64::MAX (18446744073709552000 in JavaScript) as the ready
  // cycle of a load whose reads were still out; it now exports null and the view says why.
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'vector-add');
  await expect(page.locator('#cycle')).toHaveText('0');
  const waiting = '(s) => s.sm.units.some((u) => u.kind === "LD/ST" && u.in_flight.some((f) => f.ready_at === null))';
  await stepUntil(page, waiting, 5_000);
  const snap = JSON.parse(await snapshot(page));
  const ldst = snap.sm.units.find((u) => u.kind === 'LD/ST');
  expect(ldst.in_flight.some((f) => f.ready_at === null)).toBe(true);
  expect(JSON.stringify(snap)).not.toContain('18446744073709552000');
  const canvas = page.locator('#view-pipeline canvas').first();
  await canvas.scrollIntoViewIfNeeded();
  await settle(page);
  const tips = await canvas.evaluate((c) => c.regions.map((r) => (typeof r.tip === 'function' ? r.tip() : r.tip)).filter((t) => typeof t === 'string'));
  const unit = tips.find((t) => t.includes('LD/ST:'));
  expect(unit).toContain('waiting for memory');
  expect(tips.join('\n')).not.toContain('18446744073709552000');
  expect(problems).toEqual([]);
});

test('a breakpoint stops the run where its line issues', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const listing = await page.evaluate(() => JSON.parse(window.warpstep.app.session.listing()));
  const line = listing.instr_lines[Math.floor(listing.instr_lines.length / 2)];
  await page.locator('#editor .cm-lineNumbers .cm-gutterElement', { hasText: new RegExp(`^${line}$`) }).click();
  await expect(page.locator('body')).toHaveAttribute('data-breakpoints', String(line));
  await page.click('#btn-run');
  // The divergence example shows Figure 3.2 beside its PTX: the status names both lines.
  await expect(page.locator('#run-status')).toHaveText(new RegExp(`^breakpoint: (CUDA line \\d+, PTX line|line) ${line}$`), { timeout: 15_000 });
  const m = await model(page, 'pipeline');
  expect(m.schedulers.some((s) => s.startsWith('W'))).toBe(true);
  await expect(page.locator('#editor .cm-breakpoint')).toHaveCount(1);
  expect(await page.locator('body').getAttribute('data-status')).toBe('running');
  expect(problems).toEqual([]);
});

test('a share link restores the kernel, the cycle and the snapshot', async ({ page, context }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  await page.fill('#goto-cycle', '1234');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('1234', { timeout: 15_000 });
  await page.locator('body').press('w');
  const before = await snapshot(page);
  await page.click('#btn-share');
  const url = await page.locator('body').getAttribute('data-share-url');
  expect(url).toContain('#s=');

  const other = await context.newPage();
  const problems2 = watchConsole(other);
  await open(other, url);
  await expect(other.locator('#cycle')).toHaveText('1234');
  await expect(other.locator('#example')).toHaveValue('transpose-naive');
  expect(await snapshot(other)).toEqual(before);
  expect(await other.evaluate(() => window.warpstep.app.warp)).toBe(1);
  expect(problems).toEqual([]);
  expect(problems2).toEqual([]);
});

test('a damaged share link shows an error and the default example', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, '/#s=eJyrVkpUslIqSS0uUaoFAB2pBCs');
  await expect(page.locator('#notice')).toBeVisible();
  await expect(page.locator('#notice')).toContainText('This link cannot be opened');
  await expect(page.locator('#example')).toHaveValue('divergence');
  await expect(page.locator('#cycle')).toHaveText('0');
  expect(problems).toEqual([]);
});

test('a broken PTX shows the error at its line and keeps the last good state', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.fill('#step-n', '7');
  await page.click('#btn-step-n');
  const good = await snapshot(page);
  // Break line 43 (`mov.u32 %id, %tid.x;`) of the book example.
  const lines = await page.evaluate(() => window.warpstep.app.editor.getText().split('\n'));
  const target = lines.findIndex((l) => l.includes('%tid.x')) + 1;
  await page.evaluate((n) => {
    const ed = window.warpstep.app.editor;
    const text = ed.getText().split('\n');
    text[n - 1] = text[n - 1].replace('mov.u32', 'mvo.u32');
    ed.setText(text.join('\n'));
  }, target);
  await page.click('#btn-apply');
  await expect(page.locator('#input-error')).toContainText(`line ${target}`);
  await expect(page.locator('body')).toHaveAttribute('data-error-line', String(target));
  await expect(page.locator('#editor .cm-error-line')).toHaveCount(1);
  await expect(page.locator('#cycle')).toHaveText('7');
  expect(await snapshot(page)).toEqual(good);
  await page.locator('#tab-code').screenshot({ path: '../target/e2e/editor-error.png' });
  expect(problems).toEqual([]);
});

test('a launch error names the flag; keyboard help lists the shortcuts', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.click('.tab[data-tab=setup]');
  await page.fill('#launch', '--grid 0');
  await page.click('#btn-apply-setup');
  await expect(page.locator('#config-error')).toContainText('--grid 0:');
  await page.locator('body').press('?');
  await expect(page.locator('#help')).toBeVisible();
  await expect(page.locator('#help-table tr')).toHaveCount(31); // 18, A for A/B, N / P for lessons, Shift+P; presentation mode's heading and its 8 keys
  await page.screenshot({ path: '../target/e2e/help.png' });
  await page.locator('body').press('Escape');
  await expect(page.locator('#help')).toBeHidden();
  expect(problems).toEqual([]);
});

test('screenshots of every view', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  await page.fill('#goto-cycle', '1500');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('1500', { timeout: 15_000 });
  await page.screenshot({ path: '../target/e2e/app.png' });
  for (const v of VIEWS) {
    const el = page.locator(`#view-${v}`);
    await el.scrollIntoViewIfNeeded();
    await settle(page);
    await el.screenshot({ path: `../target/e2e/view-${v}.png` });
  }
  const banks = await model(page, 'banks');
  expect(banks.degree).toBe(32);
  // Hover explains: a scheduler box, then a lane of the bank grid.
  const pipeline = page.locator('#view-pipeline canvas');
  await pipeline.scrollIntoViewIfNeeded();
  const box = await pipeline.boundingBox();
  const cols = (box.width - 16 * 6) * 0.18 + 16 * 2;
  await page.mouse.move(box.x + cols + 30, box.y + 50);
  await expect(page.locator('#tooltip')).toContainText('Warp scheduler');
  await page.screenshot({ path: '../target/e2e/hover.png' });
  expect(problems).toEqual([]);
});
