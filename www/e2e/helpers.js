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

// Two animation frames: enough for an IntersectionObserver callback and the redraw it triggers.
export async function settle(page) {
  await page.evaluate(() => new Promise((r) => requestAnimationFrame(() => requestAnimationFrame(r))));
}

// The rendered model of a view (its data-model attribute). Views draw only while on screen, so
// the view is scrolled into view first and given two frames to redraw.
export async function model(page, view) {
  const el = page.locator(`#view-${view}`);
  await el.scrollIntoViewIfNeeded();
  await settle(page);
  const own = await el.getAttribute('data-model');
  const json = own || (await page.locator(`#view-${view} canvas`).first().getAttribute('data-model'));
  return JSON.parse(json);
}

// Steps the session one cycle at a time (in the page, without redrawing) until `pred(snapshot)`
// holds, then redraws; returns the cycle. `pred` is the source of a function of the snapshot.
export async function stepUntil(page, pred, limit = 20_000) {
  const cycle = await page.evaluate(([src, max]) => {
    const app = window.warpstep.app;
    const ok = new Function('snap', `return (${src})(snap);`);
    for (let i = 0; i < max && !app.session.finished(); i++) {
      app.session.step(1);
      if (ok(JSON.parse(app.session.snapshot(app.sm)))) break;
    }
    app.draw(true);
    return app.session.cycle();
  }, [pred, limit]);
  await settle(page);
  return cycle;
}

// Runs at full speed until the kernel ends (completed or failed).
export async function runToEnd(page) {
  await page.locator('#speed').fill('8');
  await page.click('#btn-run');
  await expect(page.locator('body')).not.toHaveAttribute('data-status', 'running', { timeout: 25_000 });
}

// Clicks the region of a view's canvas whose hover text contains `tip` (the regions the view
// registered as it drew, canvas.js `region`), scrolled to the middle of the view list first.
export async function clickRegion(page, view, tip) {
  const canvas = page.locator(`#view-${view} canvas`).first();
  await canvas.scrollIntoViewIfNeeded();
  await settle(page);
  const at = await canvas.evaluate((c, t) => {
    // A hover text may be built when asked for (a function of the frame drawn).
    const tipOf = (r) => (typeof r.tip === 'function' ? r.tip() : r.tip);
    const g = c.regions.find((r) => typeof tipOf(r) === 'string' && tipOf(r).includes(t));
    if (!g) return null;
    const list = c.closest('.views');
    list.scrollTop += c.getBoundingClientRect().top + g.y - list.getBoundingClientRect().top - list.clientHeight / 2;
    const r = c.getBoundingClientRect();
    return { x: r.left + g.x + g.w / 2, y: r.top + g.y + g.h / 2, clickable: Boolean(g.onClick) };
  }, tip);
  expect(at, `a region of the ${view} view saying "${tip}"`).not.toBeNull();
  expect(at.clickable).toBe(true);
  await settle(page);
  await page.mouse.click(at.x, at.y);
  await settle(page);
}

// A PTX loop of `n` iterations on one thread per CTA, launched on `grid` CTAs (with `config`,
// e.g. 'gtx480' for 15 SMs): a kernel that runs as long as a test needs.
export function spinKernel(n, { grid = 1, config = '' } = {}) {
  const preset = config ? `--config ${config} ` : '';
  return `.version 7.0
.target sm_52
.address_size 64
// warpstep: ${preset}--grid ${grid} --block 1 --arg ${n}
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
}
