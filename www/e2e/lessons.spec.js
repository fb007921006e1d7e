// Lessons (lessons/*.json, src/lessons.js): every lesson file parses and names existing examples
// and views; every step of every lesson, replayed in the app with Next, lands on a state whose
// snapshot has the step's `expect` values and whose state digest (Session.stateDigest) is the
// step's recorded `digest`, shows the step's text and outlines the step's view (and stepping
// back reaches the previous step's digest again); a lesson URL opens on its step; a bad lesson
// id or step says so and keeps the current state; a lesson recorded in the app exports as a
// file and as a link that plays it in a fresh page, and a damaged link says so.
//
// WARPSTEP_BLESS_LESSONS=1 records the digests instead: each lesson's replay writes them into
// its file (e2e/lesson_digests.js), the `expect` values still checked.
import { test, expect } from '@playwright/test';
import { readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';
import { open, watchConsole } from './helpers.js';
import { withDigests } from './lesson_digests.js';

const BLESS = process.env.WARPSTEP_BLESS_LESSONS === '1';

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

// A caption's fields ({path} or {path|unit}, src/lesson_text.js) with the snapshot's values in
// the units the views show them.
const FIELD = /\{([A-Za-z0-9_.]+)(?:\|([a-z%]+))?\}/g;
function fillFields(text, snap) {
  return text.replace(FIELD, (_, path, unit) => {
    const v = valueAt(snap, path);
    if (unit === 'nj') return v >= 1e6 ? `${(v / 1e6).toFixed(3)} µJ` : `${(v / 1e3).toFixed(1)} nJ`;
    if (unit === 'kb') return `${Number(v.toFixed(2))} KB`;
    return String(v);
  });
}

function valueAt(obj, path) {
  let v = obj;
  for (const k of path.split('.')) v = v === null || v === undefined ? undefined : v[k];
  return v;
}

test('every lesson file parses and names existing examples, views and kernels', async ({ page }) => {
  expect(FILES.length).toBeGreaterThanOrEqual(4);
  for (const id of ['divergence', 'simt_deadlock', 'bank_conflicts', 'coalescing', 'register_banks', 'mrpb', 'elastic', 'unified', 'cuda_divergence']) expect(FILES).toContain(`${id}.json`);
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
    const digests = [];
    const digest = () => page.evaluate(() => window.warpstep.app.session.stateDigest());
    for (let i = 0; i < lesson.steps.length; i++) {
      const step = lesson.steps[i];
      if (i > 0) await page.click('.lesson-next');
      const cycle = await onStep(page, lesson.id, i + 1);
      if (Number.isInteger(step.cycle)) expect(cycle).toBe(step.cycle);
      // The text's numbers are the model's: each {path|unit} field filled from the snapshot.
      const snapNow = JSON.parse(await page.evaluate(() => window.warpstep.app.session.snapshot(window.warpstep.app.sm)));
      await expect(page.locator('#lesson .lesson-text')).toHaveText(fillFields(step.text, snapNow));
      for (const m of step.text.matchAll(FIELD)) if (valueAt(snapNow, m[1]) === undefined) wrong.push(`step ${i + 1}: the text's field ${m[1]} is not in the snapshot`);
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
      // The outlined view shows what the step points at: a step about the L1D does not stand
      // where the view says it has no accesses yet.
      const said = await page.evaluate((id) => [...document.querySelectorAll(`#view-${id} canvas`)].flatMap((c) => (c.drawn || []).map((d) => d.s)), step.view);
      if (/L1D|MSHR/.test(step.highlight || '') && said.some((t) => t.includes('no accesses yet'))) wrong.push(`step ${i + 1}: the ${step.view} view says "no accesses yet" where the step points at the L1D`);
      digests.push(await digest());
      if (!BLESS && digests[i] !== step.digest) wrong.push(`step ${i + 1} (cycle ${cycle}): state digest ${digests[i]}, recorded ${step.digest} (if the model changed on purpose: WARPSTEP_BLESS_LESSONS=1 npx playwright test --project=dev e2e/lessons.spec.js)`);
    }
    // No two steps at the same state.
    digests.forEach((d, i) => { if (digests.indexOf(d) !== i) wrong.push(`steps ${digests.indexOf(d) + 1} and ${i + 1} stand at the same state`); });
    expect(wrong).toEqual([]);
    await page.screenshot({ path: `../target/e2e/lesson-${lesson.id}.png` });
    // Back with the keyboard (P) one step: the same state again, whether the app stepped back
    // through its checkpoints or ran forwards to it.
    if (lesson.steps.length > 1) {
      await page.keyboard.press('p');
      await onStep(page, lesson.id, lesson.steps.length - 1);
      expect(await digest()).toBe(digests[lesson.steps.length - 2]);
    }
    expect(problems).toEqual([]);
    // Last: the dev server reloads the page when a lesson file changes.
    if (BLESS) {
      const path = `${DIR}${lesson.id}.json`;
      writeFileSync(path, withDigests(readFileSync(path, 'utf8'), digests));
    }
  });
}

// Numbers a caption cites from a run that is not one of its steps (the same kernel run to the
// end under another configuration): the caption holds them, and the model gives them.
const CLAIMS = [
  { lesson: 'elastic', step: 5, says: 'the split pipeline needs 173 cycles', input: 1, path: 'cycle', want: 173 },
  { lesson: 'elastic', step: 5, says: 'the in-order one 172', input: 3, path: 'cycle', want: 172 },
];

test('numbers a caption cites from other runs are the model\'s', async ({ page }) => {
  await open(page, '/');
  for (const c of CLAIMS) {
    const lesson = LESSONS.find((l) => l.lesson.id === c.lesson).lesson;
    expect(lesson.steps[c.step - 1].text).toContain(c.says);
    const got = await page.evaluate(async ({ id, n, path }) => {
      const { lessonById, stepInput, valueAt } = await import('/src/lessons.js');
      const l = lessonById(id);
      const input = stepInput(l, l.steps[n - 1]);
      const Session = window.warpstep.app.session.constructor;
      const s = new Session(input.ptx, input.launch, input.preset, input.sets);
      try {
        while (!s.finished()) s.runFor(100000);
        return valueAt(JSON.parse(s.snapshot(0)), path);
      } finally {
        s.free();
      }
    }, { id: c.lesson, n: c.input, path: c.path });
    expect(got, `${c.lesson} step ${c.step}: ${c.says}`).toBe(c.want);
  }
});

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
  // The same kernel at another launch: the step keeps its launch (and so its example).
  await page.fill('#launch', '--grid 1 --block 8 --arg s32[1]=0 --arg s32[1]=0');
  await page.click('#btn-apply-setup');
  await expect(page.locator('#cycle')).toHaveText('0');
  await page.fill('#rec-text', 'Eight threads.');
  await page.click('#rec-add');
  await expect(page.locator('#rec-note')).toContainText('3 steps recorded');
  const download = page.waitForEvent('download');
  await page.click('#rec-export');
  const file = await download;
  expect(file.suggestedFilename()).toBe('my_divergence.json');
  const lesson = JSON.parse(readFileSync(await file.path(), 'utf8'));
  expect(lesson).toMatchObject({ id: 'my_divergence', title: 'My divergence', example: 'divergence' });
  const digest = expect.stringMatching(/^[0-9a-f]{16}$/);
  expect(lesson.steps).toEqual([
    { text: 'The first split.', cycle: 99, view: 'simt', question: 'Which lanes?', expect: { cycle: 99, status: 'running' }, digest },
    { text: 'Another kernel.', cycle: 0, view: 'simt', expect: { cycle: 0, status: 'running' }, digest, example: 'spinlock' },
    { text: 'Eight threads.', cycle: 0, view: 'simt', launch: '--grid 1 --block 8 --arg s32[1]=0 --arg s32[1]=0', expect: { cycle: 0, status: 'running' }, digest, example: 'spinlock' },
  ]);
  // It plays like the lessons in the repository.
  const problems = await page.evaluate((l) => window.warpstep.app.lessons.problemsOf(l), lesson);
  expect(problems).toEqual([]);
  await page.screenshot({ path: '../target/e2e/lesson-recorder.png' });
});

// Records two steps of the divergence example and returns the link Copy link made, with each
// step's cycle and state digest.
async function recordTwoSteps(page) {
  await open(page, '/');
  await page.click('.tab[data-tab="setup"]');
  await page.click('#lesson-recorder summary');
  await page.fill('#rec-title', 'Linked divergence');
  await page.locator('#goto-cycle').fill('99');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('99');
  const first = await page.evaluate(() => window.warpstep.app.session.stateDigest());
  await page.fill('#rec-text', 'The first split <b>not bold</b>.');
  await page.selectOption('#rec-view', 'simt');
  await page.fill('#rec-question', 'Which lanes?');
  await page.click('#rec-add');
  await expect(page.locator('#rec-note')).toContainText('1 step recorded');
  await page.locator('#goto-cycle').fill('188');
  await page.click('#btn-goto');
  await expect(page.locator('#cycle')).toHaveText('188');
  const second = await page.evaluate(() => window.warpstep.app.session.stateDigest());
  await page.fill('#rec-text', 'Back together at E.');
  await page.selectOption('#rec-view', 'pipeline');
  await page.click('#rec-add');
  await expect(page.locator('#rec-note')).toContainText('2 steps recorded');
  await page.click('#rec-link-copy');
  await expect(page.locator('#rec-link')).toBeVisible();
  const url = await page.locator('#rec-link').inputValue();
  expect(url).toMatch(/#lessonData=[A-Za-z0-9_-]+$/);
  await expect(page.locator('body')).toHaveAttribute('data-lesson-url', url);
  await expect(page.locator('#rec-note')).toContainText('2 steps');
  return { url, steps: [{ cycle: 99, digest: first }, { cycle: 188, digest: second }] };
}

test('a recorded lesson travels as a link and plays in a fresh page like a bundled one', async ({ page, context }) => {
  const { url, steps } = await recordTwoSteps(page);
  const fresh = await context.newPage();
  const problems = watchConsole(fresh);
  await fresh.goto(url);
  const id = 'linked_divergence';
  const body = fresh.locator('body');
  await expect(body).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await onStep(fresh, id, 1);
  await expect(fresh.locator('#lesson .lesson-title')).toHaveText('Linked divergence');
  // The text is text: the markup typed in it shows as typed.
  await expect(fresh.locator('#lesson .lesson-text')).toHaveText('The first split <b>not bold</b>.');
  expect(await fresh.locator('#lesson .lesson-text b').count()).toBe(0);
  await expect(fresh.locator('#lesson .lesson-question')).toContainText('Which lanes?');
  await expect(fresh.locator('#lesson .lesson-count')).toHaveText('step 1 of 2 · cycle 99');
  await expect(fresh.locator('#cycle')).toHaveText('99');
  await expect(fresh.locator('#example')).toHaveValue('divergence');
  await expect(fresh.locator('#lesson-select')).toHaveValue('#link');
  await expect(fresh.locator('#lesson-select option[value="#link"]')).toHaveText('Linked: Linked divergence');
  expect(await fresh.evaluate(() => window.warpstep.app.session.stateDigest())).toBe(steps[0].digest);
  expect(fresh.url()).toMatch(/#lessonData=[A-Za-z0-9_-]+&step=1$/);
  await fresh.click('.lesson-next');
  await onStep(fresh, id, 2);
  await expect(fresh.locator('#lesson .lesson-text')).toHaveText('Back together at E.');
  await expect(fresh.locator('#cycle')).toHaveText('188');
  await expect(fresh.locator('#view-pipeline')).toHaveClass(/lesson-highlight/);
  expect(await fresh.evaluate(() => window.warpstep.app.session.stateDigest())).toBe(steps[1].digest);
  expect(fresh.url()).toMatch(/&step=2$/);
  // Reloading the address bar's link opens the same step.
  await fresh.reload();
  await onStep(fresh, id, 2);
  await expect(fresh.locator('#cycle')).toHaveText('188');
  await fresh.screenshot({ path: '../target/e2e/lesson-link.png' });
  expect(problems).toEqual([]);
});

test('a damaged lesson link says what is wrong and keeps the current state', async ({ page: recorder, context }) => {
  const { url } = await recordTwoSteps(recorder);
  const data = url.split('#lessonData=')[1];
  // Opened at start, in a fresh page: the message over the default example.
  const page = await context.newPage();
  const problems = watchConsole(page);
  await page.goto(`/#lessonData=${data.slice(0, data.length - 9)}`);
  await expect(page.locator('body')).toHaveAttribute('data-ready', 'true', { timeout: 20_000 });
  await expect(page.locator('#notice')).toContainText('This lesson link cannot be opened');
  await expect(page.locator('#notice')).toContainText('Showing the default example instead');
  await expect(page.locator('#lesson')).toBeHidden();
  await expect(page.locator('#example')).toHaveValue('divergence');
  await expect(page.locator('#cycle')).toHaveText('0');
  // Typed in later, on another kernel: the kernel and cycle stay.
  await page.selectOption('#example', 'transpose-naive');
  await page.click('#btn-step-n');
  const before = await page.locator('#cycle').textContent();
  const cases = [
    ['not base64url', 'x!y', 'not valid base64url'],
    ['cut short', data.slice(0, 20), 'does not decompress'],
  ];
  // A well-formed link whose lesson would not pass as a bundled one: every field checked.
  const bad = await page.evaluate(async () => {
    const share = await import('/src/share.js');
    const step = { text: 'x', cycle: 5, view: 'simt', example: 'divergence' };
    const lesson = (over, stepOver = {}) => share.encodeLesson({ id: 'x', title: 'X', example: 'divergence', steps: [{ ...step, ...stepOver }], ...over });
    return {
      view: lesson({}, { view: 'nowhere' }),
      example: lesson({ example: 'no_such_example' }),
      unknown: lesson({}, { onclick: 'alert(1)' }),
      cycle: lesson({}, { cycle: 1e12 }),
      sets: lesson({}, { sets: 'l2.latency=1' }),
      digest: lesson({}, { digest: '<img src=x>' }),
      text: lesson({}, { text: 42 }),
      version: share.encodeLesson(null),
    };
  });
  cases.push(['no view', bad.view, 'no view "nowhere"']);
  cases.push(['no example', bad.example, 'no example "no_such_example"']);
  cases.push(['unknown field', bad.unknown, 'unknown field "onclick"']);
  cases.push(['cycle', bad.cycle, 'cycle must be a whole number']);
  cases.push(['sets', bad.sets, 'sets must be a list']);
  cases.push(['digest', bad.digest, 'digest must be 16']);
  cases.push(['text', bad.text, 'text must be text']);
  cases.push(['no lesson', bad.version, 'not a lesson']);
  for (const [what, d, message] of cases) {
    await page.evaluate((h) => { window.location.hash = h; }, `lessonData=${d}`);
    await expect(page.locator('#notice'), what).toContainText('This lesson link cannot be opened');
    await expect(page.locator('#notice'), what).toContainText(message);
    await expect(page.locator('#lesson')).toBeHidden();
    await expect(page.locator('#example')).toHaveValue('transpose-naive');
    await expect(page.locator('#cycle')).toHaveText(before);
    expect(await page.locator('#notice img').count()).toBe(0);
    await page.click('.notice-close');
  }
  // A good link still opens after them.
  await page.evaluate((h) => { window.location.hash = h; }, `lessonData=${data}&step=2`);
  await onStep(page, 'linked_divergence', 2);
  expect(problems).toEqual([]);
});
