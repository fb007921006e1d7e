// The configuration panel lists the presets and shows the CLI's validation errors.
import { test, expect } from '@playwright/test';
import { watchConsole, open } from './helpers.js';

test('preset picker and overrides use the Rust validation', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.click('.tab[data-tab=setup]');
  await expect(page.locator('#preset option')).toHaveText([
    '(as the PTX says, else fermi)', 'fermi', 'gtx480', 'tesla-c2050-s', 'tesla-c2050-l', 'elastic-cf11', 'unified-micro12', 'teaching',
  ]);
  await page.selectOption('#preset', 'teaching');
  await page.fill('#overrides', '');
  await expect(page.locator('#config-json')).toContainText('"warp_size": 8');
  await expect(page.locator('#f-warp')).toHaveValue('8');
  await page.fill('#overrides', 'core.warp_size=33');
  await expect(page.locator('#config-error')).toHaveText('core.warp_size = 33: must be a power of two in 1..=64');
  await page.fill('#overrides', 'shmem.banks=16');
  await expect(page.locator('#config-error')).toBeHidden();
  await expect(page.locator('#config-json')).toContainText('"banks": 16');
  await page.fill('#f-sched', '2');
  await page.locator('#f-sched').dispatchEvent('change');
  await expect(page.locator('#overrides')).toHaveValue('shmem.banks=16\ncore.schedulers_per_sm=2');
  await page.screenshot({ path: '../target/e2e/config.png' });
  expect(problems).toEqual([]);
});
