// The static build (`make dist` -> dist/) served under a sub-path (/sub/path/, by
// e2e/serve-dist.mjs, as GitHub Pages serves a project), run once by the `dist` project of
// playwright.config.js: it loads with no failed request and every request under the sub-path, an
// example runs to the end, a link shared on the dev server opens the same kernel and cycle on
// the static copy (and the copy's own Share link reopens it), and a build missing its wasm or
// its script says so within seconds instead of loading forever.
import { test, expect } from '@playwright/test';
import { existsSync, readFileSync } from 'node:fs';
import { watchConsole, open, snapshot, runToEnd } from './helpers.js';

const devURL = `http://127.0.0.1:${Number(process.env.E2E_PORT || 8391)}/`;
const cargoVersion = readFileSync(new URL('../../Cargo.toml', import.meta.url), 'utf8')
  .match(/^version = "([^"]+)"/m)[1];

test.beforeAll(() => {
  if (!existsSync(new URL('../../dist/index.html', import.meta.url))) {
    throw new Error('no dist/index.html: run `make dist` (the e2e target builds it) before the dist project');
  }
});

// Every request and its outcome, besides the console errors of watchConsole.
function watchRequests(page) {
  const seen = [];
  const failed = [];
  page.on('requestfailed', (req) => failed.push(`${req.url()}: ${req.failure()?.errorText}`));
  page.on('response', (res) => {
    seen.push(res.url());
    if (res.status() >= 400) failed.push(`${res.status()} ${res.url()}`);
  });
  return { seen, failed };
}

test('the build loads under a sub-path with no failed request and runs an example to the end', async ({ page, baseURL }) => {
  const problems = watchConsole(page);
  const requests = watchRequests(page);
  await open(page, './');
  await expect(page.locator('#version')).toHaveText(`v${cargoVersion}`);
  await expect(page.locator('#status')).toBeEmpty();
  await expect(page.locator('#example')).toHaveValue('divergence');
  await runToEnd(page);
  expect(await page.locator('body').getAttribute('data-status')).toBe('completed');
  await expect(page.locator('#run-status')).toContainText('completed');
  await page.screenshot({ path: '../target/e2e/dist-load.png' });
  // The page, its script, its stylesheet, its icon and the wasm, all under the sub-path.
  expect(requests.seen.some((u) => /\/assets\/warpstep_bg-[\w-]+\.wasm$/.test(u))).toBe(true);
  expect(requests.seen.filter((u) => !u.startsWith(baseURL))).toEqual([]);
  expect(requests.failed).toEqual([]);
  expect(problems).toEqual([]);
});

test('a link shared on the dev server opens the same kernel and cycle on the static copy', async ({ page, context, baseURL }) => {
  // The author's machine: `make serve`.
  const problems = watchConsole(page);
  await open(page, devURL);
  await page.selectOption('#example', 'transpose-naive');
  await page.fill('#goto-cycle', '300');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('300', { timeout: 15_000 });
  await page.locator('body').press('w');
  const before = await snapshot(page);
  await page.screenshot({ path: '../target/e2e/dist-shared-dev.png' });
  await page.click('#btn-share');
  const devLink = await page.locator('body').getAttribute('data-share-url');
  expect(devLink.startsWith(`${devURL}#s=`)).toBe(true);

  // The same fragment on the hosted copy.
  const hosted = await context.newPage();
  const problems2 = watchConsole(hosted);
  const requests = watchRequests(hosted);
  const link = `${baseURL}${new URL(devLink).hash}`;
  await open(hosted, link);
  await expect(hosted.locator('#cycle')).toHaveText('300');
  await expect(hosted.locator('#example')).toHaveValue('transpose-naive');
  expect(await snapshot(hosted)).toEqual(before);
  expect(await hosted.evaluate(() => window.warpstep.app.warp)).toBe(1);
  await hosted.screenshot({ path: '../target/e2e/dist-shared-dist.png' });

  // The copy's own Share link keeps the sub-path and reopens the same state.
  await hosted.click('#btn-share');
  const distLink = await hosted.locator('body').getAttribute('data-share-url');
  expect(distLink.startsWith(`${baseURL}#s=`)).toBe(true);
  const again = await context.newPage();
  const problems3 = watchConsole(again);
  await open(again, distLink);
  await expect(again.locator('#cycle')).toHaveText('300');
  expect(await snapshot(again)).toEqual(before);

  expect(requests.failed).toEqual([]);
  expect([...problems, ...problems2, ...problems3]).toEqual([]);
});

for (const [what, pattern, says] of [
  ['its wasm', /\.wasm$/, /failed to load: its WebAssembly module could not be fetched/],
  ['its script', /\/assets\/index-[\w-]+\.js$/, /failed to load: http:\S+\/sub\/path\/assets\/index-[\w-]+\.js could not be fetched/],
]) {
  test(`a build that cannot fetch ${what} shows a load error within seconds`, async ({ page }) => {
    await page.route(pattern, (route) => route.abort());
    await page.goto('./');
    await expect(page.locator('body')).toHaveAttribute('data-load-error', 'true', { timeout: 5_000 });
    await expect(page.locator('#status')).toHaveClass(/error/);
    await expect(page.locator('#status')).toHaveText(says);
    await expect(page.locator('#status')).toContainText('copy all of dist/');
    await expect(page.locator('#version')).toHaveText('not loaded');
    expect(await page.locator('body').getAttribute('data-ready')).toBeNull();
    await page.screenshot({ path: `../target/e2e/dist-load-error-${what.replace('its ', '')}.png` });
  });
}
