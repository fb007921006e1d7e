// Presentation mode (issue 17, src/present.js) at 1280x720, the size of a lecture-hall
// projector: entered with the Present button, Shift+P or a link's present field; only the chosen
// panels on screen, the large one's canvas text at 20 px or more (the size canvas.js records for
// every text it draws); a lesson step's text and question as a caption that follows N / P; the
// laser pointer following the mouse; the lesson's element as a spotlight; Esc restoring the
// layout from before with the simulation where it was; a bad present value in a link refused
// with a message.
import { test, expect } from '@playwright/test';
import { readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { open, watchConsole, settle, cycle } from './helpers.js';

const SHOTS = '../target/e2e';
const LESSON_DIR = fileURLToPath(new URL('../../lessons/', import.meta.url));
const lessonFile = (id) => JSON.parse(readFileSync(`${LESSON_DIR}${id}.json`, 'utf8'));

// The ids of the panels on screen (displayed and inside the viewport's width).
async function shownPanels(page) {
  return page.evaluate(() => [...document.querySelectorAll('.view')].filter((v) => v.checkVisibility()).map((v) => v.id.replace(/^view-/, '')));
}

// The texts the view's canvases drew, with the size each was drawn at (CSS pixels).
async function drawn(page, view) {
  return page.evaluate((id) => [...document.querySelectorAll(`#view-${id} canvas`)].flatMap((c) => c.drawn || []), view);
}

// Where each view sits and the page's scroll, to compare the layout before and after.
async function layoutOf(page) {
  return page.evaluate(() => ({
    views: [...document.querySelectorAll('.view')].map((v) => { const r = v.getBoundingClientRect(); return [v.id, Math.round(r.left), Math.round(r.top), Math.round(r.width), Math.round(r.height)]; }),
    order: [...document.getElementById('views').children].map((v) => v.id),
    scroll: document.getElementById('views').scrollTop,
    left: document.querySelector('.left').checkVisibility(),
    topbar: document.querySelector('.topbar').checkVisibility(),
  }));
}

async function waitPaused(page) {
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'paused', { timeout: 20_000 });
}

test('the Present button: only the chosen panels, canvas text of 20 px or more, Esc restores the layout and keeps the simulation', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'reduction');
  await page.fill('#goto-cycle', '400');
  await page.click('#btn-goto');
  await waitPaused(page);
  await page.keyboard.press('w');
  await page.keyboard.press('w');
  await page.locator('#views').evaluate((v) => { v.scrollTop = 300; });
  await settle(page);
  const before = await layoutOf(page);
  const sel = await page.evaluate(() => ({ sm: window.warpstep.app.sm, warp: window.warpstep.app.warp }));
  expect(sel.warp).toBe(2);
  const normalPx = (await drawn(page, 'simt')).find((d) => d.s.startsWith('Warp 2')).px;

  await page.click('#btn-present');
  await expect(page.locator('body')).toHaveAttribute('data-present', 'on');
  await expect(page.locator('.topbar')).toBeHidden();
  await expect(page.locator('.left')).toBeHidden();
  await expect(page.locator('#present-caption')).toBeVisible();
  expect((await shownPanels(page)).sort()).toEqual(['pipeline', 'simt', 'timeline']);
  await expect(page.locator('body')).toHaveAttribute('data-present-main', 'pipeline');
  await page.waitForTimeout(300); // the large panel is fitted to the screen over a few frames
  await settle(page);
  await page.mouse.move(700, 330);
  await page.screenshot({ path: `${SHOTS}/present-instructor.png` });
  // The large panel's canvas text: its labels at 20 CSS pixels or more, the column titles whole
  // (their short forms where the column is narrow), half of all its text at 20 px or more.
  const pipe = await drawn(page, 'pipeline');
  for (const label of ['Execution units', 'Writeback', 'Warp slots (click to select):']) {
    const d = pipe.find((x) => x.s === label);
    expect(d, label).toBeTruthy();
    expect(d.px, label).toBeGreaterThanOrEqual(20);
  }
  for (const d of pipe.filter((x) => /^(Fetch|Schedulers|Operand)/.test(x.s))) expect(d.t, d.s).not.toContain('…');
  const sizes = pipe.map((d) => d.px).sort((a, b) => a - b);
  expect(sizes[Math.floor(sizes.length / 2)]).toBeGreaterThanOrEqual(20);
  // The panel fits between the top of the screen and the caption.
  const fit = await page.evaluate(() => ({ view: document.getElementById('view-pipeline').getBoundingClientRect().bottom, caption: document.getElementById('present-caption').getBoundingClientRect().top }));
  expect(fit.view).toBeLessThanOrEqual(fit.caption + 1);
  await expect(page.locator('#present-caption .present-cycle-n')).toHaveText('400');
  await page.screenshot({ path: `${SHOTS}/present-instructor.png` });

  // Stepping works as always; the side panels draw at their normal size.
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#present-caption .present-cycle-n')).toHaveText('401');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#present-caption .present-cycle-n')).toHaveText('400');
  const side = (await drawn(page, 'simt')).find((d) => d.s.startsWith('Warp 2'));
  expect(side.px).toBeLessThanOrEqual(normalPx);

  await page.keyboard.press('Escape');
  await expect(page.locator('body')).not.toHaveAttribute('data-present', 'on');
  await settle(page);
  expect(await layoutOf(page)).toEqual(before);
  expect(await cycle(page)).toBe(400);
  expect(await page.evaluate(() => ({ sm: window.warpstep.app.sm, warp: window.warpstep.app.warp }))).toEqual(sel);
  expect(await page.locator('#view-pipeline').getAttribute('data-canvas-zoom')).toBeNull();
  const back = (await drawn(page, 'simt')).find((d) => d.s.startsWith('Warp 2'));
  expect(back.px).toBe(normalPx);
  await expect(page.locator('#present-caption')).toBeHidden();
  await expect(page.locator('#laser')).toBeHidden();
  expect(problems).toEqual([]);
});

test('a lesson opened in presentation mode by URL: the step as a caption, N / P move it, the step\'s panels, the spotlight', async ({ page }) => {
  const problems = watchConsole(page);
  const lesson = lessonFile('divergence');
  await open(page, '/#lesson=divergence&step=1&present=1');
  await waitPaused(page);
  await expect(page.locator('body')).toHaveAttribute('data-present', 'on');
  const caption = page.locator('#present-caption');
  await expect(caption.locator('.present-text')).toHaveText(lesson.steps[0].text);
  await expect(caption.locator('.present-question')).toHaveText(`Question: ${lesson.steps[0].question}`);
  await expect(caption.locator('.present-count')).toHaveText(`step 1 of ${lesson.steps.length}`);
  expect(await shownPanels(page)).toEqual(['simt', 'code']);
  // Large type in the caption.
  const px = await caption.locator('.present-text').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(px).toBeGreaterThanOrEqual(24);
  await page.waitForTimeout(300);
  const title = (await drawn(page, 'simt')).find((d) => d.s.startsWith('Warp 0'));
  expect(title.px).toBeGreaterThanOrEqual(20);

  // N: step 2, which lists the pipeline beside its view.
  expect(lesson.steps[1].panels).toEqual(['pipeline', 'code']);
  await page.keyboard.press('n');
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '2');
  await waitPaused(page);
  await expect(caption.locator('.present-text')).toHaveText(lesson.steps[1].text);
  expect((await shownPanels(page)).sort()).toEqual(['code', 'pipeline', 'simt']);
  await expect(page.locator('body')).toHaveAttribute('data-present-main', 'simt');
  expect(page.url()).toMatch(/#lesson=divergence&step=2&present=1$/);
  await page.waitForTimeout(400);
  await page.screenshot({ path: `${SHOTS}/present-lesson.png` });
  // P: back to step 1.
  await page.keyboard.press('p');
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '1');
  await expect(caption.locator('.present-text')).toHaveText(lesson.steps[0].text);
  expect(await shownPanels(page)).toEqual(['simt', 'code']);

  // A step whose highlight is an element of the view: it pulses as a spotlight.
  await page.evaluate(() => { window.location.hash = 'lesson=simt_deadlock&step=2&present=1'; });
  await expect(page.locator('body')).toHaveAttribute('data-lesson', 'simt_deadlock');
  await waitPaused(page);
  const target = page.locator('#view-simt .divergence-run');
  await expect(target).toHaveClass(/lesson-target/);
  expect(await target.evaluate((e) => getComputedStyle(e).animationName)).toBe('present-spotlight');
  await page.waitForTimeout(700);
  await page.screenshot({ path: `${SHOTS}/present-spotlight.png` });
  // Leaving keeps the lesson open on its step.
  await page.keyboard.press('Escape');
  await expect(page.locator('#lesson')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '2');
  expect(page.url()).toMatch(/#lesson=simt_deadlock&step=2$/);
  expect(problems).toEqual([]);
});

test('a shared link with present=<panels> opens in presentation mode on its cycle', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.fill('#goto-cycle', '40');
  await page.click('#btn-goto');
  await waitPaused(page);
  await page.click('#btn-share');
  const url = await page.locator('body').getAttribute('data-share-url');
  await open(page, `${url}&present=simt,timeline`);
  await waitPaused(page);
  expect(await cycle(page)).toBe(40);
  await expect(page.locator('body')).toHaveAttribute('data-present', 'on');
  await expect(page.locator('body')).toHaveAttribute('data-present-main', 'simt');
  expect((await shownPanels(page)).sort()).toEqual(['simt', 'timeline']);
  // Shift+P leaves, and the field leaves the URL; Shift+P again comes back with the same panels.
  await page.keyboard.press('Shift+P');
  await expect(page.locator('body')).not.toHaveAttribute('data-present', 'on');
  expect(page.url()).not.toContain('present=');
  await page.keyboard.press('Shift+P');
  await expect(page.locator('body')).toHaveAttribute('data-present-panels', 'simt,timeline');
  expect(page.url()).toMatch(/&present=simt,timeline$/);
  expect(await cycle(page)).toBe(40);
  expect(problems).toEqual([]);
});

test('the laser pointer follows the mouse, never takes a click, and L turns it off and on', async ({ page }) => {
  await open(page);
  await page.mouse.move(500, 300);
  await expect(page.locator('#laser')).toBeHidden(); // only in presentation mode
  await page.keyboard.press('Shift+P');
  await expect(page.locator('body')).toHaveAttribute('data-present', 'on');
  const laser = page.locator('#laser');
  const centre = async () => laser.evaluate((e) => { const r = e.getBoundingClientRect(); return { x: r.left + r.width / 2, y: r.top + r.height / 2, events: getComputedStyle(e).pointerEvents }; });
  await page.mouse.move(520, 310);
  await expect(laser).toBeVisible();
  let c = await centre();
  expect(Math.abs(c.x - 520)).toBeLessThanOrEqual(1);
  expect(Math.abs(c.y - 310)).toBeLessThanOrEqual(1);
  expect(c.events).toBe('none');
  await page.mouse.move(800, 200, { steps: 4 });
  c = await centre();
  expect(Math.abs(c.x - 800)).toBeLessThanOrEqual(1);
  expect(Math.abs(c.y - 200)).toBeLessThanOrEqual(1);
  await page.screenshot({ path: `${SHOTS}/present-laser.png` });
  // A click goes through it to the magnified panel below: warp slot 2 of the pipeline's strip,
  // found where the view drew it (its hover region, in layout pixels, times the zoom).
  await page.waitForTimeout(300);
  const slot = await page.evaluate(() => {
    const c = document.querySelector('#view-pipeline canvas');
    const tipOf = (r) => (typeof r.tip === 'function' ? r.tip() : r.tip);
    const g = c.regions.find((r) => typeof tipOf(r) === 'string' && /^Warp slot 2[ :]/.test(tipOf(r)));
    const r = c.getBoundingClientRect();
    return { x: r.left + (g.x + g.w / 2) * c.zoom, y: r.top + (g.y + g.h / 2) * c.zoom, zoom: c.zoom };
  });
  expect(slot.zoom).toBeGreaterThan(1.4);
  await page.mouse.move(slot.x, slot.y);
  await expect(laser).toBeVisible();
  await page.mouse.click(slot.x, slot.y);
  expect(await page.evaluate(() => window.warpstep.app.warp)).toBe(2);
  await expect(page.locator('#tooltip')).toBeHidden(); // no hover text over the laser
  await page.keyboard.press('l');
  await expect(laser).toBeHidden();
  await expect(page.locator('body')).toHaveAttribute('data-laser', 'off');
  await page.keyboard.press('l');
  await page.mouse.move(600, 250);
  await expect(laser).toBeVisible();
  await page.keyboard.press('Escape');
  await expect(laser).toBeHidden();
});

test('the instructor picks the panels: number keys, the Panels list, V for the large one', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // An enlarged view is the one shown when entering.
  await page.click('#view-simt .focus');
  await page.keyboard.press('Shift+P');
  expect(await shownPanels(page)).toEqual(['simt']);
  await page.keyboard.press('5'); // the bank grid, fifth in the Panels list
  expect((await shownPanels(page)).sort()).toEqual(['banks', 'simt']);
  await expect(page.locator('#present-caption .present-chip')).toHaveText(['2 SIMT stack', '5 Shared-memory bank grid']);
  await page.keyboard.press('v');
  await expect(page.locator('body')).toHaveAttribute('data-present-main', 'banks');
  await expect(page.locator('#present-caption .present-chip.main')).toHaveText('5 Shared-memory bank grid');
  expect(page.url()).toMatch(/#present=banks,simt$/);
  await page.click('#present-caption .present-panels');
  await page.check('.present-picker input[data-panel="timeline"]');
  expect((await shownPanels(page)).sort()).toEqual(['banks', 'simt', 'timeline']);
  await page.uncheck('.present-picker input[data-panel="banks"]');
  expect((await shownPanels(page)).sort()).toEqual(['simt', 'timeline']);
  await expect(page.locator('body')).toHaveAttribute('data-present-main', 'simt');
  // The keys still work after the list was used (the checkbox gave the keyboard back).
  await page.keyboard.press('2');
  expect(await shownPanels(page)).toEqual(['timeline']);
  await page.screenshot({ path: `${SHOTS}/present-picker.png` });
  await page.keyboard.press('Escape');
  // The enlarged view is enlarged again.
  await expect(page.locator('#view-simt')).toHaveClass(/focused/);
  expect(problems).toEqual([]);
});

test('a bad present value in a link gives a message and the normal layout', async ({ page }) => {
  await open(page, '/#present=garbage');
  await expect(page.locator('#notice')).toContainText('This link cannot open in presentation mode: the link\'s present field is "garbage", neither 1 nor a panel');
  await expect(page.locator('#notice')).toContainText('pipeline, simt');
  await expect(page.locator('body')).not.toHaveAttribute('data-present', 'on');
  await expect(page.locator('.topbar')).toBeVisible();
  await page.screenshot({ path: `${SHOTS}/present-bad-link.png` });
  // In a lesson link: the lesson opens on its step, without presentation mode.
  await open(page, '/#lesson=divergence&step=2&present=simt,nope');
  await waitPaused(page);
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '2');
  await expect(page.locator('#notice')).toContainText('"simt,nope" names no panel "nope"');
  await expect(page.locator('body')).not.toHaveAttribute('data-present', 'on');
  for (const [value, message] of [['simt,simt', 'names the panel simt twice'], ['', 'is empty'], ['x'.repeat(300), 'too long']]) {
    await page.evaluate((v) => { window.location.hash = `present=${v}`; }, value);
    await expect(page.locator('#notice')).toContainText(message);
  }
  // A lesson step's panels are checked like its other fields.
  const problems = await page.evaluate(() => window.warpstep.app.lessons.problemsOf({ id: 'x', title: 'X', example: 'divergence', steps: [
    { text: 't', cycle: 1, view: 'simt', panels: ['nope'] },
    { text: 't', cycle: 1, view: 'simt', panels: ['simt'] },
    { text: 't', cycle: 1, view: 'simt', panels: 'timeline' },
  ] }));
  expect(problems).toEqual([
    'step 1: no view "nope" in panels (views: pipeline, simt, timeline, why, banks, hash, search, memory, unified, stats, energy, mrpb, code, buffers, gpu)',
    'step 2: panels repeats the step\'s view "simt" (it is shown anyway)',
    'step 3: panels must be a list of view ids',
  ]);
});

test('the tallest views keep text of 20 px or more when presented, and scroll', async ({ page }) => {
  const problems = watchConsole(page);
  for (const [panel, example, label] of [['stats', 'transpose-naive', 'Stall breakdown (scheduler-cycles)'], ['banks', 'transpose-naive', 'In MEM0: 32 lanes']]) {
    await open(page, `/#present=${panel}`);
    await page.evaluate((e) => window.warpstep.app.loadExample(e), example);
    await page.evaluate(() => { const app = window.warpstep.app; app.session.runUntil(1200, 1_000_000); app.draw(true); });
    await page.waitForTimeout(300);
    await settle(page);
    const d = (await drawn(page, panel)).find((x) => x.s === label);
    expect(d, `${panel}: ${label}`).toBeTruthy();
    expect(d.px, `${panel}: ${label}`).toBeGreaterThanOrEqual(20);
  }
  expect(problems).toEqual([]);
});
