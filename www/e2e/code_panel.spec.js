// The code beside the views and issue 29's leftovers (issue 30): the Code panel shows the CUDA
// and PTX around the selected warp's line, large in presentation mode, and a lesson citing PTX
// lines shows it; the SIMT stack names the book's blocks (A to G); a stop at a breakpoint marks
// the breakpoint's line, not the next instruction's; the editor's language switch forces CUDA
// or PTX (a `// warpstep: --lang` line the model reads); a CUDA kernel whose generated PTX does
// not load says so clearly, with the PTX shown and its line marked.
import { test, expect } from '@playwright/test';
import { open, watchConsole, settle, model } from './helpers.js';

const SHOTS = '../target/e2e';

async function waitPaused(page) {
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'paused', { timeout: 30_000 });
}

// Replaces the input pane's text by typing (its first line clicked first).
async function typeInto(page, pane, text) {
  await page.locator(`${pane} .cm-line`).first().click();
  await page.keyboard.press('Control+a');
  await page.keyboard.insertText(text);
}

test('a stop at a PTX breakpoint marks the breakpoint\'s line in the editor and the Code panel', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // The divergence example: PTX line 60 is the setp before the branch on line 62.
  const text = await page.evaluate(() => window.warpstep.app.editor.getText().split('\n'));
  expect(text[59]).toContain('setp.eq.u32');
  await page.locator('#editor .cm-lineNumbers .cm-gutterElement', { hasText: /^60$/ }).click();
  await page.click('#btn-run');
  await expect(page.locator('#run-status')).toContainText('line 60');
  await waitPaused(page);
  const stop = await page.evaluate(() => {
    const app = window.warpstep.app;
    const s = app.session;
    return { line: s.breakLine(), warp: s.breakWarp(), sm: s.breakSm(), next: JSON.parse(s.snapshot(0)).sm.warps[s.breakWarp()].line, selected: app.warp };
  });
  expect(stop.line).toBe(60);
  expect(stop.warp).toBe(0);
  expect(stop.sm).toBe(0);
  expect(stop.selected).toBe(0);
  // The warp's next instruction is the branch on line 62; the mark stays on line 60.
  expect(stop.next).toBe(62);
  await expect(page.locator('#editor .cm-current-line')).toHaveCount(1);
  await expect(page.locator('#editor .cm-current-line')).toContainText('setp.eq.u32');
  const code = await model(page, 'code');
  expect(code.ptxLine).toBe(60);
  await expect(page.locator('#view-code .code-ptx li.current')).toHaveAttribute('data-line', '60');
  await expect(page.locator('#view-code .code-ptx li.current')).toContainText('setp.eq.u32');
  // A step moves on: the mark follows the warp's next instruction again.
  await page.click('#btn-step');
  const after = await page.evaluate(() => { const app = window.warpstep.app; return { warp: app.session.breakWarp(), line: JSON.parse(app.session.snapshot(0)).sm.warps[0].line }; });
  expect(after.warp).toBe(-1);
  expect(after.line).not.toBe(60);
  await expect(page.locator('#view-code .code-ptx li.current')).toHaveAttribute('data-line', String(after.line));
  expect(problems).toEqual([]);
});

test('the Code panel in a lesson: CUDA and PTX beside the SIMT stack, which names the blocks', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, '/#lesson=divergence&step=2&present=1');
  await waitPaused(page);
  await expect(page.locator('body')).toHaveAttribute('data-present-panels', 'simt,pipeline,code');
  await expect(page.locator('#view-code')).toBeVisible();
  // The step stops at its breakpoint, PTX line 62 (the branch), hit by warp 0: that line is
  // marked, not the line warp 0 issues next.
  const code = JSON.parse(await page.locator('#view-code').getAttribute('data-model'));
  const snap = JSON.parse(await page.evaluate(() => window.warpstep.app.session.snapshot(0)));
  expect(code.ptxLine).toBe(62);
  expect(snap.sm.warps[0].line).not.toBe(62);
  await expect(page.locator('#view-code .code-ptx li.current')).toContainText('bra');
  const listing = await page.evaluate(() => window.warpstep.app.listing);
  expect(code.cudaLine).toBe(listing.source_lines[code.ptxLine]);
  expect(code.cudaLine).toBeGreaterThan(0);
  await expect(page.locator('#view-code .code-cuda li.current')).toHaveAttribute('data-line', String(code.cudaLine));
  // The stack names its entries' blocks: G (the reconvergence entry), F and B, from the model's
  // block_labels.
  const stack = JSON.parse(await page.locator('#view-simt canvas').first().getAttribute('data-model'));
  const entries = stack.entries || (stack.selected && stack.selected.entries);
  expect(entries.map((e) => e.block)).toEqual(['G', 'F', 'B']);
  const labels = await page.evaluate(() => [...document.querySelectorAll('#view-simt canvas')].flatMap((c) => (c.drawn || []).map((d) => d.s)));
  expect(labels.some((s) => /\[G\]/.test(s))).toBe(true);
  expect(labels.some((s) => /\[B\]/.test(s))).toBe(true);
  await page.waitForTimeout(300);
  await page.screenshot({ path: `${SHOTS}/code-panel-lesson-1280.png` });
  // V makes the code the large panel (the next chosen one in the Panels order): its text large.
  await page.keyboard.press('v');
  await expect(page.locator('body')).toHaveAttribute('data-present-main', 'code');
  const px = await page.locator('#view-code .code-ptx li.current').evaluate((e) => parseFloat(getComputedStyle(e).fontSize));
  expect(px).toBeGreaterThanOrEqual(18);
  await page.screenshot({ path: `${SHOTS}/code-panel-large-1280.png` });
  expect(problems).toEqual([]);
});

test('a lesson step at a breakpoint marks its line: divergence step 1 stands on the compare, PTX line 60', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, '/#lesson=divergence&step=1');
  await waitPaused(page);
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '1');
  expect((await model(page, 'code')).ptxLine).toBe(60);
  await expect(page.locator('#view-code .code-ptx li.current')).toHaveAttribute('data-line', '60');
  await expect(page.locator('#editor .cm-current-line')).toContainText('setp.eq.u32');
  // N: a step by cycle (step 3) marks the warp's next line again.
  await page.keyboard.press('n');
  await page.keyboard.press('n');
  await expect(page.locator('body')).toHaveAttribute('data-lesson-step', '3');
  await waitPaused(page);
  const next = await page.evaluate(() => JSON.parse(window.warpstep.app.session.snapshot(0)).sm.warps[0].line);
  expect((await model(page, 'code')).ptxLine).toBe(next);
  await expect(page.locator('#view-code .code-ptx li.current')).toHaveAttribute('data-line', String(next));
  expect(problems).toEqual([]);
});

test('the warp-split view names the book\'s blocks too (convergence barriers)', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.click('.tab[data-tab=setup]');
  await page.selectOption('#f-divergence', 'convergence_barriers');
  await page.click('#btn-apply-setup');
  await expect(page.locator('#view-simt header h2')).toHaveText('Warp splits (convergence barriers)');
  await page.fill('#goto-cycle', '120');
  await page.click('#btn-goto');
  await waitPaused(page);
  await settle(page);
  const labels = await page.evaluate(() => window.warpstep.app.listing.block_labels);
  const split = await page.evaluate(() => { const a = window.warpstep.app; return JSON.parse(a.session.snapshot(a.sm)).sm.warps[a.warp].splits; });
  const said = await page.evaluate(() => [...document.querySelectorAll('#view-simt canvas')].flatMap((c) => (c.drawn || []).map((d) => d.s)));
  // The split that issues next, named with its PC's block from the model's listing.
  const pc = split.selected.pc;
  expect(labels[pc]).toMatch(/^[A-G]$/);
  expect(said.some((t) => t.includes(`PC ${pc} [${labels[pc]}]`))).toBe(true);
  expect(problems).toEqual([]);
});

const CUDA = `// warpstep: --grid 1 --block 8 --arg s32[8]=iota --arg s32[8]=0
__global__ void twice(const int *in, int *out) {
    int t = threadIdx.x;
    out[t] = 2 * in[t];
}
`;

test('the language switch forces PTX or CUDA through a --lang line the model reads', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await typeInto(page, '#editor', CUDA);
  await expect(page.locator('#code-lang')).toHaveText('CUDA');
  await expect(page.locator('#code-lang-pick')).toHaveValue('auto');
  // Forced to PTX: the model reads the text as PTX, and says what is wrong with it as PTX.
  await page.selectOption('#code-lang-pick', 'ptx');
  await expect(page.locator('#code-lang')).toHaveText('PTX');
  expect(await page.evaluate(() => window.warpstep.app.panes.inputText().split('\n')[0])).toBe('// warpstep: --lang ptx');
  await page.click('#btn-apply');
  await expect(page.locator('#input-error')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-error-kind', 'ptx');
  // Back to CUDA: it compiles and runs; the line stays in the text (a share link keeps it).
  await page.selectOption('#code-lang-pick', 'cuda');
  await expect(page.locator('#code-lang')).toHaveText('CUDA');
  await page.click('#btn-apply');
  await expect(page.locator('#input-error')).toBeHidden();
  await expect(page.locator('body')).toHaveAttribute('data-code', 'cuda+ptx');
  expect(await page.evaluate(() => window.warpstep.app.listing.generated)).toBe(true);
  await expect(page.locator('#code-lang-pick')).toHaveValue('cuda');
  // Auto: the line goes and the text is recognised as CUDA again.
  await page.selectOption('#code-lang-pick', 'auto');
  expect(await page.evaluate(() => window.warpstep.app.panes.inputText())).toBe(CUDA);
  await expect(page.locator('#code-lang')).toHaveText('CUDA');
  await page.screenshot({ path: `${SHOTS}/code-lang-switch.png` });
  expect(problems).toEqual([]);
});

test('a CUDA kernel whose generated PTX does not load shows a clear error at the PTX line', async ({ page }) => {
  await open(page);
  // 64 MB of shared memory: the compiler emits it; the PTX loader refuses it (at most 16 MB).
  const big = `// warpstep: --grid 1 --block 32 --arg s32[32]=0
__global__ void big(int *out) {
    __shared__ int tile[16777216];
    tile[threadIdx.x] = threadIdx.x;
    __syncthreads();
    out[threadIdx.x] = tile[threadIdx.x];
}
`;
  await typeInto(page, '#editor', big);
  await expect(page.locator('#code-lang')).toHaveText('CUDA');
  await page.click('#btn-apply');
  await expect(page.locator('#input-error')).toBeVisible();
  await expect(page.locator('body')).toHaveAttribute('data-error-kind', 'generated_ptx');
  await expect(page.locator('#input-error')).toContainText('generated PTX error: the PTX that warpstep compiled from');
  await expect(page.locator('#input-error')).toContainText('does not load');
  await expect(page.locator('#input-error')).toContainText('is larger than 16777216 bytes');
  // The PTX it compiled is shown, the line the loader refused marked in it.
  await expect(page.locator('#editor .cm-content')).toContainText('.shared');
  const line = Number(await page.locator('body').getAttribute('data-error-line'));
  expect(line).toBeGreaterThan(0);
  await expect(page.locator('#editor .cm-error-line')).toHaveCount(1);
  // The previous simulation stays.
  await expect(page.locator('#input-error')).toContainText('The last good simulation stays on screen');
  await settle(page);
  await page.screenshot({ path: `${SHOTS}/code-generated-ptx-error.png` });
});
