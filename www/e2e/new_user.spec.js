// What a new user hits: the keyboard shortcuts keep working after the mouse picks an example,
// touches the speed slider or presses Go; pasting your own kernel starts from a clean default
// machine with a clear first step (it needs a launch); the status says "running" only while it
// runs, and IPC says it counts thread instructions.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { watchConsole, open, cycle } from './helpers.js';

const VECTOR_ADD = readFileSync(new URL('../../tests/data/kernels/vector_add.sm_52.ptx', import.meta.url), 'utf8');

test('shortcuts work after choosing an example, touching the slider or pressing Go', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // Choose an example as a user would: the select has focus while it changes.
  await page.locator('#example').focus();
  await page.selectOption('#example', 'reduction');
  await expect(page.locator('#example')).toHaveValue('reduction');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#cycle')).toHaveText('1');
  await expect(page.locator('#example')).toHaveValue('reduction'); // → stepped, did not switch examples
  expect(await page.evaluate(() => document.activeElement === document.body)).toBe(true);
  // The speed slider, clicked with the mouse (slowest end), then Space runs and pauses.
  const slider = await page.locator('#speed').boundingBox();
  await page.mouse.click(slider.x + 2, slider.y + slider.height / 2);
  await expect(page.locator('#speed-label')).toHaveText('1/s');
  await page.keyboard.press(' ');
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'running');
  await expect(page.locator('#run-status')).toContainText('running');
  await page.keyboard.press(' ');
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'paused');
  await expect(page.locator('#speed-label')).toHaveText('1/s'); // Space did not move the slider
  // Go, clicked: the next → steps from there.
  await page.fill('#goto-cycle', '20');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('20');
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#cycle')).toHaveText('21');
  // Enter in the cycle field goes there and gives the keys back too.
  await page.fill('#goto-cycle', '30');
  await page.locator('#goto-cycle').press('Enter');
  await expect(page.locator('#cycle')).toHaveText('30');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#cycle')).toHaveText('29');
  // A button clicked (Step), then Space: runs (and does not press Step again).
  await page.click('#btn-step');
  await expect(page.locator('#cycle')).toHaveText('30');
  await page.keyboard.press(' ');
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'running');
  await page.keyboard.press(' ');
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'paused');
  expect(problems).toEqual([]);
});

test('pasting your own kernel starts from a clean default machine and says it needs a launch', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page); // the divergence example: warp size 4, 16 threads per CTA, its explanation
  expect(await page.evaluate(() => window.warpstep.app.config.core.warp_size)).toBe(4);
  await page.locator('#editor .cm-line').first().click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(VECTOR_ADD);
  await page.click('#btn-apply');
  // The first thing shown: what the kernel needs and where to put it, at the top of the page.
  const notice = page.locator('#notice');
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('Your kernel needs a launch');
  await expect(notice).toContainText('under Launch');
  await expect(notice).toContainText('--grid');
  await expect(notice).toContainText('launch error:');
  await expect(page.locator('#tab-setup')).toBeVisible();
  await expect(page.locator('#launch')).toBeInViewport();
  // No example left over: no overrides, no launch, the preset from the PTX, no explanation.
  await expect(page.locator('#example')).toHaveValue('');
  await expect(page.locator('#overrides')).toHaveValue('');
  await expect(page.locator('#launch')).toHaveValue('');
  await expect(page.locator('#preset')).toHaveValue('');
  await expect(page.locator('#example-about')).toContainText('Your own kernel, on a clean default machine');
  await expect(page.locator('#example-about')).not.toContainText('Aamodt');
  await page.screenshot({ path: '../target/e2e/new-user-paste.png' });
  // Following the message: a launch in the Setup tab, Apply. The machine is the default one.
  await page.fill('#launch', '--grid 1 --block 64 --arg f32[64]=iota --arg f32[64]=iota --arg f32[64]=0 --arg 64');
  await page.click('#btn-apply-setup');
  await expect(notice).toBeHidden();
  await expect(page.locator('#input-error')).toBeHidden();
  const core = await page.evaluate(() => window.warpstep.app.config.core);
  expect(core.warp_size).toBe(32);
  expect(core.max_threads_per_cta).not.toBe(16);
  const snap = await page.evaluate(() => JSON.parse(window.warpstep.app.session.snapshot(0)));
  expect(snap.warp_size).toBe(32);
  expect(snap.cycle).toBe(0);
  expect(problems).toEqual([]);
});

test('editing an example (same kernel) keeps its machine', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.evaluate(() => {
    const ed = window.warpstep.app.editor;
    ed.setText(`// my note\n${ed.getText()}`);
  });
  await page.click('#btn-apply');
  await expect(page.locator('#notice')).toBeHidden();
  expect(await page.evaluate(() => window.warpstep.app.config.core.warp_size)).toBe(4);
  await expect(page.locator('#overrides')).toHaveValue(/core\.warp_size=4/);
  expect(problems).toEqual([]);
});

test('the status says ready, running or paused truthfully, with IPC in thread instructions', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  const status = page.locator('#run-status');
  expect(await status.textContent()).toBe('ready\nIPC 0.00 thread instr/cycle');
  await expect(status).toHaveAttribute('title', /thread instructions per cycle, all SMs together/);
  await page.fill('#step-n', '300');
  await page.click('#btn-step-n');
  expect(await status.textContent()).toMatch(/^paused\nIPC \d+\.\d\d thread instr\/cycle$/);
  await expect(status).toHaveAttribute('title', /Paused at cycle 300/);
  const ipc = await page.evaluate(() => JSON.parse(window.warpstep.app.session.snapshot(0)).stats.ipc);
  expect(await status.textContent()).toContain(`IPC ${ipc.toFixed(2)} thread instr/cycle`);
  // Slow motion: "running" while it runs, "paused" once paused.
  await page.locator('#speed').fill('2');
  await page.click('#btn-run');
  await expect(status).toContainText('running');
  await page.screenshot({ path: '../target/e2e/status-running.png' });
  await page.click('#btn-run');
  await expect(status).toContainText('paused');
  const at = await cycle(page);
  await page.waitForTimeout(400);
  expect(await cycle(page)).toBe(at);
  await expect(status).toContainText('paused');
  await page.locator('#run-status').screenshot({ path: '../target/e2e/status-paused.png' });
  expect(problems).toEqual([]);
});
