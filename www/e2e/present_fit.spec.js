// Presentation mode fits what a lesson step points at (issue 30, item 1): at 1280x720 and
// 1920x1080, every step of every lesson, reached with N, shows its outlined view (and its
// highlighted element) wholly above the caption and inside the window, without scrolling the
// page or the view's own box: every view a step outlines lays itself out for the room (the
// Memory view's sets in blocks of 8 rows, the SIMT views as tall as their content, the
// pipeline's back end first over shorter columns, the Stats view's counters and stall bars
// without the plots, the bank grid's, MRPB's and the unified pool's rows lower or in more
// columns). A step shows at the same magnification however it was reached (its link, or N
// from the step before). Screenshots of every step: ../target/e2e/fit-<width>-<lesson>-<step>.png.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { open, watchConsole } from './helpers.js';

const DIR = fileURLToPath(new URL('../../lessons/', import.meta.url));
const LESSONS = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort().map((f) => JSON.parse(readFileSync(DIR + f, 'utf8')));
const SIZES = [{ width: 1280, height: 720 }, { width: 1920, height: 1080 }];

// Waits for step n of lesson `id` at its cycle, paused, with the large panel fitted.
async function onStep(page, id, n) {
  const body = page.locator('body');
  await expect(body).toHaveAttribute('data-lesson', id);
  await expect(body).toHaveAttribute('data-lesson-step', String(n));
  await expect(body).toHaveAttribute('data-run-state', 'paused', { timeout: 60_000 });
  await expect(body).toHaveAttribute('data-lesson-cycle', /^\d+$/, { timeout: 60_000 });
  const target = await body.getAttribute('data-lesson-cycle');
  await expect(body).toHaveAttribute('data-cycle', target, { timeout: 60_000 });
  await page.waitForTimeout(250);
  await expect(body).not.toHaveAttribute('data-present-fitting', 'yes');
  await page.waitForTimeout(150);
  await expect(body).not.toHaveAttribute('data-present-fitting', 'yes');
}

// The outlined view's and highlighted element's boxes, the caption's top and the window.
async function boxes(page) {
  return page.evaluate(() => {
    const box = (el) => { const r = el.getBoundingClientRect(); return { top: r.top, bottom: r.bottom, left: r.left, right: r.right, height: r.height }; };
    const view = document.querySelector('.view.lesson-highlight');
    const target = document.querySelector('.view .lesson-target');
    return {
      view: view && box(view), id: view && view.id, target: target && box(target),
      caption: box(document.getElementById('present-caption')),
      w: window.innerWidth, h: window.innerHeight,
      pageScroll: document.scrollingElement.scrollTop, viewsScroll: document.getElementById('views').scrollTop,
      zoom: Number(document.body.dataset.presentZoom),
    };
  });
}

// Whether the large panel scrolls inside its box (present.js fitDone's present-scroll).
async function tallness(page) {
  return page.evaluate(() => {
    const v = document.querySelector('.view[data-present=main]');
    return { scrolls: v.classList.contains('present-scroll'), scrollHeight: v.scrollHeight, clientHeight: v.clientHeight };
  });
}

// Scrolls the large panel's box to its end and back: how far its header (and the Stats view's
// counters) moved from where they were, in px.
async function keptOnScroll(page) {
  const parts = await page.evaluate(() => {
    const v = document.querySelector('.view[data-present=main]');
    const sel = { header: ':scope > header', counters: ':scope > div:has(> canvas.counters)' };
    const top = () => Object.fromEntries(Object.entries(sel).map(([k, s]) => [k, v.querySelector(s)]).filter(([, e]) => e).map(([k, e]) => [k, e.getBoundingClientRect().top - v.getBoundingClientRect().top]));
    const before = top();
    const was = v.scrollTop;
    v.scrollTop = v.scrollHeight;
    const after = top();
    v.scrollTop = was;
    return Object.fromEntries(Object.keys(before).map((k) => [k, Math.round(Math.abs(after[k] - before[k]))]));
  });
  return parts;
}

function misfits(b, where) {
  const out = [];
  for (const [name, r] of [['view', b.view], ['element', b.target]]) {
    if (!r) continue;
    if (r.top < -1 || r.left < -1 || r.right > b.w + 1) out.push(`${where}: the ${name} (${b.id}) is outside the window: ${JSON.stringify(r)}`);
    if (r.bottom > b.caption.top + 1) out.push(`${where}: the ${name} (${b.id}) ends at ${Math.round(r.bottom)}, under the caption's top ${Math.round(b.caption.top)}`);
    if (name === 'view' && r.height < 40) out.push(`${where}: the ${name} (${b.id}) is ${Math.round(r.height)} px tall`);
  }
  if (b.pageScroll || b.viewsScroll) out.push(`${where}: scrolled (${b.pageScroll}, ${b.viewsScroll})`);
  return out;
}

for (const size of SIZES) {
  test(`every step of every lesson fits above the caption at ${size.width}x${size.height}`, async ({ page }) => {
    test.setTimeout(900_000);
    const problems = watchConsole(page);
    await page.setViewportSize(size);
    const wrong = [];
    for (const lesson of LESSONS) {
      await page.goto('about:blank');
      await open(page, `/#lesson=${lesson.id}&step=1&present=1`);
      for (let i = 0; i < lesson.steps.length; i++) {
        if (i > 0) await page.keyboard.press('n');
        await onStep(page, lesson.id, i + 1);
        const b = await boxes(page);
        expect(b.id, `${lesson.id} ${i + 1}`).toBe(`view-${lesson.steps[i].view}`);
        wrong.push(...misfits(b, `${lesson.id} step ${i + 1}`));
        // A pipeline with a back end (the elastic lessons' subject) draws that row first.
        if (lesson.steps[i].view === 'pipeline') {
          const m = JSON.parse(await page.locator('#view-pipeline canvas').first().getAttribute('data-model'));
          if (m.backEnd && !m.backEndFirst) wrong.push(`${lesson.id} step ${i + 1}: the back-end row is not first`);
        }
        // Every outlined view is laid out for the room (fewer rows, smaller gaps, its height
        // from its content) and is neither cut nor scrolled.
        const tall = await tallness(page);
        if (tall.scrolls) wrong.push(`${lesson.id} step ${i + 1}: the ${b.id} view scrolls, ${tall.scrollHeight - tall.clientHeight} px of it below its box (${tall.scrollHeight} in ${tall.clientHeight})`);
        // Were one to scroll, its header (and the Stats view's counters) would stay.
        if (tall.scrolls) {
          const kept = await keptOnScroll(page);
          for (const [name, moved] of Object.entries(kept)) if (moved > 2) wrong.push(`${lesson.id} step ${i + 1}: the ${b.id} view's ${name} scrolls away (${moved} px)`);
        }
        // The large panel's canvas text stays large enough to read from the back.
        if (b.zoom) expect(b.zoom, `${lesson.id} step ${i + 1}: zoom`).toBeGreaterThanOrEqual(1.45);
        await page.screenshot({ path: `../target/e2e/fit-${size.width}-${lesson.id}-${i + 1}.png` });
      }
    }
    expect(wrong).toEqual([]);
    expect(problems).toEqual([]);
  });
}

test('a step shows at the same magnification opened by its link or reached with N', async ({ page }) => {
  test.setTimeout(300_000);
  for (const [id, n] of [['unified', 2], ['elastic', 2], ['bank_conflicts', 3], ['divergence', 3]]) {
    await page.goto('about:blank');
    await open(page, `/#lesson=${id}&step=${n}&present=1`);
    await onStep(page, id, n);
    const direct = await boxes(page);
    await page.goto('about:blank');
    await open(page, `/#lesson=${id}&step=${n - 1}&present=1`);
    await onStep(page, id, n - 1);
    await page.keyboard.press('n');
    await onStep(page, id, n);
    const walked = await boxes(page);
    expect(walked.zoom, `${id} step ${n}`).toBe(direct.zoom);
    expect(Math.round(walked.view.height), `${id} step ${n}`).toBe(Math.round(direct.view.height));
  }
});
