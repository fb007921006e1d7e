// Shared helpers for the end-to-end tests: collect console errors, wait for the app, read the
// model through the test hook (window.warpstep.app) and the views' data-model attributes.
import { expect } from '@playwright/test';

export function watchConsole(page) {
  const problems = [];
  page.on('console', (msg) => { if (msg.type() === 'error') problems.push(msg.text()); });
  page.on('pageerror', (err) => problems.push(String(err)));
  page.on('response', (res) => { if (res.status() >= 400) problems.push(`${res.status()} ${res.url()}`); });
  return problems;
}

export async function open(page, url = '/') {
  await page.goto(url);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
}

export async function cycle(page) {
  return Number(await page.locator('#cycle').textContent());
}

export async function snapshot(page) {
  return page.evaluate(() => window.warpstep.app.session.snapshot(window.warpstep.app.sm));
}

export async function model(page, view) {
  const json = await page.locator(`#view-${view} canvas`).first().getAttribute('data-model');
  return JSON.parse(json);
}

// Runs at full speed until the kernel ends (completed or failed).
export async function runToEnd(page) {
  await page.locator('#speed').fill('8');
  await page.click('#btn-run');
  await expect(page.locator('body')).not.toHaveAttribute('data-status', 'running', { timeout: 25_000 });
}
