// CUDA lines beside PTX lines in the views (issue 29): nvcc's -lineinfo PTX (the transpose
// examples) and the book's kernel (its `.loc` lines point at Figure 3.2) name the CUDA line
// wherever a view names a PTX line: the SIMT stack's entries, the pipeline's instructions, the
// timeline's hover text, the Why? chain. Hand-written PTX (the column walk) names none. The mapping is the model's
// (Session.listing().source_lines): nothing is worked out here. Screenshots under target/e2e/.
import { test, expect } from '@playwright/test';
import { watchConsole, open, stepUntil, model, settle } from './helpers.js';

async function whyButtons(page) {
  const view = page.locator('#view-why');
  await view.scrollIntoViewIfNeeded();
  await settle(page);
  return view.locator('.why-line').allTextContents();
}

test('transpose: the SIMT stack, pipeline and Why? name the CUDA line of each PTX line', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'transpose-naive');
  const listing = await page.evaluate(() => window.warpstep.app.listing);
  expect(listing.source_file).toBe('transpose.cu');
  // The naive column read (PTX line 69) is transpose.cu line 14.
  expect(listing.source_lines[69]).toBe(14);
  await stepUntil(page, '(s) => s.sm.warps.some((w) => w && w.state === "barrier")');
  const slot = await page.evaluate(() => window.warpstep.app.snap.sm.warps.findIndex((w) => w && w.state === 'barrier'));
  await page.evaluate((w) => window.warpstep.app.selectWarp(w), slot);

  const simt = await model(page, 'simt');
  const top = simt.entries[simt.entries.length - 1];
  expect(top.cuda_line).toBe(listing.source_lines[top.line]);
  expect(top.cuda_line).toBeGreaterThan(0);
  await page.locator('#view-simt').screenshot({ path: '../target/e2e/source-lines-simt-transpose.png' });

  const pipe = await model(page, 'pipeline');
  const labels = [...pipe.schedulerLabels, ...pipe.unitLabels].filter((l) => / \(L\d+/.test(l));
  expect(labels.length).toBeGreaterThan(0);
  // "(L57 · CUDA 10)", or in a narrow box "(L57·cu10)" (or "(L57)" where even that would cut the
  // opcode short): the CUDA line is the listing's.
  const named = labels.map((l) => l.match(/\(L(\d+)(?: · CUDA |·cu)(\d+)\)/)).filter(Boolean);
  for (const [, ptx, cuda] of named) expect(Number(cuda)).toBe(listing.source_lines[Number(ptx)]);
  // A scheduler that issued names the CUDA line in its label or, where that has no room, in
  // its caption ("S0 (CUDA line 10)").
  const issued = pipe.schedulerLabels.map((l, i) => [l, pipe.schedulerCaptions[i]]).filter(([l]) => / \(L\d+/.test(l));
  expect(issued.length).toBeGreaterThan(0);
  for (const [l, caption] of issued) {
    const ptx = Number(l.match(/\(L(\d+)/)[1]);
    expect(`${l} ${caption}`).toMatch(new RegExp(`(CUDA |·cu|CUDA line )${listing.source_lines[ptx]}\\b`));
  }
  await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/source-lines-pipeline-transpose.png' });

  // The timeline's newest column says which line warp 0's next instruction is on.
  await model(page, 'timeline');
  const tip = await page.evaluate(() => {
    const c = document.querySelector('#view-timeline canvas');
    const r = c.regions.find((x) => typeof x.tip === 'function');
    c.lastX = r.x + r.w - 1;
    c.lastY = r.y + 1;
    return r.tip();
  });
  const next = await page.evaluate(() => window.warpstep.app.snap.sm.warps[0].line);
  expect(tip).toContain(`Its next instruction: PTX line ${next} (CUDA line ${listing.source_lines[next]}).`);

  // The warp waits at __syncthreads(): PTX line 59, transpose.cu line 11.
  const why = await page.evaluate(() => JSON.parse(window.warpstep.app.session.why(0, window.warpstep.app.warp, -1)));
  const barrier = why.links.find((l) => l.kind === 'barrier');
  expect(barrier.text).toContain('bar.sync (line 59, CUDA line 11)');
  expect([barrier.line, barrier.source_line]).toEqual([59, 11]);
  expect(await whyButtons(page)).toContain('line 59 · CUDA 11');
  await page.locator('#view-why').screenshot({ path: '../target/e2e/source-lines-why-transpose.png' });
  expect(problems).toEqual([]);
});

test('the book example names Figure 3.2 lines; hand-written PTX names no CUDA line', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'divergence');
  await stepUntil(page, '(s) => s.sm.warps[0] && s.sm.warps[0].stack.length === 3');
  const simt = await model(page, 'simt');
  // After the branch of Figure 3.2's line 6: B (threads 0-2) starts on line 7, F on line 14.
  expect(simt.entries.map((e) => e.cuda_line)).toEqual([16, 14, 7]);

  await page.selectOption('#example', 'column-walk');
  await stepUntil(page, '(s) => s.cycle >= 1500');
  const listing = await page.evaluate(() => window.warpstep.app.listing);
  expect(listing.source_lines.every((l) => l === 0)).toBe(true);
  const plain = await model(page, 'simt');
  expect(plain.entries.every((e) => e.cuda_line === 0)).toBe(true);
  const pipe = await model(page, 'pipeline');
  for (const l of [...pipe.schedulerLabels, ...pipe.unitLabels]) expect(l).not.toContain('CUDA');
  const why = await page.evaluate(() => JSON.parse(window.warpstep.app.session.why(0, 0, -1)));
  expect(why.links.every((l) => l.source_line === null && !l.text.includes('CUDA'))).toBe(true);
  for (const b of await whyButtons(page)) expect(b).toMatch(/^line \d+$/);
  await page.locator('#view-simt').screenshot({ path: '../target/e2e/source-lines-simt-plain.png' });
  await page.locator('#view-pipeline').screenshot({ path: '../target/e2e/source-lines-pipeline-plain.png' });
  expect(problems).toEqual([]);
});
