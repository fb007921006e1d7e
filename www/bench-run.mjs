// Runs bench.html in Debian's headless Chromium and prints its results (not a test):
//   cd www && node bench-run.mjs      (needs `make wasm` first)
//   cd www && node bench-run.mjs all  (every view drawn every frame, on screen or not)
//   cd www && node bench-run.mjs work=15  (frames sized to 15 ms of work instead of the app's)
import { spawn } from 'node:child_process';
import { chromium } from '@playwright/test';

// BENCH_PORT: another port for the page's server (8397 by default).
const port = Number(process.env.BENCH_PORT || 8397);
const vite = spawn('node_modules/.bin/vite', ['--port', String(port), '--strictPort', '--host', '127.0.0.1'], { stdio: 'ignore' });
await new Promise((r) => setTimeout(r, 4000));
const browser = await chromium.launch({ executablePath: process.env.CHROMIUM || '/usr/bin/chromium', args: ['--no-sandbox', '--disable-gpu'] });
try {
  const page = await browser.newPage({ viewport: { width: 1280, height: 720 } });
  page.on('pageerror', (e) => console.error('page error:', String(e), e.stack));
  // `node bench-run.mjs all` draws every view; `node bench-run.mjs work=15` sizes frames to 15 ms.
  const query = process.argv.slice(2).join('&');
  await page.goto(`http://127.0.0.1:${port}/bench.html${query ? `?${query}` : ''}`);
  await page.waitForSelector('body[data-done=true]', { timeout: 300_000 });
  const { rows, back } = JSON.parse(await page.locator('body').getAttribute('data-results'));
  console.log('case            preset    warps   cycles/s   frames/s  frame ms avg/max  median/p95  sim ms draw ms  sim-only cycles/s  step+redraw ms avg/max');
  for (const r of rows) {
    console.log(`${r.case.padEnd(15)} ${r.preset.padEnd(9)} ${String(r.warps).padStart(5)} ${Math.round(r.cyclesPerSec).toString().padStart(10)} ${r.fps.toFixed(1).padStart(10)}  ${r.frameAvg.toFixed(1).padStart(6)} / ${r.frameMax.toFixed(1).padEnd(8)} ${r.frameMedian.toFixed(1).padStart(5)} / ${r.frameP95.toFixed(1).padEnd(5)} ${r.simAvg.toFixed(1).padStart(6)} ${r.drawAvg.toFixed(1).padStart(7)} ${Math.round(r.simCyclesPerSec).toString().padStart(17)}  ${r.stepAvg.toFixed(2).padStart(6)} / ${r.stepMax.toFixed(2)}`);
  }
  console.log('draw ms per frame by view (full speed): ' + rows.map((r) => `\n  ${r.case}/${r.preset}: ${Object.entries(r.perView).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`).join(''));
  console.log('step and redraw, ms by part: ' + rows.map((r) => `\n  ${r.case}/${r.preset}: ${Object.entries(r.stepPerView).filter(([, v]) => v >= 0.05).map(([k, v]) => `${k} ${v.toFixed(2)}`).join(', ')}`).join(''));
  console.log(`step back one cycle at cycle ${back.at}: ${back.avg.toFixed(1)} ms avg, ${back.max.toFixed(1)} ms max; ${back.checkpoints} checkpoints; wasm memory ${back.memoryMB.toFixed(1)} MB; reached in ${back.reach.toFixed(1)} s`);
  await page.screenshot({ path: '../target/e2e/bench.png', fullPage: true });
} finally {
  await browser.close();
  vite.kill();
}
