// Share links are data, never code, and a cut, edited or hostile link fails fast with a message
// that stays on screen while the current state stays: the decoder fuzzed in the page (cuts, bit
// flips, random base64, wrong types, bombs), hostile links opened at start and typed into the
// address bar later, SM and warp checked against the machine, a long replay shown and cancelled.
import { test, expect } from '@playwright/test';
import { deflateRawSync } from 'node:zlib';
import { watchConsole, open, cycle } from './helpers.js';

const b64 = (buf) => Buffer.from(buf).toString('base64url');
const link = (obj) => b64(deflateRawSync(Buffer.from(typeof obj === 'string' ? obj : JSON.stringify(obj))));
const BASE = { v: 1, ptx: '.version 7.8', launch: '', preset: '', sets: [], cycle: 0 };

// A decompression bomb: ~260 KB of base64url inflating to 200 MB (a JSON string of 'a's).
function bomb() {
  const body = Buffer.concat([Buffer.from('{"v":1,"ptx":"'), Buffer.alloc(200 * 1024 * 1024, 97), Buffer.from('"}')]);
  return b64(deflateRawSync(body, { level: 9 }));
}

// A kernel that never ends: one warp looping forever (for a long replay).
const SPIN = `.version 7.8
.target sm_52
.address_size 64
// warpstep: --grid 1 --block 32
.visible .entry spin()
{
	.reg .b32 %r<2>;
	mov.u32 %r1, 0;
$L_loop:
	add.s32 %r1, %r1, 1;
	bra.uni $L_loop;
	ret;
}
`;

test('the decoder, fuzzed: a validated state or an Error with a message, each within a second', async ({ page }) => {
  test.setTimeout(90_000);
  const problems = watchConsole(page);
  await open(page);
  const bombs = [bomb(), link({ ...BASE, ptx: 'a'.repeat(10_000_000) }), link(`{"v":1,"sets":[${'"x",'.repeat(3_000_000)}"x"]}`)];
  expect(bombs[0].length).toBeGreaterThan(200_000);
  expect(bombs[0].length).toBeLessThan(400_000);
  // Other versions, non-objects, invalid UTF-8 and not JSON, deflated here.
  const others = ['null', '[]', '"x"', '42', '{"v":2}', '{"v":"1"}', '{"v":1', '\u00ff\u00fe'].map((j) => link(j));
  others.push(b64(deflateRawSync(Buffer.from([0xff, 0xfe, 0xc3, 0x28]))));
  const result = await page.evaluate(async ([bombs, others]) => {
    const share = await import('/src/share.js');
    const KEYS = ['cycle', 'example', 'lane', 'launch', 'preset', 'ptx', 'sets', 'sm', 'view', 'warp'];
    let seed = 17;
    const rnd = () => { seed = (seed * 1103515245 + 12345) % 2147483648; return seed / 2147483648; };
    const pick = (xs) => xs[Math.floor(rnd() * xs.length)];
    const ALPHA = 'ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-_';
    const good = share.encodeState({ ptx: window.warpstep.app.loaded.ptx, launch: '--grid 1 --block 4', preset: 'teaching', sets: ['core.warp_size=4'], cycle: 12, sm: 0, warp: 0, example: 'divergence' });
    const toBytes = (t) => Uint8Array.from(atob(t.replace(/-/g, '+').replace(/_/g, '/') + '==='.slice((t.length + 3) % 4)), (c) => c.charCodeAt(0));
    const toText = (bytes) => { let s = ''; for (const b of bytes) s += String.fromCharCode(b); return btoa(s).replace(/\+/g, '-').replace(/\//g, '_').replace(/=+$/, ''); };
    const VALUES = [0, -1, 1.5, 1e12, 2 ** 53, Number.MAX_SAFE_INTEGER, '3', '', 'x'.repeat(200), null, true, [], ['a=1'], [1], {}, { a: 1 }];
    const cases = [];
    for (let i = 0; i < 600; i++) cases.push(good.slice(0, Math.floor(rnd() * good.length)));
    for (let i = 0; i < 600; i++) {
      const at = Math.floor(rnd() * good.length);
      cases.push(good.slice(0, at) + pick(ALPHA) + good.slice(at + 1));
    }
    for (let i = 0; i < 600; i++) {
      const bytes = toBytes(good);
      for (let k = 1 + Math.floor(rnd() * 3); k > 0; k--) bytes[Math.floor(rnd() * bytes.length)] ^= 1 << Math.floor(rnd() * 8);
      cases.push(toText(bytes));
    }
    for (let i = 0; i < 600; i++) {
      let t = '';
      for (let n = Math.floor(rnd() * 400); n > 0; n--) t += pick(ALPHA + '+/=.%~ ');
      cases.push(t);
    }
    for (let i = 0; i < 600; i++) {
      const state = { v: 1, ptx: '.version 7.8', launch: '', preset: '', sets: [], cycle: 5, sm: 0, warp: 0, example: '' };
      const key = pick([...KEYS, 'ab', 'ab_panels', 'v', 'evil', '__proto__', 'constructor']);
      if (rnd() < 0.2) delete state[key]; else state[key] = pick(VALUES);
      cases.push(share.encodeState(state));
    }
    cases.push(...others, ...bombs, '', '=', 'A', 'AA', 'x'.repeat(500_000));
    let ok = 0;
    let errors = 0;
    let slowest = 0;
    const bad = [];
    const messages = new Set();
    for (const c of cases) {
      const t0 = performance.now();
      try {
        const s = share.decodeState(c);
        // The A/B keys (B's overrides, the columns' panels) come only when the link has them.
        const keys = Object.keys(s).filter((k) => k !== 'ab' && k !== 'abPanels').sort().join(',');
        const strings = (xs) => Array.isArray(xs) && xs.every((x) => typeof x === 'string');
        const valid = keys === KEYS.join(',')
          && (!('ab' in s) || (strings(s.ab) && (s.abPanels === null || strings(s.abPanels))))
          && ['ptx', 'launch', 'preset', 'example'].every((k) => typeof s[k] === 'string')
          && Array.isArray(s.sets) && s.sets.every((x) => typeof x === 'string')
          && ['cycle', 'sm', 'warp'].every((k) => Number.isSafeInteger(s[k]) && s[k] >= 0)
          && s.cycle <= share.MAX_LINK_CYCLE
          && (s.view === null || typeof s.view === 'string') && Number.isSafeInteger(s.lane) && s.lane >= -1;
        if (valid) ok++; else bad.push(`garbage: ${JSON.stringify(s).slice(0, 200)}`);
      } catch (err) {
        if (err instanceof Error && typeof err.message === 'string' && err.message.length > 10) { errors++; messages.add(err.message.replace(/\d+/g, 'N').slice(0, 60)); } else bad.push(`not an Error: ${String(err)}`);
      }
      slowest = Math.max(slowest, performance.now() - t0);
    }
    const times = [];
    for (const b of bombs) { const t0 = performance.now(); try { share.decodeState(b); } catch (err) { times.push([performance.now() - t0, err.message]); } }
    return { n: cases.length, ok, errors, slowest, bad: bad.slice(0, 5), messages: [...messages].sort(), times };
  }, [bombs, others]);
  console.log(`fuzz: ${result.n} links, ${result.ok} valid states, ${result.errors} errors, slowest ${result.slowest.toFixed(1)} ms`);
  console.log(`bombs: ${JSON.stringify(result.times)}`);
  console.log(`messages: ${result.messages.join(' | ')}`);
  expect(result.bad).toEqual([]);
  expect(result.ok + result.errors).toBe(result.n);
  expect(result.n).toBeGreaterThan(3000);
  expect(result.ok).toBeGreaterThan(100); // some mutations stay valid (unchanged padding bits, valid values)
  expect(result.slowest).toBeLessThan(1000);
  for (const [ms, message] of result.times) {
    expect(ms).toBeLessThan(1000);
    expect(message).toMatch(/too (large|long)/);
  }
  expect(problems).toEqual([]);
});

const HOSTILE = [
  ['cut', () => 'eJyrVkpUslIqSS0uUaoFAB2pBCs', /does not decompress|not valid base64/],
  ['random base64', () => 'Zm9vYmFyIGJheiBxdXV4IGhlbGxvIHdvcmxk', /does not decompress/],
  ['not base64', () => '%%%<script>alert(1)</script>', /not valid base64url/],
  ['wrong version', () => link({ ...BASE, v: 7 }), /unknown version \(7; this page reads version 1\)/],
  ['cycle 10^12', () => link({ ...BASE, cycle: 1e12 }), /cycle 1000000000000 is above the most a link allows \(10000000\)/],
  ['cycle 2^53', () => link({ ...BASE, cycle: 2 ** 53 }), /cycle 9007199254740992 is above the most/],
  ['cycle just above the maximum', () => link({ ...BASE, cycle: 10_000_001 }), /cycle 10000001 is above the most a link allows/],
  ['unknown key', () => link({ ...BASE, onload: 'alert(1)' }), /unknown key "onload"/],
  ['string warp', () => link({ ...BASE, warp: '3' }), /warp is the text "3", not a whole number/],
  ['negative SM', () => link({ ...BASE, sm: -1 }), /sm is negative \(-1\)/],
  ['10 MB kernel', () => link({ ...BASE, ptx: `// ${'x'.repeat(10_000_000)}` }), /too large once decompressed/],
  ['bomb', bomb, /too large once decompressed/],
];

for (const [name, make, message] of HOSTILE) {
  test(`a hostile link at start (${name}): the message stays, the default example loads`, async ({ page }) => {
    const problems = watchConsole(page);
    const encoded = make();
    const t0 = Date.now();
    await open(page, `/#s=${encoded}`);
    const loadMs = Date.now() - t0;
    await expect(page.locator('#notice')).toBeVisible();
    await expect(page.locator('#notice')).toContainText('This link cannot be opened');
    expect(await page.locator('#notice').textContent()).toMatch(message);
    await expect(page.locator('#example')).toHaveValue('divergence');
    await expect(page.locator('#cycle')).toHaveText('0');
    // The message is text: the notice holds its text span and its close button, nothing else.
    expect(await page.locator('#notice *').count()).toBe(2);
    // The decode itself is measured in the fuzz test; the whole page load stays quick too.
    expect(loadMs).toBeLessThan(15_000);
    // Still there a moment later and after stepping (the error stays until dismissed).
    await page.waitForTimeout(300);
    await page.locator('body').press('ArrowRight');
    await expect(page.locator('#cycle')).toHaveText('1');
    await expect(page.locator('#notice')).toBeVisible();
    if (name === 'bomb') await page.screenshot({ path: '../target/e2e/link-bomb.png' });
    expect(problems).toEqual([]);
  });
}

test('the link error stays until dismissed or something loads', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page, '/#s=eJyrVkpUslIqSS0uUaoFAB2pBCs');
  const notice = page.locator('#notice');
  await expect(notice).toBeVisible();
  await page.waitForTimeout(1500);
  await expect(notice).toBeVisible();
  await page.screenshot({ path: '../target/e2e/link-cut.png' });
  await page.click('#notice .notice-close');
  await expect(notice).toBeHidden();
  // Again (a link typed into the address bar), and this time loading an example clears it.
  await page.evaluate(() => { window.location.hash = 's=AAAA'; });
  await expect(notice).toBeVisible();
  await expect(notice).toContainText('The current simulation stays');
  await page.selectOption('#example', 'reduction');
  await expect(notice).toBeHidden();
  expect(problems).toEqual([]);
});

test('a link typed into the address bar later: a bad one keeps the current state, a good one opens', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  await page.selectOption('#example', 'reduction');
  await page.fill('#step-n', '7');
  await page.click('#btn-step-n');
  await expect(page.locator('#cycle')).toHaveText('7');
  const before = await page.evaluate(() => window.warpstep.app.session.snapshot(0));
  await page.evaluate((h) => { window.location.hash = h; }, `s=${link({ ...BASE, evil: 1 })}`);
  await expect(page.locator('#notice')).toContainText('unknown key "evil"');
  await expect(page.locator('#notice')).toContainText('The current simulation stays');
  await expect(page.locator('#example')).toHaveValue('reduction');
  expect(await cycle(page)).toBe(7);
  expect(await page.evaluate(() => window.warpstep.app.session.snapshot(0))).toBe(before);
  // A link whose kernel does not build: its error, and still the same state and editor text.
  const text = await page.evaluate(() => window.warpstep.app.editor.getText());
  await page.evaluate((h) => { window.location.hash = h; }, `s=${link({ ...BASE, ptx: 'this is not ptx' })}`);
  await expect(page.locator('#notice')).toContainText('its kernel does not load');
  expect(await page.evaluate(() => window.warpstep.app.editor.getText())).toBe(text);
  expect(await cycle(page)).toBe(7);
  // A good link opens and clears the message.
  const good = await page.evaluate(async () => {
    const { encodeState } = await import('/src/share.js');
    const app = window.warpstep.app;
    return encodeState({ ...app.shareState(), cycle: 3 });
  });
  await page.evaluate((h) => { window.location.hash = h; }, `s=${good}`);
  await expect(page.locator('#cycle')).toHaveText('3');
  await expect(page.locator('#notice')).toBeHidden();
  expect(problems).toEqual([]);
});

test('a link\'s SM and warp are checked against its machine', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const make = (extra) => page.evaluate(async (extra) => {
    const { encodeState } = await import('/src/share.js');
    return encodeState({ ...window.warpstep.app.shareState(), ...extra });
  }, extra);
  const badWarp = await make({ warp: 999 });
  const badSm = await make({ sm: 5 });
  const goodWarp = await make({ warp: 0, cycle: 4 });
  await open(page, `/#s=${badWarp}`);
  await expect(page.locator('#notice')).toContainText(/its warp 999 does not exist \(an SM has \d+ warp slots\)/);
  await open(page, `/#s=${badSm}`);
  await expect(page.locator('#notice')).toContainText('its SM 5 does not exist (the machine has 1 SM)');
  await open(page, `/#s=${goodWarp}`);
  await expect(page.locator('#notice')).toBeHidden();
  await expect(page.locator('#cycle')).toHaveText('4');
  expect(problems).toEqual([]);
});

test('a long replay to a linked cycle shows its progress and Space stops it', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  const encoded = await page.evaluate(async (ptx) => {
    const { encodeState, MAX_LINK_CYCLE } = await import('/src/share.js');
    return encodeState({ ptx, launch: '', preset: '', sets: [], cycle: MAX_LINK_CYCLE, sm: 0, warp: 0, example: '' });
  }, SPIN);
  await page.evaluate((h) => { window.location.hash = h; }, `s=${encoded}`);
  const status = page.locator('#run-status');
  await expect(status).toContainText('going to cycle 10000000');
  await expect(status).toContainText('% · Space stops');
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'going');
  await page.waitForTimeout(500);
  await page.screenshot({ path: '../target/e2e/link-replay.png' });
  await page.keyboard.press(' ');
  await expect(page.locator('body')).toHaveAttribute('data-run-state', 'paused');
  expect(await status.textContent()).toMatch(/^paused\nIPC \d+\.\d\d thread instr\/cycle$/);
  const at = await cycle(page);
  expect(at).toBeGreaterThan(0);
  expect(at).toBeLessThan(10_000_000);
  await page.waitForTimeout(300);
  expect(await cycle(page)).toBe(at);
  expect(problems).toEqual([]);
});

test('a link keeps the enlarged panel and the Why? panel\'s lane; bad ones are named', async ({ page }) => {
  const problems = watchConsole(page);
  await open(page);
  // The default example (one warp of 4 lanes): enlarge the Why? panel and ask about lane 2.
  await page.evaluate(() => {
    const app = window.warpstep.app;
    app.session.step(40);
    app.selectLane(2);
    app.toggleFocus(document.getElementById('view-why'));
  });
  const state = await page.evaluate(() => window.warpstep.app.shareState());
  expect(state).toMatchObject({ view: 'why', lane: 2, cycle: 40 });
  const make = (extra) => page.evaluate(async (s) => {
    const { encodeState } = await import('/src/share.js');
    return encodeState(s);
  }, { ...state, ...extra });
  const good = await make({});
  await open(page, `/#s=${good}`);
  await expect(page.locator('#cycle')).toHaveText('40');
  await expect(page.locator('#view-why')).toHaveClass(/focused/);
  expect(await page.evaluate(() => window.warpstep.app.lane)).toBe(2);
  await expect(page.locator('#view-why .why-note')).toContainText('lane 2 of warp 0');
  await open(page, `/#s=${await make({ view: 'nope' })}`);
  await expect(page.locator('#notice')).toContainText('the link\'s view "nope" is not a panel (panels: pipeline, simt, timeline, why,');
  await open(page, `/#s=${await make({ lane: 9 })}`);
  await expect(page.locator('#notice')).toContainText('its lane 9 does not exist (a warp has 4 lanes)');
  // Without them, nothing is enlarged and the whole warp is explained.
  await open(page, `/#s=${await make({ view: undefined, lane: undefined })}`);
  await expect(page.locator('.view.focused')).toHaveCount(0);
  expect(await page.evaluate(() => window.warpstep.app.lane)).toBe(-1);
  expect(problems).toEqual([]);
});
