// The configuration panel lists the presets and shows the CLI's validation errors.
import { test, expect } from '@playwright/test';

test('preset picker and overrides use the Rust validation', async ({ page }) => {
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(msg.text()); });
  page.on('pageerror', (err) => problems.push(String(err)));

  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#preset option')).toHaveText([
    'fermi', 'tesla-c2050-s', 'tesla-c2050-l', 'elastic-cf11', 'unified-micro12', 'teaching',
  ]);
  await page.selectOption('#preset', 'teaching');
  await expect(page.locator('#config-json')).toContainText('"warp_size": 8');
  await page.fill('#overrides', 'core.warp_size=33');
  await expect(page.locator('#config-error')).toHaveText('core.warp_size = 33: must be a power of two in 1..=64');
  await page.fill('#overrides', 'shmem.banks=16');
  await expect(page.locator('#config-error')).toBeHidden();
  await expect(page.locator('#config-json')).toContainText('"banks": 16');
  await page.screenshot({ path: '../target/e2e/config.png' });
  expect(problems).toEqual([]);
});
