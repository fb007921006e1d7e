// Independent thread scheduling in the app (book §3.1.2, issue 15): the warp-split view of the
// spinlock_barriers and volta_paths examples draws what the snapshot exports (thread states,
// barrier masks, the selected and ready splits); the Code tab shows the ADD/WAIT pseudo-lines
// only under convergence barriers, at the lines the listing places them, without disturbing line
// numbers, breakpoints or the current line; stepping back restores the splits exactly; the spin
// lock deadlocks under the stack and completes under barriers; the stack / barriers comparison
// shows both outcomes as the two sessions report them.
import { test, expect } from '@playwright/test';
import { watchConsole, open, model, stepUntil, runToEnd, settle } from './helpers.js';

async function load(page, id) {
  await page.selectOption('#example', id);
  await expect(page.locator('#cycle')).toHaveText('0');
  await expect(page.locator('body')).toHaveAttribute('data-status', 'running');
}

// The selected warp's `splits` as the session exports it.
async function splitsNow(page) {
  return page.evaluate(() => {
    const a = window.warpstep.app;
    return JSON.parse(a.session.snapshot(a.sm)).sm.warps[a.warp].splits;
  });
}

// The view's model against the exported splits: per thread its state, barrier and rPC line;
// each barrier's masks; the selected and ready splits; the YIELD counter.
function expectViewMatches(m, s) {
  expect(m.mode).toBe('splits');
  expect(m.threads).toEqual(s.threads.map((t, lane) => ({ lane, state: t.state, barrier: t.barrier, rpc: t.rpc, line: t.line })));
  expect(m.barriers).toEqual(s.barriers.map((b) => ({ id: b.id, participation: b.participation, arrived: b.arrived })));
  expect(m.selected).toEqual(s.selected ? { pc: s.selected.pc, line: s.selected.line, mask: s.selected.mask } : null);
  expect(m.ready).toEqual(s.ready.map((r) => ({ pc: r.pc, line: r.line, mask: r.mask })));
  expect(m.yield).toEqual({ without_progress: s.without_progress, yield_after: s.yield_after });
  expect(m.groups).toHaveLength(s.groups.length);
}

test('spinlock_barriers: the warp-split view shows yielded spinners, the holder and barrier B0', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'spinlock_barriers');
  await expect(page.locator('#view-simt header h2')).toHaveText('Warp splits (convergence barriers)');
  // Run to the first YIELD: the spinners give up the issue slot and the lock holder's split runs.
  const at = await stepUntil(page, '(s) => s.sm.warps[0].splits.threads.some((t) => t.state === "yielded")');
  expect(at).toBeGreaterThan(0);
  const s = await splitsNow(page);
  const m = await model(page, 'simt');
  expectViewMatches(m, s);
  const states = m.threads.map((t) => t.state);
  expect(states.filter((x) => x === 'yielded')).toHaveLength(3);
  expect(states[0]).toBe('ready');
  // The holder (lane 0) issues next, past the loop; B0 holds the spinners that added to it.
  expect(m.selected.mask).toBe('0x00000001');
  expect(m.barriers[0].id).toBe(0);
  expect(m.barriers[0].participation).toBe(s.barriers[0].participation);
  expect(m.groups.some((g) => g.startsWith('yielded'))).toBe(true);
  expect(m.all[0].splits).toBe(s.ready.length);
  await page.locator('#view-simt').screenshot({ path: '../target/e2e/view-splits-spinlock.png' });
  expect(problems).toEqual([]);
});

test('volta_paths: two ready splits interleave, then the early lanes block at WAIT B0', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'volta_paths');
  await stepUntil(page, '(s) => s.sm.warps[0].splits.ready.length === 2');
  let m = await model(page, 'simt');
  expectViewMatches(m, await splitsNow(page));
  expect(m.policy).toBe('round_robin');
  expect(m.ready).toHaveLength(2);
  expect(m.barriers[0].participation).toBe('0x000000ff');
  // The selected split's line, cycle by cycle, until the barrier clears: both paths take turns.
  const order = await page.evaluate(() => {
    const a = window.warpstep.app;
    const lines = [];
    for (let i = 0; i < 200; i++) {
      const sp = JSON.parse(a.session.snapshot(0)).sm.warps[0].splits;
      if (sp.threads.some((t) => t.state === 'blocked')) break;
      if (sp.selected && lines[lines.length - 1] !== sp.selected.line) lines.push(sp.selected.line);
      a.session.step(1);
    }
    a.draw(true);
    return lines;
  });
  await settle(page);
  // X (line 39) and A (34), then Y (41) and B (36): the two paths alternate (Fig. 3.10).
  expect(order.slice(0, 4)).toEqual([39, 34, 41, 36]);
  m = await model(page, 'simt');
  const s = await splitsNow(page);
  expectViewMatches(m, s);
  const blocked = m.threads.filter((t) => t.state === 'blocked');
  expect(blocked.length).toBe(4);
  expect(blocked.every((t) => t.barrier === 0 && t.line === 43)).toBe(true);
  expect(m.barriers[0].arrived).toBe(s.barriers[0].arrived);
  expect(m.barriers[0].arrived).not.toBe('0x00000000');
  await page.locator('#view-simt').screenshot({ path: '../target/e2e/view-splits-volta.png' });
  expect(problems).toEqual([]);
});

test('the listing shows ADD/WAIT pseudo-lines under barriers only, at the placed lines', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  for (const id of ['spinlock_barriers', 'volta_paths']) {
    await load(page, id);
    const expected = await page.evaluate(() => {
      const l = window.warpstep.app.listing;
      return l.placed.flatMap((list, pc) => list.map((item) => ({ item, line: l.instr_lines[pc] })));
    });
    expect(expected.map((e) => e.item).sort()).toEqual(['ADD B0', 'WAIT B0']);
    const shown = await page.locator('.cm-placed').evaluateAll((els) => els.map((e) => ({ items: e.dataset.items, line: Number(e.dataset.line), text: e.textContent })));
    expect(shown.flatMap((s) => s.items.split(',').map((item) => ({ item, line: s.line })))).toEqual(expected);
    for (const s of shown) expect(s.text).toContain(s.items);
    // The pseudo-line sits right above its PTX line, and the editor's line numbers are unchanged:
    // the line-number gutter still counts every PTX line, and the line below the widget is the
    // instruction's text.
    for (const e of expected) {
      const below = await page.locator(`.cm-placed[data-line="${e.line}"]`).evaluate((el) => el.nextElementSibling && el.nextElementSibling.textContent);
      const ptx = await page.evaluate((n) => window.warpstep.app.editor.getText().split('\n')[n - 1], e.line);
      expect(below.trim()).toBe(ptx.trim());
    }
  }
  // The current-line mark and a breakpoint still land on PTX lines.
  await stepUntil(page, '(s) => s.sm.warps[0].line === 43');
  await expect(page.locator('#editor .cm-current-line')).toContainText('mul.wide.u32');
  await page.locator('.left').screenshot({ path: '../target/e2e/listing-placed-volta.png' });
  await page.locator('#editor .cm-lineNumbers .cm-gutterElement', { hasText: /^43$/ }).click();
  await expect(page.locator('body')).toHaveAttribute('data-breakpoints', '43');
  await page.locator('#editor .cm-lineNumbers .cm-gutterElement', { hasText: /^43$/ }).click();
  await expect(page.locator('body')).toHaveAttribute('data-breakpoints', '');
  // Under the SIMT stack nothing is placed.
  await load(page, 'spinlock');
  expect(await page.evaluate(() => window.warpstep.app.listing.placed.every((l) => l.length === 0))).toBe(true);
  await expect(page.locator('.cm-placed')).toHaveCount(0);
  await load(page, 'divergence');
  await expect(page.locator('.cm-placed')).toHaveCount(0);
  expect(problems).toEqual([]);
});

test('stepping back restores the splits and barrier state exactly', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  for (const id of ['spinlock_barriers', 'volta_paths']) {
    await load(page, id);
    // A cycle with a barrier in use (spin lock: the spinners' B0; volta: lanes arrived at B0).
    const n = await stepUntil(page, id === 'volta_paths'
      ? '(s) => s.sm.warps[0].splits.threads.some((t) => t.state === "blocked")'
      : '(s) => s.sm.warps[0].splits.threads.some((t) => t.state === "yielded")');
    const before = await splitsNow(page);
    const shown = await model(page, 'simt');
    for (let i = 0; i < 7; i++) await page.locator('body').press('ArrowRight');
    await expect(page.locator('#cycle')).toHaveText(String(n + 7));
    expect(await splitsNow(page)).not.toEqual(before);
    for (let i = 0; i < 7; i++) await page.locator('body').press('ArrowLeft');
    await expect(page.locator('#cycle')).toHaveText(String(n));
    expect(await splitsNow(page)).toEqual(before);
    expect(await model(page, 'simt')).toEqual(shown);
    // And a longer jump back (Shift+←, N cycles) from further on.
    await page.fill('#step-n', '40');
    await page.click('#btn-step-n');
    await page.locator('body').press('Shift+ArrowLeft');
    await expect(page.locator('#cycle')).toHaveText(String(n));
    expect(await splitsNow(page)).toEqual(before);
  }
  expect(problems).toEqual([]);
});

test('the spin lock deadlocks under the stack and completes under convergence barriers', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'spinlock');
  await runToEnd(page);
  await expect(page.locator('body')).toHaveAttribute('data-status', 'failed');
  await expect(page.locator('#run-status')).toHaveText('failed');
  await expect(page.locator('#banner')).toContainText('deadlock');
  await load(page, 'spinlock_barriers');
  await runToEnd(page);
  await expect(page.locator('body')).toHaveAttribute('data-status', 'completed');
  const cycles = await page.locator('body').getAttribute('data-cycle');
  await expect(page.locator('#run-status')).toHaveText(`completed in ${cycles} cycles`);
  const report = await page.evaluate(() => JSON.parse(window.warpstep.app.session.reportWithBuffers(Uint32Array.from([1]))));
  expect(report.buffers['1']).toEqual([4]);
  expect(report.simt.splits.yields).toBeGreaterThan(0);
  expect(problems).toEqual([]);
});

test('the stack / convergence barriers comparison shows both outcomes', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // The reference: each example run to its end on its own.
  const ends = {};
  for (const id of ['spinlock', 'spinlock_barriers']) {
    await load(page, id);
    await runToEnd(page);
    ends[id] = Number(await page.locator('body').getAttribute('data-cycle'));
  }
  await load(page, 'spinlock');
  await page.fill('#step-n', '100');
  await page.click('#btn-step-n');
  await page.locator('#view-simt').scrollIntoViewIfNeeded();
  await page.locator('#view-simt .divergence-run').click();
  const strip = page.locator('#view-simt canvas.divergence-strip');
  await expect(strip).toHaveCount(1);
  await settle(page);
  const m = JSON.parse(await strip.getAttribute('data-model'));
  expect(m.rows.map((r) => r.mode)).toEqual(['stack', 'convergence_barriers']);
  const [stack, barriers] = m.rows;
  expect(stack.current).toBe(true);
  expect(stack.status).toBe('failed');
  expect(stack.cycles).toBe(ends.spinlock);
  expect(stack.outcome).toContain(`deadlock reported at cycle ${ends.spinlock}`);
  expect(stack.error).toContain('deadlock');
  expect(stack.watched).toEqual({ counter: 0 });
  expect(barriers.status).toBe('completed');
  expect(barriers.outcome).toBe(`completed in ${ends.spinlock_barriers} cycles`);
  expect(barriers.watched).toEqual({ counter: 4 });
  expect(stack.issues).toBeGreaterThan(0);
  expect(barriers.issues).toBeGreaterThan(0);
  await expect(page.locator('#view-simt .divergence-note')).toContainText('warp 0');
  await page.locator('#view-simt').screenshot({ path: '../target/e2e/view-divergence-compare.png' });
  expect(m.cursor).toBe(100);
  // A rebuild drops the comparison (it belongs to the kernel it ran).
  await load(page, 'volta_paths');
  await expect(strip).toHaveCount(0);
  // Volta's two paths, enlarged for the class: both modes complete, the stack in one group per
  // path, barriers with the paths interleaved; the same number of thread instructions issue.
  await page.fill('#step-n', '20');
  await page.click('#btn-step-n');
  await page.locator('#view-simt .focus').click();
  await page.locator('#view-simt .divergence-run').click();
  await expect(strip).toHaveCount(1);
  await settle(page);
  const v = JSON.parse(await strip.getAttribute('data-model'));
  expect(v.rows.map((r) => r.status)).toEqual(['completed', 'completed']);
  expect(v.rows[1].current).toBe(true);
  expect(v.rows[0].lanesIssued).toBe(v.rows[1].lanesIssued);
  await page.screenshot({ path: '../target/e2e/view-divergence-compare-volta.png' });
  expect(problems).toEqual([]);
});

test('the Setup tab switches a kernel between the SIMT stack and convergence barriers', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await load(page, 'spinlock');
  await expect(page.locator('#view-simt header h2')).not.toHaveText('Warp splits (convergence barriers)');
  await page.click('.tab[data-tab=setup]');
  await expect(page.locator('#f-divergence')).toHaveValue('stack');
  await page.selectOption('#f-divergence', 'convergence_barriers');
  await page.selectOption('#f-split', 'round_robin');
  await expect(page.locator('#overrides')).toHaveValue(/core\.divergence=convergence_barriers\ncore\.split_policy=round_robin$/);
  await expect(page.locator('#config-json')).toContainText('"divergence": "convergence_barriers"');
  await page.click('#btn-apply-setup');
  await expect(page.locator('#view-simt header h2')).toHaveText('Warp splits (convergence barriers)');
  await runToEnd(page);
  await expect(page.locator('body')).toHaveAttribute('data-status', 'completed');
  const report = await page.evaluate(() => JSON.parse(window.warpstep.app.session.report()));
  expect(report.simt.splits.yields).toBeGreaterThan(0);
  expect(report.simt.max_stack_depth).toBe(0);
  expect(problems).toEqual([]);
});
