// The page loads, the wasm module initialises and reports its version, and the console stays clean.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';

const cargoVersion = readFileSync(new URL('../../Cargo.toml', import.meta.url), 'utf8')
  .match(/^version = "([^"]+)"/m)[1];

test('loads the wasm module and shows its version', async ({ page }) => {
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(msg.text()); });
  page.on('pageerror', (err) => problems.push(String(err)));
  page.on('response', (res) => { if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`); });

  await page.goto('/');
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true');
  await expect(page.locator('#version')).toHaveText(`v${cargoVersion}`);
  await page.screenshot({ path: '../target/e2e/load.png' });
  expect(problems).toEqual([]);
});
