// Issue 17, "What a new user hit": the layout at 150% zoom and on a wide window, text that must
// never be cut short (numbers, stall reasons, the example's name), the SIMT stack's cue when
// stepping back over a push or pop, and the first-run hint.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, stepUntil, runToEnd, settle } from './helpers.js';

const SHOTS = '../target/e2e';

// Every canvas's record of the text it drew (canvas.drawn, kept by canvas.js's text()).
async function drawnTexts(page) {
  return page.evaluate(() => [...document.querySelectorAll('#views canvas')].flatMap((c) => (c.drawn || []).map((d) => ({ view: c.closest('.view') ? c.closest('.view').id : '', ...d }))));
}

// The words of `s` that must be drawn whole: numbers (anything with a digit) and names with
// an underscore (stall reasons).
function keptWords(s) {
  return s.split(/\s+/).map((w) => w.replace(/^[(:,]+|[):,.…]+$/g, '')).filter((w) => /[0-9_]/.test(w));
}

// Scrolls every view on screen in turn, so each draws the current frame.
async function drawEveryView(page) {
  for (const id of await page.evaluate(() => [...document.querySelectorAll('.view:not([hidden])')].map((v) => v.id))) {
    await page.locator(`#${id}`).scrollIntoViewIfNeeded();
    await settle(page);
  }
}

test.describe('at 150% browser zoom (1280x720 CSS pixels become 853x480, devicePixelRatio 1.5)', () => {
  test.use({ viewport: { width: 853, height: 480 }, deviceScaleFactor: 1.5 });

  test('every top-bar control is on screen and usable; canvas text grows with the zoom', async ({ page }) => {
    const problems = watchConsole(page);
    await open(page);
    await page.screenshot({ path: `${SHOTS}/layout-zoom150.png` });
    expect(await page.evaluate(() => window.devicePixelRatio)).toBe(1.5);
    // Every visible control of the top bar lies inside the viewport.
    const boxes = await page.evaluate(() => [...document.querySelectorAll('.topbar button, .topbar input, .topbar select, .topbar .cycle, .topbar .run-status')]
      .filter((e) => e.offsetParent !== null && !e.hidden)
      .map((e) => { const r = e.getBoundingClientRect(); return { id: e.id || e.className, left: r.left, right: r.right, top: r.top, bottom: r.bottom, w: r.width }; }));
    expect(boxes.map((b) => b.id)).toEqual(expect.arrayContaining(['cycle', 'btn-goto', 'btn-share', 'btn-help', 'btn-run', 'example']));
    for (const b of boxes) {
      expect(b.left, b.id).toBeGreaterThanOrEqual(0);
      expect(b.right, b.id).toBeLessThanOrEqual(853);
      expect(b.bottom, b.id).toBeLessThanOrEqual(480);
      expect(b.w, b.id).toBeGreaterThan(8);
    }
    // Usable: Go, ? and Share respond to clicks.
    await page.fill('#goto-cycle', '12');
    await page.click('#btn-goto');
    await expect(page.locator('#cycle')).toHaveText('12');
    await page.click('#btn-help');
    await expect(page.locator('#help')).toBeVisible();
    await page.click('#btn-help-close');
    await page.click('#btn-share');
    await expect(page.locator('body')).toHaveAttribute('data-share-url', /#/);
    // The views keep most of the width beside the code panel.
    const viewsW = await page.evaluate(() => document.getElementById('views').getBoundingClientRect().width);
    expect(viewsW).toBeGreaterThan(853 * 0.6);
    // Canvas: a backing store of 1.5 device pixels per CSS pixel, text sized in CSS pixels, so
    // on screen it is 1.5 times as large (at least 18 device pixels for the 12 px font).
    await settle(page);
    const c = await page.evaluate(() => {
      const el = document.querySelector('#view-pipeline canvas');
      return { width: el.width, css: el.parentElement.clientWidth - 2, px: Math.min(...el.drawn.map((d) => d.px)) };
    });
    expect(Math.abs(c.width - c.css * 1.5)).toBeLessThanOrEqual(1);
    expect(c.px * 1.5).toBeGreaterThanOrEqual(13.5); // smallest: the 12 px font fitted down to 9 px at most
    const pipe = await page.evaluate(() => document.querySelector('#view-pipeline canvas').drawn.filter((d) => d.s === 'Warp slots (click to select):')[0]);
    expect(pipe.px * 1.5).toBeGreaterThanOrEqual(18);
    expect(problems).toEqual([]);
  });
});

test.describe('on a wide window (1920x1080)', () => {
  test.use({ viewport: { width: 1920, height: 1080 } });

  test('canvas text is larger on a wide view and on an enlarged one, which sits under the top bar', async ({ page }) => {
    const problems = watchConsole(page);
    await open(page);
    const scale = Number(await page.locator('#view-simt canvas').first().getAttribute('data-font-scale'));
    expect(scale).toBeGreaterThan(1.2);
    const title = await page.evaluate(() => document.querySelector('#view-simt canvas').drawn.find((d) => d.s.startsWith('Warp 0')));
    expect(title.px).toBeGreaterThan(14);
    await page.click('#view-simt .focus');
    await settle(page);
    await page.screenshot({ path: `${SHOTS}/layout-wide-enlarged.png` });
    const pos = await page.evaluate(() => ({ top: document.getElementById('view-simt').getBoundingClientRect().top, bar: document.querySelector('.topbar').getBoundingClientRect().bottom }));
    expect(Math.abs(pos.top - pos.bar)).toBeLessThanOrEqual(2);
    expect(problems).toEqual([]);
  });
});

test.describe('at 1280x720 nothing that matters is cut short', () => {
  test('the example select shows each example\'s whole name, with the full title as its tooltip', async ({ page }) => {
    await open(page);
    const r = await page.evaluate(() => {
      const sel = document.getElementById('example');
      const cs = getComputedStyle(sel);
      const ctx = document.createElement('canvas').getContext('2d');
      ctx.font = `${cs.fontWeight} ${cs.fontSize} ${cs.fontFamily}`;
      const room = sel.clientWidth - parseFloat(cs.paddingLeft) - parseFloat(cs.paddingRight) - 20; // the arrow
      return { room, title: sel.title, options: [...sel.options].map((o) => ({ value: o.value, text: o.textContent, title: o.title, w: ctx.measureText(o.textContent).width })) };
    });
    const EXAMPLES = await page.evaluate(async () => (await import('/src/examples.js')).EXAMPLES.map((e) => ({ id: e.id, title: e.title })));
    expect(r.title).toBe(EXAMPLES.find((e) => e.id === 'divergence').title);
    for (const o of r.options) {
      expect(o.w, o.text).toBeLessThanOrEqual(r.room);
      if (o.value) expect(o.title).toBe(EXAMPLES.find((e) => e.id === o.value).title);
    }
    // At 1280 px the top bar stays one row.
    expect(await page.evaluate(() => document.querySelector('.topbar').getBoundingClientRect().height)).toBeLessThan(48);
    await page.selectOption('#example', 'needle-partitioned');
    await expect(page.locator('#example')).toHaveAttribute('title', 'Rodinia needle, partitioned register file / shared / L1');
  });

  test('stall reasons in the pipeline view are drawn whole', async ({ page }) => {
    const problems = watchConsole(page);
    await open(page);
    await page.selectOption('#example', 'stride-32');
    await stepUntil(page, '(s) => s.sm.schedulers.some((x) => x.issued == null && x.stall === "long_scoreboard")', 3000);
    const m = await model(page, 'pipeline');
    await page.locator('#view-pipeline').screenshot({ path: `${SHOTS}/layout-stall.png` });
    const stalled = m.schedulerLabels.filter((l) => l.includes('long_scoreboard'));
    expect(stalled.length).toBeGreaterThan(0);
    // Every other label keeps its stall reason or its warp, instruction and line whole.
    const snap = await page.evaluate(() => JSON.parse(window.warpstep.app.session.snapshot(0)));
    snap.sm.schedulers.forEach((s, i) => {
      if (s.issued == null) expect(m.schedulerLabels[i]).toContain(s.stall === 'idle' ? 'idle' : s.stall);
      else expect(m.schedulerLabels[i]).toContain(`W${s.issued}`);
    });
    expect(problems).toEqual([]);
  });

  test('the cycle count of a completed run is shown whole, in the status and the stack / barriers comparison', async ({ page }) => {
    const problems = watchConsole(page);
    await open(page);
    await page.selectOption('#example', 'pathfinder');
    await runToEnd(page);
    const end = await page.evaluate(() => window.warpstep.app.session.cycle());
    const status = page.locator('#run-status');
    await expect(status).toHaveText(`completed in ${end} cycles`);
    expect(await status.evaluate((e) => e.scrollWidth <= e.clientWidth + 1 && e.getBoundingClientRect().right <= innerWidth)).toBe(true);
    await page.locator('#view-simt .divergence-run').click();
    const rows = await page.evaluate(() => JSON.parse(document.querySelector('#view-simt canvas.divergence-strip').dataset.model).rows);
    expect(rows.length).toBe(2);
    for (const r of rows) {
      expect(r.outcomeDrawn).toBe(r.outcome);
      if (r.status === 'completed') expect(r.outcome).toBe(`completed in ${r.cycles} cycles`);
    }
    await page.locator('#view-simt').screenshot({ path: `${SHOTS}/layout-divergence-compare.png` });
    expect(problems).toEqual([]);
  });

  test('no canvas text ever loses a number or a stall reason, here or at 150% zoom', async ({ page }) => {
    const problems = watchConsole(page);
    const check = async () => {
      for (const d of await drawnTexts(page)) {
        for (const w of keptWords(d.s)) expect(d.t, `${d.view}: "${d.s}" drawn as "${d.t}"`).toContain(w);
      }
    };
    await open(page);
    for (const [ex, cycle] of [['divergence', 9], ['stride-32', 60], ['elastic-timeline', 40], ['atax-mrpb', 300], ['needle-unified', 200]]) {
      await page.selectOption('#example', ex);
      await page.fill('#goto-cycle', String(cycle));
      await page.click('#btn-goto');
      await expect(page.locator('body')).toHaveAttribute('data-run-state', 'paused');
      await drawEveryView(page);
      await check();
    }
    await page.setViewportSize({ width: 853, height: 480 });
    await settle(page);
    await drawEveryView(page);
    await check();
    expect(problems).toEqual([]);
  });
});

test('stepping back over a SIMT-stack push or pop shows it undone', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // Forward to the first push (the divergent branch), then back over it.
  const pushAt = await stepUntil(page, '(s) => s.sm.warps[0] && s.sm.warps[0].stack.length > 1', 500);
  await page.keyboard.press('ArrowLeft'); // draws cycle pushAt - 1 ...
  await page.keyboard.press('ArrowRight'); // ... and the push again, forward
  let m = await model(page, 'simt');
  expect(m.changed).toBe('push');
  expect(m.direction).toBe('forward');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#cycle')).toHaveText(String(pushAt - 1));
  m = await model(page, 'simt');
  expect(m.changed).toBe('undo push');
  expect(m.direction).toBe('back');
  expect(m.cue).toMatch(/^undo push/);
  const drawn = await page.evaluate(() => document.querySelector('#view-simt canvas').drawn.map((d) => d.t));
  expect(drawn.some((t) => t.startsWith('undo push'))).toBe(true);
  await page.locator('#view-simt').screenshot({ path: `${SHOTS}/layout-undo-push.png` });
  // Forward to the first pop (reconvergence), then back over it.
  const depth = m.depth;
  await page.keyboard.press('ArrowRight');
  const popAt = await stepUntil(page, `(s) => s.sm.warps[0] && s.sm.warps[0].stack.length < ${depth + 1}`, 500);
  await page.keyboard.press('ArrowLeft');
  await page.keyboard.press('ArrowRight');
  m = await model(page, 'simt');
  expect(m.changed).toBe('pop');
  await page.keyboard.press('ArrowLeft');
  await expect(page.locator('#cycle')).toHaveText(String(popAt - 1));
  m = await model(page, 'simt');
  expect(m.changed).toBe('undo pop');
  expect(m.cue).toMatch(/^undo pop/);
  await page.locator('#view-simt').screenshot({ path: `${SHOTS}/layout-undo-pop.png` });
  // Back over a cycle with no stack change: no cue.
  await page.keyboard.press('ArrowLeft');
  m = await model(page, 'simt');
  expect(['none', 'update']).toContain(m.changed);
  expect(problems).toEqual([]);
});

test('a first-run hint says what to do, and goes on the first step; dismissed, it stays gone', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const hint = page.locator('#first-run');
  await expect(hint).toBeVisible();
  await expect(hint).toContainText('Press → to step one cycle, Space to run; pick an example above; ? for help.');
  await page.screenshot({ path: `${SHOTS}/layout-first-run.png` });
  await page.keyboard.press('ArrowRight');
  await expect(page.locator('#cycle')).toHaveText('1');
  await expect(hint).toBeHidden();
  await page.keyboard.press('r'); // back at cycle 0: the hint has done its job
  await expect(page.locator('#cycle')).toHaveText('0');
  await expect(hint).toBeHidden();
  // A new visit shows it again until dismissed; after the ×, a reload does not.
  await open(page);
  await expect(page.locator('#first-run')).toBeVisible();
  await page.click('#first-run .first-run-close');
  await expect(page.locator('#first-run')).toBeHidden();
  await open(page);
  await expect(page.locator('body')).toHaveAttribute('data-first-run-hint', 'hidden');
  await expect(page.locator('#first-run')).toBeHidden();
  expect(problems).toEqual([]);
});
