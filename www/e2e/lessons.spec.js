// Lessons (lessons/*.json, src/lessons.js): every lesson file parses and names existing examples
// and views; every step of every lesson, replayed in the app with Next, lands on a state whose
// snapshot has the step's `expect` values, shows the step's text and outlines the step's view;
// a lesson URL opens on its step; a bad lesson id or step says so and keeps the current state.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { open, watchConsole } from './helpers.js';

const DIR = fileURLToPath(new URL('../../lessons/', import.meta.url));
const FILES = readdirSync(DIR).filter((f) => f.endsWith('.json')).sort();
const LESSONS = FILES.map((f) => ({ file: f, lesson: JSON.parse(readFileSync(DIR + f, 'utf8')) }));

// Waits until the app stands on step n (from 1) of the lesson, at the step's cycle, paused.
async function onStep(page, id, n) {
  const body = page.locator('body');
  await expect(body).toHaveAttribute('data-lesson', id);
  await expect(body).toHaveAttribute('data-lesson-step', String(n));
  await expect(body).toHaveAttribute('data-run-state', 'paused', { timeout: 20_000 });
  const target = await body.getAttribute('data-lesson-cycle');
  await expect(body).toHaveAttribute('data-cycle', target, { timeout: 20_000 });
  return Number(target);
}

function valueAt(obj, path) {
  let v = obj;
  for (const k of path.split('.')) v = v === null || v === undefined ? undefined : v[k];
  return v;
}

test('every lesson file parses and names existing examples, views and kernels', async ({ page }) => {
  expect(FILES.length).toBeGreaterThanOrEqual(4);
  for (const id of ['divergence', 'simt_deadlock', 'bank_conflicts', 'coalescing', 'register_banks', 'mrpb', 'elastic', 'unified']) expect(FILES).toContain(`${id}.json`);
  for (const { file, lesson } of LESSONS) {
    expect(`${lesson.id}.json`, `${file}: id`).toBe(file);
    expect(Array.isArray(lesson.steps) && lesson.steps.length > 0, `${file}: steps`).toBe(true);
  }
  await open(page, '/');
  const problems = await page.evaluate(() => window.warpstep.app.lessons.problems());
  expect(problems).toEqual(Object.fromEntries(LESSONS.map(({ lesson }) => [lesson.id, []])));
  // The Lessons select lists them all.
  const options = await page.locator('#lesson-select option').evaluateAll((os) => os.map((o) => o.value).filter(Boolean));
  expect(options.sort()).toEqual(LESSONS.map(({ lesson }) => lesson.id).sort());
});

for (const { lesson } of LESSONS) {
  test(`lesson ${lesson.id}: every step lands on its expected state`, async ({ page }) => {
    test.setTimeout(120_000);
    const problems = watchConsole(page);
    await open(page, '/');
    await page.selectOption('#lesson-select', lesson.id);
    const wrong = [];
    for (let i = 0; i < lesson.steps.length; i++) {
      const step = lesson.steps[i];
      if (i > 0) await page.click('.lesson-next');
      const cycle = await onStep(page, lesson.id, i + 1);
      if (Number.isInteger(step.cycle)) expect(cycle).toBe(step.cycle);
      await expect(page.locator('#lesson .lesson-text')).toHaveText(step.text);
      if (step.question) await expect(page.locator('#lesson .lesson-question')).toContainText(step.question);
      // The step's view, and only it, is outlined.
      const lit = await page.locator('.view.lesson-highlight').evaluateAll((els) => els.map((e) => e.id));
      expect(lit).toEqual([`view-${step.view}`]);
      if (step.example) await expect(page.locator('#example')).toHaveValue(step.example);
      const snap = JSON.parse(await page.evaluate(() => window.warpstep.app.session.snapshot(window.warpstep.app.sm)));
      for (const [path, want] of Object.entries(step.expect || {})) {
        const got = valueAt(snap, path);
        if (JSON.stringify(got) !== JSON.stringify(want)) wrong.push(`step ${i + 1} (cycle ${cycle}): ${path} = ${JSON.stringify(got)}, expected ${JSON.stringify(want)}`);
      }
    }
    expect(wrong).toEqual([]);
    await page.screenshot({ path: `../target/e2e/lesson-${lesson.id}.png` });
    // Back with the keyboard (P) to the first step: the same state again.
    await page.keyboard.press('p');
    await onStep(page, lesson.id, lesson.steps.length - 1);
    expect(problems).toEqual([]);
  });
}

test('a lesson URL opens on its step, and the step is in the URL as it moves', async ({ page }) => {
  const lesson = LESSONS.find((l) => l.lesson.id === 'divergence').lesson;
  await open(page, '/#lesson=divergence&step=2');
  await onStep(page, 'divergence', 2);
  await expect(page.locator('#lesson .lesson-text')).toHaveText(lesson.steps[1].text);
  await expect(page.locator('#lesson .lesson-count')).toContainText('step 2 of');
  await expect(page.locator('#lesson-select')).toHaveValue('divergence');
  await expect(page.locator('#view-simt')).toHaveClass(/lesson-highlight/);
  const snap = JSON.parse(await page.evaluate(() => window.warpstep.app.session.snapshot(0)));
  expect(snap.sm.warps[0].stack.length).toBe(3);
  await page.keyboard.press('n');
  await onStep(page, 'divergence', 3);
  expect(page.url()).toMatch(/#lesson=divergence&step=3$/);
  await page.keyboard.press('PageUp');
  await onStep(page, 'divergence', 2);
  const back = JSON.parse(await page.evaluate(() => window.warpstep.app.session.snapshot(0)));
  expect(back.cycle).toBe(snap.cycle);
  expect(back.sm.warps[0].stack.length).toBe(3);
  await page.waitForTimeout(600);
  await page.screenshot({ path: '../target/e2e/lesson-url-step2.png' });
});

test('a bad lesson id or step shows a message and keeps the current state', async ({ page }) => {
  await open(page, '/#lesson=no_such_lesson');
  await expect(page.locator('#notice')).toBeVisible();
  await expect(page.locator('#notice')).toContainText('There is no lesson "no_such_lesson"');
  await expect(page.locator('#lesson')).toBeHidden();
  await expect(page.locator('#example')).toHaveValue('divergence');
  await page.screenshot({ path: '../target/e2e/lesson-bad-id.png' });
  // With something on screen: a bad step keeps the kernel and cycle.
  await page.selectOption('#example', 'transpose-naive');
  await page.click('#btn-step-n');
  const before = await page.locator('#cycle').textContent();
  await page.evaluate(() => { window.location.hash = 'lesson=divergence&step=99'; });
  await expect(page.locator('#notice')).toContainText('has no step "99"');
  await expect(page.locator('#example')).toHaveValue('transpose-naive');
  await expect(page.locator('#cycle')).toHaveText(before);
  await expect(page.locator('#lesson')).toBeHidden();
});

test('the instructor records steps and exports them as a lesson file', async ({ page }) => {
  await open(page, '/');
  await page.click('.tab[data-tab="setup"]');
  await page.click('#lesson-recorder summary');
  await page.fill('#rec-title', 'My divergence');
  await page.locator('#goto-cycle').fill('99');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('99');
  await page.fill('#rec-text', 'The first split.');
  await page.selectOption('#rec-view', 'simt');
  await page.fill('#rec-question', 'Which lanes?');
  await page.click('#rec-add');
  await expect(page.locator('#rec-note')).toContainText('1 step recorded');
  await page.selectOption('#example', 'spinlock');
  await page.fill('#rec-text', 'Another kernel.');
  await page.click('#rec-add');
  const download = page.waitForEvent('download');
  await page.click('#rec-export');
  const file = await download;
  expect(file.suggestedFilename()).toBe('my_divergence.json');
  const lesson = JSON.parse(readFileSync(await file.path(), 'utf8'));
  expect(lesson).toMatchObject({ id: 'my_divergence', title: 'My divergence', example: 'divergence' });
  expect(lesson.steps).toEqual([
    { text: 'The first split.', cycle: 99, view: 'simt', question: 'Which lanes?', expect: { cycle: 99, status: 'running' } },
    { text: 'Another kernel.', cycle: 0, view: 'simt', expect: { cycle: 0, status: 'running' }, example: 'spinlock' },
  ]);
  // It plays like the lessons in the repository.
  const problems = await page.evaluate((l) => window.warpstep.app.lessons.problemsOf(l), lesson);
  expect(problems).toEqual([]);
  await page.screenshot({ path: '../target/e2e/lesson-recorder.png' });
});
